"""The CLIP backend: open_clip's BPE (``</w>`` word ends, lowercased) run by Hugging Face ``tokenizers``.

The file is converted by :func:`core.pretrained.convert.clip_to_hf_json`;
this adapter only knows that a piece ending in ``</w>`` closes a word, so
its bytes are the piece without the marker (the text is lowercased and its
spaces dropped, so spans come from the library's offsets, not running sums).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .adapter import register_loader
from .hf_adapter import HFTokenizer, register_hf_unpacker

if TYPE_CHECKING:  # pragma: no cover
    from .catalog import ZooEntry

END_OF_WORD = "</w>"
_EOW = b"\xff</w>"


class ClipTokenizer(HFTokenizer):
    """open_clip's tokenizer: pieces' bytes without ``</w>``."""

    pack_kind = "clip/1"

    def _piece_bytes(self, tid: int, piece: str) -> bytes:
        if tid not in self.special_ids and piece.endswith(END_OF_WORD):
            piece = piece[: -len(END_OF_WORD)]
        return super()._piece_bytes(tid, piece)

    # the floor and the optimal count spell a word's end: a ``</w>`` piece only ends a piece (0xFF is never UTF-8)
    def pre_pieces(self, text: str) -> list[bytes] | None:
        pieces = super().pre_pieces(text)
        return None if pieces is None else [p + _EOW for p in pieces]

    def spelling_vocab(self) -> list[bytes | None]:
        out = super().spelling_vocab()
        for piece, tid in self._tok.get_vocab(with_added_tokens=True).items():
            b = out[tid]
            if b is not None and piece.endswith(END_OF_WORD):
                out[tid] = b + _EOW
        return out


register_hf_unpacker(ClipTokenizer)


@register_loader("clip-bpe")
def load_clip(entry: "ZooEntry", data: bytes | None, where: str) -> HFTokenizer:
    """Catalog ``loader="clip-bpe"``: open_clip's merges file (``bpe_simple_vocab_16e6.txt``), converted."""
    from .convert import clip_to_hf_json

    assert data is not None
    return ClipTokenizer.from_bytes(entry, clip_to_hf_json(data.decode("utf-8")), where)
