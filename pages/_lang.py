"""The session's interface language, for pages (:mod:`core.i18n` has the catalogs).

- :func:`current_lang`, :func:`tr`: the session's language code and :class:`core.i18n.Translator`.
- :func:`_` / :func:`ngettext`: the session's translation functions; :func:`num`: a number on screen.
- :func:`localize`: a message made in core (an error, a note) in the session's language.
- :func:`lang_args`: ``lang=`` and ``digits=`` for core functions that write words or numbers (core never reads
  an ambient language, so a page passes the session's explicitly).

Where the language comes from (sidebar, ``?lang=``, the browser) is :mod:`pages._controls`.
"""
from __future__ import annotations

import streamlit as st

from core.i18n import (
    DEFAULT_LANG,
    LANGS,
    NATIVE_DIGIT_LANGS,
    RTL_LANGS,
    Translator,
    translator,
)
from core.i18n import localize as _localize


def current_lang() -> str:
    """The session's interface language code."""
    lang = st.session_state.get("lang", DEFAULT_LANG)
    return lang if lang in LANGS else DEFAULT_LANG


def tr() -> Translator:
    """The session's :class:`core.i18n.Translator` (language and digit choice)."""
    lang = current_lang()
    digits = "native" if st.session_state.get("native_digits") and lang in NATIVE_DIGIT_LANGS else "western"
    return translator(lang, digits)


def _(message: str) -> str:
    """``message`` in the session's language."""
    return tr().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The plural form for ``n`` in the session's language."""
    return tr().ngettext(singular, plural, n)


def localize(value: object) -> str:
    """A sentence core made (a :class:`core.i18n.Message`, or an exception raised with one) in the session's
    language; anything else as ``str``. Every exception and core note a page shows goes through this
    (``tests/test_i18n.py`` checks the pages)."""
    return _localize(value, tr())


def num(n: float, decimals: int | None = None) -> str:
    """A number for reading on screen (locale grouping; native digits if chosen). Exports use plain numbers."""
    return tr().format_number(n, decimals=decimals)


def lang_args() -> dict[str, str]:
    """``{"lang": ..., "digits": ...}`` of the session, for core functions that write tooltips, notes or numbers
    (``render_encoding(enc, **lang_args())``): part of their arguments, so of every cache key built on them."""
    t = tr()
    return {"lang": t.lang, "digits": t.digits}


def is_rtl() -> bool:
    """True when the interface language is written right to left."""
    return current_lang() in RTL_LANGS
