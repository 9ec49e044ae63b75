"""The differences view on Compare and Paste and see (AppTest): the agreement figure and one marked row per tokenizer."""
from __future__ import annotations

from core.models.baselines import CodePointTokenizer, WordTokenizer
from core.pretrained import zoo
from core.text.disagree import disagreement
from tests.helpers import open_page, shown

SENTENCE = "আমি বাজারে যাচ্ছি, তুমি কি আসবে?"


def _rows(at) -> list[str]:
    views = [h.proto.body for h in at.get("html") if 'class="tl-diff"' in h.proto.body]
    assert len(views) == 1
    return views[0].split('class="tl-diff-row"')[1:]


def test_compare_shows_where_gemma4_and_cl100k_part_ways():
    at = open_page("compare", {"tok": "gemma4,cl100k_base", "text": SENTENCE})
    texts = [shown(m.value) for m in at.markdown]
    assert "#### Where the tokenizers disagree" in texts
    expected = disagreement(SENTENCE, [(t, zoo.load(t).encode(SENTENCE).byte_spans) for t in ("gemma4", "cl100k_base")])
    figure = next(t for t in texts if t.startswith("**Agreement"))
    assert f"{100 * expected.agreement:.1f}%" in figure
    assert f"{len(expected.common)} of {expected.positions} cut positions" in figure
    rows = _rows(at)
    assert len(rows) == 2
    for row, cuts in zip(rows, expected.rows):
        assert row.count("▼") == len(cuts.own) and row.count("▽") == len(cuts.missed)
    assert "Gemma 4" in rows[0] and "cl100k" in rows[1]


def test_one_tokenizer_has_no_differences_view():
    at = open_page("compare", {"tok": "cl100k_base", "text": SENTENCE})
    assert not [h for h in at.get("html") if 'class="tl-diff"' in h.proto.body]


def test_home_shows_the_differences_view_in_persian():
    at = open_page("home", {"tok": "codepoints,words", "text": "سلام دنیا", "lang": "fa"})
    texts = [shown(m.value) for m in at.markdown]
    assert any("جاهایی که توکن‌سازها هم‌نظر نیستند" in t for t in texts)
    figure = next(t for t in texts if "هم‌خوانی" in t)
    # the word tokenizer cuts once, before " دنیا"; code points cut between all 9 characters: 1 of 8 in common
    text = "سلام دنیا"
    d = disagreement(text, [("c", CodePointTokenizer().encode(text).byte_spans), ("w", WordTokenizer().encode(text).byte_spans)])
    assert (len(d.common), d.positions) == (1, 8)
    assert "\u206812.5\u2069٪" in figure and "\u20681\u2069 از \u20688\u2069" in figure
    rows = _rows(at)
    assert len(rows) == 2 and 'dir="auto"' in rows[0]
