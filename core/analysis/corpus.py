"""A corpus file split and trained on without holding it: the streamed form of ``split_corpus`` + ``train``.

:func:`core.analysis.evaluate.split_corpus` splits a text held in memory.
:class:`FileSplit` gives the same split of a file read in chunks of about
1 MB (:func:`core.analysis.stream.iter_chunks`, cut after line breaks), in
passes over the file:

1. count the documents (runs of non-blank lines between blank lines, after
   ``\\r\\n`` and ``\\r`` become ``\\n``, exactly as ``split_corpus`` finds
   them) and the non-blank lines; with fewer than 2 documents the unit is a
   group of :data:`~core.analysis.evaluate.LINE_GROUP` lines;
2. shuffle the document numbers with the same seeded ``random.Random``
   (an ``array`` of 4-byte numbers, not a list) and mark the held-out ones
   in a ``bytearray``;
3. write the held-out lines to a temporary file and keep a 64-bit hash of
   each (stripped), as a sorted ``numpy`` array;
4. read the training lines once to find which held-out lines also occur in
   training (``split_corpus`` drops those), count the distinct words, and
   then as often as needed (training, baselines) as an iterator.

Memory is bounded by the chunks, 9 bytes per held-out line, 5 bytes per
document and 8 bytes per distinct word; the library trainers themselves keep
every distinct word they see (``tokenizers`` counts words in a hash map),
so a corpus with more than :data:`MAX_DISTINCT_WORDS` distinct
whitespace-separated words is refused with a message. Held-out lines are
matched to training lines by a 64-bit hash: two different lines sharing a
hash (chance about n_held * n_train / 2^64) would drop a held-out line
that the whole-text split keeps.
"""
from __future__ import annotations

import os
import random
import tempfile
from array import array
from dataclasses import dataclass, field
from typing import Callable, Iterator

import numpy as np

from . import evaluate as E
from . import stream

#: Most distinct whitespace-separated words a streamed training run accepts (the trainers keep each one).
MAX_DISTINCT_WORDS = 2_000_000

#: ``progress(done, total, what)``: plain numbers (bytes read so far, file size) and what is being done.
ProgressFn = Callable[[int, int, str], None]


def _lines(text: str, last: bool) -> list[str]:
    """The ``\\n``-separated lines of a chunk (``\\r\\n`` and ``\\r`` as ``\\n``); a chunk cut after a line break
    does not end with an empty line."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    parts = text.split("\n")
    if not last or text.endswith("\n"):
        parts.pop()  # after the final \n: nothing (or, mid-file, the start of the next chunk's first line)
    return parts


def _hashes(lines: list[str]) -> np.ndarray:
    return np.fromiter((hash(ln.strip()) for ln in lines), dtype=np.int64, count=len(lines))


class _Distinct:
    """Distinct 64-bit word hashes, kept as a sorted array, merged in batches."""

    def __init__(self) -> None:
        self.seen = np.empty(0, dtype=np.int64)
        self.batch: list[np.ndarray] = []
        self.pending = 0

    def add(self, words: list[str]) -> None:
        if words:
            self.batch.append(np.unique(np.fromiter(map(hash, words), dtype=np.int64, count=len(words))))
            self.pending += len(self.batch[-1])
            if self.pending > max(len(self.seen), 1 << 20):
                self.flush()

    def flush(self) -> int:
        if self.batch:
            self.seen = np.unique(np.concatenate([self.seen, *self.batch]))
            self.batch, self.pending = [], 0
        return len(self.seen)


@dataclass
class FileSplit:
    """The document split of a corpus file, equal to ``split_corpus(file text)``; see the module docstring.

    Use as a context manager (the held-out lines live in a temporary file
    until :meth:`close`). :attr:`summary` is ``Split.summary()``'s dict.
    """

    path: str
    heldout_fraction: float = E.HELDOUT_FRACTION
    seed: int = E.SPLIT_SEED
    group_lines: int = E.LINE_GROUP
    progress: ProgressFn | None = None
    max_distinct_words: int = MAX_DISTINCT_WORDS
    size: int = 0
    unit: str = "document"
    groups: int = 0
    n_held: int = 0
    train_sentences: int = 0
    train_chars: int = 0
    heldout_sentences: int = 0
    heldout_chars: int = 0
    dropped: int = 0
    distinct_words: int = 0
    _held: bytearray = field(default_factory=bytearray, repr=False)
    _tmp: str = ""

    # -- reading ---------------------------------------------------------------

    def _report(self, done: int, what: str) -> None:
        if self.progress is not None:
            self.progress(done, self.size, what)

    def _chunks(self, what: str) -> Iterator[tuple[list[str], int]]:
        """(lines of each chunk, bytes read so far), reporting progress as ``what``."""
        chunks = stream.iter_chunks(self.path, cut="line")
        prev = next(chunks, None)
        while prev is not None:
            nxt = next(chunks, None)
            done = prev.byte_start + len(prev.text.encode("utf-8"))
            yield _lines(prev.text, last=nxt is None), done
            self._report(done, what)
            prev = nxt

    def _units(self, what: str) -> Iterator[tuple[int, list[str]]]:
        """(unit number, its non-blank lines) in file order: documents, or groups of lines."""
        unit: list[str] = []
        k = 0
        for lines, _ in self._chunks(what):
            for ln in lines:
                if ln.strip():
                    unit.append(ln)
                    if self.unit == "line group" and len(unit) == self.group_lines:
                        yield k, unit
                        k, unit = k + 1, []
                elif unit and self.unit == "document":
                    yield k, unit
                    k, unit = k + 1, []
        if unit:
            yield k, unit

    # -- the passes ------------------------------------------------------------

    def __enter__(self) -> "FileSplit":
        if not 0 < self.heldout_fraction < 1:
            raise E.EvalError(f"held-out fraction must be between 0 and 1 (got {self.heldout_fraction})")
        self.size = stream.file_size(self.path)
        try:
            self._count()
            self._mark_held()
            self._write_heldout()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._tmp:
            try:
                os.unlink(self._tmp)
            except OSError:
                pass
            self._tmp = ""

    def _count(self) -> None:
        docs = lines = 0
        in_doc = False
        for chunk_lines, _ in self._chunks("reading the corpus (1/4)"):
            for ln in chunk_lines:
                if ln.strip():
                    lines += 1
                    if not in_doc:
                        docs, in_doc = docs + 1, True
                else:
                    in_doc = False
        if docs >= 2:
            self.unit, self.groups = "document", docs
            return
        self.unit, self.groups = "line group", -(-lines // self.group_lines)
        if self.groups < 2:
            raise E.EvalError(
                f"the corpus is too small to split: it needs at least 2 documents (blank-line separated) "
                f"or more than {self.group_lines} lines; it has {lines} line(s)"
            )

    def _mark_held(self) -> None:
        if self.groups >= 2**32:
            raise E.EvalError(f"the corpus has {self.groups:,} documents; the limit is {2**32 - 1:,}")
        order = array("I", range(self.groups))
        random.Random(self.seed).shuffle(order)  # the same permutation split_corpus gets for a list
        self.n_held = max(1, round(self.groups * self.heldout_fraction))
        held = bytearray(self.groups)
        for i in order[: self.n_held]:
            held[i] = 1
        self._held = held

    def _write_heldout(self) -> None:
        fd, self._tmp = tempfile.mkstemp(prefix="tl-heldout-", suffix=".txt")
        parts: list[np.ndarray] = []
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            for k, unit in self._units("finding the held-out documents (2/4)"):
                if self._held[k]:
                    out.write("".join(ln + "\n" for ln in unit))
                    parts.append(_hashes(unit))
        held = np.concatenate(parts) if parts else np.empty(0, dtype=np.int64)
        uniq = np.unique(held)
        seen = np.zeros(len(uniq), dtype=bool)
        distinct = _Distinct()
        for lines in self.train_lines("checking held-out lines against training (3/4)"):
            self.train_sentences += len(lines)
            self.train_chars += sum(map(len, lines))
            if len(uniq):
                hs = _hashes(lines)
                idx = np.minimum(np.searchsorted(uniq, hs), len(uniq) - 1)
                seen[idx[uniq[idx] == hs]] = True
            distinct.add([w for ln in lines for w in ln.split()])
            if distinct.pending + len(distinct.seen) > self.max_distinct_words and distinct.flush() > \
                    self.max_distinct_words:
                raise E.EvalError(self._too_many_words())
        self.distinct_words = distinct.flush()
        if self.distinct_words > self.max_distinct_words:
            raise E.EvalError(self._too_many_words())
        keep = ~seen[np.searchsorted(uniq, held)] if len(held) else np.empty(0, dtype=bool)
        # Rewrite the held-out file without the lines seen in training.
        self.dropped = int(len(held) - keep.sum())
        if self.dropped:
            fd2, kept_path = tempfile.mkstemp(prefix="tl-heldout-", suffix=".txt")
            with open(self._tmp, encoding="utf-8", newline="\n") as src, \
                    os.fdopen(fd2, "w", encoding="utf-8", newline="\n") as dst:
                for ln, ok in zip(src, keep.tolist()):
                    if ok:
                        dst.write(ln)
            os.unlink(self._tmp)
            self._tmp = kept_path
        self.heldout_sentences = int(keep.sum())
        self.heldout_chars = sum(len(ln) - 1 for ln in self.heldout_lines_raw())
        if not self.heldout_sentences:
            raise E.EvalError("every held-out sentence also occurs in the training part; the corpus repeats itself")

    def _too_many_words(self) -> str:
        return (f"the training part has more than {self.max_distinct_words:,} distinct words; the trainers keep every "
                "distinct word in memory, so train on a sample of this corpus")

    # -- what callers read ------------------------------------------------------

    def train_lines(self, what: str = "training") -> Iterator[list[str]]:
        """The training part's non-blank lines, one list per unit (document or line group), in file order."""
        for k, unit in self._units(what):
            if not self._held[k]:
                yield unit

    def iter_train(self, what: str = "training") -> Iterator[str]:
        """The training sentences one by one (what ``Split.train`` holds)."""
        for unit in self.train_lines(what):
            yield from unit

    def heldout_lines_raw(self) -> Iterator[str]:
        with open(self._tmp, encoding="utf-8", newline="\n") as fh:
            yield from fh

    def iter_heldout(self) -> Iterator[str]:
        """The held-out sentences one by one (what ``Split.heldout`` holds)."""
        for ln in self.heldout_lines_raw():
            yield ln[:-1]

    @property
    def heldout_path(self) -> str:
        """The temporary file of held-out sentences, one per ``\\n``-terminated line."""
        return self._tmp

    @property
    def summary(self) -> dict:
        return {
            "unit": self.unit,
            "seed": self.seed,
            "train_groups": self.groups - self.n_held,
            "heldout_groups": self.n_held,
            "train_sentences": self.train_sentences,
            "heldout_sentences": self.heldout_sentences,
            "train_chars": self.train_chars,
            "heldout_chars": self.heldout_chars,
            "heldout_dropped_seen_in_training": self.dropped,
        }


def heldout_tally(cand: object, path: str, *, max_failures: int = E.MAX_FAILURES) -> E.EvalTally:
    """:func:`core.analysis.evaluate.tally` of a candidate over a held-out file (one sentence per ``\\n`` line),
    chunk by chunk in this process; equal to the tally of all its lines at once."""
    total = E.EvalTally()
    for chunk in stream.iter_chunks(path, cut="line"):
        lines = [ln for ln in chunk.text.split("\n") if ln.strip()]
        total = total.merged(E.tally(cand, lines, max_failures=max_failures), max_failures=max_failures)  # type: ignore[arg-type]
    return total
