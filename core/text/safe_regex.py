"""Compiling a regex a user typed, with its compiled size bounded before the ``regex`` module sees it.

The ``regex`` module expands a counted repeat into copies of its body when it
compiles: ``a{1000000}`` is a million nodes, and nested counts multiply, so
``(?:(?:(?:a{100}){100}){100}){100}`` asks for 10^8 of them (gigabytes, long
before any match timeout can act). :func:`compile_user_regex` reads the
pattern once (linear in its length), works out how many copies its counted
repeats make (the product of the minimum counts along each nesting, summed
over the pattern) and how deep its groups nest, and refuses a pattern over
:data:`MAX_REGEX_SIZE` or :data:`MAX_REGEX_DEPTH` with a one-line
:class:`RegexTooLargeError` before compiling it. The reading errs on the side
of counting too much (a character class whose end it misjudges, verbose-mode
spaces, fuzzy constraints), never too little.

Matching a compiled user pattern stays bounded in time through
:func:`core.text.limits.user_finditer` (the ``regex`` module's ``timeout=``).
Every user-supplied regex goes through here: the CLI's ``--pattern``
options, the vocabulary search, the pre-tokenizer patterns, custom split
patterns, and ``.tiktoken`` split patterns.
"""
from __future__ import annotations

import re
from typing import Any

from ..i18n import T_
from .limits import LimitError

#: Most copies of an atom the counted repeats of one pattern may make (``a{100000}`` compiles in 0.03 s, 40 MB).
MAX_REGEX_SIZE = 100_000
#: Deepest nesting of groups (the ``regex`` module's compiler recurses once per level and fails near 1,000).
MAX_REGEX_DEPTH = 100
#: Longest pattern read (the longest bundled split pattern is under 400 characters).
MAX_REGEX_CHARS = 100_000

#: A counted repeat: ``{n}``, ``{n,}``, ``{,m}``, ``{n,m}`` (spaces allowed, as some engines do: counting more is safe).
_COUNT = re.compile(r"\{\s*(\d*)\s*(,?)\s*(\d*)\s*\}")
#: An inline flag group that may turn on verbose mode (``(?x)``, ``(?ix:...)``).
_VERBOSE = re.compile(r"\(\?[a-zA-Z^-]*x")
#: What follows "(" before a group's body: ``?:``, ``?=``, ``?<!``, ``?P<name>``, ``?<name>``, flags (``?i:``, ``?x)``).
_PREFIX = re.compile(r"\?(?:P?<[A-Za-z_]\w*>|'[A-Za-z_]\w*'|<[=!]|[:=!>|]|[a-zA-Z^-]*:?)")
#: Above this, sizes are only compared with the limit: keep integers small.
_CAP = 10**12


class RegexTooLargeError(LimitError):
    """A user regex whose compiled form would be too big (counted repeats that multiply, or groups nested too deep)."""


def regex_size(pattern: str, flags: int = 0) -> tuple[int, int]:
    """``(copies, depth)``: the atoms the pattern compiles into once its counted repeats are expanded, and how deep
    its groups nest. Linear in the pattern's length.

    >>> regex_size("a{10}b")
    (11, 0)
    >>> regex_size("(?:(?:a{100}){100}){10}")
    (100000, 2)
    >>> regex_size("[a{9}]{2,}")
    (2, 0)
    """
    verbose = bool(flags & re.VERBOSE) or _VERBOSE.search(pattern) is not None
    stack: list[list[int]] = [[0, 0]]  # per open group: [total copies so far, size of its last item]
    depth = 0
    i, n = 0, len(pattern)

    def atom(size: int) -> None:
        top = stack[-1]
        top[0] = min(top[0] + size, _CAP)
        top[1] = size

    while i < n:
        c = pattern[i]
        if verbose and c in " \t\n\r\f\v":
            i += 1
            continue
        if verbose and c == "#":
            end = pattern.find("\n", i)
            i = n if end < 0 else end + 1
            continue
        if c == "\\":
            nxt = pattern[i + 1:i + 2]
            i += 2
            if nxt in ("p", "P", "N", "x", "u", "U", "g") and pattern[i:i + 1] in ("{", "<"):
                close = pattern.find("}" if pattern[i] == "{" else ">", i)
                i = n if close < 0 else close + 1
            atom(1)
            continue
        if c == "[":  # a class is one atom; it ends at the first unescaped "]" after its first character
            j = i + 1
            if pattern[j:j + 1] == "^":
                j += 1
            if pattern[j:j + 1] == "]":
                j += 1
            while j < n and pattern[j] != "]":
                j += 2 if pattern[j] == "\\" else 1
            i = j + 1
            atom(1)
            continue
        if c == "(":
            if pattern.startswith("(?#", i):  # a comment
                close = pattern.find(")", i)
                i = n if close < 0 else close + 1
                continue
            stack.append([0, 0])
            depth = max(depth, len(stack) - 1)
            prefix = _PREFIX.match(pattern, i + 1)
            i = prefix.end() if prefix is not None else i + 1
            continue
        if c == ")":
            if len(stack) > 1:
                group = stack.pop()[0]
                atom(max(group, 1))
            i += 1
            continue
        if c == "{":
            m = _COUNT.match(pattern, i)
            if m is not None and (m.group(1) or m.group(3)):
                low = int(m.group(1)) if m.group(1) else 0
                if low > 1:  # the body is copied ``low`` times; an open or larger maximum is a loop, not copies
                    top = stack[-1]
                    grown = min(top[1] * low, _CAP)
                    top[0] = min(top[0] + grown - top[1], _CAP)
                    top[1] = grown
                i = m.end()
                continue
        if c in "|*+?":
            i += 1
            continue
        atom(1)
        i += 1
    while len(stack) > 1:  # unbalanced: the compiler will say so; count what was opened
        group = stack.pop()[0]
        atom(max(group, 1))
    return stack[0][0], depth


def check_user_regex(pattern: str, flags: int = 0) -> None:
    """Refuse a pattern whose compiled form would be too large (:class:`RegexTooLargeError`, one line)."""
    if len(pattern) > MAX_REGEX_CHARS:
        raise RegexTooLargeError(T_("this pattern is {count:,} characters long; the limit is {limit:,}",
                                    count=len(pattern), limit=MAX_REGEX_CHARS))
    size, depth = regex_size(pattern, flags)
    if depth > MAX_REGEX_DEPTH:
        raise RegexTooLargeError(T_("this pattern is too large to compile: its groups nest {depth:,} deep (the "
                                    "limit is {limit})", depth=depth, limit=MAX_REGEX_DEPTH))
    if size > MAX_REGEX_SIZE:
        shown = f"{size:,}" if size < _CAP else f"> {_CAP:,}"
        raise RegexTooLargeError(T_("this pattern is too large to compile: its counted repeats multiply to {size} "
                                    "copies (the limit is {limit:,})", size=shown, limit=MAX_REGEX_SIZE))


def compile_user_regex(pattern: str, flags: int = 0) -> Any:
    """``regex.compile(pattern, flags)`` for a pattern a user supplied, after :func:`check_user_regex`.

    A pattern that does not compile raises ``regex.error`` as before (callers word it); one too large or too
    deep raises :class:`RegexTooLargeError`. Match it through :func:`core.text.limits.user_finditer` (a timeout).
    """
    import regex

    check_user_regex(pattern, flags)
    try:
        return regex.compile(pattern, flags)
    except (RecursionError, OverflowError, MemoryError):
        raise RegexTooLargeError(T_("this pattern is too large to compile")) from None


__all__ = ["MAX_REGEX_DEPTH", "MAX_REGEX_SIZE", "RegexTooLargeError", "check_user_regex", "compile_user_regex",
           "regex_size"]
