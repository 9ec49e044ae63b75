"""``core`` never reads an ambient interface language.

A core function that writes words either returns :class:`core.i18n.Message` objects (a page localizes them) or
takes ``lang`` (and ``digits``) as arguments and translates with ``translator(lang)``. It never asks
:mod:`core.i18n` for "the current language" (``current()``, ``use_lang``, ``activate``, the module-level ``_`` /
``ngettext``, or ``localize`` / ``quote`` / ``Message.translated`` without saying which language): a memoised
function whose output followed the ambient language but whose cache key did not once kept English chip tooltips
for a Bangla reader. With the language in the signature, every cache is keyed on it.

``core/i18n.py`` (it defines the ambient translator) and ``core/cli/`` (``--lang`` is set up at the CLI's outer
edge) are exempt.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Functions of core.i18n that read (or set) the ambient language whenever they are called.
AMBIENT = {"current", "use_lang", "activate", "_", "ngettext"}
#: Functions of core.i18n that read it when the language argument is left out: name -> arguments needed.
AMBIENT_BY_DEFAULT = {"localize": 2, "quote": 2}

EXEMPT = {"core/i18n.py"}
EXEMPT_DIRS = ("core/cli/",)
#: Modules still reading the ambient language, with what they may still call (none: keep it so).
SEAMS: dict[str, set[str]] = {}
BRIDGES: dict[str, set[str]] = {}
ALLOWED = SEAMS | BRIDGES


def ambient_calls(source: str, filename: str = "<src>") -> list[tuple[str, str]]:
    """``(where, name)`` for every call in ``source`` that reads or sets the ambient interface language."""
    tree = ast.parse(source, filename)
    from_i18n: set[str] = set()  # local names bound to core.i18n's functions
    modules: set[str] = set()  # local names bound to the core.i18n module
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] == "i18n":
            from_i18n |= {a.asname or a.name for a in node.names if a.name in AMBIENT | set(AMBIENT_BY_DEFAULT)}
        elif isinstance(node, ast.ImportFrom) and any(a.name == "i18n" for a in node.names):
            modules |= {a.asname or a.name for a in node.names if a.name == "i18n"}
        elif isinstance(node, ast.Import):
            modules |= {a.asname or a.name for a in node.names if a.name.endswith("i18n")}
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        name = None
        if isinstance(f, ast.Name) and f.id in from_i18n:
            name = f.id
        elif isinstance(f, ast.Attribute) and ast.unparse(f.value) in modules and f.attr in AMBIENT | set(
                AMBIENT_BY_DEFAULT):
            name = f.attr
        elif isinstance(f, ast.Attribute) and f.attr == "translated" and not node.args and not node.keywords:
            name = "translated"
        if name is None:
            continue
        n_args = len(node.args) + len(node.keywords)
        if name in AMBIENT or name == "translated" or n_args < AMBIENT_BY_DEFAULT.get(name, 0):
            found.append((f"{filename}:{node.lineno}", name))
    return found


def test_checker_catches_ambient_reads():
    bad = [
        "from ..i18n import current\ncurrent().lang",
        "from ..i18n import _\n_('x')",
        "from core.i18n import ngettext\nngettext('a', 'b', 2)",
        "from ..i18n import use_lang\nwith use_lang('bn'):\n    pass",
        "from ..i18n import activate\nactivate('fa')",
        "from ..i18n import localize\nlocalize(exc)",
        "from ..i18n import quote\nquote('x')",
        "from .. import i18n\ni18n.current()",
        "import core.i18n\ncore.i18n._('x')",
        "msg.translated()",
    ]
    for src in bad:
        assert ambient_calls(src), src
    good = [
        "from ..i18n import translator\n_ = translator(lang).gettext\n_('x')",
        "from ..i18n import localize\nlocalize(exc, t)",
        "from ..i18n import quote\nquote('x', lang)",
        "from ..i18n import T_\nT_('{n} rows', n=n)",
        "msg.translated(t)",
        "def f(tx):\n    ngettext = tx.ngettext\n    return ngettext('a', 'b', 2)",
    ]
    for src in good:
        assert not ambient_calls(src), src


FILES = sorted(p for p in (ROOT / "core").rglob("*.py")
               if p.relative_to(ROOT).as_posix() not in EXEMPT
               and not p.relative_to(ROOT).as_posix().startswith(EXEMPT_DIRS))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_core_never_reads_the_ambient_language(path: Path):
    rel = path.relative_to(ROOT).as_posix()
    found = [(where, name) for where, name in ambient_calls(path.read_text(encoding="utf-8"), rel)
             if name not in ALLOWED.get(rel, set())]
    assert not found, ("core reads the ambient interface language (take lang, or return a Message):\n"
                       + "\n".join(f"{where}: {name}" for where, name in found))


def test_bridges_are_still_needed():
    """A bridge that no longer sets the language is dropped from :data:`BRIDGES`, not kept by habit."""
    for rel, names in BRIDGES.items():
        path = ROOT / rel
        assert path.exists(), rel
        used = {name for _, name in ambient_calls(path.read_text(encoding="utf-8"), rel)}
        assert used & names, f"{rel} no longer reads the ambient language: drop it from BRIDGES"
