"""BPE training, traced: every merge step recorded with the pairs it chose from.

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
"""
from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from ...i18n import T_
from ...pipeline.pretokenize import Pattern, resolve_pattern
from ...text.units import bytelevel_alphabet
from .encode import UNITS, BpeInputError, Unit, initial_pieces
from .trace import TIE_BREAKS, BpeTrace, MergeStep, PairCount, TieBreak
from .words import word_counts

#: Bytes in the order the ByteLevel alphabet sorts its characters (used as ids).
_BYTE_ORDER = tuple(sorted(range(256), key=bytelevel_alphabet().__getitem__))


def _alphabet(words: Sequence[str], unit: Unit) -> list[bytes]:
    """Initial symbols in id order (see the module docstring)."""
    if unit == "byte":
        return [bytes((b,)) for b in _BYTE_ORDER]
    chars = sorted({ch for w in words for ch in w})
    return [ch.encode("utf-8") for ch in chars]


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
