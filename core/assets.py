"""Where the bundled data files live (``assets/`` at the repository root), named once for the engine.

Imports nothing else of ``core``; pages and the CLI read samples through these names.
"""
from __future__ import annotations

from pathlib import Path

#: The repository root (``core/`` sits directly under it).
REPO = Path(__file__).resolve().parents[1]
#: The ``assets/`` folder.
ASSETS = REPO / "assets"
#: Sample corpus and vocabularies for the WordPiece and Unigram pages.
ALGOS = ASSETS / "algos"
#: The bundled Bangla training corpus of the Train page (see ``assets/train/make_corpus.py``).
BUNDLED_CORPUS = ASSETS / "train" / "bn_shop_corpus.txt"
#: Parallel sentences for the multilingual tax.
BUNDLED_TSV = ASSETS / "parallel.tsv"


def sample_lines() -> list[str]:
    """The bundled Bangla corpus of the algorithm pages, one sentence per line."""
    return [ln for ln in (ALGOS / "corpus_bn.txt").read_text(encoding="utf-8").splitlines() if ln.strip()]


#: Sample conversations of the Chat format page (the same four turns in en, bn, hi, fa, uz).
CHAT_SAMPLES = ASSETS / "chat" / "conversations.json"


def chat_samples() -> dict[str, list[dict[str, str]]]:
    """The bundled sample conversations, by language code."""
    import json

    with CHAT_SAMPLES.open(encoding="utf-8") as fh:
        return dict(json.load(fh))
