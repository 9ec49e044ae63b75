"""`python -m core wordpiece|unigram|normalize|pretokenize`: JSON output and one-line errors."""
from __future__ import annotations

import json
import subprocess
import sys
import unicodedata

import pytest

from core.cli import main
from tests.helpers import REPO


def run(capsys, *argv: str) -> tuple[int, object, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 and "--json" in argv else out), err


def test_wordpiece_typed_vocab_file(tmp_path, capsys):
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("[UNK]\nঘর\nদাম\n##ের\n##ে\n##র\n##ি\n", encoding="utf-8")
    code, r, _ = run(capsys, "wordpiece", "--vocab", str(vocab), "--text", "ঘরের দামি ঘরেই", "--json")
    assert code == 0
    assert r["tokens"] == ["ঘর", "##ের", "দাম", "##ি", "[UNK]"]
    last = r["words"][2]
    assert last["unk"] and last["steps"][-1]["match"] is None and last["steps"][0]["tried"] == ["ঘরেই", "ঘরে", "ঘর"]


def test_wordpiece_sample_and_table(capsys):
    code, out, _ = run(capsys, "wordpiece", "--vocab", "sample", "--text", "বাজারঘরের")
    assert code == 0 and "WordPieceTrainer" in out and "match" in out


def test_unigram_sample_json(capsys):
    code, r, _ = run(capsys, "unigram", "--tokenizer", "sample", "--text", "বাজারঘরের ঘর", "--json")
    assert code == 0 and len(r["words"]) == 2
    w = r["words"][0]
    assert w["word"] == "▁বাজারঘরের" and w["best"]["pieces"] == w["top"][0]["pieces"]
    assert all(a["score"] >= b["score"] for a, b in zip(w["top"], w["top"][1:])) and len(w["top"]) == 5
    assert {"start", "end", "piece", "logprob"} <= set(w["lattice"][0])


def test_unigram_long_word_notice(capsys):
    code, r, _ = run(capsys, "unigram", "--tokenizer", "sample", "--text", "ক" * 400, "--json")
    assert code == 0 and "limited to the first 200" in r["words"][0]["notice"]


def test_normalize_bert_trap_json(capsys):
    code, r, _ = run(capsys, "normalize", "--form", "bert-uncased", "--text", "ব্যাগ খুশি পৌঁছাবে শাড়ি", "--json")
    assert code == 0
    assert unicodedata.normalize("NFC", r["after"]) == "বযাগ খশি পৌছাবে শাডি"
    assert r["warnings"][0]["kind"] == "marks-removed" and len(r["changes"]) == 4


def test_normalize_uzbek_exports_json(capsys):
    code, r, _ = run(capsys, "normalize", "--form", "uzbek", "--text", "O'zbekiston san'at", "--json")
    assert code == 0 and r["after"] == "Oʻzbekiston sanʼat"
    assert json.loads(r["normalizer_json"])["type"] == "Sequence"


def test_pretokenize_all_and_one(capsys):
    code, r, _ = run(capsys, "pretokenize", "--pattern", "all", "--text", "বাজারে", "--json")
    assert code == 0
    got = {p["name"]: len(p["mark_splits"]) for p in r["patterns"]}
    assert got["gpt2"] == 3 and got["o200k"] == 0 and set(got) >= {"metaspace", "bert"}
    code, r, _ = run(capsys, "pretokenize", "--pattern", "metaspace", "--text", "a b", "--json")
    assert [p["text"] for p in r["patterns"][0]["pieces"]] == ["▁a", "▁b"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["wordpiece", "--vocab", "/nonexistent/vocab.txt", "--text", "x"], "cannot read"),
        (["unigram", "--tokenizer", "nope", "--text", "x"], "neither 'sample', a pretrained id"),
        (["pretokenize", "--pattern", "nope", "--text", "x"], "unknown pattern"),
        (["normalize", "--form", "NFX", "--text", "x"], "invalid choice"),
    ],
)
def test_bad_arguments_one_line(capsys, argv, message):
    with pytest.raises(SystemExit) as exc:
        code = main(argv)
        raise SystemExit(code)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_bad_files_are_named(tmp_path, capsys):
    empty = tmp_path / "vocab.txt"
    empty.write_text("", encoding="utf-8")
    code, _, err = run(capsys, "wordpiece", "--vocab", str(empty), "--text", "x")
    assert code == 2 and "empty" in err
    wp_json = tmp_path / "tokenizer.json"
    wp_json.write_text(json.dumps({"model": {"type": "WordPiece", "vocab": {"[UNK]": 0, "a": 1}, "unk_token": "[UNK]"}}))
    code, _, err = run(capsys, "unigram", "--tokenizer", str(wp_json), "--text", "x")
    assert code == 2 and "holds a WordPiece model, not Unigram" in err and err.count("\n") == 1


@pytest.mark.parametrize("zoo_id, message", [("mistral-spm-v1", "SentencePiece BPE model, not Unigram"),
                                             ("cl100k_base", "byte-level BPE tokenizer, not Unigram"),
                                             ("llama3", "byte-level BPE tokenizer, not Unigram")])
def test_unigram_names_pretrained_ids_that_are_not_unigram(capsys, zoo_id, message):
    code, _, err = run(capsys, "unigram", "--tokenizer", zoo_id, "--text", "x")
    assert code == 2 and message in err


def test_real_subprocess():
    p = subprocess.run([sys.executable, "-m", "core", "normalize", "--form", "NFKC", "--text", "৫ m²", "--json"],
                       cwd=REPO, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["after"] == "৫ m2"
