"""The shared token view: HTML for any segmentation, with no Streamlit import.

Every page (baselines, BPE, WordPiece, pretrained tokenizers, replays) shows
tokens through these functions, so the look and the safety rules live in one
place. They return HTML strings; a page puts them on screen with
``st.html(...)`` (see ``pages/_layout.py``: ``show_tokens``), a test can parse
them, and an export can wrap them with :func:`standalone_page`.

API
---
- :func:`render_encoding` ``(enc, *, max_tokens=2000, show_ids=True, legend=False,
  direction="auto") -> str``: one :class:`core.tokens.Encoding` as chips.
- :func:`render_pieces` ``(pieces, *, ids=None, ..., link=None) -> str``: a plain list of
  ``bytes`` pieces (e.g. a BPE word segmentation). When the pieces join to
  valid UTF-8 the cuts are judged exactly like an Encoding; otherwise the
  chips are drawn without cluster analysis (hex where needed).
- :func:`render_piece_groups` ``(groups, *, max_tokens, lang, digits) -> str``: separate tokens (search
  results), each ``(piece, id)`` its own chip group, side by side.
- :func:`encoding_from_pieces` ``(pieces, ids=None) -> Encoding | None``.
- :func:`piece_parts` ``(data) -> list[Part]``: a token's bytes as text runs
  and invalid-UTF-8 hex runs (``E0 A6…``, ``…B0``).
- :func:`visible_text` ``(text) -> str``: escaped HTML with whitespace glyphs.
- :func:`piece_label` ``(data) -> str``: plain text for a piece in a table or
  chart (text with glyphs, or hex such as ``E0 A6…``); not HTML-escaped.
- :func:`render_differences` ``(diff, *, max_chars=600, legend=True, lang, digits) -> str``: a
  :class:`core.text.disagree.Disagreement` as one row per tokenizer, every cut position not all of them make
  marked (``▼`` this one cuts, ``▽`` another does, ``✂`` inside a character); :func:`diff_legend_html`.
- :func:`legend_html` ``(lang) -> str``; :data:`CSS` (``assets/tokens.css``, inject once per page);
  :data:`PALETTE`; :func:`standalone_page` ``(body, title) -> str``.

Every function that writes words (tooltips, notes, the legend) takes ``lang`` (and ``digits`` where it
writes numbers) as an argument, English by default: nothing here reads an ambient interface language,
so a memoised result is keyed on its language by its signature.

What the view shows
-------------------
- Chips coloured from Paul Tol's colour-blind-safe "light" palette, and a
  separator element between every two tokens, so boundaries never rely on
  colour alone. Three separator shapes: a thin grey bar (clean cut), a
  dashed orange bar with a diamond (cut inside a grapheme cluster) and a
  thick red bar with scissors (cut inside a code point).
- Whitespace as glyphs: space ``·``, tab ``→``, newline ``↵`` (followed by
  a real line break), CR ``␍``, no-break space ``⍽``; invisible format
  characters as labels (``‹ZWJ›``).
- Bytes that are not valid UTF-8 on their own as hex (``E0 A6``), with
  ``…`` marking a code point that continues in the next/previous token.
- A tooltip (``title``) per chip: position, id, the exact bytes in hex and
  the code points it touches (``U+09B0 BENGALI LETTER RA``).

Modules (one idea each; import from here, the package re-exports them)
----------------------------------------------------------------------
- :mod:`.glyphs`: a token's bytes as visible text (whitespace glyphs, invisible characters by name, hex).
- :mod:`.chips`: one chip, its colour and tooltip, and the separator before it.
- :mod:`.view`: chips laid out in lines, groups over cuts inside a letter, bidi runs (``render_*``).
- :mod:`.legend`: the key to the chips.
- :mod:`.differences`: the differences view.
- :mod:`.page`: the styles (:data:`CSS`) and the standalone export page.

This package does not tokenize or compute metrics; it only draws an Encoding. The direction of
runs comes from :mod:`core.text.bidi`; Markdown escaping lives in :mod:`core.markdown`.
"""
from __future__ import annotations

from .chips import MAX_CACHED_TOKEN_BYTES, PALETTE, chip_html, sep_html, token_title
from .differences import DEFAULT_DIFF_CHARS, diff_legend_html, render_differences
from .glyphs import Part, char_label, chip_inner, piece_label, piece_parts, text_lines_html, visible_text
from .legend import legend_html
from .page import CSS, REPORT_CSP, standalone_page
from .view import (
    DEFAULT_MAX_TOKENS,
    draw_tokens,
    encoding_from_pieces,
    render_encoding,
    render_piece_groups,
    render_pieces,
    render_table,
)

__all__ = [
    "CSS", "DEFAULT_DIFF_CHARS", "DEFAULT_MAX_TOKENS", "MAX_CACHED_TOKEN_BYTES", "PALETTE", "REPORT_CSP", "Part",
    "char_label", "chip_html", "chip_inner", "diff_legend_html", "draw_tokens", "encoding_from_pieces",
    "legend_html", "piece_label", "piece_parts", "render_differences", "render_encoding", "render_piece_groups", "render_pieces",
    "render_table", "sep_html", "standalone_page", "text_lines_html", "token_title", "visible_text",
]
