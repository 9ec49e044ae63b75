"""Links between pages: a token chip opens the word inspector on its word.

The URLs are the pages' business: core finds the word around a position
(:func:`core.analysis.inspect.word_at`, :func:`core.analysis.inspect.word_index`)
and this module builds the link.
"""
from __future__ import annotations

from typing import Callable, Sequence
from urllib.parse import quote

from core.analysis.inspect import word_index
from core.tokens import Token

#: The inspector page's URL path (the file stem of pages/inspector.py).
INSPECTOR_PATH = "inspector"


def inspector_href(word: str, tokenizer_ids: Sequence[str] = ()) -> str:
    """A relative link that opens the inspector on ``word`` with these tokenizers."""
    href = f"{INSPECTOR_PATH}?word={quote(word, safe='')}"
    if tokenizer_ids:
        href += "&tok=" + quote(",".join(tokenizer_ids), safe=",")
    return href


def chip_links(text: str, tokenizer_ids: Sequence[str] = (), *, offset: int = 0) -> Callable[[Token], str | None]:
    """For :func:`core.render.render_encoding`'s ``link``: each chip opens the inspector on its word.

    ``offset``: the tokens are positioned in a part of ``text`` that starts at
    this code point (e.g. one pre-tokenized piece drawn with
    :func:`core.render.render_pieces`), so the word is looked up in the whole text.
    """
    cache: dict[int, str | None] = {}

    def link(token: Token) -> str | None:
        if token.start not in cache:
            i, end = token.start + offset, token.end + offset
            while i < end - 1 and text[i].isspace():  # " রাজ": the word after the leading space
                i += 1
            word = word_index(text).word_at(i) if end > i else None
            cache[token.start] = inspector_href(word, tokenizer_ids) if word else None
        return cache[token.start]

    return link


def piece_links(text: str, pieces: Sequence[bytes], spans: Sequence[tuple[int, int]],
                tokenizer_ids: Sequence[str] = ()) -> Callable[[Token], str | None]:
    """For :func:`core.render.render_pieces`'s ``link`` when the pieces do not read back
    as ``text`` (a pre-tokenizer dropped or replaced spaces): piece ``k`` came from
    the code point span ``spans[k]`` of ``text`` and its chip opens the inspector on
    the word there (the first non-space character of the span).
    """
    word_link = chip_links(text, tokenizer_ids)
    by_byte: dict[int, tuple[int, int]] = {}
    pos = 0
    for piece, span in zip(pieces, spans):
        if piece:  # an empty piece draws an empty chip at the next piece's offset
            by_byte.setdefault(pos, span)
        pos += len(piece)

    def link(token: Token) -> str | None:
        span = by_byte.get(token.byte_start)
        if span is None:
            return None
        return word_link(Token(None, b"", 0, 0, span[0], span[1]))

    return link
