"""The adapter interface every pretrained tokenizer implements: ids, exact bytes, spans, flags.

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
columns (:class:`core.tokens.TokenTable`) without one Python object per token.

The backends live one per module beside this one (``tiktoken_adapter``,
``sentencepiece_adapter``, ``hf_adapter``, ``clip_adapter``,
``baseline_adapter``, ``gguf_adapter``). Each registers the catalog loaders it
serves with :func:`register_loader`; :mod:`core.pretrained.zoo` imports every
``*_adapter`` module of this package before its first load and builds an
entry with ``LOADERS[entry.loader]``, so a new backend is one module plus
catalog lines. This module does not locate or verify files: the zoo does.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterable, Mapping, Sequence, Union

import numpy as np

from ..i18n import T_
from ..text.boundaries import is_valid_utf8
from ..text.errors import UserError
from ..text.native import fence
from ..text.units import char_spans
from ..tokens import Encoding, SpecialProbe, Token, TokenizerDefaults, TokenTable, build_table, stats

if TYPE_CHECKING:  # pragma: no cover
    from ..i18n import Translator
    from .catalog import ZooEntry
    from .explain import Layer
    from .replay.records import MergeNode, Replay

#: A byte-fallback piece (``<0x41>``): SentencePiece and ``tokenizers`` spell single bytes this way.
BYTE_PIECE = re.compile(r"^<0x([0-9A-Fa-f]{2})>$")


#: Adapter methods that call into a native library; subclasses get them fenced automatically.
FENCED_METHODS = ("__init__", "encode_ids", "_encode_spans", "token_bytes", "decode_ids", "count_tokens", "table", "encode",
                  "decode")


def _fence_label(self: "PretrainedTokenizer", *args: object, **_kw: object) -> str:
    entry = self.__dict__.get("entry") or (args[0] if args else None)  # __init__(self, entry, ...) before it is set
    return str(getattr(entry, "name", None) or type(self).__name__)


class TextError(UserError):
    """Text that no tokenizer can take (lone surrogates from a broken argv or file)."""


def check_text(text: str) -> None:
    """Raise :class:`TextError` if ``text`` has a lone surrogate (it has no UTF-8 form)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise TextError(T_("text is not valid Unicode: lone surrogate {code} at position {position}",
                           code="U+%04X" % ord(text[exc.start]), position=exc.start)) from None


@dataclass(frozen=True)
class SpecialHit:
    """A place in the input that spells a control token of this tokenizer."""

    text: str
    start: int
    end: int
    id: int



def _trie_regex(node: dict[str, Any]) -> str:
    """The regex of one trie node: its children by first character (one at most can match), each a compressed
    chain of single-child nodes, made optional when a name ends here (greedy: the longer name is tried first)."""
    parts = []
    for ch in sorted(k for k in node if k):
        child, lit = node[ch], re.escape(ch)
        while len(child) == 1 and "" not in child:
            (nxt, child), = child.items()
            lit += re.escape(nxt)
        parts.append(lit + _trie_regex(child))
    if not parts:
        return ""
    body = parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"
    return f"(?:{body})?" if "" in node else body


def special_pattern(names: Iterable[str]) -> re.Pattern[str]:
    """A regex that finds, leftmost first, the longest of ``names`` at each place (what an alternation of the
    names sorted longest first finds), with the names factored by common prefixes.

    A flat alternation tries every name at every candidate character: o200k_harmony's 1,091 control tokens
    (mostly ``<|reserved_N|>``) made finding them in a chat prompt cost more than encoding it. The prefix tree
    tries one branch per character.

    >>> [m.group() for m in special_pattern(["<a>", "<a>b", "<ab>", "[X]"]).finditer("<a>b<ab><a>[X]")]
    ['<a>b', '<ab>', '<a>', '[X]']
    """
    names = list(names)
    trie: dict[str, Any] = {}
    for name in names:
        node = trie
        for ch in name:
            node = node.setdefault(ch, {})
        node[""] = {}
    try:
        return re.compile(_trie_regex(trie))
    except (re.error, RecursionError, OverflowError):  # a name set too deep for the regex compiler: the flat form
        return re.compile("|".join(map(re.escape, sorted(names, key=len, reverse=True))))


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


@dataclass(frozen=True)
class NormalizerInfo:
    """A tokenizer's own normalizer: its name (a class name, or a :class:`core.i18n.Message`) and the function."""

    name: object
    normalize: Callable[[str], str]


@dataclass(frozen=True)
class PreTokenizerInfo:
    """A library pre-tokenizer object: its class name and ``split(text) -> [(piece, (start, end))]``."""

    name: str
    split: Callable[[str], list[tuple[str, tuple[int, int]]]]


# ---------------------------------------------------------------------------
# The loader registry: catalog ``loader`` name -> the function that builds the adapter
# ---------------------------------------------------------------------------

#: ``(entry, data, where) -> adapter``: ``data`` is the entry's file, already read and hash-checked by the
#: zoo (None for a loader registered with ``needs_file=False``); ``where`` names the file in messages.
#: A loader raises ``ValueError`` (or :class:`core.pretrained.catalog.ZooError`) for a file it cannot use.
LoaderFn = Callable[["ZooEntry", Union[bytes, None], str], "PretrainedTokenizer"]


@dataclass(frozen=True)
class RegisteredLoader:
    """One catalog ``loader`` name and the adapter module's function that serves it."""

    name: str
    build: LoaderFn
    #: False for a backend with nothing to read (the baselines): the zoo then passes ``data=None``.
    needs_file: bool = True

    @property
    def module(self) -> str:
        """The module that registered it (where a reader finds the backend)."""
        return str(getattr(self.build, "__module__", ""))


#: Every registered loader by name (filled when the adapter modules are imported: see
#: :func:`core.pretrained.zoo.discover_adapters`).
LOADERS: dict[str, RegisteredLoader] = {}


def register_loader(name: str, *, needs_file: bool = True) -> Callable[[LoaderFn], LoaderFn]:
    """Register the decorated function as the loader of catalog entries with ``loader=name``.

    >>> @register_loader("doc-example", needs_file=False)
    ... def _load(entry, data, where):
    ...     raise NotImplementedError
    >>> LOADERS.pop("doc-example").needs_file
    False

    Registering a second, different function under a taken name is a programming error (two adapter
    modules claiming one loader); the same function again (a module reloaded) replaces it.
    """

    def deco(fn: LoaderFn) -> LoaderFn:
        old = LOADERS.get(name)
        if old is not None and (old.module, getattr(old.build, "__qualname__", None)) != (
                getattr(fn, "__module__", ""), getattr(fn, "__qualname__", None)):
            raise ValueError(f"loader {name!r} is already registered by {old.module}")
        LOADERS[name] = RegisteredLoader(name, fn, needs_file)
        return fn

    return deco


# ---------------------------------------------------------------------------
# Packed form: a built adapter as its backend loads it fastest (kept by core.pretrained.packs)
# ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Packed:
    """A built adapter in the form its backend loads fastest (:meth:`PretrainedTokenizer.packed`).

    ``kind`` names the registered unpacker that rebuilds it (with its format version, ``"hf/1"``);
    ``meta`` holds JSON-able facts, ``parts`` the binary ones (a converted file, per-id tables).
    """

    kind: str
    meta: Mapping[str, Any]
    parts: Mapping[str, bytes]


class PackMismatchError(ValueError):
    """A packed form that does not fit this process (another library version, tables of another size): the
    zoo builds from the source file instead. Never shown to a reader, hence no message."""


#: ``(entry, packed) -> adapter``; raises ``ValueError`` when the packed form does not fit (the zoo then
#: builds from the source file again).
UnpackFn = Callable[["ZooEntry", Packed], "PretrainedTokenizer"]

#: Every registered unpacker by kind (filled when the adapter modules are imported).
UNPACKERS: dict[str, UnpackFn] = {}


def register_unpacker(kind: str) -> Callable[[UnpackFn], UnpackFn]:
    """Register the decorated function as the one that rebuilds :class:`Packed` forms of ``kind``."""

    def deco(fn: UnpackFn) -> UnpackFn:
        UNPACKERS[kind] = fn
        return fn

    return deco


def pack_table(by_id: Sequence[bytes]) -> dict[str, bytes]:
    """A per-id bytes table as two parts: the lengths (little-endian uint32) and the bytes laid end to end."""
    lens = np.fromiter(map(len, by_id), dtype="<u4", count=len(by_id))
    return {"lens": lens.tobytes(), "bytes": b"".join(by_id)}


def unpack_table(parts: Mapping[str, bytes]) -> tuple[list[bytes], np.ndarray]:
    """The table :func:`pack_table` wrote, and its lengths as an int64 array."""
    lens = np.frombuffer(parts["lens"], dtype="<u4").astype(np.int64)
    ends = np.cumsum(lens)
    blob = bytes(parts["bytes"])
    if int(ends[-1] if len(ends) else 0) != len(blob):
        raise PackMismatchError
    return [blob[s:e] for s, e in zip((ends - lens).tolist(), ends.tolist())], lens


class PretrainedTokenizer(TokenizerDefaults):
    """The adapter interface (implements :class:`core.tokens.IdCodec`, :class:`~core.tokens.SpecialText`; the
    :class:`~core.tokens.Trained` facts and ``trained_json`` are the defaults: not trained here).

    Subclasses provide :meth:`encode_ids`, :meth:`_encode_spans`,
    :meth:`token_bytes` and :meth:`decode_ids`, and answer the questions the
    analyses ask about their backend (:meth:`normalizer`, :meth:`pre_tokenizer`,
    :meth:`replay_source`, :meth:`special_probes`, the vocabulary lookups...);
    the defaults here are those of a tokenizer with none of these.
    """

    entry: "ZooEntry"
    specials: dict[str, int]
    unk_id: int | None = None
    #: The backend's name for display and benchmarks ("tiktoken", "tokenizers"...); nothing outside the adapter
    #: modules branches on it: the inspector layers, the replay and the upload formats are the adapter's methods
    #: and registrations.
    family: ClassVar[str] = "other"
    #: The regex the text is split with before the model runs (tiktoken); None when the backend has none.
    split_pattern: str | None = None
    #: The ``tokenizer.json`` the backend runs (Hugging Face ``tokenizers``); None for other backends.
    tokenizer_json: str | None = None
    #: :meth:`encode_ids` gives every token's id (see :class:`core.tokens.IdCodec`).
    ids_complete: bool = True

    def __init_subclass__(cls, **kwargs: object) -> None:
        # every method that reaches a native library is fenced (core.text.native), so a Rust
        # panic on a hostile input is a NativeError (a ValueError) naming the tokenizer, never a dead page.
        super().__init_subclass__(**kwargs)
        for name in FENCED_METHODS:
            fn = cls.__dict__.get(name)
            if callable(fn) and not getattr(fn, "__fenced__", False):
                setattr(cls, name, fence(_fence_label)(fn))

    #: True when :meth:`replay` can replay merges (a BPE whose adapter brings a replay engine).
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

    @property
    def algorithm(self) -> str:
        """The model's algorithm as the catalog names it (what the inspector and the replay error show)."""
        return self.entry.algorithm

    # -- to implement ------------------------------------------------------
    def encode_ids(self, text: str, *, allow_special: bool = False) -> list[int]:
        """Token ids only (the fast path). Raises :class:`TextError` on a lone surrogate, as :meth:`encode` does."""
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

    def decode_checked(self, ids: Sequence[int]) -> str | None:
        """Text from ``ids`` in one library call that checks every id as it decodes: raises :class:`ValueError`
        when an id names no token (or is not a whole number). None when the library cannot tell (it skips or
        invents text for an unknown id): the caller checks the ids itself, then calls :meth:`decode_ids`."""
        return None

    def count_tokens(self, texts: Sequence[str]) -> int:
        """Tokens of each text encoded on its own, summed (control-token spellings count as text)."""
        return sum(len(self.encode_ids(t)) for t in texts)

    # -- what a backend knows about itself (defaults: nothing to say) ----------
    def normalizer(self) -> NormalizerInfo | None:
        """The backend's own normalizer, or None when the model sees the text as typed."""
        return None

    def pre_tokenizer(self) -> PreTokenizerInfo | None:
        """The library's pre-tokenizer object, or None (no separate stage, or a regex: :attr:`split_pattern`)."""
        return None

    def model_type(self) -> str | None:
        """The model's kind as its file names it (``BPE``, ``WordPiece``, ``Unigram``), None when not said."""
        return None

    def model_proto(self) -> bytes | None:
        """The serialized SentencePiece ``ModelProto`` (SentencePiece backends only)."""
        return None

    def replay_source(self) -> object | None:
        """The record the adapter's replay engine reads (ranks, a ``tokenizer.json``, a model proto), None when it
        cannot replay (the same as :attr:`replayable`)."""
        return None

    def replay(self, text: str) -> "Replay":
        """``text`` replayed merge by merge by this backend's engine (called by
        :func:`core.pretrained.replay.replay` once it checked :attr:`replayable`, the text and its length)."""
        from .replay.records import not_replayable

        raise not_replayable(self)

    def merge_tree(self, token_id: int) -> "MergeNode | None":
        """How token ``token_id`` is built merge by merge (called by :func:`core.pretrained.replay.merge_tree` for
        an ordinary token of a replayable tokenizer); None for a backend without merges."""
        return None

    # -- what the word inspector shows (core.analysis.inspect; records and shared helpers in .explain) ----------
    def explain_normalizer(self, text: str, t: "Translator") -> "Layer":
        """The normalizer layer: what :meth:`normalizer` does to ``text``, sentences in ``t``'s language."""
        from .explain import normalizer_layer

        return normalizer_layer(self, text, t)

    def explain_layers(self, text: str, enc: Encoding, t: "Translator") -> "list[Layer]":
        """This backend's pre-tokenizer and model layers for ``text`` (encoded as ``enc``); none by default (the
        inspector then shows the normalizer and bytes layers only)."""
        return []

    def vocab(self) -> dict[str, int]:
        """Every piece as the library spells it -> id (empty when the backend has no piece table)."""
        return {}

    def id_to_token(self, token_id: int) -> str | None:
        """The piece of ``token_id`` as the library spells it (``▁``, byte-level alphabet...), None if unknown."""
        return None

    def token_to_id(self, piece: str) -> int | None:
        """The id of a piece as the library spells it, None when it is not in the vocabulary."""
        return None

    def is_byte_piece(self, token_id: int) -> bool:
        """Whether ``token_id`` is a byte-fallback piece (``<0x41>``)."""
        return False

    def has_token(self, token_id: int) -> bool:
        """Whether ``token_id`` names a token (ids below :attr:`vocab_size` can be holes between control tokens)."""
        if not 0 <= token_id < self.vocab_size:
            return False
        try:
            self.token_bytes(token_id)
        except ValueError:
            return False
        return True

    def piece_score(self, token_id: int) -> float | None:
        """The model's score of a piece (Unigram log probability, SentencePiece BPE merge priority); None without."""
        return None

    def is_continuation(self, token_id: int) -> bool:
        """Whether ``token_id`` is a word-internal WordPiece piece (spelled with ``##``)."""
        return False

    def special_probes(self) -> list[SpecialProbe]:
        """The ways this tokenizer can encode user text, for the special-token injection check: as the pages
        encode (``default``) and as an unsafe app does (``allow_special=True``)."""
        specials = {i: s for s, i in self.specials.items()}

        def run(allow: bool) -> Callable[[str], list[tuple[int, str | None]]]:
            def go(text: str) -> list[tuple[int, str | None]]:
                enc = self.encode(text, allow_special=allow)
                return [(t.id, text[t.start : t.end]) for t in enc.tokens]  # type: ignore[misc]
            return go

        return [SpecialProbe("default", run(False), specials), SpecialProbe("allow_special=True", run(True), specials)]

    def packed(self) -> Packed | None:
        """This tokenizer in the form its backend loads fastest, or None when the source file is that form.

        The zoo keeps it beside the shelf, named by the source file's sha256 (:mod:`core.pretrained.packs`),
        and rebuilds the adapter from it with ``UNPACKERS[packed.kind]`` on later loads.
        """
        return None

    # -- shared ------------------------------------------------------------
    def encode(self, text: str, *, allow_special: bool = False) -> Encoding:
        """Tokens of ``text`` with ids, exact bytes, byte and code point spans.

        >>> from core.pretrained import zoo
        >>> [t.text for t in zoo.load("o200k_base").encode("রাজশাহী").tokens]
        ['রাজ', 'শ', 'াহী']
        """
        check_text(text)
        ids, spans, data = self._encode_spans(text, allow_special)
        special_ids = self.special_ids
        starts, ends = char_spans(text, spans)
        return Encoding(text, tuple(Token(tid, d, bs, be, start, end, tid in special_ids)
                                    for tid, (bs, be), d, start, end in zip(ids, spans, data, starts, ends)))

    def encode_spans(self, text: str, *,
                     allow_special: bool = False) -> tuple[list[int], list[tuple[int, int]], list[bytes]]:
        """What :meth:`encode` builds its tokens from: ids, UTF-8 byte spans over ``text`` and exact token bytes,
        for a caller that places the tokens of a piece in a larger text itself (one offset table, not one per piece)."""
        check_text(text)
        return self._encode_spans(text, allow_special)

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
        return special_pattern(self.specials)

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


for _name in FENCED_METHODS:  # the shared methods too (a subclass may not override them)
    _fn = PretrainedTokenizer.__dict__.get(_name)
    if callable(_fn):
        setattr(PretrainedTokenizer, _name, fence(_fence_label)(_fn))
del _name, _fn
