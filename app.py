"""Tokenizer Lab: the router. Every page is listed here, one line each.

Run with ``streamlit run app.py``. Pages live in ``pages/``; shared page helpers
in ``pages/_<job>.py`` modules (``_lang``, ``_url``, ``_layout``...); the engine in ``core/`` (no Streamlit there).
To add a page: put ``pages/my_page.py`` in place and add one ``(file, title,
icon)`` line to :data:`PAGES` under its section.

Every run, around the chosen page, the router also sets the tab and the classroom layout, the interface language
and the sidebar controls (``pages/_controls.py``), shows a native library's panic in the page as one error instead
of a traceback (:func:`core.text.native.fatal_message`), and, once per server, warms the Compare page's default
tokenizers after the first paint (``pages/_router.py``).
"""
from __future__ import annotations

from pathlib import Path

import streamlit as st

from core.i18n import N_
from core.markdown import md_escape
from core.text.native import fatal_message
from pages._controls import classroom_requested, init_lang, sidebar_controls
from pages._lang import _, localize
from pages._router import leave_legacy_mode, mark_router_run, warm_up_once
from pages._selector import COMPARE_DEFAULT

HERE = Path(__file__).parent
PAGES_DIR = HERE / "pages"

#: Section -> pages as (file in pages/, title, material icon). The first page is the home page.
PAGES: dict[str, list[tuple[str, str, str]]] = {
    N_("Explore"): [
        ("home.py", N_("Paste and see"), ":material/text_fields:"),
        ("compare.py", N_("Compare tokenizers"), ":material/compare:"),
        ("inspector.py", N_("Word inspector"), ":material/troubleshoot:"),
        ("replay.py", N_("Merge replay"), ":material/replay:"),
        ("tax.py", N_("Multilingual tax"), ":material/translate:"),
        ("chat_format.py", N_("Chat format"), ":material/forum:"),
        ("vocabulary.py", N_("Vocabulary"), ":material/dictionary:"),
    ],
    N_("Learn"): [
        ("stepper.py", N_("BPE stepper"), ":material/footprint:"),
        ("wordpiece.py", N_("WordPiece stepper"), ":material/manage_search:"),
        ("unigram.py", N_("Unigram lattice"), ":material/route:"),
        ("normalization.py", N_("Normalization"), ":material/spellcheck:"),
        ("pretokenizers.py", N_("Pre-tokenizers"), ":material/content_cut:"),
    ],
    N_("Train"): [("train.py", N_("Train & evaluate"), ":material/model_training:"),
              ("special_tokens.py", N_("Special tokens & round trip"), ":material/key:")],
}


def build_navigation() -> dict[str, list[st.Page]]:
    """``st.Page`` objects per section; pages whose file is missing are skipped."""
    nav: dict[str, list[st.Page]] = {}
    first = True
    for section, entries in PAGES.items():
        for file, title, icon in entries:
            path = PAGES_DIR / file
            if not path.exists():
                continue
            nav.setdefault(_(section), []).append(st.Page(path, title=_(title), icon=icon, default=first,
                                                          url_path=path.stem))
            first = False
    return nav


# The tab icon is a local file (a material icon would make the browser fetch it from Google).
# Classroom display folds the sidebar away: the projector's width goes to the content.
st.set_page_config(page_title="Tokenizer Lab", page_icon=str(HERE / "assets" / "icon.png"), layout="wide",
                   initial_sidebar_state="collapsed" if classroom_requested() else "auto")
leave_legacy_mode()  # the first run of a fresh server opened on the home page: rerun with the app's navigation
init_lang()  # before anything is translated: the sidebar, ?lang= or the browser
page = st.navigation(build_navigation(), position="sidebar", expanded=True)
sidebar_controls()
mark_router_run(True)
try:
    page.run()
except BaseException as exc:
    message = fatal_message(exc, page.title)
    if message is None:
        raise
    st.error(md_escape(localize(message)))
finally:
    mark_router_run(False)
# after the page has drawn, so the first paint does not wait for it: the Compare page's defaults (Home's are
# built in and load at once)
warm_up_once(COMPARE_DEFAULT)
