"""Per-file test durations from two junit XML files (pytest ``--junitxml``), side by side.

    python bench/test_durations.py BEFORE.xml AFTER.xml [--top 25]
    python bench/test_durations.py --costs RUN.xml      # rewrite tests/durations.json from one full run

Sums the ``time`` of every ``testcase`` by test file (from its ``classname``:
``tests.test_x`` -> ``tests/test_x.py``; doctests keep their module path), and
prints a Markdown table of the ``--top`` files by the larger of the two sums,
with test counts and the total. Only reads the files; it times nothing itself.

``--costs`` writes each file's seconds to ``tests/durations.json``, the order in
which ``tests/conftest.py`` hands whole test files to the two workers (longest
first). Refresh it when a file's share of the run has changed a lot.
"""
from __future__ import annotations

import argparse
import json
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path


def per_file(path: Path) -> dict[str, tuple[float, int]]:
    """``file -> (seconds, test cases)`` of one junit XML."""
    seconds: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    for case in ET.parse(path).getroot().iter("testcase"):
        name = case.get("file") or _file_of(case.get("classname") or "")
        seconds[name] += float(case.get("time") or 0)
        counts[name] += 1
    return {k: (seconds[k], counts[k]) for k in seconds}


def _file_of(classname: str) -> str:
    """``tests.test_x.TestClass`` -> ``tests/test_x.py``; ``core.text.units`` (a doctest) -> ``core/text/units.py``."""
    parts = classname.split(".")
    while parts and parts[-1][:1].isupper():  # a test class, not a module
        parts.pop()
    return "/".join(parts) + ".py" if parts else "?"


def table(before: dict[str, tuple[float, int]], after: dict[str, tuple[float, int]], top: int) -> str:
    files = sorted(set(before) | set(after), key=lambda f: -max(before.get(f, (0, 0))[0], after.get(f, (0, 0))[0]))
    rows = ["| file | before s | tests | after s | tests | change |", "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for f in files[:top]:
        (b, nb), (a, na) = before.get(f, (0.0, 0)), after.get(f, (0.0, 0))
        change = f"{(a - b) / b:+.0%}" if b else "new"
        rows.append(f"| {f} | {b:.1f} | {nb} | {a:.1f} | {na} | {change} |")
    tb = sum(s for s, _ in before.values())
    ta = sum(s for s, _ in after.values())
    nb = sum(n for _, n in before.values())
    na = sum(n for _, n in after.values())
    rows.append(f"| **all {len(set(before) | set(after))} files** | {tb:.1f} | {nb} | {ta:.1f} | {na} | "
                f"{(ta - tb) / tb:+.0%} |" if tb else "")
    return "\n".join(rows)


def costs(run: dict[str, tuple[float, int]]) -> dict[str, float]:
    """``file -> seconds`` (to 0.1 s), longest first: what ``tests/durations.json`` holds."""
    return {f: round(s, 1) for f, (s, _n) in sorted(run.items(), key=lambda kv: -kv[1][0])}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("xml", type=Path, nargs="+", help="BEFORE.xml AFTER.xml, or with --costs one RUN.xml")
    ap.add_argument("--top", type=int, default=25, help="files to list (default 25)")
    ap.add_argument("--costs", action="store_true", help="write tests/durations.json from one run")
    args = ap.parse_args(argv)
    if args.costs:
        out = Path(__file__).resolve().parents[1] / "tests" / "durations.json"
        out.write_text(json.dumps(costs(per_file(args.xml[-1])), indent=0) + "\n", encoding="utf-8")
        print(f"wrote {out}")
        return 0
    if len(args.xml) != 2:
        ap.error("give BEFORE.xml and AFTER.xml")
    print(table(per_file(args.xml[0]), per_file(args.xml[1]), args.top))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
