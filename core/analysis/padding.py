"""Padding a batch: sentences encoded together and padded to one length, with the attention mask.

Shown for tokenizers trained here (their ``tokenizer.json``, :attr:`core.tokens.Tokenizer.trained_json`)
and bare ``tokenizers.Tokenizer`` objects (recognised by their adapter module:
:func:`core.pretrained.library.library_view`), through Hugging Face ``tokenizers``' own padding.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..i18n import T_
from ..pretrained.library import library_view
from ..text.native import fence
from .evaluate import EvalError


@dataclass(frozen=True)
class PaddedBatch:
    """A batch of sentences padded to one length, with its attention mask."""

    tokens: tuple[tuple[str, ...], ...]
    ids: tuple[tuple[int, ...], ...]
    attention_mask: tuple[tuple[int, ...], ...]
    pad_token: str
    pad_id: int


@fence(T_("padding"))
def pad_batch(tok: Any, sentences: Sequence[str], *, pad_token: str = "[PAD]") -> PaddedBatch:
    """Encode ``sentences`` together, padded on the right with ``pad_token`` (HF ``tokenizers``)."""
    from tokenizers import Tokenizer

    lib = library_view(tok)  # a bare library object: does its library have the file?
    trained = tok.trained_json if lib is None else None  # every Tokenizer answers: the file when trained here
    if trained is not None:
        t = Tokenizer.from_str(Tokenizer.from_str(trained).to_str())
    elif lib is not None and lib.tokenizer_json is not None:
        t = Tokenizer.from_str(lib.tokenizer_json())
    else:
        raise TypeError(T_("padding is shown for Hugging Face tokenizers only"))
    t.encode_special_tokens = True
    pad_id = t.token_to_id(pad_token)
    if pad_id is None:
        raise EvalError(T_("this tokenizer has no {token} token", token=pad_token))
    t.enable_padding(pad_id=pad_id, pad_token=pad_token)
    encs = t.encode_batch(list(sentences), add_special_tokens=False)
    return PaddedBatch(
        tuple(tuple(e.tokens) for e in encs),
        tuple(tuple(e.ids) for e in encs),
        tuple(tuple(e.attention_mask) for e in encs),
        pad_token,
        pad_id,
    )
