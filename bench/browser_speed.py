"""How long each page takes to be fully drawn in a real browser, before and after a change.

For two versions of the app (``--old``, a git revision checked out into a temporary
``git worktree``, and the working tree) a ``streamlit run`` server is started for
each on its own port, and Debian's Chromium opens every page of ``app.py``'s
``PAGES`` cold: a fresh browser context (no cache, no session) per run. A run is
timed from ``goto`` until the page is *fully drawn*:

- Streamlit is idle (``data-test-script-state="notRunning"``, no running status),
- no skeleton / placeholder remains (``stSkeleton``, ``stAppSkeleton``,
  ``stSkeletonElement``),
- every plotly chart on the first screen has drawn its SVG (a dataframe's loading state is a skeleton),

and the state has held for 300 ms (the time reported is when it first held).
Then the BPE stepper key press: ``→`` on the stepper, timed until the watch panel
shows the next merge and Streamlit is idle again.

The two servers run side by side and the runs alternate old/new, so both see the
same machine load; the report gives median and max per page and the ratio
new/old of the medians (below 1: faster). Server-side caches are warmed by one
untimed visit per page (what a teacher meets after opening the app once).

    python bench/browser_speed.py                 # old = merge-base with main
    python bench/browser_speed.py --old 132c230 --runs 5 --pages stepper,train,tax
    python bench/browser_speed.py --old none --pages vocabulary --views   # the new server only, plus VIEWS

A page the old revision does not have (a new page) is timed on the new server only, against the 3 s goal.
``--views`` adds :data:`VIEWS`, pages opened with URL parameters that make them do their heavy work (the
Vocabulary page on the 262,144-entry Gemma 4 vocabulary with a Bangla search; Compare with the differences view;
Chat format with five or six templates side by side).

Writes ``bench/out/browser_speed.json``. Needs /usr/bin/chromium and playwright.
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

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.conftest import CHROMIUM, CHROMIUM_ARGS, app_pages, run_streamlit

#: Pages opened with URL parameters (``--views``): what a reader sees after following a link.
VIEWS = (
    "vocabulary?tok=gemma4&query=%E0%A6%B0%E0%A6%BE%E0%A6%9C",  # 262k entries, search "রাজ"
    "vocabulary?tok=o200k_base&id=24912",
    "compare?tok=gemma4,cl100k_base",  # two rows and where they disagree, on the default Bangla sentence
    "tax?tok=cl100k_base,o200k_base,gemma4&focus=bn",  # the measures and the Bangla decomposition (issue 31)
    # Chat format: a conversation typing control tokens through five templates (both tokenizations drawn), and the
    # Persian sample through six
    "chat_format?sample=inj&tpl=llama-3.2,gemma-4,gpt-oss,qwen-3,mistral-nemo",
    "chat_format?sample=fa&tpl=llama-3.1,qwen-2.5,deepseek-v3.1,gemma-4,gpt-oss,mistral-nemo",
)
#: Pages are fully drawn within this many seconds (the goal a new page is held to).
GOAL_S = 3.0

DRAWN_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (!document.querySelector('h1')) return false;
  const status = document.querySelector('[data-testid="stStatusWidget"]');
  if (status && status.offsetParent !== null) return false;
  if (document.querySelector('[data-testid="stSkeleton"], [data-testid="stAppSkeleton"], [data-testid="stSkeletonElement"]'))
    return false;
  // on screen: not in a closed expander/tab and inside the first screen
  const shown = (el) => { const r = el.getBoundingClientRect();
    return el.offsetParent !== null && r.height > 0 && r.top < window.innerHeight; };
  for (const c of document.querySelectorAll('[data-testid="stPlotlyChart"]'))
    if (shown(c) && !c.querySelector('.main-svg')) return false;
  return true;
}"""


STATE_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  const status = document.querySelector('[data-testid="stStatusWidget"]');
  return JSON.stringify({state: app && app.getAttribute('data-test-script-state'), h1: !!document.querySelector('h1'),
    status: !!(status && status.offsetParent !== null),
    skeletons: document.querySelectorAll('[data-testid*="Skeleton"]').length,
    exception: !!document.querySelector('[data-testid="stException"]')});
}"""


def wait_drawn(page, timeout: float = 90.0, hold: float = 0.3) -> float:
    """Seconds since the call until DRAWN_JS held for ``hold`` seconds (the time it first held)."""
    t0 = time.perf_counter()
    since = None
    while time.perf_counter() - t0 < timeout:
        ok = page.evaluate(DRAWN_JS)
        now = time.perf_counter()
        if ok:
            since = now if since is None else since
            if now - since >= hold:
                return since - t0
        else:
            since = None
        page.wait_for_timeout(50)
    raise TimeoutError(f"{page.url} not drawn after {timeout:.0f} s: {page.evaluate(STATE_JS)}")


def open_cold(browser, url: str) -> float:
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        page = ctx.new_page()
        t0 = time.perf_counter()
        page.goto(url)
        return (time.perf_counter() - t0) + wait_drawn(page)
    finally:
        ctx.close()


def key_presses(browser, base: str, presses: int) -> list[float]:
    ctx = browser.new_context(viewport={"width": 1400, "height": 1000})
    times = []
    try:
        page = ctx.new_page()
        page.goto(base + "/stepper?corpus=toy&merges=10&step=0")
        wait_drawn(page)
        for k in range(1, presses + 1):
            page.locator("h1").first.click()
            t0 = time.perf_counter()
            page.keyboard.press("ArrowRight")
            page.wait_for_function(
                "(k) => { const w = document.querySelector('.tl-watch'); return w && w.innerText.includes('Merge ' + k + ' of'); }",
                arg=k, timeout=60_000)
            times.append(time.perf_counter() - t0 + wait_drawn(page, hold=0.2))
    finally:
        ctx.close()
    return times


def summary(xs: list[float]) -> dict[str, float]:
    return {"median": statistics.median(xs), "max": max(xs), "runs": [round(x, 3) for x in xs]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", default=None, help="git revision to compare against (default: merge-base with main)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--pages", default="", help="comma-separated url paths (default: every page)")
    ap.add_argument("--presses", type=int, default=5)
    ap.add_argument("--views", action="store_true", help="also time VIEWS (pages opened with URL parameters)")
    args = ap.parse_args()
    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    no_old = args.old == "none"
    old_rev = "none" if no_old else args.old or subprocess.run(
        ["git", "merge-base", "HEAD", "main"], cwd=REPO, capture_output=True, text=True, check=True).stdout.strip()
    paths = [p for p, _ in app_pages()]
    if args.pages:
        paths = [p for p in args.pages.split(",") if p]
    if args.views:
        paths += list(VIEWS)
    out_dir = REPO / "bench" / "out"
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="tl-old-"))
    old_tree = tmp / "old"
    if not no_old:
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(old_tree), old_rev], cwd=REPO, check=True)

    def on(which: str, path: str) -> bool:
        """Whether that server has the page (a page new in this tree is timed on the new server only)."""
        return which == "new" or (old_tree / "pages" / f"{path.split('?')[0]}.py").exists()

    def url(base: str, path: str) -> str:
        return f"{base}/{'' if path == 'home' else path}"

    results: dict[str, dict[str, dict]] = {"old": {}, "new": {}}
    try:
        with (contextlib.nullcontext(None) if no_old else run_streamlit(out_dir / "speed-old.log", old_tree)) as old_base, \
                run_streamlit(out_dir / "speed-new.log", REPO) as new_base, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            bases = {"new": new_base} if no_old else {"old": old_base, "new": new_base}
            for path in paths:  # warm the server caches once per page (untimed)
                for which, base in bases.items():
                    if on(which, path):
                        t = open_cold(browser, url(base, path))
                        print(f"warm-up {which} {path}: {t:.1f} s", flush=True)
            raw: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}}
            for path in paths:
                for _ in range(args.runs):
                    for which, base in bases.items():
                        if on(which, path):
                            raw[which].setdefault(path, []).append(open_cold(browser, url(base, path)))
                old_s = f"{statistics.median(raw['old'][path]):6.2f} s" if path in raw["old"] else "     -  "
                print(f"{path:16s} old {old_s}   new {statistics.median(raw['new'][path]):6.2f} s", flush=True)
            if "stepper" in paths:
                for which, base in bases.items():
                    raw[which]["stepper key press"] = key_presses(browser, base, args.presses)
            browser.close()
    finally:
        if not no_old:
            subprocess.run(["git", "worktree", "remove", "--force", str(old_tree)], cwd=REPO, check=False)
    for which in raw:
        results[which] = {k: summary(v) for k, v in raw[which].items()}
    print(f"\nold = {old_rev[:10]}, new = working tree; {args.runs} cold runs per page "
          f"(fresh browser context each), {os.cpu_count()} CPUs; shared machine: load {os.getloadavg()[0]:.1f}")
    print(f"{'page':20s} {'old median':>10s} {'old max':>8s} {'new median':>10s} {'new max':>8s} {'new/old':>8s} "
          f"{'<= 3 s':>6s}")
    for key in results["new"]:
        n = results["new"][key]
        o = results["old"].get(key)
        ratio = f"{n['median'] / o['median']:8.2f}" if o else f"{'-':>8s}"
        olds = f"{o['median']:10.2f} {o['max']:8.2f}" if o else f"{'-':>10s} {'-':>8s}"
        goal = "yes" if n["max"] <= GOAL_S else "no"
        print(f"{key:20s} {olds} {n['median']:10.2f} {n['max']:8.2f} {ratio} {goal:>6s}")
    (out_dir / "browser_speed.json").write_text(json.dumps({"old": old_rev, **results}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
