"""Untrusted input through the app's pages: native panics, the CLI's hostile corpus through every uploader,
catastrophic patterns, hostile pastes, bounded caches, the per-session tokenizer budget.

Every page scenario runs in a child process under RLIMIT_AS / RLIMIT_CPU
(:func:`tests.app_hostile.run_scenario`): the bound on time and memory is
the resource limit, never a timed assertion. ``TL_APP_ROOT=/path/to/old/checkout``
runs the same scenarios against another checkout (how they were checked to
fail on the old code).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.app_hostile import BAD_PASTES, UPLOADERS, bad_steps, run_scenario
from tests.conftest import REPO


def _run(name: str, arg: str) -> list[dict]:
    rc, steps, err = run_scenario(name, arg)
    assert rc == 0, (f"the child died (status {rc}; a negative status is a signal, e.g. its CPU limit) after "
                     f"{len(steps)} steps:\n{err}")
    assert steps, f"the child reported nothing:\n{err}"
    return steps


# ---------------------------------------------------------------------------
# Native panics: a Split regex that backtracks, broken tiktoken files
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("case, says", [
    ("split-regex", "backtracks too much"),
    ("tiktoken-no-single-bytes", "single bytes have no rank"),
    ("tiktoken-duplicate-ranks", "used twice"),
])
def test_a_panic_upload_ends_in_a_message_and_the_page_keeps_working(case, says):
    steps = {s["step"]: s for s in _run("panic-upload", case)}
    assert not bad_steps(list(steps.values()))
    for step in ("upload", "rerun 1", "rerun 2"):
        s = steps[step]
        assert any(says in e for e in s["errors"]), (step, s["errors"])
        assert "bytes" in s["table"], f"{step}: the page stopped before the comparison table ({s})"
    assert "bytes" in steps["harmless text"]["table"]
    if case == "split-regex":  # the same tokenizer works on text its regex does not choke on
        assert "user:tokenizer.json" in steps["harmless text"]["table"]
        assert not steps["harmless text"]["errors"]


def test_the_rule_builder_with_a_backtracking_pattern_says_so_and_recovers():
    steps = _run("rules", "panic")
    assert not bad_steps(steps)
    bad, after = steps[1], steps[2]
    assert any("backtracks too much" in e for e in bad["errors"]), bad["errors"]
    assert after["has_export"], "a plain rule after the bad one did not produce the normalizer JSON"


# ---------------------------------------------------------------------------
# The CLI's hostile corpus and pasted patterns, through the pages (hostile URL values: test_url_params.py)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("uploader", list(UPLOADERS))
def test_hostile_files_through_every_uploader(uploader):
    steps = _run("uploads", uploader)
    assert not bad_steps(steps)
    uploads = [s for s in steps if s["step"].startswith("upload ")]
    assert len(uploads) >= 5
    refused = {"nul.txt", "latin1.txt", "deep.json", "hugeid.json", "dupid.json", "dup.tiktoken", "bigrank.tiktoken",
               "one.tiktoken", "empty.tiktoken", "sparse.bin", "emptywp.json", "sparseid.json"}
    for s in uploads:
        kind = s["step"].removeprefix("upload ")
        if kind in refused or uploader == "chat":  # every chat template of the corpus breaks a rule or a limit
            assert s["errors"] or s["warnings"], f"{uploader}: {kind} was taken without a message"


def test_regex_compile_bombs_in_a_vocabulary_link_end_in_one_message():
    """Issue 37: ``/vocabulary?mode=regex&query=(?:(?:(?:a{100}){100}){100}){100}`` grew the server to gigabytes."""
    steps = _run("issue37", "vocabulary")
    assert not bad_steps(steps)
    for s in steps:
        if s["step"].startswith("bomb"):
            assert any("too large to compile" in e for e in s["errors"]), s
        else:
            assert not s["errors"], s


def test_bad_tool_definitions_on_the_chat_page_end_in_one_message():
    """Issue 37: a lone surrogate in the tools passed the parser and broke the output with a raw codec message."""
    steps = _run("issue37", "chat-tools")
    assert not bad_steps(steps)
    says = ("lone surrogate", "lone surrogate", "more than 4,300 digits")
    for s, text in zip([s for s in steps if s["step"].startswith("tools")], says):
        assert any(text in e for e in s["errors"]), s
        assert not any("codec" in e for e in s["errors"]), s
    assert steps[-1]["dataframes"] and not steps[-1]["errors"]


def test_catastrophic_patterns_in_the_rule_builder():
    steps = _run("rules", "all")
    assert not bad_steps(steps)
    by = {s["step"]: s for s in steps}
    for pat in ("(a+)+$", "(a|aa)+$", "((a+)+)+c"):
        assert any("backtracks too much" in e for e in by[f"rule {pat}"]["errors"]), pat
    for pat in ("(", "[", "\\"):
        assert any("not a valid regex" in e for e in by[f"rule {pat}"]["errors"]), pat
    assert all(s["has_export"] for name, s in by.items() if name.startswith("plain rule after"))


def test_a_word_count_too_big_for_the_chart_is_refused_on_the_stepper():
    from tests.helpers import open_page, shown

    at = open_page("stepper", {"corpus": "toy", "words": "x:99999999999999999999999"}, timeout=300)
    assert any("a count may be at most 1,000,000,000,000" in shown(e.value) for e in at.error), [e.value for e in at.error]


def test_the_hard_cases_upload_is_cut_to_the_text_limit_with_a_notice():
    from pages._text_input import MAX_CHARS
    from tests.helpers import open_page, shown

    at = open_page("special_tokens", {"tok": "bytes"}, timeout=300)
    at.file_uploader(key="sp_cases").upload("long.txt", ("ঘর " * 700_000).encode(), "text/plain").run()
    assert not at.exception, [e.value for e in at.exception]
    notes = [shown(w.value) for w in at.warning]
    assert any(f"first {MAX_CHARS:,} of 2,100,000 characters" in n for n in notes), notes


def test_the_reports_english_text_is_cut_to_the_text_limit_with_a_notice():
    from pages._text_input import MAX_CHARS
    from tests.helpers import open_page, shown

    at = open_page("compare", {"tok": "bytes", "text": "hello"}, timeout=300)
    at.text_area(key="cmp_report_en").set_value("hello " * 50_000).run()
    assert not at.exception, [e.value for e in at.exception]
    notes = [shown(w.value) for w in at.warning]
    assert any(f"first {MAX_CHARS:,} of 300,000 characters" in n for n in notes), notes


@pytest.mark.parametrize("page", ["pretokenizers", "normalization", "home"])
def test_hostile_pastes(page):
    steps = _run("pastes", page)
    assert len(steps) == len(BAD_PASTES) + 1
    assert not bad_steps(steps)


# ---------------------------------------------------------------------------
# Caches keyed on arguments are bounded
# ---------------------------------------------------------------------------

def _cache_kind(dec: ast.expr) -> str | None:
    target = dec.func if isinstance(dec, ast.Call) else dec
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", None)
    return name if name in ("cache_data", "cache_resource", "lru_cache", "cache") else None


def unbounded_caches(paths: list[Path]) -> list[str]:
    """``file:line function`` of every cache decorator on a function with parameters that has no bound.

    Streamlit caches need ``max_entries`` or ``ttl``; ``lru_cache`` needs a
    ``maxsize`` that is not None (bare ``@lru_cache`` is 128); ``functools.cache``
    is never bounded. A function without parameters has one entry.
    """
    found = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            a = node.args
            if not (a.posonlyargs or a.args or a.kwonlyargs or a.vararg or a.kwarg):
                continue
            for dec in node.decorator_list:
                kind = _cache_kind(dec)
                if kind is None:
                    continue
                kw = {k.arg: k.value for k in dec.keywords} if isinstance(dec, ast.Call) else {}
                if kind in ("cache_data", "cache_resource"):
                    bounded = any(k in kw and not (isinstance(kw[k], ast.Constant) and kw[k].value is None)
                                  for k in ("max_entries", "ttl"))
                elif kind == "lru_cache":
                    size = kw.get("maxsize") or (dec.args[0] if isinstance(dec, ast.Call) and dec.args else None)
                    bounded = not (isinstance(size, ast.Constant) and size.value is None)
                else:
                    bounded = False
                if not bounded:
                    found.append(f"{path.relative_to(REPO)}:{node.lineno} {node.name}")
    return found


def test_every_cache_on_a_function_with_arguments_is_bounded():
    files = sorted([*(REPO / "pages").glob("*.py"), *(REPO / "core").rglob("*.py"), REPO / "app.py"])
    assert len(files) > 30
    assert unbounded_caches(files) == []


def test_the_cache_scan_finds_unbounded_caches(tmp_path):
    src = tmp_path / "x.py"
    src.write_text(
        "import functools\nimport streamlit as st\n"
        "@st.cache_data(show_spinner=False)\ndef a(x): ...\n"
        "@st.cache_resource\ndef b(x): ...\n"
        "@functools.lru_cache(maxsize=None)\ndef c(x): ...\n"
        "@functools.cache\ndef d(x): ...\n"
        "@st.cache_data(max_entries=4)\ndef ok1(x): ...\n"
        "@st.cache_data(ttl=60)\ndef ok2(x): ...\n"
        "@functools.lru_cache\ndef ok3(x): ...\n"
        "@st.cache_data\ndef ok4(): ...\n", encoding="utf-8")
    import tests.test_untrusted_pages as me

    old = me.REPO
    me.REPO = tmp_path
    try:
        assert [f.split()[1] for f in unbounded_caches([src])] == ["a", "b", "c", "d"]
    finally:
        me.REPO = old


# ---------------------------------------------------------------------------
# The per-session budget for uploaded and trained tokenizers
# ---------------------------------------------------------------------------

def _ranks_file(extra: int) -> bytes:
    import base64

    toks = [bytes((b,)) for b in range(256)] + [b"x%d" % i for i in range(extra)]
    return b"".join(base64.b64encode(t) + b" %d\n" % r for r, t in enumerate(toks))


def test_the_session_tokenizer_cap_gives_a_message_and_forget_frees_it():
    from core.text import limits
    from tests.helpers import open_page

    at = open_page("compare", {"tok": "bytes", "text": "x1 x2"}, timeout=300, check=False)
    for i in range(limits.MAX_SESSION_TOKENIZERS):
        at.file_uploader(key="cmp_upload").upload(f"t{i}.tiktoken", _ranks_file(i + 1), "text/plain").run()
        assert not at.exception and not at.error, [e.value for e in at.error]
    at.file_uploader(key="cmp_upload").upload("one-more.tiktoken", _ranks_file(20), "text/plain").run()
    assert not at.exception
    assert any("already holds 8 uploaded or trained tokenizers" in e.value for e in at.error), [e.value for e in at.error]
    assert len(at.session_state["session_tokenizers"]) == limits.MAX_SESSION_TOKENIZERS
    forget = [b for b in at.button if b.key == "cmp_forget"]
    assert forget, "no Forget button"
    forget[0].click().run()
    # the eight are gone, and so is the file in the uploader (else it would load again at once): a fresh,
    # empty uploader takes the next file
    assert not at.exception and not at.session_state["session_tokenizers"]
    assert [u.key for u in at.get("file_uploader") if u.key.startswith("cmp_upload")] == ["cmp_upload_1"]
    at.file_uploader(key="cmp_upload_1").upload("again.tiktoken", _ranks_file(3), "text/plain").run()
    assert not at.error and "user:again.tiktoken" in at.session_state["session_tokenizers"]


def test_the_session_budget_counts_estimated_bytes():
    from core.text import limits

    limits.check_session_budget([100 * 2**20], 300 * 2**20)
    with pytest.raises(limits.LimitError, match="limit per session is 512.0 MB"):
        limits.check_session_budget([300 * 2**20], 300 * 2**20)
    # memory follows the entries once loaded: 100k ranks is about 100 MB whatever the file size
    assert limits.estimate_tokenizer_bytes(1_700_000, 100_000) == 100_000 * limits.BYTES_PER_ENTRY


def test_the_cli_turns_the_same_panic_into_one_line(tmp_path):
    import resource
    import subprocess
    import sys

    from tests.app_hostile import BACKTRACK_TEXT, split_regex_tokenizer_json

    path = tmp_path / "tokenizer.json"
    path.write_bytes(split_regex_tokenizer_json())

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (60, 60))

    import os

    for env in ({}, {"RUST_BACKTRACE": "1"}):  # Rust's own hook report (and backtrace) is kept off stderr
        proc = subprocess.run([sys.executable, "-m", "core", "tokenize", "--tokenizer", f"file:{path}",
                               "--text", BACKTRACK_TEXT], cwd=REPO, capture_output=True, text=True,
                              preexec_fn=limit, env={**{k: v for k, v in os.environ.items() if k != "RUST_BACKTRACE"},
                                                     **env})
        assert proc.returncode == 2, proc.stderr[-2000:]
        lines = proc.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error:") and "backtracks too much" in lines[0], proc.stderr[-2000:]
    raw = subprocess.run([sys.executable, "-m", "core", "tokenize", "--tokenizer", f"file:{path}", "--text",
                          BACKTRACK_TEXT], cwd=REPO, capture_output=True, text=True, preexec_fn=limit,
                         env={**os.environ, "TOKENIZER_LAB_RAW_STDERR": "1"})
    assert "panicked at" in raw.stderr and raw.stderr.splitlines()[-1].startswith("error:")
