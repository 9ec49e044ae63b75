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

from dataclasses import dataclass, field
from functools import cached_property
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


#: A cut as one integer for the set arithmetic: ``char * _K + inner`` (a UTF-8 character has at most 4 bytes).
_K = 4


def _cuts(keys: np.ndarray) -> tuple[Cut, ...]:
    chars, inner = np.divmod(keys, _K)
    return tuple(map(Cut, chars.tolist(), inner.tolist()))


def _keys_json(keys: np.ndarray) -> list[list[int]]:
    chars, inner = np.divmod(keys, _K)
    return [list(pair) for pair in zip(chars.tolist(), inner.tolist())]


@dataclass(frozen=True, eq=False)
class RowCuts:
    """One segmentation's cuts, against the others' (held as sorted cut keys; the :class:`Cut` tuples are made
    when first asked for, so a long text's JSON never builds millions of objects)."""

    name: str
    _all: np.ndarray = field(repr=False)
    _own: np.ndarray = field(repr=False)
    _missed: np.ndarray = field(repr=False)

    @cached_property
    def cuts(self) -> tuple[Cut, ...]:
        """Every cut it makes, in text order."""
        return _cuts(self._all)

    @cached_property
    def own(self) -> tuple[Cut, ...]:
        """Its cuts that not every segmentation makes."""
        return _cuts(self._own)

    @cached_property
    def missed(self) -> tuple[Cut, ...]:
        """Cuts that some other segmentation makes and this one does not."""
        return _cuts(self._missed)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "cuts": len(self._all), "not_shared": _keys_json(self._own),
                "missed": _keys_json(self._missed)}


def _empty() -> np.ndarray:
    return np.zeros(0, dtype=np.int64)


@dataclass(frozen=True, eq=False)
class Disagreement:
    """Several segmentations of ``text`` compared cut by cut."""

    text: str
    rows: tuple[RowCuts, ...]
    _common: np.ndarray = field(default_factory=_empty, repr=False)
    _differing: np.ndarray = field(default_factory=_empty, repr=False)

    @cached_property
    def common(self) -> tuple[Cut, ...]:
        """Cuts every segmentation makes."""
        return _cuts(self._common)

    @cached_property
    def differing(self) -> tuple[Cut, ...]:
        """Cuts some make and some do not."""
        return _cuts(self._differing)

    @property
    def positions(self) -> int:
        """How many distinct cut positions any segmentation makes."""
        return len(self._common) + len(self._differing)

    @property
    def agreement(self) -> float:
        """The share (0 to 1) of cut positions common to all; 1.0 when no segmentation cuts at all."""
        return len(self._common) / self.positions if self.positions else 1.0

    def common_json(self) -> list[list[int]]:
        """The common cuts as ``[char, inner]`` pairs."""
        return _keys_json(self._common)

    def to_json(self) -> dict[str, Any]:
        return {
            "chars": len(self.text), "positions": self.positions, "common": len(self._common),
            "differing": _keys_json(self._differing), "agreement": round(self.agreement, 6),
            "rows": [r.to_json() for r in self.rows],
        }


def _cut_keys(offsets: np.ndarray, spans: Iterable[tuple[int, int]]) -> np.ndarray:
    """The sorted, distinct cut keys (``char * _K + inner``) of tokens at byte ``spans``; ``offsets`` are
    the characters' byte offsets with the end appended."""
    end = int(offsets[-1])
    flat = np.fromiter((b for span in spans for b in span), dtype=np.int64)
    inner_bytes = np.unique(flat[(flat > 0) & (flat < end)])
    chars = np.searchsorted(offsets, inner_bytes, side="right") - 1
    return chars * _K + (inner_bytes - offsets[chars])


def cuts_from_byte_spans(text: str, spans: Iterable[tuple[int, int]]) -> tuple[Cut, ...]:
    """The cut positions of tokens at UTF-8 byte ``spans`` over ``text``, in text order.

    >>> cuts_from_byte_spans("কি a", [(0, 3), (3, 6), (6, 8)])
    (Cut(char=1, inner=0), Cut(char=2, inner=0))
    >>> cuts_from_byte_spans("কি", [(0, 1), (1, 6)])  # a byte token: the cut is inside ক, after 1 of its 3 bytes
    (Cut(char=0, inner=1),)
    """
    return _cuts(_cut_keys(np.asarray(char_byte_offsets(text), dtype=np.int64), spans))


def disagreement(text: str, segmentations: Sequence[tuple[str, Iterable[tuple[int, int]]]]) -> Disagreement:
    """Compare the segmentations ``(name, byte spans)`` of ``text``: which cuts all make, which only some.

    The set arithmetic runs on sorted integer arrays (one key per cut), so a text of a million characters
    costs a few array operations, not millions of object comparisons.

    >>> d = disagreement("ab cd", [("one", [(0, 2), (2, 5)]), ("two", [(0, 1), (1, 2), (2, 5)])])
    >>> d.common, d.differing, d.agreement
    ((Cut(char=2, inner=0),), (Cut(char=1, inner=0),), 0.5)
    >>> [(r.name, r.own, r.missed) for r in d.rows]
    [('one', (), (Cut(char=1, inner=0),)), ('two', (Cut(char=1, inner=0),), ())]
    """
    if not segmentations:
        return Disagreement(text, ())
    offsets = np.asarray(char_byte_offsets(text), dtype=np.int64)
    keyed = [(name, _cut_keys(offsets, spans)) for name, spans in segmentations]
    every = keyed[0][1]
    anywhere = keyed[0][1]
    for _, keys in keyed[1:]:
        every = np.intersect1d(every, keys, assume_unique=True)
        anywhere = np.union1d(anywhere, keys)
    differing = np.setdiff1d(anywhere, every, assume_unique=True)
    rows = tuple(RowCuts(name, keys, np.setdiff1d(keys, every, assume_unique=True),
                         np.setdiff1d(differing, keys, assume_unique=True))
                 for name, keys in keyed)
    return Disagreement(text, rows, every, differing)
