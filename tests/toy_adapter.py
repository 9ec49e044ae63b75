"""A toy backend written the way a new one is added: this one module, nothing else in the code base.

One token per character from a small alphabet read from its file (one
character per line); a character outside it is the unknown token ``<unk>``
(its bytes are the character's, so spans stay exact, but it decodes to
U+FFFD); ``<|end|>`` is its one control token, made from text only with
``allow_special=True``. Family ``"other"``: the inspector shows the
normalizer and bytes layers only.

In the code base this file would be ``core/pretrained/toy_adapter.py`` (found by the zoo's discovery);
``tests/test_backend_seam.py`` imports it from here and declares its catalog entry.
"""
from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Sequence

from core.pretrained.adapter import PretrainedTokenizer, check_text, register_loader

if TYPE_CHECKING:  # pragma: no cover
    from core.pretrained.catalog import ZooEntry

END = "<|end|>"
UNK = "<unk>"


class ToyTokenizer(PretrainedTokenizer):
    """One token per character of a fixed alphabet; anything else is ``<unk>``."""

    family = "other"

    def __init__(self, entry: "ZooEntry", alphabet: Sequence[str]) -> None:
        self._pieces = [END, UNK, *alphabet]
        self._ids = {c: i for i, c in enumerate(self._pieces) if i >= 2}
        self.specials = {END: 0}
        self.unk_id = 1
        self.entry = entry if entry.vocab_size else replace(entry, vocab_size=len(self._pieces))

    def _encode_spans(self, text: str, allow_special: bool) -> tuple[list[int], list[tuple[int, int]], list[bytes]]:
        ids: list[int] = []
        spans: list[tuple[int, int]] = []
        data: list[bytes] = []
        at = i = 0  # byte and code point positions
        while i < len(text):
            if allow_special and text.startswith(END, i):
                piece, tid = END, 0
            else:
                piece = text[i]
                tid = self._ids.get(piece, 1)
            raw = piece.encode("utf-8")
            ids.append(tid)
            spans.append((at, at + len(raw)))
            data.append(raw)
            at += len(raw)
            i += len(piece)
        return ids, spans, data

    def encode_ids(self, text: str, *, allow_special: bool = False) -> list[int]:
        check_text(text)
        return self._encode_spans(text, allow_special)[0]

    def token_bytes(self, token_id: int) -> bytes:
        return "\ufffd".encode() if token_id == self.unk_id else self._pieces[token_id].encode("utf-8")

    def decode_ids(self, ids: Sequence[int]) -> str:
        return "".join(self.token_bytes(i).decode("utf-8") for i in ids)

    def vocab(self) -> dict[str, int]:
        return {p: i for i, p in enumerate(self._pieces)}

    def id_to_token(self, token_id: int) -> str | None:
        return self._pieces[token_id] if 0 <= token_id < len(self._pieces) else None

    def token_to_id(self, piece: str) -> int | None:
        return self.vocab().get(piece)


@register_loader("toy")
def load_toy(entry: "ZooEntry", data: bytes | None, where: str) -> ToyTokenizer:
    """Catalog ``loader="toy"``: the alphabet file, one character per line (``\\n`` itself is ``\\\\n``)."""
    assert data is not None
    lines = data.decode("utf-8").split("\n")
    alphabet = [line.replace("\\n", "\n") for line in lines if line]
    if not alphabet or any(len(c) != 1 for c in alphabet):
        raise ValueError(f"{where} is not a toy alphabet (one character per line)")
    return ToyTokenizer(entry, alphabet)
