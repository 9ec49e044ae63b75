"""How long ``round-trip --file`` takes on a 50 MB file, against the library encoding it once (goal: at most 3x).

The file is the mixed Bangla/English benchmark corpus (:func:`bench.corpus.make_corpus`, real sentences and
generated words, a line break every dozen words or so) repeated to ``--mb`` megabytes. Two timings, one run:

- ours: ``python -m core round-trip --tokenizers T --file F --workers 1 --json`` in a fresh process (start-up,
  loading and hash-checking the file, reading the file in chunks, encoding and decoding every line, the
  tally), wall clock, plus the child's peak RSS (bounded memory: it must not grow with the file);
- reference: the library alone encoding the whole file once (tiktoken's ``encode_ordinary`` for a tiktoken
  entry, ``tokenizers``' ``encode`` per line otherwise), after reading it.

Run: ``python bench/roundtrip_file.py`` (``--tokenizer``, ``--mb``).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.corpus import write_corpus_file
from core.pretrained import zoo

GOAL_RATIO = 3.0


def reference(tid: str, path: Path) -> float:
    tok = zoo.load(tid)
    t0 = time.perf_counter()
    text = path.read_text(encoding="utf-8")
    engine = getattr(tok, "_enc", None)  # tiktoken's Encoding inside the adapter
    if engine is not None:
        engine.encode_ordinary(text)
    else:
        for line in text.split("\n"):
            tok.encode_ids(line)
    return time.perf_counter() - t0


def ours(tid: str, path: Path, tmp: Path) -> tuple[float, dict, float]:
    """The CLI in a fresh process: wall time, its JSON, and its own peak RSS (``wait4`` on that child alone; run
    before the reference, so the bench process is still small when it starts the child)."""
    out = tmp / "out.json"
    t0 = time.perf_counter()
    with out.open("wb") as fh:
        proc = subprocess.Popen([sys.executable, "-m", "core", "round-trip", "--tokenizers", tid, "--file", str(path),
                                 "--workers", "1", "--json"], cwd=ROOT, stdout=fh, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"round-trip failed (exit {proc.returncode})")
    return wall, json.loads(out.read_text(encoding="utf-8")), usage.ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tokenizer", default="cl100k_base")
    ap.add_argument("--mb", type=int, default=50)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.txt"
        size = write_corpus_file(path, args.mb)
        wall, res, peak = ours(args.tokenizer, path, Path(tmp))
        ref = reference(args.tokenizer, path)
    r = res["tokenizers"][args.tokenizer]
    ratio = wall / ref
    print(f"file: {size / 1e6:.1f} MB, {r['cases']:,} non-empty lines, {r['passed']:,} round-trip")
    print(f"library encoding it once: {ref:.2f} s")
    print(f"round-trip --file (fresh process, --workers 1): {wall:.2f} s, peak RSS {peak:.0f} MB")
    print(f"ratio: {ratio:.2f}x (goal: at most {GOAL_RATIO:.0f}x) -> {'ok' if ratio <= GOAL_RATIO else 'OVER'}")


if __name__ == "__main__":
    main()
