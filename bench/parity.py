"""The long profile of the parity tests, and what parity costs, each against the reference library.

1. Differential run: ``--n`` texts (default 20,000, ten times the CI run)
   from the parity tests' generator (``tests/parity_text.decode_recipe`` on
   random bytes: every script, emoji ZWJ sequences, marks, controls, runs,
   one character per Unicode version up to 17) through every pretrained
   adapter and both Unigram encoders; prints mismatches (expected: 0) and
   CPU seconds, ours / library.
2. The split as tiktoken's engine cuts it: building the probed Unicode
   tables once, and ``engine_split`` against plain ``pretokenize``.
3. Llama's long-run chunking: ``encode_ids`` against llama-models' own
   ``encode`` on 30,000 spaces and on 1 MB of mixed text.

Times are process CPU seconds, best of ``--repeat``, after one warm-up
call (regexes compile once per process). Run:
``python bench/parity.py`` (``--quick``: 2,000 texts, one repeat).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.compare import mixed_text
from core.models import unigram as ug
from core.pipeline import pretokenize as pt
from core.pretrained import zoo
from tests.parity_refs import encoder
from tests.parity_text import decode_recipe

ADAPTERS = ["cl100k_base", "o200k_base", "llama3", "llama4", "tekken", "tekken_240718", "mistral-spm-v1",
            "mistral-spm-v3"]


def cpu(fn, repeat: int = 1) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(max(repeat, 1)):
        t0 = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t0)
    return best, out


def texts(n: int, seed: int = 12) -> list[str]:
    rng = random.Random(seed)
    return [decode_recipe(bytes(rng.randrange(256) for _ in range(rng.randrange(17)))) for _ in range(n)]


def differential(n: int, repeat: int) -> None:
    sample = texts(n)
    print(f"1. differential run, {n:,} texts per tokenizer (CPU s; ours / library)")
    for tid in ADAPTERS:
        tok, ref = zoo.load(tid), encoder(tid)
        t_lib, lib_ids = cpu(lambda: [ref(s) for s in sample], repeat)
        t_ids, our_ids = cpu(lambda: [tok.encode_ids(s) for s in sample], repeat)
        t_enc, encs = cpu(lambda: [tok.encode(s).ids for s in sample], repeat)
        bad = sum(a != b or a != c for a, b, c in zip(lib_ids, our_ids, encs))
        print(f"   {tid:<15} mismatches {bad:>3}   library {t_lib:6.2f}   ids {t_ids:6.2f} ({t_ids / t_lib:4.2f}x)"
              f"   encode {t_enc:6.2f} ({t_enc / t_lib:4.2f}x)")
    model = ug.train_unigram((ROOT / "assets/train/bn_shop_corpus.txt").read_text(encoding="utf-8").splitlines(),
                             vocab_size=800)
    lib = ug.library_tokenizer(model)
    t_lib, theirs = cpu(lambda: [lib.encode(s).ids for s in sample], repeat)
    t_ours, ours = cpu(lambda: [[i for _, i in ug.encode(s, model)] for s in sample], repeat)
    bad = sum(a != b for a, b in zip(theirs, ours))
    print(f"   {'unigram (tokenizers)':<15} mismatches {bad:>3}   library {t_lib:6.2f}   ours {t_ours:6.2f} "
          f"({t_ours / t_lib:4.1f}x, pure Python Viterbi)")


def engine(repeat: int) -> None:
    print("2. the split as tiktoken's engine cuts it")
    pt.tiktoken_tables.cache_clear()
    t_tab, _ = cpu(pt.tiktoken_tables)
    print(f"   probing tiktoken's Unicode tables (once per process): {t_tab:.2f} s")
    plain = mixed_text(200_000)
    odd = plain.replace(" ", " \U00016ea5", 2000)
    pt.engine_split(odd[:1000], "o200k")  # warm up: the regexes compile once per process
    for label, text in (("200 KB, no newer character", plain), ("200 KB with 2,000 Unicode 17 letters", odd)):
        t_pre, _ = cpu(lambda: pt.pretokenize(text, "o200k"), repeat)
        t_eng, split = cpu(lambda: pt.engine_split(text, "o200k"), repeat)
        print(f"   {label:<38} pretokenize {t_pre:5.2f}   engine_split {t_eng:5.2f} ({t_eng / t_pre:4.2f}x), "
              f"{len(split.notes)} notes")


def llama_chunks(repeat: int) -> None:
    print("3. Llama 3's long-run chunking (ours / llama-models' encode)")
    tok, ref = zoo.load("llama3"), encoder("llama3")
    tok.encode_ids(" " * 30_000)  # warm up: the whitespace class is built once per process
    for label, text in (("30,000 spaces", " " * 30_000), ("1 MB mixed text", mixed_text(1_000_000))):
        t_lib, a = cpu(lambda: ref(text), repeat)
        t_ours, b = cpu(lambda: tok.encode_ids(text), repeat)
        print(f"   {label:<16} equal {a == b}   library {t_lib:5.2f}   ours {t_ours:5.2f} ({t_ours / t_lib:4.2f}x)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    if args.quick:
        args.n, args.repeat = 2000, 1
    differential(args.n, args.repeat)
    engine(args.repeat)
    llama_chunks(args.repeat)


if __name__ == "__main__":
    main()
