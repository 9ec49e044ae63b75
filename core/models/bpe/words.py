"""Training input: a typed word table, or a corpus pre-tokenized and counted (in memory or streamed)."""
from __future__ import annotations

from typing import Iterable

from ...i18n import T_
from ...pipeline.pretokenize import Pattern, pretokenize, resolve_pattern
from .encode import BpeInputError

#: Largest count one word may have in a typed word table. A trillion is more words than any real corpus has,
#: and it keeps the counts the stepper charts within a float's exact range (a count of 10^23 made every
#: point of the chart the same float, and its axis divided by zero).
MAX_WORD_COUNT = 10**12


def parse_word_table(spec: str) -> dict[str, int]:
    """Parse ``"কার:4,জার:2"`` into ``{"কার": 4, "জার": 2}`` (order kept).

    A repeated word adds up. Raises :class:`BpeInputError` on a malformed
    entry, a non-positive count, a count above :data:`MAX_WORD_COUNT` or an
    empty table.

    >>> parse_word_table("low:5, lower:2")
    {'low': 5, 'lower': 2}
    """
    table: dict[str, int] = {}
    for raw in spec.split(","):
        entry = raw.strip()
        if not entry:
            continue
        word, sep, count = entry.rpartition(":")
        word = word.strip()
        if not sep or not word:
            raise BpeInputError(T_("word table entry {entry} is not WORD:COUNT", entry=repr(entry)))
        try:
            n = int(count)
        except ValueError:
            raise BpeInputError(T_("word table entry {entry}: count {count} is not an integer", entry=repr(entry),
                                   count=repr(count.strip()))) from None
        if n <= 0:
            raise BpeInputError(T_("word table entry {entry}: count must be positive", entry=repr(entry)))
        table[word] = table.get(word, 0) + n
        if table[word] > MAX_WORD_COUNT:
            raise BpeInputError(T_("word table entry {entry}: a count may be at most {limit:,}", entry=repr(entry[:40]),
                                   limit=MAX_WORD_COUNT))
    if not table:
        raise BpeInputError(T_("word table is empty"))
    return table


def word_counts(corpus: str, pattern: str | Pattern = "ws-attached") -> dict[str, int]:
    """Pre-tokenize ``corpus`` and count the pieces, in order of first appearance."""
    counts: dict[str, int] = {}
    for piece in pretokenize(corpus, pattern):
        counts[piece.text] = counts.get(piece.text, 0) + 1
    return counts


#: Characters at the end of a text piece whose pre-tokens wait for the next piece (see :func:`word_counts_stream`).
STREAM_WINDOW = 256
#: Most distinct words the traced trainer takes (it keeps every distinct word, and its pairs, in Python lists).
MAX_TRACE_WORDS = 200_000


def word_counts_stream(texts: Iterable[str], pattern: str | Pattern = "ws-attached", *,
                       max_words: int = MAX_TRACE_WORDS) -> dict[str, int]:
    """:func:`word_counts` of the concatenation of ``texts``, reading one piece at a time.

    ``texts`` may be cut anywhere (e.g. 1 MB chunks of a file). Each piece is
    pre-tokenized together with the unfinished end of the one before; a
    pre-token counts only when it ends at least :data:`STREAM_WINDOW`
    characters before the end of what has been read so far (the rest waits
    for the next piece), so a pre-token is never split by a cut. This is
    exact for the named patterns, whose pieces are decided by the character
    after them at most; a custom regex could look further ahead, so it is
    refused here (:class:`BpeInputError`): use :func:`word_counts` on the
    whole text. More than ``max_words`` distinct words is refused too: the
    traced trainer holds every distinct word in memory.
    """
    pat = pattern if isinstance(pattern, Pattern) else resolve_pattern(pattern)
    if pat.name == "custom":
        raise BpeInputError(T_("a custom --pattern cannot be streamed (it may look past a chunk); give a named "
                               "pattern"))
    counts: dict[str, int] = {}
    carry = ""

    def add(pieces: Iterable[str]) -> None:
        for t in pieces:
            counts[t] = counts.get(t, 0) + 1
        if len(counts) > max_words:
            raise BpeInputError(T_("the corpus has more than {limit:,} distinct words; the traced trainer keeps every "
                                   "distinct word in memory: train on a sample, or use `train` (the library trainer)",
                                   limit=max_words))

    for text in texts:
        buf = carry + text
        spans = pretokenize(buf, pat)
        limit = len(buf) - STREAM_WINDOW
        done = [s for s in spans if s.end <= limit]
        add(s.text for s in done)
        carry = buf[done[-1].end:] if done else buf
        if len(carry) > 64 * STREAM_WINDOW * 1024:
            raise BpeInputError(T_("a pre-token runs on for more than 16 million characters; cannot stream this "
                                   "corpus"))
    if carry:
        add(s.text for s in pretokenize(carry, pat))
    return counts
