"""Adding a backend is one adapter module plus catalog lines: shown with a toy backend.

``tests/toy_adapter.py`` is written as a new ``core/pretrained/*_adapter.py``
would be (a :class:`PretrainedTokenizer` subclass and a
``@register_loader("toy")`` function). Here it gets its catalog entry and goes
through the zoo's normal path (file read, hash check, native fence, cache),
then through what the pages and the CLI run on any tokenizer: the compare
summary, the inspector (with the toy's own model layer), the merge replay and
merge trees, the vocabulary views, the report section, the round trip, the
special-token injection check and the tax count; its upload format is
recognised and loaded. No analysis code knows it exists.

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

from core.analysis import inspect, report, vocab
from core.analysis.injection import injection_check
from core.analysis.roundtrip import round_trip, round_trip_suite
from core.analysis.tax import ParallelText, count_tokens, measure
from core.pretrained import catalog, zoo
from core.pretrained.adapter import LOADERS, register_loader, summarize
from core.pretrained.catalog import ZooEntry, ZooError
from core.pretrained.locate import is_available
from core.pretrained.replay import merge_tree, offered, replay
from core.pretrained.uploads import UPLOADS
from tests import toy_adapter

REPO = Path(__file__).resolve().parents[1]
ALPHABET = "abcdefghijklmnopqrstuvwxyz .,!?'"
#: The toy's merges in rank order: "hello" is one token after four merges, "or" a token of its own.
MERGES = [("l", "l"), ("h", "e"), ("he", "ll"), ("hell", "o"), ("o", "r"), ("w", "or")]
TOY_FILE = ("\n".join([toy_adapter.MAGIC, ALPHABET, *(f"{a}\t{b}" for a, b in MERGES)]) + "\n").encode("utf-8")
HELLO = 2 + len(ALPHABET) + 3  # the id the fourth merge makes


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """The toy backend's catalog lines: one entry with a file and its pinned sha256, in the catalog."""
    path = tmp_path / "toy-merges.txt"
    path.write_bytes(TOY_FILE)
    entry = ZooEntry("toy-bpe", "Toy BPE", "toy BPE: character merges", 0, "toy", None, str(path),
                     hashlib.sha256(TOY_FILE).hexdigest(), "test", "<|end|> only with allow_special", vendor="Test")
    monkeypatch.setitem(catalog.ENTRIES, entry.id, entry)
    monkeypatch.setattr(zoo, "_cache", {})  # a fresh load, and nothing of the toy left for later tests
    return entry


def test_the_toy_backend_loads_through_the_zoo(toy):
    tok = zoo.load("toy-bpe")
    assert isinstance(tok, toy_adapter.ToyTokenizer)  # tests may know the class; core and pages may not
    assert zoo.load("toy-bpe") is tok and zoo.resolve("toy-bpe") is tok  # cached like every entry
    assert tok.id == "toy-bpe" and tok.vocab_size == 2 + len(ALPHABET) + len(MERGES)
    assert tok.entry.source == toy.file
    assert not tok.entry.built_in and is_available(toy)
    assert tok.encode_ids("hello") == [HELLO]
    assert tok.encode_ids("hi!") == [2 + 7, 2 + 8, 2 + ALPHABET.index("!")]


def test_the_zoo_checks_the_toy_file_like_any_other(toy):
    Path(toy.file).write_bytes(b"TOYBPE\nxy\n")  # the file changed after its hash was pinned
    with pytest.raises(ZooError, match="failed its hash check"):
        zoo.load_entry(toy)
    bad = b"TOYBPE\nab\na\tz\n"
    Path(toy.file).write_bytes(bad)
    with pytest.raises(ZooError, match="toy-bpe: .* line 3 is not a merge of two known pieces"):  # the loader's error
        zoo.load_entry(replace(toy, sha256=hashlib.sha256(bad).hexdigest()))


def test_what_the_pages_run_works_on_the_toy_backend(toy):
    tok = zoo.load("toy-bpe")
    text = "hello, world! café"

    # compare page: the summary row and the chips' table
    enc = tok.encode(text)
    s = summarize(tok, enc)
    assert [t.text for t in enc.tokens][:3] == ["hello", ",", " "] and "wor" in [t.text for t in enc.tokens]
    assert s.tokens == len(enc.tokens) == len(text) - 4 - 2  # hello: 5 -> 1, w+o+r: 3 -> 1
    assert s.unknown == 1 and not s.round_trip_ok  # é is not in the alphabet
    assert s.special_text == 0
    assert tok.table(text).ids.tolist() == tok.encode_ids(text)
    assert b"".join(t.data for t in enc.tokens) == text.encode("utf-8")  # exact bytes and spans, even for <unk>

    # inspector: the toy's own model layer between the shared normalizer and bytes layers
    view = inspect.explain(tok, "hello")
    assert view.counts.tokens == 1 and view.verdict.startswith("1 token")
    assert [la.name for la in view.layers] == ["normalizer", "model", "bytes"]
    model = view.layer("model")
    assert model is not None and model.title.startswith("Model: toy BPE")
    (merge,) = view.reasons("merge")
    assert "4 merges from the 5 starting pieces" in merge.text and len(merge.evidence) == 4
    assert inspect.explain(tok, "ab").reasons("no-merge")  # two pieces no merge joins: said so
    assert "Every character" in inspect.explain(tok, "a").reasons("pieces")[0].text

    # replay page: offered from the catalog, replayed merge by merge, checked against the library's ids
    assert offered(toy)
    for word in ("hello world", "hellllo", "lll", "café hello", ""):
        r = replay(tok, word)
        assert r.matches_library and r.final_ids == tok.encode_ids(word), word
    r = replay(tok, "hello")
    assert [(st.left, st.right) for st in r.steps()] == [(b"l", b"l"), (b"h", b"e"), (b"he", b"ll"), (b"hell", b"o")]
    tree = merge_tree(tok, HELLO)
    assert tree is not None and tree.data == b"hello" and tree.leaves == tuple(b"hello"[i:i + 1] for i in range(5))
    assert tree.merges == 4 and tree.rank == 3
    assert merge_tree(tok, 0) is None  # the control token is not built by merges

    # vocabulary page: lookup, search, decode, census
    info = vocab.lookup(tok, HELLO)
    assert (info.text, info.piece, info.model, info.merge_rank) == ("hello", "hello", "BPE", 3)
    assert HELLO in vocab.search(tok, "hell").ids
    assert vocab.decode(tok, [HELLO, 2 + ALPHABET.index(" ")]).text == "hello "
    assert vocab.census(tok).scripts["Latin"] == 26 + len(MERGES)  # the letters and every merged piece

    # report: one tokenizer's section, its file named without a path of this machine
    section = report.tokenizer_section(tok, text, english="hello", d_model=64)
    assert section.summary == s and section.vocab_size == tok.vocab_size
    assert section.embedding_params == tok.vocab_size * 64 and section.premium == s.tokens / 1
    assert section.file == "toy-merges.txt" and section.sha256 == toy.sha256
    assert section.first_tokens[:2] == ("hello", ",")
    html = report.to_html(report.build_report(text, [tok]))
    assert "Toy BPE" in html

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
    assert count_tokens(tok, ["hello world", "good"]) == 5 + 4  # hello | " " | wor | l | d, then g o o d
    tax = measure(tok, parallel)
    assert tax.languages["en"].tokens == 9 and tax.languages["xx"].tokens == 4 + 5 and tax.premium["xx"] == 1.0


def test_the_toy_format_is_recognised_on_upload():
    assert zoo.detect_kind("anything.bin", TOY_FILE) == "toy"
    assert zoo.detect_kind("x.json", b'{"model": {}}') == "hf-json"  # the other formats are still found
    tok = zoo.load_user_bytes("mine.toy", TOY_FILE)
    assert isinstance(tok, toy_adapter.ToyTokenizer) and tok.id == "user:mine.toy"
    assert tok.entry.algorithm == "toy BPE (user file)" and tok.vocab_size == 2 + len(ALPHABET) + len(MERGES)
    assert tok.encode_ids("hello") == [HELLO]
    with pytest.raises(ZooError, match="^bad.toy is not a toy BPE file"):
        zoo.load_user_bytes("bad.toy", b"TOYBPE\n")


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
    zoo.discover_adapters()
    modules = set(zoo.discover_adapters())
    assert {"hf-json", "tiktoken", "tekken", "sentencepiece"} <= set(UPLOADS)
    for kind, upload in UPLOADS.items():
        loader = zoo.loader_for(kind)
        assert loader is not None, kind
        assert upload.module == loader.module, kind  # declared next to its loader
        assert upload.module in modules or upload.module.startswith("tests."), kind
    assert sum(u.fallback for u in UPLOADS.values()) == 1


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
