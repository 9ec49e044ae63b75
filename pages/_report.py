"""The checkpoint-report button (used by the compare page): HTML + Markdown downloads from :mod:`core.analysis.report`.

The report always encodes in the safe mode (text spelling a control token
stays text), like the compare page with its "unsafe" toggle off; its figures
come from the same :func:`core.pretrained.adapter.summarize`.
"""
from __future__ import annotations

import hashlib
from typing import Any, Callable, Sequence

import streamlit as st

from core.analysis.report import (
    DEFAULT_D_MODEL,
    ReportError,
    build_report,
    to_html,
    to_markdown,
)
from core.markdown import md_escape
from pages._lang import _, current_lang, localize
from pages._text_input import limit_text
from pages._training import bar_progress

_KEY = "cmp_report"


def _build(digest: str, text: str, tokenizer_ids: Sequence[str], get: Callable[[str], Any], english: str,
           d_model: int, progress: Callable[[int, int, str], None] | None = None, lang: str = "en",
           label: str | None = None) -> None:
    """Build the report (in the page's language) and keep ``(digest, html, markdown, error)`` in the session
    (``progress``: see :func:`pages._training.bar_progress`)."""
    try:
        toks = [get(t) for t in tokenizer_ids]
        report = build_report(text, toks, english=english or None, d_model=int(d_model),
                              label=label or _("text on the compare page"), progress=progress, lang=lang)
    except (ReportError, ValueError) as exc:
        st.session_state[_KEY] = (digest, "", "", _("Cannot make the report: {error}").format(error=localize(exc)))
        return
    st.session_state[_KEY] = (digest, to_html(report), to_markdown(report), "")


@st.fragment
def report_button(text: str, tokenizer_ids: Sequence[str], get: Callable[[str], Any], label: str | None = None) -> None:
    """An expander with the report options, a button that builds it, and the two downloads (``label``: what the
    text is, for the report's input line: see :func:`pages._text_input.source_label`).

    A fragment: its button and options rerun this expander alone, not the page above it (on Compare with eight
    tokenizers and a long text that page takes tens of seconds), so the progress bar shows from the click; the
    downloads rerun nothing (``on_click="ignore"``)."""
    with st.expander(_("Checkpoint report (self-contained HTML + Markdown)"), expanded=False):
        # the same visible cut as every text box (the report's text itself comes cut from the compare page)
        english = limit_text(st.text_area(_("English version of the text (optional: adds the premium vs English)"),
                                          key="cmp_report_en", height=80))
        d_model = st.number_input(_("d_model for embedding parameters"), min_value=1, max_value=65536,
                                  value=DEFAULT_D_MODEL, step=256, key="cmp_report_d")
        lang = current_lang()  # the report is written in the page's language (part of the digest)
        digest = hashlib.sha256("\x00".join([text, english, str(d_model), lang, label or "", *tokenizer_ids]).encode("utf-8")).hexdigest()
        # The click only asks for a report (kept in the session, so a rerun on the way does not lose it);
        # it is built here, in the page, where a progress bar can be drawn, then the bar is removed.
        st.button(_("Make checkpoint report"), key="cmp_report_go", on_click=st.session_state.__setitem__,
                  args=(_KEY + "_asked", digest))
        if st.session_state.get(_KEY + "_asked") == digest:
            bar = st.progress(0.0, text=_("Making the report…"))
            try:
                _build(digest, text, list(tokenizer_ids), get, english, int(d_model),
                       progress=bar_progress(bar, 0.0, 1.0, _("Making the report")), lang=lang, label=label)
            finally:
                st.session_state.pop(_KEY + "_asked", None)
            bar.empty()
        saved = st.session_state.get(_KEY)
        if saved and saved[0] == digest:
            if saved[3]:
                st.error(md_escape(saved[3]))
                return
            st.caption(_("Same figures as the table above (safe mode: typed special tokens stay text)."))
            c1, c2 = st.columns(2)
            c1.download_button(_("Download HTML report"), saved[1], "tokenizer-report.html", "text/html",
                               key="cmp_report_html", on_click="ignore")
            c2.download_button(_("Download Markdown report"), saved[2], "tokenizer-report.md", "text/markdown",
                               key="cmp_report_md", on_click="ignore")
        elif saved:
            st.caption(_("The text or options changed: make the report again."))
