"""Every URL parameter of every page is clamped or refused with a message, and no value raises: the one
hostile-URL-value suite.

The parameters come from the pages (:func:`tests.app_hostile.page_params`, an ``ast`` scan of ``pages/``
for ``qp_init`` and ``st.query_params.get``), so a new parameter is tried without editing a list here.
Each page is opened once per value of :data:`tests.app_hostile.HOSTILE_VALUES` (but the bare numbers of
``NUMERIC_ONLY`` and the plain text of ``PLAIN_REFUSED``) with every parameter any page reads set to that value at once, and once more per value no choice accepts with the checked
parameters only, in a child process under RLIMIT_AS / RLIMIT_CPU (the ``urls`` scenario: a hanging or
ballooning page ends the child, so no timed assertion is needed). No run may show an exception; in the
checked-only runs a warning must name each checked parameter of the page.
A few cases check the value actually used. The browser pass over the same parameters, with injection
payloads, is tests/test_injection_browser.py.
"""
from __future__ import annotations

import re

import pytest
from streamlit.testing.v1 import AppTest

from tests.app_hostile import HOSTILE_VALUES, NUMERIC_ONLY, PLAIN_REFUSED, REFUSED_VALUES, bad_steps, own_params, page_params, run_scenario
from tests.conftest import app_pages
from tests.helpers import open_page

PAGES = [p for p, _ in app_pages()]


def run_page(page: str, query: dict[str, str]) -> AppTest:
    return open_page(page, query, check=False)


def warnings(at: AppTest) -> list[str]:
    return [w.value for w in at.warning]


#: Checked parameters that refuse a bad value without a message (the run must still raise nothing):
SILENT = {
    # an unknown interface language means English, silently (init_lang in pages/); the test sees
    # that the warnings came out in English
    "lang",
}


#: (page, parameter, value): a refused-for-everyone value that this parameter may take.
ACCEPTED = {
    # a token id: 99999 is an id of the default tokenizer (o200k_base has 200,019); larger ids are clamped to the
    # chosen tokenizer's last id, with the message
    ("vocabulary", "id", "99999"),
}


def checked_params(page: str) -> list[str]:
    """Parameters of ``page`` that must refuse a bad value with a message: its own and the shared ones."""
    return sorted(p for p, kind in own_params(page).items() if kind == "checked" and p not in SILENT)


@pytest.mark.parametrize("page", PAGES)
def test_hostile_url_values_are_refused_with_a_message_and_never_raise(page):
    rc, steps, err = run_scenario("urls", page)
    assert rc == 0, f"the child died (status {rc}; a negative status is a signal, e.g. its CPU limit):\n{err}"
    assert len(steps) == len(HOSTILE_VALUES) - len(NUMERIC_ONLY) - len(PLAIN_REFUSED) + len(REFUSED_VALUES), err
    assert not bad_steps(steps)
    checked = checked_params(page)
    assert checked, page
    for s in steps:
        value = HOSTILE_VALUES[s["value"]]
        if s["set"] != "checked":
            continue
        shown = "\n".join(s["warnings"])
        assert "Link parameter" in shown, (page, value[:40], shown[:500])  # in English: ?lang= was refused too
        for p in checked:  # "p=" not preceded by a name character: "size=" is not "sizes="
            if (page, p, value) in ACCEPTED:
                continue
            assert re.search(rf"(?<![\w]){p}=", shown), (page, p, value[:40], shown[:500])


@pytest.mark.parametrize("page,key,value,expect", [
    ("unigram", "size", "99999", 1500), ("unigram", "size", "-5", 100), ("unigram", "size", "401", 400),
    ("wordpiece", "size", "99999", 1500), ("wordpiece", "size", "-5", 80),
    ("home", "merges", "99999", 500), ("stepper", "merges", "-5", 1), ("train", "minf", "0", 1),
])
def test_numbers_are_clamped_visibly(page, key, value, expect):
    query = {key: value}
    if page == "unigram":
        query["model"] = "trained"
    if page == "wordpiece":
        query["vocab"] = "trained"
    at = run_page(page, query)
    assert not at.exception, [e.value for e in at.exception]
    widget = {"unigram": "ug_size", "wordpiece": "wp_size", "home": "home_merges", "stepper": "st_merges",
              "train": "tr_minf"}[page]
    assert at.session_state[widget] == expect
    assert any(f"{key}={value}" in w and str(expect) in w for w in warnings(at)), warnings(at)


def test_stepper_step_beyond_the_last_merge_is_clamped_with_a_message():
    at = run_page("stepper", {"corpus": "toy", "merges": "5", "step": "99999"})
    assert not at.exception
    assert at.session_state["step"] == 5
    assert any("step=99999" in w for w in warnings(at)), warnings(at)


def test_long_url_text_is_cut_with_a_message():
    at = run_page("replay", {"text": "ক" * 5000})
    assert not at.exception
    assert any("text=" in w and "first" in w for w in warnings(at)), warnings(at)


def test_no_page_reuses_the_interface_language_parameter():
    """``?lang=`` is the interface language (the router reads it on every page). A page that also kept its own
    choice in ``lang`` (the WordPiece and Unigram sample once did) wrote ``lang=bn`` into the URL, so a shared
    link, or a later rerun that took the URL as new, switched the whole interface to Bangla."""
    params = page_params()
    assert "lang" in params["_controls"] and "text" in params["_text_input"]  # the scan finds the shared parameters
    clashes = {page for page, names in params.items() if page != "_controls" and "lang" in names}
    assert not clashes, f"pages keeping their own state in ?lang=: {sorted(clashes)}"
    # every page of the app has its file scanned (the hostile-value test tries each page's parameters)
    assert set(PAGES) <= set(params), sorted(set(PAGES) - set(params))


def _qp(at: AppTest, name: str) -> str | None:
    v = at.query_params.get(name)
    return v[0] if isinstance(v, list) and v else (v or None)


@pytest.mark.parametrize("page,source", [("unigram", {"model": "trained"}), ("wordpiece", {"vocab": "trained"})])
def test_the_sample_choice_leaves_the_interface_language_alone(page, source):
    """The trained sample's language lives in ``?sample=``; an English page's link carries no ``lang`` (it once
    carried ``lang=bn``: the link opened the page in Bangla), and ``?lang=fa&sample=uz`` means both."""
    at = run_page(page, source)
    assert not at.exception
    assert _qp(at, "sample") == "bn" and _qp(at, "lang") is None, at.query_params.to_dict()
    at = run_page(page, {**source, "lang": "fa", "sample": "uz"})
    assert not at.exception
    assert at.session_state["lang"] == "fa" and _qp(at, "lang") == "fa" and _qp(at, "sample") == "uz"
