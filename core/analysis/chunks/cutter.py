"""The cutter: a text's tokens, arriving in blocks, cut into chunks in order, every edge judged and snapped if asked.

The rules are in :mod:`core.analysis.chunks`; the records in :mod:`.records`.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from typing import Iterable, Iterator

import numpy as np
import regex

from ...text.units import cluster_start_mask, cluster_starts_at
from ...tokens import IdCodec
from ..stream import Chunk as Block
from ..stream import check_join
from .records import MAX_CHUNKS, ChunkError, ChunkSettings, ChunkSummary, Edge, Fallback, TextChunk, edge_kinds

#: Edges a snap judges one by one before it asks the block's table of every edge.
WALK = 32

_WORD = regex.compile(r"\w")
_WORD_RUN = regex.compile(r"\w+")


@lru_cache(maxsize=1)
def _word_table() -> np.ndarray:
    """Whether each code point is a word character (``regex`` ``\\w``), for whole blocks at once (built once)."""
    table = np.zeros(0x110000, dtype=bool)
    for m in _WORD_RUN.finditer("".join(map(chr, range(0x110000)))):
        table[m.start():m.end()] = True
    return table


def _is_word(ch: str) -> bool:
    return _WORD.match(ch) is not None


@dataclass(frozen=True, eq=False)
class _Block:
    """One block of the text and its tokens: local byte spans (``ends`` as a running maximum) and, built on
    first use, the code point of every byte and the whole-edge tables snapping searches."""

    text: str
    raw: bytes
    byte0: int
    char0: int
    tok0: int
    starts: np.ndarray
    ends: np.ndarray

    @property
    def ntok(self) -> int:
        return len(self.starts)

    @cached_property
    def owner(self) -> np.ndarray:
        """The code point holding each byte offset (``len(text)`` at the end); int32 for a block under 2 GB (a
        1 MB block's column is then 4 MB, not 8)."""
        arr = np.frombuffer(self.raw, dtype=np.uint8)
        kind = np.int32 if len(self.raw) < 2**31 - 1 else np.int64
        return np.cumsum(np.append((arr & 0xC0) != 0x80, True), dtype=kind) - 1

    def flags_at(self, p: int) -> tuple[int, bool, bool, bool]:
        """(code point, inside a character, inside a letter, inside a word) of a cut at local byte ``p``."""
        if p <= 0 or p >= len(self.raw):  # a block's ends are after a line break (or the text's ends): whole
            return (0 if p <= 0 else len(self.text)), False, False, False
        c = int(self.owner[p])
        if self.raw[p] & 0xC0 == 0x80:
            return c, True, True, _is_word(self.text[c])
        return c, False, not cluster_starts_at(self.text, c), _is_word(self.text[c - 1]) and _is_word(self.text[c])

    @cached_property
    def whole(self) -> tuple[np.ndarray, np.ndarray]:
        """For the edge before each token: (whole letter, whole letter and word), all tokens at once."""
        p = np.minimum(self.starts, len(self.raw))
        arr = np.append(np.frombuffer(self.raw, dtype=np.uint8), np.uint8(0))
        in_char = (arr[p] & 0xC0) == 0x80
        c = self.owner[p]
        in_letter = in_char | ~cluster_start_mask(self.text)[c]
        cps = np.frombuffer(self.text.encode("utf-32-le"), dtype=np.uint32)
        word = np.append(_word_table()[cps], False)
        in_word = np.where(c > 0, word[np.maximum(c - 1, 0)], False) & word[c]  # (a cut inside a character is
        return ~in_letter, ~(in_letter | in_word)  # inside its letter, so its word does not change the answer)

    @cached_property
    def last_whole(self) -> tuple[np.ndarray, np.ndarray]:
        """Per level (letter, word): the largest whole edge index ``<= j`` in this block, -1 if none."""
        idx = np.arange(self.ntok)
        return tuple(np.maximum.accumulate(np.where(ok, idx, -1)) for ok in self.whole)  # type: ignore[return-value]

    @cached_property
    def first_whole(self) -> tuple[np.ndarray, np.ndarray]:
        """Per level (letter, word): the smallest whole edge index ``>= j`` in this block, ``ntok`` if none."""
        idx = np.arange(self.ntok)
        return tuple(np.minimum.accumulate(np.where(ok, idx, self.ntok)[::-1])[::-1] for ok in self.whole)  # type: ignore[return-value]


class ChunkCutter:
    """Cuts the tokens of a text that arrives in blocks into chunks, in order (iterate it once), holding only
    the blocks the current chunk reaches; :meth:`summary` counts them after (or during) the iteration.

    ``blocks`` are :class:`core.analysis.stream.Chunk` records laid end to end (one for a text in memory);
    ``verify_joins`` checks at each block cut that the tokens do not change across it
    (:func:`core.analysis.stream.check_join`). ``keep_text`` is how many leading chunks carry their text (None:
    all). ``expected_bytes`` (the file's size) lets a run that would make more than :data:`MAX_CHUNKS` chunks
    be refused after its first block instead of when it gets there.
    """

    def __init__(self, tok: IdCodec, blocks: Iterable[Block], settings: ChunkSettings, *, verify_joins: bool = False,
                 keep_text: int | None = None, expected_bytes: int | None = None) -> None:
        self._tok, self._blocks, self.settings = tok, iter(blocks), settings
        self._verify, self._keep_text, self._expected = verify_joins, keep_text, expected_bytes
        self._live: list[_Block] = []
        self._n = self._bytes = self._chars = 0
        self._eof = self._used = False
        self._count = {"chunks": 0, "tokens": 0, "cuts": 0, "moved": 0, "fell_back": 0, "left_inside": 0}
        self._starts, self._ends, self._either = [0, 0, 0], [0, 0, 0], [0, 0, 0]

    # -- the blocks -----------------------------------------------------------------------------------------
    def _load_through(self, k: int) -> None:
        """Read blocks until token ``k`` exists or the text ends."""
        while self._n <= k and not self._eof:
            blk = next(self._blocks, None)
            if blk is None:
                self._eof = True
                break
            if self._verify and blk.before:
                check_join(self._tok, blk)
            starts, ends = self._tok.byte_span_columns(blk.text)
            starts, ends = np.asarray(starts, dtype=np.int64), np.asarray(ends, dtype=np.int64)
            raw = blk.text.encode("utf-8")
            ends = np.maximum.accumulate(np.maximum(ends, starts)) if len(ends) else ends
            self._live.append(_Block(blk.text, raw, blk.byte_start, blk.char_start, self._n, starts, ends))
            self._n += len(starts)
            self._bytes, self._chars = blk.byte_start + len(raw), blk.char_start + len(blk.text)
            self._check_count()

    def _check_count(self) -> None:
        s, n = self.settings, self._n
        if self._expected and self._bytes and self._expected > self._bytes and not self._eof:
            n = int(n * self._expected / self._bytes)  # the tokens the whole file will have at this rate
        if s.plain_chunks(n) > MAX_CHUNKS:
            apart = f"{s.step:,} token{'s' if s.step != 1 else ''}"
            raise ChunkError(f"about {n:,} tokens with size {s.size:,} and overlap {s.overlap:,} (chunks start {apart} "
                             f"apart) make more than {MAX_CHUNKS:,} chunks; choose a larger size or a smaller overlap")

    def _block_of(self, k: int) -> _Block:
        for b in reversed(self._live):
            if b.tok0 <= k < b.tok0 + b.ntok:
                return b
        raise IndexError(k)  # pragma: no cover - every token asked for is in a live block

    def _byte_block(self, q: int) -> _Block:
        for b in reversed(self._live):
            if b.byte0 <= q:
                return b
        return self._live[0]  # pragma: no cover

    def _release(self, k: int) -> None:
        """Forget the blocks that end before token ``k`` (no later chunk reaches them)."""
        while len(self._live) > 1 and self._live[0].tok0 + self._live[0].ntok <= k:
            self._live.pop(0)

    # -- edges and chunks -------------------------------------------------------------------------------------
    def _edge(self, k: int, moved_from: int | None = None, fallback: Fallback | None = None) -> Edge:
        if k <= 0 or k >= self._n:
            b = self._live[0] if k <= 0 else self._block_of(self._n - 1)
            if k <= 0:
                return Edge(0, b.byte0 + int(b.starts[0]), b.char0 + int(b.owner[int(b.starts[0])]))
            end = b.byte0 + int(b.ends[-1])
            return Edge(self._n, end, self._char_end(end))
        b = self._block_of(k)
        p = int(b.starts[k - b.tok0])
        c, in_char, in_letter, in_word = b.flags_at(p)
        return Edge(k, b.byte0 + p, b.char0 + c, in_char, in_letter, in_word, moved_from, fallback)

    def _char_end(self, q: int) -> int:
        """One past the code point holding byte ``q - 1`` (the end of a range ending at byte ``q``)."""
        b = self._byte_block(q - 1)
        return b.char0 + int(b.owner[q - 1 - b.byte0]) + 1

    def _chunk(self, s: int, e: int, start: Edge, end: Edge) -> TextChunk:
        index = self._count["chunks"]
        bs = start.byte if s > 0 else self._edge(0).byte
        last = self._block_of(e - 1)
        be = max(bs, last.byte0 + int(last.ends[e - 1 - last.tok0]))
        b0 = self._byte_block(bs)
        cs = b0.char0 + int(b0.owner[bs - b0.byte0])
        text = None
        if self._keep_text is None or index < self._keep_text:
            text = b"".join(b.raw[max(bs - b.byte0, 0):max(be - b.byte0, 0)] for b in self._live
                            if b.byte0 < be and b.byte0 + len(b.raw) > bs).decode("utf-8", "replace")
        return TextChunk(index, s, e, bs, be, cs, self._char_end(be) if be > bs else cs, text, start, end)

    # -- where the cuts go ------------------------------------------------------------------------------------
    def _levels(self) -> tuple[int, ...]:
        """Indexes into :attr:`_Block.whole` to try, strictest first (1: word, 0: letter)."""
        return (1, 0) if self.settings.snap == "word" else (0,)

    def _whole_at(self, k: int, level: int) -> bool:
        """Whether the edge before token ``k`` (inside the text) is whole at ``level`` (judged alone)."""
        b = self._block_of(k)
        _, _, in_letter, in_word = b.flags_at(int(b.starts[k - b.tok0]))
        return not (in_letter or (level and in_word))

    def _last_whole(self, lo: int, hi: int, level: int) -> int | None:
        """The largest token edge ``k`` with ``lo < k <= hi`` that is whole at ``level`` (all inside the text).

        The first :data:`WALK` edges are judged one by one (a whole edge is usually a few tokens away); past
        them, the blocks' tables of every edge answer (a long run of cut letters costs one pass per block)."""
        k = hi
        while k > lo and hi - k < WALK:
            if self._whole_at(k, level):
                return k
            k -= 1
        if k <= lo:
            return None
        for b in reversed(self._live):
            if not b.ntok or b.tok0 > k:
                continue
            if b.tok0 + b.ntok - 1 <= lo:
                break
            v = int(b.last_whole[level][min(k, b.tok0 + b.ntok - 1) - b.tok0])
            if v >= 0:
                return b.tok0 + v if b.tok0 + v > lo else None
        return None

    def _first_whole(self, lo: int, hi: int, level: int) -> int | None:
        """The smallest token edge ``k`` with ``lo <= k <= hi`` that is whole at ``level`` (as :meth:`_last_whole`)."""
        k = lo
        while k <= hi and k - lo < WALK:
            if self._whole_at(k, level):
                return k
            k += 1
        if k > hi:
            return None
        for b in self._live:
            if not b.ntok or b.tok0 + b.ntok <= k:
                continue
            if b.tok0 > hi:
                break
            v = int(b.first_whole[level][max(k - b.tok0, 0)])
            if v < b.ntok:
                return b.tok0 + v if b.tok0 + v <= hi else None
        return None

    def _fallback(self, level: int) -> Fallback | None:
        return "grapheme" if self.settings.snap == "word" and level == 0 else None

    def _end_at(self, lo: int, hi: int) -> Edge:
        """The end of a chunk that may reach token ``hi`` (``< n``) and must pass token ``lo``."""
        if self.settings.snap == "none":
            return self._edge(hi)
        for level in self._levels():
            k = self._last_whole(lo, hi, level)
            if k is not None:
                return self._edge(k, hi if k != hi else None, self._fallback(level))
        return self._edge(hi, None, "none")

    def _next_start(self, s: int, end: Edge) -> Edge:
        """The start of the chunk after the one ``[s, end)``."""
        e, target = end.token, end.token - self.settings.overlap
        if self.settings.overlap == 0:
            return replace(end, moved_from=None)
        if self.settings.snap == "none":
            return self._edge(target)
        for level in self._levels():
            back = self._last_whole(s, target, level) if target > s else None  # more overlap
            forward = self._first_whole(max(target, s) + 1, e, level)  # less overlap, never a gap
            if back is not None and (forward is None or target - back <= forward - target):
                k: int | None = back
            else:
                k = forward
            if k is not None:
                return self._edge(k, target if k != target else None, self._fallback(level))
        return self._edge(max(target, s + 1), None, "none")

    def _tally(self, c: TextChunk) -> None:
        n = self._count
        n["chunks"] += 1
        n["tokens"] += c.tokens
        cuts = [c.end] if c.token_end < self._n else []
        if c.index and self.settings.overlap:
            cuts.append(c.start)
        for e in cuts:
            n["cuts"] += 1
            n["moved"] += e.moved_from is not None
            n["fell_back"] += e.fallback == "grapheme"
            n["left_inside"] += e.fallback == "none"
        for i, (a, b) in enumerate(zip(edge_kinds(c.start), edge_kinds(c.end))):
            self._starts[i] += a
            self._ends[i] += b
            self._either[i] += a or b

    def __iter__(self) -> Iterator[TextChunk]:
        if self._used:
            raise RuntimeError("a ChunkCutter is iterated once")
        self._used = True
        size = self.settings.size
        self._load_through(0)
        if self._n == 0:
            return
        s, prev_end, start = 0, 0, self._edge(0)
        while True:
            hi = s + size
            self._load_through(hi)
            end = self._edge(self._n) if hi >= self._n else self._end_at(max(s, prev_end), hi)
            chunk = self._chunk(s, end.token, start, end)
            self._tally(chunk)
            if self._count["chunks"] > MAX_CHUNKS:
                raise ChunkError(f"more than {MAX_CHUNKS:,} chunks of {size:,} tokens (overlap "
                                 f"{self.settings.overlap:,}); choose a larger size or a smaller overlap")
            yield chunk
            if end.token >= self._n:
                break
            start = self._next_start(s, end)
            s, prev_end = start.token, end.token
            self._release(s)
        for _ in self._blocks:  # only blocks without tokens can be left (their bytes still count)
            pass

    @property
    def held_bytes(self) -> int:
        """UTF-8 bytes of text held now: the blocks the current chunk reaches (bounded by the chunk, not the file)."""
        return sum(len(b.raw) for b in self._live)

    def summary(self) -> ChunkSummary:
        """The counts of the chunks made so far (of every chunk once the iteration is over)."""
        n = self._count
        return ChunkSummary(self.settings, self._n, self._bytes, self._chars, n["chunks"], n["tokens"], n["cuts"],
                            tuple(self._starts), tuple(self._ends), tuple(self._either),  # type: ignore[arg-type]
                            n["moved"], n["fell_back"], n["left_inside"])

