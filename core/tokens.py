"""The shared token record and the tokenizer interface every page uses.

Every tokenizer in the app (baselines, BPE trained here, pretrained ones)
encodes to an :class:`Encoding`: a tuple of :class:`Token` with the token's
exact bytes and where it sits in the input. Rendering and metrics only ever
look at this record, so a new tokenizer family plugs in by implementing
:class:`Tokenizer`.

For long inputs the same facts come as columns (:class:`TokenTable`, numpy
arrays, no Python object per token); :func:`table_stats` gives the same
counts as :func:`stats` from them, and :meth:`TokenTable.tokens` builds
:class:`Token` records only for the few a view draws.

This module holds no algorithm (the baselines are in :mod:`core.models.baselines`);
it imports only :mod:`core.text`.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Callable, Mapping, Protocol, Sequence

import numpy as np

from .text.boundaries import BoundaryReport, analyze, is_valid_utf8
from .text.units import byte_owner, char_byte_offsets, inside_cluster


@dataclass(frozen=True)
class Token:
    """One token.

    ``data`` is the token's exact bytes as the model sees them (possibly
    half a code point). ``byte_start``/``byte_end`` locate it in the UTF-8
    input; ``start``/``end`` are the code point offsets of the characters
    it touches (a byte token that is half a Bangla letter maps to that
    whole letter's span). ``id`` is None for tokenizers without ids.
    """

    id: int | None
    data: bytes
    byte_start: int
    byte_end: int
    start: int
    end: int
    special: bool = False

    @property
    def text(self) -> str:
        """The token decoded alone; invalid UTF-8 shows as U+FFFD."""
        return self.data.decode("utf-8", errors="replace")


@dataclass(frozen=True)
class Encoding:
    """A text and its tokens, with derived boundary metrics."""

    text: str
    tokens: tuple[Token, ...]

    @cached_property
    def report(self) -> BoundaryReport:
        """Boundary kinds per cut, cut% and bad% (see :mod:`core.text.boundaries`)."""
        return analyze(self.text, [(t.byte_start, t.byte_end) for t in self.tokens])

    @property
    def ids(self) -> list[int | None]:
        return [t.id for t in self.tokens]

    @property
    def byte_spans(self) -> list[tuple[int, int]]:
        """Each token's UTF-8 byte span over :attr:`text` (what :func:`core.text.disagree.disagreement` compares)."""
        return [(t.byte_start, t.byte_end) for t in self.tokens]


@dataclass(frozen=True)
class EncodingStats:
    """The counts shown next to every rendered encoding."""

    tokens: int
    words: int
    chars: int
    bytes: int
    tokens_per_word: float
    chars_per_token: float
    bytes_per_token: float
    cut_pct: float
    bad_pct: float

    def as_row(self) -> dict[str, object]:
        """Column name -> value, rounded and named as the compare table's columns (a page's summary table)."""
        return {"tokens": self.tokens, "tokens/word": round(self.tokens_per_word, 3),
                "chars/token": round(self.chars_per_token, 3), "bytes/token": round(self.bytes_per_token, 3),
                "cut%": round(self.cut_pct, 2), "bad%": round(self.bad_pct, 2)}


def _stats(text: str, n: int, cut_pct: float, bad_pct: float) -> EncodingStats:
    words = len(text.split())
    chars = len(text)
    nbytes = len(text.encode("utf-8"))
    return EncodingStats(
        tokens=n,
        words=words,
        chars=chars,
        bytes=nbytes,
        tokens_per_word=n / words if words else 0.0,
        chars_per_token=chars / n if n else 0.0,
        bytes_per_token=nbytes / n if n else 0.0,
        cut_pct=cut_pct,
        bad_pct=bad_pct,
    )


def stats(enc: Encoding) -> EncodingStats:
    """Tokens, words (whitespace-separated), chars and ratios for ``enc``."""
    return _stats(enc.text, len(enc.tokens), enc.report.cut_pct, enc.report.bad_pct)


@dataclass(frozen=True)
class SpecialProbe:
    """One way a tokenizer can encode user text, for the special-token injection check.

    ``run(text)`` gives ``(id, surface)`` pairs (surface: the input text the
    token covers, None when the library does not say); ``specials`` maps the
    control ids this mode can make to their spelling.
    """

    mode: str
    run: Callable[[str], list[tuple[int, str | None]]]
    specials: Mapping[int, str]


class Tokenizer(Protocol):
    """What the app needs from any tokenizer: pages draw it, analyses measure it, the CLI reports it.

    Implemented by the pretrained adapters (:class:`core.pretrained.adapter.PretrainedTokenizer`),
    the tokenizers trained here (:class:`core.analysis.recipes.TrainedTokenizer`,
    :class:`core.analysis.recipes.VocabBaseline`) and the step-by-step models
    (:class:`core.models.bpe.BpeTokenizer`, :mod:`core.models.baselines`, through
    :class:`TokenizerDefaults`).
    """

    @property
    def id(self) -> str:
        """Stable id (a shelf id, a file name, a recipe)."""
        ...

    @property
    def name(self) -> str:
        """Display name."""
        ...

    @property
    def trained_json(self) -> str | None:
        """The ``tokenizer.json`` this tokenizer was trained (or loaded) into here; None for library tokenizers.

        Doubles as the capability "trained here": the save/reload proof and the padding demo need it.
        """
        ...

    @property
    def vocab_size(self) -> int: ...

    @property
    def special_ids(self) -> frozenset[int]: ...

    def encode(self, text: str) -> Encoding:
        """Tokens of ``text`` with exact bytes and spans."""
        ...

    def decode(self, tokens: Sequence[Token]) -> str:
        """Text from tokens (for a round-trip check)."""
        ...

    def normalize(self, text: str) -> str:
        """``text`` as the round-trip check compares it (the tokenizer's own normalizer, or identity)."""
        ...

    def unknown_count(self, enc: Encoding) -> int:
        """How many tokens of ``enc`` are the unknown token."""
        ...

    def token_text(self, token_id: int) -> str:
        """One token shown alone."""
        ...

    def special_probes(self) -> list[SpecialProbe]:
        """The encode modes the special-token injection check runs (see :class:`SpecialProbe`)."""
        ...


class IdCodec(Tokenizer, Protocol):
    """A :class:`Tokenizer` asked for ids and columns directly (the fast paths of long texts and streams)."""

    @property
    def ids_complete(self) -> bool:
        """True when :meth:`encode_ids` gives every token's id (a baseline's units may have none: then False,
        and callers take the ids from :meth:`encode`)."""
        ...

    def encode_ids(self, text: str) -> list[int]:
        """Token ids only (specials spelled in ``text`` stay text)."""
        ...

    def decode_ids(self, ids: Sequence[int]) -> str:
        """Text from ids."""
        ...

    def count_tokens(self, texts: Sequence[str]) -> int:
        """Tokens of each text encoded on its own, summed."""
        ...

    def table(self, text: str) -> "TokenTable":
        """The encoding of ``text`` as columns (:class:`TokenTable`)."""
        ...

    def byte_span_columns(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """Each token's UTF-8 byte start and end over ``text`` (int64 columns): what :meth:`table` puts in
        ``byte_start``/``byte_end``, without the token bytes and cut kinds (the fast path of chunking)."""
        ...


class SpecialText(Protocol):
    """What a tokenizer says about control-token spellings and its unknown token."""

    @property
    def unk_id(self) -> int | None:
        """The unknown token's id, None without one."""
        ...

    def special_hits(self, text: str) -> Sequence[object]:
        """Where ``text`` spells a control token of this tokenizer (empty without control tokens)."""
        ...


class Trained(Protocol):
    """How a tokenizer came to be: the facts the evaluation table shows (None / empty when not trained here)."""

    @property
    def recipe(self) -> str | None: ...

    @property
    def vocab_requested(self) -> int | None: ...

    @property
    def vocab_note(self) -> str: ...

    @property
    def note_parts(self) -> Sequence[tuple[str, Sequence[tuple[str, str]]]]:
        """:attr:`vocab_note` as message templates and their values, to be written in any interface language
        (:func:`core.analysis.recipes.render_note`); empty when the note has no such form."""
        ...

    @property
    def train_seconds(self) -> float | None: ...


class FullTokenizer(IdCodec, SpecialText, Trained, Protocol):
    """Every question above at once: what :class:`TokenizerDefaults` answers for any tokenizer kind."""


class CodecDefaults:
    """Defaults of :class:`Tokenizer`, :class:`IdCodec` and :class:`SpecialText` for a tokenizer with no
    normalizer, no unknown token and no control tokens; subclasses implement ``encode``, ``decode``,
    ``token_text``, ``id``, ``name`` and ``vocab_size``, and override what they know better (a columnar
    :meth:`table`, real ids). A tokenizer trained here (with its own :class:`Trained` facts as dataclass
    fields) takes these; every other kind takes :class:`TokenizerDefaults`."""

    trained_json: str | None = None
    unk_id: int | None = None
    ids_complete: bool = False

    def encode(self, text: str) -> Encoding:
        raise NotImplementedError

    def decode(self, tokens: Sequence[Token]) -> str:
        raise NotImplementedError

    @property
    def special_ids(self) -> frozenset[int]:
        return frozenset()

    def normalize(self, text: str) -> str:
        return text

    def unknown_count(self, enc: Encoding) -> int:
        return 0

    def special_hits(self, text: str) -> Sequence[object]:
        return ()

    def special_probes(self) -> list[SpecialProbe]:
        """One mode: the tokenizer's own encode (it has no control tokens text could become)."""
        def run(text: str) -> list[tuple[int, str | None]]:
            return [(t.id, None) for t in self.encode(text).tokens]  # type: ignore[misc]  # (None: a unit without id)

        return [SpecialProbe("built in", run, {})]

    def encode_ids(self, text: str) -> list[int]:
        """The ids of :meth:`encode` (units without an id are left out: :attr:`ids_complete` is False)."""
        return [t.id for t in self.encode(text).tokens if t.id is not None]

    def decode_ids(self, ids: Sequence[int]) -> str:
        """Text of ids through :meth:`decode` (a tokenizer whose text is not its tokens' bytes overrides it)."""
        raise NotImplementedError(f"{type(self).__name__} decodes tokens, not ids")

    def count_tokens(self, texts: Sequence[str]) -> int:
        return sum(len(self.encode(t).tokens) for t in texts)

    def table(self, text: str) -> "TokenTable":
        return table_of(self.encode(text))

    def byte_span_columns(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """The byte columns of :meth:`table` (a tokenizer that knows its spans faster overrides it)."""
        t = self.table(text)
        return t.byte_start, t.byte_end


class TokenizerDefaults(CodecDefaults):
    """:class:`CodecDefaults` and the :class:`Trained` facts of a tokenizer not trained here (so every kind
    answers every question of :class:`FullTokenizer`)."""

    recipe: str | None = None
    vocab_requested: int | None = None
    vocab_note: str = ""
    note_parts: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    train_seconds: float | None = None


def count_tokens(tok: IdCodec, texts: Sequence[str]) -> int:
    """Tokens of each text encoded on its own, summed (``tok.count_tokens``)."""
    return tok.count_tokens(texts)


def token_table(tok: IdCodec, text: str) -> "TokenTable":
    """``tok``'s encoding of ``text`` as columns (``tok.table``)."""
    return tok.table(text)


def tokens_from_byte_spans(
    text: str, spans: Sequence[tuple[int, int]], ids: Sequence[int | None] | None = None
) -> tuple[Token, ...]:
    """Build :class:`Token` records for byte spans over ``text``'s UTF-8.

    Code point offsets are derived so a span that cuts a code point covers
    the whole of that code point.
    """
    data = text.encode("utf-8")
    out = []
    for k, (bs, be) in enumerate(spans):
        start = byte_owner(text, bs)
        end = byte_owner(text, be - 1) + 1 if be > bs else start
        out.append(Token(None if ids is None else ids[k], data[bs:be], bs, be, start, end))
    return tuple(out)


def tokens_from_char_spans(text: str, spans: Sequence[tuple[int, int]], ids: Sequence[int | None] | None = None) -> tuple[Token, ...]:
    """Build :class:`Token` records for code point spans over ``text``."""
    offsets = char_byte_offsets(text)
    return tuple(
        Token(None if ids is None else ids[k], text[s:e].encode("utf-8"), offsets[s], offsets[e], s, e)
        for k, (s, e) in enumerate(spans)
    )


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

    def tokens(self, limit: int | None = None) -> tuple[Token, ...]:
        """:class:`Token` records for the first ``limit`` tokens (all when None); an id of -1 is no id."""
        n = len(self.ids) if limit is None else min(limit, len(self.ids))
        ids, bs, be = self.ids[:n].tolist(), self.byte_start[:n].tolist(), self.byte_end[:n].tolist()
        st, en, sp = self.start[:n].tolist(), self.end[:n].tolist(), self.special[:n].tolist()
        return tuple(
            Token(None if ids[k] < 0 else ids[k], self.data[k], bs[k], be[k], st[k], en[k], sp[k]) for k in range(n)
        )

    @property
    def byte_spans(self) -> list[tuple[int, int]]:
        """Each token's UTF-8 byte span (as :attr:`Encoding.byte_spans`)."""
        return list(zip(self.byte_start.tolist(), self.byte_end.tolist()))

    @property
    def inside_grapheme(self) -> int:
        """Boundaries inside a cluster, including those inside a code point (like the report)."""
        return int(np.count_nonzero(self.cut))

    @property
    def inside_codepoint(self) -> int:
        return int(np.count_nonzero(self.cut == 2))



def build_table(
    text: str,
    ids: np.ndarray,
    byte_start: np.ndarray,
    byte_end: np.ndarray,
    data: list[bytes],
    special: np.ndarray,
    valid_utf8: np.ndarray,
) -> TokenTable:
    """Columns for byte spans over ``text`` (vectorised; grapheme cuts from :func:`core.text.units.inside_cluster`)."""
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


def table_of(enc: Encoding) -> TokenTable:
    """An :class:`Encoding` as columns (for tokenizers that only build tokens)."""
    toks = enc.tokens
    n = len(toks)

    def col(f: Callable[[Token], int]) -> np.ndarray:
        return np.fromiter(map(f, toks), dtype=np.int64, count=n)

    data = [t.data for t in toks]
    return build_table(
        enc.text, col(lambda t: -1 if t.id is None else t.id), col(lambda t: t.byte_start), col(lambda t: t.byte_end),
        data, np.fromiter((t.special for t in toks), dtype=bool, count=n),
        np.fromiter(map(is_valid_utf8, data), dtype=bool, count=n),
    )  # fmt: skip


def table_stats(text: str, table: TokenTable) -> EncodingStats:
    """:func:`stats` from columns: the same figures, without building the token records."""
    n = len(table)
    cut_pct = 100.0 * table.inside_grapheme / (n - 1) if n > 1 else 0.0
    bad_pct = 100.0 * int(np.count_nonzero(~table.valid_utf8)) / n if n else 0.0
    return _stats(text, n, cut_pct, bad_pct)
