"""The fast tier's guard: every page's imports resolve and every backend loads and round-trips one text.

Seconds, not minutes: the pages are not run (that is the ``apptest`` tier); each
``from core... import name`` / ``from ._controls import name`` a page or ``app.py``
writes is checked against the module it names, so a renamed or moved engine
function breaks here first. One tokenizer per loader of the catalog (the
cheapest to load) encodes and decodes a mixed-script line.
"""
from __future__ import annotations

import ast
import importlib

import pytest

from core.pretrained import zoo
from core.pretrained.catalog import ENTRIES
from tests.conftest import REPO

PAGE_FILES = [REPO / "app.py", *sorted((REPO / "pages").glob("*.py"))]
TEXT = "বাজারঘরের অর্ডার · سفارش شما · Your order 42 👨‍👩‍👧"
#: The cheapest tokenizer to load for each loader of the catalog (``ZooEntry.loader``).
SMOKE = {"baseline": "bytes", "tiktoken": "cl100k_base", "tekken": "tekken_240718",
         "sentencepiece": "mistral-spm-v1", "gguf": "bert-bge", "hf-json": "claude-legacy", "clip-bpe": "clip"}


def _imports(path) -> list[tuple[int, str, list[str]]]:
    """``(line, module, names)`` of the file's imports from this repository (``core``, ``pages``, relative)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = "pages" if path.parent.name == "pages" else ""
                module = ".".join(p for p in (base, node.module or "") if p)
            else:
                module = node.module or ""
            if module.split(".")[0] in ("core", "pages"):
                out.append((node.lineno, module, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            out += [(node.lineno, a.name, []) for a in node.names if a.name.split(".")[0] in ("core", "pages")]
    return out


@pytest.mark.parametrize("path", PAGE_FILES, ids=lambda p: p.name)
def test_every_name_a_page_imports_exists(path):
    compile(path.read_text(encoding="utf-8"), str(path), "exec")
    missing = []
    for line, module, names in _imports(path):
        mod = importlib.import_module(module)
        for name in names:
            if name != "*" and not hasattr(mod, name):
                try:
                    importlib.import_module(f"{module}.{name}")  # a submodule: from core import render
                except ModuleNotFoundError:
                    missing.append(f"{path.name}:{line} {module}.{name}")
    assert not missing, missing


def test_every_loader_has_a_smoke_tokenizer():
    assert {e.loader for e in ENTRIES.values()} == set(SMOKE)


@pytest.mark.parametrize("loader", sorted(SMOKE))
def test_each_backend_loads_and_round_trips(loader):
    tok = zoo.load(SMOKE[loader])
    assert ENTRIES[SMOKE[loader]].loader == loader
    ids = tok.encode_ids(TEXT)
    assert ids and tok.vocab_size > 0
    enc = tok.encode(TEXT)
    assert [t.id for t in enc.tokens] == ids
    if tok.round_trip_ok(TEXT, enc):
        assert tok.decode_ids(ids) == TEXT
    else:  # a lossy tokenizer (an unknown piece, a normalizer) still decodes to text
        assert isinstance(tok.decode_ids(ids), str)
