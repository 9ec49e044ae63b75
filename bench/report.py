"""How long the checkpoint report takes: three tokenizers, a 50 KB Bangla file (goal: under 10 s).

The file is Bangla only: lines of ``assets/corpus/bazarghar.txt`` shuffled
with generated Bangla words (so it has thousands of distinct words, like
real text), cut at 50 KB of UTF-8. Three timings:

- cold CLI: ``python -m core report --tokenizers ... --file F --out R.html``
  in a fresh process (interpreter start, loading and hash-checking the
  tokenizer files, measuring, writing HTML + Markdown): the user's wait;
- warm: :func:`core.analysis.report.build_report` + ``to_html`` + ``to_markdown``
  with the tokenizers already loaded (what the compare page's button costs);
- reference: the libraries alone encoding the same text (tiktoken /
  SentencePiece ``encode``), in the same run, and the ratio warm / reference.

Wall-clock seconds, best of ``--repeat`` for the warm and reference runs.
Run: ``python bench/report.py`` (``--tokenizers`` to choose).

``--vs-table``: the report for 8 tokenizers on 100,000 characters against the compare page's table on the
same text (goal: at most 2x), see :func:`vs_table`.
"""
from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.corpus import BN_CONS, BN_SIGNS
from core.analysis.report import build_report, to_html, to_markdown
from core.pretrained import zoo

GOAL_S = 10.0


def bangla_file(n_bytes: int = 50_000, seed: int = 3) -> str:
    """About ``n_bytes`` of Bangla text (real sentences + generated words), deterministic."""
    rng = random.Random(seed)
    lines = [ln for ln in (ROOT / "assets" / "corpus" / "bazarghar.txt").read_text(encoding="utf-8").splitlines() if ln.strip()]
    out: list[str] = []
    size = 0
    while size < n_bytes:
        if rng.random() < 0.5:
            piece = rng.choice(lines)
        else:
            words = ["".join(rng.choice(BN_CONS) + rng.choice(BN_SIGNS) for _ in range(rng.randint(1, 4)))
                     for _ in range(rng.randint(4, 12))]
            piece = " ".join(words) + "।"
        out.append(piece)
        size += len(piece.encode("utf-8")) + 1
    text = "\n".join(out)
    return text.encode("utf-8")[:n_bytes].decode("utf-8", errors="ignore")


def reference_encode(tok, text: str) -> None:
    """The library alone: tiktoken's or SentencePiece's own encode."""
    engine = getattr(tok, "engine", None)
    if engine is not None:
        engine.encode_ordinary(text)
    elif hasattr(tok, "_sp"):
        tok._sp.encode(text)
    else:
        tok.encode_ids(text)


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


#: The compare page's six defaults plus two shelf entries with a normalizer and a big vocabulary.
TABLE_TOKENIZERS = "cl100k_base,o200k_base,llama3,tekken,mistral-spm-v1,codepoints,gemma4,bert-bge"
TABLE_GOAL = 2.0


def vs_table(ids: list[str], chars: int) -> int:
    """The report against the compare page's table on the same text, one run: both with the tokenizers loaded
    (the page holds them in its cache), the table first (the page shows it before the report button).

    - table: what the page computes for its table, ``summarize(tok, tok.encode(text))`` per tokenizer;
    - first report: ``build_report`` + ``to_html`` + ``to_markdown``, the first one for these tokenizers in the
      process (it also pays what is made once per tokenizer: the library's default-mode copy for the
      special-token probe, tiktoken's special-token regex);
    - second report: the same again (what every later report costs).
    """
    from core.pretrained.adapter import summarize

    text = bangla_file(chars * 4)[:chars]
    toks = [zoo.load(i) for i in ids]
    for t in toks:
        t.encode("warm up")  # the page encoded something with each already
    t0 = time.perf_counter()
    for t in toks:
        summarize(t, t.encode(text))
    table = time.perf_counter() - t0
    times = []
    for _ in range(2):
        t0 = time.perf_counter()
        r = build_report(text, toks)
        to_html(r), to_markdown(r)
        times.append(time.perf_counter() - t0)
    print(f"input: {len(text):,} code points ({len(text.encode('utf-8')):,} bytes, Bangla); tokenizers: {', '.join(ids)}")
    print(f"compare table (encode + summarize): {table:6.2f} s")
    for label, t in zip(("first report", "second report"), times):
        print(f"{label} (build + HTML + Markdown): {t:6.2f} s = {t / table:.2f}x the table "
              f"(goal: at most {TABLE_GOAL:.0f}x: {'met' if t / table <= TABLE_GOAL else 'NOT met'})")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tokenizers", default="cl100k_base,o200k_base,mistral-spm-v1")
    ap.add_argument("--bytes", type=int, default=50_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--vs-table", action="store_true",
                    help=f"time the report against the compare page's table ({TABLE_TOKENIZERS.count(',') + 1} "
                         "tokenizers, --chars characters) instead")
    ap.add_argument("--chars", type=int, default=100_000)
    args = ap.parse_args()
    if args.vs_table:
        ids = (args.tokenizers if args.tokenizers != ap.get_default("tokenizers") else TABLE_TOKENIZERS).split(",")
        return vs_table(ids, args.chars)
    ids = args.tokenizers.split(",")
    text = bangla_file(args.bytes)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "bn.txt"
        src.write_text(text, encoding="utf-8")
        out = Path(tmp) / "report.html"
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "core", "report", "--tokenizers", args.tokenizers, "--file", str(src),
                               "--out", str(out)], cwd=ROOT, capture_output=True, text=True)
        cold = time.perf_counter() - t0
        if proc.returncode != 0:
            print(proc.stderr, file=sys.stderr)
            return 1
        html_kb = out.stat().st_size / 1024
    toks = [zoo.load(i) for i in ids]
    warm = best(lambda: (lambda r: (to_html(r), to_markdown(r)))(build_report(text, toks)), args.repeat)
    ref = {i: best(lambda t=t: reference_encode(t, text), args.repeat) for i, t in zip(ids, toks)}
    ref_total = sum(ref.values())
    print(f"input: {len(text.encode('utf-8')):,} bytes of Bangla, {len(text):,} code points, {len(text.split()):,} words")
    print(f"tokenizers: {', '.join(ids)}")
    print(f"cold CLI (fresh process, load + hash check + report + write): {cold:6.2f} s  "
          f"(goal < {GOAL_S:.0f} s: {'met' if cold < GOAL_S else 'NOT met'}); HTML {html_kb:,.0f} KB")
    print(f"warm build_report + HTML + Markdown:                         {warm:6.2f} s")
    for i in ids:
        print(f"  reference: {i:<16} library encode {ref[i] * 1000:8.1f} ms")
    print(f"ratio warm report / library encodes: {warm / ref_total:,.0f}x "
          "(the report also builds per-token records, boundary kinds, grapheme clusters, round trips, chips)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
