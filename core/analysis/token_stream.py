"""How a chat streams its answer: token ids arriving one at a time, printed as they come.

A byte-level tokenizer's token can end inside a character (cl100k cuts
Bangla আ into ``E0 A6`` + ``86``). A streamer that decodes each token on its
own prints U+FFFD (�) for both halves; one that keeps the unfinished bytes
back prints nothing for the first half and the whole letter with the second.
:func:`token_stream` replays an id list both ways, step by step, from the
tokens' exact bytes (:class:`core.analysis.vocab.Decoded`), with Python's
incremental UTF-8 decoder as the buffer.

The replay concatenates the tokens' bytes, as a streamer does; a library's
own decoder may also drop or add a word-start space (SentencePiece drops the
first ``▁``), which the whole-list decode shows. This module tokenizes
nothing.
"""
from __future__ import annotations

import codecs
from dataclasses import dataclass
from typing import Any

from ..text.units import utf8_hex
from .vocab import Decoded

#: What a decoder writes for bytes that are not (yet) a whole character.
REPLACEMENT = "\ufffd"


@dataclass(frozen=True)
class StreamStep:
    """One token arriving: its bytes, what printing it alone shows, and what a buffering streamer prints."""

    #: Position of the id in the decoded list.
    index: int
    id: int
    data: bytes
    #: The token decoded on its own (``errors="replace"``): U+FFFD where it holds part of a character.
    alone: str
    #: What a streamer that holds back unfinished bytes prints now ("" while a character is unfinished).
    printed: str
    #: Bytes held back after this token: the start of a character still waiting for its last bytes.
    held: bytes

    @property
    def broken(self) -> bool:
        """Whether printing this token alone shows U+FFFD that the bytes themselves do not spell."""
        return self.alone.count(REPLACEMENT) > self.data.count(REPLACEMENT.encode("utf-8"))

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "id": self.id, "bytes": utf8_hex(self.data), "alone": self.alone,
                "printed": self.printed, "held": utf8_hex(self.held), "broken": self.broken}


@dataclass(frozen=True)
class TokenStream:
    """An id list replayed as a stream (ids that name no token are left out, as the decode leaves them)."""

    tokenizer: str
    steps: tuple[StreamStep, ...]
    #: What the buffer still held after the last token, written as U+FFFD (an id list that ends mid-character).
    tail: str

    @property
    def naive_text(self) -> str:
        """The text a streamer that decodes each token alone ends up showing."""
        return "".join(s.alone for s in self.steps)

    @property
    def text(self) -> str:
        """The text a buffering streamer ends up showing: the tokens' bytes decoded as one."""
        return "".join(s.printed for s in self.steps) + self.tail

    @property
    def broken(self) -> int:
        """How many tokens show U+FFFD when printed alone."""
        return sum(s.broken for s in self.steps)

    @property
    def waits(self) -> int:
        """How many tokens print nothing when they arrive (a character still unfinished)."""
        return sum(1 for s in self.steps if s.data and not s.printed)

    def to_json(self) -> dict[str, Any]:
        return {"tokenizer": self.tokenizer, "naive_text": self.naive_text, "text": self.text,
                "broken": self.broken, "waits": self.waits, "steps": [s.to_json() for s in self.steps]}


def token_stream(decoded: Decoded) -> TokenStream:
    """Replay ``decoded``'s ids as a stream, token by token.

    >>> from core.pretrained import zoo
    >>> from core.analysis.vocab import decode
    >>> tok = zoo.load("cl100k_base")
    >>> s = token_stream(decode(tok, tok.encode_ids("আম")))
    >>> [(st.alone, st.printed) for st in s.steps]
    [('�', ''), ('�', 'আ'), ('�', ''), ('�', 'ম')]
    >>> s.text, s.broken, s.waits
    ('আম', 4, 2)
    """
    buffer = codecs.getincrementaldecoder("utf-8")(errors="replace")
    steps = []
    for k, (token_id, data) in enumerate(zip(decoded.ids, decoded.data)):
        if data is None:
            continue
        printed = buffer.decode(data)
        steps.append(StreamStep(k, token_id, data, data.decode("utf-8", errors="replace"), printed,
                                buffer.getstate()[0]))
    return TokenStream(decoded.tokenizer, tuple(steps), buffer.decode(b"", final=True))
