"""The protocols answer every question for every tokenizer kind, the memo and the zoo registry are bounded,
and the CLI tells a user error (exit 2) from a bug (exit 1 with the traceback hint) by exception type."""
from __future__ import annotations

import ast
import gc
import re
import textwrap
import threading
from pathlib import Path

import pytest

from core import cli
from core.analysis.recipes import TrainedTokenizer, VocabBaseline, train_baseline
from core.analysis.vocab import vocab_table
from core.models.baselines import ByteTokenizer, CodePointTokenizer, WordTokenizer
from core.pretrained import memo, zoo
from core.pretrained.protocols import Explainable, Replayable, Vocabulary
from core.text.errors import UserError, user_error
from core.text.limits import LimitError
from core.tokens import FullTokenizer, token_table

KINDS = [CodePointTokenizer(), ByteTokenizer(), WordTokenizer(), train_baseline("words-f1", ["a b", "b c"])]


@pytest.mark.parametrize("tok", KINDS, ids=lambda t: t.id)
def test_every_kind_answers_every_question(tok: FullTokenizer) -> None:
    text = "ab c"
    enc = tok.encode(text)
    assert tok.count_tokens([text, text]) == 2 * len(enc.tokens)
    assert len(token_table(tok, text)) == len(enc.tokens)
    assert tok.special_hits("<|endoftext|>") in ((), [])
    assert tok.unk_id is None or isinstance(tok.unk_id, int)
    assert isinstance(tok.vocab_note, str) and tok.trained_json is None
    ids = tok.encode_ids(text)
    assert ids == [t.id for t in enc.tokens if t.id is not None]


def test_pretrained_adapter_is_a_full_tokenizer() -> None:
    tok = zoo.load("bytes")
    assert tok.ids_complete is False and tok.recipe is None and tok.train_seconds is None
    assert len(token_table(tok, "ক")) == 3


def test_trained_and_vocab_baseline_keep_their_facts() -> None:
    vb = train_baseline("codepoints", ["ab"])
    assert isinstance(vb, VocabBaseline) and vb.recipe is None and vb.train_seconds is not None
    assert "recipe" in TrainedTokenizer.__dataclass_fields__  # its own facts, not the defaults


class _Tok:
    pass


def test_memo_builds_once_and_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memo, "MAX_KEYS", 3)
    tok, built = _Tok(), []
    for k in range(5):
        assert memo.per_tokenizer(tok, k, lambda k=k: built.append(k) or k * 10) == k * 10
    assert memo.per_tokenizer(tok, 4, lambda: -1) == 40  # kept
    assert memo.per_tokenizer(tok, 0, lambda: -1) == -1  # evicted: the oldest of 5 with room for 3
    assert built == [0, 1, 2, 3, 4]


def test_memo_goes_with_its_tokenizer() -> None:
    tok = _Tok()
    memo.per_tokenizer(tok, "k", lambda: 1)
    n = len(memo._slots)
    del tok
    gc.collect()
    assert len(memo._slots) == n - 1


def test_memo_one_build_under_threads() -> None:
    tok, calls = _Tok(), []
    gate = threading.Event()

    def build() -> int:
        calls.append(1)
        gate.wait(1)
        return 7

    threads = [threading.Thread(target=memo.per_tokenizer, args=(tok, "x", build)) for _ in range(4)]
    for t in threads:
        t.start()
    gate.set()
    for t in threads:
        t.join()
    assert calls == [1]


def test_zoo_registry_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(zoo, "MAX_LOADED", 2)
    monkeypatch.setattr(zoo, "_cache", {})  # whatever earlier tests in this worker loaded is not this test's
    for tid in ("codepoints", "bytes", "words"):
        zoo.load(tid)
    assert len(zoo._cache) <= 2 and zoo.is_loaded("words") and not zoo.is_loaded("codepoints")
    assert zoo.load("codepoints").id == "codepoints"  # loaded again on demand


def test_user_errors_share_one_base() -> None:
    assert issubclass(LimitError, UserError) and issubclass(zoo.ZooError, UserError)
    assert issubclass(UserError, ValueError)  # code that catches ValueError around user input still does
    assert str(user_error(ValueError("bad"))) == "bad"


def test_cli_bug_exits_1_with_hint(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    def boom(_args: argparse.Namespace) -> None:
        raise ValueError("a plain ValueError is a bug")

    args = argparse.Namespace(command="x", json=True)
    monkeypatch.delenv(cli.TRACEBACK_ENV, raising=False)
    assert cli._run(args, boom) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("internal error (ValueError)") and cli.TRACEBACK_ENV in err[0]
    monkeypatch.setenv(cli.TRACEBACK_ENV, "1")
    assert cli._run(args, boom) == 1
    assert "Traceback" in capsys.readouterr().err


def test_cli_user_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    def refuse(_args: argparse.Namespace) -> None:
        raise LimitError("too big")

    assert cli._run(argparse.Namespace(command="x"), refuse) == 2
    assert capsys.readouterr().err == "error: too big\n"


# ---------------------------------------------------------------------------
# One memo helper (issue 30, item 6): per-tokenizer data is kept by core.pretrained.memo.per_tokenizer only
# ---------------------------------------------------------------------------

CORE = Path(__file__).resolve().parents[1] / "core"
#: The one module allowed to hold a weak map keyed by tokenizers.
MEMO_MODULE = CORE / "pretrained" / "memo.py"
#: Parameter names and annotation words that say a function takes a tokenizer.
TOKENIZER_PARAMS = {"tok", "tokenizer", "tokenizers", "owner"}
TOKENIZER_TYPES = re.compile(r"Tokenizer|IdCodec|Vocabulary|Explainable|Replayable|SpecialText|\bTrained\b")


def _is_cache(node: ast.expr) -> bool:
    """``lru_cache``, ``lru_cache(...)``, ``functools.cache``... (any spelling)."""
    if isinstance(node, ast.Call):
        node = node.func
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else ""
    return name in ("lru_cache", "cache")


def _takes_tokenizer(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    a = fn.args
    for arg in [*a.posonlyargs, *a.args, *a.kwonlyargs]:
        if arg.arg in TOKENIZER_PARAMS:
            return True
        if arg.annotation is not None and TOKENIZER_TYPES.search(ast.unparse(arg.annotation)):
            return True
    return False


def memo_violations(root: Path, allowed: Path | None = MEMO_MODULE) -> list[str]:
    """``path:line what`` for every other weak-keyed map and every cache on a function that takes a tokenizer."""
    out = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        functions = {n.name: n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        for node in ast.walk(tree):
            where = f"{path.relative_to(root)}:{getattr(node, 'lineno', 0)}"
            if path != allowed and ((isinstance(node, ast.Attribute) and node.attr == "WeakKeyDictionary")
                                    or (isinstance(node, ast.Name) and node.id == "WeakKeyDictionary")):
                out.append(f"{where} WeakKeyDictionary")
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _takes_tokenizer(node) and any(
                    _is_cache(d) for d in node.decorator_list):
                out.append(f"{where} cache on {node.name}")
            # the call form: name = lru_cache(maxsize=...)(function)
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Call) and _is_cache(node.func)
                    and node.args and isinstance(node.args[0], ast.Name) and node.args[0].id in functions
                    and _takes_tokenizer(functions[node.args[0].id])):
                out.append(f"{where} cache on {node.args[0].id}")
    return out


def test_one_memo_helper_for_per_tokenizer_data() -> None:
    assert memo_violations(CORE) == []


def test_the_memo_checker_finds_what_it_should(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(textwrap.dedent("""
        import weakref
        from functools import lru_cache, cache
        _store: "weakref.WeakKeyDictionary[object, int]" = weakref.WeakKeyDictionary()

        @lru_cache(maxsize=4)
        def table(tok): ...

        @cache
        def census(x: "Vocabulary"): ...

        def _layers(tok, text): ...
        layers = lru_cache(maxsize=8)(_layers)

        @lru_cache(maxsize=4)
        def words(text: str): ...  # keyed on text: fine
    """), encoding="utf-8")
    found = memo_violations(tmp_path, allowed=None)
    assert sorted(f.split(" ", 1)[1] for f in found) == [
        "WeakKeyDictionary", "cache on _layers", "cache on census", "cache on table"], found


def test_vocabulary_data_is_kept_by_the_memo() -> None:
    tok = zoo.load("bytes")
    memo.clear(tok)
    table = vocab_table(tok)
    assert vocab_table(tok) is table
    assert "vocab-table" in memo._slots[tok].values


# ---------------------------------------------------------------------------
# The capability protocols: the adapter base answers them (mypy checks the types; here, at run time)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("proto", [Vocabulary, Replayable, Explainable])
def test_adapter_answers_the_capability_protocols(proto: type) -> None:
    members = {name for name in dir(proto) if not name.startswith("_")}
    tok = zoo.load("bytes")
    missing = {name for name in members if not hasattr(tok, name)}
    assert members and not missing
    assert tok.algorithm == tok.entry.algorithm and tok.replayable is False
