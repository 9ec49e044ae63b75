"""Benchmark: training time of every recipe at 8,000 tokens on ~5 MB, and UI responsiveness while training.

Usage::

    python bench/train.py [--mb 5] [--vocab 8000] [--corpus bundled|mixed|both] [--no-ui] [--no-spm]

Part 1 trains each recipe of :mod:`core.analysis.recipes` on a ~5 MB corpus: the
bundled Bangla corpus repeated (timing only: repeated text adds no new
words, so vocabularies saturate) and/or the generated mixed Bangla/English
corpus of ``bench/corpus.py`` (tens of thousands of distinct words, so
8,000 is reachable). It reports the library's training time, our whole
``train()`` (training + the stable save + the vocabulary note), and, as
the reference in the same run, SentencePiece's own trainer for the Unigram
and BPE models (ratio HF / SentencePiece).

Part 2 starts ``streamlit run app.py``, opens the Train & evaluate page in
one browser tab on a cold server (so it trains), and meanwhile loads the
"Paste and see" page in a second tab; it reports how long that page takes
to render while the other tab trains vs. when the server is idle, and
whether the training tab showed its progress bar.
"""
from __future__ import annotations

import argparse
import io
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.analysis import recipes as R

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def corpus_lines(kind: str, mb: float) -> list[str]:
    target = int(mb * 1_000_000)
    if kind == "bundled":
        text = (ROOT / "assets" / "train" / "bn_shop_corpus.txt").read_text(encoding="utf-8")
        reps = target // len(text.encode("utf-8")) + 1
        text = "\n".join([text] * reps)
    else:
        from bench.corpus import make_corpus

        text = make_corpus(target, seed=11)
    return [ln for ln in text.splitlines() if ln.strip()]


def spm_seconds(lines: list[str], vocab: int, model_type: str) -> tuple[float, int]:
    """SentencePiece's trainer on the same lines (2 threads, all characters kept)."""
    import sentencepiece as spm

    buf = io.BytesIO()
    t0 = time.perf_counter()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(lines), model_writer=buf, vocab_size=vocab, model_type=model_type,
        hard_vocab_limit=False, character_coverage=1.0, num_threads=2, max_sentence_length=1 << 16,
        input_sentence_size=0, minloglevel=2,
    )  # fmt: skip
    seconds = time.perf_counter() - t0
    sp = spm.SentencePieceProcessor(model_proto=buf.getvalue())
    return seconds, sp.get_piece_size()


def bench_training(kinds: list[str], mb: float, vocab: int, with_spm: bool) -> None:
    for kind in kinds:
        lines = corpus_lines(kind, mb)
        size = sum(len(ln.encode("utf-8")) + 1 for ln in lines)
        print(f"\n== {kind} corpus: {size / 1e6:.2f} MB, {len(lines):,} lines; vocabulary asked {vocab:,} ==")
        print(f"{'recipe':<12} {'obtained':>9} {'library s':>10} {'train() s':>10}   reference")
        for name in R.RECIPES:
            t0 = time.perf_counter()
            tok = R.train(name, lines, vocab)
            total = time.perf_counter() - t0
            ref = ""
            if with_spm and name in ("unigram", "bpe"):
                model = "unigram" if name == "unigram" else "bpe"
                secs, n = spm_seconds(lines, vocab, model)
                ref = f"SentencePiece {model}: {secs:.2f} s ({n:,} pieces); HF/SPM = {tok.train_seconds / secs:.2f}"
            print(f"{name:<12} {tok.vocab_obtained:>9,} {tok.train_seconds:>10.2f} {total:>10.2f}   {ref}")


# ---------------------------------------------------------------------------
# UI responsiveness
# ---------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(log: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    with open(log, "w") as log_file:  # the child keeps its own copy of the descriptor
        proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port), "--server.address",
             "127.0.0.1", "--server.headless", "true", "--browser.gatherUsageStats", "false"],
            cwd=ROOT, stdout=log_file, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(base + "/_stcore/health", timeout=2):  # noqa: S310 - our own local server
                return proc, base
        except OSError:
            time.sleep(0.3)
    proc.kill()
    raise SystemExit("streamlit did not start")


def wait_idle(page, timeout: float = 300.0, settle: float = 0.5) -> None:
    status = page.locator('[data-testid="stStatusWidget"]')
    end = time.time() + timeout
    quiet = None
    while time.time() < end:
        if status.count() and status.first.is_visible():
            quiet = None
        elif quiet is None:
            quiet = time.time()
        elif time.time() - quiet >= settle:
            return
        page.wait_for_timeout(50)
    raise RuntimeError("page kept running")


def load_home(page, base: str) -> float:
    """Seconds until "Paste and see" shows its token chips and stops running."""
    t0 = time.perf_counter()
    page.goto(f"{base}/")
    page.wait_for_selector(".tl-tokens", timeout=120_000)
    wait_idle(page, settle=0.3)
    return time.perf_counter() - t0 - 0.3


def bench_ui(rounds: int) -> None:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        print("\n(UI part skipped: /usr/bin/chromium not installed)")
        return
    out = ROOT / "test-output"
    out.mkdir(exist_ok=True)
    proc, base = start_server(out / "bench-train-server.log")
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            ctx_a = browser.new_context(viewport={"width": 1400, "height": 1000})
            ctx_b = browser.new_context(viewport={"width": 1400, "height": 1000})
            a, b = ctx_a.new_page(), ctx_b.new_page()
            load_home(b, base)  # warm the home page's own caches
            idle = [load_home(b, base) for _ in range(rounds)]
            # Tab A: the train page on a cold cache (all five recipes at 500 / 2,000 / 8,000 + evaluation).
            seen_progress: list[float] = []
            t0 = time.perf_counter()
            a.goto(f"{base}/train")
            a.wait_for_selector('[data-testid="stProgress"]', timeout=120_000)
            seen_progress.append(time.perf_counter() - t0)
            busy = []
            while a.locator('[data-testid="stProgress"]').count() and len(busy) < rounds * 3:
                busy.append(load_home(b, base))
            a.wait_for_selector('[data-testid="stDataFrame"]', timeout=600_000)
            wait_idle(a)
            train_total = time.perf_counter() - t0
            a.screenshot(path=str(out / "bench_train_done.png"))
            after = [load_home(b, base) for _ in range(rounds)]  # idle again, with a warm browser cache
            browser.close()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
    print("\n== UI while training (cold server, train page with default recipes and sizes) ==")
    print(f"progress bar visible after {seen_progress[0]:.2f} s; train page complete after {train_total:.1f} s")
    calm = idle + after
    print(f"'Paste and see' load, server idle:        median {statistics.median(calm):.2f} s over {len(calm)} "
          f"(before training {statistics.median(idle):.2f} s, after {statistics.median(after):.2f} s)")
    if busy:
        print(f"'Paste and see' load, other tab training: median {statistics.median(busy):.2f} s over {len(busy)} "
              f"(max {max(busy):.2f} s); ratio {statistics.median(busy) / statistics.median(calm):.2f}x")
    else:
        print("training finished before the other tab could load a page")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=5.0, help="corpus size in MB (default 5)")
    ap.add_argument("--vocab", type=int, default=8000)
    ap.add_argument("--corpus", choices=["bundled", "mixed", "both"], default="both")
    ap.add_argument("--no-spm", action="store_true", help="skip the SentencePiece reference")
    ap.add_argument("--no-ui", action="store_true", help="skip the browser part")
    ap.add_argument("--rounds", type=int, default=3, help="page loads per condition in the UI part")
    args = ap.parse_args()
    kinds = ["bundled", "mixed"] if args.corpus == "both" else [args.corpus]
    bench_training(kinds, args.mb, args.vocab, not args.no_spm)
    if not args.no_ui:
        bench_ui(args.rounds)


if __name__ == "__main__":
    main()
