"""``python -m core list|tokenize|replay|compare``: JSON shapes and one-line errors."""
from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest

from core.cli import main
from tests.helpers import REPO


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_json_shape(capsys):
    code, out, _ = run(capsys, "list", "--json")
    rows = json.loads(out)
    assert code == 0
    assert {r["id"] for r in rows} >= {"cl100k_base", "o200k_base", "llama3", "llama4", "tekken", "mistral-spm-v1"}
    for r in rows:
        assert set(r) == {"id", "name", "algorithm", "vocab_size", "source", "sha256", "available", "audit",
                          "runtime_differs"}
        assert r["available"] is True


def test_tokenize_json_shape_and_offsets(capsys):
    code, out, _ = run(capsys, "tokenize", "--tokenizer", "cl100k_base", "--text", "কি রাজ", "--json")
    res = json.loads(out)
    assert code == 0 and res["tokenizer"] == "cl100k_base" and res["count"] == len(res["tokens"])
    assert set(res["tokens"][0]) == {"id", "text", "hex", "start", "end", "valid_utf8"}
    assert res["tokens"][0]["hex"].startswith("E0 A6")
    assert all(0 <= t["start"] < t["end"] <= 6 for t in res["tokens"])
    b = res["boundaries"]
    assert set(b) == {"total", "inside_grapheme", "inside_codepoint"} and b["total"] == res["count"] - 1
    assert b["inside_grapheme"] >= b["inside_codepoint"] > 0  # cl100k cuts Bangla letters in half


def test_tokenize_warns_about_special_text(capsys):
    code, out, err = run(capsys, "tokenize", "--tokenizer", "o200k_base", "--text", "a <|endoftext|>", "--json")
    res = json.loads(out)
    assert code == 0 and "199999" in err and "plain text" in err
    assert 199999 not in [t["id"] for t in res["tokens"]]


def test_replay_json_ends_with_library_ids(capsys):
    code, out, _ = run(capsys, "replay", "--tokenizer", "o200k_base", "--text", "রাজশাহী", "--json")
    res = json.loads(out)
    from core.pretrained import zoo

    assert code == 0 and res["final_ids"] == zoo.load("o200k_base").encode_ids("রাজশাহী")
    assert len(res["final_ids"]) == 3
    ranks = [s["rank"] for s in res["steps"]]
    assert all(set(s) == {"rank", "pieces_hex"} for s in res["steps"])
    assert res["steps"][0]["pieces_hex"][0] != "E0"  # the first merge already joined two bytes
    assert len(res["steps"][-1]["pieces_hex"]) == 3 and ranks[-1] in res["final_ids"]


def test_compare_json_and_csv(capsys, tmp_path):
    tsv = tmp_path / "p.tsv"
    tsv.write_text("en\tbn\nThe house\tবাড়িটা\nMy house\tআমার বাড়ি\n", encoding="utf-8")
    code, out, _ = run(capsys, "compare", "--tokenizers", "cl100k_base,o200k_base", "--parallel", str(tsv), "--json")
    res = json.loads(out)
    assert code == 0 and set(res) == {"cl100k_base", "o200k_base"}
    en = res["cl100k_base"]["languages"]["en"]
    assert set(en) == {"tokens", "words", "chars", "bytes", "single_token_words", "continued_words", "single_token_words_space",
                       "continued_words_space", "pretokenizer_pieces", "optimal_tokens", "renyi_efficiency"}
    assert en["words"] == 4 and en["chars"] == 17 and res["cl100k_base"]["vocab_size"] == 100277
    assert res["cl100k_base"]["premium"]["en"] == 1.0
    assert res["cl100k_base"]["premium"]["bn"] > res["o200k_base"]["premium"]["bn"]
    code, out, _ = run(capsys, "compare", "--tokenizers", "cl100k_base", "--parallel", str(tsv), "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and [r["language"] for r in rows] == ["en", "bn"]


@pytest.mark.parametrize(
    "argv,match",
    [
        (["tokenize", "--tokenizer", "gpt-9", "--text", "x"], "unknown tokenizer 'gpt-9'"),
        (["tokenize", "--tokenizer", "cl100k_base", "--file", "/nonexistent/x.txt"], "cannot read /nonexistent/x.txt"),
        (["replay", "--tokenizer", "xlm-r", "--text", "x"], "xlm-r is not BPE (SentencePiece Unigram)"),
        (["compare", "--tokenizers", "cl100k_base", "--parallel", "NOEN"], "has no 'en' column"),
        (["compare", "--tokenizers", "cl100k_base,nope", "--parallel", "BUNDLED"], "unknown tokenizer 'nope'"),
    ],
)
def test_errors_are_one_line_with_nonzero_exit(capsys, tmp_path, argv, match):
    noen = tmp_path / "noen.tsv"
    noen.write_text("bn\tfa\nক\tب\n", encoding="utf-8")
    argv = [str(noen) if a == "NOEN" else str(REPO / "assets" / "parallel.tsv") if a == "BUNDLED" else a for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and match in err and "Traceback" not in err


def test_module_entry_point_runs():
    proc = subprocess.run(
        [sys.executable, "-m", "core", "tokenize", "--tokenizer", "tekken", "--text", "Oʻzbekiston"],
        capture_output=True, text=True, cwd=REPO, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0 and "tekken:" in proc.stdout
