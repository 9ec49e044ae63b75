"""A token's bytes as visible text: whitespace as glyphs, invisible characters by name, hex for partial characters.

Plain text for tables and charts (:func:`piece_label`, :func:`char_label`) and escaped HTML for chips
(:func:`visible_text`, :func:`chip_inner`, :func:`text_lines_html`). No tokenizing, no chips' frames.
"""
from __future__ import annotations

import html
import unicodedata
from dataclasses import dataclass

from ..text.bidi import text_direction
from ..text.units import utf8_hex

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

