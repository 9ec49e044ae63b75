"""``python -m core train / evaluate / special-tokens / round-trip``: JSON shapes, proofs, one-line errors."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.cli import main

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "assets" / "train" / "bn_shop_corpus.txt"


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def run_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    return err


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """bpe and wordpiece trained by the CLI on the bundled corpus (600 tokens)."""
    d = tmp_path_factory.mktemp("cli")
    out = {}
    for recipe in ("bpe", "wordpiece"):
        path = d / f"{recipe}.json"
        assert main(["train", "--recipe", recipe, "--vocab-size", "600", "--out", str(path), "--json"]) == 0
        out[recipe] = path
    return out


def test_train_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "tok.json"
    res = run_json(capsys, "train", "--recipe", "byte-plain", "--vocab-size", "400", "--corpus", str(CORPUS),
                   "--out", str(out_file))
    assert out_file.is_file()
    from core.analysis.recipes import sha256_text

    assert res["sha256"] == sha256_text(out_file.read_text(encoding="utf-8"))
    assert res["proof"]["byte_identical"] and res["proof"]["ids_identical"]
    assert res["proof"]["sentences"] == res["split"]["heldout_sentences"] > 100
    m = res["metrics"]
    assert (m["vocab_requested"], m["vocab_obtained"], m["round_trip_pct"]) == (400, 400, 100.0)
    assert m["train_seconds"] > 0 and m["usage"]["zipf_counts"]


def test_train_gpt2_note(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    res = run_json(capsys, "train", "--recipe", "byte-gpt2", "--vocab-size", "3000", "--out", str(tmp_path / "g.json"))
    m = res["metrics"]
    assert m["vocab_obtained"] < 1500 and "\\p{M}" in m["vocab_note"]


def test_evaluate_with_corpus_and_baselines(capsys: pytest.CaptureFixture[str], saved: dict[str, Path]) -> None:
    res = run_json(capsys, "evaluate", "--tokenizers", f"{saved['bpe']},{saved['wordpiece']}",
                   "--corpus", str(CORPUS), "--baselines")
    rows = {r["tokenizer"].split(" ")[0]: r for r in res["rows"]}
    assert rows["bpe.json"]["round_trip_pct"] == 100.0
    assert rows["wordpiece.json"]["round_trip_pct"] < 100.0 and rows["wordpiece.json"]["failures"]
    assert len(res["rows"]) == 2 + 3
    assert all(p["byte_identical"] and p["ids_identical"] for p in res["proofs"].values())


def test_train_and_evaluate_agree(capsys: pytest.CaptureFixture[str], saved: dict[str, Path], tmp_path: Path) -> None:
    """The same metrics from `train` and from `evaluate --corpus` (same split, same held-out text)."""
    path = tmp_path / "u.json"
    trained = run_json(capsys, "train", "--recipe", "unigram", "--vocab-size", "500", "--out", str(path))
    evaluated = run_json(capsys, "evaluate", "--tokenizers", str(path), "--corpus", str(CORPUS))
    a, b = trained["metrics"], evaluated["rows"][0]
    for key in ("vocab_obtained", "tokens_per_sentence", "unk_pct", "round_trip_pct", "cut_pct", "bad_pct"):
        assert a[key] == b[key], key


def test_evaluate_heldout_file(capsys: pytest.CaptureFixture[str], saved: dict[str, Path], tmp_path: Path) -> None:
    held = tmp_path / "held.txt"
    held.write_text("আপনার অর্ডার আগামীকাল রাজশাহী পৌঁছাবে।\n\nনতুন বই এসেছে।\n", encoding="utf-8")
    res = run_json(capsys, "evaluate", "--tokenizers", str(saved["bpe"]), "--heldout", str(held))
    assert res["heldout"]["sentences"] == 2 and res["rows"][0]["sentences"] == 2


def test_special_tokens(capsys: pytest.CaptureFixture[str], saved: dict[str, Path]) -> None:
    res = run_json(capsys, "special-tokens", "--tokenizers", str(saved["bpe"]), "--text", "a [SEP] b")
    by_mode = {r["mode"]: r for r in res["results"]}
    assert by_mode["library default"]["risk"] and by_mode["library default"]["controls"] == [["[SEP]", 3]]
    assert by_mode["encode_special_tokens=True"]["outcome"] == "text"


def test_round_trip_suite(capsys: pytest.CaptureFixture[str], saved: dict[str, Path], tmp_path: Path) -> None:
    res = run_json(capsys, "round-trip", "--tokenizers", str(saved["wordpiece"]))
    r = res["tokenizers"][str(saved["wordpiece"])]
    assert r["cases"] >= 15 and r["passed"] < r["cases"]
    f = tmp_path / "cases.txt"
    f.write_text("বাজার ঘর\n\nনতুন\n", encoding="utf-8")
    res = run_json(capsys, "round-trip", "--tokenizers", str(saved["wordpiece"]), "--file", str(f))
    assert res["tokenizers"][str(saved["wordpiece"])]["cases"] == 2


def test_errors_are_one_line(capsys: pytest.CaptureFixture[str], saved: dict[str, Path], tmp_path: Path) -> None:
    trunc = tmp_path / "trunc.json"
    trunc.write_bytes(saved["bpe"].read_bytes()[:2000])
    assert "truncated" in run_error(capsys, "evaluate", "--tokenizers", str(trunc), "--corpus", str(CORPUS))
    assert "outside" in run_error(capsys, "train", "--recipe", "bpe", "--vocab-size", "5", "--out", str(tmp_path / "x.json"))
    assert "cannot read" in run_error(capsys, "train", "--recipe", "bpe", "--vocab-size", "500", "--corpus",
                                      str(tmp_path / "missing.txt"), "--out", str(tmp_path / "x.json"))
    assert "exactly one" in run_error(capsys, "evaluate", "--tokenizers", str(saved["bpe"]))
    assert "--baselines needs" in run_error(capsys, "evaluate", "--tokenizers", str(saved["bpe"]), "--heldout",
                                            str(CORPUS), "--baselines")
    tiny = tmp_path / "tiny.txt"
    tiny.write_text("one line only\n", encoding="utf-8")
    assert "too small" in run_error(capsys, "train", "--recipe", "bpe", "--vocab-size", "500", "--corpus", str(tiny),
                                    "--out", str(tmp_path / "x.json"))
    assert "unknown tokenizer" in run_error(capsys, "special-tokens", "--tokenizers", "no-such-tokenizer")
    assert "cannot read" in run_error(capsys, "round-trip", "--tokenizers", str(tmp_path / "absent.json"))


def test_module_entry_point(tmp_path: Path) -> None:
    """`python -m core train` as a user runs it: exit 0 and a readable table."""
    out = tmp_path / "t.json"
    proc = subprocess.run(
        [sys.executable, "-m", "core", "train", "--recipe", "bpe", "--vocab-size", "300", "--out", str(out)],
        cwd=REPO, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "re-save identical: True" in proc.stdout and out.is_file()


class _Terminal:
    """A stderr that says it is a terminal and keeps what is written (the bars are drawn only on a terminal)."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def isatty(self) -> bool:
        return True

    def write(self, s: str) -> int:
        self.parts.append(s)
        return len(s)

    def flush(self) -> None:
        pass


#: The passes FileSplit makes over a --corpus file, as its progress names them (core/analysis/corpus.py).
PASSES = ["reading the corpus (1/4)", "finding the held-out documents (2/4)",
          "checking held-out lines against training (3/4)", "training (4/4)"]


def test_train_corpus_draws_one_progress_bar_per_pass(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """README: ``train --corpus`` draws one bar per pass over the file. Each bar is one line on the terminal (its
    redraws start with a carriage return, the next bar on a new line): four lines, one per pass, in order, each
    redrawn under its own label only and ending at the whole file."""
    term = _Terminal()
    monkeypatch.setattr(sys, "stderr", term)
    assert main(["train", "--recipe", "byte-plain", "--vocab-size", "300", "--corpus", str(CORPUS),
                 "--out", str(tmp_path / "t.json"), "--json"]) == 0
    capsys.readouterr()
    lines = "".join(term.parts).split("\n")
    assert lines[-1] == ""  # the last bar ends its line
    bars = [[d for d in line.split("\r") if d] for line in lines[:-1]]
    assert [{d.split(" [")[0] for d in draws} for draws in bars] == [{f"train: {p}"} for p in PASSES]
    size = f"{CORPUS.stat().st_size / 1e6:,.1f}"
    assert all(f"] {size}/{size} MB" in draws[-1] for draws in bars)


def test_a_failed_write_leaves_no_partial_file(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """README: outputs are written atomically. A write that fails after the data went out (the disk full at
    fsync) is one error line, and the folder holds what it held before: the old file whole, no temp file, no
    part of the new one. Both commands that write files are tried (``train --out``, ``report --out/--md``)."""
    import errno
    import os

    old = {"tok.json": b'{"old": true}', "r.html": b"<p>old</p>", "r.md": b"old", "in.txt": "বাজার".encode()}
    for name, data in old.items():
        (tmp_path / name).write_bytes(data)

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    for argv in (["train", "--recipe", "byte-plain", "--vocab-size", "300", "--out", str(tmp_path / "tok.json")],
                 ["report", "--tokenizers", "bytes", "--file", str(tmp_path / "in.txt"), "--out", str(tmp_path / "r.html"),
                  "--md", str(tmp_path / "r.md"), "--workers", "1"]):
        err = run_error(capsys, *argv)
        assert "No space left on device" in err
        assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == old
    monkeypatch.undo()
    assert main(["train", "--recipe", "byte-plain", "--vocab-size", "300", "--out", str(tmp_path / "tok.json")]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(old)  # the new file replaced the old, nothing else
    json.loads((tmp_path / "tok.json").read_text(encoding="utf-8"))  # and it is whole
