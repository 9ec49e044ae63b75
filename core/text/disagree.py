"""Where segmentations of one text disagree: the cut positions that not every tokenizer makes.

A *cut* is a place where one token ends or the next begins, strictly inside
the text. Positions are in characters (code points) of the input, as a reader
counts them; a byte-level tokenizer can also cut inside a character (half a
Bangla letter), so a cut is :class:`Cut` ``(char, inner)``: before character
``char`` when ``inner`` is 0, else after the first ``inner`` UTF-8 bytes of
character ``char``.

The cuts of a segmentation are the starts and ends of its tokens (byte spans
over the UTF-8 text) strictly between 0 and the end: for tokens laid end to
end these are exactly the boundaries between them, and a tokenizer that drops
a character between two tokens (WordPiece drops the space) cuts on both sides
of it.

:func:`disagreement` compares several segmentations: the cuts all of them
make (``common``), those only some make (``differing``), and the agreement
figure, the share of all cut positions that are common to all.

This module does not tokenize and does not draw (:func:`core.render.render_differences` draws the result).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import numpy as np

from .units import char_byte_offsets


@dataclass(frozen=True, order=True)
class Cut:
    """A cut position: before character ``char`` (``inner == 0``), or inside it after ``inner`` of its bytes."""

    char: int
    inner: int = 0

    @property
    def inside(self) -> bool:
        """Whether the cut splits a character (a code point) in two."""
        return self.inner > 0

    def to_json(self) -> list[int]:
        return [self.char, self.inner]


@dataclass(frozen=True)
class RowCuts:
    """One segmentation's cuts, against the others'."""

    name: str
    #: Every cut it makes, in text order.
    cuts: tuple[Cut, ...]
    #: Its cuts that not every segmentation makes.
    own: tuple[Cut, ...]
    #: Cuts that some other segmentation makes and this one does not.
    missed: tuple[Cut, ...]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "cuts": len(self.cuts), "not_shared": [c.to_json() for c in self.own],
                "missed": [c.to_json() for c in self.missed]}


@dataclass(frozen=True)
class Disagreement:
    """Several segmentations of ``text`` compared cut by cut."""

    text: str
    rows: tuple[RowCuts, ...]
    #: Cuts every segmentation makes.
    common: tuple[Cut, ...]
    #: Cuts some make and some do not.
    differing: tuple[Cut, ...]

    @property
    def positions(self) -> int:
        """How many distinct cut positions any segmentation makes."""
        return len(self.common) + len(self.differing)

    @property
    def agreement(self) -> float:
        """The share (0 to 1) of cut positions common to all; 1.0 when no segmentation cuts at all."""
        return len(self.common) / self.positions if self.positions else 1.0

    def to_json(self) -> dict[str, Any]:
        return {
            "chars": len(self.text), "positions": self.positions, "common": len(self.common),
            "differing": [c.to_json() for c in self.differing], "agreement": round(self.agreement, 6),
            "rows": [r.to_json() for r in self.rows],
        }


def cuts_from_byte_spans(text: str, spans: Iterable[tuple[int, int]]) -> tuple[Cut, ...]:
    """The cut positions of tokens at UTF-8 byte ``spans`` over ``text``, in text order.

    >>> cuts_from_byte_spans("কি a", [(0, 3), (3, 6), (6, 8)])
    (Cut(char=1, inner=0), Cut(char=2, inner=0))
    >>> cuts_from_byte_spans("কি", [(0, 1), (1, 6)])  # a byte token: the cut is inside ক, after 1 of its 3 bytes
    (Cut(char=0, inner=1),)
    """
    offsets = np.asarray(char_byte_offsets(text), dtype=np.int64)
    end = int(offsets[-1])
    flat = np.fromiter((b for span in spans for b in span), dtype=np.int64)
    inner_bytes = np.unique(flat[(flat > 0) & (flat < end)])
    chars = np.searchsorted(offsets, inner_bytes, side="right") - 1
    inner = inner_bytes - offsets[chars]
    return tuple(Cut(c, k) for c, k in zip(chars.tolist(), inner.tolist()))


def disagreement(text: str, segmentations: Sequence[tuple[str, Iterable[tuple[int, int]]]]) -> Disagreement:
    """Compare the segmentations ``(name, byte spans)`` of ``text``: which cuts all make, which only some.

    >>> d = disagreement("ab cd", [("one", [(0, 2), (2, 5)]), ("two", [(0, 1), (1, 2), (2, 5)])])
    >>> d.common, d.differing, d.agreement
    ((Cut(char=2, inner=0),), (Cut(char=1, inner=0),), 0.5)
    >>> [(r.name, r.own, r.missed) for r in d.rows]
    [('one', (), (Cut(char=1, inner=0),)), ('two', (Cut(char=1, inner=0),), ())]
    """
    cut_sets = [(name, cuts_from_byte_spans(text, spans)) for name, spans in segmentations]
    if not cut_sets:
        return Disagreement(text, (), (), ())
    every = set(cut_sets[0][1]).intersection(*(set(c) for _, c in cut_sets[1:]))
    anywhere: set[Cut] = set().union(*(set(c) for _, c in cut_sets))
    differing = anywhere - every
    rows = []
    for name, cuts in cut_sets:
        mine = set(cuts)
        rows.append(RowCuts(name, cuts, tuple(c for c in cuts if c not in every), tuple(sorted(differing - mine))))
    return Disagreement(text, tuple(rows), tuple(sorted(every)), tuple(sorted(differing)))
