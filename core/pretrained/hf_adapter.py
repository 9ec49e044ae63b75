"""The Hugging Face ``tokenizers`` backend: any ``tokenizer.json`` (files, uploads, the Hub).
"""
from __future__ import annotations

import json
from dataclasses import replace
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, Sequence

import numpy as np

from ..i18n import T_, localize
from ..text import limits
from ..text.boundaries import is_valid_utf8, mark_cuts
from ..text.native import library_detail
from ..text.units import bytelevel_bytes, char_byte_offsets
from ..tokens import Encoding, SpecialProbe, TokenTable, build_table
from .adapter import (
    BYTE_PIECE,
    NormalizerInfo,
    Packed,
    PackMismatchError,
    PreTokenizerInfo,
    PretrainedTokenizer,
    align_byte_spans,
    check_text,
    pack_table,
    register_loader,
    register_unpacker,
    unpack_table,
)
from .catalog import SPECIALS_AS_TEXT
from .explain import MAX_EVIDENCE, Layer, Reason, mark_kind, replayed_merges, unigram_reasons
from .explain import cp as _cp
from .explain import num as _n
from .explain import q as _q
from .library import LibraryObject, register_library_view
from .replay.entry import replay_or_none
from .replay.hf_bpe import TokenizersReplay, replay_tokenizers, tokenizers_tree
from .replay.records import MergeNode, Replay, not_replayable
from .uploads import register_upload

if TYPE_CHECKING:  # pragma: no cover
    from ..i18n import Translator
    from .catalog import ZooEntry


def hf_probes(library, engines: tuple[object, object] | None = None) -> list[SpecialProbe]:  # noqa: ANN001 - tokenizers.Tokenizer
    """The two ways a ``tokenizers.Tokenizer`` can encode user text: the library default (special-token text
    becomes control ids) and ``encode_special_tokens=True`` (it stays text). Each runs on its own copy, made
    here unless ``engines`` gives the two (default mode, text mode) already made."""
    from tokenizers import Tokenizer

    specials = {i: a.content for i, a in library.get_added_tokens_decoder().items() if a.special}

    def run(t):  # noqa: ANN001, ANN202 - tokenizers.Tokenizer
        def go(text: str) -> list[tuple[int, str | None]]:
            enc = t.encode(text, add_special_tokens=False)
            return [(i, text[s:e]) for i, (s, e) in zip(enc.ids, enc.offsets)]
        return go

    probes = []
    for k, (mode, flag) in enumerate((("library default", False), ("encode_special_tokens=True", True))):
        if engines is not None:
            t = engines[k]
        else:
            t = Tokenizer.from_str(library.to_str())
            t.encode_special_tokens = flag
        probes.append(SpecialProbe(mode, run(t), specials))
    return probes


@register_library_view
def tokenizers_object(obj: object) -> LibraryObject | None:
    """A bare ``tokenizers.Tokenizer``: the library's two modes and its ``tokenizer.json``."""
    from tokenizers import Tokenizer

    if not isinstance(obj, Tokenizer):
        return None
    return LibraryObject("tokenizer.json", lambda: hf_probes(obj), obj.to_str)


def _facts(cfg: dict[str, Any], tok) -> dict[str, Any]:  # noqa: ANN001 - tokenizers.Tokenizer
    """What the adapter needs from the parsed file besides the library object (JSON-able, kept in its pack)."""
    added = cfg.get("added_tokens") or []
    model = cfg.get("model") or {}
    unk = model.get("unk_token")
    return {
        "specials": [[a["content"], a["id"]] for a in added if a.get("special")],
        "added_ids": [a["id"] for a in added],
        "model_type": model.get("type"),
        "wp_prefix": model.get("continuing_subword_prefix") if model.get("type") == "WordPiece" else None,
        "byte_level": '"ByteLevel"' in json.dumps(cfg.get("decoder")) or '"ByteLevel"' in json.dumps(cfg.get("pre_tokenizer")),
        # the pre-tokenizer's own pieces are in the ByteLevel alphabet (the floor of core.analysis.measures)
        "pre_byte_level": '"ByteLevel"' in json.dumps(cfg.get("pre_tokenizer")),
        "byte_fallback": bool(model.get("byte_fallback")),
        # merge replay (core.pretrained.replay) follows tokenizers' BPE; dropout would make merges random
        "replayable": model.get("type") == "BPE" and not model.get("dropout"),
        "unk_id": (tok.token_to_id(unk) if isinstance(unk, str)
                   else model.get("unk_id") if model.get("type") == "Unigram" else None),
        "vocab_n": tok.get_vocab_size(with_added_tokens=True),
    }


class HFTokenizer(PretrainedTokenizer):
    """A Hugging Face ``tokenizers`` tokenizer (any model type).

    Special tokens typed in the text are encoded as text
    (``encode_special_tokens = True``); the post-processor's [CLS]/[SEP]
    are not added, so tokens cover exactly the input.
    """

    family = "tokenizers"
    #: The packed form's kind: one per class (its unpacker rebuilds this class); bump the number when the
    #: parts or facts change.
    pack_kind: ClassVar[str] = "hf/1"

    def __init__(self, entry: "ZooEntry", json_text: str | bytes, facts: dict[str, Any] | None = None,
                 by_id: list[bytes] | None = None) -> None:
        import tokenizers

        # Kept as UTF-8 bytes (half the memory of a str for these files); decoded when someone asks for it.
        self._json_bytes = json_text.encode("utf-8") if isinstance(json_text, str) else bytes(json_text)
        self._tok = tokenizers.Tokenizer.from_buffer(self._json_bytes)
        self._tok.encode_special_tokens = True
        self._unsafe: object | None = None
        if facts is None:
            facts = _facts(json.loads(self._json_bytes), self._tok)
        self._facts = facts
        self.specials = {str(k): int(v) for k, v in facts["specials"]}
        # Added tokens hold their text as written (never in the ByteLevel alphabet), special or not.
        self._added_ids = frozenset(int(i) for i in facts["added_ids"])
        self._model_type = facts["model_type"]
        self._wp_prefix = facts["wp_prefix"]
        self._byte_level = bool(facts["byte_level"])
        self._pre_byte_level = bool(facts["pre_byte_level"])
        self._byte_fallback = bool(facts["byte_fallback"])
        self.replayable = bool(facts["replayable"])
        self.unk_id = facts["unk_id"]
        self._b2u = bytelevel_bytes() if self._byte_level else {}
        if by_id is not None:
            self.__dict__["_by_id"] = by_id  # the cached_property's slot: the table came with the pack
        n = int(facts["vocab_n"])
        self.entry = replace(entry, vocab_size=n) if not entry.vocab_size else entry

    @property
    def _json(self) -> str:
        return self._json_bytes.decode("utf-8")

    @property
    def tokenizer_json(self) -> str:  # type: ignore[override]
        """The ``tokenizer.json`` the backend runs (its merges may be in the library's "a b" spelling)."""
        return self._json

    def packed(self) -> Packed:
        """The file in the spelling ``tokenizers`` reads with the least memory, the facts above, the byte table.

        BPE merges written as ``"a b"`` strings instead of ``["a", "b"]`` pairs (possible when no piece has
        a space, e.g. byte-level and ``▁`` vocabularies) halve the library's peak while parsing: Gemma 4's
        515k pairs took 340 MB, the strings 160 MB.
        """
        cfg = json.loads(self._json_bytes)
        model = cfg.get("model") or {}
        merges = model.get("merges")
        data = self._json_bytes
        if merges and all(isinstance(m, list) and len(m) == 2 and m[0] and m[1] and " " not in m[0] and " " not in m[1]
                          for m in merges):
            model["merges"] = [f"{a} {b}" for a, b in merges]
            data = json.dumps(cfg, ensure_ascii=False).encode("utf-8")
        import tokenizers

        return Packed(self.pack_kind, {"facts": self._facts, "library": tokenizers.__version__},
                      {"json": data, **pack_table(self._by_id)})

    @classmethod
    def from_bytes(cls, entry: "ZooEntry", data: bytes, where: str) -> "HFTokenizer":
        try:
            return cls(entry, data.decode("utf-8"))
        except Exception as exc:  # noqa: BLE001 - tokenizers raises plain Exception on bad JSON
            raise ValueError(T_("{where} is not a valid tokenizer.json: {reason}", where=where,
                                reason=library_detail(exc))) from None

    # -- what the analyses ask ------------------------------------------------
    def normalizer(self) -> NormalizerInfo | None:
        norm = self._tok.normalizer
        return NormalizerInfo(type(norm).__name__, norm.normalize_str) if norm is not None else None

    def pre_tokenizer(self) -> PreTokenizerInfo | None:
        pre = self._tok.pre_tokenizer
        return PreTokenizerInfo(type(pre).__name__, pre.pre_tokenize_str) if pre is not None else None

    def model_type(self) -> str | None:
        return self._model_type

    # -- the pre-tokenizer floor (core.pretrained.protocols.Pieces) ------------------------------------
    pieces_cut_at_words = False  # a Metaspace prefix or a normalizer may see the whole line

    @property
    def pre_splits(self) -> bool:
        return self._tok.pre_tokenizer is not None

    def pre_pieces(self, text: str) -> list[bytes] | None:
        """``normalize_str`` then ``pre_tokenize_str``, as the library runs them (the whole normalized text when
        it has no pre-tokenizer); None for WordPiece, whose ``##`` pieces are not spelled by bytes alone."""
        if self._wp_prefix is not None:
            return None
        norm, pre = self._tok.normalizer, self._tok.pre_tokenizer
        s = norm.normalize_str(text) if norm is not None else text
        pieces = [p for p, _span in pre.pre_tokenize_str(s)] if pre is not None else [s]
        if self._pre_byte_level:
            u2b = bytelevel_bytes()
            return [bytes(u2b[c] for c in p) if all(c in u2b for c in p) else p.encode("utf-8") for p in pieces]
        return [p.replace("\u2581", " ").encode("utf-8") for p in pieces]

    def spelling_vocab(self) -> list[bytes | None]:
        """Every piece's bytes; special and unknown tokens are None."""
        skip = set(self.specials.values()) | ({self.unk_id} if self.unk_id is not None else set())
        return [None if i in skip or not b else b for i, b in enumerate(self._by_id)]

    def replay_source(self) -> TokenizersReplay | None:
        return TokenizersReplay(self._json, self._byte_level, self._tok) if self.replayable else None

    def replay(self, text: str) -> Replay:
        source = self.replay_source()
        if source is None:
            raise not_replayable(self)
        return replay_tokenizers(self, source, text)

    def merge_tree(self, token_id: int) -> MergeNode | None:
        source = self.replay_source()
        return None if source is None else tokenizers_tree(self, source, token_id)

    # -- the word inspector ----------------------------------------------------------------------
    def explain_layers(self, text: str, enc: Encoding, t: "Translator") -> list[Layer]:
        """The library pre-tokenizer's pieces and marks cut from their base; the model: WordPiece's longest matches,
        Unigram's best paths, or the BPE merges replayed."""
        mtype = self.model_type()
        pre_tok = self.pre_tokenizer()
        norm = self.normalizer()
        text = norm.normalize(text) if norm is not None else text  # later stages see the normalized text
        pre: list[Reason] = []
        if pre_tok is None:
            pre.append(Reason("none", t.gettext("No pre-tokenizer: the model sees the whole text.")))
        else:
            spans = pre_tok.split(text)
            pre.append(Reason("pieces", t.ngettext("The {pre_tokenizer} pre-tokenizer makes {count} piece: {pieces}.",
                                                 "The {pre_tokenizer} pre-tokenizer makes {count} pieces: {pieces}.",
                                                 len(spans)).format(
                pre_tokenizer=pre_tok.name, count=_n(len(spans), t=t), pieces=" | ".join(_q(s, t=t) for s, _o in spans)),
                tuple(t.gettext("{piece} at {offsets}").format(piece=_q(s, t=t), offsets=str(o)) for s, o in spans)))
            for at in mark_cuts(text, [b for _s, (lo, hi) in spans for b in (lo, hi)]):
                pre.append(Reason("mark-split", t.gettext("split before {char} from {base}: the {kind} is cut from its base.").format(
                    char=_cp(text[at]), base=_cp(text[at - 1]), kind=t.gettext(mark_kind(text[at])))))
        model: list[Reason] = []
        if mtype == "WordPiece":
            from ..models import wordpiece

            wp_vocab = wordpiece.load_tokenizer_json(self.tokenizer_json or "", source=self.id)
            for word, _s, _e in wordpiece.split_words(text):
                tr = wordpiece.encode_word(word, wp_vocab)
                ev = tuple((t.gettext("at {position}: tried {candidates} -> {match}") if st.match else
                            t.gettext("at {position}: tried {candidates} -> no match")).format(
                    position=st.position, match=st.match,
                    candidates=", ".join(c.piece for c in st.candidates[:8]) + (" …" if len(st.candidates) > 8 else ""))
                    for st in tr.steps)
                if tr.unk:
                    model.append(Reason("unk", t.gettext("{word}: {reason}.").format(word=_q(word, t=t), reason=localize(tr.reason, t)),
                                        ev[:MAX_EVIDENCE]))
                else:
                    model.append(Reason("longest-match", t.gettext("{word}: greedy longest match from the left gives {pieces}.").format(
                        word=_q(word, t=t), pieces=" ".join(tr.pieces)), ev[:MAX_EVIDENCE]))
        elif mtype == "Unigram":
            from ..models import unigram

            model += unigram_reasons(text, unigram.load_tokenizer_json(self.tokenizer_json or "", source=self.id), t)
        else:
            replayed = replayed_merges(replay_or_none(self, enc.text), t, adjacent=True)
            model += replayed or []
            vocab = self.vocab()
            pieces = [self.id_to_token(tk.id) or "" for tk in enc.tokens if tk.id is not None]
            for a, b in zip(pieces, pieces[1:]) if replayed is None else ():
                if a + b not in vocab:
                    model.append(Reason("no-merge", t.gettext("No token {joined} in this vocabulary, so {left} and {right} stay "
                                                      "apart.").format(joined=_q(a + b, t=t), left=_q(a, t=t), right=_q(b, t=t))))
            if not model:
                model.append(Reason("pieces", t.gettext("Pieces: {pieces}.").format(pieces=" | ".join(pieces))))
        return [Layer("pre-tokenizer", t.gettext("Pre-tokenizer"), tuple(pre)),
                Layer("model", t.gettext("Model: {algorithm}").format(algorithm=mtype or t.gettext("unknown")), tuple(model))]

    def vocab(self) -> dict[str, int]:
        return self._tok.get_vocab()

    def id_to_token(self, token_id: int) -> str | None:
        return self._tok.id_to_token(token_id)

    def token_to_id(self, piece: str) -> int | None:
        return self._tok.token_to_id(piece)

    def is_byte_piece(self, token_id: int) -> bool:
        piece = self._tok.id_to_token(token_id)
        return self._byte_fallback and piece is not None and BYTE_PIECE.match(piece) is not None

    def is_continuation(self, token_id: int) -> bool:
        piece = self._tok.id_to_token(token_id)
        return bool(self._wp_prefix) and piece is not None and piece.startswith(self._wp_prefix)

    @cached_property
    def _scores(self) -> dict[int, float]:
        """Unigram: each piece's log probability, read from the file's ``[piece, score]`` pairs."""
        import json

        if self._model_type != "Unigram":
            return {}
        return {i: float(pair[1]) for i, pair in enumerate(json.loads(self._json)["model"].get("vocab") or [])}

    def piece_score(self, token_id: int) -> float | None:
        return self._scores.get(token_id)

    def special_probes(self) -> list[SpecialProbe]:
        """The library's own two modes on this file (what an app calling ``tokenizers`` gets).

        They run on the adapter's two engines (the default-mode copy the unsafe toggle uses, and the text-mode
        one): both are this file with only ``encode_special_tokens`` set, and encoding does not change them.
        Parsing the file again for every probe cost seconds on a big vocabulary (Gemma 4: 262,144 tokens),
        and the checkpoint report probes every tokenizer.
        """
        return hf_probes(self._tok, (self._engine(True), self._tok))

    def _engine(self, allow_special: bool):  # noqa: ANN202
        if not allow_special:
            return self._tok
        if self._unsafe is None:
            import tokenizers

            unsafe = tokenizers.Tokenizer.from_str(self._json)
            unsafe.encode_special_tokens = False
            self._unsafe = unsafe
        return self._unsafe

    def encode_ids(self, text: str, *, allow_special: bool = False) -> list[int]:
        check_text(text)
        return self._engine(allow_special).encode(text, add_special_tokens=False).ids

    def _piece_bytes(self, tid: int, piece: str) -> bytes:
        if tid in self.special_ids or tid in self._added_ids:
            return piece.encode("utf-8")
        if self._byte_level:
            try:
                return bytes(self._b2u[c] for c in piece)
            except KeyError:
                return piece.encode("utf-8")
        if self._byte_fallback:
            m = BYTE_PIECE.match(piece)
            if m:
                return bytes((int(m.group(1), 16),))
        if self._wp_prefix and piece.startswith(self._wp_prefix):
            piece = piece[len(self._wp_prefix) :]
        return piece.replace("\u2581", " ").encode("utf-8")

    @cached_property
    def _by_id(self) -> list[bytes]:
        """Exact bytes of every id (built on first use)."""
        vocab = self._tok.get_vocab(with_added_tokens=True)
        by_id = [b""] * (max(vocab.values()) + 1)
        for piece, tid in vocab.items():
            by_id[tid] = self._piece_bytes(tid, piece)
        return by_id

    def _encode_spans(self, text: str, allow_special: bool) -> tuple[list[int], list[tuple[int, int]], list[bytes]]:
        enc = self._engine(allow_special).encode(text, add_special_tokens=False)
        ids = enc.ids
        by_id = self._by_id
        data = [by_id[i] for i in ids]
        if self._byte_level and b"".join(data) == text.encode("utf-8"):
            spans = []  # lossless byte-level: spans are running sums
            pos = 0
            for d in data:
                spans.append((pos, pos + len(d)))
                pos += len(d)
            return ids, spans, data
        offsets = char_byte_offsets(text)
        spans = [(offsets[s], offsets[e]) for s, e in enc.offsets]
        return ids, align_byte_spans(text.encode("utf-8"), spans, data), data

    def table(self, text: str, *, allow_special: bool = False) -> TokenTable:
        if not self._byte_level:
            return super().table(text, allow_special=allow_special)
        check_text(text)
        ids_list = self._engine(allow_special).encode(text, add_special_tokens=False).ids
        by_id = self._by_id
        data = [by_id[i] for i in ids_list]
        if b"".join(data) != text.encode("utf-8"):
            return super().table(text, allow_special=allow_special)
        ids = np.asarray(ids_list, dtype=np.int64)
        lens = np.fromiter(map(len, data), dtype=np.int64, count=len(data))
        ends = np.cumsum(lens)
        special_ids = self.special_ids
        return build_table(
            text, ids, ends - lens, ends, data,
            np.fromiter((i in special_ids for i in ids_list), dtype=bool, count=len(ids_list)),
            np.fromiter(map(is_valid_utf8, data), dtype=bool, count=len(data)),
        )  # fmt: skip

    def token_bytes(self, token_id: int) -> bytes:
        piece = self._tok.id_to_token(token_id)
        if piece is None:
            raise ValueError(T_("token id {id} is outside the vocabulary of {tokenizer}", id=str(token_id),
                                tokenizer=self.id))
        return self._piece_bytes(token_id, piece)

    def decode_ids(self, ids: Sequence[int]) -> str:
        return self._tok.decode(list(ids), skip_special_tokens=False)


def register_hf_unpacker(cls: type[HFTokenizer]) -> None:
    """Rebuild ``cls`` (this class or a subclass in another adapter module) from its packed form."""

    def unpack(entry: "ZooEntry", packed: Packed) -> HFTokenizer:
        import tokenizers

        if packed.meta.get("library") != tokenizers.__version__:
            raise PackMismatchError
        by_id, _lens = unpack_table(packed.parts)
        return cls(entry, packed.parts["json"], dict(packed.meta["facts"]), by_id)

    register_unpacker(cls.pack_kind)(unpack)


register_hf_unpacker(HFTokenizer)


@register_loader("hf-json")
def load_hf_json(entry: "ZooEntry", data: bytes | None, where: str) -> HFTokenizer:
    """Catalog ``loader="hf-json"`` (and uploads, Hub ids): a ``tokenizer.json``, its JSON checked first."""
    assert data is not None
    limits.parse_tokenizer_json(data, where)
    return HFTokenizer.from_bytes(entry, data, where)


def _is_json(data: bytes) -> bool:
    """A JSON object (a Tekken file is recognised first: it is more specific)."""
    return data[:4096].lstrip().startswith(b"{")


register_upload("hf-json", label="Hugging Face tokenizer.json (user)", specials=SPECIALS_AS_TEXT, detect=_is_json,
                priority=20, suffixes=(".json",))
