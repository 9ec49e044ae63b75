"""One adapter over every pretrained tokenizer: ids, exact bytes, spans, flags.

Whatever runs underneath (the real ``tiktoken`` engine for cl100k/o200k/
Llama/Tekken, ``sentencepiece``, Hugging Face ``tokenizers``, or a
baseline), :meth:`PretrainedTokenizer.encode` returns a
:class:`core.tokens.Encoding`: every token's id, its exact bytes, its UTF-8
byte span and code point span in the input, and whether it is a control
token. Rendering and metrics only look at that record.

Special tokens: text that spells a control token ("<|endoftext|>",
"[SEP]", "[INST]") is encoded as plain text by default and can be listed
with :meth:`PretrainedTokenizer.special_hits`; only ``allow_special=True``
turns it into the control id (that is what an unsafe app does, and the
pages offer it as a demonstration).

For long inputs :meth:`PretrainedTokenizer.table` builds the same facts as
columns (numpy arrays) without one Python object per token.

This module does not locate or verify files: :mod:`core.zoo` does.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING, Sequence

import numpy as np
import regex

from .boundaries import is_valid_utf8
from .tokens import ByteTokenizer, CodePointTokenizer, Encoding, Token, WordTokenizer
from .units import byte_owner, bytelevel_bytes, char_byte_offsets

if TYPE_CHECKING:  # pragma: no cover
    from .zoo import ZooEntry

_CLUSTER = regex.compile(r"\X")


class TextError(ValueError):
    """Text that no tokenizer can take (lone surrogates from a broken argv or file)."""


def check_text(text: str) -> None:
    """Raise :class:`TextError` if ``text`` has a lone surrogate (it has no UTF-8 form)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise TextError(f"text is not valid Unicode: lone surrogate U+{ord(text[exc.start]):04X} at position {exc.start}") from None


@dataclass(frozen=True)
class SpecialHit:
    """A place in the input that spells a control token of this tokenizer."""

    text: str
    start: int
    end: int
    id: int


@dataclass(frozen=True)
class TokenTable:
    """An encoding as columns: what :class:`Encoding` holds, for large inputs.

    ``cut`` is the kind of the boundary before each token: 0 none/clean,
    1 inside a grapheme cluster (between code points), 2 inside a code point.
    """

    ids: np.ndarray
    data: list[bytes]
    byte_start: np.ndarray
    byte_end: np.ndarray
    start: np.ndarray
    end: np.ndarray
    special: np.ndarray
    valid_utf8: np.ndarray
    cut: np.ndarray

    def __len__(self) -> int:
        return len(self.ids)

    @property
    def inside_grapheme(self) -> int:
        """Boundaries inside a cluster, including those inside a code point (like the report)."""
        return int(np.count_nonzero(self.cut))

    @property
    def inside_codepoint(self) -> int:
        return int(np.count_nonzero(self.cut == 2))


# Grapheme cluster break classes per code point (UAX #29), as bit flags, filled lazily.
_CTL, _CR, _LF, _EXT, _PREP, _HANGUL, _RI, _ZWJ, _PICT, _LINKEXT, _CONS, _LINKER = (1 << i for i in range(12))
_CLASS_RES = [
    (_CTL, regex.compile(r"[\p{GCB=Control}\p{GCB=CR}\p{GCB=LF}]")),
    (_CR, regex.compile(r"\p{GCB=CR}")),
    (_LF, regex.compile(r"\p{GCB=LF}")),
    (_EXT, regex.compile(r"[\p{GCB=Extend}\p{GCB=ZWJ}\p{GCB=SpacingMark}]")),
    (_PREP, regex.compile(r"\p{GCB=Prepend}")),
    (_HANGUL, regex.compile(r"[\p{GCB=L}\p{GCB=V}\p{GCB=T}\p{GCB=LV}\p{GCB=LVT}]")),
    (_RI, regex.compile(r"\p{GCB=Regional_Indicator}")),
    (_ZWJ, regex.compile(r"\p{GCB=ZWJ}")),
    (_PICT, regex.compile(r"\p{Extended_Pictographic}")),
    (_LINKEXT, regex.compile(r"[\p{InCB=Linker}\p{InCB=Extend}]")),
    (_CONS, regex.compile(r"\p{InCB=Consonant}")),
    (_LINKER, regex.compile(r"\p{InCB=Linker}")),
]
_FLAGS = np.zeros(0x110000, dtype=np.uint16)
_KNOWN = np.zeros(0x110000, dtype=bool)


def _flags(cps: np.ndarray) -> np.ndarray:
    """Break-class flags of code points (classifying code points not seen before)."""
    unknown = cps[~_KNOWN[cps]]
    if len(unknown):
        for cp in np.unique(unknown).tolist():
            ch = chr(cp)
            _FLAGS[cp] = sum(bit for bit, rx in _CLASS_RES if rx.match(ch))
            _KNOWN[cp] = True
    return _FLAGS[cps]


def _definite(a: int, b: int) -> bool | None:
    """Whether a boundary between code points with flags ``a``, ``b`` is inside a cluster, or None if context decides."""
    if a & _CR and b & _LF:
        return True  # GB3
    if (a | b) & _CTL:
        return False  # GB4, GB5
    if b & _EXT or a & _PREP:
        return True  # GB9, GB9a, GB9b
    if (a & b & _HANGUL) or (a & b & _RI) or (a & _ZWJ and b & _PICT) or (a & _LINKEXT and b & _CONS):
        return None  # GB6-8, GB12/13, GB11, GB9c: look at more context
    return False  # GB999


def inside_cluster(text: str, positions: np.ndarray) -> np.ndarray:
    """For code point offsets ``0 < p < len(text)``: is ``p`` inside a grapheme cluster?

    Equivalent to segmenting the whole text with ``\\X`` (tests check it
    against the Unicode break-test file), but vectorised: pairs of code
    points decide almost every position, Indic conjuncts (GB9c) are decided
    from runs of linkers; only Hangul syllable sequences, regional-indicator
    pairs and emoji ZWJ sequences run ``\\X`` from the last certain boundary.
    """
    if len(positions) == 0:
        return np.zeros(0, dtype=bool)
    cps = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    fl = _flags(cps)
    fa = fl[positions - 1]
    fb = fl[positions]
    ctl = ((fa | fb) & _CTL) != 0
    crlf = ((fa & _CR) != 0) & ((fb & _LF) != 0)
    out = ((((fb & _EXT) != 0) | ((fa & _PREP) != 0)) & ~ctl) | crlf
    # GB9c: Consonant [Extend Linker]* Linker [Extend Linker]* x Consonant
    conjunct = ((fa & _LINKEXT) != 0) & ((fb & _CONS) != 0) & ~out
    if conjunct.any():
        idx = np.arange(len(cps))
        is_le = (fl & _LINKEXT) != 0
        run_start = np.maximum.accumulate(np.where(is_le, 0, idx + 1))  # first index of the linker/extend run
        linkers = np.concatenate(([0], np.cumsum((fl & _LINKER) != 0)))
        p = positions[conjunct]
        rs = run_start[p - 1]
        has_linker = linkers[p] - linkers[rs] > 0
        before_is_cons = (rs > 0) & ((fl[np.maximum(rs - 1, 0)] & _CONS) != 0)
        out[conjunct] = has_linker & before_is_cons
    hard = (((fa & fb & (_HANGUL | _RI)) != 0) | (((fa & _ZWJ) != 0) & ((fb & _PICT) != 0))) & ~ctl & ~out
    for k in np.flatnonzero(hard).tolist():
        out[k] = _inside_by_scan(text, int(positions[k]), fl)
    return out


def _inside_by_scan(text: str, p: int, fl: np.ndarray) -> bool:
    q = p - 1
    while q > 0 and _definite(int(fl[q - 1]), int(fl[q])) is not False:
        q -= 1
    pos = q
    while pos < p:
        pos = _CLUSTER.match(text, pos).end()
    return pos != p


def build_table(
    text: str,
    ids: np.ndarray,
    byte_start: np.ndarray,
    byte_end: np.ndarray,
    data: list[bytes],
    special: np.ndarray,
    valid_utf8: np.ndarray,
) -> TokenTable:
    """Columns for byte spans over ``text`` (vectorised)."""
    raw = np.frombuffer(text.encode("utf-8"), dtype=np.uint8)
    is_start = np.append((raw & 0xC0) != 0x80, True)  # byte starts a code point (or is the end)
    owner = np.cumsum(is_start) - 1  # code point index of every byte offset
    start = owner[byte_start]
    last = np.maximum(byte_end - 1, 0)
    end = np.where(byte_end > byte_start, owner[last] + 1, start)
    cut = np.zeros(len(ids), dtype=np.int8)
    if len(ids) > 1:
        cuts = byte_start[1:]
        in_cp = ~is_start[cuts]
        chars = owner[cuts]
        inner = (~in_cp) & (chars > 0) & (chars < len(text))
        in_gc = np.zeros(len(cuts), dtype=bool)
        in_gc[inner] = inside_cluster(text, chars[inner])
        cut[1:] = np.where(in_cp, 2, np.where(in_gc, 1, 0))
    return TokenTable(ids, data, byte_start, byte_end, start, end, special, valid_utf8, cut)


def align_byte_spans(raw: bytes, spans: Sequence[tuple[int, int]], data: Sequence[bytes]) -> list[tuple[int, int]]:
    """Exact byte spans when a library reports one span for several byte tokens.

    Byte-fallback and byte-level tokens that are parts of one character
    come back from SentencePiece / ``tokenizers`` with that whole
    character's span (or an empty one). When a run of tokens shares a span
    and their bytes joined are exactly the text there, each gets its own
    slice; otherwise the library's spans are kept.
    """
    out = list(spans)
    i = 0
    n = len(spans)
    while i < n:
        lo, hi = spans[i]
        j = i + 1
        # Extend the run while the next span overlaps it, or the run so far is empty and the next starts there.
        while j < n and (spans[j][0] < hi or lo == hi == spans[j][0]):
            hi = max(hi, spans[j][1])
            j += 1
        if j - i > 1 and raw[lo:hi] == b"".join(data[i:j]):
            pos = lo
            for k in range(i, j):
                out[k] = (pos, pos + len(data[k]))
                pos += len(data[k])
        i = j
    return out


class PretrainedTokenizer:
    """The adapter interface (implements :class:`core.tokens.Tokenizer`).

    Subclasses provide :meth:`encode_ids`, :meth:`_encode_spans`,
    :meth:`token_bytes` and :meth:`decode_ids`.
    """

    entry: "ZooEntry"
    specials: dict[str, int]
    unk_id: int | None = None
    #: True when :mod:`core.replay` can replay merges (a tiktoken ranks table).
    replayable: bool = False

    @property
    def id(self) -> str:
        return self.entry.id

    @property
    def name(self) -> str:
        return self.entry.name

    @property
    def vocab_size(self) -> int:
        return self.entry.vocab_size

    # -- to implement ------------------------------------------------------
    def encode_ids(self, text: str, *, allow_special: bool = False) -> list[int]:
        """Token ids only (the fast path)."""
        raise NotImplementedError

    def _encode_spans(self, text: str, allow_special: bool) -> tuple[list[int], list[tuple[int, int]], list[bytes]]:
        """Ids, UTF-8 byte spans in ``text`` and exact token bytes."""
        raise NotImplementedError

    def token_bytes(self, token_id: int) -> bytes:
        """The exact bytes of one token as the model sees them."""
        raise NotImplementedError

    def decode_ids(self, ids: Sequence[int]) -> str:
        """Text from ids, as the library decodes it."""
        raise NotImplementedError

    # -- shared ------------------------------------------------------------
    def encode(self, text: str, *, allow_special: bool = False) -> Encoding:
        """Tokens of ``text`` with ids, exact bytes, byte and code point spans.

        >>> from core import zoo
        >>> [t.text for t in zoo.load("o200k_base").encode("রাজশাহী").tokens]
        ['রাজ', 'শ', 'াহী']
        """
        check_text(text)
        ids, spans, data = self._encode_spans(text, allow_special)
        special_ids = self.special_ids
        toks = []
        for tid, (bs, be), d in zip(ids, spans, data):
            start = byte_owner(text, bs)
            end = byte_owner(text, be - 1) + 1 if be > bs else start
            toks.append(Token(tid, d, bs, be, start, end, tid in special_ids))
        return Encoding(text, tuple(toks))

    def decode(self, tokens: Sequence[Token]) -> str:
        """Text from tokens (through the library's own decoder)."""
        return self.decode_ids([t.id for t in tokens if t.id is not None])

    def token_text(self, token_id: int) -> str:
        """One token decoded alone (half a character shows as U+FFFD)."""
        return self.token_bytes(token_id).decode("utf-8", errors="replace")

    @cached_property
    def special_ids(self) -> frozenset[int]:
        """Control token ids (the unknown token is a model output, not a control token)."""
        return frozenset(self.specials.values()) - {self.unk_id}

    @cached_property
    def _special_re(self) -> re.Pattern[str] | None:
        if not self.specials:
            return None
        names = sorted(self.specials, key=len, reverse=True)
        return re.compile("|".join(map(re.escape, names)))

    def special_hits(self, text: str) -> list[SpecialHit]:
        """Where ``text`` spells one of this tokenizer's control tokens."""
        pat = self._special_re
        if pat is None:
            return []
        return [SpecialHit(m.group(), m.start(), m.end(), self.specials[m.group()]) for m in pat.finditer(text)]

    def unknown_count(self, enc: Encoding) -> int:
        """How many tokens are the unknown token."""
        if self.unk_id is None:
            return 0
        return sum(t.id == self.unk_id for t in enc.tokens)

    def round_trip_ok(self, text: str, enc: Encoding | None = None) -> bool:
        """decode(encode(text)) == text."""
        enc = enc if enc is not None else self.encode(text)
        return self.decode(enc.tokens) == text

    def table(self, text: str, *, allow_special: bool = False) -> TokenTable:
        """The encoding as columns (see :class:`TokenTable`)."""
        check_text(text)
        ids, spans, data = self._encode_spans(text, allow_special)
        arr = np.asarray(spans, dtype=np.int64).reshape(-1, 2)
        special_ids = self.special_ids
        return build_table(
            text,
            np.asarray(ids, dtype=np.int64),
            arr[:, 0],
            arr[:, 1],
            data,
            np.fromiter((i in special_ids for i in ids), dtype=bool, count=len(ids)),
            np.fromiter((is_valid_utf8(d) for d in data), dtype=bool, count=len(data)),
        )


# ---------------------------------------------------------------------------
# tiktoken (cl100k_base, o200k_base, Llama 3/4, Tekken, user .tiktoken)
# ---------------------------------------------------------------------------


class TiktokenTokenizer(PretrainedTokenizer):
    """Byte-level BPE run by the real ``tiktoken`` engine.

    tiktoken is lossless: the tokens' bytes joined are exactly the input's
    UTF-8, so byte spans are running sums of token lengths.
    """

    replayable = True

    def __init__(self, entry: "ZooEntry", ranks: dict[bytes, int], pattern: str, specials: dict[str, int]) -> None:
        import tiktoken

        self.entry = entry
        self.ranks = ranks
        self.pattern = pattern
        self.specials = dict(specials)
        try:
            self._enc = tiktoken.Encoding(entry.id, pat_str=pattern, mergeable_ranks=ranks, special_tokens=self.specials)
        except Exception as exc:  # the Rust core rejects bad tables/patterns with assorted errors
            raise ValueError(f"{entry.source}: tiktoken cannot build this tokenizer ({exc})") from None
        size = max(max(ranks.values()), max(specials.values(), default=-1)) + 1
        by_id: list[bytes] = [b""] * size
        for tok, rank in ranks.items():
            by_id[rank] = tok
        for name, sid in self.specials.items():
            by_id[sid] = name.encode("utf-8")
        self._by_id = by_id
        self._lens = np.fromiter(map(len, by_id), dtype=np.int64, count=size)
        self._valid = np.fromiter(map(is_valid_utf8, by_id), dtype=bool, count=size)
        self._special_mask = np.zeros(size, dtype=bool)
        self._special_mask[list(self.specials.values())] = True
        if not entry.vocab_size:
            self.entry = replace(entry, vocab_size=size)

    @property
    def engine(self):  # noqa: ANN201 - tiktoken.Encoding
        """The underlying ``tiktoken.Encoding`` (for benchmarks and parity tests)."""
        return self._enc

    def encode_ids(self, text: str, *, allow_special: bool = False) -> list[int]:
        if allow_special:
            return self._enc.encode(text, allowed_special="all")
        return self._enc.encode(text, disallowed_special=())

    def _encode_spans(self, text: str, allow_special: bool) -> tuple[list[int], list[tuple[int, int]], list[bytes]]:
        ids = self.encode_ids(text, allow_special=allow_special)
        by_id = self._by_id
        data = [by_id[i] for i in ids]
        spans = []
        pos = 0
        for d in data:
            spans.append((pos, pos + len(d)))
            pos += len(d)
        return ids, spans, data

    def table(self, text: str, *, allow_special: bool = False) -> TokenTable:
        check_text(text)
        ids = np.asarray(self.encode_ids(text, allow_special=allow_special), dtype=np.int64)
        ends = np.cumsum(self._lens[ids])
        by_id = self._by_id
        return build_table(
            text, ids, ends - self._lens[ids], ends, [by_id[i] for i in ids.tolist()],
            self._special_mask[ids], self._valid[ids],
        )  # fmt: skip

    def token_bytes(self, token_id: int) -> bytes:
        if not 0 <= token_id < len(self._by_id):
            raise ValueError(f"token id {token_id} is outside {self.id}'s vocabulary")
        return self._by_id[token_id]

    def decode_ids(self, ids: Sequence[int]) -> str:
        return b"".join(self._by_id[i] for i in ids).decode("utf-8", errors="replace")


# ---------------------------------------------------------------------------
# SentencePiece
# ---------------------------------------------------------------------------

_BYTE_PIECE = re.compile(r"^<0x([0-9A-Fa-f]{2})>$")


class SentencePieceTokenizer(PretrainedTokenizer):
    """A SentencePiece model. ``▁`` is a space; byte-fallback pieces are one byte.

    Spans come from SentencePiece's own alignment to the input (so the
    dummy-prefix ``▁`` of the first word maps to no input character).
    """

    def __init__(self, entry: "ZooEntry", sp) -> None:  # noqa: ANN001 - SentencePieceProcessor
        self._sp = sp
        n = sp.get_piece_size()
        self.entry = replace(entry, vocab_size=n) if not entry.vocab_size else entry
        self.specials = {sp.id_to_piece(i): i for i in range(n) if sp.is_control(i)}
        self.unk_id = sp.unk_id()
        by_id = []
        for i in range(n):
            piece = sp.id_to_piece(i)
            m = _BYTE_PIECE.match(piece) if sp.is_byte(i) else None
            if m:
                by_id.append(bytes((int(m.group(1), 16),)))
            else:
                by_id.append(piece.replace("\u2581", " ").encode("utf-8"))
        self._by_id = by_id
        self._lens = np.fromiter(map(len, by_id), dtype=np.int64, count=n)
        self._valid = np.fromiter(map(is_valid_utf8, by_id), dtype=bool, count=n)
        self._special_mask = np.zeros(n, dtype=bool)
        self._special_mask[list(self.special_ids)] = True

    @classmethod
    def from_bytes(cls, entry: "ZooEntry", data: bytes, where: str) -> "SentencePieceTokenizer":
        import sentencepiece as spm

        sp = spm.SentencePieceProcessor()
        try:
            sp.LoadFromSerializedProto(data)
        except (RuntimeError, OSError, TypeError) as exc:
            raise ValueError(f"{where} is not a valid SentencePiece model ({str(exc).splitlines()[0]})") from None
        return cls(entry, sp)

    def encode_ids(self, text: str, *, allow_special: bool = False) -> list[int]:
        # SentencePiece never turns text into control pieces; allow_special has nothing to allow.
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
            raise ValueError(f"token id {token_id} is outside {self.id}'s vocabulary")
        return self._by_id[token_id]

    def decode_ids(self, ids: Sequence[int]) -> str:
        return self._sp.decode(list(ids))


# ---------------------------------------------------------------------------
# Hugging Face tokenizers (tokenizer.json, Hub)
# ---------------------------------------------------------------------------


class HFTokenizer(PretrainedTokenizer):
    """A Hugging Face ``tokenizers`` tokenizer (any model type).

    Special tokens typed in the text are encoded as text
    (``encode_special_tokens = True``); the post-processor's [CLS]/[SEP]
    are not added, so tokens cover exactly the input.
    """

    def __init__(self, entry: "ZooEntry", json_text: str) -> None:
        import json

        import tokenizers

        self._json = json_text
        self._tok = tokenizers.Tokenizer.from_str(json_text)
        self._tok.encode_special_tokens = True
        self._unsafe: object | None = None
        cfg = json.loads(json_text)
        self.specials = {a["content"]: a["id"] for a in cfg.get("added_tokens") or [] if a.get("special")}
        model = cfg.get("model") or {}
        self._wp_prefix = model.get("continuing_subword_prefix") if model.get("type") == "WordPiece" else None
        self._byte_level = '"ByteLevel"' in json.dumps(cfg.get("decoder")) or '"ByteLevel"' in json.dumps(cfg.get("pre_tokenizer"))
        self._byte_fallback = bool(model.get("byte_fallback"))
        unk = model.get("unk_token")
        self.unk_id = self._tok.token_to_id(unk) if isinstance(unk, str) else (model.get("unk_id") if model.get("type") == "Unigram" else None)
        self._b2u = bytelevel_bytes() if self._byte_level else {}
        n = self._tok.get_vocab_size(with_added_tokens=True)
        self.entry = replace(entry, vocab_size=n) if not entry.vocab_size else entry

    @classmethod
    def from_bytes(cls, entry: "ZooEntry", data: bytes, where: str) -> "HFTokenizer":
        try:
            return cls(entry, data.decode("utf-8"))
        except Exception as exc:  # tokenizers raises plain Exception on bad JSON
            raise ValueError(f"{where} is not a valid tokenizer.json ({str(exc).splitlines()[0][:120]})") from None

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
        return self._engine(allow_special).encode(text, add_special_tokens=False).ids

    def _piece_bytes(self, tid: int, piece: str) -> bytes:
        if tid in self.special_ids:
            return piece.encode("utf-8")
        if self._byte_level:
            try:
                return bytes(self._b2u[c] for c in piece)
            except KeyError:
                return piece.encode("utf-8")
        if self._byte_fallback:
            m = _BYTE_PIECE.match(piece)
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
            raise ValueError(f"token id {token_id} is outside {self.id}'s vocabulary")
        return self._piece_bytes(token_id, piece)

    def decode_ids(self, ids: Sequence[int]) -> str:
        return self._tok.decode(list(ids), skip_special_tokens=False)


# ---------------------------------------------------------------------------
# Baselines
# ---------------------------------------------------------------------------


class BaselineTokenizer(PretrainedTokenizer):
    """The three baselines of :mod:`core.tokens` behind the same adapter."""

    specials: dict[str, int] = {}

    def __init__(self, entry: "ZooEntry", inner) -> None:  # noqa: ANN001 - a core.tokens baseline
        self.entry = entry
        self._inner = inner
        self.specials = {}

    @classmethod
    def for_id(cls, entry: "ZooEntry") -> "BaselineTokenizer":
        inner = {"codepoints": CodePointTokenizer, "bytes": ByteTokenizer, "words": WordTokenizer}[entry.id]()
        return cls(entry, inner)

    def encode(self, text: str, *, allow_special: bool = False) -> Encoding:
        check_text(text)
        return self._inner.encode(text)

    def encode_ids(self, text: str, *, allow_special: bool = False) -> list[int]:
        return [t.id for t in self.encode(text).tokens if t.id is not None]

    def _encode_spans(self, text: str, allow_special: bool) -> tuple[list[int], list[tuple[int, int]], list[bytes]]:
        toks = self._inner.encode(text).tokens
        return [-1 if t.id is None else t.id for t in toks], [(t.byte_start, t.byte_end) for t in toks], [t.data for t in toks]

    def decode(self, tokens: Sequence[Token]) -> str:
        return self._inner.decode(tokens)

    def token_bytes(self, token_id: int) -> bytes:
        if self.entry.id == "codepoints":
            return chr(token_id).encode("utf-8", "surrogatepass")
        if self.entry.id == "bytes" and 0 <= token_id < 256:
            return bytes((token_id,))
        raise ValueError(f"{self.id} has no token id {token_id}")

    def decode_ids(self, ids: Sequence[int]) -> str:
        return b"".join(self.token_bytes(i) for i in ids).decode("utf-8", errors="replace")


# ---------------------------------------------------------------------------
# One row of the comparison table
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Summary:
    """What the compare table shows for one tokenizer on one text."""

    tokenizer: str
    name: str
    tokens: int
    tokens_per_word: float
    chars_per_token: float
    bytes_per_token: float
    cut_pct: float
    bad_pct: float
    unknown: int
    round_trip_ok: bool
    special_text: int

    def as_row(self) -> dict[str, object]:
        """Column name -> value, in display order (for tables, CSV and JSON)."""
        return {
            "tokenizer": self.tokenizer,
            "tokens": self.tokens,
            "tokens/word": round(self.tokens_per_word, 3),
            "chars/token": round(self.chars_per_token, 3),
            "bytes/token": round(self.bytes_per_token, 3),
            "cut%": round(self.cut_pct, 2),
            "bad%": round(self.bad_pct, 2),
            "unknown": self.unknown,
            "round-trip ok": self.round_trip_ok,
            "special text": self.special_text,
        }


def summarize(tok: PretrainedTokenizer, enc: Encoding) -> Summary:
    """The comparison metrics of ``enc`` (made by ``tok``)."""
    from .tokens import stats

    s = stats(enc)
    return Summary(
        tokenizer=tok.id,
        name=tok.name,
        tokens=s.tokens,
        tokens_per_word=s.tokens_per_word,
        chars_per_token=s.chars_per_token,
        bytes_per_token=s.bytes_per_token,
        cut_pct=s.cut_pct,
        bad_pct=s.bad_pct,
        unknown=tok.unknown_count(enc),
        round_trip_ok=tok.round_trip_ok(enc.text, enc),
        special_text=len(tok.special_hits(enc.text)),
    )
