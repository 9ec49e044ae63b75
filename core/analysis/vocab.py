"""Inside a vocabulary: look a token up, search, decode id lists, count tokens per script, find unreachable tokens.

Everything here asks the adapter (:class:`core.pretrained.adapter.PretrainedTokenizer`) through its public
questions (``token_bytes``, ``has_token``, ``decode_ids``, ``encode_ids``, ``id_to_token``, ``piece_score``,
``normalizer``, ``pre_tokenizer``, ``replay_source``...), so it serves every tokenizer of the shelf, those
uploaded and those trained here alike.

- :func:`vocab_table`: every id's exact bytes and text, built once per tokenizer (kept while the tokenizer lives).
- :func:`lookup`: one token described: bytes, text, scripts, control or not, merge rank and merge tree
  (BPE, from :func:`core.pretrained.replay.merge_tree`), score (Unigram), ``##`` (WordPiece).
- :func:`search`: ids whose text contains a string, matches a user regex (with the user-pattern timeout), or
  whose bytes contain a hex sequence.
- :func:`parse_ids` and :func:`decode`: a pasted id list to text and per-token bytes; unknown ids named, never
  raised; :func:`round_trip` encodes the text again and says why the list can differ.
- :func:`census`: tokens per Unicode script, mean length, longest tokens, partial characters per script.
- :func:`unreachable`: the usual first test for "glitch tokens": a token whose own text does not encode back to
  that one token (``encode(decode([id])) != [id]``), with the reason (partial character, pre-tokenizer cut,
  normalizer, merge order...); :func:`unused`: tokens a reference corpus never uses.

This module draws nothing: pages and the CLI render the records.
"""
from __future__ import annotations

import threading
import time
import weakref
from array import array
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Iterable, Literal, Sequence

import numpy as np
import regex

from ..i18n import T_, Message
from ..pretrained.adapter import PretrainedTokenizer, TextError
from ..pretrained.replay import MergeNode, merge_tree
from ..text import limits
from ..text.boundaries import is_valid_utf8
from ..text.safe_regex import compile_user_regex
from ..text.scripts import MIXED, census_name, partial_scripts, scripts_of_texts, text_scripts
from ..text.units import utf8_hex

#: Most ids one decode takes (a pasted list, a file, the CLI).
MAX_DECODE_IDS = 50_000
#: Most characters of a pasted id list (about 7 per id).
MAX_IDS_TEXT = 8 * MAX_DECODE_IDS
#: Longest search text / pattern.
MAX_QUERY_CHARS = 500
#: Longest tokens listed per script in the census.
LONGEST_PER_SCRIPT = 5


class VocabError(ValueError):
    """An id, an id list or a query that cannot be used (the message says which and why)."""


# ---------------------------------------------------------------------------
# The table of every id
# ---------------------------------------------------------------------------


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


_tables: "weakref.WeakKeyDictionary[PretrainedTokenizer, VocabTable]" = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def _kept(store: "weakref.WeakKeyDictionary[PretrainedTokenizer, Any]", tok: PretrainedTokenizer, build: Any) -> Any:
    got = store.get(tok)
    if got is None:
        built = build(tok)
        with _lock:
            got = store.setdefault(tok, built)
    return got


def _build_table(tok: PretrainedTokenizer) -> VocabTable:
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


def vocab_table(tok: PretrainedTokenizer) -> VocabTable:
    """``tok``'s :class:`VocabTable`, built on first use and kept as long as ``tok`` lives."""
    return _kept(_tables, tok, _build_table)


def check_id(tok: PretrainedTokenizer, token_id: int) -> None:
    """Raise :class:`VocabError` naming the id when it is not a token of ``tok``."""
    if not 0 <= token_id < tok.vocab_size:
        raise VocabError(T_("id {id} is outside the vocabulary of {tokenizer} (0 to {last})", id=str(token_id),
                            tokenizer=tok.id, last=str(tok.vocab_size - 1)))
    if not tok.has_token(token_id):
        raise VocabError(T_("id {id} names no token in {tokenizer} (a gap between its ids)", id=str(token_id),
                            tokenizer=tok.id))


# ---------------------------------------------------------------------------
# One token
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TokenInfo:
    """One vocabulary entry described for a reader."""

    id: int
    data: bytes
    text: str
    #: The piece as the library spells it (``▁the``, ``Ġthe``, ``##ing``, ``<0x41>``); None when it has no spelling.
    piece: str | None
    valid_utf8: bool
    scripts: tuple[str, ...]
    special: bool
    byte_piece: bool
    continuation: bool
    score: float | None
    tree: MergeNode | None
    model: str

    @property
    def hex(self) -> str:
        return utf8_hex(self.data)

    @property
    def merge_rank(self) -> int | None:
        return self.tree.rank if self.tree is not None else None

    def to_json(self) -> dict[str, Any]:
        """The JSON record (``id``, ``bytes`` as hex, ``text``...)."""
        return {
            "id": self.id, "bytes": self.hex, "text": self.text, "piece": self.piece, "valid_utf8": self.valid_utf8,
            "scripts": list(self.scripts), "special": self.special, "byte_piece": self.byte_piece,
            "continuation": self.continuation, "score": self.score, "model": self.model,
            "merge_rank": self.merge_rank, "merge_tree": tree_json(self.tree) if self.tree is not None else None,
        }


def tree_json(node: MergeNode) -> dict[str, Any]:
    """A merge tree as nested JSON: ``{"id", "bytes", "rank", "left", "right"}``."""
    out: dict[str, Any] = {"id": node.id, "bytes": utf8_hex(node.data), "text": node.data.decode("utf-8", "replace")}
    if node.left is not None and node.right is not None:
        out.update(rank=node.rank, left=tree_json(node.left), right=tree_json(node.right))
    return out


def model_kind(tok: PretrainedTokenizer) -> str:
    """``BPE``, ``Unigram``, ``WordPiece``, or the catalog's algorithm when the file does not say."""
    kind = tok.model_type()
    if kind:
        return kind
    if tok.replay_source() is not None:
        return "BPE"
    algorithm = tok.entry.algorithm
    return "Unigram" if "Unigram" in algorithm else algorithm


def token_scripts(data: bytes) -> tuple[str, ...]:
    """The scripts of a token's bytes: of its text when whole UTF-8, else of the characters its bytes start."""
    if is_valid_utf8(data):
        return text_scripts(data.decode("utf-8"))
    return partial_scripts(data)


def lookup(tok: PretrainedTokenizer, token_id: int) -> TokenInfo:
    """Token ``token_id`` of ``tok`` described (raises :class:`VocabError` for an id that is not a token).

    >>> from core.pretrained import zoo
    >>> info = lookup(zoo.load("o200k_base"), 10)
    >>> info.hex, info.text, info.scripts
    ('2B', '+', ('Common',))
    """
    check_id(tok, token_id)
    data = tok.token_bytes(token_id)
    special = token_id in tok.special_ids
    return TokenInfo(
        id=token_id, data=data, text=data.decode("utf-8", errors="replace"), piece=tok.id_to_token(token_id),
        valid_utf8=is_valid_utf8(data), scripts=() if special else token_scripts(data), special=special,
        byte_piece=tok.is_byte_piece(token_id), continuation=tok.is_continuation(token_id),
        score=tok.piece_score(token_id), tree=None if special else merge_tree(tok, token_id), model=model_kind(tok),
    )


# ---------------------------------------------------------------------------
# Search
# ---------------------------------------------------------------------------

SearchMode = Literal["text", "regex", "bytes", "id"]
SEARCH_MODES: tuple[SearchMode, ...] = ("text", "regex", "bytes", "id")


@dataclass(frozen=True)
class SearchResult:
    """The ids that match, in id order (all of them: a page shows one slice at a time)."""

    tokenizer: str
    mode: str
    query: str
    ids: Sequence[int]

    def page(self, number: int, size: int) -> Sequence[int]:
        """Ids of page ``number`` (0-based; clamped to the last page)."""
        last = max(0, (len(self.ids) - 1) // size)
        number = min(max(number, 0), last)
        return self.ids[number * size : (number + 1) * size]


def parse_hex(query: str) -> bytes:
    """Hex bytes as typed: ``E0 A6``, ``e0a6``, ``0xE0 0xA6``, ``\\xe0\\xa6``."""
    cleaned = regex.sub(r"(?i)0x|\\x|[\s,:]", "", query)
    try:
        data = bytes.fromhex(cleaned)
    except ValueError:
        raise VocabError(T_("{query} is not hex bytes (write them like E0 A6 9C)", query=repr(query[:40]))) from None
    if not data:
        raise VocabError(T_("no bytes to search for"))
    return data


def search(tok: PretrainedTokenizer, query: str, mode: SearchMode = "text") -> SearchResult:
    """Ids of ``tok`` whose token matches ``query``; an empty query lists every id.

    ``text``: the token's text contains ``query``; ``regex``: a ``regex`` pattern searched in each token's text
    (one line per token), under the user-pattern timeout (:data:`core.text.limits.REGEX_TIMEOUT_S`);
    ``bytes``: the token's bytes contain the hex bytes; ``id``: that one id (if it is a token).

    >>> from core.pretrained import zoo
    >>> ids = search(zoo.load("o200k_base"), "রাজ").ids
    >>> len(ids) > 0
    True
    """
    if mode not in SEARCH_MODES:
        raise VocabError(T_("unknown search mode {mode}; use one of {modes}", mode=repr(mode), modes=", ".join(SEARCH_MODES)))
    if len(query) > MAX_QUERY_CHARS:
        raise VocabError(T_("the query is {count:,} characters; the limit is {limit:,}", count=len(query),
                            limit=MAX_QUERY_CHARS))
    table = vocab_table(tok)
    if not query:
        return SearchResult(tok.id, mode, query, [i for i in range(table.size) if table.data[i] is not None])
    if mode == "id":
        tid = parse_ids(query)
        if len(tid) != 1:
            raise VocabError(T_("search by id takes one id"))
        hit = [tid[0]] if 0 <= tid[0] < table.size and table.data[tid[0]] is not None else []
        return SearchResult(tok.id, mode, query, hit)
    if mode == "text":
        return SearchResult(tok.id, mode, query, [i for i, t in enumerate(table.texts) if query in t])
    if mode == "bytes":
        needle = parse_hex(query)
        return SearchResult(tok.id, mode, query, [i for i, d in enumerate(table.data) if d is not None and needle in d])
    try:
        compiled = compile_user_regex(query, regex.MULTILINE)
    except regex.error as exc:
        raise VocabError(T_("invalid regex {regex}: {reason}", regex=repr(query), reason=str(exc))) from None
    joined, starts = table.joined_lines
    hits: list[int] = []
    last = -1
    for m in limits.user_finditer(compiled, joined):
        k = bisect_right(starts, m.start()) - 1
        # a match that runs past its token's line (\s, [^x]) counts for the token where it starts only if it ends there
        if k != last and m.end() <= starts[k] + len(table.texts[k]) and table.data[k] is not None:
            hits.append(k)
            last = k
    return SearchResult(tok.id, mode, query, hits)


# ---------------------------------------------------------------------------
# Decode
# ---------------------------------------------------------------------------

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


def decode(tok: PretrainedTokenizer, ids: Sequence[int]) -> Decoded:
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

    @property
    def message(self) -> Message:
        return ROUND_TRIP_REASONS[self.reason]

    def to_json(self) -> dict[str, Any]:
        return {"ids": list(self.ids), "same": self.same, "reason": self.reason, "why": str(self.message),
                "first_difference": self.first_difference}


def round_trip(tok: PretrainedTokenizer, decoded: Decoded) -> RoundTrip:
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


# ---------------------------------------------------------------------------
# Script census
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ScriptRow:
    """The tokens of one script (or ``mixed``) in a vocabulary."""

    script: str
    tokens: int
    mean_chars: float
    longest: tuple[int, ...]
    #: Byte-level vocabularies: tokens that are parts of characters of this script (not counted in ``tokens``).
    partial: int = 0


@dataclass(frozen=True)
class Census:
    """Tokens per Unicode script of one tokenizer (control tokens and holes left out)."""

    tokenizer: str
    tokens: int
    special: int
    rows: tuple[ScriptRow, ...]
    #: Tokens that are bytes of no script (a continuation byte alone, ``<0x80>``).
    partial_unknown: int = 0
    #: The census name of every id as an index into :attr:`labels` (-1: a hole or a control token); a partial
    #: character counts for the script it is part of, bytes of no script as ``Common``.
    by_id: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64), repr=False, compare=False)
    labels: tuple[str, ...] = field(default=(), repr=False, compare=False)

    def count_by_script(self, ids: np.ndarray) -> dict[str, int]:
        """How many of ``ids`` are of each script (census names), most first; holes and control tokens left out."""
        k = self.by_id[np.asarray(ids, dtype=np.int64)]
        counts = np.bincount(k[k >= 0], minlength=len(self.labels))
        got = {self.labels[i]: int(n) for i, n in enumerate(counts.tolist()) if n}
        return dict(sorted(got.items(), key=lambda kv: (-kv[1], kv[0])))

    @property
    def scripts(self) -> dict[str, int]:
        """Script -> whole tokens, most first."""
        return {r.script: r.tokens for r in self.rows if r.tokens}

    def row(self, script: str) -> ScriptRow | None:
        return next((r for r in self.rows if r.script == script), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "tokenizer": self.tokenizer, "tokens": self.tokens, "special": self.special, "scripts": self.scripts,
            "partial": {r.script: r.partial for r in self.rows if r.partial}, "partial_unknown": self.partial_unknown,
            "mean_chars": {r.script: round(r.mean_chars, 3) for r in self.rows if r.tokens},
            "longest": {r.script: list(r.longest) for r in self.rows if r.longest},
        }


_censuses: "weakref.WeakKeyDictionary[PretrainedTokenizer, Census]" = weakref.WeakKeyDictionary()


def _build_census(tok: PretrainedTokenizer) -> Census:
    table = vocab_table(tok)
    keep = table.valid.copy()
    if table.special:
        keep[list(table.special)] = False
    ids = np.flatnonzero(keep)
    texts = [table.texts[i] for i in ids.tolist()]
    lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
    # Each character's script as a number (shared scripts get no number): a token is of one script when the
    # smallest and the largest number over its characters agree, "Common" when it has none, "mixed" otherwise.
    codes = np.frombuffer("".join(texts).encode("utf-32-le"), dtype=np.uint32)
    uniq, inverse = np.unique(codes, return_inverse=True)
    uniq_chars = "".join(map(chr, uniq.tolist()))
    script = scripts_of_texts([uniq_chars])
    names = sorted({script[ch] for ch in uniq_chars} - {"Common", "Inherited"})
    number = {name: k for k, name in enumerate(names)}
    big = len(names)
    per_char = np.fromiter((number.get(script[ch], -1) for ch in uniq_chars), dtype=np.int64, count=len(uniq))
    char_no = per_char[inverse]
    low = np.where(char_no < 0, big, char_no)
    high = char_no
    nonempty = lengths > 0
    starts = (np.cumsum(lengths) - lengths)[nonempty]
    lo = np.full(len(texts), big, dtype=np.int64)
    hi = np.full(len(texts), -1, dtype=np.int64)
    if len(starts):
        lo[nonempty] = np.minimum.reduceat(low, starts)
        hi[nonempty] = np.maximum.reduceat(high, starts)
    # category per token: 0..big-1 a script, big "Common", big + 1 mixed
    cat = np.where(hi < 0, big, np.where(lo == hi, lo, big + 1))
    labels = [*names, "Common", MIXED]
    counts = np.bincount(cat, minlength=big + 2)
    chars = np.bincount(cat, weights=lengths, minlength=big + 2)
    order = np.lexsort((ids, -lengths, cat))  # by category, longest first, then id
    first = np.searchsorted(cat[order], np.arange(big + 2))
    partial: dict[str, int] = {}
    partial_unknown = 0
    by_id = np.full(table.size, -1, dtype=np.int64)
    by_id[ids] = cat
    index = {name: k for k, name in enumerate(labels)}
    for i in np.flatnonzero(~table.valid & table.assigned).tolist():
        if i in table.special:
            continue
        found = partial_scripts(table.data[i] or b"")
        if not found:
            partial_unknown += 1
        else:
            name = census_name(found)
            partial[name] = partial.get(name, 0) + 1
        name = census_name(found)
        by_id[i] = index.setdefault(name, len(index))
    rows = []
    for k, name in enumerate(labels):
        n = int(counts[k])
        if not n and not partial.get(name):
            continue
        top = ids[order[first[k] : first[k] + min(n, LONGEST_PER_SCRIPT)]] if n else ids[:0]
        rows.append(ScriptRow(name, n, float(chars[k] / n) if n else 0.0, tuple(int(i) for i in top), partial.get(name, 0)))
    for name, n in partial.items():
        if name not in labels:
            rows.append(ScriptRow(name, 0, 0.0, (), n))
    rows.sort(key=lambda r: (-r.tokens, -r.partial, r.script))
    n_special = len(table.special)
    return Census(tok.id, table.tokens - n_special, n_special, tuple(rows), partial_unknown, by_id, tuple(index))


def census(tok: PretrainedTokenizer) -> Census:
    """``tok``'s tokens per Unicode script, computed once per tokenizer.

    >>> from core.pretrained import zoo
    >>> c = census(zoo.load("o200k_base"))
    >>> c.scripts["Bengali"] > 100, c.row("Bengali").partial > 0
    (True, True)
    """
    return _kept(_censuses, tok, _build_census)


# ---------------------------------------------------------------------------
# Unreachable tokens and tokens a corpus never uses
# ---------------------------------------------------------------------------

UnreachableReason = Literal["partial", "byte-fallback", "word-internal", "decoder", "normalizer", "pretokenizer",
                            "merge", "segmentation", "longest-match"]

#: Why a token's own text does not encode to it. The first three are reachable next to other text (inside a
#: word, next to the bytes that complete a character); the others not even there.
UNREACHABLE_REASONS: dict[str, Message] = {
    "partial": T_("Its bytes are part of a character: decoded alone it is U+FFFD. Text reaches it only next to the "
                  "bytes that complete the character."),
    "byte-fallback": T_("A byte-fallback piece: the character it spells has a token of its own, which wins."),
    "word-internal": T_("A piece for the inside of a word: alone, its text starts a word and gets the word-start "
                        "marker."),
    "decoder": T_("Decoding it alone changes its text (a space dropped or added), so its text encodes otherwise."),
    "normalizer": T_("The normalizer changes its text before the model sees it (case, compatibility forms, spaces)."),
    "pretokenizer": T_("The pre-tokenizer cuts its text into several pieces, and no merge crosses a pre-tokenizer "
                       "cut."),
    "merge": T_("Its text is one piece, but the merges in the library's order build other tokens: an earlier merge "
                "shadows the one that makes it."),
    "segmentation": T_("Unigram prefers another segmentation of its text (a higher total score)."),
    "longest-match": T_("WordPiece's longest match from the left takes another piece first."),
}
#: Reasons for tokens that other text around them can still reach.
IN_CONTEXT = frozenset({"partial", "byte-fallback", "word-internal"})


@dataclass(frozen=True)
class UnreachableToken:
    """A token whose text, decoded alone and encoded again, is not that token."""

    id: int
    reason: str
    #: What encoding its text gives instead.
    got: tuple[int, ...]
    script: str

    @property
    def in_context(self) -> bool:
        """Other text around it can still produce it (see :data:`IN_CONTEXT`)."""
        return self.reason in IN_CONTEXT


@dataclass(frozen=True)
class UnreachableReport:
    """Every token of a tokenizer that fails ``encode(decode([id])) == [id]``, with the reason for each."""

    tokenizer: str
    checked: int
    tokens: tuple[UnreachableToken, ...]
    seconds: float = field(default=0.0, compare=False)

    def by_reason(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for t in self.tokens:
            out[t.reason] = out.get(t.reason, 0) + 1
        return dict(sorted(out.items(), key=lambda kv: -kv[1]))

    def by_script(self, *, in_context: bool | None = None) -> dict[str, int]:
        out: dict[str, int] = {}
        for t in self.tokens:
            if in_context is None or t.in_context == in_context:
                out[t.script] = out.get(t.script, 0) + 1
        return dict(sorted(out.items(), key=lambda kv: -kv[1]))

    def to_json(self, limit: int | None = None) -> dict[str, Any]:
        toks = self.tokens if limit is None else self.tokens[:limit]
        return {
            "tokenizer": self.tokenizer, "checked": self.checked, "count": len(self.tokens),
            "unreachable": sum(not t.in_context for t in self.tokens),
            "by_reason": self.by_reason(), "by_script": self.by_script(),
            "tokens": [{"id": t.id, "reason": t.reason, "got": list(t.got), "script": t.script} for t in toks],
        }


def _diagnose(tok: PretrainedTokenizer, table: VocabTable, token_id: int, text: str, got: Sequence[int]) -> str:
    """Which stage keeps ``token_id``'s own text from encoding to it."""
    data = table.data[token_id] or b""
    if not table.valid[token_id]:
        return "partial"
    if tok.is_byte_piece(token_id):
        return "byte-fallback"
    if tok.is_continuation(token_id):
        return "word-internal"
    back = b"".join(table.data[i] or b"" for i in got if 0 <= i < table.size)
    if back != data:
        if back.startswith(b" ") and not data.startswith(b" ") and back[1:].startswith(data[:1]):
            return "word-internal"
        if text.encode("utf-8") != data:
            return "decoder"
    norm = tok.normalizer()
    if norm is not None and norm.normalize(text) != text:
        return "normalizer"
    if back != data:
        return "decoder"
    pattern = tok.split_pattern
    if pattern is not None:
        if len([p for p in regex.findall(pattern, text) if p]) > 1:
            return "pretokenizer"
    else:
        pre = tok.pre_tokenizer()
        if pre is not None and len([p for p, _ in pre.split(text) if p]) > 1:
            return "pretokenizer"
    kind = model_kind(tok)
    return "segmentation" if kind == "Unigram" else "longest-match" if kind == "WordPiece" else "merge"


_unreachable: "weakref.WeakKeyDictionary[PretrainedTokenizer, UnreachableReport]" = weakref.WeakKeyDictionary()


def _build_unreachable(tok: PretrainedTokenizer) -> UnreachableReport:
    t0 = time.perf_counter()
    table = vocab_table(tok)
    # control tokens (and the unknown token) are not made from text on purpose: the pages encode their spelling as text
    specials = table.special | set(tok.specials.values()) | ({tok.unk_id} if tok.unk_id is not None else set())
    encode, decode_ids = tok.encode_ids, tok.decode_ids
    out: list[UnreachableToken] = []
    checked = 0
    for i, d in enumerate(table.data):
        if d is None or i in specials:
            continue
        checked += 1
        text = decode_ids([i])
        try:
            got = encode(text)
        except TextError:
            got = []
        if len(got) == 1 and got[0] == i:
            continue
        reason = _diagnose(tok, table, i, text, got)
        out.append(UnreachableToken(i, reason, tuple(got), census_name(token_scripts(d))))
    return UnreachableReport(tok.id, checked, tuple(out), time.perf_counter() - t0)


def unreachable(tok: PretrainedTokenizer) -> UnreachableReport:
    """The tokens of ``tok`` whose own text does not encode back to them, with reasons (computed once per tokenizer).

    The test is the library's own ``encode(decode([id])) == [id]`` for every token but the control tokens; the
    reason comes from asking each stage in turn (:func:`_diagnose`: bytes, decoder, normalizer, pre-tokenizer,
    model).
    """
    return _kept(_unreachable, tok, _build_unreachable)


@dataclass(frozen=True)
class UnusedReport:
    """Tokens a reference corpus never produces."""

    tokenizer: str
    corpus: str
    corpus_tokens: int
    used: int
    unused: tuple[int, ...]
    by_script: dict[str, int]

    def to_json(self, limit: int | None = None) -> dict[str, Any]:
        ids = self.unused if limit is None else self.unused[:limit]
        return {"tokenizer": self.tokenizer, "corpus": self.corpus, "corpus_tokens": self.corpus_tokens,
                "used": self.used, "unused_count": len(self.unused), "unused_by_script": self.by_script,
                "unused": list(ids)}


def unused(tok: PretrainedTokenizer, texts: Iterable[str], corpus: str) -> UnusedReport:
    """Which tokens of ``tok`` encoding ``texts`` (each on its own) never gives; control tokens left out."""
    table = vocab_table(tok)
    encode = tok.encode_ids
    # every text's ids in one array, counted once (a count array per text would cost the vocabulary size each)
    parts = [np.asarray(encode(text), dtype=np.int64) for text in texts]
    got = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    got = got[(got >= 0) & (got < table.size)]
    counts = np.bincount(got, minlength=table.size)
    never = table.assigned & (counts == 0)
    if table.special:
        never[list(table.special)] = False
    found = np.flatnonzero(never)
    by_script = census(tok).count_by_script(found)
    return UnusedReport(tok.id, corpus, len(got), int(np.count_nonzero(counts)), tuple(found.tolist()), by_script)
