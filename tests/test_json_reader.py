"""The one JSON reader for what users give (``core.text.limits.read_json``), and that every loader uses it.

Python's ``json`` recurses once per nesting level, so a file of 100,000
``[`` raised ``RecursionError`` out of the WordPiece and Unigram loaders (and
so out of their pages) before they reached a depth check.
"""
from __future__ import annotations

import ast
import json

import pytest

from core.models import unigram as ug
from core.models import wordpiece as wp
from core.pipeline import normalize as N
from core.text import limits
from tests.helpers import REPO

DEEP = "[" * 100_000 + "]" * 100_000


def test_read_json_parses_bytes_and_text_and_drops_a_byte_order_mark():
    assert limits.read_json(b'{"a": [1, "["]}', "a.json") == {"a": [1, "["]}
    assert limits.read_json("\ufeff[1]", "a.json") == [1]
    assert limits.read_json(b"\xef\xbb\xbf[2]", "a.json") == [2]


@pytest.mark.parametrize("data", [DEEP, DEEP.encode(), '{"a": ' + DEEP + "}", "[" * 65 + "]" * 65])
def test_read_json_refuses_deep_nesting_before_parsing(data):
    with pytest.raises(limits.LimitError, match="levels deep; a tokenizer file may nest at most 64"):
        limits.read_json(data, "deep.json")


def test_read_json_takes_the_deepest_allowed_nesting():
    assert limits.read_json("[" * 64 + "]" * 64, "ok.json") is not None


def test_read_json_refuses_what_is_too_big_or_not_utf8():
    with pytest.raises(limits.LimitError, match="the limit for a tokenizer file is 1,024 bytes"):
        limits.read_json(b"[" + b"1," * 600 + b"1]", "big.json", max_bytes=1024)
    with pytest.raises(limits.LimitError, match="is not UTF-8 text"):
        limits.read_json(b'{"a": "\xff"}', "latin1.json")


def test_a_syntax_error_keeps_the_parser_position_and_knows_a_cut_file():
    with pytest.raises(limits.JsonSyntaxError) as info:
        limits.read_json('{"a":\n oops}', "bad.json")
    assert (info.value.lineno, info.value.colno) == (2, 2) and not info.value.truncated
    assert "bad.json is not valid JSON (line 2, column 2" in str(info.value)
    with pytest.raises(limits.JsonSyntaxError) as info:
        limits.read_json('{"model": {"vocab": {"a": 1', "cut.json")
    assert info.value.truncated


@pytest.mark.parametrize("name, data", [
    ("deep_plain.json", DEEP),
    ("deep.json", '{"model": {"type": "WordPiece", "vocab": {"[UNK]": 0}, "x": ' + DEEP + "}}"),
])
def test_the_wordpiece_loader_names_deep_nesting(name, data):
    with pytest.raises(wp.VocabError, match="levels deep"):
        wp.load_vocab_bytes(data.encode(), name)
    with pytest.raises(wp.VocabError, match="levels deep"):
        wp.load_tokenizer_json(data, source=name)


def test_a_vocab_txt_that_starts_with_a_bracket_is_still_a_vocab_txt():
    vocab = wp.load_vocab_bytes(b"[PAD]\n[UNK]\na\n##b\n", "vocab.txt")
    assert vocab.vocab["##b"] == 3


@pytest.mark.parametrize("data", [
    '{"model": {"type": "BPE", "vocab": ' + DEEP + "}}",
    '{"model": {"type": "Unigram", "vocab": [["a", -1.0]], "x": ' + DEEP + "}}",
])
def test_the_unigram_loader_names_deep_nesting(data):
    with pytest.raises(ug.UnigramError, match="levels deep"):
        ug.load_bytes(data.encode(), "deep.json")


def test_a_deep_normalizer_json_is_a_rule_error():
    with pytest.raises(N.RuleError, match="levels deep"):
        N.normalizer_from_json(DEEP)


def test_a_deep_tekken_file_is_refused():
    from core.pretrained.catalog import ZooError
    from core.pretrained.tiktoken_adapter import parse_tekken

    with pytest.raises(ZooError, match="levels deep"):
        parse_tekken(('{"config": ' + DEEP + "}").encode(), "tekken.json")


#: ``json.load``/``json.loads`` calls in core allowed outside the reader, and why each reads no user's JSON.
OWN_JSON = {
    ("core/text/limits.py", "read_json"): "the reader itself",
    ("core/pipeline/normalize.py", "rules_json"): "the tokenizers library's own serialisation of rules built here",
    ("core/pretrained/replay/hf_bpe.py", "_hf_model"): "an adapter's tokenizer.json, checked when the adapter was loaded",
    ("core/assets.py", "chat_samples"): "the bundled sample conversations (assets/), not a user's file",
    ("core/pretrained/chat_render.py", "_child_main"): "the render job its parent process wrote (the child's answer "
                                                       "is read through the reader)",
    ("core/pretrained/hf_adapter.py", "packed"): "the adapter's own tokenizer.json, checked when it was loaded",
    ("core/pretrained/hf_adapter.py", "_scores"): "the same checked tokenizer.json (Unigram scores)",
    ("core/pretrained/hf_adapter.py", "__init__"): "text its loaders checked first (parse_tokenizer_json) or a "
                                                   "trainer wrote",
}


def json_reads(root) -> set[tuple[str, str]]:
    """``(file, function)`` of every ``json.load``/``json.loads`` call under ``root/core`` (``<module>`` at top level)."""
    found = set()
    for path in sorted((root / "core").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        owner: dict[ast.AST, str] = {}
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(fn):
                    if node is not fn:
                        owner.setdefault(node, fn.name)  # ast.walk goes outside in: the outermost function wins
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("load", "loads") and getattr(node.func.value, "id", None) == "json"):
                found.add((path.relative_to(root).as_posix(), owner.get(node, "<module>")))
    return found


def test_every_json_read_in_core_goes_through_the_reader():
    reads = json_reads(REPO)
    assert ("core/text/limits.py", "read_json") in reads  # the scan finds calls
    assert reads <= set(OWN_JSON), sorted(reads - set(OWN_JSON))


def test_the_scan_finds_a_new_json_read(tmp_path):
    from tests.helpers import write_tree

    write_tree(tmp_path, {"core/x.py": "import json\ndef load(t):\n    return json.loads(t)\n"})
    assert json_reads(tmp_path) == {("core/x.py", "load")}
    assert json.loads("[]") == []
