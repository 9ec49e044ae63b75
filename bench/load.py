"""Load: N concurrent sessions against one ``streamlit run`` server, through Streamlit's own websocket protocol.

The goal: one laptop serves a class. Each simulated student opens a
session on ``ws://127.0.0.1:PORT/_stcore/stream`` and speaks the browser's
protocol: protobuf ``BackMsg.rerun_script`` (a ``ClientState`` with the
page, query string and widget states) up, ``ForwardMsg`` deltas and
``script_finished`` down. One cycle is what a student does in the first
minute: open Paste and see, open the BPE stepper, press Next five times
(the ``step_next`` button's trigger, the same widget state a click sends).

Why this client and not browsers: a Chromium tab costs 100-300 MB and a
core's worth of layout per rerun, so 30 of them on this 2-core machine
would measure the browsers (an earlier 20-session browser run found "the browsers
on the same 2 cores caused most of the latency"). A protobuf websocket
client costs the server exactly what a browser costs it (the same script
runs, the same messages are built and sent) and almost nothing itself.

Reported:
- errors (goal 0): sessions that failed, exception elements in any delta,
  runs that did not finish within ``--run-timeout``, steps that did not
  advance the stepper;
- server CPU seconds per view (``/proc/PID/stat`` of the server process
  and its children, over the measured phase, divided by script runs);
- p50/p95 script-run time, from ``rerun_script`` sent to ``script_finished``
  received (client side, so it includes the wait for a free CPU);
- server RSS sampled every ``--sample-s`` seconds during the soak (cycles
  repeated by every session for ``--soak-minutes``; goal: flat after
  warm-up, under 1 GB), with the slope over the second half.

Run: ``python bench/load.py`` (30 sessions, 10-minute soak; about 12
minutes). ``--soak-minutes 2`` for a short run. The server is started with
``tests/conftest.run_streamlit`` on a free port and stopped at the end.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

STEPS = 5


@dataclass
class Stats:
    run_times: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    views: int = 0
    cycles: int = 0


class Session:
    """One browser-like session: a websocket, the page's widget ids, and a rerun helper."""

    def __init__(self, ws, stats: Stats, run_timeout: float) -> None:
        self.ws = ws
        self.stats = stats
        self.run_timeout = run_timeout
        self.pages: dict[str, str] = {}  # url path -> page_script_hash
        self.widgets: dict[str, str] = {}  # user key -> widget id, from the last run
        self.texts: list[str] = []

    async def rerun(self, page: str, query: str = "", triggers: tuple[str, ...] = ()) -> float:
        """One script run; returns its time. Records exception elements and timeouts as errors."""
        msg = BackMsg()
        cs = msg.rerun_script
        cs.query_string = query
        cs.page_name = page
        if page in self.pages:
            cs.page_script_hash = self.pages[page]
        for key in triggers:
            wid = self.widgets.get(key)
            if wid is None:
                self.stats.errors.append(f"{page}: no widget {key!r} to press")
                continue
            cs.widget_states.widgets.append(WidgetState(id=wid, trigger_value=True))
        self.widgets, self.texts = {}, []
        t0 = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        try:
            await asyncio.wait_for(self._until_finished(page), self.run_timeout)
        except asyncio.TimeoutError:
            self.stats.errors.append(f"{page}: run did not finish within {self.run_timeout:.0f} s")
        dt = time.perf_counter() - t0
        self.stats.run_times.append(dt)
        self.stats.views += 1
        return dt

    async def _until_finished(self, page: str) -> None:
        while True:
            fwd = ForwardMsg()
            fwd.ParseFromString(await self.ws.recv())
            kind = fwd.WhichOneof("type")
            if kind == "new_session":
                for p in fwd.new_session.app_pages:
                    self.pages[p.url_pathname or p.page_name] = p.page_script_hash
            elif kind == "navigation":
                for p in fwd.navigation.app_pages:
                    self.pages[p.url_pathname or p.page_name] = p.page_script_hash
            elif kind == "delta":
                self._read_delta(fwd, page)
            elif kind == "script_finished":
                # FINISHED_SUCCESSFULLY=0, FINISHED_WITH_COMPILE_ERROR=1, FINISHED_EARLY_FOR_RERUN=2, ...
                if fwd.script_finished == 1:
                    self.stats.errors.append(f"{page}: compile error")
                if fwd.script_finished != 2:
                    return

    def _read_delta(self, fwd: ForwardMsg, page: str) -> None:
        delta = fwd.delta
        if delta.WhichOneof("type") != "new_element":
            return
        el = delta.new_element
        kind = el.WhichOneof("type")
        if kind == "exception":
            self.stats.errors.append(f"{page}: exception {el.exception.type}: {el.exception.message[:200]}")
            return
        inner = getattr(el, kind) if kind else None
        wid = getattr(inner, "id", "") if inner is not None else ""
        if isinstance(wid, str) and wid.startswith("$$ID-"):  # "$$ID-<hash>-<user key>"
            parts = wid.split("-", 2)
            self.widgets[parts[2] if len(parts) == 3 else wid] = wid
        if kind == "markdown":
            self.texts.append(el.markdown.body)
        elif kind == "html":
            self.texts.append(el.html.body)


async def one_cycle(url: str, stats: Stats, run_timeout: float) -> None:
    """Open Paste and see, then the stepper, then press Next five times, on a fresh session."""
    import websockets

    ws_url = url.replace("http://", "ws://") + "/_stcore/stream"
    async with websockets.connect(ws_url, subprotocols=["streamlit"], origin=url, max_size=2**26,
                                  open_timeout=run_timeout, ping_interval=None) as ws:
        s = Session(ws, stats, run_timeout)
        await s.rerun("")  # the home page: Paste and see
        await s.rerun("stepper")
        merge = _merge_shown(s.texts)
        for _ in range(STEPS):
            await s.rerun("stepper", triggers=("step_next",))
            now = _merge_shown(s.texts)
            if now is None or (merge is not None and now != merge + 1):
                stats.errors.append(f"stepper: Next went from merge {merge} to {now}")
            merge = now
    stats.cycles += 1


def _merge_shown(texts: list[str]) -> int | None:
    """The merge the stepper's watch line shows ("Start" is 0, "Merge 3 of 10" is 3), or None."""
    import re

    for t in texts:
        if "tl-watch" not in t:
            continue
        plain = re.sub(r"<[^>]+>", "", t)
        m = re.search(r"Merge (\d+) of", plain)
        if m:
            return int(m.group(1))
        if plain.lstrip().startswith("Start"):
            return 0
    return None


async def student(url: str, stats: Stats, run_timeout: float, until: float, first_only: bool = False) -> None:
    while True:
        try:
            await one_cycle(url, stats, run_timeout)
        except Exception as exc:  # noqa: BLE001 - a failed session is an error to report, not a crash
            stats.errors.append(f"session failed: {type(exc).__name__}: {exc}"[:300])
        if first_only or time.time() >= until:
            return


def _client_cpu() -> float:
    """CPU seconds of this client process (to show it is not the bottleneck)."""
    t = os.times()
    return t.user + t.system


def server_pid(port: int) -> int:
    import psutil

    for p in psutil.process_iter(["cmdline"]):
        cmd = p.info["cmdline"] or []
        if "streamlit" in " ".join(cmd) and str(port) in cmd:
            return p.pid
    raise RuntimeError(f"no streamlit process on port {port}")


def cpu_seconds(pid: int) -> float:
    import psutil

    t = psutil.Process(pid).cpu_times()
    return t.user + t.system + t.children_user + t.children_system


def rss_mb(pid: int) -> float:
    import psutil

    return psutil.Process(pid).memory_info().rss / 2**20


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))] if xs else float("nan")


async def main_async(args: argparse.Namespace) -> dict:
    from tests.conftest import run_streamlit

    out = REPO / "test-output"
    out.mkdir(exist_ok=True)
    with run_streamlit(out / "load-server.log") as url:
        port = int(url.rsplit(":", 1)[1])
        pid = server_pid(port)
        # warm-up: one session, so first-use loading is not counted as load
        warm = Stats()
        await student(url, warm, args.run_timeout, 0, first_only=True)
        rss_warm = rss_mb(pid)
        # the burst: N sessions at once, one cycle each
        client0 = _client_cpu()
        burst = Stats()
        cpu0, t0 = cpu_seconds(pid), time.perf_counter()
        await asyncio.gather(*(student(url, burst, args.run_timeout, 0, first_only=True)
                               for _ in range(args.sessions)))
        burst_cpu, burst_wall = cpu_seconds(pid) - cpu0, time.perf_counter() - t0
        # the soak: N sessions repeating cycles for the soak time; RSS sampled
        soak = Stats()
        samples: list[tuple[float, float]] = []
        until = time.time() + args.soak_minutes * 60
        cpu1, t1 = cpu_seconds(pid), time.perf_counter()

        async def sampler() -> None:
            while time.time() < until:
                samples.append((time.perf_counter() - t1, rss_mb(pid)))
                await asyncio.sleep(args.sample_s)

        await asyncio.gather(sampler(), *(student(url, soak, args.run_timeout, until)
                                          for _ in range(args.sessions)))
        samples.append((time.perf_counter() - t1, rss_mb(pid)))
        soak_cpu = cpu_seconds(pid) - cpu1
        client_cpu = _client_cpu() - client0
        server_cpu = cpu_seconds(pid) - cpu0
        load = os.getloadavg()
    half = [s for s in samples if s[0] >= samples[-1][0] / 2]
    slope = (statistics.linear_regression([t for t, _ in half], [r for _, r in half]).slope * 60
             if len(half) >= 3 else float("nan"))
    return {
        "sessions": args.sessions,
        "soak_minutes": args.soak_minutes,
        "load_average_at_end": [round(x, 2) for x in load],
        "cores": os.cpu_count(),
        "client_cpu_s": round(client_cpu, 1), "server_cpu_s": round(server_cpu, 1),
        "warmup": {"views": warm.views, "errors": warm.errors[:5], "rss_mb": round(rss_warm, 1)},
        "burst": {"views": burst.views, "cycles": burst.cycles, "errors": len(burst.errors),
                  "error_examples": burst.errors[:5], "server_cpu_s_per_view": round(burst_cpu / max(1, burst.views), 3),
                  "wall_s": round(burst_wall, 1), "p50_run_s": round(pct(burst.run_times, 0.5), 3),
                  "p95_run_s": round(pct(burst.run_times, 0.95), 3)},
        "soak": {"views": soak.views, "cycles": soak.cycles, "errors": len(soak.errors),
                 "error_examples": soak.errors[:5], "server_cpu_s_per_view": round(soak_cpu / max(1, soak.views), 3),
                 "p50_run_s": round(pct(soak.run_times, 0.5), 3), "p95_run_s": round(pct(soak.run_times, 0.95), 3),
                 "rss_mb_first": round(samples[0][1], 1), "rss_mb_max": round(max(r for _, r in samples), 1),
                 "rss_mb_last": round(samples[-1][1], 1),
                 "rss_mb_per_min_second_half": round(slope, 2),
                 "rss_samples": [(round(t), round(r)) for t, r in samples]},
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sessions", type=int, default=30)
    ap.add_argument("--soak-minutes", type=float, default=10.0)
    ap.add_argument("--sample-s", type=float, default=5.0)
    ap.add_argument("--run-timeout", type=float, default=120.0, help="seconds one script run may take")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args(argv)
    result = asyncio.run(main_async(args))
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    ok = result["burst"]["errors"] == 0 and result["soak"]["errors"] == 0
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
