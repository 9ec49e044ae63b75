"""The word inspector answers in the language it is given, whatever language is set around the call.

The static rule (no module of core reads the ambient language) is tests/test_no_ambient_lang.py; this is
the same rule seen from outside, on real tokenizers.
"""
from __future__ import annotations

import pytest


def _texts(view) -> list[str]:
    return [view.verdict, view.translation_verdict] + [
        s for la in view.layers for r in la.reasons for s in (la.title, r.text, *r.evidence)]


@pytest.mark.parametrize(("tid", "word"), [("o200k_base", "রাজশাহী"), ("bert-bge", "ঘরেই")])
def test_explain_answers_in_its_lang_whatever_language_is_set_around_it(tid, word):
    """The sentences depend on ``lang``/``digits`` only: a language set around the call (a page's script run,
    another reader's thread) changes nothing."""
    from core.analysis.inspect import explain
    from core.i18n import use_lang
    from core.pretrained import zoo

    tok = zoo.load(tid)
    fa = _texts(explain(tok, word, translation="house", lang="fa", digits="native"))
    en = _texts(explain(tok, word, translation="house"))
    with use_lang("bn", "native"):
        assert _texts(explain(tok, word, translation="house", lang="fa", digits="native")) == fa
        assert _texts(explain(tok, word, translation="house")) == en
    assert fa != en and any("«" in s for s in fa) and not any("«" in s for s in en)
