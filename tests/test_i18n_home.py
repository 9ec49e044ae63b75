"""The home page's section headings follow the interface language (a baseline's name is not a proper name)."""
from __future__ import annotations

import pytest

from tests.helpers import open_page, shown


def _headings(lang: str) -> list[str]:
    at = open_page("home", {"lang": lang, "tok": "codepoints,bytes,words,bpe-sample-cp,o200k_base", "merges": "200"},
                   check=False)
    assert not at.exception
    return [shown(h.value) for h in at.subheader]


def test_english_headings_name_each_option():
    heads = _headings("en")
    assert heads[:4] == ["Code points", "UTF-8 bytes", "Whitespace words",
                         "BPE, code points (trained on the shop sample) · 200 merges"], heads
    assert "o200k_base (GPT-4o)" in heads[4]


@pytest.mark.parametrize("lang", ["bn", "hi", "fa", "uz"])
def test_headings_are_translated_but_checkpoint_names_are_not(lang):
    en, other = _headings("en"), _headings(lang)
    assert len(en) == len(other) == 5
    for a, b in zip(en[:4], other[:4]):
        assert a != b, (lang, a)
    assert other[3].endswith(("200", "২০০", "۲۰۰")) or "200" in other[3]
    assert other[4] == en[4]  # a checkpoint keeps its own name


@pytest.mark.parametrize("page", ["compare", "inspector"])
def test_baseline_names_are_translated_on_compare_and_inspector(page):
    """A zoo baseline's name ("Code points (baseline)") is a description and is translated; a checkpoint's is not."""
    at = open_page(page, {"lang": "bn", "tok": "codepoints,o200k_base"}, check=False)
    assert not at.exception
    heads = [shown(m.value)[5:] for m in at.markdown if shown(m.value).startswith("#### ")]
    assert "কোড পয়েন্ট (বেসলাইন)" in heads and "Code points (baseline)" not in heads, heads
    assert any(h.startswith("o200k_base") for h in heads), heads


def test_a_trained_tokenizers_algorithm_reads_in_the_readers_language():
    """``_`` on a Message writes it again from its template: a tokenizer trained on the Train page says
    "trained here (recipe)" in Bangla, and the recipe id stays as it is."""
    from core.i18n import T_, translator

    m = T_("trained here ({recipe})", recipe="bpe-cp")
    assert str(m) == "trained here (bpe-cp)"
    assert translator("bn").gettext(m) == "এখানে প্রশিক্ষিত (bpe-cp)"
    assert translator("fa").gettext(T_("trained here (loaded)")) == "این‌جا آموزش‌دیده (بارگذاری‌شده)"
    assert translator("bn").gettext("Code points (baseline)") == "কোড পয়েন্ট (বেসলাইন)"  # plain marked text as before


def test_drawn_pieces_follow_the_language_they_are_drawn_in():
    """The memoised piece chips (stepper, WordPiece, Unigram) are keyed on the language too: chips drawn first in
    English must not keep English tooltips when the same pieces are drawn for a Bangla reader, and back."""
    from core.render import render_pieces

    pieces = ["বা".encode(), "জার".encode()]
    en = render_pieces(pieces, lang="en")
    bn = render_pieces(pieces, lang="bn")
    assert render_pieces(pieces, lang="en") == en
    assert bn != en
