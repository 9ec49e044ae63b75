"""Byte-pair encoding, traced: training and encoding that return every step.

Training (:func:`train_bpe`) counts adjacent pairs over a word-frequency table, merges the most frequent pair
everywhere, and repeats, recording each step in a :class:`BpeTrace`; encoding (:func:`encode_trace`) replays
merges on one piece, also from a pretrained tiktoken ranks table (:func:`tiktoken_rank_of`), and records each
merge; :class:`BpeTokenizer` uses a trace as a tokenizer.

Pieces are always ``bytes``: a code point piece is its UTF-8 encoding. That
lets one encoder replay our merges and a pretrained tiktoken ranks table.

Modules (one idea each; import from here, the package re-exports them):

- :mod:`.encode`: merges applied to a piece (both replay modes), the encode trace, decoding (:class:`StreamDecoder`).
- :mod:`.trace`: the training trace and its records, a word segmented by it, :class:`BpeTokenizer`.
- :mod:`.words`: training input (a typed word table, a corpus counted in memory or streamed).
- :mod:`.train`: the trainer (incremental pair counts, a lazy heap, the two tie-break rules).

Not here: pre-tokenizer regexes (:mod:`core.pipeline.pretokenize`), rendering, and
any normalization (text is used exactly as given).
"""
from __future__ import annotations

from .encode import (
    UNITS,
    BpeInputError,
    EncodeStep,
    EncodeTrace,
    RankOf,
    StreamDecoder,
    Unit,
    apply_merges,
    decode,
    initial_pieces,
    merge_steps,
    tiktoken_rank_of,
)
from .trace import TIE_BREAKS, BpeTokenizer, BpeTrace, MergeStep, PairCount, TieBreak, encode_trace
from .train import train_bpe
from .words import MAX_TRACE_WORDS, MAX_WORD_COUNT, STREAM_WINDOW, parse_word_table, word_counts, word_counts_stream

__all__ = [
    "MAX_TRACE_WORDS", "MAX_WORD_COUNT", "STREAM_WINDOW", "TIE_BREAKS", "UNITS", "BpeInputError", "BpeTokenizer",
    "BpeTrace", "EncodeStep", "EncodeTrace", "MergeStep", "PairCount", "RankOf", "StreamDecoder", "TieBreak", "Unit",
    "apply_merges", "decode", "encode_trace", "initial_pieces", "merge_steps", "parse_word_table",
    "tiktoken_rank_of", "train_bpe", "word_counts", "word_counts_stream",
]
