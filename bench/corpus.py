"""A reproducible ~1 MB mixed Bangla/English corpus for benchmarks.

Real sentences from ``assets/corpus/bazarghar.txt`` are shuffled and mixed
with generated words (Bangla syllables, English-like syllables), so the
corpus has tens of thousands of distinct words as real text does, not a
few hundred repeated ones. Timing only: never used to judge tokenizers.
"""
from __future__ import annotations

import random
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BN_CONS = "কখগঘচছজঝটঠডঢণতথদধনপফবভমযরলশষসহড়য়"
BN_SIGNS = ["", "া", "ি", "ী", "ু", "ূ", "ে", "ৈ", "ো", "ৌ", "্য", "্র", "ং", "ঁ"]
EN_SYL = ["ba", "zar", "ghar", "or", "der", "ra", "sha", "hi", "to", "mor", "row", "af", "ter", "noon", "pack", "et",
          "ri", "ce", "len", "til", "spi", "ces", "sa", "ri", "ship", "ment", "ware", "house", "price", "call"]


def make_corpus(size: int = 1_000_000, seed: int = 7) -> str:
    rng = random.Random(seed)
    base = (ROOT / "assets" / "corpus" / "bazarghar.txt").read_text(encoding="utf-8").split()
    out: list[str] = []
    n = 0
    while n < size:
        r = rng.random()
        if r < 0.55:
            w = rng.choice(base)
        elif r < 0.8:
            w = "".join(rng.choice(BN_CONS) + rng.choice(BN_SIGNS) for _ in range(rng.randint(1, 4)))
        else:
            w = "".join(rng.choice(EN_SYL) for _ in range(rng.randint(1, 3)))
        out.append(w)
        n += len(w.encode("utf-8")) + 1
        if rng.random() < 0.08:
            out.append("\n")
    return " ".join(out)


def write_corpus_file(path: Path, mb: int) -> int:
    """About ``mb`` MB of :func:`make_corpus` text (a 1 MB block repeated, each ending in a line break) written to
    ``path``; its size in bytes."""
    block = (make_corpus(1_000_000) + "\n").encode("utf-8")
    with path.open("wb") as f:
        for _ in range(max(1, round(mb * 1_000_000 / len(block)))):
            f.write(block)
    return path.stat().st_size
