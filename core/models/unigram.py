"""Unigram (SentencePiece-style) encoding, shown as a lattice.

Every vocabulary piece has a score (its log-probability). For one word the
lattice holds every piece that matches a span of it; the encoding is the
path through the lattice with the highest total score (Viterbi). A
character no piece covers gets the unknown piece with the score
``min(scores) - 10``, and neighbouring unknown characters are fused into
one unknown token (or, with byte fallback, spelled as ``<0xNN>`` byte
pieces), exactly as the library that made the model does:

- Hugging Face ``tokenizers``: the minimum is over every piece; text is cut
  by its Metaspace pre-tokenizer (:class:`Metaspace`: spaces become ``▁``,
  one ``▁`` in front, a new word at each ``▁``, so ``"a  b"`` is
  ``▁a ▁ ▁b``).
- SentencePiece: the minimum is over the normal pieces only; a
  user-defined piece scores ``len(utf8) * max(normal scores) - 0.1`` so it
  always wins; scores are float32; the text first goes through the model's
  own normalizer (extra spaces removed, dummy prefix), then the whole
  sentence is one lattice.

:func:`encode` gives the library's tokens for a whole text (the parity
tests check it against both libraries).

Pieces come from a ``tokenizers`` Unigram ``tokenizer.json`` (trained here
with ``UnigramTrainer`` by :func:`train_unigram`, or uploaded) or from a
SentencePiece ``.model`` file of type Unigram.

This module does not train (training goes through the library). The
lattice of one word (:func:`lattice`, what the page draws) matches the word
as given, after spaces become ``▁``; words are limited to
:data:`MAX_WORD_CHARS` characters, with a notice. :func:`encode` has no limit.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Literal, Sequence, cast

import numpy as np

from ..i18n import T_, Message, Tn_, message_of
from ..text import limits
from ..text.errors import UserError
from ..text.native import fence

if TYPE_CHECKING:  # pragma: no cover
    from tokenizers import Tokenizer

#: Longest word (in code points) we build a lattice for; longer words are cut, with a notice.
MAX_WORD_CHARS = 200
#: The penalty below the lowest piece score given to an unknown character (as in tokenizers and SentencePiece).
UNK_PENALTY = 10.0
#: SentencePiece's whitespace symbol.
SPACE = "\u2581"
#: C's FLT_MIN: SentencePiece starts its maximum normal score here (so it is never below it).
_FLT_MIN = 1.1754943508222875e-38
_BYTE_PIECE = re.compile(r"^<0x([0-9A-F]{2})>$")


def _f32(x: float) -> float:
    return float(np.float32(x))


PrependScheme = Literal["always", "first", "never"]


@dataclass(frozen=True)
class Metaspace:
    """The options of ``tokenizers``' Metaspace pre-tokenizer (its defaults)."""

    replacement: str = SPACE
    prepend_scheme: PrependScheme = "always"
    split: bool = True

    @classmethod
    def from_spec(cls, spec: object) -> "Metaspace | None":
        """The Metaspace inside a ``tokenizer.json`` pre-tokenizer spec (also inside a Sequence), or None."""
        if not isinstance(spec, dict):
            return None
        if spec.get("type") == "Sequence":
            found = [m for m in map(cls.from_spec, spec.get("pretokenizers") or []) if m is not None]
            return found[0] if found else None
        if spec.get("type") != "Metaspace":
            return None
        scheme = spec.get("prepend_scheme")
        if scheme is None:  # files written before tokenizers 0.14
            scheme = "always" if spec.get("add_prefix_space", True) else "never"
        return cls(str(spec.get("replacement") or SPACE), cast(PrependScheme, scheme), bool(spec.get("split", True)))

    def words(self, text: str) -> list[str]:
        """``text`` cut as Metaspace cuts it: spaces become the replacement, each one starts a word.

        >>> Metaspace().words("a  b ")
        ['▁a', '▁', '▁b', '▁']
        """
        if not text:
            return []
        w = text.replace(" ", self.replacement)
        if self.prepend_scheme != "never" and not w.startswith(self.replacement):
            w = self.replacement + w
        if not self.split:
            return [w]
        out: list[str] = []
        start = 0
        for i in range(1, len(w)):
            if w[i] == self.replacement:
                out.append(w[start:i])
                start = i
        out.append(w[start:])
        return out


class UnigramError(UserError):
    """A model that cannot be used as Unigram (message names what was found).

    Its message, like a model's ``notes`` and a lattice's ``notice``, is a :class:`core.i18n.Message`: English as
    a string (the CLI), shown in the reader's language by the pages.
    """


@dataclass(frozen=True)
class UnigramModel:
    """Pieces with scores (log-probabilities) and the unknown piece's id."""

    pieces: tuple[tuple[str, float], ...]
    unk_id: int | None
    byte_fallback: bool = False
    source: str = ""
    kind: str = "tokenizers"
    notes: tuple[Message, ...] = ()
    #: ids that never match text (SentencePiece control / unused pieces).
    unmatchable: frozenset[int] = frozenset()
    #: SentencePiece user-defined pieces: they score ``len(utf8) * max_score - 0.1`` (always chosen).
    user_defined: frozenset[int] = frozenset()
    #: The pieces whose scores give :attr:`min_score` / :attr:`max_score` (None: all; SentencePiece: the normal ones).
    scored: frozenset[int] | None = None
    #: How a text is cut into words before the lattice (``tokenizers`` models; None for SentencePiece).
    metaspace: Metaspace | None = Metaspace()
    #: The serialized SentencePiece model (its normalizer runs first in :func:`encode`).
    sp_model: bytes = field(default=b"", compare=False, repr=False)
    _index: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        index: dict[str, int] = {}
        byte_ids: dict[int, int] = {}
        for i, (p, _) in enumerate(self.pieces):
            if p and i not in self.unmatchable and p not in index:
                index[p] = i
            m = _BYTE_PIECE.match(p)
            if m and int(m.group(1), 16) not in byte_ids:
                byte_ids[int(m.group(1), 16)] = i
        object.__setattr__(self, "_index", index)
        object.__setattr__(self, "_byte_ids", byte_ids)
        object.__setattr__(self, "_longest", max((len(p) for p in index), default=0))
        scores = [s for i, (_, s) in enumerate(self.pieces) if self.scored is None or i in self.scored]
        if self.kind == "sentencepiece":  # float32, and FLT_MAX / FLT_MIN as starting points, as in C++
            lo, hi = min(scores, default=3.4028234663852886e38), max(scores + [_FLT_MIN])
            object.__setattr__(self, "_min", lo)
            object.__setattr__(self, "_max", hi)
            object.__setattr__(self, "_unk", _f32(lo - UNK_PENALTY))
        else:
            lo = min(scores) if scores else 0.0
            object.__setattr__(self, "_min", lo)
            object.__setattr__(self, "_max", max(scores) if scores else 0.0)
            object.__setattr__(self, "_unk", lo - UNK_PENALTY)

    def __len__(self) -> int:
        return len(self.pieces)

    def id_of(self, piece: str) -> int | None:
        return self._index.get(piece)

    @property
    def max_piece_chars(self) -> int:
        return self._longest  # type: ignore[attr-defined]

    def byte_id(self, byte: int) -> int | None:
        """The id of the byte-fallback piece ``<0xNN>`` for ``byte``, if the model has one."""
        return self._byte_ids.get(byte)  # type: ignore[attr-defined]

    @property
    def min_score(self) -> float:
        """The lowest score among :attr:`scored` pieces (all pieces for ``tokenizers``)."""
        return self._min  # type: ignore[attr-defined]

    @property
    def max_score(self) -> float:
        """The highest score among :attr:`scored` pieces (SentencePiece: at least C's FLT_MIN)."""
        return self._max  # type: ignore[attr-defined]

    @property
    def unk_score(self) -> float:
        return self._unk  # type: ignore[attr-defined]

    def piece_score(self, pid: int) -> float:
        """The score an edge of piece ``pid`` gets in the lattice."""
        if pid in self.user_defined:
            return len(self.pieces[pid][0].encode("utf-8")) * self.max_score - 0.1
        return self.pieces[pid][1]

    def normalize(self, text: str) -> str:
        """SentencePiece's normalizer on ``text`` (spaces as ``▁``); for other models ``text`` unchanged."""
        if not self.sp_model:
            return text
        sp = self.__dict__.get("_sp")
        if sp is None:
            import sentencepiece as spm

            sp = spm.SentencePieceProcessor()
            sp.LoadFromSerializedProto(self.sp_model)
            object.__setattr__(self, "_sp", sp)
        return sp.normalize(text)

    def words(self, text: str) -> list[str]:
        """What the lattices run on: Metaspace words, or the whole normalized SentencePiece sentence."""
        if self.metaspace is not None:
            return self.metaspace.words(text)
        normalized = self.normalize(text)
        return [normalized] if normalized else []

    @property
    def unk_piece(self) -> str | None:
        return None if self.unk_id is None else self.pieces[self.unk_id][0]


# ---------------------------------------------------------------- loading


def load_tokenizer_json(text: str, *, source: str = "tokenizer.json") -> UnigramModel:
    """The Unigram model inside a Hugging Face ``tokenizer.json``."""
    try:
        data = limits.read_json(text, source)
    except limits.JsonSyntaxError as exc:
        raise UnigramError(T_("{source} is not valid JSON ({reason} at line {line})", source=source, reason=exc.reason,
                              line=exc.lineno)) from None
    except limits.LimitError as exc:
        raise UnigramError(message_of(exc)) from None
    model = data.get("model") if isinstance(data, dict) else None
    if not isinstance(model, dict):
        raise UnigramError(T_("{source} has no 'model' section: it is not a Hugging Face tokenizer.json",
                              source=source))
    mtype = model.get("type") or ("BPE" if "merges" in model else "WordPiece" if isinstance(model.get("vocab"), dict) else None)
    if mtype != "Unigram":
        raise UnigramError(T_("{source} holds a {model} model, not Unigram", source=source,
                              model=str(mtype) if mtype else T_("unknown")))
    vocab = model.get("vocab")
    if not isinstance(vocab, list) or not vocab:
        raise UnigramError(T_("the Unigram vocabulary in {source} is empty", source=source))
    try:
        pieces = tuple((str(p), float(s)) for p, s in vocab)
    except (TypeError, ValueError):
        raise UnigramError(T_("{source}: the Unigram vocab must be a list of [piece, score] pairs",
                              source=source)) from None
    _check_scores(pieces, source)
    unk_id = model.get("unk_id")
    if unk_id is not None and (isinstance(unk_id, bool) or not isinstance(unk_id, int)):
        raise UnigramError(T_("{source}: unk_id {id} is not a whole number", source=source, id=repr(unk_id)[:40]))
    if unk_id is not None and not (0 <= unk_id < len(pieces)):
        raise UnigramError(T_("{source}: unk_id {id} is outside the vocabulary of {count} pieces", source=source,
                              id=str(unk_id), count=len(pieces)))
    notes = [] if unk_id is not None else [T_("this model has no unknown piece: text it cannot cover is an error")]
    for stage in ("normalizer", "pre_tokenizer"):
        spec = data.get(stage)
        if isinstance(spec, dict) and spec.get("type") not in (None, "Metaspace"):
            kind = str(spec.get("type"))
            notes.append(T_("this tokenizer's normalizer ({type}) runs first in the full pipeline; the lattice uses "
                            "your word as typed (spaces become ▁)", type=kind) if stage == "normalizer" else
                         T_("this tokenizer's pre-tokenizer ({type}) runs first in the full pipeline; the lattice uses "
                            "your word as typed (spaces become ▁)", type=kind))
    spec = data.get("pre_tokenizer")
    # no pre-tokenizer: the whole text is one lattice, spaces as they are (as tokenizers runs it)
    metaspace = None if spec is None else Metaspace.from_spec(spec) or Metaspace()
    return UnigramModel(pieces, unk_id, bool(model.get("byte_fallback")), source, "tokenizers", tuple(notes),
                        metaspace=metaspace)


def _check_scores(pieces: Sequence[tuple[str, float]], source: str) -> None:
    """Refuse a score that is not a finite number (NaN or infinite: no path through the lattice could be compared)."""
    bad = next((i for i, (_p, s) in enumerate(pieces) if not math.isfinite(s)), None)
    if bad is not None:
        raise UnigramError(T_("{source}: piece {id} has the score {score}; scores must be finite numbers",
                              source=source, id=bad, score=str(pieces[bad][1])))


_SP_TYPES = {1: "Unigram", 2: "BPE", 3: "Word", 4: "Char"}


def load_sentencepiece(data: bytes, *, source: str = "tokenizer.model") -> UnigramModel:
    """A SentencePiece ``.model`` of type Unigram (its normal and user-defined pieces match text)."""
    if not data:
        raise UnigramError(T_("{name} is empty", name=source))
    try:
        from sentencepiece import sentencepiece_model_pb2 as pb
    except ImportError as exc:  # pragma: no cover - depends on protobuf being installed
        raise UnigramError(T_("reading .model files needs the protobuf package ({reason})", reason=str(exc))) from None
    proto = pb.ModelProto()
    try:
        proto.ParseFromString(data)
    except Exception:  # noqa: BLE001 - protobuf's DecodeError and its runtime's own errors
        raise UnigramError(T_("{source} is not a SentencePiece model (it does not parse as one)",
                              source=source)) from None
    if not proto.pieces:
        raise UnigramError(T_("{source} is not a SentencePiece model (it has no pieces)", source=source))
    mtype = _SP_TYPES.get(proto.trainer_spec.model_type, f"type {proto.trainer_spec.model_type}")
    if mtype != "Unigram":
        raise UnigramError(T_("{source} is a SentencePiece {model} model, not Unigram", source=source, model=mtype))
    # piece types: 1 NORMAL, 2 UNKNOWN, 3 CONTROL, 4 USER_DEFINED, 5 UNUSED, 6 BYTE
    pieces, unk_id, unmatchable, user, normal = [], None, set(), set(), set()
    for i, p in enumerate(proto.pieces):
        pieces.append((p.piece, float(p.score)))
        if p.type == 2 and unk_id is None:
            unk_id = i
        if p.type in (2, 3, 5, 6):
            unmatchable.add(i)
        if p.type == 4:
            user.add(i)
        if p.type == 1:
            normal.add(i)
    _check_scores(pieces, source)
    notes = []
    if proto.normalizer_spec.name and proto.normalizer_spec.name != "identity":
        notes.append(T_("SentencePiece normalizes with '{rule}' first; the lattice uses your text as typed",
                        rule=proto.normalizer_spec.name))
    if user:
        notes.append(Tn_("{count} user-defined piece scores `len(bytes)` × the best normal score − 0.1, so it always "
                         "wins where it matches",
                         "{count} user-defined pieces score `len(bytes)` × the best normal score − 0.1, so they always "
                         "win where they match", len(user), count=len(user)))
    return UnigramModel(tuple(pieces), unk_id, bool(proto.trainer_spec.byte_fallback), source, "sentencepiece",
                        tuple(notes), frozenset(unmatchable), frozenset(user), frozenset(normal), None, data)


def load_bytes(data: bytes, filename: str) -> UnigramModel:
    """An uploaded file: ``tokenizer.json`` (text) or SentencePiece ``.model`` (binary)."""
    if not data:
        raise UnigramError(T_("{name} is empty", name=filename))
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if head == b"{":
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise UnigramError(T_("{name} starts like JSON but is not UTF-8", name=filename)) from None
        return load_tokenizer_json(text, source=filename)
    if b"\x00" not in data[:4096] and not filename.endswith(".model"):
        raise UnigramError(T_("{name} is a text file but not a tokenizer.json (maybe a vocab.txt, which has no "
                              "scores)", name=filename))
    return load_sentencepiece(data, source=filename)


@fence(T_("Unigram training"))
def train_unigram(lines: Iterable[str], *, vocab_size: int = 400, unk_token: str = "<unk>") -> UnigramModel:
    """Train with Hugging Face's ``UnigramTrainer`` (Metaspace pre-tokenizer, no normalizer)."""
    tok = _train_tokenizer(list(lines), vocab_size, unk_token)
    return load_tokenizer_json(tok.to_str(), source=f"UnigramTrainer (vocab_size={vocab_size})")


def _train_tokenizer(lines: list[str], vocab_size: int, unk_token: str) -> Tokenizer:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tok = Tokenizer(models.Unigram())
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    trainer = trainers.UnigramTrainer(vocab_size=vocab_size, special_tokens=[unk_token], unk_token=unk_token,
                                      show_progress=False)
    tok.train_from_iterator(lines, trainer=trainer)
    return tok


def library_tokenizer(model: UnigramModel) -> Tokenizer:
    """The same pieces as a real ``tokenizers`` Unigram tokenizer with the Metaspace pre-tokenizer."""
    from tokenizers import Tokenizer, models, pre_tokenizers

    ms = model.metaspace or Metaspace()
    tok = Tokenizer(models.Unigram(list(model.pieces), model.unk_id, model.byte_fallback))
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement=ms.replacement, prepend_scheme=ms.prepend_scheme,
                                                 split=ms.split)
    return tok


# ---------------------------------------------------------------- the lattice


@dataclass(frozen=True)
class Edge:
    """One lattice edge: ``piece`` covers characters ``[start, end)`` with ``score`` (log-probability)."""

    start: int
    end: int
    piece: str
    id: int | None
    score: float
    unk: bool = False


@dataclass(frozen=True)
class Segmentation:
    """A path through the lattice and its total score."""

    edges: tuple[Edge, ...]
    score: float

    @property
    def pieces(self) -> tuple[str, ...]:
        return tuple(e.piece for e in self.edges)


@dataclass(frozen=True)
class Lattice:
    """Everything the Unigram page draws for one word.

    ``word`` is what was matched (spaces as ``▁``, cut to the limit);
    ``best`` is the Viterbi path; ``top`` holds the best ``k`` paths, best first.
    ``tokens`` are the final ``(text, id)`` pairs after fusing unknown characters.
    """

    word: str
    edges: tuple[Edge, ...]
    best: Segmentation
    top: tuple[Segmentation, ...]
    tokens: tuple[tuple[str, int | None], ...]
    truncated: bool = False
    original_length: int = 0
    notice: Message | str = ""


def as_word(text: str, *, add_prefix_space: bool = True) -> str:
    """Spaces become ``▁`` and (by default) one ``▁`` goes in front, as Metaspace does."""
    w = text.replace(" ", SPACE)
    return SPACE + w if add_prefix_space and not w.startswith(SPACE) else w


def edges_of(word: str, model: UnigramModel) -> list[Edge]:
    """Every piece matching a span of ``word``, plus one unknown edge per uncovered character.

    Edges are ordered by start, then by length (shortest first).
    """
    out: list[Edge] = []
    n = len(word)
    longest = model.max_piece_chars
    for i in range(n):
        single = False
        for j in range(i + 1, min(n, i + longest) + 1):
            pid = model.id_of(word[i:j])
            if pid is not None:
                out.append(Edge(i, j, word[i:j], pid, model.piece_score(pid)))
                single = single or j == i + 1
        if not single:
            out.append(Edge(i, i + 1, word[i], model.unk_id, model.unk_score, True))
    return out


def viterbi(word: str, model: UnigramModel, edges: Sequence[Edge] | None = None) -> Segmentation:
    """The highest-scoring path. Ties go to the path found first (earlier start), as in ``tokenizers``."""
    if not word:
        return Segmentation((), 0.0)
    edges = edges_of(word, model) if edges is None else edges
    n = len(word)
    best_score: list[float | None] = [None] * (n + 1)
    best_edge: list[Edge | None] = [None] * (n + 1)
    best_score[0] = 0.0
    f32 = model.kind == "sentencepiece"
    for e in edges:  # ordered by start, so best_score[e.start] is final here
        base = best_score[e.start]
        if base is None:
            continue
        cand = e.score + base
        # subtle: SentencePiece adds float32 scores in float32, but a user-defined score is a double,
        # compared as a double; the path score is kept as float32 either way.
        compared = cand if not f32 or e.id in model.user_defined else _f32(cand)
        prev = best_score[e.end]
        if prev is None or compared > prev:
            best_score[e.end], best_edge[e.end] = (_f32(cand) if f32 else cand), e
    path: list[Edge] = []
    pos = n
    while pos > 0:
        edge = best_edge[pos]
        assert edge is not None  # every character has at least an unknown edge
        path.append(edge)
        pos = edge.start
    return Segmentation(tuple(reversed(path)), best_score[n] or 0.0)


def top_k(word: str, model: UnigramModel, k: int = 5, edges: Sequence[Edge] | None = None) -> tuple[Segmentation, ...]:
    """The ``k`` highest-scoring segmentations, best first (exact k-best dynamic programming)."""
    edges = edges_of(word, model) if edges is None else edges
    n = len(word)
    if n == 0:
        return (Segmentation((), 0.0),)
    by_end: dict[int, list[Edge]] = {}
    for e in edges:
        by_end.setdefault(e.end, []).append(e)
    tops: list[list[tuple[float, tuple[Edge, ...]]]] = [[] for _ in range(n + 1)]
    tops[0] = [(0.0, ())]
    for j in range(1, n + 1):
        cands = [(e.score + s, path + (e,)) for e in by_end.get(j, ()) for s, path in tops[e.start]]
        cands.sort(key=lambda c: -c[0])  # stable: earlier-found paths first among equals
        tops[j] = cands[:k]
    return tuple(Segmentation(p, s) for s, p in tops[n])


def final_tokens(seg: Segmentation, model: UnigramModel) -> tuple[tuple[str, int | None], ...]:
    """Tokens after fusing neighbouring unknown characters (and byte fallback if the model has it)."""
    out: list[tuple[str, int | None]] = []
    pending = ""
    for e in list(seg.edges) + [None]:
        if e is not None and e.unk:
            pending += e.piece
            continue
        if pending:
            byte_ids = [model.byte_id(b) for b in pending.encode("utf-8")] if model.byte_fallback else []
            if byte_ids and all(i is not None for i in byte_ids):
                out.extend((f"<0x{b:02X}>", i) for b, i in zip(pending.encode("utf-8"), byte_ids))
            else:
                out.append((pending, model.unk_id))
            pending = ""
        if e is not None:
            out.append((e.piece, e.id))
    return tuple(out)


def lattice(text: str, model: UnigramModel, *, k: int = 5, add_prefix_space: bool = True,
            max_chars: int = MAX_WORD_CHARS) -> Lattice:
    """Build the lattice, best path and top ``k`` for one word (spaces become ``▁``).

    Words longer than ``max_chars`` are cut to ``max_chars`` characters and the
    :attr:`Lattice.notice` says so.

    Raises :class:`UnigramError` if a character cannot be covered and the model
    has no unknown piece.
    """
    word = as_word(text, add_prefix_space=add_prefix_space) if text else ""
    original = len(word)
    notice = ""
    if original > max_chars:
        word = word[:max_chars]
        notice = T_("The word has {count} characters; the lattice is limited to the first {limit} ({left} left out).",
                    count=original, limit=max_chars, left=original - max_chars)
    edges = edges_of(word, model)
    if model.unk_id is None:
        bad = [e for e in edges if e.unk]
        if bad:
            raise _no_piece(word[bad[0].start])
    best = viterbi(word, model, edges)
    others = [s for s in top_k(word, model, k, edges) if s.edges != best.edges]
    top = (best,) + tuple(others[: k - 1])
    return Lattice(word, tuple(edges), best, top, final_tokens(best, model), bool(notice), original, notice)


def _no_piece(char: str) -> UnigramError:
    return UnigramError(T_("{char} matches no piece and this model has no unknown piece", char=repr(char)))


def display_words(text: str, model: UnigramModel) -> list[str]:
    """The words :func:`encode_words` draws one lattice each for.

    ``tokenizers`` models: the Metaspace words. SentencePiece: the
    normalized sentence cut before each ``▁``, when no piece can span a
    ``▁`` (else the whole sentence, one lattice).
    """
    words = model.words(text)
    if model.metaspace is not None or not words:
        return words
    if any(SPACE in p[1:] for p in model._index):  # noqa: SLF001 - a piece may cross a word start
        return words
    return Metaspace(prepend_scheme="never").words(words[0])


def encode_words(text: str, model: UnigramModel, **kw: Any) -> list[Lattice]:
    """One lattice per word as the model cuts the text (see :func:`display_words`; words keep their ``▁``)."""
    kw.setdefault("add_prefix_space", False)
    return [lattice(w, model, **kw) for w in display_words(text, model)]


def encode(text: str, model: UnigramModel) -> tuple[tuple[str, int | None], ...]:
    """The tokens ``(piece, id)`` the library gives for ``text`` (no length limit, no lattice kept).

    Raises :class:`UnigramError` when text cannot be covered and the model has no unknown piece.

    >>> m = UnigramModel((("<unk>", 0.0), ("▁a", -1.0), ("▁", -2.0), ("▁b", -1.0)), 0)
    >>> [p for p, _ in encode("a  b", m)]
    ['▁a', '▁', '▁b']
    """
    out: list[tuple[str, int | None]] = []
    for w in model.words(text):
        edges = edges_of(w, model)
        if model.unk_id is None and any(e.unk for e in edges):
            bad = next(e for e in edges if e.unk)
            raise _no_piece(w[bad.start])
        out.extend(final_tokens(viterbi(w, model, edges), model))
    return tuple(out)
