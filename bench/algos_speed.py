"""Benchmark: our traced WordPiece and Unigram encoders vs Hugging Face ``tokenizers``.

Usage: ``python bench/algos_speed.py [--size BYTES] [--vocab N]``

Words go through the same BERT pre-tokenizer (punctuation split) on both sides.
Both models are trained by the library on the bundled Bangla sample; then
the same words of a mixed Bangla/English corpus (``bench/corpus.py``) are
encoded by ours (with and without the full step trace for WordPiece; with
lattice + top-5 for Unigram) and by the library, in one run. Outputs are
checked for equality and the ratios are printed. Ours is plain Python that
records every step for the pages; the library is Rust, so expect it to win.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.corpus import make_corpus
from core.assets import sample_lines
from core.models import unigram, wordpiece


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=200_000, help="corpus size in bytes")
    ap.add_argument("--vocab", type=int, default=400)
    args = ap.parse_args()
    words = [w for w in make_corpus(args.size).split() if w][:20_000]
    print(f"{len(words):,} words from a {args.size:,}-byte mixed corpus")

    wp = wordpiece.train_wordpiece(sample_lines(), vocab_size=args.vocab)
    lib = wordpiece.library_tokenizer(wp)
    t_trace, ours = timed(lambda: [tuple(wordpiece.encode(w, wp).pieces) for w in words])
    t_plain, plain = timed(lambda: [tuple(wordpiece.encode(w, wp, trace=False).pieces) for w in words])
    t_lib, theirs = timed(lambda: [tuple(e.tokens) for e in lib.encode_batch(words)])
    t_lib1, _ = timed(lambda: [lib.encode(w).tokens for w in words])
    same = sum(a == b for a, b in zip(ours, theirs))
    print(f"WordPiece ({len(wp)} entries): ours traced {t_trace:.3f}s, ours no trace {t_plain:.3f}s, "
          f"tokenizers encode_batch {t_lib:.3f}s, one by one {t_lib1:.3f}s")
    print(f"  ratio traced/batch {t_trace / t_lib:.1f}x, traced/one-by-one {t_trace / t_lib1:.1f}x; "
          f"identical {same:,}/{len(words):,}")

    ug = unigram.train_unigram(sample_lines(), vocab_size=args.vocab)
    ulib = unigram.library_tokenizer(ug)
    t_vit, ours_u = timed(lambda: [tuple(t for t, _ in unigram.final_tokens(unigram.viterbi(unigram.as_word(w), ug), ug))
                                   for w in words])
    t_lat, _ = timed(lambda: [unigram.lattice(w, ug, k=5) for w in words])
    t_ulib, theirs_u = timed(lambda: [tuple(e.tokens) for e in ulib.encode_batch(words)])
    t_ulib1, _ = timed(lambda: [ulib.encode(w).tokens for w in words])
    same_u = sum(a == b for a, b in zip(ours_u, theirs_u))
    print(f"Unigram ({len(ug)} pieces): ours Viterbi {t_vit:.3f}s, ours lattice+top-5 {t_lat:.3f}s, "
          f"tokenizers encode_batch {t_ulib:.3f}s, one by one {t_ulib1:.3f}s")
    print(f"  ratio viterbi/batch {t_vit / t_ulib:.1f}x, viterbi/one-by-one {t_vit / t_ulib1:.1f}x; "
          f"identical {same_u:,}/{len(words):,}")


if __name__ == "__main__":
    main()
