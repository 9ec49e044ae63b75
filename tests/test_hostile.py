"""Hostile input: every subcommand over every bad kind ends in exit 2 and one stderr line, within limits.

The corpus is generated (``tests/hostile_corpus.py``: 50 MB text, a sparse
200 MB file, ``/dev/zero``, a FIFO, a directory, binary and non-UTF-8 text,
tokenizer files nested 100,000 deep, with huge / sparse / repeated ids, an
empty WordPiece vocabulary, ``.tiktoken`` files with repeated ranks, ranks
near 2^32, one line or no bytes, out-of-range numbers, a backtracking
``--pattern``, unwritable outputs such as ``/dev/full.html``). Each case
runs in its own child process with RLIMIT_AS (2 GB) and RLIMIT_CPU (20 s)
set, so a case that grows without bound or spins is killed by the kernel
and fails here; nothing is timed in this process.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def outcomes() -> list[dict]:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.run([sys.executable, str(REPO / "tests" / "hostile_corpus.py"), "--json"], capture_output=True,
                          text=True, cwd=REPO, env=env, stdin=subprocess.DEVNULL, timeout=1200)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_corpus_covers_every_subcommand_and_kind(outcomes: list[dict]) -> None:
    from core.cli import build_parser

    commands = {o["argv"][0] for o in outcomes if not o["answer"]}
    sub = next(a for a in build_parser()._actions if a.dest == "command")  # noqa: SLF001
    assert commands >= set(sub.choices) - {"list"}  # `list` takes no input
    names = " ".join(o["name"] for o in outcomes if not o["answer"])
    for kind in ("/dev/zero", "fifo", "dir", "sparse.bin", "big", "deep.json", "hugeid.json", "emptywp.json",
                 "dup.tiktoken", "bigrank.tiktoken", "one.tiktoken", "empty.tiktoken", "file:/dev/zero",
                 "vocab-size 0", "vocab-size -5", "vocab-size 1000000000", "top-k -1", "backtracking",
                 "/dev/full.html"):
        assert kind in names, kind
    assert len(outcomes) > 200


def test_every_case_is_one_line_and_exit_2(outcomes: list[dict]) -> None:
    bad = [f"{o['name']}: {o['verdict']}: {o['stderr'][-300:]}" for o in outcomes if o["verdict"] and not o["answer"]]
    assert not bad, "\n".join(bad)


def test_big_input_is_answered_within_the_limits(outcomes: list[dict]) -> None:
    """5 MB through the streaming commands under the same RLIMIT_AS / RLIMIT_CPU: an answer, not a refusal."""
    answers = [o for o in outcomes if o["answer"]]
    assert len(answers) == 3
    bad = [f"{o['name']}: {o['verdict']}" for o in answers if o["verdict"]]
    assert not bad, "\n".join(bad)


def test_verdict_catches_a_traceback() -> None:
    """The judge itself can fail: a traceback, two lines, exit 1 or a kill are all caught."""
    sys.path.insert(0, str(REPO / "tests"))
    from hostile_corpus import Outcome, verdict

    assert verdict(Outcome("x", 2, None, "", "error: fine\n")) == ""
    assert verdict(Outcome("x", 1, None, "", "Traceback (most recent call last):\n  ...\nKeyError: 1\n"))
    assert verdict(Outcome("x", 2, None, "", "error: a\nerror: b\n"))
    assert verdict(Outcome("x", None, 24, "", ""))  # SIGXCPU: over the CPU limit
