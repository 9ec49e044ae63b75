"""Progress for long work: core callbacks get plain, increasing numbers; the Train page and the report button
draw them with st.progress and remove the bar when done."""
from __future__ import annotations

import pytest
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from core.analysis import evaluate as E
from core.analysis import recipes as R
from core.analysis.report import build_report
from core.assets import BUNDLED_CORPUS
from core.pretrained import zoo
from tests.helpers import open_page, shown


def _calls() -> tuple[list[tuple[int, int, str]], object]:
    calls: list[tuple[int, int, str]] = []

    def cb(done: int, total: int, what: str) -> None:
        assert isinstance(done, int) and isinstance(total, int) and isinstance(what, str)
        calls.append((done, total, what))

    return calls, cb


def _increasing(calls: list[tuple[int, int, str]]) -> None:
    assert calls
    dones = [d for d, _, _ in calls]
    assert dones == sorted(dones) and len(set(dones)) == len(dones)
    assert all(0 <= d <= t for d, t, _ in calls)
    assert calls[-1][0] == calls[-1][1]


def test_core_training_and_evaluation_report_progress() -> None:
    split = E.split_corpus(BUNDLED_CORPUS.read_text(encoding="utf-8"))
    calls, cb = _calls()
    tok = R.train("bpe", split.train, 300, progress=cb)
    _increasing(calls)
    assert calls[-1][1] == len([s for s in split.train if s.strip()]) and "lines" in calls[-1][2]
    calls, cb = _calls()
    assert E.evaluate(tok, split.heldout, progress=cb) == E.evaluate(tok, split.heldout)
    _increasing(calls)
    assert "held-out sentences" in calls[-1][2]


def test_core_report_reports_progress() -> None:
    toks = [zoo.load("cl100k_base"), zoo.load("o200k_base")]
    calls, cb = _calls()
    build_report("বাজারঘরের অর্ডার আজ পৌঁছাবে।", toks, progress=cb)
    assert [(d, t) for d, t, _ in calls] == [(0, 3), (1, 3), (2, 3)]
    assert "cl100k_base" in calls[0][2] and "normalization" in calls[-1][2]


@pytest.fixture()
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[tuple[float, str]]:
    """Every st.progress value and text the pages draw (the AppTest script runs in this process)."""
    seen: list[tuple[float, str]] = []
    original = DeltaGenerator.progress

    def progress(self, value, text=None):
        seen.append((float(value), text or ""))
        return original(self, value, text=text)

    monkeypatch.setattr(DeltaGenerator, "progress", progress)
    st.cache_data.clear()  # trained tokenizers cached by other tests would skip the work
    return seen


def test_train_page_shows_progress_then_removes_it(drawn: list[tuple[float, str]]) -> None:
    at = open_page("train", {"sizes": "300", "recipes": "bpe,wordpiece"}, timeout=240, check=False)
    assert not at.exception, [e.value for e in at.exception]
    values = [v for v, _ in drawn]
    assert values == sorted(values) and values[-1] < 1.0 + 1e-9
    texts = " | ".join(t for _, t in drawn)
    assert "of 2)" in texts and "lines" in texts  # the job, and the trainer's own progress within it
    assert "held-out sentences" in texts  # the evaluation's progress
    assert len(drawn) > 2 * 3  # more than one update per job
    assert not at.get("progress")  # gone when done
    assert len(at.dataframe[0].value) == 2 + 3  # the page still renders its table


def test_report_button_shows_progress_then_removes_it(drawn: list[tuple[float, str]]) -> None:
    at = open_page("compare", {"tok": "cl100k_base,o200k_base", "text": "বাজারঘরের অর্ডার আজ পৌঁছাবে।"}, timeout=120,
                   check=False)
    assert not at.exception
    drawn.clear()
    at.button(key="cmp_report_go").click().run()
    assert not at.exception, [e.value for e in at.exception]
    # (st.progress itself, the empty bar, is bound before the patch: these are the bar's updates)
    assert [round(v, 3) for v, _ in drawn] == [0.0, 0.333, 0.667]
    assert "encoding with cl100k_base" in shown(drawn[0][1]) and "normalization" in shown(drawn[-1][1])
    assert not at.get("progress")
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Download HTML report" in labels and "Download Markdown report" in labels


def test_compare_names_each_tokenizer_while_it_loads(drawn: list[tuple[float, str]],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # as on a fresh server: nothing loaded yet, whatever earlier tests in this process loaded
    monkeypatch.setattr(zoo, "is_loaded", lambda _tid: False)
    at = open_page("compare", {"tok": "llama3,tekken"})
    texts = [shown(t) for _, t in drawn]
    assert texts == ["Loading Llama 3 (1 of 2)…", "Loading Mistral Tekken (240911, Nemo) (2 of 2)…"]
    assert [v for v, _ in drawn] == [0.0, 0.5]
    assert not at.get("progress")  # gone once the rows are drawn
    assert len(at.dataframe[0].value) == 2


def test_compare_says_nothing_for_tokenizers_already_loaded(drawn: list[tuple[float, str]]) -> None:
    zoo.load("llama3")
    at = open_page("compare", {"tok": "llama3"})
    assert drawn == [] and len(at.dataframe[0].value) == 1


@pytest.mark.parametrize("lang", ["bn", "hi", "fa", "uz"])
def test_compare_loading_message_is_translated(drawn: list[tuple[float, str]], monkeypatch: pytest.MonkeyPatch,
                                               lang: str) -> None:
    monkeypatch.setattr(zoo, "is_loaded", lambda _tid: False)
    open_page("compare", {"tok": "llama3", "lang": lang})
    [(_, text)] = drawn
    assert "Llama 3" in shown(text) and "Loading" not in text


def test_home_names_each_tokenizer_while_it_loads(drawn: list[tuple[float, str]],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import pages._selector as S

    monkeypatch.setattr(S, "is_loaded", lambda _option, _size=None: False)
    at = open_page("home", {"tok": "codepoints,llama3"})
    assert [shown(t) for _, t in drawn] == ["Loading Code points (1 of 2)…", "Loading Llama 3 (2 of 2)…"]
    assert not at.get("progress")
