"""Adapter overhead and cold loading of the pretrained zoo.

For each tokenizer, 1 MB of mixed text (the bundled parallel sentences in
five languages, digits, emoji, URLs and whitespace runs, shuffled) is
encoded three ways, best of ``--repeat`` runs each:

- direct: the library itself (``tiktoken.Encoding.encode``,
  ``SentencePieceProcessor.encode``, ``tokenizers.Tokenizer.encode``);
- adapter ids: ``PretrainedTokenizer.encode_ids`` (goal: <= 1.3x direct);
- adapter table: ``PretrainedTokenizer.table``: ids, exact bytes, byte and
  code point spans, valid-UTF-8 flags and boundary kinds incl. grapheme
  clusters (goal: <= 3x direct).

The per-token ``Encoding`` (one Python object per token, what pages render
for short texts) is timed too, for information.

Times are process CPU seconds (the encoders are single-threaded; on a shared
machine wall-clock ratios are mostly noise). Then every offline zoo entry is
loaded cold in a fresh process: wall and CPU load time, resident memory added.

Run: ``python bench/compare.py`` (``--quick`` for 200 KB and one repeat).
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.analysis import tax
from core.pretrained import zoo

EXTRA = ["12345", "3.14159", "2026-11-30", "😀", "👨‍👩‍👧", "🇧🇩", "https://example.com/a?b=১", "user@mail.com",
         "   ", "\n\n", "\t", "don't", "I'LL", "<|endoftext|>", "[SEP]"]  # fmt: skip


def mixed_text(n_bytes: int, seed: int = 1) -> str:
    """Deterministic mixed text of about ``n_bytes`` UTF-8 bytes."""
    rng = random.Random(seed)
    cells = [c for row in tax.load_bundled().rows for c in row]
    parts: list[str] = []
    size = 0
    while size < n_bytes:
        piece = rng.choice(cells) if rng.random() < 0.85 else rng.choice(EXTRA)
        parts.append(piece + rng.choice([" ", " ", " ", "\n", "  "]))
        size += len(parts[-1].encode("utf-8"))
    return "".join(parts)


def best(fn, repeat: int) -> float:
    """Least CPU time of ``repeat`` runs (process CPU time: the machine may be shared, wall time is noise)."""
    times = []
    for _ in range(max(repeat, 1)):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return min(times)


def bench_encode(text: str, repeat: int) -> list[dict]:
    rows = []
    for tid in ("cl100k_base", "o200k_base", "llama3", "llama4", "tekken", "mistral-spm-v1"):
        tok = zoo.load(tid)
        if tid.startswith("mistral-spm"):
            sp = tok._sp
            direct = lambda: sp.encode(text)
        else:
            eng = tok.engine
            direct = lambda: eng.encode(text, disallowed_special=())
        rows.append(_measure(tid, tok, text, direct, repeat))
    rows.append(_bench_hf(text, repeat))
    return rows


def _bench_hf(text: str, repeat: int) -> dict:
    """A Hugging Face byte-level BPE (trained here on the bench text: no download)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    t = Tokenizer(models.BPE())
    t.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    t.decoder = decoders.ByteLevel()
    t.train_from_iterator(
        [text[i : i + 4096] for i in range(0, len(text), 4096)],
        trainers.BpeTrainer(vocab_size=4000, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False),
    )
    tok = zoo.load_user_bytes("bench-bytelevel.json", t.to_str().encode(), kind="hf-json")
    return _measure("hf-bytelevel-4k (tokenizers)", tok, text, lambda: t.encode(text, add_special_tokens=False).ids, repeat)


def _measure(name: str, tok, text: str, direct, repeat: int) -> dict:
    """Best-of-``repeat`` times, interleaved (direct, ids, table per round) so load drift hits all three alike."""
    ref = direct()
    assert list(ref) == tok.encode_ids(text), f"{name}: adapter ids differ from the library"
    tok.table(text)  # warm-up (first-use caches)
    d = ids = table = float("inf")
    for _ in range(repeat):
        d = min(d, best(direct, 1))
        ids = min(ids, best(lambda: tok.encode_ids(text), 1))
        table = min(table, best(lambda: tok.table(text), 1))
    enc = best(lambda: tok.encode(text), 1)
    return {"tokenizer": name, "tokens": len(ref), "direct_s": d, "ids_s": ids, "table_s": table, "encoding_s": enc,
            "ids_ratio": ids / d, "table_ratio": table / d, "encoding_ratio": enc / d}  # fmt: skip


_COLD = """
import json, sys, time
sys.path.insert(0, {root!r})
def rss():
    for line in open('/proc/self/status'):
        if line.startswith('VmRSS:'):
            return int(line.split()[1]) * 1024
import core.pretrained.zoo, tiktoken, sentencepiece, tokenizers, numpy  # imports are not the tokenizer's cost
from core.pretrained import zoo
before = rss(); t0 = time.perf_counter(); c0 = time.process_time()
tok = zoo.load({tid!r}); tok.encode_ids("warm up")
print(json.dumps({{"load_s": time.perf_counter() - t0, "cpu_s": time.process_time() - c0, "rss_mb": (rss() - before) / 2**20}}))
"""


def bench_cold() -> list[dict]:
    rows = []
    for tid, entry in zoo.ENTRIES.items():
        if entry.built_in:
            continue
        out = subprocess.run([sys.executable, "-c", _COLD.format(root=str(ROOT), tid=tid)], capture_output=True, text=True, check=True)
        rows.append({"tokenizer": tid, **json.loads(out.stdout)})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mb", type=float, default=1.0, help="text size in MB (default 1)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="0.2 MB, one repeat")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.quick:
        args.mb, args.repeat = 0.2, 1
    text = mixed_text(int(args.mb * 1_000_000))
    enc_rows = bench_encode(text, args.repeat)
    cold_rows = bench_cold()
    if args.json:
        print(json.dumps({"encode": enc_rows, "cold": cold_rows}, indent=2))
        return
    print(f"Encoding {len(text.encode()) / 1e6:.2f} MB mixed text ({len(text):,} code points), CPU seconds, best of {args.repeat}")
    print(f"{'tokenizer':<30}{'tokens':>9}{'direct':>9}{'ids':>9}{'table':>9}{'ids x':>8}{'table x':>9}{'Encoding x':>12}")
    for r in enc_rows:
        ok_ids = "" if r["ids_ratio"] <= 1.3 else "!"
        ok_tab = "" if r["table_ratio"] <= 3 else "!"
        print(f"{r['tokenizer']:<30}{r['tokens']:>9,}{r['direct_s']:>8.3f}s{r['ids_s']:>8.3f}s{r['table_s']:>8.3f}s"
              f"{r['ids_ratio']:>7.2f}{ok_ids:1}{r['table_ratio']:>8.2f}{ok_tab:1}{r['encoding_ratio']:>11.1f}")  # fmt: skip
    print("goals: ids <= 1.3x, table <= 3x direct ('!' marks a miss)")
    print()
    print(f"{'cold load (fresh process)':<30}{'wall s':>9}{'CPU s':>9}{'RSS MB':>9}")
    for r in cold_rows:
        print(f"{r['tokenizer']:<30}{r['load_s']:>9.2f}{r['cpu_s']:>9.2f}{r['rss_mb']:>9.0f}")
    total = [sum(r[k] for r in cold_rows) for k in ("load_s", "cpu_s", "rss_mb")]
    print(f"{'all offline tokenizers':<30}{total[0]:>9.2f}{total[1]:>9.2f}{total[2]:>9.0f}")


if __name__ == "__main__":
    main()
