"""Byte-pair encoding, traced: training and encoding that return every step.

Training counts adjacent pairs over a word-frequency table, merges the most
frequent pair everywhere, and repeats. Pair counts are updated
incrementally: a merge only touches the words that contain the pair, and
only the pairs next to each merged occurrence change. The best pair comes
from a heap with lazy invalidation (a popped entry whose count is stale is
re-pushed with its current count), so a step costs about the size of the
change, not the size of the corpus.

Two tie-break rules are offered, by name:

- ``first-seen``: among pairs with the highest count, the one that occurs
  first in corpus order (textbook; minbpe and tiktoken's educational
  trainer, whose ``max`` over an insertion-ordered dict does this).
- ``hf``: highest count, then the smallest ``(left id, right id)``, where
  ids are the initial alphabet sorted by code point, then each new merge in
  order: the rule of Hugging Face ``tokenizers``' BpeTrainer. For the byte
  unit the alphabet is ordered like the ByteLevel alphabet (the GPT-2
  byte-to-character table sorted by character), which is what BpeTrainer
  sees when it trains on ByteLevel-mapped words, so the merge lists agree.

Pieces are always ``bytes``: a code point piece is its UTF-8 encoding. That
lets one encoder replay our merges and a pretrained tiktoken ranks table.

Not here: pre-tokenizer regexes (:mod:`core.pipeline.pretokenize`), rendering, and
any normalization (text is used exactly as given).
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Iterable, Iterator, Literal, Mapping, Sequence

import numpy as np

from ..i18n import T_
from ..pipeline.pretokenize import Pattern, pretokenize, resolve_pattern
from ..text.boundaries import is_valid_utf8
from ..text.errors import UserError
from ..text.units import bytelevel_alphabet, char_byte_offsets
from ..tokens import Encoding, Token, TokenizerDefaults, TokenTable, build_table, tokens_from_byte_spans

Unit = Literal["codepoint", "byte"]
TieBreak = Literal["first-seen", "hf"]
UNITS: tuple[Unit, ...] = ("codepoint", "byte")
TIE_BREAKS: tuple[TieBreak, ...] = ("first-seen", "hf")

#: A function giving the merge rank of two adjacent pieces, or None.
RankOf = Callable[[bytes, bytes], "int | None"]


class BpeInputError(UserError):
    """Malformed training input (word table, unit, merge count, empty corpus)."""


# ---------------------------------------------------------------------------
# Input
# ---------------------------------------------------------------------------


#: Largest count one word may have in a typed word table. A trillion is more words than any real corpus has,
#: and it keeps the counts the stepper charts within a float's exact range (a count of 10^23 made every
#: point of the chart the same float, and its axis divided by zero).
MAX_WORD_COUNT = 10**12


def parse_word_table(spec: str) -> dict[str, int]:
    """Parse ``"কার:4,জার:2"`` into ``{"কার": 4, "জার": 2}`` (order kept).

    A repeated word adds up. Raises :class:`BpeInputError` on a malformed
    entry, a non-positive count, a count above :data:`MAX_WORD_COUNT` or an
    empty table.

    >>> parse_word_table("low:5, lower:2")
    {'low': 5, 'lower': 2}
    """
    table: dict[str, int] = {}
    for raw in spec.split(","):
        entry = raw.strip()
        if not entry:
            continue
        word, sep, count = entry.rpartition(":")
        word = word.strip()
        if not sep or not word:
            raise BpeInputError(T_("word table entry {entry} is not WORD:COUNT", entry=repr(entry)))
        try:
            n = int(count)
        except ValueError:
            raise BpeInputError(T_("word table entry {entry}: count {count} is not an integer", entry=repr(entry),
                                   count=repr(count.strip()))) from None
        if n <= 0:
            raise BpeInputError(T_("word table entry {entry}: count must be positive", entry=repr(entry)))
        table[word] = table.get(word, 0) + n
        if table[word] > MAX_WORD_COUNT:
            raise BpeInputError(T_("word table entry {entry}: a count may be at most {limit:,}", entry=repr(entry[:40]),
                                   limit=MAX_WORD_COUNT))
    if not table:
        raise BpeInputError(T_("word table is empty"))
    return table


def word_counts(corpus: str, pattern: str | Pattern = "ws-attached") -> dict[str, int]:
    """Pre-tokenize ``corpus`` and count the pieces, in order of first appearance."""
    counts: dict[str, int] = {}
    for piece in pretokenize(corpus, pattern):
        counts[piece.text] = counts.get(piece.text, 0) + 1
    return counts


#: Characters at the end of a text piece whose pre-tokens wait for the next piece (see :func:`word_counts_stream`).
STREAM_WINDOW = 256
#: Most distinct words the traced trainer takes (it keeps every distinct word, and its pairs, in Python lists).
MAX_TRACE_WORDS = 200_000


def word_counts_stream(texts: Iterable[str], pattern: str | Pattern = "ws-attached", *,
                       max_words: int = MAX_TRACE_WORDS) -> dict[str, int]:
    """:func:`word_counts` of the concatenation of ``texts``, reading one piece at a time.

    ``texts`` may be cut anywhere (e.g. 1 MB chunks of a file). Each piece is
    pre-tokenized together with the unfinished end of the one before; a
    pre-token counts only when it ends at least :data:`STREAM_WINDOW`
    characters before the end of what has been read so far (the rest waits
    for the next piece), so a pre-token is never split by a cut. This is
    exact for the named patterns, whose pieces are decided by the character
    after them at most; a custom regex could look further ahead, so it is
    refused here (:class:`BpeInputError`): use :func:`word_counts` on the
    whole text. More than ``max_words`` distinct words is refused too: the
    traced trainer holds every distinct word in memory.
    """
    pat = pattern if isinstance(pattern, Pattern) else resolve_pattern(pattern)
    if pat.name == "custom":
        raise BpeInputError(T_("a custom --pattern cannot be streamed (it may look past a chunk); give a named "
                               "pattern"))
    counts: dict[str, int] = {}
    carry = ""

    def add(pieces: Iterable[str]) -> None:
        for t in pieces:
            counts[t] = counts.get(t, 0) + 1
        if len(counts) > max_words:
            raise BpeInputError(T_("the corpus has more than {limit:,} distinct words; the traced trainer keeps every "
                                   "distinct word in memory: train on a sample, or use `train` (the library trainer)",
                                   limit=max_words))

    for text in texts:
        buf = carry + text
        spans = pretokenize(buf, pat)
        limit = len(buf) - STREAM_WINDOW
        done = [s for s in spans if s.end <= limit]
        add(s.text for s in done)
        carry = buf[done[-1].end:] if done else buf
        if len(carry) > 64 * STREAM_WINDOW * 1024:
            raise BpeInputError(T_("a pre-token runs on for more than 16 million characters; cannot stream this "
                                   "corpus"))
    if carry:
        add(s.text for s in pretokenize(carry, pat))
    return counts


def initial_pieces(text: str, unit: Unit) -> list[bytes]:
    """The unit sequence a word starts as: one piece per code point or per byte."""
    if unit == "byte":
        return [bytes((b,)) for b in text.encode("utf-8")]
    if unit == "codepoint":
        return [ch.encode("utf-8") for ch in text]
    raise BpeInputError(T_("unknown unit {unit} (choose `codepoint` or `byte`)", unit=repr(unit)))


#: Bytes in the order the ByteLevel alphabet sorts its characters (used as ids).
_BYTE_ORDER = tuple(sorted(range(256), key=bytelevel_alphabet().__getitem__))


def _alphabet(words: Sequence[str], unit: Unit) -> list[bytes]:
    """Initial symbols in id order (see the module docstring)."""
    if unit == "byte":
        return [bytes((b,)) for b in _BYTE_ORDER]
    chars = sorted({ch for w in words for ch in w})
    return [ch.encode("utf-8") for ch in chars]


# ---------------------------------------------------------------------------
# Trace records
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PairCount:
    """A candidate pair and its (frequency-weighted) count."""

    left: bytes
    right: bytes
    count: int


@dataclass(frozen=True)
class MergeStep:
    """One training step: the pair merged and the corpus right after it.

    ``top_pairs`` are the best candidates *before* this merge, best first;
    the first is the pair merged.
    """

    step: int
    left: bytes
    right: bytes
    merged: bytes
    count: int
    total_tokens: int
    vocab_size: int
    top_pairs: tuple[PairCount, ...]


@dataclass(frozen=True)
class BpeTrace:
    """Everything a training run did, step by step.

    The vocabulary and merge table are derived from ``alphabet`` and
    ``steps``; they are never stored twice.
    """

    unit: Unit
    tie_break: TieBreak
    pattern: str
    words: tuple[tuple[str, int], ...]
    alphabet: tuple[bytes, ...]
    initial_total_tokens: int
    steps: tuple[MergeStep, ...]
    #: Pairs seen fewer times than this were not merged (0: no limit).
    min_frequency: int = 0

    @property
    def initial_vocab_size(self) -> int:
        return len(self.alphabet)

    def merges(self, upto: int | None = None) -> list[tuple[bytes, bytes]]:
        """The learned merges, in order (the first ``upto`` if given)."""
        return [(s.left, s.right) for s in self.steps[:upto]]

    @cached_property
    def pair_ranks(self) -> dict[tuple[bytes, bytes], int]:
        """``(left, right) -> rank`` (rank 0 is the first merge)."""
        return {(s.left, s.right): i for i, s in enumerate(self.steps)}

    @cached_property
    def vocab(self) -> dict[bytes, int]:
        """Piece -> id: the alphabet in order, then each new merged piece."""
        ids = {piece: i for i, piece in enumerate(self.alphabet)}
        for s in self.steps:
            ids.setdefault(s.merged, len(ids))
        return ids

    def vocab_size(self, upto: int | None = None) -> int:
        """Vocabulary size after ``upto`` merges (all by default)."""
        if upto is None or upto >= len(self.steps):
            upto = len(self.steps)
        return self.steps[upto - 1].vocab_size if upto > 0 else self.initial_vocab_size

    def total_tokens(self, upto: int) -> int:
        """Corpus length in tokens after ``upto`` merges."""
        return self.steps[upto - 1].total_tokens if upto > 0 else self.initial_total_tokens

    def rank_of(self, upto: int | None = None) -> RankOf:
        """Pair rank lookup limited to the first ``upto`` merges."""
        ranks = self.pair_ranks
        limit = len(self.steps) if upto is None else upto

        def rank(left: bytes, right: bytes) -> int | None:
            r = ranks.get((left, right))
            return r if r is not None and r < limit else None

        return rank

    def segment(self, word: str, upto: int | None = None) -> list[bytes]:
        """``word``'s pieces after the first ``upto`` merges (as in training)."""
        return apply_merges(word, self.rank_of(upto), unit=self.unit, mode="learned-order")

    def tokenizer(self, upto: int | None = None) -> "BpeTokenizer":
        """A :class:`~core.tokens.Tokenizer` using the first ``upto`` merges."""
        return BpeTokenizer(self, len(self.steps) if upto is None else min(upto, len(self.steps)))


# ---------------------------------------------------------------------------
# Training
# ---------------------------------------------------------------------------


@dataclass
class _State:
    """Mutable training state; lives only inside :func:`train_bpe`."""

    words: list[list[int]]
    freqs: list[int]
    sym: list[bytes]
    sym_id: dict[bytes, int]
    counts: dict[tuple[int, int], int] = field(default_factory=dict)
    where: dict[tuple[int, int], set[int]] = field(default_factory=dict)
    heap: list[tuple[int, int, int, tuple[int, int]]] = field(default_factory=list)

    def push(self, pair: tuple[int, int]) -> None:
        # Entries are (-count, left id, right id, pair): the heap order is the hf rule.
        heapq.heappush(self.heap, (-self.counts[pair], pair[0], pair[1], pair))

    def first_seen(self, pair: tuple[int, int]) -> tuple[int, int]:
        """(word index, position) of the pair's first occurrence in corpus order."""
        a, b = pair
        for w in sorted(self.where[pair]):
            syms = self.words[w]
            for i in range(len(syms) - 1):
                if syms[i] == a and syms[i + 1] == b:
                    return (w, i)
        raise AssertionError("pair counted but not found")  # pragma: no cover

    def top(self, k: int, tie_break: TieBreak) -> list[tuple[tuple[int, int], int]]:
        """The best ``k`` pairs by the tie-break rule, leaving the heap intact.

        Pops entries until ``k`` valid ones are found (plus, for
        ``first-seen``, every pair tied with the best, since the heap only
        orders ties by id). Stale entries are fixed on the way.
        """
        found: list[tuple[tuple[int, int], int]] = []
        seen: set[tuple[int, int]] = set()
        heap = self.heap
        while heap:
            neg, _, _, pair = heap[0]
            if len(found) >= k and not (tie_break == "first-seen" and found and -neg == found[0][1]):
                break
            heapq.heappop(heap)
            current = self.counts.get(pair, 0)
            if pair in seen or current <= 0:
                continue
            if current != -neg:
                self.push(pair)  # subtle: stale count, re-queue with the true one
                continue
            seen.add(pair)
            found.append((pair, current))
        for pair, _ in found:
            self.push(pair)
        if tie_break == "first-seen" and len(found) > 1:
            # Order ties by first occurrence; only tied groups need the scan.
            by_count: dict[int, int] = {}
            for _, c in found:
                by_count[c] = by_count.get(c, 0) + 1
            found.sort(key=lambda pc: (-pc[1], self.first_seen(pc[0]) if by_count[pc[1]] > 1 else (0, 0)))
        return found[:k] if len(found) > k else found

    def merge(self, pair: tuple[int, int], new: int) -> int:
        """Merge ``pair`` into symbol ``new`` in every word; return occurrences merged (weighted)."""
        a, b = pair
        delta: dict[tuple[int, int], int] = {}
        grown: dict[tuple[int, int], set[int]] = {}
        merged = 0
        for w in self.where.pop(pair, set()):
            syms = self.words[w]
            n = len(syms)
            f = self.freqs[w]
            out: list[int] = []
            i = 0
            hit = False
            while i < n:
                if syms[i] == a and i + 1 < n and syms[i + 1] == b:
                    hit = True
                    merged += f
                    if out:
                        prev = out[-1]
                        delta[(prev, a)] = delta.get((prev, a), 0) - f
                        delta[(prev, new)] = delta.get((prev, new), 0) + f
                        grown.setdefault((prev, new), set()).add(w)
                    if i + 2 < n:
                        nxt = syms[i + 2]
                        delta[(b, nxt)] = delta.get((b, nxt), 0) - f
                        delta[(new, nxt)] = delta.get((new, nxt), 0) + f
                        grown.setdefault((new, nxt), set()).add(w)
                    out.append(new)
                    i += 2
                else:
                    out.append(syms[i])
                    i += 1
            if hit:
                self.words[w] = out
        self.counts.pop(pair, None)
        for p, d in delta.items():
            if d == 0:
                continue
            c = self.counts.get(p, 0) + d
            if c > 0:
                self.counts[p] = c
            else:
                self.counts.pop(p, None)
                self.where.pop(p, None)
        for p, ws in grown.items():
            if self.counts.get(p, 0) > 0:
                self.where.setdefault(p, set()).update(ws)
                self.push(p)
        return merged


def train_bpe(
    words: Mapping[str, int] | None = None,
    *,
    corpus: str | None = None,
    merges: int,
    unit: Unit = "codepoint",
    tie_break: TieBreak = "first-seen",
    pattern: str | Pattern = "ws-attached",
    top_k: int = 10,
    min_frequency: int = 0,
) -> BpeTrace:
    """Train BPE for up to ``merges`` steps and return the full trace.

    Give either ``words`` (a word -> frequency table, each word one unit
    sequence, in corpus order) or ``corpus`` (text, split by ``pattern``).
    Training stops early when no adjacent pair is left, or when the best
    pair occurs fewer than ``min_frequency`` times (Hugging Face
    BpeTrainer's rule: a pair seen exactly ``min_frequency`` times is still
    merged; 0 and 1 change nothing).

    >>> t = train_bpe({"low": 5, "lower": 2, "newest": 6, "widest": 3}, merges=2)
    >>> [(s.left + s.right).decode() for s in t.steps]
    ['es', 'est']
    """
    if unit not in UNITS:
        raise BpeInputError(T_("unknown unit {unit} (choose `codepoint` or `byte`)", unit=repr(unit)))
    if tie_break not in TIE_BREAKS:
        raise BpeInputError(T_("unknown tie-break {tie_break} (choose first-seen or hf)", tie_break=repr(tie_break)))
    if merges < 0:
        raise BpeInputError(T_("number of merges must be >= 0, got {value}", value=str(merges)))
    if min_frequency < 0:
        raise BpeInputError(T_("min_frequency must be >= 0, got {value}", value=str(min_frequency)))
    pat = pattern if isinstance(pattern, Pattern) else resolve_pattern(pattern)
    if (words is None) == (corpus is None):
        raise BpeInputError(T_("give either a word table or a corpus"))
    table = dict(words) if words is not None else word_counts(corpus or "", pat)
    table = {w: f for w, f in table.items() if w}
    if not table:
        raise BpeInputError(T_("the corpus is empty: nothing to train on"))
    if any(f <= 0 for f in table.values()):
        raise BpeInputError(T_("word frequencies must be positive"))

    alphabet = _alphabet(list(table), unit)
    sym_id = {s: i for i, s in enumerate(alphabet)}
    state = _State(
        words=[[sym_id[p] for p in initial_pieces(w, unit)] for w in table],
        freqs=list(table.values()),
        sym=list(alphabet),
        sym_id=sym_id,
    )
    for w, syms in enumerate(state.words):
        f = state.freqs[w]
        for p in zip(syms, syms[1:]):
            state.counts[p] = state.counts.get(p, 0) + f
            state.where.setdefault(p, set()).add(w)
    for p in state.counts:
        state.push(p)

    total = sum(len(s) * f for s, f in zip(state.words, state.freqs))
    initial_total = total
    steps: list[MergeStep] = []
    for step in range(1, merges + 1):
        top = state.top(max(top_k, 1), tie_break)
        if not top or top[0][1] < max(min_frequency, 1):
            break
        pair, count = top[0]
        left, right = state.sym[pair[0]], state.sym[pair[1]]
        merged = left + right
        new = state.sym_id.get(merged)
        if new is None:  # a merged piece may already exist via another split
            new = len(state.sym)
            state.sym.append(merged)
            state.sym_id[merged] = new
        total -= state.merge(pair, new)
        steps.append(
            MergeStep(
                step=step,
                left=left,
                right=right,
                merged=merged,
                count=count,
                total_tokens=total,
                vocab_size=len(state.sym),
                top_pairs=tuple(PairCount(state.sym[p[0]], state.sym[p[1]], c) for p, c in top[:top_k]),
            )
        )
    return BpeTrace(
        unit=unit,
        tie_break=tie_break,
        pattern=pat.regex if pat.name == "custom" and pat.regex else pat.name,
        words=tuple(table.items()),
        alphabet=tuple(alphabet),
        initial_total_tokens=initial_total,
        steps=tuple(steps),
        min_frequency=min_frequency,
    )


# ---------------------------------------------------------------------------
# Encoding
# ---------------------------------------------------------------------------


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


def encode_trace(
    piece: str | bytes,
    rank_of: RankOf | BpeTrace,
    *,
    unit: Unit = "byte",
    mode: Literal["learned-order", "lowest-rank"] | None = None,
) -> EncodeTrace:
    """Encode one pre-tokenized piece, recording every merge.

    ``rank_of`` is a pair-rank function (see :func:`tiktoken_rank_of`) or a
    :class:`BpeTrace` (its merges are used). Two replay modes:

    - ``learned-order`` (default for a trace): apply merges in the order
      they were learned, each to all its occurrences left to right. This is
      exactly what training did to the word.
    - ``lowest-rank`` (default for a rank function): tiktoken's loop:
      repeatedly merge the leftmost adjacent pair with the lowest rank,
      one occurrence per step.

    >>> t = train_bpe({"low": 5, "lowest": 2}, merges=3)
    >>> [p.decode() for p in encode_trace("lowly", t, unit="codepoint").final]
    ['low', 'l', 'y']
    """
    if isinstance(rank_of, BpeTrace):
        unit = rank_of.unit
        rank_of = rank_of.rank_of()
        mode = mode or "learned-order"
    parts = initial_pieces(piece, unit) if isinstance(piece, str) else [bytes((b,)) for b in piece]
    initial = tuple(parts)
    return EncodeTrace(initial, tuple(_merge_steps(parts, rank_of, mode or "lowest-rank")))


def apply_merges(
    piece: str, rank_of: RankOf, *, unit: Unit, mode: Literal["learned-order", "lowest-rank"]
) -> list[bytes]:
    """The final pieces of :func:`encode_trace` without keeping the steps."""
    parts = initial_pieces(piece, unit)
    for _ in _merge_steps(parts, rank_of, mode):
        pass
    return parts


def _merge_steps(parts: list[bytes], rank_of: RankOf, mode: str) -> Iterator[EncodeStep]:
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


# ---------------------------------------------------------------------------
# Tokenizer over a trace
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class BpeTokenizer(TokenizerDefaults):
    """A trained trace used as a tokenizer: split by its pattern, replay merges.

    Pieces missing from the vocabulary (a code point never seen in training)
    get id None; their bytes are kept, so nothing is lost.
    """

    trace: BpeTrace
    upto: int

    @property
    def id(self) -> str:
        return f"bpe-{self.trace.unit}-{self.upto}"

    @property
    def name(self) -> str:
        unit = "byte" if self.trace.unit == "byte" else "code point"
        return f"BPE ({unit}, {self.upto} merges)"

    @property
    def vocab_size(self) -> int:
        return len(self.trace.alphabet) + min(self.upto, len(self.trace.steps))

    def token_text(self, token_id: int) -> str:
        piece = next((p for p, i in self.trace.vocab.items() if i == token_id), b"")
        return piece.decode("utf-8", errors="replace") if isinstance(piece, bytes) else str(piece)

    def _pieces(self, text: str) -> tuple[list[tuple[int, int]], list[int | None], list[bytes]]:
        """Byte spans, ids (None when not in the vocabulary) and bytes of every token."""
        rank = self.trace.rank_of(self.upto)
        vocab = self.trace.vocab
        spans: list[tuple[int, int]] = []
        ids: list[int | None] = []
        data: list[bytes] = []
        data_offsets = char_byte_offsets(text)
        for piece in pretokenize(text, self.trace.pattern):
            pos = data_offsets[piece.start]
            for p in apply_merges(piece.text, rank, unit=self.trace.unit, mode="learned-order"):
                spans.append((pos, pos + len(p)))
                ids.append(vocab.get(p))
                data.append(p)
                pos += len(p)
        return spans, ids, data

    def encode(self, text: str) -> Encoding:
        spans, ids, _ = self._pieces(text)
        return Encoding(text, tokens_from_byte_spans(text, spans, ids))

    def table(self, text: str) -> TokenTable:
        """The encoding as columns (no record per token; an id of -1 is a piece outside the vocabulary)."""
        spans, ids, data = self._pieces(text)
        n = len(spans)
        arr = np.asarray(spans, dtype=np.int64).reshape(-1, 2)
        return build_table(
            text, np.fromiter((-1 if i is None else i for i in ids), dtype=np.int64, count=n), arr[:, 0], arr[:, 1],
            data, np.zeros(n, dtype=bool), np.fromiter(map(is_valid_utf8, data), dtype=bool, count=n),
        )  # fmt: skip

    def decode(self, tokens: Sequence[Token]) -> str:
        return decode([t.data for t in tokens])

