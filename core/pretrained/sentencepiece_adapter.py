"""The SentencePiece backend: a ``.model`` run by the real ``sentencepiece`` library.
"""
from __future__ import annotations

import re
from dataclasses import replace
from functools import cached_property
from typing import TYPE_CHECKING, Sequence

import numpy as np

from ..i18n import T_
from ..text.boundaries import is_valid_utf8
from ..tokens import Encoding, TokenTable, build_table
from .adapter import (
    BYTE_PIECE,
    NormalizerInfo,
    Packed,
    PackMismatchError,
    PretrainedTokenizer,
    align_byte_spans,
    check_text,
    pack_table,
    register_loader,
    register_unpacker,
    unpack_table,
)
from .catalog import CONTROL_PIECES
from .explain import Layer, Reason, replayed_merges, unigram_reasons
from .explain import cp as _cp
from .explain import num as _n
from .explain import q as _q
from .memo import per_tokenizer
from .replay.entry import replay_or_none
from .replay.records import MergeNode, Replay, not_replayable
from .replay.sentencepiece_bpe import SentencePieceReplay, replay_sentencepiece, sentencepiece_tree
from .uploads import register_upload

if TYPE_CHECKING:  # pragma: no cover
    from ..i18n import Translator
    from ..models.unigram import UnigramModel
    from .catalog import ZooEntry


#: The packed form's kind (bump the number when its parts change).
PACK_KIND = "sentencepiece/1"


#: SentencePiece's SplitIntoWords: every ``▁`` starts a new piece.
_WORDS = re.compile("\u2581[^\u2581]*|[^\u2581]+")


class SentencePieceTokenizer(PretrainedTokenizer):
    """A SentencePiece model. ``▁`` is a space; byte-fallback pieces are one byte.

    Spans come from SentencePiece's own alignment to the input (so the
    dummy-prefix ``▁`` of the first word maps to no input character).
    """

    family = "sentencepiece"

    def __init__(self, entry: "ZooEntry", sp, tables: Packed | None = None) -> None:  # noqa: ANN001 - SentencePieceProcessor
        self._sp = sp
        n = sp.get_piece_size()
        self.entry = replace(entry, vocab_size=n) if not entry.vocab_size else entry
        self.unk_id = sp.unk_id()
        if tables is not None:  # from a pack: the per-piece loop below was done when it was written
            self.specials = {str(k): int(v) for k, v in tables.meta["specials"]}
            self._by_id, self._lens = unpack_table(tables.parts)
            self._valid = np.frombuffer(tables.parts["valid"], dtype=bool).copy()
            if len(self._by_id) != n or len(self._valid) != n:
                raise PackMismatchError
        else:
            self.specials = {sp.id_to_piece(i): i for i in range(n) if sp.is_control(i)}
            by_id = []
            for i in range(n):
                piece = sp.id_to_piece(i)
                m = BYTE_PIECE.match(piece) if sp.is_byte(i) else None
                if m:
                    by_id.append(bytes((int(m.group(1), 16),)))
                else:
                    by_id.append(piece.replace("\u2581", " ").encode("utf-8"))
            self._by_id = by_id
            self._lens = np.fromiter(map(len, by_id), dtype=np.int64, count=n)
            self._valid = np.fromiter(map(is_valid_utf8, by_id), dtype=bool, count=n)
        self._special_mask = np.zeros(n, dtype=bool)
        self._special_mask[list(self.special_ids)] = True

    def packed(self) -> Packed:
        """The serialized model (a GGUF entry's conversion done) and the per-piece tables."""
        import sentencepiece

        return Packed(PACK_KIND, {"specials": sorted(self.specials.items(), key=lambda kv: kv[1]),
                                  "library": sentencepiece.__version__},
                      {"proto": self._sp.serialized_model_proto(), "valid": self._valid.astype(bool).tobytes(),
                       **pack_table(self._by_id)})

    @classmethod
    def from_bytes(cls, entry: "ZooEntry", data: bytes, where: str, tables: Packed | None = None) -> "SentencePieceTokenizer":
        import sentencepiece as spm

        sp = spm.SentencePieceProcessor()
        try:
            sp.LoadFromSerializedProto(bytes(data))
        except (RuntimeError, OSError, TypeError) as exc:
            raise ValueError(T_("{where} is not a valid SentencePiece model ({reason})", where=where,
                                reason=(str(exc).splitlines() or [type(exc).__name__])[0])) from None
        return cls(entry, sp, tables)

    @cached_property
    def replayable(self) -> bool:  # type: ignore[override]
        """A BPE model (merge replay follows SentencePiece's BPE); Unigram is not replayable."""
        from sentencepiece import sentencepiece_model_pb2 as pb

        m = pb.ModelProto()
        m.ParseFromString(self._sp.serialized_model_proto())
        return m.trainer_spec.model_type == pb.TrainerSpec.BPE

    # -- what the analyses ask ------------------------------------------------
    def normalizer(self) -> NormalizerInfo:
        sp = self._sp

        def fn(s: str) -> str:
            out = sp.normalize(s).replace("\u2581", " ")
            # SentencePiece adds one dummy-prefix space; that is its pre-tokenizer, not a change of letters
            return out[1:] if out.startswith(" ") and not s.startswith(" ") else out

        return NormalizerInfo(T_("SentencePiece normalizer"), fn)

    # -- the pre-tokenizer floor (core.pretrained.protocols.Pieces) ------------------------------------
    # SentencePiece searches the whole line: with a long run after a space its Viterbi path can differ from the
    # same word's alone ("العربية aaaa...": "▁" then "aaaa" in the line, "▁aaa" alone), so lines are not cut
    pieces_cut_at_words = False

    @cached_property
    def pre_splits(self) -> bool:
        from sentencepiece import sentencepiece_model_pb2 as pb

        m = pb.ModelProto()
        m.ParseFromString(self._sp.serialized_model_proto())
        return bool(m.trainer_spec.split_by_whitespace) and not m.trainer_spec.treat_whitespace_as_suffix

    def pre_pieces(self, text: str) -> list[bytes] | None:
        """SentencePiece's normalizer (with its dummy prefix), then a piece starting at every ``▁`` when the model
        splits by whitespace (its default), each spelled with spaces as its tokens' bytes are."""
        s = self._sp.normalize(text)
        pieces = _WORDS.findall(s) if self.pre_splits else [s]
        return [p.replace("\u2581", " ").encode("utf-8") for p in pieces if p]

    def spelling_vocab(self) -> list[bytes | None]:
        """Every piece's bytes; control, unknown and unused pieces are None."""
        sp = self._sp
        return [None if sp.IsControl(i) or sp.IsUnknown(i) or sp.IsUnused(i) or not b else b for i, b in enumerate(self._by_id)]

    def model_proto(self) -> bytes:
        return self._sp.serialized_model_proto()

    def replay_source(self) -> SentencePieceReplay | None:
        return SentencePieceReplay(self.model_proto(), self._sp.normalize, self._sp.unk_id()) if self.replayable else None

    def replay(self, text: str) -> Replay:
        source = self.replay_source()
        if source is None:
            raise not_replayable(self)
        return replay_sentencepiece(self, source, text)

    def merge_tree(self, token_id: int) -> MergeNode | None:
        source = self.replay_source()
        return None if source is None else sentencepiece_tree(self, source, token_id)

    # -- the word inspector ----------------------------------------------------------------------
    def _read_unigram(self) -> "UnigramModel | None":
        from ..models.unigram import UnigramError, load_sentencepiece

        try:
            return load_sentencepiece(self.model_proto(), source=self.id)
        except UnigramError:
            return None

    def unigram_model(self) -> "UnigramModel | None":
        """The Unigram model inside this SentencePiece file (read once, kept with
        :func:`core.pretrained.memo.per_tokenizer`), or None for a BPE (or other) model."""
        return per_tokenizer(self, "unigram-model", self._read_unigram)

    def explain_layers(self, text: str, enc: Encoding, t: "Translator") -> list[Layer]:
        """No split regex (▁ for spaces); the Unigram best paths, or the BPE merges replayed, the byte fallbacks and the
        missing pairs."""
        pre = [Reason("metaspace", t.gettext("SentencePiece does not split with a regex: spaces become ▁ (one ▁ is added in "
                                     "front) and the model sees the whole text."))]
        unigram = self.unigram_model()
        if unigram is not None:
            # the model's own normalizer runs inside encode_words
            return [Layer("pre-tokenizer", t.gettext("Pre-tokenizer"), tuple(pre)),
                    Layer("model", t.gettext("Model: SentencePiece Unigram (Viterbi over the lattice)"),
                          tuple(unigram_reasons(enc.text, unigram, t)))]
        model: list[Reason] = list(replayed_merges(replay_or_none(self, enc.text), t) or [])
        ids = [tk.id for tk in enc.tokens]
        fallback: dict[int, list[int]] = {}
        for k, tid in enumerate(ids):
            if tid is not None and self.is_byte_piece(tid):
                fallback.setdefault(enc.tokens[k].start, []).append(k)
        for start, ks in fallback.items():
            ch = enc.text[start] if start < len(enc.text) else ""
            model.append(Reason("byte-fallback", t.ngettext(
                "{char} is not in the vocabulary, so it falls back to {count} byte piece {pieces}.",
                "{char} is not in the vocabulary, so it falls back to {count} byte pieces {pieces}.", len(ks)).format(
                char=_cp(ch), count=_n(len(ks), t=t),
                pieces=" ".join(self.id_to_token(i) or "" for i in (ids[k] for k in ks) if i is not None))))
        pieces = [self.id_to_token(i) or "" for i in ids if i is not None]
        for a, b in zip(pieces, pieces[1:]):
            if any(i is not None and self.is_byte_piece(i) for i in (self.token_to_id(a), self.token_to_id(b))):
                continue
            if self.token_to_id(a + b) in (None, self.unk_id):
                model.append(Reason("no-merge", t.gettext("No piece {joined} in this vocabulary, so {left} and {right} stay "
                                                  "apart.").format(joined=_q(a + b, t=t), left=_q(a, t=t), right=_q(b, t=t))))
        if not model:
            model.append(Reason("pieces", t.gettext("Every piece is in the vocabulary: {pieces}.").format(pieces=" | ".join(pieces))))
        return [Layer("pre-tokenizer", t.gettext("Pre-tokenizer"), tuple(pre)),
                Layer("model", t.gettext("Model: SentencePiece BPE merges (replayed, highest score first)"), tuple(model))]

    def vocab(self) -> dict[str, int]:
        return {self._sp.id_to_piece(i): i for i in range(self._sp.get_piece_size())}

    def id_to_token(self, token_id: int) -> str | None:
        return self._sp.id_to_piece(token_id) if 0 <= token_id < self._sp.get_piece_size() else None

    def token_to_id(self, piece: str) -> int | None:
        """The piece's id; None when SentencePiece maps it to the unknown piece without spelling it."""
        tid = self._sp.piece_to_id(piece)
        return None if tid == self.unk_id and self._sp.id_to_piece(tid) != piece else tid

    def is_byte_piece(self, token_id: int) -> bool:
        return bool(self._sp.is_byte(token_id))

    def piece_score(self, token_id: int) -> float | None:
        return float(self._sp.get_score(token_id)) if 0 <= token_id < self._sp.get_piece_size() else None

    def encode_ids(self, text: str, *, allow_special: bool = False) -> list[int]:
        # SentencePiece never turns text into control pieces; allow_special has nothing to allow.
        check_text(text)
        return self._sp.encode(text)

    def _fast_lengths(self, text: str, ids: list[int], data: list[bytes]) -> int | None:
        """When the pieces spell the text (plus SentencePiece's leading space): how many bytes to drop at the start.

        That is the common case (identity normalizer); spans are then running sums, no per-piece alignment needed.
        """
        raw = text.encode("utf-8")
        joined = b"".join(data)
        if self.unk_id in ids:
            return None
        if joined == raw:
            return 0
        if joined == b" " + raw:
            return 1
        return None

    def _encode_spans(self, text: str, allow_special: bool) -> tuple[list[int], list[tuple[int, int]], list[bytes]]:
        ids = self._sp.encode(text)
        data = [self._by_id[i] for i in ids]
        drop = self._fast_lengths(text, ids, data)
        if drop is not None:
            spans = []
            pos = -drop
            for d in data:
                spans.append((max(pos, 0), max(pos + len(d), 0)))
                pos += len(d)
            return ids, spans, data
        proto = self._sp.encode(text, return_type="proto")
        ids = [p.id for p in proto.pieces]
        spans = [(p.begin, p.end) for p in proto.pieces]
        data = [self._by_id[i] if i != self.unk_id else p.surface.encode("utf-8") for i, p in zip(ids, proto.pieces)]
        return ids, align_byte_spans(text.encode("utf-8"), spans, data), data

    def table(self, text: str, *, allow_special: bool = False) -> TokenTable:
        check_text(text)
        ids_list = self._sp.encode(text)
        data = [self._by_id[i] for i in ids_list]
        drop = self._fast_lengths(text, ids_list, data)
        if drop is None:
            return super().table(text, allow_special=allow_special)
        ids = np.asarray(ids_list, dtype=np.int64)
        lens = self._lens[ids]
        ends = np.maximum(np.cumsum(lens) - drop, 0)
        starts = np.maximum(ends - lens, 0)
        return build_table(text, ids, starts, ends, data, self._special_mask[ids], self._valid[ids])

    def token_bytes(self, token_id: int) -> bytes:
        if not 0 <= token_id < len(self._by_id):
            raise ValueError(T_("token id {id} is outside the vocabulary of {tokenizer}", id=str(token_id),
                                tokenizer=self.id))
        return self._by_id[token_id]

    def decode_checked(self, ids: Sequence[int]) -> str | None:
        if ids and not isinstance(ids[0], int):
            return None  # a list that starts with a string is decoded as pieces, not ids
        # SentencePiece's ids are dense: the library refuses one outside 0..size-1 (IndexError) and anything but
        # a whole number after the first (TypeError)
        try:
            return self._sp.decode(ids if isinstance(ids, list) else list(ids))
        except (IndexError, TypeError, RuntimeError):
            raise ValueError(T_("an id is not a token of {tokenizer}", tokenizer=self.id)) from None

    def decode_ids(self, ids: Sequence[int]) -> str:
        return self._sp.decode(list(ids))


@register_unpacker(PACK_KIND)
def unpack_sentencepiece(entry: "ZooEntry", packed: Packed) -> SentencePieceTokenizer:
    """A :class:`SentencePieceTokenizer` from its packed form (made by the same ``sentencepiece`` version)."""
    import sentencepiece

    if packed.meta.get("library") != sentencepiece.__version__:
        raise PackMismatchError
    return SentencePieceTokenizer.from_bytes(entry, packed.parts["proto"], entry.id, packed)


@register_loader("sentencepiece")
def load_sentencepiece(entry: "ZooEntry", data: bytes | None, where: str) -> SentencePieceTokenizer:
    """Catalog ``loader="sentencepiece"`` (and uploads of a ``.model``): a serialized ``ModelProto``."""
    assert data is not None
    return SentencePieceTokenizer.from_bytes(entry, data, where)


#: A ``.model`` is a binary protobuf with no signature to test: it is what an upload nothing else recognises is.
register_upload("sentencepiece", label="SentencePiece (user .model)", specials=CONTROL_PIECES, fallback=True,
                module=__name__)
