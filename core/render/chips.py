"""One chip: its colour, its tooltip (position, id, bytes, code points) and the separator drawn before it.

Tooltips are written in the language of the :class:`core.i18n.Translator` given (English by default); a chip's
tooltip and inner HTML are memoised per token bytes and language (:data:`MAX_CACHED_TOKEN_BYTES` bounds the key).
"""
from __future__ import annotations

import html
from functools import lru_cache
from typing import Callable

from ..i18n import DEFAULT_LANG, N_, Translator, translator
from ..text.boundaries import BoundaryKind, is_valid_utf8
from ..text.units import codepoint_info, utf8_hex
from ..tokens import Token
from .glyphs import chip_inner

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


_SEP_TITLES = {
    "clean": N_("boundary"),
    "inside_grapheme": N_("cut inside a grapheme cluster (a letter as a reader sees it)"),
    "inside_codepoint": N_("cut inside a code point (the UTF-8 bytes of one character are split)"),
}
_SEP_GLYPHS = {"clean": "", "inside_grapheme": "◆", "inside_codepoint": "✂"}
_SEP_CLASSES = {"clean": "tl-sep-clean", "inside_grapheme": "tl-sep-g", "inside_codepoint": "tl-sep-cp"}

#: Tooltips and notes default to English (the CLI and tests); pages pass the reader's translator.
ENGLISH = translator()


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


def sep_html(kind: BoundaryKind, t: Translator) -> str:
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


def chip_html(token: Token, index: int, source_text: str | None, show_ids: bool,
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


