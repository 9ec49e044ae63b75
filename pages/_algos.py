"""Helpers shared by the WordPiece, Unigram, normalization and pre-tokenizer pages.

Only caching and HTML drawing live here; every computation is in ``core/``.
All user text that reaches HTML goes through ``esc`` (pages/_layout.py).
"""
from __future__ import annotations

from typing import Callable, Sequence

import streamlit as st

from core import languages
from core.assets import ALGOS, sample_lines
from core.models import unigram, wordpiece
from core.render import render_encoding, text_lines_html
from core.text.bidi import text_direction
from core.tokens import Encoding, Token, tokens_from_char_spans
from pages._lang import _, lang_args
from pages._layout import esc
from pages._samples import learn_lines

CSS = """
.tl-algo-table{border-collapse:collapse;margin:.3rem 0 .8rem 0}
.tl-algo-table td,.tl-algo-table th{border-bottom:1px solid #ddd;padding:.2rem .55rem;text-align:left;vertical-align:top}
.tl-algo-table th{background:#F2F6FB}
.tl-algo-table tr.tl-changed td{background:#FFF4D6}
.tl-algo-table tr.tl-hit td{background:#DDF2E3}
.tl-algo-table .tl-op{font-weight:700;white-space:nowrap}
.tl-algo-table code{font-size:.95em}
.tl-algo-big{font-size:1.6rem;line-height:2.1;padding:.3rem .6rem;border:1px solid #ccc;border-radius:.4rem;
  background:#fafafa;margin:.2rem 0 .6rem 0;white-space:pre-wrap}
.tl-algo-cap{color:#555;font-size:.9rem;margin-bottom:.1rem}
.tl-algo-flag{color:#994F00;font-weight:600}
"""


def inject_css() -> None:
    st.html(f"<style>{CSS}</style>")


def big_text(text: str, caption: str = "") -> str:
    """A large text box; each line reads in its own direction, as in the token view
    (a Persian line right to left, the English line under it left to right)."""
    d = text_direction(text.split("\n", 1)[0])  # the box takes its first line's direction, as the token view does
    cap = f'<div class="tl-algo-cap">{esc(caption)}</div>' if caption else ""
    body = text_lines_html(text, "tl-algo-line") if text else "&nbsp;"
    return f'{cap}<div class="tl-algo-big" dir="{d}">{body}</div>'


def html_table(headers: Sequence[str], rows: Sequence[Sequence[str]], row_classes: Sequence[str] | None = None,
               testid: str = "") -> str:
    """A table; ``rows`` hold already-escaped HTML cells."""
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = []
    for k, r in enumerate(rows):
        cls = f' class="{row_classes[k]}"' if row_classes and row_classes[k] else ""
        body.append(f"<tr{cls}>" + "".join(f'<td dir="auto">{c}</td>' for c in r) + "</tr>")
    tid = f' data-testid="{esc(testid)}"' if testid else ""
    return f'<table class="tl-algo-table"{tid}><tr>{head}</tr>{"".join(body)}</table>'


def spans_chips(text: str, spans: Sequence[tuple[int, int]], ids: Sequence[int | None] | None = None,
                link: Callable[[Token], str | None] | None = None) -> str:
    """Token chips for code point spans of ``text`` (cuts inside letters are marked by core.render);
    ``link`` as in :func:`core.render.render_encoding` (e.g. :func:`pages._links.chip_links`)."""
    enc = Encoding(text, tokens_from_char_spans(text, list(spans), ids))
    return render_encoding(enc, link=link, **lang_args())


def asset_text(name: str) -> str:
    return (ALGOS / name).read_text(encoding="utf-8").rstrip("\n")


def trained_wordpiece(vocab_size: int, lang: str = languages.HOME) -> wordpiece.WordPieceVocab:
    """Hugging Face WordPieceTrainer on the bundled sample of ``lang`` (cached per size and language)."""
    with st.spinner(_("Training WordPiece…"), show_time=False):  # (a cache's own spinner text cannot be translated)
        return _trained_wordpiece(vocab_size, lang)


@st.cache_resource(show_spinner=False, max_entries=16)
def _trained_wordpiece(vocab_size: int, lang: str) -> wordpiece.WordPieceVocab:
    return wordpiece.train_wordpiece(learn_lines(lang), vocab_size=vocab_size)


def trained_unigram(vocab_size: int, lang: str = languages.HOME) -> unigram.UnigramModel:
    """Hugging Face UnigramTrainer on the bundled sample of ``lang`` (cached per size and language)."""
    with st.spinner(_("Training Unigram…"), show_time=False):
        return _trained_unigram(vocab_size, lang)


@st.cache_resource(show_spinner=False, max_entries=16)
def _trained_unigram(vocab_size: int, lang: str) -> unigram.UnigramModel:
    return unigram.train_unigram(learn_lines(lang), vocab_size=vocab_size)


@st.cache_data(show_spinner=False, max_entries=32)
def sample_word_counts() -> dict[str, int]:
    return dict(wordpiece.word_counts(sample_lines()))
