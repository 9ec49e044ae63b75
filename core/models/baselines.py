"""The three baselines: one token per code point, per UTF-8 byte, or per whitespace-attached word.

They have no training and (for words) no vocabulary; they set the two ends
of the scale every learned tokenizer sits between. Each gives both an
:class:`~core.tokens.Encoding` and the same facts as columns
(:meth:`table`), which is what long texts use.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..pipeline.pretokenize import pretokenize
from ..text.units import char_byte_offsets
from ..tokens import Encoding, Token, TokenizerDefaults, TokenTable, build_table, tokens_from_char_spans


def _concat_decode(tokens: Sequence[Token]) -> str:
    return b"".join(t.data for t in tokens).decode("utf-8", errors="replace")


@dataclass(frozen=True)
class CodePointTokenizer(TokenizerDefaults):
    """Baseline: one token per code point (id = the code point)."""

    id: str = "codepoints"
    name: str = "Code points"

    @property
    def vocab_size(self) -> int:
        return 0x110000

    def token_text(self, token_id: int) -> str:
        return chr(token_id)

    def encode(self, text: str) -> Encoding:
        toks = tokens_from_char_spans(text, [(i, i + 1) for i in range(len(text))], [ord(c) for c in text])
        return Encoding(text, toks)

    def table(self, text: str) -> TokenTable:
        offsets = np.asarray(char_byte_offsets(text), dtype=np.int64)
        n = len(text)
        data = [c.encode("utf-8", "surrogatepass") for c in text]
        ids = np.fromiter(map(ord, text), dtype=np.int64, count=n)
        return build_table(text, ids, offsets[:-1], offsets[1:], data, np.zeros(n, dtype=bool), np.ones(n, dtype=bool))

    def decode(self, tokens: Sequence[Token]) -> str:
        return _concat_decode(tokens)


@dataclass(frozen=True)
class ByteTokenizer(TokenizerDefaults):
    """Baseline: one token per UTF-8 byte (id = the byte value)."""

    id: str = "bytes"
    name: str = "UTF-8 bytes"

    @property
    def vocab_size(self) -> int:
        return 256

    def token_text(self, token_id: int) -> str:
        return bytes((token_id,)).decode("utf-8", errors="replace")

    def encode(self, text: str) -> Encoding:
        # Built directly (one token per byte, owner code point known): a hot path on long text.
        toks = []
        pos = 0
        for i, ch in enumerate(text):
            for b in ch.encode("utf-8", "surrogatepass"):
                toks.append(Token(b, bytes((b,)), pos, pos + 1, i, i + 1))
                pos += 1
        return Encoding(text, tuple(toks))

    def table(self, text: str) -> TokenTable:
        raw = text.encode("utf-8")
        n = len(raw)
        ids = np.frombuffer(raw, dtype=np.uint8).astype(np.int64)
        starts = np.arange(n, dtype=np.int64)
        data = [raw[i : i + 1] for i in range(n)]
        return build_table(text, ids, starts, starts + 1, data, np.zeros(n, dtype=bool), ids < 0x80)

    def decode(self, tokens: Sequence[Token]) -> str:
        return _concat_decode(tokens)


@dataclass(frozen=True)
class WordTokenizer(TokenizerDefaults):
    """Baseline: whitespace-attached words (``\\s*\\S+``), so decoding is exact.

    Words have no ids: there is no fixed vocabulary.
    """

    id: str = "words"
    name: str = "Words (whitespace)"

    @property
    def vocab_size(self) -> int:
        return 0  # no fixed vocabulary

    def token_text(self, token_id: int) -> str:
        return ""  # words have no ids

    def encode(self, text: str) -> Encoding:
        return Encoding(text, tokens_from_char_spans(text, self._spans(text)))

    def table(self, text: str) -> TokenTable:
        spans = self._spans(text)
        offsets = char_byte_offsets(text)
        n = len(spans)
        data = [text[s:e].encode("utf-8") for s, e in spans]
        arr = np.asarray([(offsets[s], offsets[e]) for s, e in spans], dtype=np.int64).reshape(-1, 2)
        return build_table(text, np.full(n, -1, dtype=np.int64), arr[:, 0], arr[:, 1], data,
                           np.zeros(n, dtype=bool), np.ones(n, dtype=bool))

    @staticmethod
    def _spans(text: str) -> list[tuple[int, int]]:
        return [(p.start, p.end) for p in pretokenize(text, "ws-attached")]

    def decode(self, tokens: Sequence[Token]) -> str:
        return _concat_decode(tokens)
