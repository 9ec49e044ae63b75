"""The backend seam: only the adapters know which backend they are.

Read with ``ast`` over ``core/``, ``pages/`` and ``app.py`` (like the layout
rule in ``tests/test_layout.py``):

- (a) no ``isinstance``/``issubclass`` test against an adapter class
  (``PretrainedTokenizer`` or any class defined in ``core/pretrained/*_adapter.py``),
  a replay engine's record (a class of ``core/pretrained/replay/`` other than
  the shared ``records.py``) or a class of a tokenizer library (``tokenizers``,
  ``tiktoken``, ``sentencepiece``) outside the adapter modules: callers
  ask the adapter (``tok.explain_layers()``, ``tok.replay()``,
  ``tok.special_probes()``, ``library_view(obj)``...) instead of switching on its kind;
- (c) no dispatch on a backend's ``family`` label outside the adapter modules: no
  comparison with ``x.family``, no subscript or ``.get`` keyed by it (a dict of
  builders per family);
- (b) no read of another module's private attribute: ``expr._name`` (one
  leading underscore, not a dunder) where ``expr`` is not ``self``/``cls``
  and ``_name`` is not defined in the same file (a class there assigns or
  defines it, or it is a module-level name there). A private name of an
  imported module counts too (``mod._helper``).

The few reads that stay are in :data:`ALLOWED`, each with its reason.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.helpers import write_tree

REPO = Path(__file__).resolve().parents[1]

#: (path prefix relative to the repository, ``expr._name`` as written) -> why it may stay.
ALLOWED: dict[tuple[str, str], str] = {
    ("core/cli/", "argparse._SubParsersAction"):
        "argparse has no public name for the type add_subparsers() returns; each CLI group's register() is annotated "
        "with it",
}

#: Private names that are a public API of the standard library (namedtuple's methods, ``sys._getframe``).
PUBLIC_UNDERSCORE = frozenset({"_replace", "_asdict", "_fields", "_make", "_field_defaults"})


def sources(root: Path) -> list[Path]:
    files = sorted((root / "core").rglob("*.py")) + sorted((root / "pages").rglob("*.py"))
    app = root / "app.py"
    return files + ([app] if app.exists() else [])


def is_adapter_module(root: Path, path: Path) -> bool:
    rel = path.relative_to(root).as_posix()
    return rel == "core/pretrained/adapter.py" or (rel.startswith("core/pretrained/") and rel.endswith("_adapter.py"))


def adapter_classes(root: Path) -> set[str]:
    """Names of the adapter classes: ``PretrainedTokenizer`` and every class of a ``*_adapter.py`` module
    (the data records ``adapter.py`` hands out, such as :class:`NormalizerInfo`, may be tested)."""
    out: set[str] = {"PretrainedTokenizer"}
    for path in sources(root):
        if is_adapter_module(root, path) and path.name != "adapter.py":
            tree = ast.parse(path.read_text(encoding="utf-8"))
            out |= {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    return out


#: The tokenizer libraries whose classes only the adapter modules may test.
LIBRARIES = frozenset({"tokenizers", "tiktoken", "sentencepiece"})


def replay_record_classes(root: Path) -> set[str]:
    """Classes of the replay engines (``core/pretrained/replay/*.py`` but the shared ``records.py``)."""
    out: set[str] = set()
    for path in sorted((root / "core" / "pretrained" / "replay").glob("*.py")):
        if path.name not in ("records.py", "__init__.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            out |= {n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    return out


def library_names(tree: ast.Module) -> tuple[set[str], set[str]]:
    """(classes imported from a tokenizer library, names a library module is bound to) in one file."""
    classes: set[str] = set()
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] in LIBRARIES:
            classes |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.Import):
            modules |= {a.asname or a.name.split(".")[0] for a in node.names if a.name.split(".")[0] in LIBRARIES}
    return classes, modules


def _switched(node: ast.expr, names: set[str], modules: set[str]) -> list[str]:
    """The forbidden classes named in the second argument of isinstance (a name, ``mod.Name`` or a tuple)."""
    if isinstance(node, ast.Tuple):
        return [n for e in node.elts for n in _switched(e, names, modules)]
    if isinstance(node, ast.Name):
        return [node.id] if node.id in names else []
    if isinstance(node, ast.Attribute):
        root = node
        while isinstance(root, ast.Attribute):
            root = root.value  # type: ignore[assignment]
        if isinstance(root, ast.Name) and root.id in modules:
            return [ast.unparse(node)]
        return [node.attr] if node.attr in names else []
    return []


def class_switches(root: Path) -> list[str]:
    """Every ``isinstance(x, C)`` / ``issubclass(x, C)`` with C an adapter class, a replay engine's record or a
    tokenizer library's class, outside the adapter modules."""
    classes = adapter_classes(root) | replay_record_classes(root)
    found = []
    for path in sources(root):
        if is_adapter_module(root, path):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        lib_classes, lib_modules = library_names(tree)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("isinstance", "issubclass") and len(node.args) == 2):
                for name in _switched(node.args[1], classes | lib_classes, lib_modules):
                    found.append(f"{path.relative_to(root).as_posix()}:{node.lineno}: {node.func.id}(..., {name})")
    return found


def _is_family(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "family"


def family_dispatch(root: Path) -> list[str]:
    """Every comparison with ``x.family`` and every subscript or ``.get`` keyed by it, outside the adapter modules."""
    found = []
    for path in sources(root):
        if is_adapter_module(root, path):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            hit = (
                (isinstance(node, ast.Compare) and any(_is_family(x) for x in [node.left, *node.comparators]))
                or (isinstance(node, ast.Subscript) and any(_is_family(x) for x in ast.walk(node.slice)))
                or (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
                    and node.args and _is_family(node.args[0]))
                or (isinstance(node, ast.Match) and _is_family(node.subject))
            )
            if hit:
                found.append(f"{path.relative_to(root).as_posix()}:{getattr(node, 'lineno', 0)}: {ast.unparse(node)[:80]}")
    return found


def own_private_names(tree: ast.Module) -> set[str]:
    """Private names this file defines: module-level names, class members, and ``self._x = ...`` assignments."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
        elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
              and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            out.add(node.attr)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out.add(node.target.id)
    return {n for n in out if n.startswith("_") and not n.startswith("__")}


def private_reads(root: Path) -> list[str]:
    """Every ``expr._name`` read of a name the file does not define itself, minus :data:`ALLOWED`."""
    found = []
    for path in sources(root):
        rel = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        own = own_private_names(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute):
                continue
            attr = node.attr
            if not attr.startswith("_") or attr.startswith("__") or attr in PUBLIC_UNDERSCORE:
                continue
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue
            if attr in own:
                continue
            text = ast.unparse(node)
            if any(rel.startswith(prefix) and text == allowed for prefix, allowed in ALLOWED):
                continue
            found.append(f"{rel}:{node.lineno}: {text}")
    return found


def test_no_module_switches_on_an_adapter_class():
    assert class_switches(REPO) == []


def test_no_module_dispatches_on_a_backend_family():
    assert family_dispatch(REPO) == []


def test_no_module_reads_another_modules_private_attribute():
    assert private_reads(REPO) == []


def test_every_allowed_read_is_still_there():
    """An allow-list entry whose read is gone is removed (so the list stays the list of exceptions)."""
    for prefix, text in ALLOWED:
        trees = [ast.parse(p.read_text(encoding="utf-8")) for p in sources(REPO)
                 if p.relative_to(REPO).as_posix().startswith(prefix)]
        assert any(isinstance(n, ast.Attribute) and ast.unparse(n) == text for t in trees for n in ast.walk(t)), text



@pytest.mark.parametrize(
    "files, switches, reads",
    [
        # an analysis module switching on an adapter class, and reading its private engine
        ({"core/pretrained/hf_adapter.py": "class HFTokenizer:\n    def __init__(self):\n        self._tok = 1\n",
          "core/analysis/inspect.py": "from ..pretrained.hf_adapter import HFTokenizer\n"
                                      "def f(tok):\n    return isinstance(tok, (int, HFTokenizer)) and tok._tok\n"}, 1, 1),
        # the adapter module itself may do both
        ({"core/pretrained/hf_adapter.py": "class HFTokenizer:\n    def f(self, o):\n"
                                           "        return isinstance(o, HFTokenizer) and o._tok\n"
                                           "    def __init__(self):\n        self._tok = 1\n"}, 0, 0),
        # a module's own private names, dunders and namedtuple's API are fine; another module's private function is not
        ({"core/models/m.py": "import other\nclass M:\n    _index = {}\n"
                              "def f(m, p):\n    return m._index, m.__class__, p._replace(a=1), other._helper\n"}, 0, 1),
        # library classes, by name or through the module, and a replay engine's record; plain types are fine
        ({"core/analysis/injection.py": "import tiktoken\nfrom tokenizers import Tokenizer as T\n"
                                        "def f(o):\n    return isinstance(o, tiktoken.Encoding), isinstance(o, (T, list))\n",
          "core/pretrained/replay/hf_bpe.py": "class TokenizersReplay:\n    pass\n",
          "core/pretrained/replay/records.py": "class Replay:\n    pass\n",
          "core/pretrained/replay/entry.py": "from .hf_bpe import TokenizersReplay\nfrom .records import Replay\n"
                                            "def g(s):\n    return isinstance(s, TokenizersReplay), isinstance(s, Replay)\n"},
         3, 0),
        # the same library class inside an adapter module
        ({"core/pretrained/tiktoken_adapter.py": "import tiktoken\ndef f(o):\n    return isinstance(o, tiktoken.Encoding)\n"},
         0, 0),
    ],
)
def test_the_checker_finds_what_it_should(tmp_path, files, switches, reads):
    root = write_tree(tmp_path, files)
    assert len(class_switches(root)) == switches
    assert len(private_reads(root)) == reads


@pytest.mark.parametrize(
    "source, hits",
    [
        ("def f(tok):\n    return tok.family == 'tiktoken'\n", 1),
        ("LAYERS = {'tiktoken': 1}\ndef f(tok):\n    return LAYERS[tok.family], LAYERS.get(tok.family)\n", 2),
        ("def f(tok):\n    return 'x' if tok.family in ('a', 'b') else 'y'\n", 1),
        ("def f(tok):\n    match tok.family:\n        case 'a':\n            return 1\n", 1),
        ("def f(t):\n    return f'{t.family} · {t.name}', sorted([t], key=lambda x: x.family)\n", 0),  # display only
    ],
)
def test_the_family_checker_finds_what_it_should(tmp_path, source, hits):
    root = write_tree(tmp_path, {"core/analysis/inspect.py": source,
                                 "core/pretrained/tiktoken_adapter.py": "def f(tok):\n    return tok.family == 'x'\n"})
    assert len(family_dispatch(root)) == hits
