"""Merge replay for pretrained BPE: every merge, in the library's own order.

Three engines, each replayed as its library runs it; the final ids must
equal the library's own encode, and :func:`replay` returns both so callers
(tests, the page, the CLI) can check.

- A tiktoken ranks table (cl100k, o200k, Qwen, Whisper, ...): the text is
  split with the tokenizer's own pre-tokenizer regex, as tiktoken's regex
  engine runs it (its Unicode tables, not Unicode 17.0: see
  :func:`core.pipeline.pretokenize.engine_split`; every character where the
  two differ comes back as a note at its piece); each piece starts as single
  bytes and :func:`core.models.bpe.encode_trace` applies tiktoken's loop
  (merge the leftmost adjacent pair with the lowest rank, repeat). tiktoken
  looks a whole piece up in the vocabulary before merging; when the piece is
  a vocabulary entry the result is that one token, the trace still shows the
  merges, and ``direct`` marks the shortcut.
- A ``tokenizers`` BPE (``tokenizer.json``: DeepSeek-V3, Claude, the GGUF
  byte-level files, Gemma 4, CLIP, BPE trained on the Train page): the text
  is cut at the non-special added tokens (leftmost longest), then normalized
  and split by the library's own normalizer and pre-tokenizer objects; each
  piece starts as its characters (byte-level alphabet characters, ``</w>``
  on the last one, byte-fallback ``<0xXX>`` pieces for a character outside
  the vocabulary) and the pair with the lowest merge-list rank merges first,
  leftmost on a tie, as ``tokenizers``' BPE ``merge_all`` does.
- A SentencePiece BPE ``.model`` (Llama 2, Baichuan, Mistral v1/v3): the
  library normalizes the text (dummy ``▁`` prefix, spaces as ``▁``); the
  whole text starts as characters (user-defined pieces stay whole) and the
  adjacent pair whose joined piece has the highest score merges first,
  leftmost on a tie, as ``bpe_model.cc`` does; pieces outside the vocabulary
  then fall back to ``<0xXX>`` bytes.

Unigram and WordPiece models do not merge pairs: :func:`replay` refuses them
(:func:`offered` says which entries the page lists). This module does not
render: pages show the returned steps.
"""
from __future__ import annotations

import json
import threading
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import regex

from ..i18n import T_
from ..models.bpe import BpeTrace, EncodeStep, EncodeTrace, encode_trace, tiktoken_rank_of
from ..pipeline.pretokenize import EngineNote, Pattern, engine_split, pretokenize
from ..text.errors import UserError
from ..text.units import bytelevel_bytes
from .adapter import PretrainedTokenizer, SentencePieceReplay, TiktokenReplay, TokenizersReplay, check_text

if TYPE_CHECKING:  # pragma: no cover
    from .catalog import ZooEntry

#: Replays longer than this many code points are refused (a page would be unreadable anyway).
MAX_REPLAY_CHARS = 300


class ReplayError(UserError):
    """A tokenizer that cannot be replayed, or text that is too long."""


@dataclass(frozen=True)
class PieceReplay:
    """One pre-tokenizer piece (code point span ``start:end``) and its merges."""

    text: str
    start: int
    end: int
    trace: EncodeTrace
    final: tuple[bytes, ...]
    final_ids: tuple[int, ...]
    direct: bool
    #: How ``final`` differs from the last merge when it does: "direct" (whole piece in the vocabulary),
    #: "byte-fallback" (SentencePiece: pieces outside the vocabulary become bytes), "resegment" (unused pieces
    #: split back), "added" (an added token, matched before any merge).
    finish: str = ""
    #: SentencePiece: the score of each merge in ``trace.steps`` (empty for rank-ordered engines).
    scores: tuple[float, ...] = ()


@dataclass(frozen=True)
class ReplayStep:
    """One merge seen on the whole text: the pieces of all pre-tokens after it."""

    piece_index: int
    rank: int
    left: bytes
    right: bytes
    pieces: tuple[bytes, ...]
    #: "merge", or the piece's finish (see :attr:`PieceReplay.finish`) for the step that is not a merge.
    kind: str = "merge"
    #: SentencePiece: the merged piece's score (``rank`` is then its id).
    score: float | None = None


#: The merge order of each engine (shown on the page).
Method = Literal["tiktoken", "tokenizers", "sentencepiece", "trained"]


@dataclass(frozen=True)
class Replay:
    """A text replayed merge by merge, with the library's own ids for comparison."""

    tokenizer: str
    text: str
    pieces: tuple[PieceReplay, ...]
    library_ids: tuple[int, ...]
    #: Characters tiktoken's regex engine classifies differently from Unicode 17.0, at the piece they are in.
    notes: tuple[EngineNote, ...] = ()
    method: Method = "tiktoken"

    @property
    def final_ids(self) -> list[int]:
        return [i for p in self.pieces for i in p.final_ids]

    @property
    def matches_library(self) -> bool:
        return tuple(self.final_ids) == self.library_ids

    def piece_notes(self) -> list[tuple[int, EngineNote]]:
        """Each note with the index of the piece its character is in."""
        out = []
        for note in self.notes:
            k = next((k for k, p in enumerate(self.pieces) if p.start <= note.offset < p.end), -1)
            out.append((k, note))
        return out

    @property
    def initial(self) -> tuple[bytes, ...]:
        return tuple(b for p in self.pieces for b in p.trace.initial)

    def steps(self) -> list[ReplayStep]:
        """Every merge across the text, in order, with the full piece list after it."""
        out: list[ReplayStep] = []
        for k, p in enumerate(self.pieces):
            before = tuple(b for q in self.pieces[:k] for b in q.final)
            after = tuple(b for q in self.pieces[k + 1 :] for b in q.trace.initial)
            for n, s in enumerate(p.trace.steps):
                score = p.scores[n] if n < len(p.scores) else None
                out.append(ReplayStep(k, s.rank, s.left, s.right, before + s.pieces_after + after, score=score))
            if p.final != p.trace.final:
                kind = "direct" if p.direct else (p.finish or "direct")
                rank = p.final_ids[0] if len(p.final_ids) == 1 else -1
                out.append(ReplayStep(k, rank, b"", b"", before + p.final + after, kind=kind))
        return out


def split_with_notes(tok: PretrainedTokenizer, text: str) -> tuple[list[tuple[str, int, int]], tuple[EngineNote, ...]]:
    """The pre-tokenizer pieces of ``text`` with code point spans, cut as tiktoken's engine cuts them
    (``tok`` has a :attr:`~core.pretrained.adapter.PretrainedTokenizer.split_pattern`).

    The notes name each character whose Unicode 17.0 properties would cut it otherwise.
    """
    if tok.split_pattern is None:
        raise ReplayError(T_("{id}: no replay engine for {type}", id=tok.id, type=type(tok).__name__))
    split = engine_split(text, Pattern("custom", tok.split_pattern, "", "tiktoken"))
    return [(p.text, p.start, p.end) for p in split.pieces], split.notes


def split_pieces(tok: PretrainedTokenizer, text: str) -> list[tuple[str, int, int]]:
    """The pre-tokenizer pieces of ``text`` with code point spans (see :func:`split_with_notes`)."""
    return split_with_notes(tok, text)[0]


def _too_long(text: str) -> ReplayError:
    return ReplayError(T_("text is {count} code points; replay takes at most {limit}", count=len(text),
                          limit=MAX_REPLAY_CHARS))


def replay(tok: PretrainedTokenizer, text: str) -> Replay:
    """Replay ``tok``'s merges on ``text`` (plain text: special tokens are not parsed).

    >>> from core.pretrained import zoo
    >>> r = replay(zoo.load("o200k_base"), "রাজশাহী")
    >>> len(r.final_ids), r.matches_library
    (3, True)
    """
    source = tok.replay_source() if getattr(tok, "replayable", False) else None
    if source is None:
        raise ReplayError(T_("{id} is not BPE ({algorithm}): it does not merge pairs, so there is nothing to replay",
                             id=tok.id, algorithm=tok.entry.algorithm))
    check_text(text)
    if len(text) > MAX_REPLAY_CHARS:
        raise _too_long(text)
    if isinstance(source, TokenizersReplay):
        return _replay_hf(tok, source, text)
    if isinstance(source, SentencePieceReplay):
        return _replay_sentencepiece(tok, source, text)
    if not isinstance(source, TiktokenReplay):  # pragma: no cover - the three records are all there is
        raise ReplayError(T_("{id}: no replay engine for {type}", id=tok.id, type=type(tok).__name__))
    if source.normalize is not None:  # the vendor normalizes first: the merges run on what the model sees
        text = source.normalize(text)
    ranks = source.ranks
    rank_of = tiktoken_rank_of(ranks)
    pieces = []
    spans, notes = split_with_notes(tok, text)
    for piece, start, end in spans:
        trace = encode_trace(piece, rank_of, unit="byte", mode="lowest-rank")
        data = piece.encode("utf-8")
        direct = data in ranks
        final = (data,) if direct else trace.final
        pieces.append(PieceReplay(piece, start, end, trace, final, tuple(ranks[b] for b in final), direct))
    return Replay(tok.id, text, tuple(pieces), tuple(tok.encode_ids(text)), notes)


def replay_trained(trace: BpeTrace, text: str, upto: int | None = None) -> Replay:
    """Replay a BPE trained in the app (its first ``upto`` merges) on ``text``.

    Merges apply in learned order, as in training; a rank is the merge's
    number (0 = first merge). Ids are the trace's vocabulary ids; a piece
    outside the vocabulary (a code point never seen in training) has id -1
    on both sides of the comparison.

    >>> from core.models.bpe import train_bpe
    >>> t = train_bpe({"low": 5, "lower": 2}, merges=2, unit="codepoint")
    >>> replay_trained(t, "lowly").matches_library
    True
    """
    check_text(text)
    if len(text) > MAX_REPLAY_CHARS:
        raise _too_long(text)
    limit = len(trace.steps) if upto is None else min(upto, len(trace.steps))
    rank_of = trace.rank_of(limit)
    vocab = trace.vocab
    pieces = []
    for span in pretokenize(text, trace.pattern):
        tr = encode_trace(span.text, rank_of, unit=trace.unit, mode="learned-order")
        ids = tuple(vocab.get(p, -1) for p in tr.final)
        pieces.append(PieceReplay(span.text, span.start, span.end, tr, tr.final, ids, False))
    library = tuple(-1 if i is None else i for i in trace.tokenizer(limit).encode(text).ids)
    return Replay(f"bpe-{trace.unit}-{limit}", text, tuple(pieces), library, method="trained")


def offered(entry: "ZooEntry") -> bool:
    """Whether the replay page lists a catalog entry: a BPE of any of the three engines (read from the catalog,
    without loading; ``tests/test_replay_shelf.py`` checks it against each loaded model's own type)."""
    return not entry.built_in and "BPE" in entry.algorithm


# ---------------------------------------------------------------------------
# Hugging Face tokenizers BPE
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _HFModel:
    """What ``tokenizers``' BPE needs to merge, read once from the tokenizer.json.

    Merges are keyed by the pair's two ids in one int (``left * width + right``) and the merged token is looked
    up when a merge runs, so Gemma 4's 515k merges cost ints, not strings.
    """

    vocab: dict[str, int]
    tokens: list[str]  # id -> token
    merges: dict[int, int]  # left id * width + right id -> merge-list rank
    width: int
    prefix: str
    suffix: str
    byte_fallback: bool
    unk: str | None
    fuse_unk: bool
    ignore_merges: bool
    added: Any  # regex over the non-special added tokens (leftmost longest), or None
    added_ids: dict[str, int] = field(default_factory=dict)

    def merged(self, left: int, right: int) -> int:
        """The id of the token a merge of ``left`` and ``right`` makes (tokenizers drops the right side's
        continuing-subword prefix)."""
        return self.vocab[self.tokens[left] + self.tokens[right][len(self.prefix) :]]


_models: "weakref.WeakKeyDictionary[PretrainedTokenizer, Any]" = weakref.WeakKeyDictionary()
_models_lock = threading.Lock()


def _cached(tok: PretrainedTokenizer, build: Any, source: Any) -> Any:
    with _models_lock:
        got = _models.get(tok)
        if got is None:
            got = _models[tok] = build(source)
    return got


def _hf_model(source: TokenizersReplay) -> _HFModel:
    cfg = json.loads(source.tokenizer_json)
    m = cfg["model"]
    vocab: dict[str, int] = dict(m["vocab"])
    width = max(vocab.values(), default=0) + 1
    tokens = [""] * width
    for t, i in vocab.items():
        tokens[i] = t
    merges: dict[int, int] = {}
    get = vocab.get
    for rank, pair in enumerate(m.get("merges") or []):
        a, b = pair if isinstance(pair, list) else pair.split(" ", 1)
        ia, ib = get(a), get(b)
        if ia is not None and ib is not None:
            merges.setdefault(ia * width + ib, rank)
    added = {a["content"]: a["id"] for a in cfg.get("added_tokens") or [] if not a.get("special") and a["content"]}
    pattern = None
    if added:
        # longest first: at one position the first alternative that matches is the longest (leftmost longest)
        pattern = regex.compile("|".join(regex.escape(t) for t in sorted(added, key=len, reverse=True)))
    return _HFModel(vocab, tokens, merges, width, m.get("continuing_subword_prefix") or "",
                    m.get("end_of_word_suffix") or "", bool(m.get("byte_fallback")), m.get("unk_token"),
                    bool(m.get("fuse_unk")), bool(m.get("ignore_merges")), pattern, added)


def _hf_segments(model: _HFModel, text: str) -> list[tuple[str, int, bool]]:
    """``text`` cut at its added tokens: (segment, start, is_added)."""
    if model.added is None:
        return [(text, 0, False)]
    out, pos = [], 0
    for m in model.added.finditer(text):
        if m.start() > pos:
            out.append((text[pos : m.start()], pos, False))
        out.append((m.group(), m.start(), True))
        pos = m.end()
    if pos < len(text):
        out.append((text[pos:], pos, False))
    return out


def _hf_symbols(tok: PretrainedTokenizer, source: TokenizersReplay, model: _HFModel, word: str) -> list[tuple[int | None, bytes]]:
    """The starting symbols of one pre-token, as ``tokenizers``' BPE ``merge_word`` makes them: (id, bytes).

    A character outside the vocabulary becomes its ``<0xXX>`` byte pieces (byte fallback), else the unknown
    token (dropped, as the library drops it, when the model has none).
    """
    vocab = model.vocab
    b2u = bytelevel_bytes() if source.byte_level else None
    out: list[tuple[int | None, bytes]] = []
    unk: tuple[int | None, bytes] | None = None
    unk_id = vocab.get(model.unk) if model.unk is not None else None
    last = len(word) - 1
    for i, ch in enumerate(word):
        t = (model.prefix if i > 0 else "") + ch + (model.suffix if i == last else "")
        raw = bytes((b2u[ch],)) if b2u is not None and ch in b2u else ch.encode("utf-8")
        tid = vocab.get(t)
        if tid is not None:
            if unk is not None:
                out.append(unk)
                unk = None
            out.append((tid, tok.token_bytes(tid) if b2u is None else raw))
            continue
        if model.byte_fallback:
            ids = [vocab.get(f"<0x{b:02X}>") for b in t.encode("utf-8")]
            if all(i is not None for i in ids):
                out.extend((i, tok.token_bytes(i)) for i in ids)  # type: ignore[arg-type]
                continue
        if model.unk is not None:
            if unk is not None and model.fuse_unk:
                unk = (unk_id, unk[1] + raw)
            else:
                if unk is not None:
                    out.append(unk)
                unk = (unk_id, raw)
    if unk is not None:
        out.append(unk)
    return out


def _hf_trace(model: _HFModel, symbols: list[tuple[int | None, bytes]]) -> tuple[EncodeTrace, list[int | None]]:
    """Merge the pair with the lowest merge-list rank, leftmost on a tie, until no pair has a rank."""
    ids = [t for t, _ in symbols]
    data = [b for _, b in symbols]
    initial = tuple(data)
    steps = []
    merges, width = model.merges, model.width
    while len(ids) > 1:
        best: tuple[int, int] | None = None  # (rank, position)
        for i in range(len(ids) - 1):
            a, b = ids[i], ids[i + 1]
            if a is None or b is None:
                continue
            rank = merges.get(a * width + b)
            if rank is not None and (best is None or rank < best[0]):
                best = (rank, i)
        if best is None:
            break
        rank, i = best
        left, right = data[i], data[i + 1]
        ids[i : i + 2] = [model.merged(ids[i], ids[i + 1])]  # type: ignore[arg-type]
        data[i : i + 2] = [left + right]
        steps.append(EncodeStep(rank, (i,), left, right, tuple(data)))
    return EncodeTrace(initial, tuple(steps)), ids


def _replay_hf(tok: PretrainedTokenizer, source: TokenizersReplay, text: str) -> Replay:
    model: _HFModel = _cached(tok, _hf_model, source)
    engine = source.library  # the library's own normalizer and pre-tokenizer objects
    import tokenizers

    pieces = []
    for segment, offset, is_added in _hf_segments(model, text):
        if is_added:
            data = segment.encode("utf-8")
            trace = EncodeTrace((data,), ())
            pieces.append(PieceReplay(segment, offset, offset + len(segment), trace, (data,),
                                      (model.added_ids[segment],), True, "added"))
            continue
        pts = tokenizers.PreTokenizedString(segment)
        if engine.normalizer is not None:
            pts.normalize(engine.normalizer.normalize)
        if engine.pre_tokenizer is not None:
            engine.pre_tokenizer.pre_tokenize(pts)
        for word, (start, end), _ in pts.get_splits(offset_referential="original", offset_type="char"):
            if not word:
                continue
            piece_text = segment[start:end]
            if model.ignore_merges and word in model.vocab:
                symbols = _hf_symbols(tok, source, model, word)
                trace, _ = _hf_trace(model, symbols)
                data = b"".join(b for _, b in symbols)
                pieces.append(PieceReplay(piece_text, offset + start, offset + end, trace, (data,),
                                          (model.vocab[word],), True, "direct"))
                continue
            trace, got = _hf_trace(model, _hf_symbols(tok, source, model, word))
            kept = [(t, b) for t, b in zip(got, trace.final) if t is not None]
            final = tuple(b for _, b in kept)
            pieces.append(PieceReplay(piece_text, offset + start, offset + end, trace, final,
                                      tuple(t for t, _ in kept), False))
    return Replay(tok.id, text, tuple(pieces), tuple(tok.encode_ids(text)), method="tokenizers")


# ---------------------------------------------------------------------------
# SentencePiece BPE
# ---------------------------------------------------------------------------

_NORMAL, _UNKNOWN, _CONTROL, _USER_DEFINED, _UNUSED, _BYTE = 1, 2, 3, 4, 5, 6


@dataclass(frozen=True)
class _SPModel:
    """What SentencePiece's BPE merges with, read from the model proto."""

    pieces: dict[str, tuple[int, float, int]]  # normal, user-defined and unused pieces: (id, score, type)
    reserved: dict[str, int]  # control, unknown and byte pieces
    user: Any  # regex over the user-defined pieces (longest first), or None
    unk_id: int
    byte_fallback: bool


def _sp_model(source: SentencePieceReplay) -> _SPModel:
    from sentencepiece import sentencepiece_model_pb2 as pb

    m = pb.ModelProto()
    m.ParseFromString(source.model_proto)
    pieces: dict[str, tuple[int, float, int]] = {}
    reserved: dict[str, int] = {}
    user = []
    for i, p in enumerate(m.pieces):
        if p.type in (_NORMAL, _USER_DEFINED, _UNUSED):
            pieces.setdefault(p.piece, (i, p.score, p.type))
        else:
            reserved.setdefault(p.piece, i)
        if p.type == _USER_DEFINED:
            user.append(p.piece)
    pattern = regex.compile("|".join(regex.escape(u) for u in sorted(user, key=len, reverse=True))) if user else None
    return _SPModel(pieces, reserved, pattern, source.unk_id, bool(m.trainer_spec.byte_fallback))


def _sp_bytes(piece: str) -> bytes:
    return piece.replace("\u2581", " ").encode("utf-8")


def _replay_sentencepiece(tok: PretrainedTokenizer, source: SentencePieceReplay, text: str) -> Replay:
    model: _SPModel = _cached(tok, _sp_model, source)
    normalized = source.normalize(text)  # the library's own normalizer
    symbols: list[str] = []
    frozen: list[bool] = []
    pos = 0
    while pos < len(normalized):
        m = model.user.match(normalized, pos) if model.user is not None else None
        end = m.end() if m is not None and m.end() > pos else pos + 1
        symbols.append(normalized[pos:end])
        frozen.append(m is not None and m.end() > pos)
        pos = end
    initial = tuple(_sp_bytes(x) for x in symbols)
    rev_merge: dict[str, tuple[str, str]] = {}

    def seen(i: int) -> None:
        # bpe_model.cc records how an unused piece was made each time it queues the pair
        if 0 <= i < len(symbols) - 1 and not frozen[i] and not frozen[i + 1]:
            hit = model.pieces.get(symbols[i] + symbols[i + 1])
            if hit is not None and hit[2] == _UNUSED:
                rev_merge[symbols[i] + symbols[i + 1]] = (symbols[i], symbols[i + 1])

    for i in range(len(symbols) - 1):
        seen(i)
    steps, scores = [], []
    while True:
        best: tuple[float, int, int] | None = None  # (score, position, id)
        for i in range(len(symbols) - 1):
            if frozen[i] or frozen[i + 1]:
                continue
            hit = model.pieces.get(symbols[i] + symbols[i + 1])
            if hit is not None and (best is None or hit[1] > best[0]):
                best = (hit[1], i, hit[0])
        if best is None:
            break
        score, i, pid = best
        left, right = _sp_bytes(symbols[i]), _sp_bytes(symbols[i + 1])
        symbols[i : i + 2] = [symbols[i] + symbols[i + 1]]
        frozen[i : i + 2] = [False]
        steps.append(EncodeStep(pid, (i,), left, right, tuple(_sp_bytes(x) for x in symbols)))
        scores.append(score)
        seen(i - 1)
        seen(i)
    trace = EncodeTrace(initial, tuple(steps))

    def resegment(w: str) -> list[str]:
        hit = model.pieces.get(w)
        if hit is None or hit[2] != _UNUSED or w not in rev_merge:
            return [w]
        a, b = rev_merge[w]
        return resegment(a) + resegment(b)

    final: list[bytes] = []
    ids: list[int] = []
    finish = ""
    for w in (x for s in symbols for x in resegment(s)):
        pid = model.reserved.get(w, model.pieces[w][0] if w in model.pieces else model.unk_id)
        if pid == model.unk_id and model.byte_fallback:
            for b in w.encode("utf-8"):
                final.append(bytes((b,)))
                ids.append(model.reserved.get(f"<0x{b:02X}>", model.unk_id))
            finish = "byte-fallback"
        else:
            final.append(_sp_bytes(w))
            ids.append(pid)
    if not finish and tuple(final) != trace.final:
        finish = "resegment"
    piece = PieceReplay(text, 0, len(text), trace, tuple(final), tuple(ids), False, finish, tuple(scores))
    return Replay(tok.id, text, (piece,) if text else (), tuple(tok.encode_ids(text)), method="sentencepiece")


# ---------------------------------------------------------------------------
# How one vocabulary token is built: its merge tree
# ---------------------------------------------------------------------------

#: Trees deeper than this are cut (a token of a few hundred bytes; the page could not draw more anyway).
MAX_TREE_DEPTH = 64


@dataclass(frozen=True)
class MergeNode:
    """One token in a merge tree: made by merging ``left`` and ``right`` at ``rank``, or a leaf (a byte, a character,
    a piece no merge makes). ``id`` is None for a leaf that is not itself a vocabulary token."""

    id: int | None
    data: bytes
    rank: int | None = None
    left: "MergeNode | None" = None
    right: "MergeNode | None" = None

    @property
    def leaves(self) -> tuple[bytes, ...]:
        """The bytes of the leaves, left to right (they join to :attr:`data`)."""
        if self.left is None or self.right is None:
            return (self.data,)
        return self.left.leaves + self.right.leaves

    @property
    def merges(self) -> int:
        """How many merges build this token."""
        if self.left is None or self.right is None:
            return 0
        return 1 + self.left.merges + self.right.merges


def _lowest_rank_parts(data: bytes, ranks: "dict[bytes, int] | Any", below: int) -> list[bytes]:
    """tiktoken's loop on ``data`` with only the merges ranked below ``below``: the two parts the last merge joined."""
    parts = [bytes((b,)) for b in data]
    while len(parts) > 1:
        best: tuple[int, int] | None = None
        for i in range(len(parts) - 1):
            r = ranks.get(parts[i] + parts[i + 1])
            if r is not None and r < below and (best is None or r < best[0]):
                best = (r, i)
        if best is None:
            break
        i = best[1]
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
    return parts


def _tiktoken_tree(source: TiktokenReplay, data: bytes, depth: int) -> MergeNode:
    rank = source.ranks.get(data)
    if len(data) <= 1 or rank is None or depth >= MAX_TREE_DEPTH:
        return MergeNode(rank, data)
    parts = _lowest_rank_parts(data, source.ranks, rank)
    if len(parts) != 2:  # a table entry no sequence of earlier merges makes (added by hand to the ranks)
        return MergeNode(rank, data, rank)
    return MergeNode(rank, data, rank, _tiktoken_tree(source, parts[0], depth + 1), _tiktoken_tree(source, parts[1], depth + 1))


@dataclass(frozen=True)
class _HFMade:
    """``tokenizers`` BPE: for each token a merge makes, the first merge (lowest rank) that makes it."""

    made: dict[int, tuple[int, int, int]]  # token id -> (rank, left id, right id)


def _hf_made(source: TokenizersReplay) -> _HFMade:
    model = _hf_model(source)
    made: dict[int, tuple[int, int, int]] = {}
    width = model.width
    for key, rank in model.merges.items():
        left, right = divmod(key, width)
        try:
            tid = model.merged(left, right)
        except KeyError:  # a merge whose result is not in the vocabulary: the library never applies it either
            continue
        old = made.get(tid)
        if old is None or rank < old[0]:
            made[tid] = (rank, left, right)
    return _HFMade(made)


_made: "weakref.WeakKeyDictionary[PretrainedTokenizer, Any]" = weakref.WeakKeyDictionary()


def _hf_tree(tok: PretrainedTokenizer, made: _HFMade, token_id: int, depth: int) -> MergeNode:
    data = tok.token_bytes(token_id)
    got = made.made.get(token_id)
    if got is None or depth >= MAX_TREE_DEPTH:
        return MergeNode(token_id, data)
    rank, left, right = got
    return MergeNode(token_id, data, rank, _hf_tree(tok, made, left, depth + 1), _hf_tree(tok, made, right, depth + 1))


def _sp_tree(tok: PretrainedTokenizer, model: _SPModel, piece: str, depth: int) -> MergeNode:
    hit = model.pieces.get(piece)
    data = _sp_bytes(piece)
    if hit is None or len(piece) <= 1 or depth >= MAX_TREE_DEPTH:
        return MergeNode(hit[0] if hit else model.reserved.get(piece), data)
    pid, score, _ = hit
    # bpe_model.cc merges the highest score first: the pieces that can be made before this one score higher
    symbols = list(piece)
    while len(symbols) > 1:
        best: tuple[float, int] | None = None
        for i in range(len(symbols) - 1):
            h = model.pieces.get(symbols[i] + symbols[i + 1])
            if h is not None and h[0] != pid and (h[1], -h[0]) > (score, -pid) and (best is None or h[1] > best[0]):
                best = (h[1], i)
        if best is None:
            break
        i = best[1]
        symbols[i : i + 2] = [symbols[i] + symbols[i + 1]]
    if len(symbols) != 2:
        return MergeNode(pid, data, pid)
    return MergeNode(pid, data, pid, _sp_tree(tok, model, symbols[0], depth + 1), _sp_tree(tok, model, symbols[1], depth + 1))


def merge_tree(tok: PretrainedTokenizer, token_id: int) -> MergeNode | None:
    """How BPE token ``token_id`` is built, merge by merge, down to bytes or characters; None for a model that does
    not merge pairs (Unigram, WordPiece, the baselines) or an id that is not a token.

    The rank of a node is its merge's place in the library's order: the tiktoken rank (the token's id), the
    ``tokenizers`` merge-list index, or, for SentencePiece (merged by score), the piece's id.

    >>> from core.pretrained import zoo
    >>> o200k = zoo.load("o200k_base")
    >>> t = merge_tree(o200k, o200k.encode_ids("hello")[0])
    >>> t.data, t.leaves, t.merges
    (b'hello', (b'h', b'e', b'l', b'l', b'o'), 4)
    """
    source = tok.replay_source()
    if source is None or not tok.has_token(token_id) or token_id in tok.special_ids:
        return None
    if isinstance(source, TiktokenReplay):
        return _tiktoken_tree(source, tok.token_bytes(token_id), 0)
    if isinstance(source, TokenizersReplay):
        made: _HFMade = _cached_in(_made, tok, _hf_made, source)
        return _hf_tree(tok, made, token_id, 0)
    model: _SPModel = _cached(tok, _sp_model, source)
    piece = tok.id_to_token(token_id)
    return None if piece is None else _sp_tree(tok, model, piece, 0)


def _cached_in(store: "weakref.WeakKeyDictionary[PretrainedTokenizer, Any]", tok: PretrainedTokenizer, build: Any,
               source: Any) -> Any:
    with _models_lock:
        got = store.get(tok)
        if got is None:
            got = store[tok] = build(source)
    return got
