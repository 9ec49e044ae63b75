"""The background warm-up: the zoo loads what it can and skips the rest; the router starts it once per server
process, never without a server (AppTest) and not when ``TOKENIZER_LAB_WARMUP=0``."""
from __future__ import annotations

import pytest
from streamlit import runtime

import pages._router as R
from core.pretrained import zoo
from core.pretrained.catalog import ZooError


def test_warm_loads_in_order_and_skips_unknown_or_failing_entries(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def load(tid: str) -> None:
        calls.append(tid)
        if tid == "llama2":
            raise ZooError("llama2: damaged")

    monkeypatch.setattr(zoo, "load", load)
    assert zoo.warm(["cl100k_base", "no-such-entry", "llama2", "tekken"]) == ["cl100k_base", "tekken"]
    assert calls == ["cl100k_base", "llama2", "tekken"]


def test_is_loaded_follows_the_cache() -> None:
    zoo.load("cl100k_base")
    assert zoo.is_loaded("cl100k_base")
    assert not zoo.is_loaded("no-such-entry")


def test_the_router_starts_the_warm_up_once_per_server_process(monkeypatch: pytest.MonkeyPatch) -> None:
    warmed: list[list[str]] = []
    monkeypatch.setattr(R, "_warm_thread", None)
    monkeypatch.setattr(R, "WARM_DELAY_S", 0)
    monkeypatch.setattr(zoo, "warm", lambda ids: warmed.append(list(ids)))
    monkeypatch.setattr(runtime, "exists", lambda: False)
    assert R.warm_up_once(["a"]) is None  # no server: AppTest, python app.py
    monkeypatch.setattr(runtime, "exists", lambda: True)
    monkeypatch.setenv("TOKENIZER_LAB_WARMUP", "0")
    assert R.warm_up_once(["a"]) is None
    monkeypatch.delenv("TOKENIZER_LAB_WARMUP")
    thread = R.warm_up_once(["a", "b"])
    assert thread is not None
    thread.join(10)
    assert R.warm_up_once(["c"]) is None  # once per process
    assert warmed == [["a", "b"]]
