"""Text units: code points, UTF-8 bytes and grapheme clusters.

Grapheme clusters follow Unicode UAX #29 (extended grapheme clusters) as
implemented by the ``regex`` package's ``\\X``. The pinned ``regex`` release
passes every line of the official GraphemeBreakTest for the Unicode version
below, including rule GB9c (Indic conjuncts such as ক্ষ stay one cluster);
``tests/test_units.py`` proves it with the conformance file.

Every caller that needs clusters (token tables, boundary analysis, the
inspector, the report) goes through :func:`cluster_bounds`, the one place
``\\X`` runs; it segments a text once and the callers index into it.

This module does not tokenize: it only names the units a tokenizer can cut.
It imports nothing else of ``core``.
"""
from __future__ import annotations

import unicodedata
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from typing import Sequence

import numpy as np
import regex

#: The Unicode version our grapheme segmentation is tested against.
UNICODE_VERSION = "17.0.0"

_CLUSTER = regex.compile(r"\X")


@dataclass(frozen=True)
class Span:
    """A piece of text with code point offsets ``[start, end)`` into its source."""

    text: str
    start: int
    end: int


@dataclass(frozen=True)
class CodePointInfo:
    """One code point described for people: ``U+09B0 BENGALI LETTER RA (Lo)``."""

    char: str
    hex: str
    name: str
    category: str
    utf8_hex: str

    def label(self) -> str:
        """``U+09B0 BENGALI LETTER RA``."""
        return f"{self.hex} {self.name}"


def graphemes(text: str) -> list[Span]:
    """Split ``text`` into extended grapheme clusters with code point offsets.

    >>> [s.text for s in graphemes("প্যাকেট")]
    ['প্যা', 'কে', 'ট']
    """
    b = cluster_bounds(text)
    return [Span(text[s:e], s, e) for s, e in zip(b, b[1:])]


@lru_cache(maxsize=8)
def cluster_bounds(text: str) -> tuple[int, ...]:
    """Code point offsets where a grapheme cluster starts, plus ``len(text)`` at the end.

    The one grapheme segmentation of the engine (``regex`` ``\\X``, run once
    per text and cached: every tokenizer on a page measures the same text).

    >>> cluster_bounds("কি a")
    (0, 2, 3, 4)
    """
    return (*(m.start() for m in _CLUSTER.finditer(text)), len(text))


def inside_cluster(text: str, positions: np.ndarray) -> np.ndarray:
    """For code point offsets ``0 <= p <= len(text)``: is ``p`` strictly inside a grapheme cluster?

    Vectorised lookup into :func:`cluster_bounds` (one ``\\X`` pass over the text).
    """
    inside = np.ones(len(text) + 1, dtype=bool)
    inside[list(cluster_bounds(text))] = False
    return inside[np.asarray(positions, dtype=np.int64)]


def cluster_start_mask(text: str) -> np.ndarray:
    """For each code point offset ``0 <= p <= len(text)``: does a grapheme cluster start at ``p`` (the end counts)?

    :func:`cluster_bounds` as a mask, computed afresh: for a long text met once (a block of a big file), which
    the cache would only keep alive.

    >>> cluster_start_mask("কি a").tolist()
    [True, False, True, True, True]
    """
    mask = np.zeros(len(text) + 1, dtype=bool)
    mask[[m.start() for m in _CLUSTER.finditer(text)]] = True
    mask[len(text)] = True
    return mask


def cluster_starts_at(text: str, pos: int) -> bool:
    """Whether a grapheme cluster starts at code point offset ``pos`` (``0`` and ``len(text)`` count): the same
    answer as ``pos in cluster_bounds(text)``, from the characters around ``pos`` only.

    ``regex`` decides each break from the whole text before it (regional-indicator pairs, Indic conjuncts, emoji
    ZWJ sequences) and the character after it, so the one cluster matched from ``pos - 1`` up to ``pos + 1``
    ends at ``pos`` exactly when a cluster starts there. For a few places in a long text (the edges of
    chunks) this costs one short match each instead of segmenting the whole text.

    >>> [cluster_starts_at("কি a", p) for p in range(5)]
    [True, False, True, True, True]
    """
    if pos <= 0 or pos >= len(text):
        return True
    return _CLUSTER.match(text, pos - 1, pos + 1).end() == pos  # (\X matches any character: never None)


def codepoints(text: str) -> list[Span]:
    """One span per code point."""
    return [Span(ch, i, i + 1) for i, ch in enumerate(text)]


def utf8_hex(data: bytes) -> str:
    """Bytes as spaced upper-case hex: ``b"\\xe0\\xa6"`` -> ``"E0 A6"``."""
    return " ".join(f"{b:02X}" for b in data)


def codepoint_info(char: str) -> CodePointInfo:
    """Name, category and UTF-8 bytes of a single code point."""
    if len(char) != 1:
        raise ValueError(f"expected one code point, got {len(char)}")
    cp = ord(char)
    name = unicodedata.name(char, "") or _control_name(cp)
    return CodePointInfo(
        char=char,
        hex=f"U+{cp:04X}",
        name=name,
        category=unicodedata.category(char),
        utf8_hex=utf8_hex(char.encode("utf-8", "surrogatepass")),
    )


def _control_name(cp: int) -> str:
    names = {0x09: "CHARACTER TABULATION", 0x0A: "LINE FEED", 0x0D: "CARRIAGE RETURN"}
    return names.get(cp, "<unnamed>")


def char_byte_offsets(text: str) -> list[int]:
    """UTF-8 byte offset of every code point, plus the total length at the end.

    ``offsets[i]`` is where code point ``i`` starts; ``offsets[len(text)]`` is
    the byte length of the whole text.
    """
    return list(_offsets(text))


@lru_cache(maxsize=8)
def _offsets(text: str) -> tuple[int, ...]:
    # Cached: every tokenizer on a page measures the same text.
    return (0, *accumulate(1 if c < 0x80 else 2 if c < 0x800 else 3 if c < 0x10000 else 4 for c in map(ord, text)))


def byte_owner(text: str, byte_offset: int) -> int:
    """Index of the code point that contains ``byte_offset`` (``len(text)`` at the end)."""
    return bisect_right(_offsets(text), byte_offset) - 1 if byte_offset < _offsets(text)[-1] else len(text)


def char_spans(text: str, spans: Sequence[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """The code point spans ``(starts, ends)`` of UTF-8 byte ``spans`` over ``text``: each start is the character
    holding the span's first byte, each end one past the character holding its last byte (an empty span ends
    where it starts). What :func:`byte_owner` gives span by span, for all spans at once.

    >>> char_spans("কি a", [(0, 1), (1, 6), (6, 8), (8, 8)])
    ([0, 0, 2, 4], [1, 2, 4, 4])
    """
    if not spans:
        return [], []
    offsets = np.asarray(_offsets(text), dtype=np.int64)
    total, n = int(offsets[-1]), len(text)
    arr = np.asarray(spans, dtype=np.int64).reshape(-1, 2)
    bs, be = arr[:, 0], arr[:, 1]
    starts = np.where(bs < total, np.searchsorted(offsets, bs, side="right") - 1, n)
    last = np.clip(be - 1, 0, None)
    ends = np.where(be > bs, np.where(last < total, np.searchsorted(offsets, last, side="right") - 1, n) + 1, starts)
    return starts.tolist(), ends.tolist()


def bytelevel_alphabet() -> dict[int, str]:
    """GPT-2's ByteLevel table: each byte as the printable character that stands for it.

    Printable bytes (33-126, 161-172, 174-255) stand for themselves; the
    other 68 are given U+0100 upward, in byte order. Byte-level BPE files
    (GPT-2, Hugging Face ByteLevel) store their pieces in this alphabet.
    """
    table = {b: chr(b) for b in range(256) if 33 <= b <= 126 or 161 <= b <= 172 or 174 <= b <= 255}
    extra = 0
    for b in range(256):
        if b not in table:
            table[b] = chr(256 + extra)
            extra += 1
    return table


@lru_cache(maxsize=8)
def codepoint_byte_boundaries(text: str) -> frozenset[int]:
    """UTF-8 byte offsets where a code point starts or the text ends."""
    return frozenset(_offsets(text))


@lru_cache(maxsize=1)
def bytelevel_bytes() -> dict[str, int]:
    """The inverse of :func:`bytelevel_alphabet`: ByteLevel character -> byte."""
    return {c: b for b, c in bytelevel_alphabet().items()}


@lru_cache(maxsize=8)
def grapheme_byte_boundaries(text: str) -> frozenset[int]:
    """UTF-8 byte offsets where a grapheme cluster starts or the text ends."""
    offsets = _offsets(text)
    return frozenset(offsets[i] for i in cluster_bounds(text))
