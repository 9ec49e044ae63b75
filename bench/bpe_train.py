"""Benchmark: our traced BPE trainer vs Hugging Face BpeTrainer vs a naive recount.

Usage: ``python bench/bpe_train.py [--size BYTES] [--merges K] [--naive-merges N]``

All three train on the same whitespace-split words of one ~1 MB mixed
Bangla/English corpus (``bench/corpus.py``), in one run, and the ratios are
printed. Ours uses the ``hf`` tie-break so its merge list can be checked
against BpeTrainer's for identity. The naive trainer recounts every pair
over every word at each step (minbpe style); it is run for fewer merges
and compared with ours over the same number of merges. Peak memory of our
trainer (full trace) is measured in a child process.
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.corpus import make_corpus
from core.models.bpe import train_bpe, word_counts


def ours(text: str, merges: int):
    start = time.perf_counter()
    trace = train_bpe(word_counts(text, "whitespace"), merges=merges, tie_break="hf")
    return time.perf_counter() - start, trace


def huggingface(text: str, merges: int):
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    start = time.perf_counter()
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    alphabet = len(set(text) - set(" \n\t"))
    trainer = trainers.BpeTrainer(vocab_size=alphabet + merges, show_progress=False, special_tokens=[])
    tok.train_from_iterator(text.splitlines(), trainer=trainer)
    elapsed = time.perf_counter() - start
    got = json.loads(tok.to_str())["model"]["merges"]
    return elapsed, [tuple(m) if isinstance(m, list) else tuple(m.split(" ")) for m in got]


def naive(text: str, merges: int) -> tuple[float, list[tuple[str, str]]]:
    """Recount all pairs every step; first-seen ties (dict insertion order)."""
    start = time.perf_counter()
    table = word_counts(text, "whitespace")
    words = [(list(w), f) for w, f in table.items()]
    learned = []
    for _ in range(merges):
        counts: dict[tuple[str, str], int] = {}
        for syms, f in words:
            for pair in zip(syms, syms[1:]):
                counts[pair] = counts.get(pair, 0) + f
        if not counts:
            break
        best = max(counts, key=counts.__getitem__)
        learned.append(best)
        joined = best[0] + best[1]
        for k, (syms, f) in enumerate(words):
            i, out = 0, []
            while i < len(syms):
                if i + 1 < len(syms) and syms[i] == best[0] and syms[i + 1] == best[1]:
                    out.append(joined)
                    i += 2
                else:
                    out.append(syms[i])
                    i += 1
            words[k] = (out, f)
    return time.perf_counter() - start, learned


def _child_rss(size: int, merges: int) -> None:
    text = make_corpus(size)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    ours(text, merges)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"peak_kib": peak, "before_kib": before}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=1_000_000)
    ap.add_argument("--merges", type=int, default=2000)
    ap.add_argument("--naive-merges", type=int, default=200)
    ap.add_argument("--child-rss", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child_rss:
        _child_rss(args.size, args.merges)
        return
    text = make_corpus(args.size)
    table = word_counts(text, "whitespace")
    print(f"corpus: {len(text.encode()):,} bytes, {sum(table.values()):,} words, {len(table):,} distinct")

    t_ours, trace = ours(text, args.merges)
    t_hf, hf_merges = huggingface(text, args.merges)
    ours_merges = [(s.left.decode(), s.right.decode()) for s in trace.steps]
    same = ours_merges == hf_merges[: len(ours_merges)]
    print(f"ours (traced, incremental): {t_ours:7.2f} s for {len(trace.steps)} merges")
    print(f"HF BpeTrainer (Rust):       {t_hf:7.2f} s  -> ours / HF = {t_ours / t_hf:5.1f}x; identical merge list: {same}")

    t_ours_small, small = ours(text, args.naive_merges)
    t_naive, naive_merges = naive(text, args.naive_merges)
    fs_small = train_bpe(table, merges=args.naive_merges, tie_break="first-seen")
    same_naive = [(s.left.decode(), s.right.decode()) for s in fs_small.steps] == naive_merges
    print(
        f"naive recount, {args.naive_merges} merges: {t_naive:7.2f} s vs ours {t_ours_small:.2f} s"
        f" -> naive / ours = {t_naive / t_ours_small:5.1f}x (first-seen lists identical: {same_naive})"
    )
    per_merge_naive = t_naive / max(len(naive_merges), 1)
    print(
        f"naive extrapolated to {args.merges} merges (linear, an overestimate): ~{per_merge_naive * args.merges:.0f} s"
        f" -> ~{per_merge_naive * args.merges / t_ours:.0f}x ours"
    )
    child = subprocess.run(
        [sys.executable, __file__, "--child-rss", "--size", str(args.size), "--merges", str(args.merges)],
        capture_output=True, text=True, check=True,
    )
    rss = json.loads(child.stdout)
    print(f"peak RSS while training with the full trace: {rss['peak_kib'] / 1024:.0f} MiB (limit 1024 MiB)")


if __name__ == "__main__":
    main()
