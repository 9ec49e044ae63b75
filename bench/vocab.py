"""Inside the vocabulary: census, search and decode speed, against the library in the same run.

For each tokenizer (default: gemma4, the 262,144-entry vocabulary, plus o200k_base and xlm-r):

- census: :func:`core.analysis.vocab.census` cold in this process (table of every id + script per token; goal
  <= 1 s for 262k), then cached (a second call);
- search: substring (goal <= 100 ms), regex and hex-bytes searches, best of ``--repeat``;
- decode: 10,000 ids (a real encoding of the bundled sentences, repeated) through
  :func:`core.analysis.vocab.decode` (text from the library plus each id's bytes and the unknown-id check)
  against the library's own decode called directly (``tokenizers.Tokenizer.decode``,
  ``SentencePieceProcessor.decode``, ``tiktoken.Encoding.decode``), best of ``--repeat``; goal <= 1.5x;
- unreachable: the whole glitch-token scan once (no goal; reported for the page's waiting message).

Where decode's time went (10,000 ids, cl100k, the library ~0.13 ms): checking the ids in Python before the
library call (``isinstance`` on each, ``min``/``max``, the holes) cost 0.1-0.2 ms each, 4-6x the library in all.
Now a library that checks ids as it decodes (tiktoken, SentencePiece: ``decode_checked``) is the check; for the
others one 64-bit array conversion and numpy range/hole checks; per-token bytes are looked up only when shown.

Times are process CPU seconds (single-threaded work on a shared machine). Run: ``python bench/vocab.py``.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.analysis import tax
from core.analysis import vocab as V
from core.pretrained import zoo


def cpu(fn, repeat: int = 1) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeat):
        t = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t)
    return best, out


def library_decode(tok):
    """The library's own decode, called directly (not through the adapter)."""
    if tok.tokenizer_json is not None:
        import tokenizers

        lib = tokenizers.Tokenizer.from_str(tok.tokenizer_json)
        return lambda ids: lib.decode(ids, skip_special_tokens=False)
    proto = tok.model_proto()
    if proto is not None:
        import sentencepiece as spm

        sp = spm.SentencePieceProcessor()
        sp.LoadFromSerializedProto(proto)
        return sp.decode
    if tok.decode_checked([]) is not None:  # one library call that decodes and checks (tiktoken's own decode)
        return tok.decode_checked
    return tok.decode_ids


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tokenizers", default="gemma4,o200k_base,xlm-r")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--ids", type=int, default=10_000)
    args = ap.parse_args()
    texts = [c for row in tax.load_bundled().rows for c in row]
    print(f"{'tokenizer':<14} {'vocab':>8} {'census cold':>12} {'cached':>8} {'search':>8} {'regex':>8} {'bytes':>8} "
          f"{'decode':>8} {'library':>8} {'ratio':>6} {'unreach':>8}")
    for tid in args.tokenizers.split(","):
        tok = zoo.load(tid)
        cold, _ = cpu(lambda: V.census(tok))
        warm, _ = cpu(lambda: V.census(tok))
        search, _ = cpu(lambda: V.search(tok, "রাজ"), args.repeat)
        rx, _ = cpu(lambda: V.search(tok, r"^\s?[a-z]+ing$", "regex"), args.repeat)
        hx, _ = cpu(lambda: V.search(tok, "E0 A6", "bytes"), args.repeat)
        ids: list[int] = []
        while len(ids) < args.ids:
            for t in texts:
                ids.extend(tok.encode_ids(t))
        ids = ids[: args.ids]
        lib = library_decode(tok)
        ours, got = cpu(lambda: V.decode(tok, ids), args.repeat)
        theirs, text = cpu(lambda: lib(ids), args.repeat)
        assert got.text == text, f"{tid}: decode differs from the library"  # type: ignore[attr-defined]
        unreach, _ = cpu(lambda: V.unreachable(tok))
        print(f"{tid:<14} {tok.vocab_size:>8,} {cold:>11.3f}s {warm:>7.4f}s {search * 1000:>6.1f}ms {rx * 1000:>6.1f}ms "
              f"{hx * 1000:>6.1f}ms {ours * 1000:>6.2f}ms {theirs * 1000:>6.2f}ms {ours / theirs:>5.2f}x {unreach:>7.2f}s")


if __name__ == "__main__":
    main()
