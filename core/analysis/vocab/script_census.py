"""The script census: tokens per Unicode script, mean length, longest tokens, partial characters per script."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...pretrained.memo import per_tokenizer
from ...pretrained.protocols import Vocabulary
from ...text.scripts import MIXED, census_name, partial_scripts, scripts_of_texts
from .table import vocab_table

#: Longest tokens listed per script in the census.
LONGEST_PER_SCRIPT = 5
#: Tokenizers compared in one census view: each costs a load and a pass over its vocabulary (about a second
#: cold), so a link naming the whole shelf would keep a reader waiting half a minute.
MAX_CENSUS = 6


@dataclass(frozen=True)
class ScriptRow:
    """The tokens of one script (or ``mixed``) in a vocabulary."""

    script: str
    tokens: int
    mean_chars: float
    longest: tuple[int, ...]
    #: Byte-level vocabularies: tokens that are parts of characters of this script (not counted in ``tokens``).
    partial: int = 0


@dataclass(frozen=True)
class Census:
    """Tokens per Unicode script of one tokenizer (control tokens and holes left out)."""

    tokenizer: str
    tokens: int
    special: int
    rows: tuple[ScriptRow, ...]
    #: Tokens that are bytes of no script (a continuation byte alone, ``<0x80>``).
    partial_unknown: int = 0
    #: The census name of every id as an index into :attr:`labels` (-1: a hole or a control token); a partial
    #: character counts for the script it is part of, bytes of no script as ``Common``.
    by_id: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64), repr=False, compare=False)
    labels: tuple[str, ...] = field(default=(), repr=False, compare=False)

    def count_by_script(self, ids: np.ndarray) -> dict[str, int]:
        """How many of ``ids`` are of each script (census names), most first; holes and control tokens left out."""
        k = self.by_id[np.asarray(ids, dtype=np.int64)]
        counts = np.bincount(k[k >= 0], minlength=len(self.labels))
        got = {self.labels[i]: int(n) for i, n in enumerate(counts.tolist()) if n}
        return dict(sorted(got.items(), key=lambda kv: (-kv[1], kv[0])))

    @property
    def scripts(self) -> dict[str, int]:
        """Script -> whole tokens, most first."""
        return {r.script: r.tokens for r in self.rows if r.tokens}

    def row(self, script: str) -> ScriptRow | None:
        return next((r for r in self.rows if r.script == script), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "tokenizer": self.tokenizer, "tokens": self.tokens, "special": self.special, "scripts": self.scripts,
            "partial": {r.script: r.partial for r in self.rows if r.partial}, "partial_unknown": self.partial_unknown,
            "mean_chars": {r.script: round(r.mean_chars, 3) for r in self.rows if r.tokens},
            "longest": {r.script: list(r.longest) for r in self.rows if r.longest},
        }


def _build_census(tok: Vocabulary) -> Census:
    table = vocab_table(tok)
    keep = table.valid.copy()
    if table.special:
        keep[list(table.special)] = False
    ids = np.flatnonzero(keep)
    texts = [table.texts[i] for i in ids.tolist()]
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    # Each character's script as a number (shared scripts get no number): a token is of one script when the
    # smallest and the largest number over its characters agree, "Common" when it has none, "mixed" otherwise.
    codes = np.frombuffer("".join(texts).encode("utf-32-le"), dtype=np.uint32)
    uniq, inverse = np.unique(codes, return_inverse=True)
    uniq_chars = "".join(map(chr, uniq.tolist()))
    script = scripts_of_texts([uniq_chars])
    names = sorted({script[ch] for ch in uniq_chars} - {"Common", "Inherited"})
    number = {name: k for k, name in enumerate(names)}
    big = len(names)
    per_char = np.fromiter((number.get(script[ch], -1) for ch in uniq_chars), dtype=np.int64, count=len(uniq))
    char_no = per_char[inverse]
    low = np.where(char_no < 0, big, char_no)
    high = char_no
    nonempty = lengths > 0
    starts = (np.cumsum(lengths) - lengths)[nonempty]
    lo = np.full(len(texts), big, dtype=np.int64)
    hi = np.full(len(texts), -1, dtype=np.int64)
    if len(starts):
        lo[nonempty] = np.minimum.reduceat(low, starts)
        hi[nonempty] = np.maximum.reduceat(high, starts)
    # category per token: 0..big-1 a script, big "Common", big + 1 mixed
    cat = np.where(hi < 0, big, np.where(lo == hi, lo, big + 1))
    labels = [*names, "Common", MIXED]
    counts = np.bincount(cat, minlength=big + 2)
    chars = np.bincount(cat, weights=lengths, minlength=big + 2)
    order = np.lexsort((ids, -lengths, cat))  # by category, longest first, then id
    first = np.searchsorted(cat[order], np.arange(big + 2))
    partial: dict[str, int] = {}
    partial_unknown = 0
    by_id = np.full(table.size, -1, dtype=np.int64)
    by_id[ids] = cat
    index = {name: k for k, name in enumerate(labels)}
    for i in np.flatnonzero(~table.valid & table.assigned).tolist():
        if i in table.special:
            continue
        found = partial_scripts(table.data[i] or b"")
        if not found:
            partial_unknown += 1
        else:
            name = census_name(found)
            partial[name] = partial.get(name, 0) + 1
        name = census_name(found)
        by_id[i] = index.setdefault(name, len(index))
    rows = []
    for k, name in enumerate(labels):
        n = int(counts[k])
        if not n and not partial.get(name):
            continue
        top = ids[order[first[k] : first[k] + min(n, LONGEST_PER_SCRIPT)]] if n else ids[:0]
        rows.append(ScriptRow(name, n, float(chars[k] / n) if n else 0.0, tuple(int(i) for i in top), partial.get(name, 0)))
    for name, n in partial.items():
        if name not in labels:
            rows.append(ScriptRow(name, 0, 0.0, (), n))
    rows.sort(key=lambda r: (-r.tokens, -r.partial, r.script))
    n_special = len(table.special)
    return Census(tok.id, table.tokens - n_special, n_special, tuple(rows), partial_unknown, by_id, tuple(index))


def census(tok: Vocabulary) -> Census:
    """``tok``'s tokens per Unicode script, computed once per tokenizer.

    >>> from core.pretrained import zoo
    >>> c = census(zoo.load("o200k_base"))
    >>> c.scripts["Bengali"] > 100, c.row("Bengali").partial > 0
    (True, True)
    """
    return per_tokenizer(tok, "script-census", lambda: _build_census(tok))
