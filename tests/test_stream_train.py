"""Training from big corpora: streamed word counts, ``bpe-train --min-frequency``, streamed ``train``/``evaluate --corpus``."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from core.cli import main
from core.models.bpe import BpeInputError, train_bpe, word_counts, word_counts_stream
from core.pipeline.pretokenize import PATTERNS

TABLE = "কার:4,জার:2,বাকি:3,বাজার:5,বাজারে:2,বাজারের:3,ঘর:4,ঘরের:3"


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _mixed_text(n_lines: int, seed: int = 7) -> str:
    rng = random.Random(seed)
    words = ["বাজার", "ঘরের", "কার", "Hello", "world.", "it's", "12345", "   ", "\t", "a.", "!!", "سلام", "দাম:৫০০",
             "x\u00a0y", "\u2028", "\r", "'ll"]
    lines = []
    for _ in range(n_lines):
        sep = rng.choice([" ", "  ", "", "\t"])
        lines.append(sep.join(rng.choice(words) for _ in range(rng.randint(0, 12))))
    return "\n".join(lines) + rng.choice(["", "\n", "  \n\n"])


# -- bpe-train: streamed word counts ----------------------------------------------------


@pytest.mark.parametrize("pattern", [p for p in PATTERNS if PATTERNS[p].regex is not None])
def test_streamed_word_counts_equal_the_whole_text(pattern: str) -> None:
    text = _mixed_text(200)
    whole = word_counts(text, pattern)
    for size in (5, 300, 1000, 10**6):
        cut = [text[i:i + size] for i in range(0, len(text), size)]
        got = word_counts_stream(cut, pattern)
        assert got == whole and list(got) == list(whole), (pattern, size)  # same counts, same first-seen order


def test_streamed_word_counts_refuse_a_custom_regex_and_too_many_words() -> None:
    with pytest.raises(BpeInputError, match="custom"):
        word_counts_stream(["ab ab"], r"\w+")
    with pytest.raises(BpeInputError, match="more than 10 distinct words"):
        word_counts_stream([" ".join(f"w{i}" for i in range(50))], "ws-attached", max_words=10)


def test_bpe_train_corpus_file_equals_the_whole_text(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from core.analysis import stream

    text = _mixed_text(40_000, seed=3)
    p = tmp_path / "c.txt"
    p.write_text(text, encoding="utf-8", newline="")
    assert len(list(stream.iter_chunks(str(p)))) >= 2  # read in more than one chunk
    ref = train_bpe(corpus=text, merges=40, unit="byte", pattern="gpt2", top_k=3)
    out = run_json(capsys, "bpe-train", "--corpus", str(p), "--merges", "40", "--unit", "byte", "--pattern",
                   "gpt2", "--top-k", "3")
    assert [(s["left_hex"], s["right_hex"], s["count"]) for s in out["steps"]] == \
        [(st.left.hex(" ").upper(), st.right.hex(" ").upper(), st.count) for st in ref.steps]
    assert out["initial"]["total_tokens"] == ref.initial_total_tokens


# -- bpe-train --min-frequency --------------------------------------------------------------


def test_min_frequency_stops_before_a_rarer_pair(capsys: pytest.CaptureFixture[str]) -> None:
    # The worked example's pairs: া+র 16, ব+া 13, জ+ার 12, ... A threshold of 13 keeps the first two only.
    out = run_json(capsys, "bpe-train", "--words", TABLE, "--merges", "10", "--min-frequency", "13")
    assert [(s["left"], s["right"], s["count"]) for s in out["steps"]] == [("া", "র", 16), ("ব", "া", 13)]
    out = run_json(capsys, "bpe-train", "--words", TABLE, "--merges", "50", "--min-frequency", "4")
    assert out["steps"] and all(s["count"] >= 4 for s in out["steps"])
    every = run_json(capsys, "bpe-train", "--words", TABLE, "--merges", "50")
    assert any(s["count"] < 4 for s in every["steps"])  # without the threshold rarer pairs are merged


def test_min_frequency_default_keeps_the_worked_example(capsys: pytest.CaptureFixture[str]) -> None:
    for extra in ([], ["--min-frequency", "1"]):
        out = run_json(capsys, "bpe-train", "--words", TABLE, "--merges", "3", *extra)
        assert [(s["left"], s["right"], s["count"], s["total_tokens"]) for s in out["steps"]] == [
            ("া", "র", 16, 92), ("ব", "া", 13, 79), ("জ", "ার", 12, 67)]


@pytest.mark.parametrize("value, message", [("0", ">= 1"), ("-3", ">= 1"), ("2.5", "not a whole number"),
                                            ("x", "not a whole number")])
def test_min_frequency_is_validated(capsys: pytest.CaptureFixture[str], value: str, message: str) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["bpe-train", "--words", TABLE, "--merges", "3", "--min-frequency", value])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1
