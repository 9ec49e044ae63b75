"""The CLIP backend: open_clip's BPE (``</w>`` word ends, lowercased) run by Hugging Face ``tokenizers``.

The file is converted by :func:`core.pretrained.convert.clip_to_hf_json`;
this adapter only knows that a piece ending in ``</w>`` closes a word, so
its bytes are the piece without the marker (the text is lowercased and its
spaces dropped, so spans come from the library's offsets, not running sums).
"""
from __future__ import annotations

from .hf_adapter import HFTokenizer

END_OF_WORD = "</w>"


class ClipTokenizer(HFTokenizer):
    """open_clip's tokenizer: pieces' bytes without ``</w>``."""

    def _piece_bytes(self, tid: int, piece: str) -> bytes:
        if tid not in self.special_ids and piece.endswith(END_OF_WORD):
            piece = piece[: -len(END_OF_WORD)]
        return super()._piece_bytes(tid, piece)
