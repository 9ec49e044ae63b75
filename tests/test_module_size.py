"""Modules stay small: no module of ``core/`` over 600 lines, no page (``pages/*.py``) over 400.

A module that grows past its budget is split into a package of one idea each (as ``core/render/`` and
``core/analysis/vocab/`` were). An exception is listed in :data:`EXCEPTIONS` with its reason; an exception that
is no longer needed fails too, so the list only shrinks.
"""
from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

#: Most lines of a module of the engine.
CORE_BUDGET = 600
#: Most lines of a page (pages/_*.py helpers included).
PAGE_BUDGET = 400

#: File (relative to the repository) -> why it may be over its budget for now.
EXCEPTIONS: dict[str, str] = {
}


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def budgets(root: Path) -> dict[str, int]:
    """Every module the budget covers, relative path -> its budget."""
    out = {p.relative_to(root).as_posix(): CORE_BUDGET for p in root.glob("core/**/*.py")}
    out.update({p.relative_to(root).as_posix(): PAGE_BUDGET for p in root.glob("pages/*.py")})
    return out


def over_budget(root: Path) -> dict[str, int]:
    """Modules over their budget (exceptions included), path -> line count."""
    return {rel: n for rel, budget in budgets(root).items() if (n := lines(root / rel)) > budget}


def test_the_budget_covers_the_engine_and_the_pages():
    found = budgets(REPO)
    assert sum(rel.startswith("core/") for rel in found) > 50 and sum(rel.startswith("pages/") for rel in found) > 15


def test_no_module_over_its_budget():
    over = {rel: n for rel, n in over_budget(REPO).items() if rel not in EXCEPTIONS}
    assert not over, f"split these into packages of one idea each (budget: core {CORE_BUDGET}, pages {PAGE_BUDGET}): {over}"


@pytest.mark.parametrize("rel", sorted(EXCEPTIONS))
def test_every_exception_is_still_needed_and_says_why(rel):
    assert EXCEPTIONS[rel].strip(), f"{rel}: an exception needs its reason"
    path = REPO / rel
    assert path.is_file(), f"{rel} is gone: drop it from EXCEPTIONS"
    assert lines(path) > budgets(REPO)[rel], f"{rel} is within its budget now: drop it from EXCEPTIONS"


def test_the_checker_counts_lines(tmp_path):
    (tmp_path / "core" / "w").mkdir(parents=True)
    (tmp_path / "pages").mkdir()
    (tmp_path / "core" / "w" / "big.py").write_text("x = 1\n" * (CORE_BUDGET + 1), encoding="utf-8")
    (tmp_path / "core" / "w" / "ok.py").write_text("x = 1\n" * CORE_BUDGET, encoding="utf-8")
    (tmp_path / "pages" / "page.py").write_text("x = 1\n" * (PAGE_BUDGET + 1), encoding="utf-8")
    (tmp_path / "pages" / "small.py").write_text("x = 1\n" * PAGE_BUDGET, encoding="utf-8")
    assert over_budget(tmp_path) == {"core/w/big.py": CORE_BUDGET + 1, "pages/page.py": PAGE_BUDGET + 1}
