"""A pasted id list to text and per-token bytes (unknown ids named, never raised), and the round trip: the text
encoded again, and why the ids can differ."""
from __future__ import annotations

from array import array
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal, Sequence

import numpy as np
import regex

from ...i18n import T_, Message, Tn_
from ...pretrained.adapter import TextError
from ...pretrained.protocols import VocabularyCodec
from ...text.boundaries import is_valid_utf8
from ...text.units import utf8_hex
from .table import VocabError, VocabTable, vocab_table

#: Most ids one decode takes (a pasted list, a file, the CLI).
MAX_DECODE_IDS = 50_000
#: Most characters of a pasted id list (about 7 per id).
MAX_IDS_TEXT = 8 * MAX_DECODE_IDS

_ID_ITEM = regex.compile(r"[^\s,\[\]]+")


def parse_ids(text: str) -> list[int]:
    """Ids as pasted: separated by commas or spaces, or a JSON list (``[1, 2, 3]``). Negative ids parse (and are
    named as outside the vocabulary when decoded); anything else is a :class:`VocabError` naming the item.

    >>> parse_ids("1, 2 3"), parse_ids("[10,-4]")
    ([1, 2, 3], [10, -4])
    """
    if len(text) > MAX_IDS_TEXT:
        raise VocabError(T_("the id list is {count:,} characters; the limit is {limit:,}", count=len(text),
                            limit=MAX_IDS_TEXT))
    body = text.strip()
    if "[" in body or "]" in body:
        if not (body.startswith("[") and body.endswith("]") and body.count("[") == body.count("]") == 1):
            raise VocabError(T_("a list of ids in brackets must be one JSON list, like [1, 2, 3]"))
    out: list[int] = []
    for n, m in enumerate(_ID_ITEM.finditer(text)):
        item = m.group()
        if n >= MAX_DECODE_IDS:
            raise VocabError(T_("more than {limit:,} ids; decode at most {limit:,} at a time", limit=MAX_DECODE_IDS))
        if len(item) > 12 or not regex.fullmatch(r"[+-]?[0-9]+", item):
            raise VocabError(T_("{item} (item {number}) is not a whole number", item=repr(item[:20]), number=n + 1))
        out.append(int(item))
    return out


@dataclass(frozen=True, eq=False)
class Decoded:
    """An id list decoded: the library's text of the ids that name tokens, and which ids do not.

    Each id's bytes (:attr:`data`) are looked up when first asked for (a page draws the first chips only).
    """

    tokenizer: str
    ids: tuple[int, ...]
    text: str
    unknown: tuple[int, ...]  # positions in ``ids`` of ids that name no token
    table: VocabTable = field(repr=False)

    @cached_property
    def data(self) -> tuple[bytes | None, ...]:
        """Each id's exact bytes; None for an id that names no token."""
        size, data = self.table.size, self.table.data
        return tuple(data[i] if 0 <= i < size else None for i in self.ids)

    @cached_property
    def special(self) -> tuple[int, ...]:
        """Positions of control tokens."""
        special = self.table.special
        return tuple(k for k, i in enumerate(self.ids) if i in special) if special and not special.isdisjoint(self.ids) else ()

    def to_json(self) -> dict[str, Any]:
        return {
            "tokenizer": self.tokenizer, "text": self.text,
            "tokens": [{"id": i, "bytes": None if d is None else utf8_hex(d), "known": d is not None}
                       for i, d in zip(self.ids, self.data)],
            "unknown": [self.ids[k] for k in self.unknown],
        }


def _all_tokens(table: VocabTable, ids: Sequence[int]) -> bool | None:
    """Whether every id names a token of ``table``; None when one is not a whole number.

    One pass in C over the ids (the 64-bit array refuses anything but whole numbers), then the range and the
    holes as numpy operations: a decode of 10,000 ids spends its time in the library, not here.
    """
    try:
        arr = np.frombuffer(array("q", ids), dtype=np.int64)
    except TypeError:
        return None
    except OverflowError:  # a whole number beyond 64 bits: no token's id
        return False
    if not len(arr):
        return True
    if arr.min() < 0 or arr.max() >= table.size:
        return False
    return not table.holes or bool(table.assigned[arr].all())


def decode(tok: VocabularyCodec, ids: Sequence[int]) -> Decoded:
    """``ids`` decoded by ``tok``'s library; ids that name no token are listed (and left out of the text), not raised.

    >>> from core.pretrained import zoo
    >>> d = decode(zoo.load("o200k_base"), [3, -1, 10**9])
    >>> d.text, d.unknown
    ('$', (1, 2))
    """
    if len(ids) > MAX_DECODE_IDS:
        raise VocabError(T_("more than {limit:,} ids; decode at most {limit:,} at a time", limit=MAX_DECODE_IDS))
    table = vocab_table(tok)
    given, ids = ids, tuple(ids)
    if not ids:
        return Decoded(tok.id, ids, "", (), table)
    # the common case, every id a token, in one library call when the library checks the ids as it decodes
    try:
        text = tok.decode_checked(given)
    except ValueError:
        text = None
    if text is not None:
        return Decoded(tok.id, ids, text, (), table)
    fine = _all_tokens(table, ids)
    if fine is None:
        raise VocabError(T_("ids must be whole numbers"))
    if fine:
        return Decoded(tok.id, ids, tok.decode_ids(ids), (), table)
    data = table.data
    good = [0 <= i < table.size and data[i] is not None for i in ids]
    known = [i for i, g in zip(ids, good) if g]
    unknown = tuple(k for k, g in enumerate(good) if not g)
    return Decoded(tok.id, ids, tok.decode_ids(known) if known else "", unknown, table)


RoundTripReason = Literal["same", "unknown", "special", "partial", "decoder", "non-canonical"]

#: Why encoding the decoded text can give another id list (shown with the round trip).
ROUND_TRIP_REASONS: dict[str, Message] = {
    "same": T_("Encoding the text gives the same ids back."),
    "unknown": T_("Some ids name no token; they were left out of the text."),
    "special": T_("The list has control tokens; text that spells them is encoded as plain text."),
    "partial": T_("The bytes of these ids are not whole UTF-8: the decoder wrote U+FFFD for the broken characters, "
                  "and U+FFFD encodes to other ids."),
    "decoder": T_("The decoder changed the bytes (a word-start space dropped or added, a normalized character), so "
                  "the text spells other bytes than the tokens."),
    "non-canonical": T_("The text is the same, but the tokenizer cuts it differently: this id list is not the one "
                        "its encoder makes (a non-canonical sequence of pieces)."),
}


@dataclass(frozen=True)
class RoundTrip:
    """The decoded text encoded again: its ids, whether they are the list given, and why not."""

    ids: tuple[int, ...]
    same: bool
    reason: str
    #: First position where the two lists differ (-1 when they are the same).
    first_difference: int
    #: The control tokens of the list, ``(spelling, id)`` in order of first use (reason ``special``).
    controls: tuple[tuple[str, int], ...] = ()

    @property
    def message(self) -> Message:
        if self.reason == "special" and self.controls:
            return Tn_("The list has the control token {tokens}: decoded, it is text that spells it, and that text "
                       "is encoded as plain text, not as the control token.",
                       "The list has the control tokens {tokens}: decoded, they are text that spells them, and that "
                       "text is encoded as plain text, not as the control tokens.", len(self.controls),
                       tokens=", ".join(f"{spelling} ({i})" for spelling, i in self.controls))
        return ROUND_TRIP_REASONS[self.reason]

    def to_json(self) -> dict[str, Any]:
        return {"ids": list(self.ids), "same": self.same, "reason": self.reason, "why": str(self.message),
                "first_difference": self.first_difference}


def round_trip(tok: VocabularyCodec, decoded: Decoded) -> RoundTrip:
    """Encode ``decoded.text`` again and say whether it gives ``decoded.ids`` back, and if not, why."""
    try:
        again = tuple(tok.encode_ids(decoded.text))
    except TextError:  # never for text a decoder wrote; kept so a broken library cannot raise through a page
        again = ()
    same = again == decoded.ids
    first = -1
    if not same:
        first = next((k for k, (a, b) in enumerate(zip(again, decoded.ids)) if a != b), min(len(again), len(decoded.ids)))
    if same:
        reason = "same"
    elif decoded.unknown:
        reason = "unknown"
    elif decoded.special:
        reason = "special"
        ids = dict.fromkeys(decoded.ids[k] for k in decoded.special)
        controls = tuple(((decoded.table.data[i] or b"").decode("utf-8", "replace"), i) for i in ids)
        return RoundTrip(again, same, reason, first, controls)
    else:
        raw = b"".join(d for d in decoded.data if d is not None)
        table = vocab_table(tok)
        back = b"".join(table.data[i] or b"" for i in again if 0 <= i < table.size)
        if not is_valid_utf8(raw):
            reason = "partial"
        elif back != raw:
            reason = "decoder"
        else:
            reason = "non-canonical"
    return RoundTrip(again, same, reason, first)
