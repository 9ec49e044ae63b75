"""Training gives the same file in a new process, or the app says which recipes cannot.

Each recipe is trained by ``python -m core train`` in fresh child processes with
different ``PYTHONHASHSEED`` (the Rust hash maps of ``tokenizers`` are seeded
per process anyway); the saved ``tokenizer.json`` files are compared byte for
byte. A recipe whose files differ must be declared ``deterministic=False``,
which the Train page and the README explain.
"""
from __future__ import annotations

import hashlib
import os
import resource
import subprocess
import sys

import pytest

from core.analysis import recipes as R
from tests.conftest import REPO

CORPUS = REPO / "assets" / "algos" / "corpus_bn.txt"


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (120, 120))


def train_in_new_process(recipe: str, hash_seed: int, out) -> str:
    env = {**os.environ, "PYTHONHASHSEED": str(hash_seed)}
    subprocess.run([sys.executable, "-m", "core", "train", "--recipe", recipe, "--vocab-size", "300",
                    "--corpus", str(CORPUS), "--out", str(out)],
                   cwd=REPO, env=env, check=True, capture_output=True, timeout=300, preexec_fn=_limit)
    return hashlib.sha256(out.read_bytes()).hexdigest()


@pytest.mark.parametrize("recipe", [r for r in R.RECIPES if getattr(R.RECIPES[r], "deterministic", True)])
def test_deterministic_recipes_give_the_same_file_in_new_processes(recipe, tmp_path):
    digests = {train_in_new_process(recipe, seed, tmp_path / f"{seed}.json") for seed in (1, 2, 3)}
    assert len(digests) == 1, f"{recipe}: {len(digests)} different files from 3 processes"


def test_recipes_that_vary_are_declared_and_explained():
    varying = [r for r in R.RECIPES.values() if not r.deterministic]
    assert {r.name for r in varying} <= {"wordpiece", "unigram"}
    page = (REPO / "pages" / "train.py").read_text(encoding="utf-8")
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "NOT_DETERMINISTIC_WHY" in page and "deterministic" in page
    for r in varying:
        assert r.model in readme.split("**Reproducible training.**")[1].split("\n\n")[0]
