"""Honest evaluation of tokenizers: held-out split, metrics, save/load proof.

- :func:`split_corpus`: documents (blank-line separated) or, for a file
  without blank lines, groups of consecutive lines, shuffled with a fixed
  seed; held-out sentences that also occur verbatim in training are dropped
  (and counted), so nothing is evaluated on text it was trained on.
- :func:`evaluate`: the metrics table row for one tokenizer on the held-out
  sentences (tokens per sentence, UNK%, round-trip %, cut%, bad%, vocabulary
  requested vs obtained, training time), the first round-trip failures with
  a character diff and the reason, and token usage (Zipf data, unused
  tokens, longest tokens).
- :func:`save_load_proof`: save -> load -> save gives a byte-identical file
  (same sha256) and identical ids on every held-out sentence.

A tokenizer here is any :class:`core.tokens.Tokenizer` (trained here, a
baseline, or a pretrained adapter as it is). One round trip and the hard-case
suite are in :mod:`core.analysis.roundtrip`, special-token injection in
:mod:`core.analysis.injection`, padding in :mod:`core.analysis.padding`.
Nothing here trains, prints or touches the network.
"""
from __future__ import annotations

import math
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Literal, Protocol, Sequence

from ..i18n import T_, Tn_
from ..text.errors import UserError
from ..text.native import fence
from ..tokens import Tokenizer, Trained
from .roundtrip import RoundTripFailure, char_diff, failure_reason, round_trip

#: Fixed seed for the train/held-out split.
SPLIT_SEED = 13
HELDOUT_FRACTION = 0.1
#: Lines per group when a corpus has no blank-line-separated documents.
LINE_GROUP = 20
#: How many round-trip failures each row keeps.
MAX_FAILURES = 10


class EvalError(UserError):
    """Input that cannot be evaluated as asked (corpus too small to split, too large)."""


# ---------------------------------------------------------------------------
# Split
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Split:
    """A train/held-out split of one corpus.

    ``unit`` is "document" (blank-line separated blocks) or "line group"
    (``LINE_GROUP`` consecutive lines, for files without blank lines).
    ``dropped`` held-out sentences also occur verbatim in training and were
    removed from the held-out set.
    """

    train: tuple[str, ...]
    heldout: tuple[str, ...]
    unit: Literal["document", "line group"]
    groups_train: int
    groups_heldout: int
    dropped: int
    seed: int

    @property
    def train_chars(self) -> int:
        return sum(map(len, self.train))

    @property
    def heldout_chars(self) -> int:
        return sum(map(len, self.heldout))

    def summary(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "seed": self.seed,
            "train_groups": self.groups_train,
            "heldout_groups": self.groups_heldout,
            "train_sentences": len(self.train),
            "heldout_sentences": len(self.heldout),
            "train_chars": self.train_chars,
            "heldout_chars": self.heldout_chars,
            "heldout_dropped_seen_in_training": self.dropped,
        }


def split_corpus(text: str, *, heldout_fraction: float = HELDOUT_FRACTION, seed: int = SPLIT_SEED,
                 group_lines: int = LINE_GROUP) -> Split:
    """Split ``text`` by document (or line group) with a fixed seed.

    >>> s = split_corpus("\\n\\n".join(f"doc {i} line a\\ndoc {i} line b" for i in range(10)))
    >>> s.unit, s.groups_train, s.groups_heldout, len(s.heldout)
    ('document', 9, 1, 2)
    """
    if not 0 < heldout_fraction < 1:
        raise EvalError(T_("held-out fraction must be between 0 and 1 (got {value})", value=str(heldout_fraction)))
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    blocks = [b for b in re.split(r"\n\s*\n", text) if b.strip()]
    docs = [[ln for ln in b.split("\n") if ln.strip()] for b in blocks]
    unit: Literal["document", "line group"] = "document"
    if len(docs) < 2:
        lines = [ln for ln in text.split("\n") if ln.strip()]
        docs = [lines[i : i + group_lines] for i in range(0, len(lines), group_lines)]
        unit = "line group"
        if len(docs) < 2:
            raise EvalError(Tn_("the corpus is too small to split: it needs at least 2 documents (blank-line "
                                "separated) or more than {limit} lines; it has {count} line",
                                "the corpus is too small to split: it needs at least 2 documents (blank-line "
                                "separated) or more than {limit} lines; it has {count} lines", len(lines),
                                limit=group_lines, count=len(lines)))
    order = list(range(len(docs)))
    random.Random(seed).shuffle(order)
    n_held = max(1, round(len(docs) * heldout_fraction))
    held_idx = set(order[:n_held])
    train = tuple(ln for i, d in enumerate(docs) if i not in held_idx for ln in d)
    seen = {ln.strip() for ln in train}
    held_all = [ln for i, d in enumerate(docs) if i in held_idx for ln in d]
    held = tuple(ln for ln in held_all if ln.strip() not in seen)
    if not held:
        raise EvalError(T_("every held-out sentence also occurs in the training part; the corpus repeats itself"))
    return Split(train, held, unit, len(docs) - n_held, n_held, len(held_all) - len(held), seed)


def check_corpus_size(text: str, limit_chars: int) -> None:
    """:class:`EvalError` naming the limit when ``text`` is longer than ``limit_chars``."""
    if len(text) > limit_chars:
        raise EvalError(T_("the corpus has {count:,} characters; the limit here is {limit:,}", count=len(text),
                           limit=limit_chars))


# ---------------------------------------------------------------------------
# Metrics
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class VocabUsage:
    """How the vocabulary is used on held-out text.

    ``counts`` are token frequencies sorted from most to least used (rank
    order, for a Zipf plot); ``unused`` counts vocabulary entries never used
    (special tokens excluded); ``longest`` are the longest tokens of the
    whole vocabulary as ``(text, characters)``.
    """

    counts: tuple[int, ...]
    top: tuple[tuple[str, int], ...]
    used: int
    unused: int
    longest: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Metrics:
    """One row of the metrics table, plus its failures and vocabulary usage."""

    id: str
    name: str
    recipe: str | None
    vocab_requested: int | None
    vocab_obtained: int
    vocab_note: str
    sentences: int
    tokens: int
    tokens_per_sentence: float
    unk_pct: float
    round_trip_pct: float
    cut_pct: float
    bad_pct: float
    train_seconds: float | None
    failure_count: int
    failures: tuple[RoundTripFailure, ...]
    usage: VocabUsage = field(repr=False)

    def row(self) -> dict[str, Any]:
        """The table row as plain data (what the CLI prints and the page shows)."""
        return {
            "tokenizer": self.name,
            "recipe": self.recipe,
            "vocab_requested": self.vocab_requested,
            "vocab_obtained": self.vocab_obtained,
            "vocab_note": self.vocab_note,
            "sentences": self.sentences,
            "tokens_per_sentence": round(self.tokens_per_sentence, 2),
            "unk_pct": round(self.unk_pct, 2),
            "round_trip_pct": round(self.round_trip_pct, 2),
            "cut_pct": round(self.cut_pct, 2),
            "bad_pct": round(self.bad_pct, 2),
            "train_seconds": None if self.train_seconds is None else round(self.train_seconds, 3),
            "unused_tokens": self.usage.unused,
        }

    def to_json(self) -> dict[str, Any]:
        """Row, failures and usage as JSON-able data."""
        return {
            **self.row(),
            "id": self.id,
            "round_trip_failures": self.failure_count,
            "failures": [
                {"original": f.original, "decoded": f.decoded, "reason": f.reason,
                 "diff": [[p.op, p.original, p.decoded] for p in f.diff]}
                for f in self.failures
            ],
            "usage": {
                "used": self.usage.used,
                "unused": self.usage.unused,
                "top": [list(t) for t in self.usage.top],
                "longest": [list(t) for t in self.usage.longest],
                "zipf_counts": list(self.usage.counts),
            },
        }


@dataclass(frozen=True)
class EvalTally:
    """The raw counts behind :class:`Metrics`, summable over parts of the held-out text (:meth:`merged`).

    ``failures`` keeps the first failures in sentence order, so merging the
    tallies of consecutive parts gives the tally of the whole.
    """

    sentences: int = 0
    tokens: int = 0
    unk: int = 0
    ok: int = 0
    boundaries: int = 0
    inside: int = 0
    bad: int = 0
    usage: tuple[tuple[int | None, int], ...] = ()  # (token id, count), first-seen order
    failure_count: int = 0
    failures: tuple[RoundTripFailure, ...] = ()

    def merged(self, o: "EvalTally", *, max_failures: int = MAX_FAILURES) -> "EvalTally":
        usage: Counter[int | None] = Counter(dict(self.usage))
        usage.update(dict(o.usage))
        return EvalTally(
            self.sentences + o.sentences, self.tokens + o.tokens, self.unk + o.unk, self.ok + o.ok,
            self.boundaries + o.boundaries, self.inside + o.inside, self.bad + o.bad, tuple(usage.items()),
            self.failure_count + o.failure_count, (self.failures + o.failures)[:max_failures],
        )  # fmt: skip


class EvalTokenizer(Tokenizer, Trained, Protocol):
    """What the metrics row asks: the tokenizer and how it came to be (defaults: not trained here)."""


def tally(tok: Tokenizer, sentences: Sequence[str], *, max_failures: int = MAX_FAILURES,
          progress: Callable[[int, int, str], None] | None = None) -> EvalTally:
    """The counts of :func:`evaluate` for ``tok`` on ``sentences`` (empty ones skipped).

    ``progress(done, total, what)`` is called every 200 sentences and at the end (plain numbers; ``what`` is a
    :class:`core.i18n.Message`, so the page that draws it can show it in its reader's language).
    """
    sentences = [s for s in sentences if s.strip()]
    tokens = unk = ok = boundaries = inside = bad = 0
    usage: Counter[int | None] = Counter()
    failures: list[RoundTripFailure] = []
    n_fail = 0
    total = len(sentences)
    for k, s in enumerate(sentences, 1):
        if progress is not None and (k % 200 == 0 or k == total):
            progress(k, total, T_("evaluating: {done:,} of {total:,} held-out sentences", done=k, total=total))
        good, norm, decoded, enc = round_trip(tok, s)
        rep = enc.report
        tokens += len(enc.tokens)
        unk += tok.unknown_count(enc)
        boundaries += rep.total
        inside += rep.inside_grapheme
        bad += rep.bad_tokens
        usage.update(t.id for t in enc.tokens)
        if good:
            ok += 1
        else:
            n_fail += 1
            if len(failures) < max_failures:
                failures.append(RoundTripFailure(norm, decoded, failure_reason(norm, decoded), char_diff(norm, decoded)))
    return EvalTally(len(sentences), tokens, unk, ok, boundaries, inside, bad, tuple(usage.items()), n_fail,
                     tuple(failures))


def evaluate(tok: EvalTokenizer, sentences: Sequence[str], *, max_failures: int = MAX_FAILURES,
             longest: int = 10, progress: Callable[[int, int, str], None] | None = None) -> Metrics:
    """Metrics for ``tok`` on held-out ``sentences`` (see :class:`Metrics`).

    cut% and bad% are pooled over all sentences (boundaries inside a
    grapheme cluster / all boundaries; invalid-UTF-8 tokens / all tokens).
    """
    return metrics_from(tok, tally(tok, sentences, max_failures=max_failures, progress=progress), longest=longest)


def metrics_from(tok: EvalTokenizer, t: EvalTally, *, longest: int = 10) -> Metrics:
    """The :class:`Metrics` row of a (possibly merged) :class:`EvalTally`."""
    n, tokens = t.sentences, t.tokens
    usage: Counter[int | None] = Counter(dict(t.usage))
    usage.pop(None, None)
    specials = set(tok.special_ids)
    vocab = tok.vocab_size
    used = len([i for i in usage if i not in specials])
    top = tuple((tok.token_text(i), c) for i, c in usage.most_common(20) if i is not None)
    return Metrics(
        id=tok.id,
        name=tok.name,
        recipe=tok.recipe,
        vocab_requested=tok.vocab_requested,
        vocab_obtained=vocab,
        vocab_note=tok.vocab_note or "",
        sentences=n,
        tokens=tokens,
        tokens_per_sentence=tokens / n if n else 0.0,
        unk_pct=100.0 * t.unk / tokens if tokens else 0.0,
        round_trip_pct=100.0 * t.ok / n if n else 0.0,
        cut_pct=100.0 * t.inside / t.boundaries if t.boundaries else 0.0,
        bad_pct=100.0 * t.bad / tokens if tokens else 0.0,
        train_seconds=tok.train_seconds,
        failure_count=t.failure_count,
        failures=t.failures,
        usage=VocabUsage(
            counts=tuple(sorted(usage.values(), reverse=True)),
            top=top,
            used=used,
            unused=max(0, vocab - len(specials) - used),
            longest=longest_tokens(tok, longest),
        ),
    )


def longest_tokens(tok: Tokenizer, n: int = 10) -> tuple[tuple[str, int], ...]:
    """The ``n`` longest vocabulary entries (in characters, shown with spaces as ▁)."""
    specials = set(tok.special_ids)
    texts = []
    for i in range(tok.vocab_size):
        if i in specials:
            continue
        try:
            t = tok.token_text(i)
        except (ValueError, KeyError):
            continue
        texts.append(t)
    texts.sort(key=lambda t: (-len(t), t))
    return tuple((t.replace(" ", "\u2581"), len(t)) for t in texts[:n])


def zipf_points(counts: Sequence[int]) -> list[tuple[int, int]]:
    """``(rank, frequency)`` pairs, rank from 1, for a log-log plot."""
    return [(r + 1, c) for r, c in enumerate(counts)]


def zipf_slope(counts: Sequence[int]) -> float | None:
    """Least-squares slope of log(frequency) against log(rank) (about -1 for Zipf's law)."""
    pts = [(math.log(r), math.log(c)) for r, c in zipf_points(counts) if c > 0]
    if len(pts) < 3:
        return None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    return sum((x - mx) * (y - my) for x, y in pts) / sxx if sxx else None


# ---------------------------------------------------------------------------
# Save / load proof
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SaveLoadProof:
    """save -> load -> save: both files' sha256 and whether ids agree on every held-out sentence."""

    sha256_first: str
    sha256_second: str
    sentences: int
    ids_identical: bool
    first_mismatch: str | None

    @property
    def identical(self) -> bool:
        return self.sha256_first == self.sha256_second and self.ids_identical


@fence(T_("the save/reload proof"))
def save_load_proof(saved: bytes, sentences: Iterable[str]) -> SaveLoadProof:
    """Load ``saved`` (a ``tokenizer.json``), save it again, and compare files and ids.

    Ids are compared between the tokenizer built from the first file and
    the one built from the re-saved file, over every sentence.
    """
    from tokenizers import Tokenizer

    from .recipes import canonical_json, load_json_bytes, sha256_text

    first = load_json_bytes(saved)
    tok1 = Tokenizer.from_str(first.json)
    resaved = canonical_json(tok1)
    tok2 = Tokenizer.from_str(resaved)
    mismatch = None
    n = 0
    for s in sentences:  # any iterable (a streamed held-out file): every sentence is counted
        n += 1
        if mismatch is None and tok1.encode(s, add_special_tokens=False).ids != tok2.encode(s, add_special_tokens=False).ids:
            mismatch = s
    return SaveLoadProof(sha256_text(first.json), sha256_text(resaved), n, mismatch is None, mismatch)
