"""Chunks: a text's tokens cut into windows of N tokens (overlap K), with every cut judged, and snapped if asked.

Retrieval pipelines cut a document into chunks of ``N`` tokens, consecutive chunks sharing ``K`` tokens
(``0 <= K < N``). This module makes the same chunks for any tokenizer (it asks only
:meth:`core.tokens.IdCodec.byte_span_columns`: where each token starts and ends in the UTF-8 text) and says,
for each chunk, which tokens, bytes and code points it covers, its text, and whether each of its two edges
cuts:

- **a character's bytes**: the token after the edge starts with a UTF-8 continuation byte (byte-level BPE
  and byte fallback split a Bangla letter's three bytes);
- **a grapheme cluster** (a letter as a reader sees it, UAX #29 through :mod:`core.text.units`): no cluster
  starts where the token after the edge starts (a cut inside a character is inside its cluster too);
- **a word**: the characters on both sides of the edge are word characters (the ``regex`` module's ``\\w``:
  letters, marks, digits, connector punctuation and the joiners ZWNJ/ZWJ, so কি and می‌خواهم are one word
  each) with no space or punctuation between; a cut inside a character is inside a word when that character
  is a word character.

An edge is judged where the token after it starts, as :attr:`core.tokens.TokenTable.cut` judges a cut; the
start and the end of the text cut nothing.

**The plain cut** (``snap="none"``): chunks start at tokens ``0, N-K, 2(N-K), ...`` and hold ``N`` tokens;
the chunk that reaches the last token ends there (it may be shorter) and is the last. So consecutive chunks
share exactly ``K`` tokens and together cover every token once or more.

**Snapping** (``"grapheme"``: no edge inside a letter; ``"word"``: nor inside a word): each chunk end moves
back from where the plain cut puts it to the nearest token edge that is whole, but not back to the previous
chunk's end (each chunk adds tokens); each next start moves from ``end - K`` to the nearest whole edge after
the previous start and not after the end (back on a tie: more overlap rather than less; forward it can
shrink the overlap to nothing, never to a gap). A chunk never holds more than ``N`` tokens. Edges are token edges: a cut never
moves *into* a token, so where a letter (or word) is spread over more tokens than a chunk can reach, no
whole edge is in reach: a ``"word"`` snap then settles for a whole letter, and when even that is missing the
cut stays inside the letter; the edge says so (:attr:`Edge.fallback`). The cost of snapping is counted
against the plain cut: tokens over all chunks and the number of chunks (:class:`ChunkSummary`).

What it does not do: split a token. Size counts tokens, so a chunk of ``N`` tokens can hold many more than
``N`` letters (a token of twenty graphemes counts one), and a byte-level token that ends inside a character
leaves the edge after it inside that character, wherever the chunk ends.

**Big files.** The text can arrive in blocks (:func:`core.analysis.stream.iter_chunks`: cut after a line break
followed by text, where the tokens of the whole text are the tokens of the blocks laid end to end, checked at
each cut): :class:`ChunkCutter` holds only the blocks the current chunk reaches, so memory depends on ``N``,
not on the file. Every block edge is a whole edge (after a line break: a cluster break, not in a word).

Limits: ``1 <= N <=`` :data:`MAX_SIZE` tokens, ``0 <= K < N``, at most :data:`MAX_CHUNKS` chunks a run.

Modules: :mod:`.records` (settings, limits, edges, chunks, the summary), :mod:`.cutter` (the cutter over blocks);
import from here.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...tokens import IdCodec
from ..stream import Chunk as Block
from .cutter import WALK, ChunkCutter
from .records import (
    MAX_CHUNKS,
    MAX_LISTED,
    MAX_SIZE,
    SNAP_MODES,
    ChunkError,
    ChunkSettings,
    ChunkSummary,
    Edge,
    Fallback,
    SnapMode,
    TextChunk,
)

__all__ = ["MAX_CHUNKS", "MAX_LISTED", "MAX_SIZE", "SNAP_MODES", "WALK", "ChunkCutter", "ChunkError", "ChunkReport",
           "ChunkSettings", "ChunkSummary", "Edge", "Fallback", "SnapMode", "TextChunk", "chunk_text"]


@dataclass(frozen=True)
class ChunkReport:
    """A text in memory cut into chunks: the first ``max_listed`` chunks in full, and the summary of all."""

    tokenizer: str
    summary: ChunkSummary
    chunks: tuple[TextChunk, ...]

    @property
    def complete(self) -> bool:
        """True when :attr:`chunks` lists every chunk."""
        return len(self.chunks) == self.summary.chunks


def chunk_text(tok: IdCodec, text: str, settings: ChunkSettings, *, max_listed: int | None = MAX_LISTED) -> ChunkReport:
    """``text`` cut into chunks as ``settings`` say, for any tokenizer (see the module's docstring).

    >>> from core.pretrained import zoo
    >>> r = chunk_text(zoo.load("cl100k_base"), "বাজার", ChunkSettings(2))
    >>> [(c.token_start, c.token_end, c.text, c.end.inside_grapheme) for c in r.chunks]
    [(0, 2, 'ব', True), (2, 4, 'াজ', True), (4, 6, 'ার', False)]
    """
    cutter = ChunkCutter(tok, [Block(0, 0, 0, 0, text)], settings, keep_text=max_listed,
                         expected_bytes=len(text.encode("utf-8", "surrogatepass")))
    listed = []
    for c in cutter:
        if max_listed is None or c.index < max_listed:
            listed.append(c)
    return ChunkReport(tok.id, cutter.summary(), tuple(listed))
