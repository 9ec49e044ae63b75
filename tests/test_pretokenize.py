"""Pre-tokenizer patterns: offsets, and equality with the published regexes."""
from __future__ import annotations

import ast
import inspect

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from core.pipeline.pretokenize import PATTERNS, PatternError, pretokenize, resolve_pattern
from tests.helpers import examples


def _declared_patterns() -> dict[str, str]:
    """The split regexes as tiktoken and llama-models declare them."""
    import llama_models.llama3.tokenizer as llama3
    import tiktoken_ext.openai_public as openai_public

    found: dict[str, str] = {}
    tree = ast.parse(inspect.getsource(openai_public))
    constants = {
        node.targets[0].id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Constant)
    }
    for fn in tree.body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        for node in ast.walk(fn):
            value = None
            if isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values):
                    if isinstance(k, ast.Constant) and k.value == "pat_str":
                        value = v.value if isinstance(v, ast.Constant) else constants.get(getattr(v, "id", ""))
            elif isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "pat_str":
                call = node.value
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "join":
                    value = ast.literal_eval(call.func.value).join(ast.literal_eval(call.args[0]))
            if value is not None:
                found[fn.name] = value
    found["llama3"] = llama3.Tokenizer.pat_str
    return found


DECLARED = _declared_patterns()
MIXED = st.text(
    alphabet=st.sampled_from(list("ab Z'sdt\n\r\t 123 ৎকারাি্য়ّ ای ОзбекʻʼTHE? !/.,😀\u200c\u200d")), max_size=60
) | st.text(max_size=30)


@pytest.mark.parametrize("ours, theirs", [("cl100k", "cl100k_base"), ("o200k", "o200k_base"), ("llama3", "llama3")])
@settings(max_examples=examples(3))
@given(text=MIXED)
def test_named_patterns_split_like_the_published_ones(ours: str, theirs: str, text: str) -> None:
    expected = [m.group() for m in regex.finditer(DECLARED[theirs], text)]
    assert [p.text for p in pretokenize(text, ours)] == expected


@settings(max_examples=examples(3))
@given(text=MIXED)
def test_gpt2_pattern_matches_r50k(text: str) -> None:
    expected = [m.group() for m in regex.finditer(DECLARED["r50k_base"], text)]
    assert [p.text for p in pretokenize(text, "gpt2")] == expected


@given(st.text())
def test_offsets_point_into_the_text(text: str) -> None:
    for name in PATTERNS:
        for piece in pretokenize(text, name):
            assert text[piece.start : piece.end] == piece.text


@given(st.text())
def test_ws_attached_and_none_are_lossless(text: str) -> None:
    assert "".join(p.text for p in pretokenize(text, "ws-attached")) == text
    assert "".join(p.text for p in pretokenize(text, "none")) == text


def test_letter_patterns_cut_bangla_vowel_signs_and_o200k_does_not() -> None:
    assert [p.text for p in pretokenize("কার", "gpt2")] == ["ক", "া", "র"]
    assert [p.text for p in pretokenize("কার", "cl100k")] == ["ক", "ার"]
    assert [p.text for p in pretokenize("বাজারে", "cl100k")] == ["ব", "াজ", "ার", "ে"]
    assert [p.text for p in pretokenize(" বাজারে", "o200k")] == [" বাজারে"]


def test_user_regex_and_errors() -> None:
    assert [p.text for p in pretokenize("a1b22", r"\d+")] == ["1", "22"]
    with pytest.raises(PatternError):
        resolve_pattern("(")
    with pytest.raises(PatternError):
        resolve_pattern("")
