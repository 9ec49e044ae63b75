"""Real-size corpora through ``python -m core compare``: memory, throughput, workers, Dask, against raw tiktoken.

A multilingual parallel TSV (header ``en bn hi fa uz``) of the asked size
is generated into a temporary folder (deleted afterwards): rows built from
the bundled sentences (``assets/parallel.tsv``) with generated Bangla /
Latin words and numbers mixed in, from a fixed seed; a 4 MB block of rows
is written over and over to reach the size (tokenizer throughput does not
depend on repetition: tiktoken has no cache). Then, in the same run:

1. ``compare --tokenizers cl100k_base,o200k_base,llama3 --parallel F --json``
   with ``--workers 1``, ``--workers 2`` and ``--scheduler`` (a Dask
   ``LocalCluster`` of two worker processes started here): wall time and
   peak resident memory of the whole process tree (the CLI and its
   workers, polled every 0.1 s with ``psutil``; the Dask workers are
   measured as their own tree); the three outputs must be byte-identical.
2. The raw library on the same text: the file read in the same 1 MB
   chunks, cells split, and each language column of each chunk passed to
   ``tiktoken.Encoding.encode_ordinary_batch`` (its default 8 threads, and
   ``num_threads=1``); token totals must equal the CLI's.

Goals (what a big-file run must stay within): peak RSS under 500 MB at any size; one worker within 1.5x
of the raw library; two workers at least 1.7x faster than one. The machine
may be shared: wall-clock ratios are noisy, so each figure is printed with
the CPU time it took.

Run: ``python bench/scale.py --size 100M`` (or ``1G``; ``--size 20M`` for a quick look). On a quiet
machine with two idle cores, ``python bench/scale.py --size 1G --runs w1,w2`` gives the workers figures
alone: for each run the wall time, the CPU time of the CLI process and of each worker, and then the
speed-up both in wall time and in CPU terms (what the CPU times allow with a core per busy process).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TOKENIZERS = ("cl100k_base", "o200k_base", "llama3")
BN_CONS = "কখগঘচছজঝটঠডঢণতথদধনপফবভমযরলশষসহ"
BN_SIGNS = ["", "া", "ি", "ী", "ু", "ে", "ো", "্য", "্র", "ং"]
LATIN = ["ba", "zar", "ghar", "or", "der", "sha", "hi", "to", "mor", "row", "pack", "et", "oʻz", "bek", "gul"]


def parse_size(s: str) -> int:
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(float(s[:-1]) * mult[s[-1].upper()]) if s[-1].upper() in mult else int(s)


def make_block(seed: int = 13, size: int = 4 << 20) -> tuple[str, bytes]:
    """(header line, ~``size`` bytes of TSV rows)."""
    lines = (ROOT / "assets" / "parallel.tsv").read_text(encoding="utf-8").split("\n")
    header, rows = lines[0], [r.split("\t") for r in lines[1:] if r.strip()]
    rng = random.Random(seed)
    out: list[str] = []
    n = 0
    while n < size:
        row = list(rng.choice(rows))
        for i, cell in enumerate(row):
            extra = []
            for _ in range(rng.randint(0, 3)):
                r = rng.random()
                if r < 0.4:
                    extra.append("".join(rng.choice(BN_CONS) + rng.choice(BN_SIGNS) for _ in range(rng.randint(1, 3))))
                elif r < 0.8:
                    extra.append("".join(rng.choice(LATIN) for _ in range(rng.randint(1, 3))))
                else:
                    extra.append(str(rng.randint(0, 99999)))
            row[i] = cell + (" " + " ".join(extra) if extra else "")
        line = "\t".join(row) + "\n"
        out.append(line)
        n += len(line.encode("utf-8"))
    return header, "".join(out).encode("utf-8")


def write_corpus(path: Path, size: int) -> int:
    header, block = make_block()
    with open(path, "wb") as fh:
        fh.write((header + "\n").encode("utf-8"))
        written = 0
        while written < size:
            fh.write(block)
            written += len(block)
    return path.stat().st_size


class TreeRSS:
    """Peak summed RSS of a process and all its descendants, polled in a thread."""

    def __init__(self, pid: int) -> None:
        import psutil

        self.proc = psutil.Process(pid)
        self.peak = 0
        self.peak_pss = 0
        self.cpu: dict[int, tuple[str, float]] = {}  # pid -> (role, user + system seconds at the last poll)
        self.parent_before_workers: float | None = None  # the CLI's CPU seconds when its first worker was seen
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)
        self._t.start()

    #: PSS needs /proc/PID/smaps, which costs the kernel about 5 ms per 200 MB process: read every 0.05 s for
    #: three processes that took a third of a core from the workers being measured. RSS and CPU times
    #: (/proc/PID/statm, stat: microseconds) are read every 0.1 s, PSS once a second (the streaming run's
    #: memory is flat after its first chunks, so the peak is not missed by much).
    POLL_S = 0.1
    PSS_EVERY_S = 1.0

    def _run(self) -> None:
        import psutil

        next_pss = 0.0
        while not self._stop.is_set():
            with_pss = time.monotonic() >= next_pss
            if with_pss:
                next_pss = time.monotonic() + self.PSS_EVERY_S
            try:
                procs = [self.proc, *self.proc.children(recursive=True)]
                total = pss = 0
                for p in procs:
                    try:
                        if with_pss:
                            full = p.memory_full_info()
                            total += full.rss
                            pss += full.pss
                        else:
                            total += p.memory_info().rss
                        t = p.cpu_times()
                        self.cpu[p.pid] = ("parent" if p.pid == self.proc.pid else "worker", t.user + t.system)
                        if p.pid != self.proc.pid and self.parent_before_workers is None and self.proc.pid in self.cpu:
                            self.parent_before_workers = self.cpu[self.proc.pid][1]
                    except psutil.Error:
                        pass
                self.peak = max(self.peak, total)
                if with_pss:
                    self.peak_pss = max(self.peak_pss, pss)
            except psutil.Error:
                pass
            time.sleep(self.POLL_S)

    def stop(self) -> tuple[int, int]:
        self._stop.set()
        self._t.join()
        return self.peak, self.peak_pss


def run_cli(args: list[str], extra_pids: list[int] | None = None) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t0 = time.perf_counter()
    r0 = os.times()
    p = subprocess.Popen([sys.executable, "-m", "core", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=env, cwd=ROOT)
    mon = TreeRSS(p.pid)
    extra = [TreeRSS(pid) for pid in (extra_pids or [])]
    out, err = p.communicate()
    wall = time.perf_counter() - t0
    r1 = os.times()
    own_cpu = (r1.user - r0.user) + (r1.system - r0.system)  # this bench's monitor threads, on the same cores
    peak, pss = mon.stop()
    extra_peak = sum(m.stop()[0] for m in extra)
    if p.returncode != 0:
        raise SystemExit(f"CLI failed ({p.returncode}): {err.decode()[-500:]}")
    cpu_total = (r1.children_user - r0.children_user) + (r1.children_system - r0.children_system)
    parent = sum(c for role, c in mon.cpu.values() if role == "parent")
    workers = sorted((c for role, c in mon.cpu.values() if role == "worker"), reverse=True)
    return {"wall": wall, "cpu_children": cpu_total, "cpu_parent": parent, "cpu_workers": workers,
            "cpu_parent_before_workers": mon.parent_before_workers,
            "peak_rss": peak, "peak_pss": pss, "cluster_peak_rss": extra_peak, "monitor_cpu": own_cpu, "stdout": out}


def cpu_line(r: dict) -> str:
    """Where the CPU time went: the CLI process (reads, decodes and hands out chunks, merges counts) and each worker.

    Per-process figures are polled every 0.1 s, so a process's last 0.1 s may be missing; ``total`` is exact
    (``os.times`` of the finished children)."""
    workers = r["cpu_workers"]
    w = ", ".join(f"{c:.1f}" for c in workers) if workers else "none (all in the CLI process)"
    line = (f"    CPU: total {r['cpu_children']:.1f} s = CLI process {r['cpu_parent']:.1f} s + workers [{w}] s; "
            f"the CLI process's share {100 * r['cpu_parent'] / max(r['cpu_children'], 1e-9):.0f}%; this bench's "
            f"monitor {r['monitor_cpu']:.1f} s")
    before = r.get("cpu_parent_before_workers")
    if before is not None:
        line += (f" ({before:.1f} s of it before the workers started: start-up and loading the tokenizers; "
                 f"{r['cpu_parent'] - before:.1f} s while they ran: reading, decoding and handing out chunks, merging)")
    return line


def raw_tiktoken(path: Path, threads: int | None) -> tuple[float, float, dict]:
    """encode_ordinary_batch over the same cells, read in the same chunks; (wall, cpu, totals)."""
    from core.analysis import stream
    from core.pretrained import zoo

    engines = {t: zoo.load(t).engine for t in TOKENIZERS}
    header = path.open(encoding="utf-8").readline()
    langs = header.rstrip("\n").split("\t")
    totals = {t: [0] * len(langs) for t in TOKENIZERS}
    c0 = time.process_time()
    t0 = time.perf_counter()
    for chunk in stream.iter_chunks(str(path), cut="line", skip_bytes=len(header.encode("utf-8"))):
        cols: list[list[str]] = [[] for _ in langs]
        for line in chunk.text.split("\n"):
            if line.strip():
                for i, c in enumerate(line.split("\t")):
                    cols[i].append(c.strip())
        for t, enc in engines.items():
            for i, col in enumerate(cols):
                if threads == 0:  # no batch: the plain per-text call, in a loop
                    totals[t][i] += sum(len(enc.encode_ordinary(s)) for s in col)
                    continue
                ids = enc.encode_ordinary_batch(col) if threads is None else enc.encode_ordinary_batch(col, num_threads=threads)
                totals[t][i] += sum(map(len, ids))
    return time.perf_counter() - t0, time.process_time() - c0, {t: dict(zip(langs, v)) for t, v in totals.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", default="100M", help="corpus size, e.g. 20M, 100M, 1G (default 100M)")
    ap.add_argument("--runs", default="w1,w2,dask,raw",
                    help="which runs, comma-separated from w1,w2,dask,raw (default: all)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON too")
    opts = ap.parse_args()
    size = parse_size(opts.size)
    tmp = Path(tempfile.mkdtemp(prefix="tl-scale-"))
    try:
        path = tmp / "parallel.tsv"
        t0 = time.perf_counter()
        nbytes = write_corpus(path, size)
        print(f"corpus: {nbytes / 1e6:,.1f} MB generated in {time.perf_counter() - t0:.1f} s ({path})", flush=True)
        base = ["compare", "--tokenizers", ",".join(TOKENIZERS), "--parallel", str(path), "--json"]
        figures: dict[str, dict] = {}
        runs = set(opts.runs.split(","))
        for w in [w for w in (1, 2) if f"w{w}" in runs]:
            r = run_cli(base + ["--workers", str(w)])
            figures[f"workers {w}"] = r
            print(f"compare --workers {w}: {r['wall']:.1f} s wall, {r['cpu_children']:.1f} s CPU, "
                  f"{nbytes / 1e6 / r['wall']:.2f} MB/s, peak RSS {r['peak_rss'] / 1e6:.0f} MB summed over CLI + workers "
                  f"(PSS {r['peak_pss'] / 1e6:.0f} MB: shared pages counted once); load average "
                  f"{os.getloadavg()[0]:.1f} after it", flush=True)
            print(cpu_line(r), flush=True)
        if "dask" in runs:
            from distributed import LocalCluster

            os.environ["PYTHONPATH"] = str(ROOT)
            with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl:
                pids = [w.process.pid for w in cl.workers.values() if getattr(w, "process", None) is not None]
                r = run_cli(base + ["--scheduler", cl.scheduler_address], extra_pids=pids)
            figures["dask"] = r
            print(f"compare --scheduler (LocalCluster, 2 workers): {r['wall']:.1f} s wall, "
                  f"{nbytes / 1e6 / r['wall']:.2f} MB/s, peak RSS CLI {r['peak_rss'] / 1e6:.0f} MB, "
                  f"cluster workers {r['cluster_peak_rss'] / 1e6:.0f} MB", flush=True)
        outs = {k: v["stdout"] for k, v in figures.items()}
        identical = len(set(outs.values())) == 1
        print(f"outputs byte-identical across {', '.join(outs)}: {identical}", flush=True)
        raw: dict[str, dict] = {}
        totals: dict = {}
        for threads in ((None, 0) if "raw" in runs else ()):
            wall, cpu, totals = raw_tiktoken(path, threads)
            label = "encode_ordinary_batch, default threads" if threads is None else "encode_ordinary per cell"
            raw[label] = {"wall": wall, "cpu": cpu}
            print(f"raw tiktoken {label}: {wall:.1f} s wall, {cpu:.1f} s CPU, {nbytes / 1e6 / wall:.2f} MB/s", flush=True)
        same_counts = None
        if totals and "workers 1" in outs:
            ours = json.loads(outs["workers 1"])
            same_counts = all(ours[t]["languages"][lang]["tokens"] == n for t, langs in totals.items()
                              for lang, n in langs.items())
            print(f"token totals equal raw tiktoken: {same_counts}")
        if "workers 1" in figures and raw:
            w1 = figures["workers 1"]
            for label, r in raw.items():
                print(f"workers 1 / raw {label}: {w1['wall'] / r['wall']:.2f}x wall, "
                      f"{w1['cpu_children'] / r['cpu']:.2f}x CPU (goal <= 1.5x; ours includes start-up and loading)")
        if "workers 1" in figures and "workers 2" in figures:
            r1, r2 = figures["workers 1"], figures["workers 2"]
            w1, w2 = r1["wall"], r2["wall"]
            print(f"speed-up workers 2 vs 1: {w1 / w2:.2f}x wall (goal >= 1.7x; needs two idle cores)")
            # With two cores of its own, a run takes at least its busiest process's CPU time, and at least half
            # its total CPU time: the speed-up that CPU time allows, whatever the machine's load.
            busiest = max([r2["cpu_parent"], *r2["cpu_workers"]])
            ideal = r1["cpu_children"] / max(busiest, r2["cpu_children"] / 2)
            print(f"speed-up workers 2 vs 1 in CPU terms: {ideal:.2f}x = workers 1 CPU {r1['cpu_children']:.1f} s / "
                  f"max(busiest process {busiest:.1f} s, half the total {r2['cpu_children'] / 2:.1f} s); "
                  f"CPU overhead of two workers {r2['cpu_children'] / r1['cpu_children']:.2f}x; "
                  f"wall / CPU {w2 / max(busiest, r2['cpu_children'] / 2):.2f} for 2 workers and "
                  f"{w1 / r1['cpu_children']:.2f} for 1 (1.00 = the process never waited for a core)")
            if "dask" in figures:
                print(f"dask vs workers 2: {figures['dask']['wall'] / w2:.2f}x the wall time")
        print(f"peak RSS max = {max(v['peak_rss'] for v in figures.values()) / 1e6:.0f} MB summed over processes, "
              f"PSS max = {max(v['peak_pss'] for v in figures.values()) / 1e6:.0f} MB (goal < 500 MB)")
        print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end (shared machines "
              "make wall-clock ratios noisy)")
        if opts.json:
            print(json.dumps({"bytes": nbytes, "identical": identical, "counts_equal_raw": same_counts,
                              "runs": {k: {kk: vv for kk, vv in v.items() if kk != "stdout"} for k, v in figures.items()},
                              "raw": raw}, indent=2))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
