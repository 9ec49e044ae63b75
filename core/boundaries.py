"""Boundary analysis: where does a segmentation cut, and is each piece whole?

A segmentation is given as UTF-8 byte spans over the text, so byte-level
tokens (which may end in the middle of a code point) are handled the same
way as code point or word tokens. This module does not produce tokens; it
judges any list of spans that a tokenizer produced.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Sequence

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

    ``cut_pct`` is the share of boundaries inside a grapheme cluster (a cut
    inside a code point is also inside its cluster); ``bad_pct`` is the share
    of tokens that are not valid UTF-8 on their own.
    """

    boundaries: tuple[Boundary, ...]
    valid_utf8: tuple[bool, ...]

    @property
    def total(self) -> int:
        return len(self.boundaries)

    @property
    def inside_grapheme(self) -> int:
        """Boundaries inside a cluster, including those inside a code point."""
        return sum(b.kind != "clean" for b in self.boundaries)

    @property
    def inside_codepoint(self) -> int:
        return sum(b.kind == "inside_codepoint" for b in self.boundaries)

    @property
    def cut_pct(self) -> float:
        return 100.0 * self.inside_grapheme / self.total if self.total else 0.0

    @property
    def bad_tokens(self) -> int:
        return sum(not ok for ok in self.valid_utf8)

    @property
    def bad_pct(self) -> float:
        n = len(self.valid_utf8)
        return 100.0 * self.bad_tokens / n if n else 0.0

    def kind_before(self, token_index: int) -> BoundaryKind | None:
        """Kind of the boundary just before token ``token_index`` (None for the first)."""
        return self._by_index.get(token_index)

    @property
    def _by_index(self) -> dict[int, BoundaryKind]:
        cache = self.__dict__.get("_kinds")
        if cache is None:
            cache = {b.index: b.kind for b in self.boundaries}
            object.__setattr__(self, "_kinds", cache)
        return cache


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
    boundaries = []
    for i in range(1, len(byte_spans)):
        cut = byte_spans[i][0]
        if cut not in char_starts:
            kind: BoundaryKind = "inside_codepoint"
        elif cut not in cluster_starts:
            kind = "inside_grapheme"
        else:
            kind = "clean"
        boundaries.append(Boundary(i, cut, kind))
    valid = tuple(is_valid_utf8(data[s:e]) for s, e in byte_spans)
    return BoundaryReport(tuple(boundaries), valid)
