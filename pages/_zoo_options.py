"""The pretrained zoo in the shared tokenizer selector (registered via ``pages/_shared.py`` PROVIDERS).

Baselines are already in the selector; this adds every pretrained entry.
Loading goes through :func:`core.zoo.load`, which caches per process.
"""
from __future__ import annotations

from core import zoo
from pages._shared import TokenizerOption


def _loader(tokenizer_id: str):
    return lambda _size: zoo.load(tokenizer_id)


def tokenizer_options() -> list[TokenizerOption]:
    return [
        TokenizerOption(
            e.id, e.name, "Pretrained", _loader(e.id),
            help=f"{e.algorithm}, vocabulary {e.vocab_size:,}; {e.licence}; loaded offline from {e.source} (sha256 checked).",
        )  # fmt: skip
        for e in zoo.ENTRIES.values()
        if e.loader != "baseline"
    ]
