"""Server-side speed of the two first pages, measured with Streamlit's AppTest.

1. Paste and see: 5,000 characters of Bangla with 4 tokenizers (code points,
   UTF-8 bytes, words, BPE on the sample). Goal < 0.3 s per run.
   - cold: the result cache is emptied before each run (encode + stats + HTML);
   - warm: the same text again (served from ``st.cache_data``).
   Also the bare engine work (encode + stats + render, no Streamlit) for scale.
2. BPE stepper: one "Next" click on a trained 2,000-merge trace (byte-level,
   on the bundled training corpus; training is cached and done before
   timing). Goal < 0.2 s per step.

AppTest runs the script in-process, like the server does, so these are
script-run times (no browser, no network). Usage::

    python bench/app_speed.py [--repeat 7] [--baseline REV]

``--baseline REV`` also times the cold paste-and-see run of an earlier
commit (checked out in a temporary ``git worktree``) in the same run,
alternating the two trees in fresh processes, and prints new/old as a
ratio. Only Streamlit's own API is used there (``st.cache_data.clear()``
empties the result cache), so it works whatever the layout of ``core/``.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from streamlit.testing.v1 import AppTest

from tests.helpers import scan_components_once

# AppTest would scan every installed package for Streamlit components on each run (0.75 s, more than the runs
# timed here); a server scans once at start-up, so the benches do too
scan_components_once()

APP = str(REPO / "app.py")
TOKENIZERS = "codepoints,bytes,words,bpe-sample-cp"


def bangla_text(n_chars: int) -> str:
    src = (REPO / "assets" / "train" / "bn_shop_corpus.txt").read_text(encoding="utf-8")
    src = " ".join(src.split())
    while len(src) < n_chars:
        src += " " + src
    return src[:n_chars]


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def fmt(ts: list[float]) -> str:
    return f"median {statistics.median(ts) * 1000:7.1f} ms   min {min(ts) * 1000:7.1f} ms   max {max(ts) * 1000:7.1f} ms"


def check(at: AppTest) -> None:
    if at.exception:
        raise SystemExit(f"page raised: {at.exception[0].value}")


#: Cold paste-and-see in a fresh process, for any tree (old or new layout): prints JSON seconds per run.
_COLD_HOME = """
import json, sys, time
sys.path.insert(0, {root!r})
import streamlit as st
import functools
from streamlit.components.v2 import manifest_scanner
from streamlit.testing.v1 import AppTest
# as a server does (once at start-up), not on every AppTest run: see tests/helpers.py scan_components_once
manifest_scanner.scan_component_manifests = functools.lru_cache(maxsize=None)(manifest_scanner.scan_component_manifests)
at = AppTest.from_file({app!r}, default_timeout=300)
at.query_params["tok"] = {toks!r}
at.query_params["merges"] = "200"
at.run()
at.text_area(key="home_text").input({text!r}).run()
assert not at.exception, at.exception
out = []
for _ in range({repeat}):
    st.cache_data.clear()
    t = time.perf_counter()
    at.run()
    out.append(time.perf_counter() - t)
    assert not at.exception, at.exception
print(json.dumps(out))
"""


def cold_home_in(root: Path, repeat: int) -> list[float]:
    """Cold paste-and-see times of the tree at ``root`` (in a fresh Python process)."""
    code = _COLD_HOME.format(root=str(root), app=str(root / "app.py"), toks=TOKENIZERS, text=bangla_text(5000),
                             repeat=repeat)
    res = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=False)
    if res.returncode:
        raise SystemExit(f"cold run in {root} failed:\n{res.stderr[-2000:]}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def bench_baseline(rev: str, repeat: int, rounds: int = 3) -> tuple[list[float], list[float]]:
    """(old, new) cold times: ``rev`` in a temporary worktree against this tree, alternating processes."""
    with tempfile.TemporaryDirectory(prefix="tl-baseline-") as tmp:
        wt = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--detach", "-q", str(wt), rev], check=True)
        try:
            old: list[float] = []
            new: list[float] = []
            for _ in range(rounds):
                old += cold_home_in(wt, repeat)
                new += cold_home_in(REPO, repeat)
        finally:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(wt)], check=False)
    return old, new


def bench_home(repeat: int) -> dict[str, list[float]]:
    from pages._selector import _encode_cached  # the cache layer behind encode_cached

    text = bangla_text(5000)
    at = AppTest.from_file(APP, default_timeout=300)
    at.query_params["tok"] = TOKENIZERS
    at.query_params["merges"] = "200"
    at.run()
    check(at)
    at.text_area(key="home_text").input(text).run()  # trains the sample BPE once (cached)
    check(at)
    assert len(at.multiselect(key="home_tok").value) == 4

    def cold() -> None:
        _encode_cached.clear()
        at.run()
        check(at)

    def warm() -> None:
        at.run()
        check(at)

    return {"cold": timed(cold, repeat), "warm": timed(warm, repeat)}


def bench_engine(repeat: int) -> list[float]:
    from core.models.baselines import ByteTokenizer, CodePointTokenizer, WordTokenizer
    from core.models.bpe import train_bpe
    from core.render import render_table
    from core.tokens import table_stats, token_table

    corpus = (REPO / "assets" / "samples" / "shop_bn.txt").read_text(encoding="utf-8") + "\n" + (
        REPO / "assets" / "samples" / "shop_en.txt"
    ).read_text(encoding="utf-8")
    toks = [CodePointTokenizer(), ByteTokenizer(), WordTokenizer(), train_bpe(corpus=corpus, merges=2000).tokenizer(200)]
    text = bangla_text(5000)

    def run() -> None:
        for tok in toks:
            table = token_table(tok, text)
            table_stats(text, table)
            render_table(text, table)

    return timed(run, repeat)


def bench_stepper(repeat: int) -> tuple[int, list[float], float]:
    corpus = (REPO / "assets" / "train" / "bn_shop_corpus.txt").read_text(encoding="utf-8")
    at = AppTest.from_file(APP, default_timeout=600)
    at.switch_page("pages/stepper.py")
    for k, v in {"corpus": "paste", "unit": "byte", "merges": "2000", "step": "1000"}.items():
        at.query_params[k] = v
    at.run()
    t = time.perf_counter()
    at.text_area(key="st_text").input(corpus).run()  # trains once (cached)
    train_s = time.perf_counter() - t
    check(at)
    n = at.slider(key="step").max

    def step() -> None:
        at.button(key="step_next").click().run()
        check(at)

    times = timed(step, repeat)
    return n, times, train_s


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--baseline", metavar="REV", help="also time cold paste-and-see at this git revision; print the ratio")
    args = ap.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}")
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next(line.split(":", 1)[1].strip() for line in fh if line.startswith("model name"))
        print(f"cpu: {cpu}")
    except (OSError, StopIteration):
        pass

    home = bench_home(args.repeat)
    print("\nPaste and see, 5,000 Bangla chars, 4 tokenizers (goal < 300 ms)")
    print(f"  cold (no result cache): {fmt(home['cold'])}")
    print(f"  warm (cached result):   {fmt(home['warm'])}")
    eng = bench_engine(args.repeat)
    print(f"  engine only (encode+stats+render, no Streamlit): {fmt(eng)}")

    if args.baseline:
        old, new = bench_baseline(args.baseline, args.repeat)
        print(f"\nCold paste-and-see, {args.baseline} against this tree (fresh processes, alternating)")
        print(f"  {args.baseline}: {fmt(old)}")
        print(f"  this tree: {fmt(new)}")
        print(f"  speed-up (median old / median new): {statistics.median(old) / statistics.median(new):.2f}x")

    n, steps, train_s = bench_stepper(args.repeat)
    print(f"\nBPE stepper, one Next click on a {int(n):,}-merge byte-level trace (goal < 200 ms)")
    corpus_bytes = len((REPO / "assets/train/bn_shop_corpus.txt").read_bytes())
    print(f"  (training {int(n):,} merges on {corpus_bytes:,} bytes, once, cached: {train_s:.1f} s)")
    print(f"  step: {fmt(steps)}")


if __name__ == "__main__":
    main()
