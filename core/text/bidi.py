"""Text direction of whole tokens and runs, after the Unicode bidi algorithm (UAX #9), simplified.

- :func:`strong_class` ``(text)``: the bidi class that decides a text's direction ("L", "R", "EN" or None).
- :func:`text_direction` ``(text) -> "ltr" | "rtl"``: from the first strong character.
- :func:`resolve_runs` ``(classes, para)``: each item's direction in a line of whole items (tokens).

This module draws nothing: :mod:`core.render` lays chips out in the runs it resolves. It works on
whole items, never inside one (a token's own letters are left to the browser).
"""
from __future__ import annotations

import unicodedata
from typing import Sequence


def strong_class(text: str) -> str | None:
    """The bidi class that decides ``text``'s direction: "L", "R", "EN" (digits only) or None (neutral).

    >>> strong_class("  سلام"), strong_class("42 "), strong_class(" · ")
    ('R', 'EN', None)
    """
    digits = False
    for ch in text:
        bidi = unicodedata.bidirectional(ch)
        if bidi == "L":
            return "L"
        if bidi in ("R", "AL"):
            return "R"
        if bidi in ("EN", "AN"):
            digits = True
    return "EN" if digits else None


def text_direction(text: str) -> str:
    """"rtl" or "ltr" from the first strong character (Unicode bidi class), "ltr" if none.

    Computed here rather than left to the browser's ``dir="auto"``, which
    ignores descendants that carry their own ``dir`` (every chip does).

    >>> text_direction("  سلام world"), text_direction("বাজার سلام")
    ('rtl', 'ltr')
    """
    return "rtl" if strong_class(text) == "R" else "ltr"


def resolve_runs(classes: Sequence[str | None], para: str) -> list[str]:
    """Each item's direction in a line whose base direction is ``para`` ("ltr"/"rtl"),
    as the Unicode bidi algorithm resolves it (UAX #9, simplified to whole tokens):
    strong items keep theirs; numbers after a left-to-right item are left to right,
    otherwise they sit in right-to-left flow ("num": drawn as a left-to-right island);
    neutrals between two items of one direction take it (N1), else the line's (N2).

    >>> resolve_runs(["R", None, "L", "EN", None, "R"], "rtl")
    ['R', 'R', 'L', 'L', 'R', 'R']
    """
    n = len(classes)
    strong: list[str | None] = []
    prev = "L" if para == "ltr" else "R"
    for c in classes:  # W7-like: numbers take the direction of the strong item before them
        if c == "EN":
            strong.append("L" if prev == "L" else "num")
        else:
            strong.append(c)
            if c is not None:
                prev = c
    out: list[str] = [""] * n
    base = "L" if para == "ltr" else "R"
    i = 0
    while i < n:
        if strong[i] is not None:
            out[i] = strong[i]  # type: ignore[assignment]
            i += 1
            continue
        j = i
        while j < n and strong[j] is None:
            j += 1
        before = strong[i - 1] if i > 0 else base
        after = strong[j] if j < n else base
        side = lambda d: "R" if d in ("R", "num") else "L"  # noqa: E731 - numbers count as R for neutrals (N1)
        fill = side(before) if side(before) == side(after) else base
        for k in range(i, j):
            out[k] = fill
        i = j
    return out
