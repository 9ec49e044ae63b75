"""``python -m core``: JSON shapes, worked examples, one-line errors."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.cli import main

TABLE = "কার:4,জার:2,বাকি:3,বাজার:5,বাজারে:2,বাজারের:3,ঘর:4,ঘরের:3"


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_bpe_train_words_json(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "bpe-train", "--words", TABLE, "--merges", "3", "--encode", "বাজারঘর")
    assert out["initial"] == {"total_tokens": 108, "vocab_size": 8}
    assert [(s["left"], s["right"], s["count"], s["total_tokens"]) for s in out["steps"]] == [
        ("া", "র", 16, 92),
        ("ব", "া", 13, 79),
        ("জ", "ার", 12, 67),
    ]
    step = out["steps"][0]
    assert set(step) >= {"step", "left", "right", "merged", "left_hex", "right_hex", "count", "total_tokens", "vocab_size"}
    assert step["left_hex"] == "E0 A6 BE" and step["right_hex"] == "E0 A6 B0"
    assert out["encoded"]["tokens"] == ["বা", "জার", "ঘ", "র"]


def test_bpe_train_byte_corpus(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    corpus = tmp_path / "c.txt"
    corpus.write_text("রাজ রাজ রাজা", encoding="utf-8")
    out = run_json(capsys, "bpe-train", "--corpus", str(corpus), "--merges", "1", "--unit", "byte", "--encode", "রাজ")
    first = out["steps"][0]
    assert (first["left_hex"], first["right_hex"]) == ("E0", "A6")
    assert first["merged"] == "\ufffd"  # E0 A6 alone is not valid UTF-8
    assert out["encoded"]["hex"][:2] == ["E0 A6", "B0"]
    assert out["encoded"]["round_trip"] is True


def test_graphemes_json(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "graphemes", "--text", "প্যাকেট ক্ষ")
    assert out["unicode_version"] == "17.0.0"
    assert out["clusters"] == ["প্যা", "কে", "ট", " ", "ক্ষ"]


def test_table_output_is_readable(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bpe-train", "--words", "low:5,lower:2", "--merges", "2"]) == 0
    out = capsys.readouterr().out
    assert "l + o" in out and "start: 25 tokens" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["bpe-train", "--words", "কার:x", "--merges", "2"], "not an integer"),
        (["bpe-train", "--words", "কার:4", "--merges", "-1"], ">= 0"),
        (["bpe-train", "--words", "কার:4", "--merges", "1", "--unit", "word"], "invalid choice"),
        (["bpe-train", "--corpus", "/nonexistent/file.txt", "--merges", "1"], "cannot read"),
        (["bpe-train", "--words", "a:1", "--merges", "1", "--pattern", "("], "--pattern applies to --corpus"),
        (["bpe-train", "--corpus", "assets/corpus/bazarghar.txt", "--merges", "1", "--pattern", "("], "invalid regex"),
    ],
)
def test_bad_input_one_line_error(argv: list[str], message: str, tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-m", "core", *argv], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[1],
                          env={"PYTHONPATH": str(Path(__file__).resolve().parents[1])})
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0]
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("content", [b"\x00\x01\x02binary", b"\xff\xfe\x00a", b"\xe0\xa6", b""])
def test_bad_corpus_files(content: bytes, tmp_path: Path) -> None:
    corpus = tmp_path / "c.txt"
    corpus.write_bytes(content)
    proc = subprocess.run([sys.executable, "-m", "core", "bpe-train", "--corpus", str(corpus), "--merges", "1"],
                          capture_output=True, text=True, env={"PYTHONPATH": str(Path(__file__).resolve().parents[1])})
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr


def test_differences_gives_the_compare_views_cuts(capsys: pytest.CaptureFixture[str]) -> None:
    """Code points cut between every two characters; bytes also inside each multi-byte one."""
    out = run_json(capsys, "differences", "--tokenizers", "codepoints,bytes", "--text", "কি a", "--json")
    # "কি a": ক and ি are 3 bytes each; code points cut before characters 1, 2, 3; bytes also inside ক and ি
    assert out["common_cuts"] == [[1, 0], [2, 0], [3, 0]]
    assert out["differing"] == [[0, 1], [0, 2], [1, 1], [1, 2]]
    assert out["positions"] == 7 and out["common"] == 3 and out["agreement"] == round(3 / 7, 6)
    rows = {r["name"]: r for r in out["rows"]}
    assert rows["codepoints"]["missed"] == out["differing"] and rows["bytes"]["not_shared"] == out["differing"]


def test_differences_needs_two_tokenizers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["differences", "--tokenizers", "bytes", "--text", "x"]) == 2
    assert "at least two" in capsys.readouterr().err
