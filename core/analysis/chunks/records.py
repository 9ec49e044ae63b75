"""What a chunking run is made of: its settings and limits, the edges, the chunks and the summary (records only).

The rules these records follow are in :mod:`core.analysis.chunks`; :mod:`.cutter` makes them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from ...text.errors import UserError

SnapMode = Literal["none", "grapheme", "word"]
#: The snap modes, in order of strictness.
SNAP_MODES: tuple[SnapMode, ...] = ("none", "grapheme", "word")
#: Largest chunk size, in tokens (bigger than any model's context; a chunk is held in memory while it is cut).
MAX_SIZE = 1_000_000
#: Most chunks one run makes (each is judged in Python: about 10 µs): size and overlap that would make more are
#: refused with one line as soon as the first block shows it.
MAX_CHUNKS = 1_000_000
#: Chunks a report lists in full (text included); the summary counts every chunk.
MAX_LISTED = 1_000

#: Where a snapped edge settled when its level was out of reach: "grapheme" (a ``word`` snap cut at a whole
#: letter inside a word), "none" (no whole-letter edge in reach: the cut stays inside the letter).
Fallback = Literal["grapheme", "none"]




class ChunkError(UserError):
    """A chunk size or overlap that cannot be used, or settings that would make too many chunks."""


def _shown(value: object) -> str:
    """A number for a message (a huge one is not spelt out: ``str`` refuses more than 4,300 digits)."""
    if isinstance(value, int) and value.bit_length() > 64:
        return f"a number of about {int(value.bit_length() * 0.30103):,} digits"
    return f"{value:,}" if isinstance(value, int) else repr(value)


@dataclass(frozen=True)
class ChunkSettings:
    """Chunk size ``size`` (tokens), ``overlap`` (tokens two consecutive chunks share) and the snap mode.

    >>> ChunkSettings(0)
    Traceback (most recent call last):
    ...
    core.analysis.chunks.records.ChunkError: chunk size must be a whole number of tokens from 1 to 1,000,000, not 0
    """

    size: int
    overlap: int = 0
    snap: SnapMode = "none"

    def __post_init__(self) -> None:
        if isinstance(self.size, bool) or not isinstance(self.size, int) or not 1 <= self.size <= MAX_SIZE:
            raise ChunkError(f"chunk size must be a whole number of tokens from 1 to {MAX_SIZE:,}, not {_shown(self.size)}")
        if isinstance(self.overlap, bool) or not isinstance(self.overlap, int) or not 0 <= self.overlap < self.size:
            raise ChunkError(f"overlap must be a whole number of tokens from 0 to {self.size - 1:,} (less than the chunk "
                             f"size {self.size:,}), not {_shown(self.overlap)}")
        if self.snap not in SNAP_MODES:
            raise ChunkError(f"snap must be one of {', '.join(SNAP_MODES)}, not {self.snap!r}")

    @property
    def step(self) -> int:
        """Tokens between the starts of two consecutive plain chunks."""
        return self.size - self.overlap

    def plain_chunks(self, tokens: int) -> int:
        """How many chunks the plain cut makes of ``tokens`` tokens.

        >>> ChunkSettings(4, 1).plain_chunks(10), ChunkSettings(4).plain_chunks(0), ChunkSettings(20).plain_chunks(5)
        (3, 0, 1)
        """
        if tokens <= 0:
            return 0
        return 1 + max(0, -(-(tokens - self.size) // self.step))

    def plain_tokens_in_chunks(self, tokens: int) -> int:
        """Tokens over all plain chunks: every token once, plus ``overlap`` for each chunk after the first."""
        m = self.plain_chunks(tokens)
        return tokens + (m - 1) * self.overlap if m else 0


_NOTES = {"grapheme": "no edge outside a word within reach (the word runs over more tokens than the chunk reaches): "
                      "cut at a whole letter instead",
          "none": "no whole-letter edge within reach (the letter's tokens fill the whole stretch the cut may move "
                  "in; a cut never moves into a token): the cut stays inside the letter"}


@dataclass(frozen=True)
class Edge:
    """The cut before token ``token`` (0 and the token count are the text's ends and cut nothing).

    ``byte`` is where the token after it starts in the UTF-8 text, ``char`` the code point holding that byte.
    With snapping, ``moved_from`` is the token the unsnapped cut would have been before (None: not moved) and
    ``fallback`` says where it settled when its level was out of reach (see :data:`Fallback`).
    """

    token: int
    byte: int
    char: int
    inside_character: bool = False
    inside_grapheme: bool = False
    inside_word: bool = False
    moved_from: int | None = None
    fallback: Fallback | None = None

    @property
    def whole(self) -> bool:
        """True when the edge cuts neither a character, a letter nor a word."""
        return not (self.inside_grapheme or self.inside_word)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"token": self.token, "byte": self.byte, "char": self.char,
                               "inside_character": self.inside_character, "inside_grapheme": self.inside_grapheme,
                               "inside_word": self.inside_word, "moved_from": self.moved_from, "fallback": self.fallback}
        if self.fallback:
            out["note"] = _NOTES[self.fallback]
        return out


@dataclass(frozen=True)
class TextChunk:
    """One chunk: tokens ``[token_start, token_end)``, the UTF-8 bytes ``[byte_start, byte_end)`` they cover
    (first token's start to the furthest end), the code points those bytes touch, its two edges, and its text:
    the bytes decoded alone, so a chunk that starts or ends inside a character shows U+FFFD there (what a
    pipeline decoding the chunk's byte-level tokens gets). ``text`` is None when the caller did not keep it."""

    index: int
    token_start: int
    token_end: int
    byte_start: int
    byte_end: int
    char_start: int
    char_end: int
    text: str | None
    start: Edge
    end: Edge

    @property
    def tokens(self) -> int:
        return self.token_end - self.token_start

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "tokens": [self.token_start, self.token_end],
                "bytes": [self.byte_start, self.byte_end], "chars": [self.char_start, self.char_end],
                "text": self.text, "start": self.start.to_json(), "end": self.end.to_json()}


_KINDS = ("character", "grapheme", "word")


def edge_kinds(e: Edge) -> tuple[bool, bool, bool]:
    return e.inside_character, e.inside_grapheme, e.inside_word


@dataclass(frozen=True)
class ChunkSummary:
    """Every chunk of a text counted: how many start, end, or start or end (``chunks_inside``) inside a
    character, a letter, a word (per :data:`_KINDS`), and what snapping moved and cost against the plain cut.

    ``cuts`` counts distinct cuts between chunks (with overlap 0 a chunk's end and the next start are one).
    """

    settings: ChunkSettings
    tokens: int
    bytes: int
    chars: int
    chunks: int
    tokens_in_chunks: int
    cuts: int
    starts_inside: tuple[int, int, int]
    ends_inside: tuple[int, int, int]
    chunks_inside: tuple[int, int, int]
    moved: int = 0
    fell_back: int = 0  # word snap settled for a whole letter
    left_inside: int = 0  # no whole-letter edge in reach: the cut stayed inside a letter

    def share(self, kind: str) -> float:
        """Share of chunks that start or end inside ``kind`` (character, grapheme, word); 0 without chunks."""
        return self.chunks_inside[_KINDS.index(kind)] / self.chunks if self.chunks else 0.0

    def to_json(self) -> dict[str, Any]:
        s = self.settings
        plain_chunks, plain_tokens = s.plain_chunks(self.tokens), s.plain_tokens_in_chunks(self.tokens)
        return {
            "tokens": self.tokens, "bytes": self.bytes, "chars": self.chars,
            "size": s.size, "overlap": s.overlap, "snap": s.snap,
            "chunks": self.chunks, "tokens_in_chunks": self.tokens_in_chunks, "cuts": self.cuts,
            "starts_inside": dict(zip(_KINDS, self.starts_inside)), "ends_inside": dict(zip(_KINDS, self.ends_inside)),
            "chunks_inside": dict(zip(_KINDS, self.chunks_inside)),
            "share_inside": {k: round(self.share(k), 6) for k in _KINDS},
            "snap_cost": {"plain_chunks": plain_chunks, "plain_tokens_in_chunks": plain_tokens,
                          "extra_chunks": self.chunks - plain_chunks, "extra_tokens": self.tokens_in_chunks - plain_tokens,
                          "moved_cuts": self.moved, "word_fell_back_to_letter": self.fell_back,
                          "left_inside_letter": self.left_inside},
        }  # fmt: skip

