"""The shared token record and the tokenizer interface every page uses.

Every tokenizer in the app (baselines, BPE trained here, pretrained ones)
encodes to an :class:`Encoding`: a tuple of :class:`Token` with the token's
exact bytes and where it sits in the input. Rendering and metrics only ever
look at this record, so a new tokenizer family plugs in by implementing
:class:`Tokenizer`.

This module holds no algorithm beyond the three baselines.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Protocol, Sequence

from .boundaries import BoundaryReport, analyze
from .pretokenize import pretokenize
from .units import byte_owner, char_byte_offsets


@dataclass(frozen=True)
class Token:
    """One token.

    ``data`` is the token's exact bytes as the model sees them (possibly
    half a code point). ``byte_start``/``byte_end`` locate it in the UTF-8
    input; ``start``/``end`` are the code point offsets of the characters
    it touches (a byte token that is half a Bangla letter maps to that
    whole letter's span). ``id`` is None for tokenizers without ids.
    """

    id: int | None
    data: bytes
    byte_start: int
    byte_end: int
    start: int
    end: int
    special: bool = False

    @property
    def text(self) -> str:
        """The token decoded alone; invalid UTF-8 shows as U+FFFD."""
        return self.data.decode("utf-8", errors="replace")


@dataclass(frozen=True)
class Encoding:
    """A text and its tokens, with derived boundary metrics."""

    text: str
    tokens: tuple[Token, ...]

    @cached_property
    def report(self) -> BoundaryReport:
        """Boundary kinds per cut, cut% and bad% (see :mod:`core.boundaries`)."""
        return analyze(self.text, [(t.byte_start, t.byte_end) for t in self.tokens])

    @property
    def ids(self) -> list[int | None]:
        return [t.id for t in self.tokens]


@dataclass(frozen=True)
class EncodingStats:
    """The counts shown next to every rendered encoding."""

    tokens: int
    words: int
    chars: int
    bytes: int
    tokens_per_word: float
    chars_per_token: float
    bytes_per_token: float
    cut_pct: float
    bad_pct: float


def stats(enc: Encoding) -> EncodingStats:
    """Tokens, words (whitespace-separated), chars and ratios for ``enc``."""
    n = len(enc.tokens)
    words = len(enc.text.split())
    chars = len(enc.text)
    nbytes = len(enc.text.encode("utf-8"))
    return EncodingStats(
        tokens=n,
        words=words,
        chars=chars,
        bytes=nbytes,
        tokens_per_word=n / words if words else 0.0,
        chars_per_token=chars / n if n else 0.0,
        bytes_per_token=nbytes / n if n else 0.0,
        cut_pct=enc.report.cut_pct,
        bad_pct=enc.report.bad_pct,
    )


class Tokenizer(Protocol):
    """What the app needs from any tokenizer."""

    id: str
    name: str

    def encode(self, text: str) -> Encoding:
        """Tokens of ``text`` with exact bytes and spans."""
        ...

    def decode(self, tokens: Sequence[Token]) -> str:
        """Text from tokens (for a round-trip check)."""
        ...


def tokens_from_byte_spans(
    text: str, spans: Sequence[tuple[int, int]], ids: Sequence[int | None] | None = None
) -> tuple[Token, ...]:
    """Build :class:`Token` records for byte spans over ``text``'s UTF-8.

    Code point offsets are derived so a span that cuts a code point covers
    the whole of that code point.
    """
    data = text.encode("utf-8")
    out = []
    for k, (bs, be) in enumerate(spans):
        start = byte_owner(text, bs)
        end = byte_owner(text, be - 1) + 1 if be > bs else start
        out.append(Token(None if ids is None else ids[k], data[bs:be], bs, be, start, end))
    return tuple(out)


def tokens_from_char_spans(text: str, spans: Sequence[tuple[int, int]], ids: Sequence[int | None] | None = None) -> tuple[Token, ...]:
    """Build :class:`Token` records for code point spans over ``text``."""
    offsets = char_byte_offsets(text)
    return tuple(
        Token(None if ids is None else ids[k], text[s:e].encode("utf-8"), offsets[s], offsets[e], s, e)
        for k, (s, e) in enumerate(spans)
    )


def _concat_decode(tokens: Sequence[Token]) -> str:
    return b"".join(t.data for t in tokens).decode("utf-8", errors="replace")


@dataclass(frozen=True)
class CodePointTokenizer:
    """Baseline: one token per code point (id = the code point)."""

    id: str = "codepoints"
    name: str = "Code points"

    def encode(self, text: str) -> Encoding:
        toks = tokens_from_char_spans(text, [(i, i + 1) for i in range(len(text))], [ord(c) for c in text])
        return Encoding(text, toks)

    def decode(self, tokens: Sequence[Token]) -> str:
        return _concat_decode(tokens)


@dataclass(frozen=True)
class ByteTokenizer:
    """Baseline: one token per UTF-8 byte (id = the byte value)."""

    id: str = "bytes"
    name: str = "UTF-8 bytes"

    def encode(self, text: str) -> Encoding:
        # Built directly (one token per byte, owner code point known): a hot path on long text.
        toks = []
        pos = 0
        for i, ch in enumerate(text):
            for b in ch.encode("utf-8", "surrogatepass"):
                toks.append(Token(b, bytes((b,)), pos, pos + 1, i, i + 1))
                pos += 1
        return Encoding(text, tuple(toks))

    def decode(self, tokens: Sequence[Token]) -> str:
        return _concat_decode(tokens)


@dataclass(frozen=True)
class WordTokenizer:
    """Baseline: whitespace-attached words (``\\s*\\S+``), so decoding is exact.

    Words have no ids: there is no fixed vocabulary.
    """

    id: str = "words"
    name: str = "Words (whitespace)"

    def encode(self, text: str) -> Encoding:
        spans = [(p.start, p.end) for p in pretokenize(text, "ws-attached")]
        return Encoding(text, tokens_from_char_spans(text, spans))

    def decode(self, tokens: Sequence[Token]) -> str:
        return _concat_decode(tokens)
