"""Reading a split regex: its top-level alternatives, its repeatable atoms, and which alternative matched each piece.

The word inspector (:mod:`core.analysis.inspect`) uses this to say *which* part of a
pre-tokenizer regex took a piece and which atom stopped before the next character.
This module does not split text for the tokenizers (that is :mod:`core.pipeline.pretokenize`)
and writes no sentences.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import regex

from ..text.limits import user_finditer
from ..text.safe_regex import compile_user_regex


def split_alternatives(pattern: str) -> list[str]:
    """Top-level ``|`` alternatives of a regex (parentheses, classes and escapes respected).

    >>> split_alternatives(r"'s|(?:a|b)+|[|x]|\\|")
    ["'s", '(?:a|b)+', '[|x]', '\\\\|']
    """
    out, cur, depth, in_class, i = [], [], 0, False, 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            cur.append(pattern[i : i + 2])
            i += 2
            continue
        if in_class:
            if c == "]" and not (cur and cur[-1] in ("[", "[^")):
                in_class = False
        elif c == "[":
            in_class = True
            if pattern[i + 1 : i + 2] == "^":
                cur.append("[^")
                i += 2
                continue
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            out.append("".join(cur))
            cur = []
            i += 1
            continue
        cur.append(c)
        i += 1
    out.append("".join(cur))
    return out


#: An atom that can repeat: a property, a shorthand class or a bracket class, with its quantifier.
_ATOM = regex.compile(r"(\\[pP]\{[^}]+\}|\\[sSdDwW]|\[(?:\\.|[^\]\\])+\])(\{\d*,?\d*\}|[+*?])?([+?])?")


@dataclass(frozen=True)
class Atom:
    source: str
    atom: str
    quantifier: str

    @property
    def repeats(self) -> bool:
        return self.quantifier.startswith(("+", "*")) or (self.quantifier.startswith("{") and "," in self.quantifier)


@lru_cache(maxsize=32)
def atoms(alternative: str) -> tuple[Atom, ...]:
    return tuple(Atom(m.group(0), m.group(1), (m.group(2) or "") + (m.group(3) or "")) for m in _ATOM.finditer(alternative))


@lru_cache(maxsize=256)
def atom_re(atom: str) -> regex.Pattern[str]:
    return regex.compile(atom)


@lru_cache(maxsize=16)
def grouped(pattern: str) -> tuple[regex.Pattern[str], tuple[str, ...]]:
    """The pattern with every top-level alternative in a named group ``a0``, ``a1``...

    subtle: as in :mod:`core.pretrained.replay`, ``$`` becomes ``\\Z`` (the Rust regex
    engine tiktoken uses has no "before a final newline" meaning).
    """
    alts = tuple(split_alternatives(pattern))
    grouped = "|".join(f"(?P<a{k}>{a})" for k, a in enumerate(alts))
    return compile_user_regex(regex.sub(r"(?<!\\)\$", r"\\Z", grouped)), alts


@dataclass(frozen=True)
class PiecePart:
    """One pre-tokenizer piece and the regex alternative that matched it."""

    text: str
    start: int
    end: int
    alternative: str


def regex_pieces(text: str, pattern: str) -> list[PiecePart]:
    """Pieces of ``text`` under ``pattern``, each with the top-level alternative that matched it.

    A user's pattern may backtrack for ever (``(a|aa)+$`` on a long run of ``a``): the matching stops after
    :data:`core.text.limits.REGEX_TIMEOUT_S` with a :class:`core.text.limits.LimitError` naming the pattern.
    """
    compiled, alts = grouped(pattern)
    out = []
    for m in user_finditer(compiled, text, shown=pattern):
        if m.end() > m.start():
            k = int((m.lastgroup or "a0")[1:])
            out.append(PiecePart(m.group(), m.start(), m.end(), alts[k]))
    return out
