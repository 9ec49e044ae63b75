"""The checkpoint shelf on first use: each entry's cold load, and Compare with 8 shelf tokenizers in Chromium.

Everything runs against a private copy of the shelf (links to the installed
files, its own ``packed/`` folder), so the packs built here never replace
those another checkout uses, and the conversion is timed too.

1. **Conversion once** (``zoo.prepare``, what ``zoo install`` runs): the
   packs of every installed pretrained entry, built from the sources.
2. **Cold load per entry**, each in a fresh process, *before* (packs off:
   ``TOKENIZER_LAB_PACKS=0``, the adapter built from its source file) and
   *after* (from its pack), alternating per entry: wall and CPU seconds of
   ``zoo.load`` and the peak resident memory it adds (``VmHWM`` after the load
   minus ``VmRSS`` before, the peak reset first through ``/proc/self/clear_refs``).
   The backend libraries are imported before the clock starts (their import is
   the same on both paths; reported apart). Both paths must give the same ids
   on a five-language sentence. Goals: every entry <= 1.5 s and <= +250 MB.
3. **Compare with 8 shelf tokenizers in Chromium** (a link naming them, the
   default Bangla sentence): for each server setting, a freshly started
   ``streamlit run`` server whose *first request* is that link, timed from
   ``goto`` until fully drawn (``bench/browser_speed.py``'s test: Streamlit
   idle, no skeleton left, held 300 ms), then the same link again in fresh
   browser contexts once the server has warmed up (median of ``--runs``).
   Goals: <= 5 s after the start, <= 3 s after warm-up; the first paint of
   that first request (the app's own title and navigation) <= 3 s.
4. **The background warm-up**: a second fresh server per setting; Home is
   opened first (its first paint, fully drawn, shows whether the warm-up
   delays it), then after a 3 s look at it, Compare with its default
   tokenizers, timed the same way.

Server settings: ``before`` (packs off, no warm-up), ``packs`` (packs, no
warm-up), ``after`` (packs and warm-up). Ratios are after/before of the same run.

Each setting is timed on a quiet machine and again while a second process keeps one core busy (``--loads
quiet,busy``; a teacher's laptop is rarely idle): the busy results are under ``<setting>+busy``. The servers
start exactly as the README's command starts them (``python -m streamlit run app.py``, no extra flags).

    python bench/shelf.py                                  # everything (about 6 minutes on 2 cores)
    python bench/shelf.py --entries gemma4,command-r --settings before,after --runs 3

Writes ``bench/out/shelf.json``. Needs ``python -m core zoo install`` first, /usr/bin/chromium and playwright.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.pretrained import zoo
from core.pretrained.locate import is_available, shelf_dir

#: The Compare link of the timing: eight shelf tokenizers, the biggest vocabularies among them.
EIGHT = ["gemma4", "o200k_base", "deepseek-v3", "qwen", "cl100k_base", "xlm-r", "command-r", "whisper"]
#: A sentence in the five interface languages' scripts: both load paths must give the same ids on it.
CHECK_TEXT = "বাজারে যাব। बाज़ार जाऊँगा। به بازار می‌روم. Bozorga boraman. I'll go to the market."
GOAL_LOAD_S, GOAL_LOAD_MB = 1.5, 250.0
GOAL_FRESH_S, GOAL_WARM_S = 5.0, 3.0
#: Whatever page a link opens first on a fresh server, its first paint is the app's own within this.
GOAL_FIRST_PAINT_S = 3.0
#: name -> (TOKENIZER_LAB_PACKS, TOKENIZER_LAB_WARMUP)
SETTINGS = {"before": ("0", "0"), "packs": ("1", "0"), "after": ("1", "1")}
#: Seconds a reader looks at Home before opening Compare (the warm-up's head start).
LOOK_S = 3.0

_LOAD = """
import json, sys, time
def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key + ":"):
            return int(line.split()[1]) * 1024
sys.path.insert(0, {root!r})
t0 = time.perf_counter()
from core.pretrained import zoo
zoo.discover_adapters()  # the backend libraries: imported on both paths alike
import_s = time.perf_counter() - t0
try:  # reset the peak so VmHWM below is the load's own (5: "reset the peak resident set size")
    with open("/proc/self/clear_refs", "w") as fh:
        fh.write("5")
except OSError:
    pass
before = status("VmRSS"); t0 = time.perf_counter(); c0 = time.process_time()
tok = zoo.load({tid!r})
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
print(json.dumps({{"wall_s": wall, "cpu_s": cpu, "peak_added_mb": (status("VmHWM") - before) / 2**20,
                  "import_s": import_s, "ids": tok.encode_ids({text!r})}}))
"""


@contextlib.contextmanager
def environ(**values: str) -> Iterator[None]:
    """Set environment variables for the block (children and servers started in it inherit them)."""
    old = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@contextlib.contextmanager
def private_shelf() -> Iterator[Path]:
    """A shelf directory linking to every installed file of the real one, with an empty ``packed/``."""
    real = shelf_dir()
    tmp = Path(tempfile.mkdtemp(prefix="tl-shelf-"))
    for item in real.iterdir():
        if item.name != "packed":
            (tmp / item.name).symlink_to(item)
    try:
        with environ(TOKENIZER_LAB_SHELF=str(tmp)):
            yield tmp
    finally:
        subprocess.run(["rm", "-rf", str(tmp)], check=False)


def child(code: str, **env: str) -> dict:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, **env})
    if out.returncode:
        raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr.strip() else f"exit {out.returncode}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def convert_once(ids: list[str]) -> dict:
    code = (f"import json, sys, time; sys.path.insert(0, {str(ROOT)!r}); from core.pretrained import zoo\n"
            f"t0 = time.perf_counter(); done = zoo.prepare({ids!r})\n"
            "print(json.dumps({'seconds': time.perf_counter() - t0, 'packed': len(done)}))")
    return child(code)


def cold_loads(ids: list[str]) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for tid in ids:
        code = _LOAD.format(root=str(ROOT), tid=tid, text=CHECK_TEXT)
        before = child(code, TOKENIZER_LAB_PACKS="0")
        after = child(code, TOKENIZER_LAB_PACKS="1")
        same = before.pop("ids") == after.pop("ids")
        out[tid] = {"before": before, "after": after, "same_ids": same,
                    "wall_ratio": after["wall_s"] / before["wall_s"],
                    "goal_met": after["wall_s"] <= GOAL_LOAD_S and after["peak_added_mb"] <= GOAL_LOAD_MB}
        print(f"{tid:22s} before {before['wall_s']:5.2f} s {before['peak_added_mb']:6.0f} MB   "
              f"after {after['wall_s']:5.2f} s (cpu {after['cpu_s']:4.2f}) {after['peak_added_mb']:6.0f} MB   "
              f"{out[tid]['wall_ratio']:4.2f}x  {'ok' if out[tid]['goal_met'] else 'MISSED'}"
              f"{'' if same else '  IDS DIFFER'}", flush=True)
    return out


def open_fresh(chromium, url: str) -> tuple[float, float]:
    """A server's first request: seconds until its first paint (the app's own title and navigation, recorded in the
    page from the first byte on, as ``tests/test_first_paint_browser.py`` records it) and until fully drawn."""
    from bench.browser_speed import wait_drawn
    from tests.test_first_paint_browser import RECORD_JS

    ctx = chromium.new_context(viewport={"width": 1400, "height": 1000})
    try:
        ctx.add_init_script(RECORD_JS)
        page = ctx.new_page()
        t0 = time.perf_counter()
        page.goto(url)
        drawn = time.perf_counter() - t0 + wait_drawn(page)
        seen = page.evaluate("() => window.__tlSeen")
    finally:
        ctx.close()
    painted = [s["t"] / 1000 for s in seen if s["h1"] and s["nav"]]
    return (painted[0] if painted else float("nan")), drawn


@contextlib.contextmanager
def busy_core(on: bool) -> Iterator[None]:
    """A second process spinning on one core while the block runs (nothing when ``on`` is False)."""
    if not on:
        yield
        return
    spin = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        spin.kill()
        spin.wait()


def browser(settings: list[str], runs: int, loads: list[str] | None = None) -> dict[str, dict]:
    from playwright.sync_api import sync_playwright

    from bench.browser_speed import open_cold
    from tests.conftest import CHROMIUM, CHROMIUM_ARGS, run_streamlit

    out_dir = ROOT / "bench" / "out"
    out_dir.mkdir(parents=True, exist_ok=True)  # a fresh clone has no bench/out yet
    eight = "/compare?tok=" + ",".join(EIGHT)
    results: dict[str, dict] = {}
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name, load in [(n, ld) for ld in (loads or ["quiet"]) for n in settings]:
            packs_on, warm_on = SETTINGS[name]
            r: dict = {}
            name = name if load == "quiet" else f"{name}+{load}"
            with environ(TOKENIZER_LAB_PACKS=packs_on, TOKENIZER_LAB_WARMUP=warm_on), busy_core(load == "busy"):
                with run_streamlit(out_dir / f"shelf-{name}-eight.log") as base:
                    r["first_paint_s"], r["compare8_fresh_s"] = open_fresh(chromium, base + eight)
                    warm = [open_cold(chromium, base + eight) for _ in range(runs)]
                    r["compare8_warm_s"] = statistics.median(warm)
                    r["compare8_warm_runs"] = [round(x, 3) for x in warm]
                with run_streamlit(out_dir / f"shelf-{name}-home.log") as base:
                    r["home_fresh_s"] = open_cold(chromium, base + "/")
                    time.sleep(LOOK_S)
                    r["compare_default_after_home_s"] = open_cold(chromium, base + "/compare")
            results[name] = r
            print(f"{name:7s} first paint {r['first_paint_s']:5.2f} s, "
                  f"compare-8 fresh {r['compare8_fresh_s']:5.2f} s, warm {r['compare8_warm_s']:5.2f} s; "
                  f"home fresh {r['home_fresh_s']:5.2f} s, then compare default {r['compare_default_after_home_s']:5.2f} s",
                  flush=True)
        chromium.close()
    return results


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--entries", default="", help="comma-separated entry ids (default: every installed pretrained one)")
    ap.add_argument("--settings", default=",".join(SETTINGS), help=f"server settings to time ({', '.join(SETTINGS)})")
    ap.add_argument("--runs", type=int, default=3, help="warm runs of the Compare link per setting")
    ap.add_argument("--no-browser", action="store_true")
    ap.add_argument("--loads", default="quiet,busy", help="quiet, busy (one core kept busy by a second process), or both")
    ap.add_argument("--no-loads", action="store_true", help="skip the conversion and cold loads (browser timings only)")
    args = ap.parse_args()
    ids = [i for i in args.entries.split(",") if i] or [e.id for e in zoo.ENTRIES.values() if not e.built_in and is_available(e)]
    settings = [s for s in args.settings.split(",") if s in SETTINGS]
    result: dict = {"cpus": os.cpu_count(), "load_before": os.getloadavg()[0], "entries": ids, "eight": EIGHT}
    with private_shelf():
        result["convert_once"] = convert_once(sorted(set(ids) | set(EIGHT)))
        print(f"conversion once: {result['convert_once']['packed']} packs in {result['convert_once']['seconds']:.1f} s",
              flush=True)
        result["cold_load"] = loads = {} if args.no_loads else cold_loads(ids)
        if not args.no_browser:
            result["browser"] = browser(settings, args.runs, [x for x in args.loads.split(",") if x in ("quiet", "busy")])
    result["load_after"] = os.getloadavg()[0]
    b = result.get("browser", {})
    for name, r in b.items():
        if name.startswith("after"):
            print(f"{name:11s} first paint {r['first_paint_s']:5.2f} s (goal <= {GOAL_FIRST_PAINT_S} s), compare-8 as the "
                  f"first request fully drawn {r['compare8_fresh_s']:5.2f} s (goal <= {GOAL_FRESH_S} s)")
    if not loads:
        return _write(result)
    worst = max(loads, key=lambda t: loads[t]["after"]["wall_s"])
    heaviest = max(loads, key=lambda t: loads[t]["after"]["peak_added_mb"])
    print(f"\nslowest after: {worst} {loads[worst]['after']['wall_s']:.2f} s (goal {GOAL_LOAD_S} s); "
          f"heaviest after: {heaviest} +{loads[heaviest]['after']['peak_added_mb']:.0f} MB (goal {GOAL_LOAD_MB:.0f} MB); "
          f"{sum(v['goal_met'] for v in loads.values())} of {len(loads)} entries meet both; "
          f"ids identical on both paths: {all(v['same_ids'] for v in loads.values())}")
    if "before" in b and "after" in b:
        for key, goal in (("first_paint_s", GOAL_FIRST_PAINT_S), ("compare8_fresh_s", GOAL_FRESH_S), ("compare8_warm_s", GOAL_WARM_S),
                          ("home_fresh_s", None), ("compare_default_after_home_s", None)):
            ratio = b["after"][key] / b["before"][key]
            print(f"{key:30s} before {b['before'][key]:6.2f} s  after {b['after'][key]:6.2f} s  after/before {ratio:4.2f}"
                  + (f"  goal <= {goal} s: {'met' if b['after'][key] <= goal else 'MISSED'}" if goal else ""))
    return _write(result)


def _write(result: dict) -> int:
    print(f"machine load {result['load_before']:.1f} -> {result['load_after']:.1f} on {result['cpus']} CPUs")
    out = ROOT / "bench" / "out" / "shelf.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
