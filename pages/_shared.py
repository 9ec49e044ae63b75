"""Where pages' helpers used to live, before each job got its own module; it only re-exports them.

Pages import from the job modules: :mod:`pages._lang` (the session's language), :mod:`pages._controls`
(language setup and classroom display), :mod:`pages._url` (query parameters), :mod:`pages._text_input`
(text box and upload), :mod:`pages._layout` (page frame, token HTML, escaping), :mod:`pages._samples`,
:mod:`pages._bpe`, :mod:`pages._router`, and :mod:`core.markdown` (Markdown escaping).

Kept while ``pages/special_tokens.py`` (being changed on another branch) still imports from here;
delete it once that page imports from the modules above. Nothing new goes here.
"""
from __future__ import annotations

from core.markdown import Md, md_codes, md_escape, md_format
from pages._bpe import bpe_trace
from pages._controls import classroom, classroom_requested, init_lang, sidebar_controls
from pages._lang import _, current_lang, is_rtl, lang_args, localize, ngettext, num, tr
from pages._layout import (
    CLASSROOM_CSS,
    RTL_CSS,
    esc,
    ltr,
    page_header,
    show_tokens,
    stats_line,
)
from pages._router import NAV_SCRIPT, ensure_router, mark_router_run
from pages._samples import LEARN_LANGS, LEARN_WORDS, learn_lines, sample
from pages._text_input import (
    MAX_CHARS,
    MAX_UPLOAD_MB,
    decode_upload,
    limit_text,
    text_input,
)
from pages._url import MAX_URL_TEXT, qp_hold, qp_init, qp_sync, url_text

__all__ = [
    "CLASSROOM_CSS", "LEARN_LANGS", "LEARN_WORDS", "MAX_CHARS", "MAX_UPLOAD_MB", "MAX_URL_TEXT", "NAV_SCRIPT", "Md",
    "RTL_CSS", "_", "bpe_trace", "classroom", "classroom_requested", "current_lang", "decode_upload", "ensure_router",
    "esc", "init_lang", "is_rtl", "lang_args", "learn_lines", "limit_text", "localize", "ltr", "mark_router_run",
    "md_codes", "md_escape", "md_format", "ngettext", "num", "page_header", "qp_hold", "qp_init", "qp_sync", "sample",
    "show_tokens", "sidebar_controls", "stats_line", "text_input", "tr", "url_text",
]
