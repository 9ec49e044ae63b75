"""The catalog is data: ``core/pretrained/catalog.py`` and its audit lines read no file, ask the machine nothing
and import no backend or vendor package; where an entry's file is, and whether it is there, is
``core/pretrained/locate.py``'s job."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DATA_MODULES = ["core/pretrained/catalog.py", "core/pretrained/audits.py"]
#: What a data module may import: the dataclass and typing helpers, the interface languages' markers, the split
#: patterns declared once in the pipeline, and the audit lines.
ALLOWED = {"__future__", "dataclasses", "typing", "core.i18n", "core.pipeline.pretokenize", "core.pretrained.audits",
           "core.text.errors"}  # UserError: the base of ZooError, a class, no data read
#: Calls that read a file or ask the machine.
FORBIDDEN_CALLS = {"open", "read_bytes", "read_text", "is_file", "exists", "find_spec", "files", "getenv", "expanduser",
                   "import_module", "__import__"}


def imported(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative to core/pretrained/
                base = ["core", "pretrained"][: 3 - node.level]
                out.add(".".join([*base, *([node.module] if node.module else [])]))
            else:
                out.add(node.module or "")
    return out


def calls(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            f = node.func
            names.add(f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else "")
    return names


@pytest.mark.parametrize("rel", DATA_MODULES)
def test_the_catalog_imports_nothing_but_data(rel):
    assert imported(REPO / rel) <= ALLOWED, imported(REPO / rel) - ALLOWED


@pytest.mark.parametrize("rel", DATA_MODULES)
def test_the_catalog_reads_no_file_and_asks_the_machine_nothing(rel):
    assert not calls(REPO / rel) & FORBIDDEN_CALLS


def test_the_checker_sees_a_file_read_and_a_vendor_import(tmp_path):
    bad = tmp_path / "catalog.py"
    bad.write_text("import os\nfrom importlib.util import find_spec\n\ndef f():\n"
                   "    from llama_models.llama4 import tokenizer\n    return open('x').read()\n", encoding="utf-8")
    assert {"os", "importlib.util", "llama_models.llama4"} <= imported(bad)
    assert "open" in calls(bad)


def test_the_locate_side_answers_for_every_entry():
    from core.pretrained.catalog import ENTRIES
    from core.pretrained.locate import entry_path, is_available

    for entry in ENTRIES.values():
        if entry.built_in:
            assert is_available(entry)
        else:
            assert entry_path(entry).name == Path(entry.file or "").name
