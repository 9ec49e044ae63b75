"""Tokenizer Lab: the router. Every page is listed here, one line each.

Run with ``streamlit run app.py``. Pages live in ``pages/``; shared page helpers
in ``pages/_shared.py``; the engine in ``core/`` (no Streamlit there).
To add a page: put ``pages/my_page.py`` in place and add one ``(file, title,
icon)`` line to :data:`PAGES` under its section.
"""
from __future__ import annotations

from pathlib import Path

import streamlit as st

from core.text.native import fatal_message
from pages._shared import classroom_requested, mark_router_run, md_escape, sidebar_controls

HERE = Path(__file__).parent
PAGES_DIR = HERE / "pages"

#: Section -> pages as (file in pages/, title, material icon). The first page is the home page.
PAGES: dict[str, list[tuple[str, str, str]]] = {
    "Explore": [
        ("home.py", "Paste and see", ":material/text_fields:"),
        ("compare.py", "Compare tokenizers", ":material/compare:"),
        ("inspector.py", "Word inspector", ":material/troubleshoot:"),
        ("replay.py", "Merge replay", ":material/replay:"),
        ("tax.py", "Multilingual tax", ":material/translate:"),
    ],
    "Learn": [
        ("stepper.py", "BPE stepper", ":material/footprint:"),
        ("wordpiece.py", "WordPiece stepper", ":material/manage_search:"),
        ("unigram.py", "Unigram lattice", ":material/route:"),
        ("normalization.py", "Normalization", ":material/spellcheck:"),
        ("pretokenizers.py", "Pre-tokenizers", ":material/content_cut:"),
    ],
    "Train": [("train.py", "Train & evaluate", ":material/model_training:"),
              ("special_tokens.py", "Special tokens & round trip", ":material/key:")],
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
            nav.setdefault(section, []).append(st.Page(path, title=title, icon=icon, default=first))
            first = False
    return nav


# The tab icon is a local file (a material icon would make the browser fetch it from Google).
# Classroom display folds the sidebar away: the projector's width goes to the content.
st.set_page_config(page_title="Tokenizer Lab", page_icon=str(HERE / "assets" / "icon.png"), layout="wide",
                   initial_sidebar_state="collapsed" if classroom_requested() else "auto")
page = st.navigation(build_navigation(), position="sidebar", expanded=True)
sidebar_controls()
mark_router_run(True)
try:
    page.run()
except BaseException as exc:  # noqa: BLE001 - a Rust panic derives from BaseException (issue 16)
    message = fatal_message(exc, page.title)
    if message is None:
        raise
    st.error(md_escape(message))
finally:
    mark_router_run(False)
