"""How fast ``chunk`` cuts a big file with the tiktoken entries, against tiktoken encoding the same text (goal: 5 MB/s).

The file is the mixed Bangla/English benchmark corpus (:func:`bench.corpus.make_corpus`) repeated to ``--mb``
megabytes. For each tokenizer (cl100k_base and o200k_base unless ``--tokenizers`` says), in one run, on the same
text, the best of ``--repeat`` runs each (the machine is shared: the best run is the one least disturbed):

- reference: tiktoken's own ``encode_ordinary`` over the whole text (read into memory first, not timed);
- ours, in this process: :class:`core.analysis.chunks.ChunkCutter` over the file read in blocks
  (:func:`core.analysis.stream.iter_chunks`, each block cut checked), N=512 and K=64, for each snap mode, with
  the text of the first 1,000 chunks kept (what ``chunk --json`` does); MB/s and the ratio to tiktoken's MB/s;
- ours, the CLI in a fresh process: ``python -m core chunk ... --jsonl`` (every chunk written, to a file) on the
  whole file and on a quarter of it: wall clock, MB/s after the start-up (the same command on a one-line file),
  and the child's peak RSS, which must not grow with the file (bounded memory).

Run: ``python bench/chunk_speed.py`` (``--mb 100`` for the 100 MB file, ``--tokenizers``, ``--size``,
``--overlap``, ``--repeat``).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.corpus import write_corpus_file
from core.analysis import stream
from core.analysis.chunks import MAX_LISTED, ChunkCutter, ChunkSettings
from core.pretrained import zoo

GOAL_MB_S = 5.0


def best(repeat: int, run):
    """The fastest of ``repeat`` calls of ``run()`` (seconds) and the last result."""
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = run()
        times.append(time.perf_counter() - t0)
    return min(times), out


def reference(tid: str, path: Path, repeat: int) -> tuple[float, int]:
    """tiktoken's ``encode_ordinary`` on the whole text: seconds and tokens."""
    engine = zoo.load(tid)._enc
    text = path.read_text(encoding="utf-8")
    return best(repeat, lambda: len(engine.encode_ordinary(text)))


def ours(tid: str, path: Path, settings: ChunkSettings, repeat: int) -> tuple[float, dict]:
    tok = zoo.load(tid)

    def run() -> dict:
        cutter = ChunkCutter(tok, stream.iter_chunks(str(path), cut="text"), settings, verify_joins=True,
                             keep_text=MAX_LISTED, expected_bytes=path.stat().st_size)
        for _ in cutter:
            pass
        return cutter.summary().to_json()
    return best(repeat, run)


def cli(tid: str, path: Path, settings: ChunkSettings, out: Path) -> tuple[float, float]:
    """``chunk --jsonl`` in a fresh process: wall seconds and its own peak RSS in MB."""
    argv = [sys.executable, "-m", "core", "chunk", "--tokenizer", tid, "--file", str(path), "--size",
            str(settings.size), "--overlap", str(settings.overlap), "--snap", settings.snap, "--jsonl"]
    t0 = time.perf_counter()
    with out.open("wb") as fh:
        proc = subprocess.Popen(argv, cwd=ROOT, stdout=fh, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"chunk failed: {' '.join(argv)}")
    return time.perf_counter() - t0, usage.ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tokenizers", default="cl100k_base,o200k_base")
    ap.add_argument("--mb", type=int, default=20)
    ap.add_argument("--size", type=int, default=512)
    ap.add_argument("--overlap", type=int, default=64)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path, quarter, tiny = Path(tmp) / "big.txt", Path(tmp) / "quarter.txt", Path(tmp) / "tiny.txt"
        mb = write_corpus_file(path, args.mb) / 1e6
        qmb = write_corpus_file(quarter, max(1, args.mb // 4)) / 1e6
        tiny.write_text("বাজারঘরের অর্ডার\n", encoding="utf-8")
        print(f"file: {mb:.1f} MB of the Bangla/English corpus; chunks of {args.size} tokens with overlap {args.overlap}; "
              f"best of {args.repeat}")
        for tid in args.tokenizers.split(","):
            s = ChunkSettings(args.size, args.overlap, "grapheme")
            start, _ = cli(tid, tiny, s, Path(tmp) / "out")  # the CLI first, while this process is still small
            whole, peak = cli(tid, path, s, Path(tmp) / "out")
            part, qpeak = cli(tid, quarter, s, Path(tmp) / "out")
            ref, n = reference(tid, path, args.repeat)
            print(f"\n{tid}: {n:,} tokens; tiktoken encode_ordinary alone: {ref:.2f} s = {mb / ref:.1f} MB/s")
            for snap in ("none", "grapheme", "word"):
                wall, summary = ours(tid, path, ChunkSettings(args.size, args.overlap, snap), args.repeat)
                assert summary["tokens"] == n, (summary["tokens"], n)
                ok = "ok" if mb / wall >= GOAL_MB_S else "UNDER"
                print(f"  chunk --snap {snap:<8} (in process, file in blocks): {wall:.2f} s = {mb / wall:.1f} MB/s = "
                      f"{ref / wall:.2f}x tiktoken's MB/s (goal {GOAL_MB_S:.0f} MB/s: {ok}); {summary['chunks']:,} "
                      f"chunks, {100 * summary['share_inside']['grapheme']:.1f}% start or end inside a letter")
            print(f"  python -m core chunk --snap grapheme --jsonl (fresh process): start-up {start:.2f} s; "
                  f"{mb:.1f} MB in {whole:.2f} s = {mb / (whole - start):.1f} MB/s after start-up, peak RSS {peak:.0f} MB; "
                  f"{qmb:.1f} MB: peak RSS {qpeak:.0f} MB ({part:.2f} s)")


if __name__ == "__main__":
    main()
