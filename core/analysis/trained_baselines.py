"""The baselines of the training comparison: words or code points with a fixed vocabulary from the training text.

Split from :mod:`core.analysis.recipes` (which re-exports them): the recipes train real tokenizers, these
count what the training text holds, so every metric has its lower ends.
"""
from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable, Literal, Sequence

from ..i18n import N_, T_, Message
from ..text.errors import UserError
from ..tokens import Encoding, Token, TokenizerDefaults, tokens_from_char_spans


class RecipeError(UserError):
    """A recipe that cannot run as asked (unknown name, bad size, empty corpus)."""


#: The unknown token of a fixed vocabulary (id 0).
UNK = "[UNK]"


# ---------------------------------------------------------------------------
# Baselines: words and code points with a fixed vocabulary from the training text
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class VocabBaseline(TokenizerDefaults):
    """Words (``\\S+``) or code points, with the vocabulary seen in training; the rest is [UNK].

    Words are joined with one space on decoding, so the round trip fails
    for unknown words (and for other whitespace, absent from line-based
    held-out text). Id 0 is [UNK].
    """

    id: str
    name: str
    unit: Literal["words", "codepoints"]
    vocab: dict[str, int] = field(repr=False)
    train_seconds: float = 0.0
    vocab_requested: int | None = None
    min_frequency: int | None = None
    vocab_note: str = ""
    recipe: str | None = None

    @property
    def vocab_size(self) -> int:
        return len(self.vocab) + 1

    @property
    def vocab_obtained(self) -> int:
        return self.vocab_size

    @property
    def special_ids(self) -> frozenset[int]:
        return frozenset({0})

    @cached_property
    def _by_id(self) -> dict[int, str]:
        return {i: s for s, i in self.vocab.items()}

    def encode(self, text: str) -> Encoding:
        if self.unit == "codepoints":
            spans = [(i, i + 1) for i in range(len(text))]
        else:
            spans = [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]
        ids = [self.vocab.get(text[s:e], 0) for s, e in spans]
        return Encoding(text, tokens_from_char_spans(text, spans, ids))

    def decode(self, tokens: Sequence[Token]) -> str:
        parts = [UNK if t.id == 0 else self._by_id[t.id] for t in tokens]  # type: ignore[index]
        return (" " if self.unit == "words" else "").join(parts)

    def unknown_count(self, enc: Encoding) -> int:
        return sum(t.id == 0 for t in enc.tokens)

    def token_text(self, token_id: int) -> str:
        return UNK if token_id == 0 else self._by_id[token_id]

    #: Not a ``tokenizer.json``: there is nothing to save, reload or pad (the default ``trained_json = None``); its
    #: one encode mode has no control token user text could become ([UNK] is id 0): the default probe.


#: Baselines shown in the metrics table: id -> (label, unit, minimum count).
BASELINES: dict[str, tuple[str, Literal["words", "codepoints"], int]] = {
    "words-f1": (N_("Words (seen ≥ {n}×)"), "words", 1),  # {n}: the minimum count, in the reader's digits
    "words-f2": (N_("Words (seen ≥ {n}×)"), "words", 2),
    "codepoints": (N_("Code points (seen in training)"), "codepoints", 1),
}


def train_baseline(name: str, lines: Iterable[str]) -> VocabBaseline:
    """Build baseline ``name`` (a key of :data:`BASELINES`) from training ``lines``."""
    try:
        label, unit, min_count = BASELINES[name]
    except KeyError:
        raise RecipeError(T_("unknown baseline {name}; known: {known}", name=repr(name), known=", ".join(BASELINES))) from None
    t0 = time.perf_counter()
    counts: Counter[str] = Counter()
    for line in lines:
        counts.update(line.split() if unit == "words" else line)
    kept = sorted((s for s, c in counts.items() if c >= min_count), key=lambda s: (-counts[s], s))
    vocab = {s: i + 1 for i, s in enumerate(kept)}
    return VocabBaseline(name, Message(label, values={"n": min_count}), unit, vocab,
                         train_seconds=time.perf_counter() - t0)
