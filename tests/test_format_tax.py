"""The format tax (core.analysis.format_tax, ``python -m core format-tax``): each format read back by its own
parser, tokens equal to tiktoken's on ``json.dumps``'s output, and a one-line error for bad records files."""
from __future__ import annotations

import csv
import io
import json

import pytest
import yaml

from core.analysis import format_tax
from core.cli import main
from core.pretrained import zoo


def test_each_format_reads_back_as_the_same_records():
    recs = format_tax.bundled_records()["fa"][:5] + [{"id": 9, "text": "a,\"b\"\nc", "tags": ["ঘর", 2]}]
    assert json.loads(format_tax.render(recs, "json_escaped")) == recs
    assert json.loads(format_tax.render(recs, "json_utf8")) == recs
    assert yaml.safe_load(format_tax.render(recs, "yaml")) == recs
    rows = list(csv.DictReader(io.StringIO(format_tax.render(recs, "csv"))))
    assert [r["text"] for r in rows] == [r["text"] for r in recs]
    assert format_tax.render(recs, "json_escaped").isascii() and not format_tax.render(recs, "json_utf8").isascii()


def test_tokens_equal_tiktoken_and_escapes_cost_more_outside_ascii():
    sets = format_tax.bundled_records()
    tok = zoo.load("o200k_base")
    res = format_tax.measure(tok, sets)
    enc = tok.engine
    assert res.tokens["json_escaped"]["bn"] == len(enc.encode_ordinary(json.dumps(sets["bn"])))
    assert res.tokens["json_utf8"]["bn"] == len(enc.encode_ordinary(json.dumps(sets["bn"], ensure_ascii=False)))
    assert res.premium("en") == 1.0  # ASCII text: the two JSONs are the same string
    assert res.premium("bn") > 3 and res.premium("uz") < res.premium("bn")


def test_cli_json_keys_and_one_line_errors(tmp_path, capsys):
    f = tmp_path / "r.json"
    f.write_text(json.dumps([{"name": "বাজারঘর", "city": "রাজশাহী"}], ensure_ascii=False), encoding="utf-8")
    assert main(["format-tax", "--tokenizers", "cl100k_base", "--file", str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)["cl100k_base"]
    assert set(out["formats"]) == set(format_tax.FORMATS) and all(isinstance(v["tokens"], int) for v in out["formats"].values())
    assert out["escape_premium"]["upload"] > 1
    bad = {"deep.json": b"[" * 20 + b"]" * 20, "latin1.json": "[{\"a\": \"é\"}]".encode("latin-1"),
           "obj.json": b'{"a": 1}', "big.json": b"[" + b'{"a": 1},' * 300_000 + b"{}]"}
    for name, data in bad.items():
        (tmp_path / name).write_bytes(data)
        assert main(["format-tax", "--tokenizers", "cl100k_base", "--file", str(tmp_path / name)]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("error:") and len(err.splitlines()) == 1, err


@pytest.mark.parametrize("fmt", format_tax.FORMATS)
def test_a_record_with_nested_values_renders(fmt):
    assert format_tax.render([{"a": {"b": [1, "ক"]}, "c": None}], fmt)
