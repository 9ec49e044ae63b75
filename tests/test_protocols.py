"""The protocols answer every question for every tokenizer kind, the memo and the zoo registry are bounded,
and the CLI tells a user error (exit 2) from a bug (exit 1 with the traceback hint) by exception type."""
from __future__ import annotations

import gc
import threading

import pytest

from core import cli
from core.analysis.recipes import TrainedTokenizer, VocabBaseline, train_baseline
from core.models.baselines import ByteTokenizer, CodePointTokenizer, WordTokenizer
from core.pretrained import memo, zoo
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
