"""Normalization through the real tokenizers normalizers: PRODUCT.md examples, the BERT trap, warnings, rules."""
from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.pipeline import normalize as N
from tests.helpers import REPO, examples

TRAP = "ব্যাগ খুশি পৌঁছাবে শাড়ি"
TRAP_OUT = "বযাগ খশি পৌছাবে শাডি"


def test_bert_uncased_trap_with_the_real_bert_normalizer():
    r = N.normalize(TRAP, "bert-uncased")
    # the library leaves the text decomposed (NFD); it reads exactly as the PRODUCT.md line
    assert unicodedata.normalize("NFC", r.after) == TRAP_OUT
    assert r.after == N.bert_normalizer(lowercase=True, strip_accents=None).normalize_str(TRAP)
    w = {x.kind: x for x in r.warnings}
    assert "marks-removed" in w and "4 letters lost" in w["marks-removed"].message
    assert "খু -> খ" in w["marks-removed"].examples
    removed = {cp.name for c in r.clusters for row in c.rows if row.op == "delete" for cp in row.before}
    assert {"BENGALI SIGN VIRAMA", "BENGALI VOWEL SIGN U", "BENGALI SIGN CANDRABINDU", "BENGALI SIGN NUKTA"} <= removed


@pytest.mark.parametrize("form", ["bert-uncased-keep-accents", "bert-cased", "NFC"])
def test_settings_that_keep_marks(form):
    r = N.normalize(TRAP, form)
    assert unicodedata.normalize("NFC", r.after) == unicodedata.normalize("NFC", TRAP)
    assert not any(w.kind == "marks-removed" for w in r.warnings)


def test_strip_accents_true_strips_even_when_cased():
    r = N.normalize("Café খুশি", "bert-strip")
    assert r.after == "Cafe খশি"


@pytest.mark.parametrize("before, after", [("\u09df", "\u09af\u09bc"), ("\u09c7\u09be", "\u09cb")])
def test_product_nfc_examples(before, after):
    r = N.normalize(before, "NFC")
    assert r.after == after
    assert r.clusters[0].changed and not any(w.kind == "marks-removed" for w in r.warnings)


@pytest.mark.parametrize("before, after, tag", [("৫ m²", "৫ m2", "superscript"), ("①", "1", "circled"),
                                                 ("½", "1\u20442", "fraction"), ("a\u00a0b", "a b", "no-break")])
def test_product_nfkc_examples_warn(before, after, tag):
    r = N.normalize(before, "NFKC")
    assert r.after == after
    assert any(w.kind == "compatibility" and tag in w.message for w in r.warnings)
    assert N.normalize(before, "NFC").after == before  # NFC leaves them alone


def test_zero_width_and_khanda_ta_warnings():
    text = "উৎসব উত্\u200dসব"
    for form in ("NFC", "NFKC"):
        r = N.normalize(text, form)
        assert r.after == text  # neither form unifies the two spellings
        kinds = {w.kind for w in r.warnings}
        assert {"zero-width", "khanda-ta"} <= kinds
    persian = (REPO / "assets/algos/persian.txt").read_text(encoding="utf-8")
    r = N.normalize(persian, "bert-uncased")
    zw = [w for w in r.warnings if w.kind == "zero-width"]
    assert zw and "NON-JOINER" in zw[0].message and "REMOVED" in zw[0].message


def test_cluster_rows_name_code_points():
    r = N.normalize("\u09c7\u09be", "NFC")  # ে + া typed separately
    (c,) = r.clusters
    (row,) = c.rows
    assert row.op == "canonical"
    assert [x.hex for x in row.before] == ["U+09C7", "U+09BE"] and [x.hex for x in row.after] == ["U+09CB"]
    assert row.after[0].category == "Mc" and row.after[0].name == "BENGALI VOWEL SIGN O"
    rows = N.normalize("পৌঁ", "bert-uncased").clusters[0].rows
    assert [(x.op, len(x.before), len(x.after)) for x in rows] == [("equal", 1, 1), ("canonical", 1, 2), ("delete", 1, 0)]
    (half,) = N.normalize("½", "NFKC").clusters[0].rows
    assert half.op == "replace" and [x.hex for x in half.after] == ["U+0031", "U+2044", "U+0032"]


@settings(max_examples=examples(2))
@given(st.text(max_size=40), st.sampled_from(list(N.FORMS)))
def test_property_clusters_reassemble_both_texts(text, form):
    r = N.normalize(text, form)
    assert "".join(c.before for c in r.clusters) == r.before == text
    assert "".join(c.after for c in r.clusters) == r.after
    for c in r.clusters:
        assert sorted("".join(x.char for row in c.rows for x in row.before)) == sorted(c.before)
        assert sorted("".join(x.char for row in c.rows for x in row.after)) == sorted(c.after)
        assert all((row.op == "equal") == (row.before == row.after) for row in c.rows)


def test_unknown_form_and_limit():
    with pytest.raises(ValueError, match="unknown normalization form"):
        N.normalize("x", "NFX")
    r = N.normalize("a" * (N.MAX_CHARS + 10), "NFC")
    assert len(r.before) == N.MAX_CHARS and "first" in r.notice


# ---------------------------------------------------------------- Uzbek rules


@pytest.mark.parametrize(
    "before, after",
    [
        ("O'zbekiston", "Oʻzbekiston"),
        ("g‘arbida", "gʻarbida"),
        ("o’qidi", "oʻqidi"),
        ("Bog`dagi", "Bogʻdagi"),
        ("ma’ruza", "maʼruza"),
        ("san'at", "sanʼat"),
        ("she'r", "sheʼr"),
        ("'quote'", "'quote'"),  # not between letters: untouched
        ("go' ", "go' "),
    ],
)
def test_uzbek_apostrophe_rules(before, after):
    assert N.apply_rules(before, N.UZBEK_RULES).after == after


def test_rules_export_as_normalizer_json_and_reload():
    text = (REPO / "assets/algos/uzbek.txt").read_text(encoding="utf-8")
    js = N.rules_json(N.UZBEK_RULES)
    assert '"Replace"' in js and "ʻ" in js
    reloaded = N.normalizer_from_json(js)
    assert reloaded.normalize_str(text) == N.apply_rules(text, N.UZBEK_RULES).after
    assert "'" not in reloaded.normalize_str(text) and "‘" not in reloaded.normalize_str(text)
    r = N.apply_rules(text, N.UZBEK_RULES)
    assert r.aligned_by == "diff" and r.changed_clusters >= 8


def test_bad_rules():
    with pytest.raises(N.RuleError, match="not a valid regex"):
        N.build_rules([N.Rule("(unclosed", "x")])
    with pytest.raises(N.RuleError, match="empty"):
        N.build_rules([N.Rule("", "x")])
    with pytest.raises(N.RuleError, match="not valid JSON"):
        N.normalizer_from_json("{oops")
    assert N.apply_rules("a.b", [N.Rule(".", "!", regex=False)]).after == "a!b"
