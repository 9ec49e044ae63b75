"""The SentencePiece BPE replay engine: called by ``sentencepiece_adapter`` only.

A SentencePiece BPE ``.model`` (Llama 2, Baichuan, Mistral v1/v3): the library normalizes the text (dummy ``▁``
prefix, spaces as ``▁``); the whole text starts as characters (user-defined pieces stay whole) and the adjacent
pair whose joined piece has the highest score merges first, leftmost on a tie, as ``bpe_model.cc`` does; pieces
outside the vocabulary then fall back to ``<0xXX>`` bytes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

import regex

from ...i18n import T_
from ...models.bpe import EncodeStep, EncodeTrace
from ..memo import per_tokenizer
from .records import MAX_TREE_DEPTH, MergeNode, PieceReplay, Replay

if TYPE_CHECKING:  # pragma: no cover
    from ..adapter import PretrainedTokenizer


@dataclass(frozen=True, eq=False)
class SentencePieceReplay:
    """What merge replay needs from a SentencePiece BPE: the model proto, the library's normalize, the unknown id."""

    model_proto: bytes
    normalize: Callable[[str], str] = field(repr=False)
    unk_id: int


_NORMAL, _UNKNOWN, _CONTROL, _USER_DEFINED, _UNUSED, _BYTE = 1, 2, 3, 4, 5, 6


@dataclass(frozen=True)
class _SPModel:
    """What SentencePiece's BPE merges with, read from the model proto."""

    pieces: dict[str, tuple[int, float, int]]  # normal, user-defined and unused pieces: (id, score, type)
    reserved: dict[str, int]  # control, unknown and byte pieces
    user: Any  # regex over the user-defined pieces (longest first), or None
    unk_id: int
    byte_fallback: bool


#: How SentencePiece's BPE orders its merges (the caption under the replay).
ORDER = T_("SentencePiece normalizes first (a ▁ before the text, ▁ for each space), then merges the "
           "adjacent pair whose joined piece has the highest score, leftmost on a tie, over the whole "
           "text; pieces outside the vocabulary then become their UTF-8 bytes (<0xXX> pieces).")


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


def replay_sentencepiece(tok: "PretrainedTokenizer", source: SentencePieceReplay, text: str) -> Replay:
    """Replay ``tok``'s merges on ``text`` (already checked by :func:`core.pretrained.replay.replay`)."""
    model = per_tokenizer(tok, ("replay", "sp-model"), lambda: _sp_model(source))
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
    return Replay(tok.id, text, (piece,) if text else (), tuple(tok.encode_ids(text)), method="sentencepiece",
                  order=ORDER, units=T_("starting symbols (characters or bytes)"), scored=True)


# ---------------------------------------------------------------------------


def _sp_tree(tok: "PretrainedTokenizer", model: _SPModel, piece: str, depth: int) -> MergeNode:
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


def sentencepiece_tree(tok: "PretrainedTokenizer", source: SentencePieceReplay, token_id: int) -> MergeNode | None:
    """How piece ``token_id`` is built (SentencePiece merges by score: the rank of a node is the piece's id)."""
    model = per_tokenizer(tok, ("replay", "sp-model"), lambda: _sp_model(source))
    piece = tok.id_to_token(token_id)
    return None if piece is None else _sp_tree(tok, model, piece, 0)
