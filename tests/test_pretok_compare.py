"""Pre-tokenizer comparison: pieces per pattern and combining marks cut from their base."""
from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.analysis import pretok_compare as pc
from tests.helpers import REPO, examples


def _by_name(text):
    return {r.name: r for r in pc.compare(text)[0]}


def test_letter_patterns_cut_bangla_marks_and_o200k_does_not():
    r = _by_name("বাজারে প্যাকেট")
    for name in ("gpt2", "cl100k", "llama3"):
        assert len(r[name].mark_splits) == 6, name
        assert r[name].mark_splits[0].base == "ব" and r[name].mark_splits[0].mark == "া"
    for name in ("o200k", "whitespace", "ws-attached", "metaspace", "bert"):
        assert r[name].mark_splits == (), name
    assert [p.text for p in r["o200k"].pieces] == ["বাজারে", " প্যাকেট"]
    assert "\\p{M}" in pc.WHY


def test_library_pre_tokenizers_are_real_and_offsets_point_into_the_text():
    text = "বাজার, ঘরের  x"
    r = _by_name(text)
    assert [p.text for p in r["metaspace"].pieces] == ["▁বাজার,", "▁ঘরের", "▁", "▁x"]
    assert [p.text for p in r["bert"].pieces] == ["বাজার", ",", "ঘরের", "x"]
    for p in r["bert"].pieces:
        assert text[p.start:p.end] == p.text


def test_persian_marks_are_flagged_too():
    persian = (REPO / "assets/algos/persian.txt").read_text(encoding="utf-8")
    r = _by_name(persian)
    marks = {m.mark for m in r["gpt2"].mark_splits}
    assert "\u064f" in marks  # damma on اُمید
    # o200k keeps every mark with its letter; what it cuts off is the ZWNJ (می‌خواهم), drawn as a cut too
    assert r["o200k"].mark_splits and {m.mark for m in r["o200k"].mark_splits} == {"\u200c"}


def test_a_zwnj_cut_off_its_letter_is_counted_as_drawn():
    # می‌خواهم: the letter patterns cut before the ZWNJ, which the chips draw as a cut inside a letter (◆)
    r = _by_name("می\u200cخواهم")
    for name in ("gpt2", "cl100k", "llama3"):
        assert [(m.base, m.mark) for m in r[name].mark_splits] == [("ی", "\u200c")], name
        assert "‹ZWNJ›" in r[name].mark_splits[0].label


@settings(max_examples=examples(1.5))
@given(st.text(alphabet="কখাি্ ়abc.,اُّ\u200c", max_size=30))
def test_property_flags_exactly_the_cuts_before_marks_and_joiners(text):
    for r in pc.compare(text, ["gpt2", "cl100k", "o200k", "whitespace"])[0]:
        cuts = {p.start for p in r.pieces} | {p.end for p in r.pieces}
        expect = {b for b in cuts if 0 < b < len(text) and (unicodedata.category(text[b])[0] == "M" or text[b] == "\u200c")}
        assert {m.offset for m in r.mark_splits} == expect
        for p in r.pieces:
            assert text[p.start:p.end] == p.text


def test_unknown_name_and_limit():
    with pytest.raises(ValueError, match="unknown pre-tokenizer"):
        pc.compare("x", ["nope"])
    out, notice = pc.compare("a " * (pc.MAX_CHARS), ["whitespace"])
    assert notice and out[0].pieces[-1].end <= pc.MAX_CHARS
    assert "metaspace" in pc.names() and "bert" in pc.names()
