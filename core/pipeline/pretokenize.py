"""Pre-tokenizer patterns: the regex split that runs before the model.

Each named pattern is declared as data. ``gpt2``, ``cl100k``, ``o200k`` and
``llama3`` are the published split regexes (cl100k in the form tiktoken
runs today, whose trailing-whitespace rule differs from the 2023 release); ``tests/test_pretokenize.py``
checks them against the patterns that ``tiktoken`` itself declares.

Merges can never cross a piece boundary made here: that is why \\p{L}+
patterns, which stop at Bangla vowel signs (\\p{M}), cut Bangla words apart.
"""
from __future__ import annotations

from dataclasses import dataclass

import regex

from ..text.limits import user_finditer
from ..text.units import Span

_CONTRACTIONS = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)"


@dataclass(frozen=True)
class Pattern:
    """A named split regex. ``regex is None`` means: the whole text is one piece."""

    name: str
    regex: str | None
    description: str


PATTERNS: dict[str, Pattern] = {
    p.name: p
    for p in (
        Pattern("none", None, "No split: the whole text is one piece."),
        Pattern(
            "ws-attached",
            r"\s*\S+|\s+",
            "Whitespace stays on the following word, so joining pieces gives the text back exactly.",
        ),
        Pattern("whitespace", r"\S+", "Runs of non-space; whitespace is dropped."),
        Pattern(
            "gpt2",
            r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+",
            "GPT-2: letters (\\p{L}+), numbers and punctuation apart; vowel signs (\\p{M}) break words.",
        ),
        Pattern(
            "cl100k",
            r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s",
            "cl100k_base (GPT-4): like GPT-2, digits in groups of three; still \\p{L}+ only.",
        ),
        Pattern(
            "o200k",
            "|".join(
                [
                    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+" + _CONTRACTIONS + "?",
                    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*" + _CONTRACTIONS + "?",
                    r"\p{N}{1,3}",
                    r" ?[^\s\p{L}\p{N}]+[\r\n/]*",
                    r"\s*[\r\n]+",
                    r"\s+(?!\S)",
                    r"\s+",
                ]
            ),
            "o200k_base (GPT-4o): letter runs include marks (\\p{M}), so Bangla words stay whole.",
        ),
        Pattern(
            "llama3",
            _CONTRACTIONS
            + r"|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
            "Llama 3: the cl100k pattern family; \\p{L}+ only.",
        ),
    )
}


class PatternError(ValueError):
    """A user regex that does not compile or matches the empty string."""


def resolve_pattern(name_or_regex: str) -> Pattern:
    """A named pattern, or a user regex wrapped as ``Pattern("custom", ...)``."""
    if name_or_regex in PATTERNS:
        return PATTERNS[name_or_regex]
    if not name_or_regex:
        raise PatternError("empty regex")
    try:
        compiled = regex.compile(name_or_regex)
    except regex.error as exc:
        raise PatternError(f"invalid regex {name_or_regex!r}: {exc}") from None
    if compiled.fullmatch("") is not None and not compiled.search("a b"):
        raise PatternError(f"regex {name_or_regex!r} only matches empty text")
    return Pattern("custom", name_or_regex, "User regex.")


_COMPILED: dict[str, regex.Pattern] = {}


def _compiled(pattern: Pattern) -> regex.Pattern:
    assert pattern.regex is not None
    c = _COMPILED.get(pattern.regex)
    if c is None:
        c = _COMPILED[pattern.regex] = regex.compile(pattern.regex)
    return c


def pretokenize(text: str, pattern: str | Pattern = "ws-attached") -> list[Span]:
    """Split ``text`` into pieces with code point offsets.

    Empty matches are skipped. Text a pattern does not match (e.g. spaces
    with ``whitespace``) is simply not in any piece.

    >>> [p.text for p in pretokenize("বাজার ঘর", "ws-attached")]
    ['বাজার', ' ঘর']
    >>> [p.text for p in pretokenize("কার", "cl100k")]
    ['ক', 'ার']
    """
    pat = pattern if isinstance(pattern, Pattern) else resolve_pattern(pattern)
    if pat.regex is None:
        return [Span(text, 0, len(text))] if text else []
    compiled = _compiled(pat)
    # A user's regex may backtrack for ever ((a|aa)+$ on a long run of a): it runs with a timeout.
    matches = compiled.finditer(text) if pat.name != "custom" else user_finditer(compiled, text)
    return [Span(m.group(), m.start(), m.end()) for m in matches if m.end() > m.start()]
