"""Word inspector: why is this word so many pieces here and so few there? Reasons layer by layer.

Every sentence on this page comes from :mod:`core.analysis.inspect`; the page only lays it out.
Clicking a token chip on any page opens this page on that chip's word
(``?word=...&tok=...``).
"""
from __future__ import annotations

import html
import re
from urllib.parse import quote

import pandas as pd
import streamlit as st

from core.analysis.inspect import (
    MAX_WORD_CHARS,
    InspectError,
    Inspection,
    explain,
    word_facts,
)
from core.i18n import FSI, PDI
from core.i18n import quote as quote_word
from core.markdown import md_escape, md_format
from core.pretrained import zoo
from core.render import legend_html, render_encoding
from pages._lang import _, current_lang, lang_args, localize, ngettext, tr
from pages._layout import esc, page_header, show_entry_audit, show_table, show_tokens
from pages._selector import get_tokenizer, known, pick_tokenizers, ready
from pages._url import qp_init, qp_sync

DEFAULT_TOK = ["cl100k_base", "o200k_base", "llama3", "tekken", "mistral-spm-v1"]
IDS = list(zoo.ENTRIES)
EXAMPLES = {"রাজশাহী": "Rajshahi", "नमस्ते": "hello", "می‌رسد": "arrives", "Oʻzbekiston": "Uzbekistan"}

page_header(
    _("Word inspector"),
    _("Why does a word cost nine tokens in one tokenizer and three in another? For each tokenizer: what the "
      "normalizer changed, where the split regex cut and which part of it stopped, which merges ran (with ranks) and "
      "which pairs have none, and which tokens end inside a letter. Click any token chip elsewhere in the app to land here."),
)

qp_init("in_word", "রাজশাহী", param="word", max_len=MAX_WORD_CHARS)
qp_init("in_en", "", param="en")
qp_init("in_tok", [i for i in DEFAULT_TOK if i in IDS], param="tok", cast=lambda s: [i for i in s.split(",") if known(i)])
c1, c2 = st.columns([2, 2])
word = c1.text_input(_("Word (or a short text)"), key="in_word", max_chars=MAX_WORD_CHARS)
english = c2.text_input(_("English translation (optional, for the same counts)"), key="in_en",
                        placeholder="Rajshahi")
# the whole shelf, plus the tokenizers uploaded or trained in this session (pages/_selector.py)
chosen: list[str] = pick_tokenizers(_("Tokenizers (grouped by vendor)"), "in_tok")
st.html('<p class="tl-try">' + esc(_("Try:")) + " " + " · ".join(
    f'<a class="tl-nav" target="_self" href="{esc(f"inspector?word={quote(w)}&en={quote(e)}")}"><bdi>{esc(w)}</bdi></a>'
    for w, e in EXAMPLES.items()) + "</p>")  # in-app links: same tab, same session (pages/_router.NAV_SCRIPT)
qp_sync(word=word or None, en=english or None, tok=",".join(chosen))

if not word.strip():
    st.info(_("Type a word above, e.g. রাজশাহী, or click a token chip on any other page."))
    st.stop()
if not chosen:
    st.info(_("Choose at least one tokenizer."))
    st.stop()


def _isolate(escaped: str) -> str:
    """Quoted text (“…”, Persian «…») in its own bidi island, so a Bangla word does not reorder a Persian sentence
    around it (the marks stay outside, in the sentence's direction: Persian's guillemets are mirrored there, so they
    open on the right); values that core isolated for a right-to-left sentence (FSI … PDI: hex bytes, code points,
    regex fragments) become ``<bdi>`` elements (browsers do not all honour the isolate characters)."""
    escaped = escaped.replace(FSI, "<bdi>").replace(PDI, "</bdi>")
    return re.sub(r"(“|«)([^”»]*)(”|»)", r"\1<bdi>\2</bdi>\3", escaped)


def _layer_html(view) -> str:
    """The reasons as an escaped HTML list (regex fragments such as \\p{L} must not go through Markdown)."""
    out = ['<div class="tl-reasons">']
    for layer in view.layers:
        out.append(f'<div class="tl-layer"><b>{_isolate(html.escape(layer.title))}</b><ul>')
        for r in layer.reasons:
            ev = ""
            if r.evidence:
                # each line in its own direction (a Persian line right to left); hex, ranks and pieces in it stay
                # left to right in their <bdi> islands
                lines = "".join(f'<div class="tl-ev" dir="auto">{_isolate(html.escape(e))}</div>' for e in r.evidence)
                summary = esc(_("evidence ({count})").format(count=len(r.evidence)))
                ev = f'<details><summary>{summary}</summary><div class="tl-evidence">{lines}</div></details>'
            out.append(f'<li data-kind="{html.escape(r.kind, quote=True)}">{_isolate(html.escape(localize(r.text)))}{ev}</li>')
        out.append("</ul></div>")
    out.append("</div>")
    return "".join(out)


st.html("<style>.tl-reasons ul{margin:.1rem 0 .5rem 1rem}.tl-reasons li{margin:.15rem 0}"
        ".tl-reasons .tl-evidence{font-family:monospace;font-size:.8rem;white-space:pre-wrap}"
        ".tl-verdict{font-size:1.1rem;font-weight:600}</style>")

try:
    facts = word_facts(word)
    views = []
    sources: dict[str, str] = {}
    entries: dict[str, zoo.ZooEntry] = {}
    for tid in ready(chosen):
        try:
            tok = get_tokenizer(tid)
            views.append(explain(tok, word, translation=english or None, lang=current_lang(), digits=tr().digits))
            sources[tok.id] = localize(tok.entry.source)
            entries[tok.id] = tok.entry
        except zoo.ZooError as exc:
            st.error(md_format(_("{tokenizer}: {error}"), tokenizer=tid, error=localize(exc)))
    result = Inspection(facts, tuple(views), english or None)
except InspectError as exc:
    st.error(md_escape(localize(exc)))
    st.stop()

st.markdown(_("#### The word"))
n_cp, n_bytes, n_letters = len(facts.codepoints), len(facts.utf8.split()), len(facts.clusters)
counts = " · ".join((
    ngettext("{count} code point", "{count} code points", n_cp).format(count=tr().format_number(n_cp)),
    ngettext("{count} UTF-8 byte", "{count} UTF-8 bytes", n_bytes).format(count=tr().format_number(n_bytes)),
    ngettext("{count} letter (grapheme cluster)", "{count} letters (grapheme clusters)", n_letters).format(
        count=tr().format_number(n_letters)),
))
st.html(f"<p>{esc(counts)}: " + " · ".join(_isolate(html.escape(quote_word(c.text, current_lang()))) for c in facts.clusters)
        + "</p>")
show_table(
    pd.DataFrame([{"char": c.char, "code point": c.hex, "name": c.name, "category": c.category, "UTF-8": c.utf8_hex}
                  for c in facts.codepoints]),
    hide_index=True, width="stretch",
    column_config={"char": _("character"), "code point": _("code point"), "name": _("Unicode name"),
                   "category": _("category"), "UTF-8": "UTF-8"},
)

show_tokens(legend_html(current_lang()))
for view in result.views:
    st.markdown(md_format("#### {name}", name=_(view.name)))
    st.caption(md_format("{algorithm} · {source}", algorithm=_(view.algorithm), source=sources[view.tokenizer]))
    if view.tokenizer in entries:
        show_entry_audit(entries[view.tokenizer])
    show_tokens(render_encoding(view.encoding, **lang_args()))
    verdict = _isolate(html.escape(view.verdict))
    if view.translation_verdict:
        verdict += "<br><span style='font-weight:400'>" + _isolate(html.escape(view.translation_verdict)) + "</span>"
    st.html(f'<div class="tl-verdict" data-tokenizer="{html.escape(view.tokenizer, quote=True)}">{verdict}</div>')
    st.html(_layer_html(view))
