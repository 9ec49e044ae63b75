"""The layout rule: no import cycle in ``core/`` or ``pages/``, and no wing imports a higher one.

Every ``import`` and ``from ... import`` (also those inside functions) is read
with ``ast``, resolved to a module of this repository, and checked:

- ``text`` <- ``pipeline`` <- ``tokens`` <- ``render`` <- ``models`` <- ``pretrained``
  <- ``analysis`` <- ``cli`` <- ``pages`` <- ``app.py``: a module may import its own
  rank or a lower one, never a higher one;
- the import graph has no cycle;
- ``core/`` never imports Streamlit or ``pages``.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers import write_tree

REPO = Path(__file__).resolve().parents[1]

#: Module prefix -> rank (longest prefix wins). Lower ranks never import higher ones.
RANKS: dict[str, int] = {
    "core.text": 0,
    "core.assets": 0,
    "core.i18n": 0,  # interface languages: imports only core.assets (and babel); every wing may translate
    "core.markdown": 0,  # Markdown escaping: imports only core.i18n; reports and pages both escape with it
    "core.languages": 0,  # the learning languages' table: imports only core.assets and core.i18n; every wing reads it
    "core.pipeline": 1,
    "core.tokens": 2,
    "core.render": 3,
    "core.models": 4,
    "core.pretrained": 5,
    "core.analysis": 6,
    "core.cli": 7,
    "core": 8,  # the package itself and core/__main__.py
    "pages": 9,
    "app": 10,
}


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def rank(module: str) -> int:
    best = max((p for p in RANKS if module == p or module.startswith(p + ".")), key=len)
    return RANKS[best]


def collect(root: Path) -> dict[str, Path]:
    """Every module of ``core/`` and ``pages/`` (and ``app.py``) under ``root``, by dotted name."""
    files = [*root.glob("core/**/*.py"), *root.glob("pages/*.py"), *root.glob("app.py")]
    return {module_name(root, f): f for f in files}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The repository modules that ``name`` (at ``path``) imports, anywhere in the file."""
    is_pkg = path.name == "__init__.py"
    package = name if is_pkg else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".") if package else []
                base_parts = base_parts[: len(base_parts) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            # `from pkg import mod` imports the submodule; `from mod import name` the module.
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in known:  # `import core.text.units` also names core.text.units
                t = t.rpartition(".")[0]
            if t and t != name:
                out.add(t)
    return out


def graph(root: Path) -> dict[str, set[str]]:
    mods = collect(root)
    known = set(mods)
    return {name: imports_of(name, path, known) for name, path in mods.items()}


def upward_imports(g: dict[str, set[str]]) -> list[str]:
    return sorted(f"{a} (rank {rank(a)}) imports {b} (rank {rank(b)})" for a, deps in g.items() for b in deps
                  if rank(b) > rank(a))


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def test_no_wing_imports_a_higher_one():
    g = graph(REPO)
    assert len([m for m in g if m.startswith("core.")]) > 25
    assert upward_imports(g) == []


def test_no_import_cycle():
    assert cycles(graph(REPO)) == []


def test_core_never_imports_streamlit_or_pages():
    for path in REPO.glob("core/**/*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            for n in names:
                assert n.split(".")[0] not in ("streamlit", "pages"), f"{path}: imports {n}"


def test_every_wing_says_what_it_holds_and_must_not_import():
    for wing in ("text", "pipeline", "models", "pretrained", "analysis", "cli"):
        doc = ast.get_docstring(ast.parse((REPO / "core" / wing / "__init__.py").read_text(encoding="utf-8")))
        assert doc and "import" in doc.lower(), wing



@pytest.mark.parametrize(
    "files, upward, cyclic",
    [
        # text imports models inside a function: an upward import
        ({"core/__init__.py": "", "core/text/__init__.py": "", "core/models/__init__.py": "",
          "core/text/units.py": "def f():\n    from ..models import bpe\n", "core/models/bpe/__init__.py": ""}, True, False),
        # two pretrained modules importing each other: a cycle, not upward
        ({"core/__init__.py": "", "core/pretrained/__init__.py": "",
          "core/pretrained/zoo.py": "from .adapter import X\n",
          "core/pretrained/adapter.py": "from . import zoo\n"}, False, True),
        # pages -> core is allowed
        ({"core/__init__.py": "", "core/render/__init__.py": "", "pages/home.py": "from core.render import CSS\n"}, False, False),
    ],
)
def test_the_checker_finds_what_it_should(tmp_path, files, upward, cyclic):
    g = graph(write_tree(tmp_path, files))
    assert bool(upward_imports(g)) is upward
    assert bool(cycles(g)) is cyclic


def test_no_plugin_loading_in_pages_or_cli():
    """The selector and the CLI list their parts with plain imports (no importlib loop), and pages never use the CLI."""
    for path in [*REPO.glob("pages/*.py"), *REPO.glob("core/cli/*.py"), REPO / "app.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                mods = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                mods = [node.module or ""]
            else:
                continue
            for m in mods:
                assert m.split(".")[0] != "importlib", f"{path}: imports {m}"
                assert not (path.parent.name == "pages" and m.startswith("core.cli")), f"{path}: imports {m}"
