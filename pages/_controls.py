"""The controls every page shares, set up by ``app.py`` on each run: interface language and classroom display.

- :func:`init_lang` (``app.py``, before the navigation): the language from the sidebar, ``?lang=`` or the browser.
- :func:`sidebar_controls` (``app.py``, once per run): language, digits and the classroom toggle.
- :func:`classroom` / :func:`classroom_requested`: whether the projector display is on.
"""
from __future__ import annotations

import streamlit as st

from core.i18n import DEFAULT_LANG, LANGS, NATIVE_DIGIT_LANGS, normalize_lang
from pages._lang import _, current_lang
from pages._url import qp_init, relabel_widgets


def _browser_lang() -> str:
    """The browser's preferred language if it is one of ours (``st.context.locale``), else English."""
    try:
        return normalize_lang(st.context.locale)
    except Exception:
        return DEFAULT_LANG


def init_lang() -> None:
    """Give the ``lang`` widget its value before anything is translated (``app.py`` calls this first):
    ``?lang=`` when valid (an invalid value means English, silently), else the browser's language."""
    raw = st.query_params.get("lang")
    default = _browser_lang() if raw is None else DEFAULT_LANG
    qp_init("lang", default, param="lang", cast=normalize_lang, choices=LANGS)
    if st.session_state.get("lang") not in LANGS:
        st.session_state["lang"] = DEFAULT_LANG
    if st.session_state.setdefault("_lang_drawn", st.session_state["lang"]) != st.session_state["lang"]:
        relabel_widgets()  # the select boxes drawn in the old language get their labels in the new one
        st.session_state["_lang_drawn"] = st.session_state["lang"]


def classroom() -> bool:
    """True when the classroom (projector) display is on."""
    return bool(st.session_state.get("classroom", False))


def classroom_requested() -> bool:
    """Classroom display wanted on this run (session state, else the URL), usable before the toggle exists
    (``app.py`` collapses the sidebar with it)."""
    if "classroom" in st.session_state:
        return bool(st.session_state["classroom"])
    return st.query_params.get("classroom") == "1"


def sidebar_controls() -> None:
    """Controls shown on every page (app.py calls this before running the page)."""
    if "classroom" not in st.session_state:
        st.session_state["classroom"] = st.query_params.get("classroom") == "1"
    st.sidebar.selectbox(_("Language"), list(LANGS), key="lang", format_func=LANGS.__getitem__,
                         help=_("The language of the interface. Tokenizer names, code points and ids stay as they are."))
    if current_lang() in NATIVE_DIGIT_LANGS:
        st.sidebar.toggle(_("Native digits"), key="native_digits",
                          help=_("Show numbers on screen in this language's digits. Exported tables keep 0-9."))
    st.sidebar.toggle(
        _("Classroom display"),
        key="classroom",
        help=_("Bigger token text and chips for a projector. On the BPE stepper, ← and → step back and forward."),
    )
