"""Issue 37's slow cases, timed end to end as a user meets them (goal: each under 10 s on the 2-core machine).

1. ``python -m core differences`` on a 200,000-line file (short lines, two tokenizers, JSON out);
2. ``python -m core evaluate --heldout`` on a 50 MB file (by default an even spread of 4 MB; ``--all`` too
   with ``--with-all``, for the ratio of the two);
3. the Vocabulary page opened from a link that asks the census of every shelf tokenizer (``?cmp=`` with all
   ids), cold, in a fresh process (AppTest: the script's run, no browser).

Each case runs in its own process, so a cold start (imports, tokenizer loads) counts, as it does for a user.
Usage::

    python bench/hostile_slow.py [--with-all] [--out bench/out/hostile_slow.json]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GOAL_S = 10.0


def _timed(argv: list[str]) -> tuple[float, int, str]:
    t0 = time.perf_counter()
    proc = subprocess.run(argv, cwd=REPO, capture_output=True, text=True)
    return time.perf_counter() - t0, proc.returncode, proc.stderr.strip().splitlines()[-1:][0] if proc.stderr.strip() else ""


def _write_files(tmp: Path) -> tuple[Path, Path]:
    rng = random.Random(37)
    lines = tmp / "200k.txt"
    lines.write_text("\n".join(rng.choice(("ab", "the", "to", "x1", "hi")) for _ in range(200_000)) + "\n",
                     encoding="utf-8")
    samples = "".join(p.read_text(encoding="utf-8") for p in sorted((REPO / "assets" / "samples").glob("*.txt")))
    big = tmp / "50mb.txt"
    block = samples.encode("utf-8")
    with big.open("wb") as fh:
        written = 0
        while written < 50_000_000:
            fh.write(block)
            written += len(block)
    return lines, big


_VOCAB_SCRIPT = """
import sys, time
sys.path.insert(0, {repo!r})
from core.pretrained import catalog
from streamlit.testing.v1 import AppTest
ids = [e.id for e in catalog.shelf_entries()]
at = AppTest.from_file({page!r}, default_timeout=600)
at.query_params["cmp"] = ",".join(ids)
t0 = time.perf_counter()
at.run()
print(len(ids), time.perf_counter() - t0, len(at.exception), [w.value[:120] for w in at.warning])
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--with-all", action="store_true", help="also time evaluate --all on the 50 MB file")
    ap.add_argument("--out", default=str(REPO / "bench" / "out" / "hostile_slow.json"))
    args = ap.parse_args()
    py = sys.executable
    results: dict[str, object] = {"cores": os.cpu_count(), "goal_s": GOAL_S}
    with tempfile.TemporaryDirectory() as tmp:
        lines, big = _write_files(Path(tmp))
        cases = {
            "differences_200k_lines": [py, "-m", "core", "differences", "--tokenizers", "cl100k_base,o200k_base",
                                       "--file", str(lines), "--json"],
            "evaluate_heldout_50mb": [py, "-m", "core", "evaluate", "--tokenizers", "cl100k_base", "--heldout",
                                      str(big), "--json"],
        }
        if args.with_all:
            cases["evaluate_heldout_50mb_all"] = [*cases["evaluate_heldout_50mb"], "--all"]
        for name, argv in cases.items():
            seconds, rc, last = _timed(argv)
            results[name] = {"seconds": round(seconds, 2), "exit": rc, "stderr_last": last,
                             "of_goal": round(seconds / GOAL_S, 2)}
            print(f"{name:<28} {seconds:7.2f} s  exit {rc}  ({seconds / GOAL_S:.2f} of the goal)  {last[:100]}")
    script = _VOCAB_SCRIPT.format(repo=str(REPO), page=str(REPO / "pages" / "vocabulary.py"))
    t0 = time.perf_counter()
    proc = subprocess.run([py, "-c", script], cwd=REPO, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    out = proc.stdout.strip().splitlines()[-1:] or [proc.stderr[-300:]]
    results["vocabulary_cmp_all"] = {"process_seconds": round(wall, 2), "run": out[0], "of_goal": round(wall / GOAL_S, 2)}
    print(f"{'vocabulary_cmp_all':<28} {wall:7.2f} s  (script run: {out[0][:160]})")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
