"""core.text.align: a shortest edit script within a work cap, and bounded time on degenerate input."""
from __future__ import annotations

import resource
import subprocess
import sys
import textwrap

from hypothesis import given, seed, settings
from hypothesis import strategies as st

from core.text.align import opcodes

from .helpers import REPO, examples


def lcs_length(a: str, b: str) -> int:
    row = [0] * (len(b) + 1)
    for ca in a:
        prev = 0
        for j, cb in enumerate(b, 1):
            cur = row[j]
            row[j] = prev + 1 if ca == cb else max(row[j], row[j - 1])
            prev = cur
    return row[-1]


SMALL = st.text(alphabet="ab c\u09cd\u0301", max_size=14)


@seed(1729)
@settings(max_examples=examples(6))
@given(a=SMALL, b=SMALL)
def test_opcodes_rebuild_b_and_keep_a_longest_common_subsequence(a, b):
    al = opcodes(a, b)
    assert al.exact
    i = j = equal = 0
    rebuilt = []
    for op, i1, i2, j1, j2 in al.opcodes:
        assert (i1, j1) == (i, j)
        assert op in ("equal", "delete", "insert", "replace")
        if op == "equal":
            assert a[i1:i2] == b[j1:j2]
            equal += i2 - i1
        rebuilt.append(b[j1:j2])
        i, j = i2, j2
    assert (i, j) == (len(a), len(b))
    assert "".join(rebuilt) == b
    assert equal == lcs_length(a, b)  # a shortest edit script: nothing equal is left unmatched


def test_past_the_cap_the_middle_is_one_block_between_the_common_ends():
    al = opcodes("x" + "[" * 3000 + "y", "x" + "[ " * 3000 + "y", max_work=10_000)
    assert not al.exact
    assert al.opcodes == (("equal", 0, 2, 0, 2), ("replace", 2, 3001, 2, 6001), ("equal", 3001, 3002, 6001, 6002))


def _limited(cpu_s: int, mem_mb: int):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s))
        resource.setrlimit(resource.RLIMIT_AS, (mem_mb << 20, mem_mb << 20))
    return apply


def test_degenerate_inputs_end_within_a_cpu_and_memory_limit():
    """The cases that took minutes (1,600+ marks with no base letter; a line of 2,000 '[') end in seconds."""
    code = textwrap.dedent("""
        from core.analysis.roundtrip import char_diff
        from core.pipeline.normalize import FORMS, normalize
        for mark in ("\\u0301", "\\u09bc", "\\u0651"):
            for form in FORMS:
                res = normalize(mark * 3200, form)
                sum(len(c.rows) for c in res.clusters)
                normalize("a" + mark * 3200 + " b", form)
        parts = char_diff("[" * 2000, "[ " * 2000)
        assert "".join(p.decoded for p in parts) == "[ " * 2000
        assert "".join(p.original for p in parts) == "[" * 2000
        print("ok")
    """)
    res = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120,
                         preexec_fn=_limited(30, 2048))
    assert res.returncode == 0, res.stderr[-2000:]
    assert res.stdout.strip() == "ok"
