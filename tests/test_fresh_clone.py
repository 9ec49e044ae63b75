"""A fresh clone carries everything its tests need.

The test clones the committed HEAD of this repository into an empty temporary
folder (nothing beside it: no ``../shared``, no ``test-output``) and runs, in
the clone:

1. ``pytest --collect-only`` over the whole suite: every test module imports
   and every data file read at collection time is in the repository;
2. the tests that read the repository's data files (the Unicode conformance
   file in ``tests/data/``, the bundled samples, the import rules):
   ``tests/test_units.py tests/test_layout.py tests/test_render.py``.

It does not run the README's whole command inside the clone: that command
includes this test, so it would recurse; CI (``.ci/run``) runs the whole
command on a clean clone itself. ``TL_IN_FRESH_CLONE`` stops a clone from
cloning again if someone runs the whole suite there.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

SUBSET = ["tests/test_units.py", "tests/test_layout.py", "tests/test_render.py"]


def _git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def clone(tmp_path_factory) -> Path:
    if os.environ.get("TL_IN_FRESH_CLONE") == "1":
        pytest.skip("already inside a fresh clone")
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    root = tmp_path_factory.mktemp("fresh")
    assert list(root.iterdir()) == []  # an empty folder: nothing beside the clone
    dest = root / "tokenizer-lab"
    # --no-hardlinks: a real copy of the committed files only (no work-tree leftovers)
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(REPO), str(dest)], check=True,
                   capture_output=True, text=True)
    head = _git("rev-parse", "HEAD", cwd=REPO).strip()
    _git("checkout", "-q", head, cwd=dest)  # the commit under test, even on a detached or unpushed branch
    return dest


def _pytest(clone: Path, *args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["TL_IN_FRESH_CLONE"] = "1"
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
                          cwd=clone, env=env, capture_output=True, text=True, timeout=timeout)


def test_the_clone_holds_the_unicode_test_file(clone):
    assert (clone / "tests" / "data" / "GraphemeBreakTest-17.0.0.txt").is_file()
    assert not (clone.parent / "shared").exists()


def test_whole_suite_collects_in_a_fresh_clone(clone):
    done = _pytest(clone, "--collect-only")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    last = done.stdout.splitlines()[-1]
    count = re.match(r"(\d+) tests? collected", last)
    assert count and int(count.group(1)) > 1000, last


def test_data_tests_pass_in_a_fresh_clone(clone):
    done = _pytest(clone, *SUBSET)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout.splitlines()[-1]
