"""Bounded alignment of two sequences: ``difflib``-style opcodes in time near linear in the input.

:func:`opcodes` strips the common prefix and suffix, then runs Myers' O(ND)
shortest-edit-script algorithm on the middle with a cap on the work
(:data:`MAX_ALIGN_WORK`, about (length of the middle) x (edits)). Within the
cap the script is a shortest one (fewest inserted plus deleted items); past
it the middle is reported as one ``replace`` block and ``exact`` is False, so
callers can say "too long to align" instead of hanging: ``difflib`` is cubic
on degenerate input (a line of 2,000 ``[`` against the same line with spaces,
or 1,600 combining marks in one cluster).

Used by the normalizer's alignment and the round-trip character diff. This
module imports nothing else of ``core``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Sequence

Op = Literal["equal", "delete", "insert", "replace"]
Opcode = tuple[Op, int, int, int, int]

#: Work cap for the middle part: (len(a) + len(b)) x edits, in inner-loop steps.
MAX_ALIGN_WORK = 4_000_000


@dataclass(frozen=True)
class Alignment:
    """Opcodes like ``difflib.SequenceMatcher.get_opcodes()``; ``exact`` is False when the cap was hit."""

    opcodes: tuple[Opcode, ...]
    exact: bool


def opcodes(a: Sequence[object], b: Sequence[object], *, max_work: int = MAX_ALIGN_WORK) -> Alignment:
    """Align ``a`` with ``b`` (strings or lists of hashable items).

    >>> opcodes("kitten", "sitting").opcodes
    (('replace', 0, 1, 0, 1), ('equal', 1, 4, 1, 4), ('replace', 4, 5, 4, 5), ('equal', 5, 6, 5, 6), ('insert', 6, 6, 6, 7))
    >>> opcodes("[" * 3000, "[ " * 3000, max_work=10_000).exact
    False
    """
    n, m = len(a), len(b)
    p = 0
    while p < n and p < m and a[p] == b[p]:
        p += 1
    s = 0
    while s < n - p and s < m - p and a[n - 1 - s] == b[m - 1 - s]:
        s += 1
    out: list[Opcode] = []
    if p:
        out.append(("equal", 0, p, 0, p))
    exact = True
    if p < n - s or p < m - s:
        middle = _myers(a[p : n - s], b[p : m - s], max_work)
        if middle is None:
            exact = False
            op: Op = "replace" if p < n - s and p < m - s else ("delete" if p < n - s else "insert")
            out.append((op, p, n - s, p, m - s))
        else:
            out.extend((op, i1 + p, i2 + p, j1 + p, j2 + p) for op, i1, i2, j1, j2 in middle)
    if s:
        out.append(("equal", n - s, n, m - s, m))
    return Alignment(tuple(out), exact)


def _myers(a: Sequence[object], b: Sequence[object], max_work: int) -> list[Opcode] | None:
    """A shortest edit script as opcodes, or None when it would cost more than ``max_work``."""
    n, m = len(a), len(b)
    if n == 0 or m == 0:
        return [("insert" if n == 0 else "delete", 0, n, 0, m)]
    max_d = min(n + m, max(1, max_work // (n + m)))
    offset = max_d + 1
    v = [0] * (2 * max_d + 3)
    trace: list[list[int]] = []
    for d in range(max_d + 1):
        trace.append(v[offset - d - 1 : offset + d + 2])  # subtle: only the diagonals d can reach, kept for the walk back
        for k in range(-d, d + 1, 2):
            if k == -d or (k != d and v[offset + k - 1] < v[offset + k + 1]):
                x = v[offset + k + 1]  # down: insert b[y-1]
            else:
                x = v[offset + k - 1] + 1  # right: delete a[x-1]
            y = x - k
            while x < n and y < m and a[x] == b[y]:
                x += 1
                y += 1
            v[offset + k] = x
            if x >= n and y >= m:
                return _walk_back(trace, d, n, m)
    return None


def _walk_back(trace: list[list[int]], d_end: int, n: int, m: int) -> list[Opcode]:
    """Turn the saved frontiers into opcodes (equal / delete / insert runs merged into replace blocks)."""
    moves: list[tuple[str, int, int]] = []  # (kind, x, y) from the end backwards
    x, y = n, m
    for d in range(d_end, 0, -1):
        frontier = trace[d]  # v before step d, diagonals -d-1 .. d+1

        def at(k: int, frontier: list[int] = frontier, d: int = d) -> int:
            return frontier[k + d + 1]

        k = x - y
        down = k == -d or (k != d and at(k - 1) < at(k + 1))
        prev_k = k + 1 if down else k - 1
        prev_x = at(prev_k)
        prev_y = prev_x - prev_k
        start_x = prev_x if down else prev_x + 1  # where this step's snake begins
        while x > start_x:  # the snake: equal items
            x -= 1
            y -= 1
            moves.append(("equal", x, y))
        if down:
            y -= 1
            moves.append(("insert", x, y))
        else:
            x -= 1
            moves.append(("delete", x, y))
        assert (x, y) == (prev_x, prev_y)
    while x > 0:
        x -= 1
        y -= 1
        moves.append(("equal", x, y))
    moves.reverse()
    out: list[Opcode] = []
    i = j = 0
    for kind, _mx, _my in moves:
        di, dj = (1, 1) if kind == "equal" else (1, 0) if kind == "delete" else (0, 1)
        tag: Op = "equal" if kind == "equal" else "replace"
        if out and (out[-1][0] == "equal") == (tag == "equal"):
            op, i1, _i2, j1, _j2 = out[-1]
            out[-1] = (op, i1, i + di, j1, j + dj)
        else:
            out.append((tag, i, i + di, j, j + dj))
        i += di
        j += dj
    return [(("delete" if j1 == j2 else "insert" if i1 == i2 else "replace") if op != "equal" else op, i1, i2, j1, j2)
            for op, i1, i2, j1, j2 in out]
