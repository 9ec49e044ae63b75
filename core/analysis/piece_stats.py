"""How a trained tokenizer cuts its training words: :class:`PieceStats`, the figures behind a vocabulary note.

Split from :mod:`core.analysis.recipes` (which re-exports it and writes the notes).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable

from ..text.units import bytelevel_bytes


@dataclass(frozen=True)
class PieceStats:
    """What a pre-tokenizer leaves for merges to work on (one training corpus).

    Merges never cross a piece boundary, so these numbers bound what any
    BPE-style trainer can build. Each distinct word is pre-tokenized once as
    it stands mid-line (after a space), so line-initial variants are not
    counted separately. ``merge_ceiling`` = special tokens +
    alphabet + the sum of (symbols - 1) over distinct pieces: every merge
    shortens at least one distinct piece by one symbol. ``words_cut_pct`` is
    the share of whitespace-separated words (occurrences) that the
    pre-tokenizer splits into more than one piece.
    """

    distinct_pieces: int
    mean_chars: float
    alphabet: int
    merge_ceiling: int
    words_cut_pct: float
    pieces_per_word: float


def piece_stats(tok, lines: Iterable[str], *, byte_level: bool, wordpiece: bool = False,  # noqa: ANN001 - tokenizers.Tokenizer
                specials: int = 4) -> PieceStats:
    """Pre-tokenize ``lines`` with ``tok``'s normalizer and pre-tokenizer and measure the pieces."""

    norm = tok.normalizer
    pre = tok.pre_tokenizer
    word_counts: Counter[str] = Counter()
    for line in lines:
        word_counts.update((norm.normalize_str(line) if norm is not None else line).split())
    pieces: Counter[str] = Counter()
    words = cut_words = word_pieces = 0
    for word, n in word_counts.items():
        # Each distinct word once, as it stands mid-line (after a space), weighted by its count.
        parts = [p for p, _ in pre.pre_tokenize_str(" " + word) if p.strip(" \u2581\u0120")]
        for p in parts:
            pieces[p] += n
        words += n
        word_pieces += n * len(parts)
        cut_words += n * (len(parts) > 1)
    if not pieces:
        return PieceStats(0, 0.0, 0, specials, 0.0, 0.0)
    if byte_level:
        alphabet = 256
    elif wordpiece:
        alphabet = len({p[0] for p in pieces}) + len({c for p in pieces for c in p[1:]})
    else:
        alphabet = len({c for p in pieces for c in p})
    ceiling = specials + alphabet + sum(len(p) - 1 for p in pieces)
    if byte_level:
        b2u = bytelevel_bytes()
        chars = [len(bytes(b2u[c] for c in p).decode("utf-8", "replace").strip()) for p in pieces]
    else:
        chars = [len(p.strip(" \u2581")) for p in pieces]
    return PieceStats(
        distinct_pieces=len(pieces),
        mean_chars=sum(chars) / len(chars),
        alphabet=alphabet,
        merge_ceiling=ceiling,
        words_cut_pct=100.0 * cut_words / words if words else 0.0,
        pieces_per_word=word_pieces / words if words else 0.0,
    )
