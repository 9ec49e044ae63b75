"""The Hugging Face ``tokenizers`` BPE replay engine: called by ``hf_adapter`` only.

A ``tokenizer.json`` BPE (DeepSeek-V3, Claude, the GGUF byte-level files, Gemma 4, CLIP, BPE trained on the
Train page): the text is cut at the non-special added tokens (leftmost longest), then normalized and split by
the library's own normalizer and pre-tokenizer objects; each piece starts as its characters (byte-level
alphabet characters, ``</w>`` on the last one, byte-fallback ``<0xXX>`` pieces for a character outside the
vocabulary) and the pair with the lowest merge-list rank merges first, leftmost on a tie, as ``tokenizers``' BPE
``merge_all`` does.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import regex

from ...i18n import T_
from ...models.bpe import EncodeStep, EncodeTrace
from ...text.units import bytelevel_bytes
from ..memo import per_tokenizer
from .records import MAX_TREE_DEPTH, MergeNode, PieceReplay, Replay

if TYPE_CHECKING:  # pragma: no cover
    from ..adapter import PretrainedTokenizer


@dataclass(frozen=True, eq=False)
class TokenizersReplay:
    """What merge replay needs from a ``tokenizers`` BPE: the file, its byte-level flag, the library object
    (whose own normalizer and pre-tokenizer the replay runs)."""

    tokenizer_json: str
    byte_level: bool
    library: Any = field(repr=False)  # tokenizers.Tokenizer



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


#: How ``tokenizers``' BPE orders its merges (the caption under the replay).
ORDER = T_("the library's own normalizer and pre-tokenizer first (merges never cross their pieces), then "
           "tokenizers' BPE: merge the adjacent pair that comes first in the file's merge list (its rank), "
           "leftmost on a tie, repeat. Byte-fallback pieces (<0xXX>) stand for characters outside the "
           "vocabulary.")


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


def _hf_symbols(tok: "PretrainedTokenizer", source: TokenizersReplay, model: _HFModel, word: str) -> list[tuple[int | None, bytes]]:
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


def replay_tokenizers(tok: "PretrainedTokenizer", source: TokenizersReplay, text: str) -> Replay:
    """Replay ``tok``'s merges on ``text`` (already checked by :func:`core.pretrained.replay.replay`)."""
    model = per_tokenizer(tok, ("replay", "hf-model"), lambda: _hf_model(source))
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
    return Replay(tok.id, text, tuple(pieces), tuple(tok.encode_ids(text)), method="tokenizers",
                  order=ORDER, units=T_("starting symbols (characters or bytes)"))


# ---------------------------------------------------------------------------


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


def _hf_tree(tok: "PretrainedTokenizer", made: _HFMade, token_id: int, depth: int) -> MergeNode:
    data = tok.token_bytes(token_id)
    got = made.made.get(token_id)
    if got is None or depth >= MAX_TREE_DEPTH:
        return MergeNode(token_id, data)
    rank, left, right = got
    return MergeNode(token_id, data, rank, _hf_tree(tok, made, left, depth + 1), _hf_tree(tok, made, right, depth + 1))


def tokenizers_tree(tok: "PretrainedTokenizer", source: TokenizersReplay, token_id: int) -> MergeNode:
    """How token ``token_id`` is built (the rank of a node is its merge's place in the merge list)."""
    return _hf_tree(tok, per_tokenizer(tok, ("replay", "hf-made"), lambda: _hf_made(source)), token_id, 0)
