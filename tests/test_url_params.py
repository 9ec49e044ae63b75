"""Issue 16 item 5: every URL parameter of every page is clamped or refused with a message.

Each page is opened by AppTest with a generated set of bad values in every
parameter it reads (one run per value, all parameters at once): no exception,
and a warning that names each choice/number/list parameter that was refused
or clamped. A few cases check the value actually used.
"""
from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import REPO

APP = str(REPO / "app.py")

#: page -> (parameters whose bad value must be refused or clamped with a message, free-text parameters)
PARAMS: dict[str, tuple[list[str], list[str]]] = {
    "home": (["tok", "merges"], ["text"]),
    "compare": (["tok"], ["text"]),
    "inspector": (["tok"], ["word", "en"]),
    "normalization": (["example", "form"], ["text"]),
    "pretokenizers": (["example", "patterns"], ["text"]),
    "replay": (["tok"], ["text"]),
    "special_tokens": (["tok"], ["text"]),
    "stepper": (["corpus", "unit", "pattern", "tie", "merges", "step"], ["words", "text"]),
    "tax": (["data", "tok"], []),
    "train": (["corpus", "recipes", "sizes", "minf"], []),
    "unigram": (["model", "sample", "size"], ["word"]),
    "wordpiece": (["vocab", "sample", "size"], ["text", "wp_typed"]),
}

#: Values no choice, number or id list accepts (each is refused, or clamped when numeric).
BAD = ["99999", "-5", "abc", "1e309", "9" * 5000, "nan", ",,,", "<img src=x onerror=alert(1)>",
       "![x](http://evil.test/x.png)", "\u202e\u2066x", "-0x10", "1" + "0" * 30]


def run_page(page: str, query: dict[str, str]) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=180)
    if page != "home":
        at.switch_page(f"pages/{page}.py")
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    return at


def warnings(at: AppTest) -> list[str]:
    return [w.value for w in at.warning]


@pytest.mark.parametrize("page", list(PARAMS))
def test_bad_url_values_are_refused_with_a_message(page):
    checked, free = PARAMS[page]
    for bad in BAD:
        at = run_page(page, {p: bad for p in checked})
        assert not at.exception, (page, bad[:40], [e.value for e in at.exception])
        shown = "\n".join(warnings(at))
        for p in checked:
            assert f"{p}=" in shown, (page, p, bad[:40], shown[:500])
        if free:  # free text is used as typed (the page's own limits and errors apply): only no exception
            at = run_page(page, {p: bad for p in free})
            assert not at.exception, (page, bad[:40], [e.value for e in at.exception])


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


def _page_params() -> dict[str, set[str]]:
    """URL parameter names each page file passes to ``qp_init`` (``param=``, else the key when it is a literal)."""
    import ast

    out: dict[str, set[str]] = {}
    for path in sorted((REPO / "pages").glob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "qp_init":
                param = next((k.value for k in node.keywords if k.arg == "param"), None)
                if param is None and node.args and isinstance(node.args[0], ast.Constant):
                    param = node.args[0]
                if isinstance(param, ast.Constant):
                    names.add(param.value)
        out[path.stem] = names
    return out


def test_no_page_reuses_the_interface_language_parameter():
    """``?lang=`` is the interface language (the router reads it on every page). A page that also kept its own
    choice in ``lang`` (the WordPiece and Unigram sample once did) wrote ``lang=bn`` into the URL, so a shared
    link, or a later rerun that took the URL as new, switched the whole interface to Bangla."""
    from tests.app_hostile import URL_PARAMS

    params = _page_params()
    assert "lang" in params["_controls"] and "text" in params["_text_input"]  # the scan finds the shared parameters
    clashes = {page for page, names in params.items() if page != "_controls" and "lang" in names}
    assert not clashes, f"pages keeping their own state in ?lang=: {sorted(clashes)}"
    unknown = {(page, n) for page, names in params.items() for n in names if n not in URL_PARAMS}
    assert not unknown, f"URL parameters the hostile-value tests do not try: {sorted(unknown)}"


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
