"""The GGUF loader: a llama.cpp ``.gguf`` vocabulary, converted, then run by the SentencePiece or ``tokenizers`` adapter.

No adapter class of its own: :mod:`core.pretrained.gguf` reads the file's
``tokenizer.ggml.*`` metadata, :func:`core.pretrained.convert.from_gguf`
turns it into a SentencePiece ``ModelProto`` (``llama``/``t5`` models) or a
``tokenizer.json`` (the BPE ones), and the matching engine's adapter takes it
from there. It lives in an ``*_adapter`` module so the zoo finds it like any
backend.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .adapter import PretrainedTokenizer, register_loader
from .hf_adapter import HFTokenizer
from .sentencepiece_adapter import SentencePieceTokenizer

if TYPE_CHECKING:  # pragma: no cover
    from .catalog import ZooEntry


@register_loader("gguf")
def load_gguf(entry: "ZooEntry", data: bytes | None, where: str) -> PretrainedTokenizer:
    """Catalog ``loader="gguf"``; the entry's ``pre`` option overrides the file's ``tokenizer.ggml.pre``."""
    from . import convert
    from .gguf import read_metadata

    assert data is not None
    kind, payload = convert.from_gguf(read_metadata(data, prefix="tokenizer.ggml."), pre=entry.options.get("pre"))  # type: ignore[arg-type]
    if kind == "sentencepiece":
        return SentencePieceTokenizer.from_bytes(entry, payload, where)
    return HFTokenizer.from_bytes(entry, payload, where)
