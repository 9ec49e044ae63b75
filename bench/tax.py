"""What the field's measures cost beside the plain token count (issue 31: at most 2x in one run).

For each of 8 tokenizers and 5 languages, 2,000 lines (one to three of the bundled parallel sentences of
that language, drawn with a fixed seed, so lines differ but words repeat as in real text) are

- counted: ``tok.count_tokens(lines)``, what ``compare`` did before the measures;
- measured: :func:`core.analysis.measures.measure_lines` (tokens and the id distribution, words kept whole
  alone and after a space, the pre-tokenizer's pieces, the optimal count, the normalizer's changes);
- and, as the tax table's row: before the measures, tokens with words, characters and bytes
  (:func:`core.analysis.tax.measure`'s work per column); with them, :func:`core.analysis.measures.measure_parallel`.

The vocabulary's speller (every token's bytes and, per first byte, the longest token's length) is built once per
tokenizer and kept beside it; its build is timed apart. Times are process CPU seconds, best of
``--repeat``; the ratio is measured / counted, per tokenizer over the five languages.

Run: ``python bench/tax.py`` (``--quick``: 500 lines, 4 tokenizers).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.analysis import measures, tax
from core.pretrained import zoo

TOKENIZERS = ["cl100k_base", "o200k_base", "llama3", "qwen", "gemma4", "deepseek-v3", "mistral-spm-v1", "xlm-r"]


def lines_of(lang: str, n: int, seed: int = 7) -> list[str]:
    """``n`` lines of ``lang``: one to three bundled sentences each."""
    rng = random.Random(seed)
    col = tax.load_bundled().column(lang)
    return [" ".join(rng.choice(col) for _ in range(rng.randint(1, 3))) for _ in range(n)]


def cpu(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(max(1, repeat)):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    n = 500 if args.quick else 2000
    ids = TOKENIZERS[:4] if args.quick else TOKENIZERS
    data = {lang: lines_of(lang, n) for lang in tax.load_bundled().languages}
    print(f"{n:,} lines x {len(data)} languages; CPU seconds, best of {args.repeat}")
    print(f"{'tokenizer':<16}{'count':>9}{'measures':>10}{'ratio':>8}{'row':>9}{'row+m':>9}{'ratio':>8}{'speller':>9}")
    worst = worst_row = 0.0
    for tid in ids:
        tok = zoo.load(tid)
        t0 = time.process_time()
        if isinstance(tok, measures.Pieces):
            measures.speller(tok)
        build = time.process_time() - t0
        tok.pre_pieces("warm up") if isinstance(tok, measures.Pieces) else None
        count = sum(cpu(lambda lines=lines: tok.count_tokens(lines), args.repeat) for lines in data.values())
        full = sum(cpu(lambda lines=lines: measures.measure_lines(tok, lines), args.repeat) for lines in data.values())
        cols = list(data.values())
        row = cpu(lambda: [plain_row(tok, col) for col in cols], args.repeat)
        row_m = cpu(lambda: measures.measure_parallel(tok, cols), args.repeat)
        worst, worst_row = max(worst, full / count), max(worst_row, row_m / row)
        print(f"{tid:<16}{count:>9.3f}{full:>10.3f}{full / count:>7.2f}x{row:>9.3f}{row_m:>9.3f}{row_m / row:>7.2f}x"
              f"{build:>9.2f}")
    print(f"worst ratio {worst:.2f}x against the token count alone; {worst_row:.2f}x against the tax row "
          "(tokens, words, characters, bytes); goal: at most 2x")


def plain_row(tok, col: list[str]) -> tuple[int, int, int, int]:
    """The tax table's row before the measures (core.analysis.tax.measure, one column)."""
    return (tok.count_tokens(col), sum(len(s.split()) for s in col), sum(map(len, col)),
            sum(len(s.encode("utf-8")) for s in col))


if __name__ == "__main__":
    main()
