"""Chips laid out: tokens in lines, groups over cuts inside a letter, runs of the other direction isolated.

:func:`render_encoding` (an :class:`core.tokens.Encoding`), :func:`render_table` (token columns) and
:func:`render_pieces` (a plain list of byte pieces) all draw through :func:`draw_tokens`.

Shaping decision (why chips are grouped)
----------------------------------------
A browser shapes each chip separately (chips are inline-blocks with padding),
so a cluster cut in two, e.g. "কি" = ক | ি, cannot be shown shaped *inside*
the chips: a lone vowel sign has nothing to attach to (and ি is drawn to the
left of its consonant, so splitting the glyph would lie about order). We
show both truths instead. Each chip shows its token as the model sees it: a
token that starts with a combining mark is drawn on a dotted circle ``◌``
(the Unicode convention for a mark with no base). Tokens joined by cuts that
fall inside a cluster are wrapped in one group, and under the group the
whole text it covers is drawn once, as one shaped run, so the reader always
sees the real letters. Clean cuts need no group. Right-to-left text works
because the container has ``dir="auto"`` (chips flow right to left for
Persian) and each chip has ``dir="auto"`` too.
"""
from __future__ import annotations

import html
import zlib
from functools import lru_cache
from typing import Callable, Collection, Sequence

from ..i18n import DEFAULT_LANG, Translator, translator
from ..text.bidi import resolve_runs, strong_class
from ..text.boundaries import BoundaryKind
from ..tokens import Encoding, Token, TokenTable, tokens_from_byte_spans
from .chips import ENGLISH, chip_html, sep_html
from .glyphs import visible_text
from .legend import legend_html

#: :attr:`core.tokens.TokenTable.cut` codes as boundary kinds.
_CUT_KINDS: tuple[BoundaryKind, ...] = ("clean", "inside_grapheme", "inside_codepoint")
#: Default number of chips drawn; the rest is summarised in a note.
DEFAULT_MAX_TOKENS = 1000


def _line_html(units: Sequence[tuple[str | None, str | None, Callable[[str], str]]], para: str) -> str:
    """One line: its units (separator before, class, drawer taking a direction) laid out
    in runs; a run of the other direction is an isolated ``<span dir=…>`` so it keeps
    its own order inside the line."""
    dirs = resolve_runs([u[1] for u in units], para)
    base = "L" if para == "ltr" else "R"
    out: list[str] = []
    k = 0
    while k < len(units):
        d = "R" if dirs[k] == "num" else dirs[k]
        m = k + 1
        while m < len(units) and ("R" if dirs[m] == "num" else dirs[m]) == d:
            m += 1
        sep0 = units[k][0]
        if sep0:
            out.append(sep0)
        run_dir = "ltr" if d == "L" else "rtl"
        body: list[str] = []
        q = k
        while q < m:
            sep_q = units[q][0]
            if q > k and sep_q and dirs[q] == "num":
                body.append(sep_q)
            if dirs[q] == "num":  # digits in right-to-left flow: a left-to-right island of consecutive numbers
                r = q
                island: list[str] = []
                while r < m and dirs[r] == "num":
                    sep_r = units[r][0]
                    if r > q and sep_r:
                        island.append(sep_r)
                    island.append(units[r][2]("ltr"))
                    r += 1
                body.append(f'<span class="tl-run" dir="ltr">{"".join(island)}</span>')
                q = r
                continue
            drawn = units[q][2](run_dir)
            # subtle: a boundary bar is glued to the token after it, so a line never ends or starts with a lone bar
            body.append(f'<span class="tl-u">{sep_q}{drawn}</span>' if q > k and sep_q else drawn)
            q += 1
        if d == base:
            if sep0 and body and out and out[-1] == sep0:
                out[-1] = f'<span class="tl-u">{sep0}{body[0]}</span>'
                body = body[1:]
            out.extend(body)
        else:
            out.append(f'<span class="tl-run" dir="{run_dir}">{"".join(body)}</span>')
        k = m
    return "".join(out)


def draw_tokens(
    tokens: Sequence[Token],
    kinds: Sequence[BoundaryKind | None],
    source_text: str | None,
    *,
    max_tokens: int | None,
    show_ids: bool,
    direction: str,
    extra_class: str = "",
    link: Callable[[Token], str | None] | None = None,
    total: int | None = None,
    colour_by: str = "position",
    unknown: frozenset[int] = frozenset(),
    t: Translator = ENGLISH,
) -> str:
    """Core drawing loop; tooltips and notes in ``t``'s language and digits. ``kinds[i]`` is the boundary before token ``i`` (None for 0).

    ``total``: how many tokens the encoding has when ``tokens`` holds only the first ones.

    Direction follows the Unicode bidi algorithm per line: the text is cut into
    lines after every token holding a newline; each line is a ``tl-line`` block
    whose ``dir`` comes from its own first strong character (``direction="auto"``,
    or the given "ltr"/"rtl" for every line), and inside it a run of tokens of the
    other direction is an isolated span, so "Your order … Rajshahi" in a Persian
    paragraph still reads left to right.
    """
    n = len(tokens) if total is None else total
    shown = min(n, len(tokens)) if max_tokens is None else min(n, len(tokens), max_tokens)

    def tok_text(a: int, b: int) -> str:
        if source_text is not None:
            return source_text[tokens[a].start : tokens[b - 1].end]
        return b"".join(tk.data for tk in tokens[a:b]).decode("utf-8", errors="replace")

    def colour(k: int) -> int | None:
        return None if colour_by == "position" else zlib.crc32(tokens[k].data)

    def chip(k: int, d: str) -> str:
        return chip_html(tokens[k], k, source_text, show_ids, link, d, colour(k), tokens[k].id in unknown, t)

    # units: (separator html before it, bidi class, drawer(direction) -> html), and where lines end
    lines: list[list[tuple[str | None, str | None, Callable[[str], str]]]] = [[]]
    i = 0
    while i < shown:
        # A group: token i plus every following token joined to it by a cut inside a cluster.
        j = i + 1
        while j < shown and kinds[j] not in (None, "clean"):
            j += 1
        sep = sep_html(kinds[i] or "clean", t) if i > 0 else None
        whole = tok_text(i, j)
        if j - i == 1:
            draw = (lambda k: (lambda d: chip(k, d)))(i)
        else:
            def draw(d: str, a: int = i, b: int = j, whole: str = whole) -> str:
                inner = [chip(a, d)]
                for k in range(a + 1, b):  # (glued as between groups: see _line_html)
                    inner.append(f'<span class="tl-u">{sep_html(kinds[k] or "clean", t)}{chip(k, d)}</span>')
                read_title = "as written: " + " ".join(f"U+{ord(c):04X}" for c in whole[:12])
                return (f'<span class="tl-grp" dir="{d}">'
                        f'<span class="tl-grp-toks">{"".join(inner)}</span>'
                        f'<span class="tl-grp-read" dir="auto" title="{html.escape(read_title, quote=True)}">'
                        f"{visible_text(whole)}</span></span>")
        joined = b"".join(tk.data for tk in tokens[i:j])
        rest = joined.lstrip(b"\r\n")
        if rest.strip() and len(rest) < len(joined) and lines[-1]:
            lines.append([])  # "\nسفارش": the token opens the next line, so it takes that line's direction
        lines[-1].append((sep, strong_class(whole), draw))
        if b"\n" in rest or (b"\n" in joined and not rest.strip()):
            lines.append([])
        i = j
    if not lines[-1] and len(lines) > 1:
        lines.pop()

    line_dirs: list[str] = []
    for units in lines:
        if direction in ("ltr", "rtl"):
            line_dirs.append(direction)
            continue
        first = next((c for c in (u[1] for u in units) if c in ("L", "R")), None)
        line_dirs.append("rtl" if first == "R" else "ltr")
    outer = line_dirs[0] if line_dirs else ("rtl" if direction == "rtl" else "ltr")
    out: list[str] = [f'<div class="tl-tokens{extra_class}" dir="{outer}">']
    if n == 0:
        empty = html.escape(t.gettext("(no tokens)"))
        out.append(f'<span class="tl-empty">{empty}</span>')
    for units, d in zip(lines, line_dirs):
        if units:
            out.append(f'<div class="tl-line" dir="{d}">{_line_html(units, d)}</div>')
    out.append("</div>")
    if shown < n:
        note = t.gettext("Showing the first {shown} of {total} tokens; counts cover all of them.").format(
            shown=t.format_number(shown), total=t.format_number(n))
        out.append(f'<div class="tl-note">{html.escape(note)}</div>')
    return "".join(out)


def render_encoding(
    enc: Encoding,
    *,
    max_tokens: int | None = DEFAULT_MAX_TOKENS,
    show_ids: bool = True,
    legend: bool = False,
    direction: str = "auto",
    link: Callable[[Token], str | None] | None = None,
    colour_by: str = "position",
    unknown: Collection[int] = (),
    lang: str = DEFAULT_LANG,
    digits: str = "western",
) -> str:
    """HTML chips for ``enc`` with boundary markers judged by ``enc.report``.

    ``max_tokens`` caps how many chips are drawn (None: all). ``direction``
    is the container's ``dir``: "ltr", "rtl", or "auto" (decided here from
    the first strong character, see :func:`core.text.bidi.text_direction`). ``link``, if
    given, maps a token to a URL (or None): that chip becomes a link
    (see :func:`pages._links.chip_links`). ``colour_by``: "position"
    (neighbours differ) or "token" (the same token bytes always get the same
    colour, e.g. across the rows of the BPE stepper). ``unknown``: ids of the
    model's unknown token; those chips are drawn as unknown (``UNK`` tag, red dashed).
    ``lang``/``digits``: the language of tooltips and notes and the digits of their numbers.
    """
    report = enc.report
    kinds = [None] + [report.kind_before(i) for i in range(1, len(enc.tokens))]
    body = draw_tokens(enc.tokens, kinds, enc.text, max_tokens=max_tokens, show_ids=show_ids, direction=direction, link=link,
                 colour_by=colour_by, unknown=frozenset(unknown), t=translator(lang, digits))
    return (legend_html(lang) + body) if legend else body


def render_table(
    text: str,
    table: TokenTable,
    *,
    max_tokens: int | None = DEFAULT_MAX_TOKENS,
    show_ids: bool = True,
    direction: str = "auto",
    link: Callable[[Token], str | None] | None = None,
    unknown: Collection[int] = (),
    lang: str = DEFAULT_LANG,
    digits: str = "western",
) -> str:
    """:func:`render_encoding` for columns: the same HTML, with token records built only for the chips drawn."""
    shown = len(table) if max_tokens is None else min(len(table), max_tokens)
    tokens = table.tokens(shown)
    cut = table.cut[:shown].tolist()
    kinds: list[BoundaryKind | None] = [None] + [_CUT_KINDS[c] for c in cut[1:]]
    return draw_tokens(tokens, kinds, text, max_tokens=max_tokens, show_ids=show_ids, direction=direction, link=link,
                 total=len(table), unknown=frozenset(unknown), t=translator(lang, digits))


def encoding_from_pieces(pieces: Sequence[bytes], ids: Sequence[int | None] | None = None) -> Encoding | None:
    """An Encoding whose tokens are ``pieces``, if they join to valid UTF-8, else None."""
    joined = b"".join(pieces)
    try:
        text = joined.decode("utf-8")
    except UnicodeDecodeError:
        return None
    spans = []
    pos = 0
    for p in pieces:
        spans.append((pos, pos + len(p)))
        pos += len(p)
    return Encoding(text, tokens_from_byte_spans(text, spans, ids))


def render_pieces(
    pieces: Sequence[bytes],
    *,
    ids: Sequence[int | None] | None = None,
    max_tokens: int | None = DEFAULT_MAX_TOKENS,
    show_ids: bool = True,
    legend: bool = False,
    direction: str = "auto",
    link: Callable[[Token], str | None] | None = None,
    colour_by: str = "position",
    unknown: Collection[int] = (),
    lang: str = DEFAULT_LANG,
    digits: str = "western",
) -> str:
    """HTML chips for a plain list of byte pieces (e.g. one word's BPE segmentation).

    >>> "E0 A6" in render_pieces([b"\\xe0\\xa6", b"\\xb0"])
    True

    ``link``, as in :func:`render_encoding`, maps a chip's token to a URL (or
    None). The token is piece ``k`` placed in the joined pieces: ``byte_start``
    is the byte offset of the piece in ``b"".join(pieces)``, and when the pieces
    join to valid UTF-8, ``start``/``end`` are code point offsets in that text
    (see :func:`pages._links.chip_links` and :func:`pages._links.piece_links`).

    Results are memoised (a stepper redraws the same word segmentations on
    every step); with ``link``, on the URLs it gives; ``lang`` and ``digits`` are part of the key
    (chips first drawn in English must not keep English tooltips for a Bangla reader).
    """
    key = tuple(bytes(p) for p in pieces)
    id_key = None if ids is None else tuple(ids)
    hrefs = None
    if link is not None:  # a function is no cache key, but the URLs it gives are
        hrefs = tuple(link(t) for t in _piece_tokens(key, id_key)[:max_tokens])  # only the chips drawn
    return _render_pieces_cached(key, id_key, max_tokens, show_ids, legend, direction, hrefs, colour_by,
                                 frozenset(unknown), lang, digits)


@lru_cache(maxsize=8192)
def _piece_tokens(pieces: tuple[bytes, ...], ids: tuple[int | None, ...] | None) -> tuple[Token, ...]:
    """The tokens :func:`render_pieces` draws: piece ``k`` at its byte offset in the joined pieces."""
    enc = encoding_from_pieces(pieces, ids)
    if enc is not None:
        return enc.tokens
    toks = []
    pos = 0
    for k, p in enumerate(pieces):
        toks.append(Token(None if ids is None else ids[k], bytes(p), pos, pos + len(p), 0, 0))
        pos += len(p)
    return tuple(toks)


@lru_cache(maxsize=8192)
def _render_pieces_cached(
    pieces: tuple[bytes, ...],
    ids: tuple[int | None, ...] | None,
    max_tokens: int | None,
    show_ids: bool,
    legend: bool,
    direction: str,
    hrefs: tuple[str | None, ...] | None = None,
    colour_by: str = "position",
    unknown: frozenset[int] = frozenset(),
    lang: str = DEFAULT_LANG,
    digits: str = "western",
) -> str:
    link = None
    if hrefs is not None:  # hrefs[k] belongs to piece k, found by its byte span
        by_span = {(t.byte_start, t.byte_end): h for t, h in zip(_piece_tokens(pieces, ids), hrefs)}
        link = lambda t: by_span.get((t.byte_start, t.byte_end))  # noqa: E731
    enc = encoding_from_pieces(pieces, ids)
    if enc is not None:
        return render_encoding(enc, max_tokens=max_tokens, show_ids=show_ids, legend=legend, direction=direction,
                               link=link, colour_by=colour_by, unknown=unknown, lang=lang, digits=digits)
    # Not decodable as a whole: draw chips without cluster analysis.
    toks = _piece_tokens(pieces, ids)
    clean: BoundaryKind = "clean"
    kinds: list[BoundaryKind | None] = [None, *([clean] * (len(toks) - 1))]
    body = draw_tokens(toks, kinds, None, max_tokens=max_tokens, show_ids=show_ids, direction=direction, link=link,
                 colour_by=colour_by, unknown=unknown, t=translator(lang, digits))
    return (legend_html(lang) + body) if legend else body


def render_piece_groups(groups: Sequence[tuple[bytes, int | None]], *, max_tokens: int | None = DEFAULT_MAX_TOKENS,
                        lang: str = DEFAULT_LANG, digits: str = "western") -> str:
    """Each ``(piece, id)`` as a chip group of its own, side by side: a list of separate tokens (search results),
    not one text, so a piece that starts with a combining mark (a virama) is not joined to the one before it and
    no cut is marked between two results.

    >>> html = render_piece_groups([("ক".encode(), 1), ("্র".encode(), 2)])
    >>> html.count('class="tl-tokens"'), "tl-sep-g" in html
    (2, False)
    """
    shown = groups if max_tokens is None else groups[:max_tokens]
    body = "".join(f'<div class="tl-group">{render_pieces([p], ids=[i], lang=lang, digits=digits)}</div>'
                   for p, i in shown)
    return f'<div class="tl-groups">{body}</div>'
