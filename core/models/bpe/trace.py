"""What a training run did, step by step (:class:`BpeTrace` and its records), and the trace used: a word
segmented (:func:`encode_trace`) or a whole text tokenized (:class:`BpeTokenizer`)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal, Sequence

import numpy as np

from ...pipeline.pretokenize import pretokenize
from ...text.boundaries import is_valid_utf8
from ...text.units import char_byte_offsets
from ...tokens import Encoding, Token, TokenizerDefaults, TokenTable, build_table, tokens_from_byte_spans
from .encode import EncodeTrace, RankOf, Unit, apply_merges, decode, initial_pieces, merge_steps

TieBreak = Literal["first-seen", "hf"]
TIE_BREAKS: tuple[TieBreak, ...] = ("first-seen", "hf")


@dataclass(frozen=True)
class PairCount:
    """A candidate pair and its (frequency-weighted) count."""

    left: bytes
    right: bytes
    count: int


@dataclass(frozen=True)
class MergeStep:
    """One training step: the pair merged and the corpus right after it.

    ``top_pairs`` are the best candidates *before* this merge, best first;
    the first is the pair merged.
    """

    step: int
    left: bytes
    right: bytes
    merged: bytes
    count: int
    total_tokens: int
    vocab_size: int
    top_pairs: tuple[PairCount, ...]


@dataclass(frozen=True)
class BpeTrace:
    """Everything a training run did, step by step.

    The vocabulary and merge table are derived from ``alphabet`` and
    ``steps``; they are never stored twice.
    """

    unit: Unit
    tie_break: TieBreak
    pattern: str
    words: tuple[tuple[str, int], ...]
    alphabet: tuple[bytes, ...]
    initial_total_tokens: int
    steps: tuple[MergeStep, ...]
    #: Pairs seen fewer times than this were not merged (0: no limit).
    min_frequency: int = 0

    @property
    def initial_vocab_size(self) -> int:
        return len(self.alphabet)

    def merges(self, upto: int | None = None) -> list[tuple[bytes, bytes]]:
        """The learned merges, in order (the first ``upto`` if given)."""
        return [(s.left, s.right) for s in self.steps[:upto]]

    @cached_property
    def pair_ranks(self) -> dict[tuple[bytes, bytes], int]:
        """``(left, right) -> rank`` (rank 0 is the first merge)."""
        return {(s.left, s.right): i for i, s in enumerate(self.steps)}

    @cached_property
    def vocab(self) -> dict[bytes, int]:
        """Piece -> id: the alphabet in order, then each new merged piece."""
        ids = {piece: i for i, piece in enumerate(self.alphabet)}
        for s in self.steps:
            ids.setdefault(s.merged, len(ids))
        return ids

    def vocab_size(self, upto: int | None = None) -> int:
        """Vocabulary size after ``upto`` merges (all by default)."""
        if upto is None or upto >= len(self.steps):
            upto = len(self.steps)
        return self.steps[upto - 1].vocab_size if upto > 0 else self.initial_vocab_size

    def total_tokens(self, upto: int) -> int:
        """Corpus length in tokens after ``upto`` merges."""
        return self.steps[upto - 1].total_tokens if upto > 0 else self.initial_total_tokens

    def rank_of(self, upto: int | None = None) -> RankOf:
        """Pair rank lookup limited to the first ``upto`` merges."""
        ranks = self.pair_ranks
        limit = len(self.steps) if upto is None else upto

        def rank(left: bytes, right: bytes) -> int | None:
            r = ranks.get((left, right))
            return r if r is not None and r < limit else None

        return rank

    def segment(self, word: str, upto: int | None = None) -> list[bytes]:
        """``word``'s pieces after the first ``upto`` merges (as in training)."""
        return apply_merges(word, self.rank_of(upto), unit=self.unit, mode="learned-order")

    def tokenizer(self, upto: int | None = None) -> "BpeTokenizer":
        """A :class:`~core.tokens.Tokenizer` using the first ``upto`` merges."""
        return BpeTokenizer(self, len(self.steps) if upto is None else min(upto, len(self.steps)))


def encode_trace(
    piece: str | bytes,
    rank_of: RankOf | BpeTrace,
    *,
    unit: Unit = "byte",
    mode: Literal["learned-order", "lowest-rank"] | None = None,
) -> EncodeTrace:
    """Encode one pre-tokenized piece, recording every merge.

    ``rank_of`` is a pair-rank function (see :func:`tiktoken_rank_of`) or a
    :class:`BpeTrace` (its merges are used). Two replay modes:

    - ``learned-order`` (default for a trace): apply merges in the order
      they were learned, each to all its occurrences left to right. This is
      exactly what training did to the word.
    - ``lowest-rank`` (default for a rank function): tiktoken's loop:
      repeatedly merge the leftmost adjacent pair with the lowest rank,
      one occurrence per step.

    >>> from core.models.bpe import train_bpe
    >>> t = train_bpe({"low": 5, "lowest": 2}, merges=3)
    >>> [p.decode() for p in encode_trace("lowly", t, unit="codepoint").final]
    ['low', 'l', 'y']
    """
    if isinstance(rank_of, BpeTrace):
        unit = rank_of.unit
        rank_of = rank_of.rank_of()
        mode = mode or "learned-order"
    parts = initial_pieces(piece, unit) if isinstance(piece, str) else [bytes((b,)) for b in piece]
    initial = tuple(parts)
    return EncodeTrace(initial, tuple(merge_steps(parts, rank_of, mode or "lowest-rank")))


@dataclass(frozen=True)
class BpeTokenizer(TokenizerDefaults):
    """A trained trace used as a tokenizer: split by its pattern, replay merges.

    Pieces missing from the vocabulary (a code point never seen in training)
    get id None; their bytes are kept, so nothing is lost.
    """

    trace: BpeTrace
    upto: int

    @property
    def id(self) -> str:
        return f"bpe-{self.trace.unit}-{self.upto}"

    @property
    def name(self) -> str:
        unit = "byte" if self.trace.unit == "byte" else "code point"
        return f"BPE ({unit}, {self.upto} merges)"

    @property
    def vocab_size(self) -> int:
        return len(self.trace.alphabet) + min(self.upto, len(self.trace.steps))

    def token_text(self, token_id: int) -> str:
        piece = next((p for p, i in self.trace.vocab.items() if i == token_id), b"")
        return piece.decode("utf-8", errors="replace") if isinstance(piece, bytes) else str(piece)

    def _pieces(self, text: str) -> tuple[list[tuple[int, int]], list[int | None], list[bytes]]:
        """Byte spans, ids (None when not in the vocabulary) and bytes of every token."""
        rank = self.trace.rank_of(self.upto)
        vocab = self.trace.vocab
        spans: list[tuple[int, int]] = []
        ids: list[int | None] = []
        data: list[bytes] = []
        data_offsets = char_byte_offsets(text)
        for piece in pretokenize(text, self.trace.pattern):
            pos = data_offsets[piece.start]
            for p in apply_merges(piece.text, rank, unit=self.trace.unit, mode="learned-order"):
                spans.append((pos, pos + len(p)))
                ids.append(vocab.get(p))
                data.append(p)
                pos += len(p)
        return spans, ids, data

    def encode(self, text: str) -> Encoding:
        spans, ids, _ = self._pieces(text)
        return Encoding(text, tokens_from_byte_spans(text, spans, ids))

    def table(self, text: str) -> TokenTable:
        """The encoding as columns (no record per token; an id of -1 is a piece outside the vocabulary)."""
        spans, ids, data = self._pieces(text)
        n = len(spans)
        arr = np.asarray(spans, dtype=np.int64).reshape(-1, 2)
        return build_table(
            text, np.fromiter((-1 if i is None else i for i in ids), dtype=np.int64, count=n), arr[:, 0], arr[:, 1],
            data, np.zeros(n, dtype=bool), np.fromiter(map(is_valid_utf8, data), dtype=bool, count=n),
        )  # fmt: skip

    def decode(self, tokens: Sequence[Token]) -> str:
        return decode([t.data for t in tokens])
