"""Boundary analysis: where does a segmentation cut, and is each piece whole?

A segmentation is given as UTF-8 byte spans over the text, so byte-level
tokens (which may end in the middle of a code point) are handled the same
way as code point or word tokens. This module does not produce tokens; it
judges any list of spans that a tokenizer produced.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cached_property
from typing import Iterable, Literal, Sequence

from .units import codepoint_byte_boundaries, grapheme_byte_boundaries

BoundaryKind = Literal["clean", "inside_grapheme", "inside_codepoint"]


@dataclass(frozen=True)
class Boundary:
    """The cut between token ``index - 1`` and token ``index``."""

    index: int
    byte_offset: int
    kind: BoundaryKind


@dataclass(frozen=True)
class BoundaryReport:
    """Every inner boundary of a segmentation judged, plus the two metrics.

    Stored compactly (one offset and one kind per cut) because a byte-level
    segmentation of a long text has tens of thousands of cuts; the
    :class:`Boundary` records are built only when asked for.

    ``cut_pct`` is the share of boundaries inside a grapheme cluster (a cut
    inside a code point is also inside its cluster); ``bad_pct`` is the share
    of tokens that are not valid UTF-8 on their own.
    """

    cuts: tuple[int, ...]
    kinds: tuple[BoundaryKind, ...]
    valid_utf8: tuple[bool, ...]

    @cached_property
    def boundaries(self) -> tuple[Boundary, ...]:
        """The cut before token ``i`` for every ``i >= 1``."""
        return tuple(Boundary(i, cut, kind) for i, (cut, kind) in enumerate(zip(self.cuts, self.kinds), start=1))

    @property
    def total(self) -> int:
        return len(self.kinds)

    @cached_property
    def inside_grapheme(self) -> int:
        """Boundaries inside a cluster, including those inside a code point."""
        return self.total - self.kinds.count("clean")

    @cached_property
    def inside_codepoint(self) -> int:
        return self.kinds.count("inside_codepoint")

    @property
    def cut_pct(self) -> float:
        return 100.0 * self.inside_grapheme / self.total if self.total else 0.0

    @cached_property
    def bad_tokens(self) -> int:
        return self.valid_utf8.count(False)

    @property
    def bad_pct(self) -> float:
        n = len(self.valid_utf8)
        return 100.0 * self.bad_tokens / n if n else 0.0

    def kind_before(self, token_index: int) -> BoundaryKind | None:
        """Kind of the boundary just before token ``token_index`` (None for the first)."""
        return self.kinds[token_index - 1] if 0 < token_index <= len(self.kinds) else None


def is_valid_utf8(data: bytes) -> bool:
    """True when ``data`` decodes as UTF-8 on its own.

    >>> is_valid_utf8("র".encode()), is_valid_utf8(b"\\xe0\\xa6")
    (True, False)
    """
    # subtle: no exception per invalid token (byte tokens of Bangla are mostly
    # invalid); dropping invalid bytes changes the length exactly when some were.
    return data.isascii() or len(data.decode("utf-8", "ignore").encode("utf-8")) == len(data)


def analyze(text: str, byte_spans: Sequence[tuple[int, int]]) -> BoundaryReport:
    """Judge the segmentation of ``text`` given as ``(byte_start, byte_end)`` spans.

    Only the cuts between consecutive spans are boundaries (the start and the
    end of the text are not). Spans must be in order; gaps and overlaps are
    allowed (a tokenizer may drop or repeat text) and each inner start is
    judged as a cut.

    >>> r = analyze("কি", [(0, 3), (3, 6)])
    >>> r.boundaries[0].kind, r.cut_pct
    ('inside_grapheme', 100.0)
    """
    data = text.encode("utf-8")
    char_starts = codepoint_byte_boundaries(text)
    cluster_starts = grapheme_byte_boundaries(text)
    cuts = tuple(span[0] for span in byte_spans[1:])
    kinds: tuple[BoundaryKind, ...] = tuple(
        "clean" if cut in cluster_starts else "inside_grapheme" if cut in char_starts else "inside_codepoint"
        for cut in cuts
    )
    valid = tuple(is_valid_utf8(data[s:e]) for s, e in byte_spans)
    return BoundaryReport(cuts, kinds, valid)


#: Joiners that belong to the letter before them (grapheme cluster extenders, drawn ◆ when cut off): ZWNJ, ZWJ.
JOINERS = frozenset("\u200c\u200d")


def attaches_to_base(ch: str) -> bool:
    """True for a character that belongs to the one before it: a \\p{M} mark, or a joiner (ZWNJ in می‌خواهم)."""
    return ch in JOINERS or unicodedata.category(ch).startswith("M")


def mark_cuts(text: str, cuts: Iterable[int]) -> list[int]:
    """The code point offsets among ``cuts`` (sorted, once each) that fall right before a mark or a joiner: the
    character there is cut from its base."""
    return [b for b in sorted(set(cuts)) if 0 < b < len(text) and attaches_to_base(text[b])]
