"""Search a vocabulary: ids whose text contains a string or matches a user regex, whose bytes contain hex bytes,
or one id."""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import Literal, Sequence

import regex

from ...i18n import T_
from ...pretrained.protocols import Vocabulary
from ...text import limits
from ...text.safe_regex import compile_user_regex
from .decoding import parse_ids
from .table import VocabError, vocab_table

#: Longest search text / pattern.
MAX_QUERY_CHARS = 500

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


def search(tok: Vocabulary, query: str, mode: SearchMode = "text") -> SearchResult:
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
