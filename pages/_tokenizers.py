"""Tokenizer options trained here: BPE on the bundled shop text (Bangla + English).

Registered in the selector through ``pages/_shared.py`` (``PROVIDERS``). The
trace is trained once up to :data:`MAX_SAMPLE_MERGES`; any smaller size is the
same trace cut at that many merges, so moving the size slider never retrains.
"""
from __future__ import annotations

from pages._shared import TokenizerOption, bpe_trace, sample

#: Merges trained on the sample (it runs out of pairs before this on the bundled text).
MAX_SAMPLE_MERGES = 2000


def sample_corpus() -> str:
    """The bundled training text: the Bangla shop text and its English translation."""
    return sample("shop_bn") + "\n" + sample("shop_en")


def _bpe(unit: str):
    def load(size: int | None):
        trace = bpe_trace(sample_corpus(), merges=MAX_SAMPLE_MERGES, unit=unit)
        return trace.tokenizer(size)

    return load


def tokenizer_options() -> list[TokenizerOption]:
    return [
        TokenizerOption("bpe-sample-cp", "BPE, code points (trained on the shop sample)", "Trained here",
                        _bpe("codepoint"), sized=True,
                        help="Code-point BPE trained on the bundled Bangla + English shop text."),
        TokenizerOption("bpe-sample-byte", "BPE, bytes (trained on the shop sample)", "Trained here",
                        _bpe("byte"), sized=True,
                        help="Byte-level BPE trained on the same text: early merges rebuild Bangla letters."),
    ]
