"""The table of every id of a tokenizer (its exact bytes and text), kept beside the tokenizer
(:func:`core.pretrained.memo.per_tokenizer`, the memo every vocabulary analysis keeps its results in)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ...i18n import T_
from ...pretrained.memo import per_tokenizer
from ...pretrained.protocols import Vocabulary
from ...text.boundaries import is_valid_utf8
from ...text.errors import UserError


class VocabError(UserError):
    """An id, an id list or a query that cannot be used (the message says which and why)."""


@dataclass(frozen=True, eq=False)
class VocabTable:
    """Every id of a tokenizer: its exact bytes (None for an id that names no token) and its text alone."""

    tokenizer: str
    size: int
    data: tuple[bytes | None, ...]
    special: frozenset[int]

    @cached_property
    def texts(self) -> tuple[str, ...]:
        """Each token's bytes decoded alone (half a character is U+FFFD; "" for a hole)."""
        return tuple("" if d is None else d.decode("utf-8", errors="replace") for d in self.data)

    @cached_property
    def valid(self) -> np.ndarray:
        """Whether each token's bytes are whole UTF-8 (False for holes)."""
        return np.fromiter((d is not None and is_valid_utf8(d) for d in self.data), dtype=bool, count=self.size)

    @cached_property
    def assigned(self) -> np.ndarray:
        """Whether each id names a token."""
        return np.fromiter((d is not None for d in self.data), dtype=bool, count=self.size)

    @cached_property
    def joined_lines(self) -> tuple[str, list[int]]:
        """Every text on its own line, joined, and where each line starts."""
        # all texts in one string, one per line, so a user regex runs once (under one timeout) over the vocabulary
        starts, pos = [], 0
        for t in self.texts:
            starts.append(pos)
            pos += len(t) + 1
        return "\n".join(self.texts), starts

    @cached_property
    def holes(self) -> frozenset[int]:
        """Ids below :attr:`size` that name no token."""
        return frozenset(i for i, d in enumerate(self.data) if d is None)

    @property
    def tokens(self) -> int:
        """How many ids name a token."""
        return int(np.count_nonzero(self.assigned))


def _build_table(tok: Vocabulary) -> VocabTable:
    data: list[bytes | None] = []
    token_bytes, has_token = tok.token_bytes, tok.has_token
    for i in range(tok.vocab_size):
        try:
            d: bytes | None = token_bytes(i)
        except ValueError:
            d = None
        # a hole between ids: the library has nothing there (tiktoken's table keeps b"" in its place)
        if d is not None and not d and not has_token(i):
            d = None
        data.append(d)
    return VocabTable(tok.id, tok.vocab_size, tuple(data), frozenset(tok.special_ids))


def vocab_table(tok: Vocabulary) -> VocabTable:
    """``tok``'s :class:`VocabTable`, built on first use and kept as long as ``tok`` lives."""
    return per_tokenizer(tok, "vocab-table", lambda: _build_table(tok))


def check_id(tok: Vocabulary, token_id: int) -> None:
    """Raise :class:`VocabError` naming the id when it is not a token of ``tok``."""
    if not 0 <= token_id < tok.vocab_size:
        raise VocabError(T_("id {id} is outside the vocabulary of {tokenizer} (0 to {last})", id=str(token_id),
                            tokenizer=tok.id, last=str(tok.vocab_size - 1)))
    if not tok.has_token(token_id):
        raise VocabError(T_("id {id} names no token in {tokenizer} (a gap between its ids)", id=str(token_id),
                            tokenizer=tok.id))
