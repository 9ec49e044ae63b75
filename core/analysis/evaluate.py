"""Honest evaluation of tokenizers: held-out split, metrics, round trip, save/load proof, special tokens.

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
- :func:`injection_check`: does text that spells "[SEP]", "<|endoftext|>",
  "<s>" become a control id (Hugging Face ``tokenizers``, ``tiktoken``, and
  the :mod:`core.pretrained.adapter` tokenizers)?
- :func:`round_trip_suite`: built-in hard cases (ZWJ/ZWNJ, ৎ, emoji, URLs,
  Persian, Uzbek, odd whitespace, CRLF).

A tokenizer here is anything with ``encode``/``decode``/``unknown_count``/
``normalize``/``token_text``/``vocab_size`` (:class:`core.analysis.recipes.TrainedTokenizer`,
:class:`core.analysis.recipes.VocabBaseline`, :class:`ZooCandidate`). Nothing here
trains, prints or touches the network.
"""
from __future__ import annotations

import math
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Literal, Protocol, Sequence

from ..i18n import N_, T_, Tn_
from ..text.align import opcodes
from ..text.native import fence
from ..tokens import Encoding, Token

#: Fixed seed for the train/held-out split.
SPLIT_SEED = 13
HELDOUT_FRACTION = 0.1
#: Lines per group when a corpus has no blank-line-separated documents.
LINE_GROUP = 20
#: How many round-trip failures each row keeps.
MAX_FAILURES = 10


class EvalError(ValueError):
    """Input that cannot be evaluated as asked (corpus too small to split, too large)."""


class Candidate(Protocol):
    """What evaluation needs from a tokenizer."""

    id: str
    name: str

    @property
    def vocab_size(self) -> int: ...

    def encode(self, text: str) -> Encoding: ...

    def decode(self, tokens: Sequence[Token]) -> str: ...

    def unknown_count(self, enc: Encoding) -> int: ...

    def normalize(self, text: str) -> str: ...

    def token_text(self, token_id: int) -> str: ...


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
# Round trip
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DiffPart:
    """One stretch of a character diff: ``op`` is equal, delete, insert or replace."""

    op: Literal["equal", "delete", "insert", "replace"]
    original: str
    decoded: str


@dataclass(frozen=True)
class RoundTripFailure:
    """A sentence whose decoded form differs from its (normalized) original."""

    original: str
    decoded: str
    reason: str
    diff: tuple[DiffPart, ...]


def char_diff(original: str, decoded: str) -> tuple[DiffPart, ...]:
    """Character-level diff of ``original`` against ``decoded``.

    Bounded (:func:`core.text.align.opcodes`): a changed stretch too long to
    align exactly comes back as one ``replace`` part, still a correct diff.
    """
    return tuple(DiffPart(op, original[i1:i2], decoded[j1:j2]) for op, i1, i2, j1, j2 in opcodes(original, decoded).opcodes)


def failure_reason(original: str, decoded: str) -> str:
    """Why a round trip failed, in words (a :class:`core.i18n.Message`: English in data, translated where shown)."""
    if "[UNK]" in decoded and "[UNK]" not in original:
        return T_("unknown token: [UNK] replaced text the tokenizer had never seen")
    if "\ufffd" in decoded and "\ufffd" not in original:
        return T_("bytes lost: decoding produced U+FFFD")
    if decoded.split() == original.split():
        return T_("whitespace changed: spaces, tabs or line breaks are not kept")
    if re.sub(r"\s+", "", decoded) == re.sub(r"\s+", "", original):
        return T_("spacing changed around punctuation: the pre-tokenizer split it off and the decoder joined with "
                  "spaces")
    return T_("text changed")


@fence(T_("the round trip"))
def round_trip(tok: Candidate, text: str) -> tuple[bool, str, str, Encoding]:
    """``(ok, normalized, decoded, encoding)`` for decode(encode(norm(text))) == norm(text)."""
    norm = tok.normalize(text)
    enc = tok.encode(norm)
    decoded = tok.decode(enc.tokens)
    return decoded == norm, norm, decoded, enc


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


def tally(tok: Candidate, sentences: Sequence[str], *, max_failures: int = MAX_FAILURES,
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


def evaluate(tok: Candidate, sentences: Sequence[str], *, max_failures: int = MAX_FAILURES,
             longest: int = 10, progress: Callable[[int, int, str], None] | None = None) -> Metrics:
    """Metrics for ``tok`` on held-out ``sentences`` (see :class:`Metrics`).

    cut% and bad% are pooled over all sentences (boundaries inside a
    grapheme cluster / all boundaries; invalid-UTF-8 tokens / all tokens).
    """
    return metrics_from(tok, tally(tok, sentences, max_failures=max_failures, progress=progress), longest=longest)


def metrics_from(tok: Candidate, t: EvalTally, *, longest: int = 10) -> Metrics:
    """The :class:`Metrics` row of a (possibly merged) :class:`EvalTally`."""
    n, tokens = t.sentences, t.tokens
    usage: Counter[int | None] = Counter(dict(t.usage))
    usage.pop(None, None)
    specials = set(getattr(tok, "special_ids", ()) or ())
    vocab = tok.vocab_size
    used = len([i for i in usage if i not in specials])
    top = tuple((tok.token_text(i), c) for i, c in usage.most_common(20) if i is not None)
    return Metrics(
        id=tok.id,
        name=tok.name,
        recipe=getattr(tok, "recipe", None),
        vocab_requested=getattr(tok, "vocab_requested", None),
        vocab_obtained=vocab,
        vocab_note=getattr(tok, "vocab_note", "") or "",
        sentences=n,
        tokens=tokens,
        tokens_per_sentence=tokens / n if n else 0.0,
        unk_pct=100.0 * t.unk / tokens if tokens else 0.0,
        round_trip_pct=100.0 * t.ok / n if n else 0.0,
        cut_pct=100.0 * t.inside / t.boundaries if t.boundaries else 0.0,
        bad_pct=100.0 * t.bad / tokens if tokens else 0.0,
        train_seconds=getattr(tok, "train_seconds", None),
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


def longest_tokens(tok: Candidate, n: int = 10) -> tuple[tuple[str, int], ...]:
    """The ``n`` longest vocabulary entries (in characters, shown with spaces as ▁)."""
    vocab_ids = getattr(tok, "vocab", None)
    ids = list(vocab_ids.values()) if isinstance(vocab_ids, dict) else range(tok.vocab_size)
    specials = set(getattr(tok, "special_ids", ()) or ())
    texts = []
    for i in ids:
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


# ---------------------------------------------------------------------------
# Special tokens typed by a user
# ---------------------------------------------------------------------------

#: Control-token spellings a user might type (BERT, GPT, Llama/Mistral, chat templates).
INJECTION_PROBES: tuple[str, ...] = (
    "[SEP]", "[CLS]", "[PAD]", "[UNK]", "[MASK]", "<|endoftext|>", "<s>", "</s>", "<unk>", "<pad>",
    "[INST]", "<|eot_id|>", "<|begin_of_text|>", "<|im_start|>",
)  # fmt: skip

Outcome = Literal["control", "refused", "text"]
#: How the report and the special tokens page name each outcome (shown with ``_()``; the CLI's JSON keeps the tag).
OUTCOME_LABELS: dict[str, str] = {"control": N_("⚠ became a control id"), "refused": N_("⛔ refused (error)"),
                                  "text": N_("✓ stayed text")}
#: The probe modes that are words rather than code (``allowed_special="all"`` stays as it is): shown with ``_()``.
MODE_LABELS = (N_("library default"), N_("library default (encode)"), N_("default"), N_("built in"))


@dataclass(frozen=True)
class InjectionResult:
    """How one tokenizer, in one mode, treats text that spells control tokens.

    ``outcome``: "control" (the text became control ids: injection risk),
    "refused" (the library raised instead of encoding), or "text" (encoded
    as ordinary text). ``controls`` lists the ``(spelling, id)`` pairs made.
    """

    tokenizer: str
    mode: str
    outcome: Outcome
    controls: tuple[tuple[str, int], ...]
    ids: tuple[int, ...]
    detail: str

    @property
    def risk(self) -> bool:
        return self.outcome == "control"


def _hf_specials(tok) -> dict[int, str]:  # noqa: ANN001 - tokenizers.Tokenizer
    return {i: a.content for i, a in tok.get_added_tokens_decoder().items() if a.special}


def _judge(name: str, mode: str, run, specials: dict[int, str]):  # noqa: ANN001, ANN202
    """A checker: ``run(text)`` gives ``(id, surface)`` pairs, surface = the input text the token covers.

    A special id counts as a control token made from user text only when
    its surface spells that token (an [UNK] for an unseen letter is not).
    """

    def check(text: str) -> InjectionResult:
        try:
            pairs = run(text)
        except ValueError as exc:
            return InjectionResult(name, mode, "refused", (), (), str(exc).splitlines()[0][:200])
        ids = tuple(i for i, _ in pairs)
        controls = tuple((specials[i], i) for i, surf in pairs if i in specials and (surf is None or surf == specials[i]))
        if controls:
            detail = Tn_("became a control id: {ids}", "became control ids: {ids}", len(controls),
                         ids=", ".join(f"{s} = {i}" for s, i in controls))
            return InjectionResult(name, mode, "control", controls, ids, detail)
        return InjectionResult(name, mode, "text", (), ids, Tn_("encoded as {count} ordinary token",
                                                                "encoded as {count} ordinary tokens", len(ids),
                                                                count=len(ids)))

    return check


def _hf_run(t):  # noqa: ANN001, ANN202 - tokenizers.Tokenizer
    def run(text: str) -> list[tuple[int, str | None]]:
        enc = t.encode(text, add_special_tokens=False)
        return [(i, text[s:e]) for i, (s, e) in zip(enc.ids, enc.offsets)]

    return run


def injection_checkers(tok: Any, name: str | None = None) -> list:
    """One checker per mode (each: ``text -> InjectionResult``) for ``tok``.

    Understands ``tokenizers.Tokenizer``, ``tiktoken.Encoding``,
    :class:`core.analysis.recipes.TrainedTokenizer` and the :mod:`core.pretrained.adapter`
    tokenizers. tiktoken's ``encode`` refuses special-token text by default;
    ``allowed_special="all"`` is what an unsafe app does.
    """
    from tokenizers import Tokenizer

    from .recipes import TrainedTokenizer, VocabBaseline

    if isinstance(tok, TrainedTokenizer):
        return injection_checkers(tok.hf, name or tok.name)
    if isinstance(tok, VocabBaseline):
        return [_judge(name or tok.name, "built in", lambda t: [(x.id, None) for x in tok.encode(t).tokens], {})]
    if isinstance(tok, Tokenizer):
        label = name or "tokenizer.json"
        specials = _hf_specials(tok)
        checkers = []
        for mode, flag in (("library default", False), ("encode_special_tokens=True", True)):
            t = Tokenizer.from_str(tok.to_str())
            t.encode_special_tokens = flag
            checkers.append(_judge(label, mode, _hf_run(t), specials))
        return checkers
    try:
        import tiktoken
    except ImportError:  # pragma: no cover - pinned dependency
        tiktoken = None
    if tiktoken is not None and isinstance(tok, tiktoken.Encoding):
        label = name or tok.name
        specials = {tok.encode_single_token(s): s for s in tok.special_tokens_set}
        def pairs(ids: list[int]) -> list[tuple[int, str | None]]:
            return [(i, None) for i in ids]  # tiktoken has no unknown token: a special id came from its spelling

        return [
            _judge(label, "library default (encode)", lambda text: pairs(tok.encode(text)), specials),
            _judge(label, 'allowed_special="all"', lambda text: pairs(tok.encode(text, allowed_special="all")), specials),
            _judge(label, "encode_ordinary", lambda text: pairs(tok.encode_ordinary(text)), specials),
        ]
    from ..pretrained.adapter import PretrainedTokenizer
    from ..pretrained.hf_adapter import HFTokenizer
    from ..pretrained.tiktoken_adapter import TiktokenTokenizer

    if isinstance(tok, TiktokenTokenizer):
        return injection_checkers(tok.engine, name or tok.name)
    if isinstance(tok, HFTokenizer):
        return injection_checkers(Tokenizer.from_str(tok._json), name or tok.name)  # noqa: SLF001 - same package
    if isinstance(tok, PretrainedTokenizer):
        specials = {i: s for s, i in tok.specials.items()}
        label = name or tok.name

        def run(text: str, allow: bool) -> list[tuple[int, str | None]]:
            enc = tok.encode(text, allow_special=allow)
            return [(t.id, text[t.start : t.end]) for t in enc.tokens]

        return [
            _judge(label, "default", lambda text: run(text, False), specials),
            _judge(label, "allow_special=True", lambda text: run(text, True), specials),
        ]
    raise TypeError(T_("cannot check special tokens of {type}", type=type(tok).__name__))


@fence(T_("the injection check"))
def injection_check(tok: Any, text: str, name: str | None = None) -> list[InjectionResult]:
    """How ``tok`` treats ``text`` in each of its modes (see :func:`injection_checkers`).

    >>> import tiktoken
    >>> enc = tiktoken.Encoding("toy", pat_str=r"\\S+|\\s+", mergeable_ranks={bytes([b]): b for b in range(256)},
    ...                         special_tokens={"<|endoftext|>": 256})
    >>> [(r.mode, r.outcome) for r in injection_check(enc, "hi <|endoftext|>")]
    [('library default (encode)', 'refused'), ('allowed_special="all"', 'control'), ('encode_ordinary', 'text')]
    """
    return [check(text) for check in injection_checkers(tok, name)]


# ---------------------------------------------------------------------------
# Padding a batch (Hugging Face tokenizers)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PaddedBatch:
    """A batch of sentences padded to one length, with its attention mask."""

    tokens: tuple[tuple[str, ...], ...]
    ids: tuple[tuple[int, ...], ...]
    attention_mask: tuple[tuple[int, ...], ...]
    pad_token: str
    pad_id: int


@fence(T_("padding"))
def pad_batch(tok: Any, sentences: Sequence[str], *, pad_token: str = "[PAD]") -> PaddedBatch:
    """Encode ``sentences`` together, padded on the right with ``pad_token`` (HF ``tokenizers``)."""
    from tokenizers import Tokenizer

    from .recipes import TrainedTokenizer

    base = tok.hf if isinstance(tok, TrainedTokenizer) else tok
    if not isinstance(base, Tokenizer):
        raise TypeError(T_("padding is shown for Hugging Face tokenizers only"))
    t = Tokenizer.from_str(base.to_str())
    t.encode_special_tokens = True
    pad_id = t.token_to_id(pad_token)
    if pad_id is None:
        raise EvalError(T_("this tokenizer has no {token} token", token=pad_token))
    t.enable_padding(pad_id=pad_id, pad_token=pad_token)
    encs = t.encode_batch(list(sentences), add_special_tokens=False)
    return PaddedBatch(
        tuple(tuple(e.tokens) for e in encs),
        tuple(tuple(e.ids) for e in encs),
        tuple(tuple(e.attention_mask) for e in encs),
        pad_token,
        pad_id,
    )


# ---------------------------------------------------------------------------
# Round-trip suite over hard cases
# ---------------------------------------------------------------------------

#: ``(name, text)`` cases that break careless tokenizers.
#: The names are English (the CLI's JSON keeps them) and marked for the catalogs: a page shows ``_(name)``.
HARD_CASES: tuple[tuple[str, str], ...] = (
    (N_("Bangla sentence"), "বাজারঘরের অর্ডার আগামীকাল বিকেলে রাজশাহী পৌঁছাবে।"),
    (N_("Bangla with ZWNJ (র‌্যাব)"), "র\u200c্যাব"),
    (N_("Bangla with ZWJ (র‍্যা)"), "র\u200d্যা"),
    (N_("ৎ as one letter"), "উৎসব হঠাৎ"),
    (N_("ৎ as ত + virama + ZWJ"), "উত\u09cd\u200dসব"),
    (N_("য় precomposed (U+09DF)"), "\u09dfাত্রা"),
    (N_("Latin with accents"), "Café naïve résumé"),
    (N_("Digits, Bangla and ASCII"), "০১২৩৪৫৬৭৮৯ 0123456789 ৳১,২৫০.৫০"),
    (N_("Emoji sequences"), "👩🏽‍💻 👨‍👩‍👧 🇧🇩 ❤️"),
    (N_("URL and e-mail"), "https://example.org/path?q=বাজার&x=1 support@example.com"),
    (N_("Persian with ZWNJ"), "می\u200cخواهم کتاب\u200cها را بخوانم."),
    (N_("Uzbek with ʻ ʼ"), "Oʻzbekiston gʻalaba maʼno"),
    (N_("Leading and trailing spaces"), "  বাজার ঘর  "),
    (N_("Multiple spaces"), "বাজার    ঘর"),
    (N_("Tabs"), "নাম\tদাম\tপরিমাণ"),
    (N_("CRLF line breaks"), "প্রথম লাইন\r\nদ্বিতীয় লাইন\r\n"),
    (N_("Special-token spelling"), "hello [SEP] <|endoftext|> <s>"),
)


@dataclass(frozen=True)
class SuiteResult:
    """One tokenizer on one case."""

    case: str
    text: str
    ok: bool
    decoded: str
    normalized: str
    reason: str
    diff: tuple[DiffPart, ...]


def round_trip_suite(tok: Candidate, cases: Sequence[tuple[str, str]] = HARD_CASES) -> list[SuiteResult]:
    """decode(encode(norm(text))) == norm(text) for each case."""
    out = []
    for name, text in cases:
        good, norm, decoded, _ = round_trip(tok, text)
        out.append(SuiteResult(name, text, good, decoded, norm, "" if good else failure_reason(norm, decoded),
                               () if good else char_diff(norm, decoded)))
    return out


# ---------------------------------------------------------------------------
# Pretrained tokenizers as candidates
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ZooCandidate:
    """A :mod:`core.pretrained.adapter` tokenizer for evaluation (no normalization applied before the check)."""

    tok: Any

    @property
    def id(self) -> str:
        return self.tok.id

    @property
    def name(self) -> str:
        return self.tok.name

    @property
    def vocab_size(self) -> int:
        return self.tok.vocab_size

    @property
    def special_ids(self) -> frozenset[int]:
        return self.tok.special_ids

    def normalize(self, text: str) -> str:
        return text

    def encode(self, text: str) -> Encoding:
        return self.tok.encode(text)

    def decode(self, tokens: Sequence[Token]) -> str:
        return self.tok.decode(tokens)

    def unknown_count(self, enc: Encoding) -> int:
        return self.tok.unknown_count(enc)

    def token_text(self, token_id: int) -> str:
        return self.tok.token_text(token_id)
