"""Adding a backend is one adapter module plus catalog lines: shown with a toy backend.

``tests/toy_adapter.py`` is written as a new ``core/pretrained/*_adapter.py``
would be (a :class:`PretrainedTokenizer` subclass and a
``@register_loader("toy")`` function). Here it gets its catalog entry and goes
through the zoo's normal path (file read, hash check, native fence, cache),
then through what the pages and the CLI run on any tokenizer: the compare
summary, the inspector, the report section, the round trip, the special-token
injection check and the tax count. No analysis code knows it exists.

The other tests check the registry against the real catalog: every entry's
``loader`` is served by an adapter module, and discovery finds every
``*_adapter.py`` file.
"""
from __future__ import annotations

import hashlib
import importlib
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from core.analysis import inspect, report
from core.analysis.injection import injection_check
from core.analysis.roundtrip import round_trip, round_trip_suite
from core.analysis.tax import ParallelText, count_tokens, measure
from core.pretrained import catalog, zoo
from core.pretrained.adapter import LOADERS, register_loader, summarize
from core.pretrained.catalog import ZooEntry, ZooError
from core.pretrained.locate import is_available
from tests import toy_adapter

REPO = Path(__file__).resolve().parents[1]
ALPHABET = "abcdefghijklmnopqrstuvwxyz .,!?'"


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """The toy backend's catalog lines: one entry with a file and its pinned sha256, in the catalog."""
    data = "\n".join(ALPHABET).encode("utf-8")
    path = tmp_path / "toy-alphabet.txt"
    path.write_bytes(data)
    entry = ZooEntry("toy-chars", "Toy characters", "toy: one token per character", 0, "toy", None, str(path),
                     hashlib.sha256(data).hexdigest(), "test", "<|end|> only with allow_special", vendor="Test")
    monkeypatch.setitem(catalog.ENTRIES, entry.id, entry)
    monkeypatch.setattr(zoo, "_cache", {})  # a fresh load, and nothing of the toy left for later tests
    return entry


def test_the_toy_backend_loads_through_the_zoo(toy):
    tok = zoo.load("toy-chars")
    assert isinstance(tok, toy_adapter.ToyTokenizer)  # tests may know the class; core and pages may not
    assert zoo.load("toy-chars") is tok and zoo.resolve("toy-chars") is tok  # cached like every entry
    assert tok.id == "toy-chars" and tok.vocab_size == 2 + len(ALPHABET) and tok.family == "other"
    assert tok.entry.source == toy.file
    assert not tok.entry.built_in and is_available(toy)
    assert tok.encode_ids("hi!") == [2 + ALPHABET.index(c) for c in "hi!"]


def test_the_zoo_checks_the_toy_file_like_any_other(toy):
    Path(toy.file).write_bytes(b"x\ny\n")  # the file changed after its hash was pinned
    with pytest.raises(ZooError, match="failed its hash check"):
        zoo.load_entry(toy)
    bad = b"ab\n"
    Path(toy.file).write_bytes(bad)
    with pytest.raises(ZooError, match="toy-chars: .* is not a toy alphabet"):  # the loader's ValueError, wrapped
        zoo.load_entry(replace(toy, sha256=hashlib.sha256(bad).hexdigest()))


def test_what_the_pages_run_works_on_the_toy_backend(toy):
    tok = zoo.load("toy-chars")
    text = "hello, world! café"

    # compare page: the summary row and the chips' table
    enc = tok.encode(text)
    s = summarize(tok, enc)
    assert s.tokens == len(text) and s.unknown == 1 and not s.round_trip_ok  # é is not in the alphabet
    assert s.chars_per_token == 1.0 and s.special_text == 0
    assert tok.table(text).ids.tolist() == tok.encode_ids(text)
    assert b"".join(t.data for t in enc.tokens) == text.encode("utf-8")  # exact bytes and spans, even for <unk>

    # inspector: the normalizer and bytes layers (family "other" has no pre-tokenizer/model layers)
    view = inspect.explain(tok, "hello")
    assert view.counts.tokens == 5 and view.verdict.startswith("5 tokens")
    assert [la.name for la in view.layers] == ["normalizer", "bytes"]

    # report: one tokenizer's section, its file named without a path of this machine
    section = report.tokenizer_section(tok, text, english="hello", d_model=64)
    assert section.summary == s and section.vocab_size == tok.vocab_size
    assert section.embedding_params == tok.vocab_size * 64 and section.premium == len(text) / 5
    assert section.file == "toy-alphabet.txt" and section.sha256 == toy.sha256
    assert section.first_tokens[:2] == ("h", "e")
    html = report.to_html(report.build_report(text, [tok]))
    assert "Toy characters" in html

    # round trip: fine on the alphabet, a precise failure outside it
    assert round_trip(tok, "hello")[0]
    ok, _norm, decoded, _enc = round_trip(tok, "café")
    assert not ok and decoded == "caf\ufffd"
    suite = round_trip_suite(tok, [("ascii", "hi there."), ("accent", "naïve")])
    assert [r.ok for r in suite] == [True, False] and suite[1].reason and suite[1].diff

    # injection check: the base class's two modes; the spelling becomes the control id only when allowed
    results = {r.mode: r.outcome for r in injection_check(tok, "hi <|end|>")}
    assert results == {"default": "text", "allow_special=True": "control"}
    assert [h.text for h in tok.special_hits("hi <|end|>")] == ["<|end|>"]

    # tax page: token counts per language
    parallel = ParallelText(("en", "xx"), (("hello world", "hallo"), ("good", "goed!")), "toy")
    assert count_tokens(tok, ["hello world", "good"]) == 15
    tax = measure(tok, parallel)
    assert tax.languages["en"].tokens == 15 and tax.languages["xx"].tokens == 10 and tax.premium["xx"] == 10 / 15


def test_every_catalog_loader_is_served_by_an_adapter_module():
    modules = set(zoo.discover_adapters())
    for entry in zoo.ENTRIES.values():
        loader = zoo.loader_for(entry.loader)
        assert loader is not None, f"{entry.id}: no adapter module registers loader {entry.loader!r}"
        assert loader.module in modules, (entry.id, loader.module)
        assert loader.needs_file is not entry.built_in, entry.id  # built-in entries are those with nothing to read


def test_an_unknown_loader_is_the_same_one_line_error():
    entry = ZooEntry("nope", "Nope", "test", 1, "no-such-loader", None, "x.txt")
    with pytest.raises(ZooError, match=r"^nope: unknown loader 'no-such-loader'$"):
        zoo.load_entry(entry)


def test_every_upload_kind_is_a_registered_loader():
    kinds = [k for k in catalog.UserKind.__args__ if k != "auto"]  # type: ignore[attr-defined]
    assert kinds and all(zoo.loader_for(k) is not None for k in kinds)


def test_discovery_finds_every_adapter_file():
    files = sorted(p.stem for p in (REPO / "core" / "pretrained").glob("*_adapter.py"))
    names = zoo.discover_adapters()
    assert [n.rsplit(".", 1)[1] for n in names] == files
    assert all(n in sys.modules for n in names)


def test_discovery_finds_a_new_adapter_file_without_editing_the_zoo(tmp_path, monkeypatch):
    """The mechanism on a package of its own: a file named ``*_adapter.py`` is found and, once imported, serves
    its loader."""
    pkg = tmp_path / "labpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "helpers.py").write_text("")  # not an adapter module
    (pkg / "foo_adapter.py").write_text(
        "from core.pretrained.adapter import register_loader\n"
        "@register_loader('foo-test', needs_file=False)\n"
        "def load_foo(entry, data, where):\n"
        "    raise NotImplementedError\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    names = zoo.adapter_module_names(pkg, "labpkg")
    assert names == ["labpkg.foo_adapter"]
    try:
        importlib.import_module(names[0])
        assert LOADERS["foo-test"].module == "labpkg.foo_adapter" and not LOADERS["foo-test"].needs_file
    finally:
        LOADERS.pop("foo-test", None)
        sys.modules.pop("labpkg.foo_adapter", None)
        sys.modules.pop("labpkg", None)


def test_two_modules_cannot_claim_one_loader():
    zoo.discover_adapters()
    with pytest.raises(ValueError, match="already registered"):
        register_loader("tiktoken")(lambda entry, data, where: None)  # type: ignore[arg-type,return-value]
