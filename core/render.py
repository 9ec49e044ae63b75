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

Everything from the user (token text, titles) goes through ``html.escape``.

This module does not tokenize or compute metrics; it only draws an Encoding. The direction of
runs comes from :mod:`core.text.bidi`; Markdown escaping lives in :mod:`core.markdown`.
"""
from __future__ import annotations

import html
import unicodedata
import zlib
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Collection, Sequence

from .assets import ASSETS
from .i18n import DEFAULT_LANG, N_, RTL_LANGS, Translator, translator
from .text.bidi import resolve_runs, strong_class, text_direction
from .text.boundaries import BoundaryKind, is_valid_utf8
from .text.disagree import Cut, Disagreement
from .text.scripts import joined_at
from .text.units import cluster_bounds, codepoint_info, utf8_hex
from .tokens import Encoding, Token, TokenTable, tokens_from_byte_spans

#: Paul Tol's "light" qualitative scheme (colour-blind safe, for backgrounds
#: behind dark text), without its pale grey, which we keep for neutral UI.
PALETTE: tuple[str, ...] = (
    "#77AADD",  # light blue
    "#EE8866",  # orange
    "#EEDD88",  # light yellow
    "#FFAABB",  # pink
    "#99DDFF",  # light cyan
    "#44BB99",  # mint
    "#BBCC33",  # pear
    "#AAAA00",  # olive
)

#: Default number of chips drawn; the rest is summarised in a note.
#: :attr:`core.tokens.TokenTable.cut` codes as boundary kinds.
_CUT_KINDS: tuple[BoundaryKind, ...] = ("clean", "inside_grapheme", "inside_codepoint")
DEFAULT_MAX_TOKENS = 1000

_WS_GLYPHS = {" ": "·", "\t": "→", "\n": "↵", "\r": "␍", "\u00a0": "⍽", "\u3000": "␣"}
_FORMAT_NAMES = {
    "\u200c": "ZWNJ",
    "\u200d": "ZWJ",
    "\u200b": "ZWSP",
    "\ufeff": "BOM",
    "\u200e": "LRM",
    "\u200f": "RLM",
    "\u00ad": "SHY",
}
_SEP_TITLES = {
    "clean": N_("boundary"),
    "inside_grapheme": N_("cut inside a grapheme cluster (a letter as a reader sees it)"),
    "inside_codepoint": N_("cut inside a code point (the UTF-8 bytes of one character are split)"),
}
_SEP_GLYPHS = {"clean": "", "inside_grapheme": "◆", "inside_codepoint": "✂"}
_SEP_CLASSES = {"clean": "tl-sep-clean", "inside_grapheme": "tl-sep-g", "inside_codepoint": "tl-sep-cp"}

#: The token view's styles (``assets/tokens.css``): pages inject them once, exports inline them.
CSS = (ASSETS / "tokens.css").read_text(encoding="utf-8")

#: Tooltips and notes default to English (the CLI and tests); pages pass the reader's translator.
ENGLISH = translator()


@dataclass(frozen=True)
class Part:
    """A run inside one token: decodable text, or bytes that are not valid UTF-8.

    ``cont_before``: the run starts with continuation bytes (its code point
    began in an earlier token). ``cont_after``: the run ends with an
    incomplete sequence (the code point finishes in a later token).
    """

    text: str | None
    data: bytes
    cont_before: bool = False
    cont_after: bool = False

    @property
    def is_hex(self) -> bool:
        return self.text is None


def _seq_len(lead: int) -> int:
    """Length of the UTF-8 sequence a lead byte announces (1 for invalid leads)."""
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF4:
        return 4
    return 1


def piece_parts(data: bytes) -> list[Part]:
    """Split a token's bytes into decodable text runs and invalid-UTF-8 byte runs.

    >>> [(p.text, p.data.hex(" ").upper(), p.cont_before, p.cont_after) for p in piece_parts(b"\\xb0\\xe0\\xa6\\xbe\\xe0\\xa6")]
    [(None, 'B0', True, False), ('া', 'E0 A6 BE', False, False), (None, 'E0 A6', False, True)]
    """
    decoded = data.decode("utf-8", errors="surrogateescape")
    parts: list[Part] = []
    buf: list[str] = []
    bad: list[int] = []

    def flush_text() -> None:
        if buf:
            s = "".join(buf)
            parts.append(Part(s, s.encode("utf-8")))
            buf.clear()

    def flush_bad() -> None:
        if bad:
            raw = bytes(bad)
            before = 0x80 <= raw[0] <= 0xBF
            after = False
            for k in range(len(raw) - 1, -1, -1):
                if raw[k] >= 0xC0:
                    after = len(raw) - k < _seq_len(raw[k])
                    break
            parts.append(Part(None, raw, before, after))
            bad.clear()

    for ch in decoded:
        if "\udc80" <= ch <= "\udcff":
            flush_text()
            bad.append(ord(ch) - 0xDC00)
        else:
            flush_bad()
            buf.append(ch)
    flush_text()
    flush_bad()
    return parts


def piece_label(data: bytes) -> str:
    r"""Plain text for one piece in tables and charts: its text with whitespace glyphs and invisible characters
    by name (‹ZWNJ›, as the chips show them), or spaced hex for bytes that are not valid UTF-8 (``…`` marks a
    split code point).

    >>> piece_label(b" \xe0\xa6\xb0"), piece_label(b"\xe0\xa6"), piece_label(b"\xb0\xe0\xa6\xbe")
    ('·র', 'E0 A6…', '…B0 া')
    >>> piece_label("\u200c".encode())
    '‹ZWNJ›'
    """
    out = []
    for p in piece_parts(data):
        if p.is_hex:
            out.append(("…" if p.cont_before else "") + utf8_hex(p.data) + ("…" if p.cont_after else ""))
        else:
            out.append("".join(_WS_GLYPHS.get(c) or _visible_name(c) for c in p.text or ""))
    return " ".join(out) if out else "∅"


def char_label(ch: str) -> str:
    """Plain text that shows one character: itself, a glyph for whitespace, or the short name (``ZWNJ``) or
    code point (``U+2060``) of an invisible one, so a cell drawn for it is never empty.

    >>> char_label("র"), char_label(" "), char_label("\u200c"), char_label("\u2060")
    ('র', '·', 'ZWNJ', 'U+2060')
    """
    return _WS_GLYPHS.get(ch) or _invisible_name(ch) or ch


def _visible_name(ch: str) -> str:
    """``ch`` itself, or ``‹NAME›`` for a character that draws nothing."""
    name = _invisible_name(ch)
    return f"‹{name}›" if name else ch


def _invisible_name(ch: str) -> str | None:
    """The short name (``ZWNJ``) or code point (``U+2060``) of a character that draws nothing (format, control, a
    space other than U+0020), else None; whitespace with a glyph of its own is asked about first by the callers."""
    cat = unicodedata.category(ch)
    if cat in ("Cf", "Cc") or (cat == "Zs" and ch != " "):
        return _FORMAT_NAMES.get(ch, f"U+{ord(ch):04X}")
    return None


def visible_text(text: str, *, mark_orphan: bool = False) -> str:
    """Escaped HTML for ``text`` with whitespace and invisible characters made visible.

    ``mark_orphan`` puts a dotted circle before a leading combining mark.

    >>> visible_text("a <b>\\t")
    'a<span class="tl-ws">·</span>&lt;b&gt;<span class="tl-ws">→</span>'
    """
    out: list[str] = []
    run: list[str] = []
    if mark_orphan and text and unicodedata.category(text[0]).startswith("M"):
        # subtle: ◌ goes in the same text run as the mark (no span around it): a styled span would
        # break shaping there, and the font would draw a second dotted circle of its own.
        run.append("◌")

    def flush() -> None:
        if run:
            out.append(html.escape("".join(run)))
            run.clear()

    for ch in text:
        glyph = _WS_GLYPHS.get(ch)
        if glyph is not None:
            flush()
            out.append(f'<span class="tl-ws">{glyph}</span>')
            continue
        label = _invisible_name(ch)
        if label is not None:
            flush()
            # its own left-to-right island: inside a Persian word the ‹ › would otherwise take the
            # word's direction and one of them turn round ("‹ZWNJ‹")
            out.append(f'<span class="tl-fmt" dir="ltr">‹{label}›</span>')
            continue
        run.append(ch)
    flush()
    return "".join(out)


def _hex_html(part: Part, rtl: bool = False) -> str:
    """Hex for bytes that are not a whole character, with ``…`` on the side of the
    neighbouring token that holds the rest of the character: in right-to-left text
    the next token is on the left, so the marks swap sides. The hex itself always
    reads left to right (an isolated ``dir="ltr"`` run)."""
    before = '<span class="tl-part" data-cont="before">…</span>' if part.cont_before else ""
    after = '<span class="tl-part" data-cont="after">…</span>' if part.cont_after else ""
    left, right = (after, before) if rtl else (before, after)
    return f'<span class="tl-hexrun" dir="ltr">{left}<span class="tl-hex">{utf8_hex(part.data)}</span>{right}</span>'


def chip_inner(data: bytes, rtl: bool = False) -> str:
    """The visible HTML of one token's bytes (text with glyphs, hex for invalid runs);
    ``rtl``: the chip sits in right-to-left text (see :func:`_hex_html`)."""
    parts = piece_parts(data)
    if not parts:
        return '<span class="tl-empty">∅</span>'
    # subtle: after a hex run the browser itemizes our ◌ with the hex's Latin text and the mark alone in a Bengali
    # run, and the shaper then draws a dotted circle of its own: two circles ("…9C◌◌ার"). So only a chip that
    # starts with the mark gets our ◌; after hex the shaper's one circle is the only one.
    return "".join(
        _hex_html(p, rtl) if p.is_hex else visible_text(p.text or "", mark_orphan=k == 0) for k, p in enumerate(parts)
    )


def _codepoint_lines(chars: str, limit: int = 12) -> list[str]:
    lines = [codepoint_info(c).label() for c in chars[:limit]]
    if len(chars) > limit:
        lines.append(f"… {len(chars) - limit} more code points")
    return lines


def token_title(token: Token, index: int, source_text: str | None = None, *, lang: str = DEFAULT_LANG) -> str:
    """Plain-text tooltip in ``lang``: position, id, hex bytes, code points (not yet escaped)."""
    gettext = translator(lang).gettext
    head = gettext("token {index}").format(index=index + 1)
    if token.id is not None:
        head += f" · id {token.id}"
    if token.special:
        head += " · " + gettext("SPECIAL (control token)")
    lines = [head, gettext("bytes ({count}): {hex}").format(count=len(token.data),
                                                      hex=utf8_hex(token.data) if token.data else gettext("(none)"))]
    valid = True
    try:
        token.data.decode("utf-8")
    except UnicodeDecodeError:
        valid = False
    if valid:
        chars = token.data.decode("utf-8")
    else:
        lines.append(gettext("not valid UTF-8 on its own (part of a character)"))
        chars = source_text[token.start : token.end] if source_text is not None else ""
        if chars:
            lines.append(gettext("touches:"))
    lines.extend(_codepoint_lines(chars))
    return "\n".join(lines)


def _sep_html(kind: BoundaryKind, t: Translator) -> str:
    """The separator drawn before a token; its tooltip in ``t``'s language."""
    return (
        f'<span class="tl-sep {_SEP_CLASSES[kind]}" data-kind="{kind}" title="{html.escape(t.gettext(_SEP_TITLES[kind]))}">'
        f"{_SEP_GLYPHS[kind]}</span>"
    )


#: Longest token (bytes) whose chip parts are cached: a cache of 65,536 entries stays a few MB even when
#: hostile input makes every token a new long word (a cache keyed on user input is bounded, or input can fill memory).
MAX_CACHED_TOKEN_BYTES = 64


def _chip_parts(data: bytes, token_id: int | None, special: bool, touched: str, rtl: bool = False,
                lang: str = "en") -> tuple[str, str]:
    """(escaped tooltip without its first line, inner HTML): the same for every
    occurrence of a token, so it is computed once (texts repeat a lot); long tokens are not cached.
    ``lang``: the tooltip's language (so part of the cache key)."""
    if len(data) > MAX_CACHED_TOKEN_BYTES or len(touched) > MAX_CACHED_TOKEN_BYTES:
        return _chip_parts_uncached(data, token_id, special, touched, rtl, lang)
    return _chip_parts_cached(data, token_id, special, touched, rtl, lang)


def _chip_parts_uncached(data: bytes, token_id: int | None, special: bool, touched: str, rtl: bool,
                         lang: str = "en") -> tuple[str, str]:
    tok = Token(token_id, data, 0, len(data), 0, len(touched), special)
    title = token_title(tok, 0, touched, lang=lang)
    rest = title.split("\n", 1)[1]
    head_extra = title.split("\n", 1)[0][len(translator(lang).gettext("token {index}").format(index=1)):]
    return html.escape(head_extra + "\n" + rest, quote=True), chip_inner(data, rtl)


_chip_parts_cached = lru_cache(maxsize=65536)(_chip_parts_uncached)


def _chip_html(token: Token, index: int, source_text: str | None, show_ids: bool,
               link: Callable[[Token], str | None] | None = None, direction: str = "ltr",
               colour: int | None = None, unknown: bool = False, t: Translator = ENGLISH) -> str:
    """One chip, its tooltip in ``t``'s language. ``direction``: the direction of the run the chip sits in (its own ``dir``);
    ``colour``: palette index (default: by position, so neighbours differ); ``unknown``:
    the model's unknown token (``<unk>``, ``[UNK]``), drawn as such, not as a normal piece."""
    c = (index if colour is None else colour) % len(PALETTE)
    cls = f"tl-tok tl-c{c}" + (" tl-special" if token.special else "") + (" tl-unk" if unknown else "")
    # a token that is not valid UTF-8 names the characters it touches in the source text
    touched = "" if source_text is None or is_valid_utf8(token.data) else source_text[token.start : token.end]
    title_rest, inner = _chip_parts(token.data, token.id if show_ids else None, token.special, touched,
                                    direction == "rtl", t.lang)
    gettext = t.gettext
    if unknown:
        title_rest = " · " + html.escape(gettext("UNKNOWN: the model has no piece for this text (it becomes the unknown "
                                           "token)"), quote=True) + title_rest
        inner = f'<span class="tl-unk-tag" dir="ltr">UNK</span>{inner}'
    head = html.escape(gettext("token {index}").format(index=index + 1), quote=True)
    chip = f'<span class="{cls}" dir="{direction}" title="{head}{title_rest}">{inner}</span>'
    href = link(token) if link is not None else None
    if href:  # the chip opens another view (e.g. the word inspector) in the same tab
        return f'<a class="tl-link" href="{html.escape(href, quote=True)}" target="_self">{chip}</a>'
    return chip


def text_lines_html(text: str, cls: str = "tl-text-line") -> str:
    """Plain ``text``, escaped, as one ``<div dir=…>`` per line (cut at "\\n"), each line in
    the direction of its own first strong character: the rule the token view applies to
    its lines (:func:`core.text.bidi.text_direction` per line, "ltr" when a line has none). Inside a line
    the browser's bidi algorithm keeps each run of the other direction in its own order
    (plain text has no chips, so nothing needs isolating). An empty line keeps its height.

    >>> text_lines_html("سلام\\nhi <b>")
    '<div class="tl-text-line" dir="rtl">سلام</div><div class="tl-text-line" dir="ltr">hi &lt;b&gt;</div>'
    """
    return "".join(f'<div class="{html.escape(cls, quote=True)}" dir="{text_direction(line)}">'
                   f'{html.escape(line, quote=True) or "<br>"}</div>' for line in text.split("\n"))


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
            if q > k and sep_q:
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
            body.append(units[q][2](run_dir))
            q += 1
        if d == base:
            out.extend(body)
        else:
            out.append(f'<span class="tl-run" dir="{run_dir}">{"".join(body)}</span>')
        k = m
    return "".join(out)


def _draw(
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
        return _chip_html(tokens[k], k, source_text, show_ids, link, d, colour(k), tokens[k].id in unknown, t)

    # units: (separator html before it, bidi class, drawer(direction) -> html), and where lines end
    lines: list[list[tuple[str | None, str | None, Callable[[str], str]]]] = [[]]
    i = 0
    while i < shown:
        # A group: token i plus every following token joined to it by a cut inside a cluster.
        j = i + 1
        while j < shown and kinds[j] not in (None, "clean"):
            j += 1
        sep = _sep_html(kinds[i] or "clean", t) if i > 0 else None
        whole = tok_text(i, j)
        if j - i == 1:
            draw = (lambda k: (lambda d: chip(k, d)))(i)
        else:
            def draw(d: str, a: int = i, b: int = j, whole: str = whole) -> str:
                inner = [chip(a, d)]
                for k in range(a + 1, b):
                    inner.append(_sep_html(kinds[k] or "clean", t))
                    inner.append(chip(k, d))
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
    body = _draw(enc.tokens, kinds, enc.text, max_tokens=max_tokens, show_ids=show_ids, direction=direction, link=link,
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
    return _draw(tokens, kinds, text, max_tokens=max_tokens, show_ids=show_ids, direction=direction, link=link,
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
    body = _draw(toks, kinds, None, max_tokens=max_tokens, show_ids=show_ids, direction=direction, link=link,
                 colour_by=colour_by, unknown=unknown, t=translator(lang, digits))
    return (legend_html(lang) + body) if legend else body


def legend_html(lang: str = DEFAULT_LANG) -> str:
    """A one-line key to the chips and the three separator shapes, in ``lang``."""
    t = translator(lang)
    gettext = t.gettext
    # (babel on Python 3.11 does not look inside f-string fields: the messages are looked up first)
    tok, clean, in_letter, in_cp, part, ws = (html.escape(m) for m in (
        gettext("token"), gettext("clean boundary"), gettext("cut inside a letter (grapheme cluster)"), gettext("cut inside a code point"),
        gettext("bytes that are not a whole character"), gettext("space, tab, newline")))
    return (
        '<div class="tl-legend">'
        f'<span class="tl-tok tl-c0">{tok}</span>'
        f'{_sep_html("clean", t)}<span class="tl-tok tl-c1">{tok}</span> {clean} &nbsp; '
        f'{_sep_html("inside_grapheme", t)} {in_letter} &nbsp; '
        f'{_sep_html("inside_codepoint", t)} {in_cp} &nbsp; '
        '<span class="tl-tok tl-c2"><span class="tl-hex" dir="ltr">E0 A6</span><span class="tl-part">…</span></span> '
        f'{part} &nbsp; '
        '<span class="tl-tok tl-c4" dir="ltr"><span class="tl-ws">·</span><span class="tl-ws">→</span>'
        f'<span class="tl-ws">↵</span></span> {ws}'
        "</div>"
    )


#: How a row of the differences view marks a cut: every tokenizer makes it, this one makes it and some other does
#: not, or another makes it and this one does not. Shapes, not only colours: a thin bar, ▼, ▽.
_DIFF_GLYPHS = {"common": "", "own": "▼", "missed": "▽"}
_DIFF_TITLES = {
    "common": N_("every tokenizer cuts here"),
    "own": N_("this tokenizer cuts here; not every tokenizer does"),
    "missed": N_("this tokenizer does not cut here; another one does"),
}
_DIFF_INSIDE = N_("the cut is inside a character (a code point)")
#: Characters of the text the differences view draws (the figures count the whole text): a byte-level row of
#: Bangla has two or three marks per character.
DEFAULT_DIFF_CHARS = 600


def _diff_mark(cut: Cut, kind: str, text: str, t: Translator) -> str:
    gettext = t.gettext
    if cut.inside:
        size = len(text[cut.char].encode("utf-8"))
        where = gettext("inside character {n}, after byte {byte} of {bytes}").format(
            n=t.format_number(cut.char + 1), byte=t.format_number(cut.inner), bytes=t.format_number(size))
    else:
        where = gettext("before character {n}").format(n=t.format_number(cut.char + 1))
    title = html.escape(where, quote=True)  # what the mark means is in the legend (a page has thousands of marks)
    inside = " tl-dcut-in" if cut.inside else ""
    glyph = _DIFF_GLYPHS[kind] + ("✂" if cut.inside else "")
    return (f'<span class="tl-dcut tl-dcut-{kind}{inside}" data-kind="{kind}" data-char="{cut.char}" '
            f'data-inner="{cut.inner}" title="{title}">{glyph}</span>')


def diff_legend_html(lang: str = DEFAULT_LANG) -> str:
    """A one-line key to the marks of :func:`render_differences`, in ``lang``."""
    t = translator(lang)
    sample = Cut(0)
    common, own, missed, inside = (html.escape(t.gettext(m)) for m in (
        _DIFF_TITLES["common"], _DIFF_TITLES["own"], _DIFF_TITLES["missed"], _DIFF_INSIDE))
    marks = {k: _diff_mark(sample, k, "a", t) for k in _DIFF_GLYPHS}
    return (
        '<div class="tl-legend tl-diff-legend">'
        f'{marks["common"]} {common} &nbsp; {marks["own"]} {own} &nbsp; {marks["missed"]} {missed} &nbsp; '
        f'<span class="tl-dcut tl-dcut-own tl-dcut-in">✂</span> {inside}'
        "</div>"
    )


def render_differences(diff: Disagreement, *, max_chars: int | None = DEFAULT_DIFF_CHARS, legend: bool = True,
                       lang: str = DEFAULT_LANG, digits: str = "western") -> str:
    """HTML of ``diff``: one row per tokenizer, the text with every cut position any of them makes marked.

    On each row a cut every tokenizer makes is a thin bar; one this tokenizer makes and some other does not is
    ``▼`` (on a red bar); one another makes and this one does not is ``▽`` (``✂`` is added when the cut splits a
    character). A row breaks the text only where it cuts itself and between letters: a ``▽`` for a cut inside a
    letter (a grapheme cluster) is drawn after that letter, so the letters this tokenizer keeps whole stay
    shaped. ``max_chars`` caps the characters drawn (None: all); the rows' figures count the whole text.
    """
    t = translator(lang, digits)
    text = diff.text
    shown = len(text) if max_chars is None else min(len(text), max_chars)
    every = set(diff.common)
    bounds = cluster_bounds(text)
    out = [diff_legend_html(lang)] if legend else []
    out.append('<div class="tl-diff">')
    for row in diff.rows:
        # where this row breaks the text: before a character for its cut between characters, after it for its cut
        # inside one; a cut it misses at the end of the letter that holds it
        at: dict[int, list[tuple[Cut, str]]] = {}
        for cut in row.cuts:
            if cut.char < shown:
                at.setdefault(cut.char + 1 if cut.inside else cut.char, []).append(
                    (cut, "common" if cut in every else "own"))
        for cut in row.missed:
            if cut.char < shown:
                k = cut.char + 1 if cut.inside else cut.char
                at.setdefault(min(bounds[bisect_left(bounds, k)], shown), []).append((cut, "missed"))
        head = t.ngettext("{name}: {count} cut, {own} not made by every tokenizer",
                          "{name}: {count} cuts, {own} not made by every tokenizer", len(row.cuts)).format(
            name=row.name, count=t.format_number(len(row.cuts)), own=t.format_number(len(row.own)))
        parts = [f'<div class="tl-diff-row"><div class="tl-diff-name">{html.escape(head)}</div>'
                 '<div class="tl-tokens tl-diff-line" dir="auto">']
        start = 0
        zwj = ""  # a ZWJ on both sides of marks between two joined letters keeps their joined forms (بـ▽ـر)
        for k in sorted(at):
            joined = "\u200d" if joined_at(text, k) else ""
            parts.append(zwj + visible_text(text[start:k], mark_orphan=start > 0) + joined)
            parts.extend(_diff_mark(cut, kind, text, t) for cut, kind in sorted(at[k]))  # in text order
            start, zwj = k, joined
        parts.append(zwj + visible_text(text[start:shown], mark_orphan=start > 0))
        parts.append("</div></div>")
        out.append("".join(parts))
    out.append("</div>")
    if shown < len(text):
        out.append('<div class="tl-note">' + html.escape(t.gettext(
            "Showing the first {shown} of {total} characters; the figures count the whole text.").format(
            shown=t.format_number(shown), total=t.format_number(len(text)))) + "</div>")
    return "".join(out)


#: Content-Security-Policy of every exported page: nothing is loaded from anywhere (no
#: script, no remote image, font, style or frame); inline styles and ``data:`` images only.
REPORT_CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; "
              "base-uri 'none'; form-action 'none'")


def standalone_page(body: str, title: str = "Tokenizer Lab", lang: str = "en") -> str:
    """A complete HTML document with :data:`CSS`, for exports and tests; its
    :data:`REPORT_CSP` meta comes first in ``<head>`` so it governs everything after it. ``lang``: its
    language (Persian is laid out right to left)."""
    direction = ' dir="rtl"' if lang in RTL_LANGS else ""
    return (
        f'<!doctype html><html lang="{html.escape(lang, quote=True)}"{direction}><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{REPORT_CSP}">'
        f'<title>{html.escape(title)}</title>'
        f"<style>{CSS}</style></head><body>{body}</body></html>"
    )
