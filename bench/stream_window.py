"""How many chunks in flight per worker ``run_shards`` needs: two workers, in-order results, uneven chunk times.

``core.analysis.stream.run_shards`` yields results in chunk order and keeps at
most ``workers * IN_FLIGHT_PER_WORKER`` chunks in flight (bounded memory).
When one chunk takes longer (its worker lost its core for a while, on a
shared machine), the other worker runs on only while the window has room;
with too small a window it waits, and two workers fall short of twice one.
Here each chunk sleeps (so the machine's load does not matter): 80% of them
0.05 s, 20% 0.4 s, from a fixed seed; the ideal is half the sum.

Run: ``python bench/stream_window.py`` (about a minute).
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.analysis import stream


def shard(times: list[float], c: stream.Chunk) -> int:
    time.sleep(times[c.index])
    return c.index


def main() -> None:
    rng = random.Random(1)
    times = [0.05 if rng.random() < 0.8 else 0.4 for _ in range(200)]
    chunks = [stream.Chunk(i, i, i, i, "x") for i in range(len(times))]
    one = sum(times)
    print(f"{len(times)} chunks; one worker {one:.2f} s; ideal for two {one / 2:.2f} s")
    default = stream.IN_FLIGHT_PER_WORKER
    for per in (1, 2, 4, 8):
        stream.IN_FLIGHT_PER_WORKER = per
        t0 = time.perf_counter()
        got = [r for _, r in stream.run_shards(shard, times, chunks, workers=2)]
        wall = time.perf_counter() - t0
        assert got == list(range(len(times)))
        mark = "  (the default)" if per == default else ""
        print(f"in flight per worker {per}: {wall:.2f} s wall, two workers {one / wall:.2f}x one{mark}")
    stream.IN_FLIGHT_PER_WORKER = default


if __name__ == "__main__":
    main()
