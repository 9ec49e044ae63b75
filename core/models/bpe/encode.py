"""BPE encoding, traced: merges applied to one piece (in learned order or tiktoken's lowest-rank loop), every step
recorded, and pieces decoded back to text (also token by token, holding back an unfinished character).

Pieces are always ``bytes``: a code point piece is its UTF-8 encoding. That lets one encoder replay our merges and a
pretrained tiktoken ranks table.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator, Literal, Mapping, Sequence

from ...i18n import T_
from ...text.errors import UserError

Unit = Literal["codepoint", "byte"]
UNITS: tuple[Unit, ...] = ("codepoint", "byte")

#: A function giving the merge rank of two adjacent pieces, or None.
RankOf = Callable[[bytes, bytes], "int | None"]


class BpeInputError(UserError):
    """Malformed training input (word table, unit, merge count, empty corpus)."""


def initial_pieces(text: str, unit: Unit) -> list[bytes]:
    """The unit sequence a word starts as: one piece per code point or per byte."""
    if unit == "byte":
        return [bytes((b,)) for b in text.encode("utf-8")]
    if unit == "codepoint":
        return [ch.encode("utf-8") for ch in text]
    raise BpeInputError(T_("unknown unit {unit} (choose `codepoint` or `byte`)", unit=repr(unit)))


@dataclass(frozen=True)
class EncodeStep:
    """One merge applied while encoding: rank, where, and the pieces after it."""

    rank: int
    positions: tuple[int, ...]
    left: bytes
    right: bytes
    pieces_after: tuple[bytes, ...]

    @property
    def position(self) -> int:
        """Index of the (first) merged occurrence in the pieces before the step."""
        return self.positions[0]


@dataclass(frozen=True)
class EncodeTrace:
    """A piece of text encoded step by step."""

    initial: tuple[bytes, ...]
    steps: tuple[EncodeStep, ...]

    @property
    def final(self) -> tuple[bytes, ...]:
        return self.steps[-1].pieces_after if self.steps else self.initial


def tiktoken_rank_of(ranks: Mapping[bytes, int]) -> RankOf:
    """Rank lookup for a tiktoken-style table: the rank of the joined bytes."""
    get = ranks.get

    def rank(left: bytes, right: bytes) -> int | None:
        return get(left + right)

    return rank


def apply_merges(
    piece: str, rank_of: RankOf, *, unit: Unit, mode: Literal["learned-order", "lowest-rank"]
) -> list[bytes]:
    """The final pieces of :func:`encode_trace` without keeping the steps."""
    parts = initial_pieces(piece, unit)
    for _ in merge_steps(parts, rank_of, mode):
        pass
    return parts


def merge_steps(parts: list[bytes], rank_of: RankOf, mode: str) -> Iterator[EncodeStep]:
    """Merge ``parts`` in place, yielding one :class:`EncodeStep` per merge."""
    floor = 0  # learned-order: merges older than the last one applied are over
    while len(parts) > 1:
        best = None
        best_i = -1
        for i in range(len(parts) - 1):
            r = rank_of(parts[i], parts[i + 1])
            if r is not None and r >= floor and (best is None or r < best):
                best, best_i = r, i
        if best is None:
            return
        left, right = parts[best_i], parts[best_i + 1]
        if mode == "lowest-rank":
            parts[best_i : best_i + 2] = [left + right]
            positions: tuple[int, ...] = (best_i,)
        else:
            positions = tuple(_merge_all(parts, left, right))
            floor = best + 1
        yield EncodeStep(best, positions, left, right, tuple(parts))


def _merge_all(parts: list[bytes], left: bytes, right: bytes) -> list[int]:
    """Merge every occurrence of ``left, right`` in place, left to right; return positions."""
    positions = []
    i = 0
    while i < len(parts) - 1:
        if parts[i] == left and parts[i + 1] == right:
            parts[i : i + 2] = [left + right]
            positions.append(i)
        i += 1
    return positions


def decode(pieces: Sequence[bytes]) -> str:
    """Join pieces and decode; bytes that are not valid UTF-8 become U+FFFD."""
    return b"".join(pieces).decode("utf-8", errors="replace")


class StreamDecoder:
    """Token-by-token decoding that buffers incomplete UTF-8.

    Feeding byte pieces one at a time never emits U+FFFD for a code point
    split across tokens; it waits for the rest.

    >>> d = StreamDecoder()
    >>> [d.feed(b) for b in (b"\\xe0\\xa6", b"\\xb0")]
    ['', 'র']
    """

    def __init__(self) -> None:
        import codecs

        self._dec = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def feed(self, piece: bytes) -> str:
        """Text completed by this piece (may be empty)."""
        return self._dec.decode(piece)

    def flush(self) -> str:
        """Whatever is left (U+FFFD for a truncated code point)."""
        return self._dec.decode(b"", final=True)
