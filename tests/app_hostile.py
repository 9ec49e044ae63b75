"""Hostile input through the app's pages (AppTest), one scenario per child process.

Native panics (a Rust regex that backtracks, broken tiktoken files) and the CLI's
hostile corpus, garbage URL values and catastrophic patterns, through the pages. Each
scenario runs in a child process with RLIMIT_AS / RLIMIT_CPU
(:func:`run_scenario`), so a page that hangs or balloons ends the child,
not the test session, and no wall-clock assertion is needed. The child
prints one JSON document: for every step, the exception boxes, error and
warning texts, and the scenario's own check of the page after it (for
example: the comparison table still lists the other tokenizers).

``python tests/app_hostile.py SCENARIO [ARG]`` runs one scenario against
the checkout in the current directory (that is how the tests point it at
an old commit to check that they fail there).
"""
from __future__ import annotations

import base64
import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
#: Limits on each scenario's process (a scenario is several page runs).
MEMORY_LIMIT = 4 * 1024**3
CPU_LIMIT_S = 240
#: The text the Split-regex tokenizer backtracks on (the panic case).
BACKTRACK_TEXT = "a" * 40 + "b"
#: Catastrophic patterns for the normalization rule builder.
BAD_PATTERNS = ("(a+)+$", "(a|aa)+$", "(a*)*b", "((a+)+)+c", "(", "[", "(?<=a+)b", "\\")
#: Hostile URL values no choice, number or id list accepts: each is refused, or clamped when numeric, with
#: a warning naming the parameter. With the values after them, the one list of hostile URL values the
#: URL-value suite (tests/test_url_params.py) tries in every parameter of every page.
REFUSED_VALUES = ("99999", "-5", "abc", "1e309", "9" * 5000, "nan", ",,,", "<img src=x onerror=alert(1)>",
                  "![x](http://evil.test/x.png)", "\u202e\u2066x", "-0x10", "1" + "0" * 30)
#: More hostile URL values, for which only "no exception anywhere" is asserted (some parameter may take them).
OTHER_VALUES = ("", "0", "99999999999", "x" * 3000, "../../etc/passwd", "\u0301" * 500, "trained", "upload")
HOSTILE_VALUES = REFUSED_VALUES + OTHER_VALUES
#: Refused values that are only a number gone wrong: tried in the checked parameters (where a number is read), not
#: also in every free-text one at once (where "99999" is just five characters of text, as "0" already is).
NUMERIC_ONLY = ("99999", "-5", "1e309", "nan", "-0x10", "1" + "0" * 30)
#: Refused values that are plain text in a free-text parameter (a word, commas, a long run of one digit, as "x" * 3000
#: already is): tried in the checked parameters only, not also in every parameter at once.
PLAIN_REFUSED = ("abc", ",,,", "9" * 5000)
#: ``qp_init`` keywords that make a parameter checked (refused or clamped with a message); without them it is free text.
CHECKED_BY = {"choices", "cast", "lo", "hi"}


def page_params(root: Path | None = None) -> dict[str, dict[str, str]]:
    """For each file of ``pages/``: the URL parameters it reads, each ``"checked"`` or ``"free"``.

    Read from the source with ``ast``: ``qp_init(key, ..., param=...)`` (the key when there is no
    ``param``; checked when it passes any of :data:`CHECKED_BY`) and ``st.query_params.get("name")``
    (free). The ``_*`` helper modules hold the shared parameters (``lang``, ``text``, ``classroom``), read on
    every page (:func:`own_params`). A ``qp_init`` whose parameter name is not a literal cannot be tried and is an error.
    """
    import ast

    out: dict[str, dict[str, str]] = {}
    for path in sorted(((root or HERE.parent) / "pages").glob("*.py")):
        found: dict[str, str] = {}
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if getattr(func, "id", None) == "qp_init":
                kw = {k.arg: k.value for k in node.keywords}
                name = kw.get("param") or (node.args[0] if node.args else None)
                kind = "checked" if CHECKED_BY & set(kw) else "free"
            elif (isinstance(func, ast.Attribute) and func.attr == "get"
                  and getattr(func.value, "attr", None) == "query_params"):
                name, kind = (node.args[0] if node.args else None), "free"
                if not isinstance(name, ast.Constant):
                    continue  # qp_init's own read of the parameter it was given
            else:
                continue
            if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
                raise AssertionError(f"{path.name}:{node.lineno}: a URL parameter whose name is not a literal")
            if found.get(name.value) != "checked":
                found[name.value] = kind
        out[path.stem] = found
    return out


def own_params(page: str, root: Path | None = None) -> dict[str, str]:
    """The URL parameters ``page`` reads: its own, and those of the shared page helpers (``pages/_*.py``, the
    router's ``lang``, ``text``, ``classroom``...), which every page runs."""
    params = page_params(root)
    shared: dict[str, str] = {}
    for name, found in params.items():
        if name.startswith("_"):
            for p, kind in found.items():
                if shared.get(p) != "checked":
                    shared[p] = kind
    return {**shared, **params.get(page, {})}


def url_params(root: Path | None = None) -> tuple[str, ...]:
    """Every URL parameter any page reads (the union of :func:`page_params`)."""
    return tuple(sorted({p for params in page_params(root).values() for p in params}))


#: Hostile pastes for the text boxes (the pre-tokenizers page has no pattern box: its patterns are a fixed list).
BAD_PASTES = ("\u0301" * 3200, "a" * 100_000 + "b", "[" * 2000, "\u200f\u202e" * 500 + "abc", "\ufeff" * 1000,
              "🏳️‍🌈" * 2000, "\x00\x01\x02" * 100)


# ---------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------

def _b64(b: bytes) -> bytes:
    return base64.b64encode(b)


def split_regex_tokenizer_json() -> bytes:
    """A valid tokenizer.json whose Split pre-tokenizer ``(a+)+$`` makes Oniguruma give up (a Rust panic)."""
    vocab = {"[UNK]": 0, "a": 1, "b": 2, "h": 3, "e": 4, "l": 5, "o": 6}
    cfg = {"version": "1.0", "truncation": None, "padding": None, "added_tokens": [], "normalizer": None,
           "pre_tokenizer": {"type": "Split", "pattern": {"Regex": "(a+)+$"}, "behavior": "Isolated", "invert": False},
           "post_processor": None, "decoder": None,
           "model": {"type": "WordLevel", "vocab": vocab, "unk_token": "[UNK]"}}
    return json.dumps(cfg).encode()


def tiktoken_without_single_bytes() -> bytes:
    return b"\n".join(_b64(t) + b" %d" % i for i, t in enumerate([b"a", b"b", b"ab", b"hello"])) + b"\n"


def tiktoken_duplicate_ranks() -> bytes:
    lines = [_b64(bytes((b,))) + b" %d" % b for b in range(256)] + [_b64(b"ab") + b" 5"]
    return b"\n".join(lines) + b"\n"


PANIC_UPLOADS = {
    "split-regex": ("tokenizer.json", split_regex_tokenizer_json),
    "tiktoken-no-single-bytes": ("nobytes.tiktoken", tiktoken_without_single_bytes),
    "tiktoken-duplicate-ranks": ("dup.tiktoken", tiktoken_duplicate_ranks),
}


# ---------------------------------------------------------------------------
# Page runs
# ---------------------------------------------------------------------------

def _app(page: str, query: dict[str, str] | None = None):
    import importlib.util

    # by file, not ``import tests.helpers``: with TL_APP_ROOT the import path is the other checkout's
    spec = importlib.util.spec_from_file_location("_tl_test_helpers", HERE / "helpers.py")
    helpers = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(helpers)
    return helpers.app_test(page, query, timeout=3600, root=Path.cwd())  # bounded by RLIMIT_CPU instead


def _texts(elems) -> list[str]:
    out = []
    for e in elems:
        try:
            out.append(str(e.value)[:400])
        except Exception:
            out.append(repr(e)[:400])
    return out


def _record(at, step: str, **checks: Any) -> dict[str, Any]:
    return {"step": step, "exceptions": _texts(at.exception), "errors": _texts(at.error),
            "warnings": _texts(at.warning), **checks}


def _table_tokenizers(at) -> list[str]:
    try:
        return [str(x) for x in at.dataframe[0].value["tokenizer"]]
    except Exception:
        return []


def _run(at, step: str) -> dict[str, Any]:
    """Run the page, converting a test-harness failure into a recorded step (the parent judges it)."""
    try:
        at.run()
    except BaseException as exc:
        return {"step": step, "exceptions": [f"AppTest run failed: {type(exc).__name__}: {exc}"[:400]],
                "errors": [], "warnings": []}
    return _record(at, step, table=_table_tokenizers(at))


def scenario_panic_upload(case: str) -> list[dict[str, Any]]:
    """Upload one of the panic files on Compare; rerun twice; then a harmless text must work."""
    name, make = PANIC_UPLOADS[case]
    at = _app("compare", {"text": BACKTRACK_TEXT, "tok": "bytes"})
    steps = [_run(at, "open")]
    at.file_uploader(key="cmp_upload").upload(name, make(), "application/octet-stream")
    steps.append(_run(at, "upload"))
    steps.append(_run(at, "rerun 1"))
    steps.append(_run(at, "rerun 2"))
    at.text_area(key="cmp_text").set_value("hello")
    steps.append(_run(at, "harmless text"))
    return steps


def _rule_editor_id(at) -> str:
    def walk(node):
        yield node
        for c in getattr(node, "children", {}).values():
            yield from walk(c)

    for n in walk(at._tree):
        wid = getattr(getattr(n, "proto", None), "id", "")
        if isinstance(wid, str) and wid.endswith("-norm_rules"):
            return wid
    raise AssertionError("the rule builder (data_editor norm_rules) is not on the page")


def _run_with_rule(at, pattern: str, text: str, step: str) -> dict[str, Any]:
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    at.text_area(key="norm_rule_text").set_value(text)
    states = at._tree.get_widget_states()
    edit = {"edited_rows": {"0": {"pattern": pattern, "regex": True}}, "added_rows": [], "deleted_rows": []}
    states.widgets.append(WidgetState(id=_rule_editor_id(at), string_value=json.dumps(edit)))
    try:
        at._run(states)
    except BaseException as exc:
        return {"step": step, "exceptions": [f"AppTest run failed: {type(exc).__name__}: {exc}"[:400]],
                "errors": [], "warnings": []}
    return _record(at, step, has_export=any("normalizer" in str(c.value) for c in at.code))


def scenario_rule_patterns(which: str = "panic") -> list[dict[str, Any]]:
    """The normalization rule builder with catastrophic patterns; after each, a plain rule must work again."""
    at = _app("normalization")
    steps = [_run(at, "open")]
    patterns = ("(a+)+$",) if which == "panic" else BAD_PATTERNS
    for pat in patterns:
        steps.append(_run_with_rule(at, pat, BACKTRACK_TEXT * 50, f"rule {pat}"))
        steps.append(_run_with_rule(at, "a", "banana", f"plain rule after {pat}"))
    return steps


def _hostile_files(d: Path) -> dict[str, Path]:
    import importlib.util

    # by file, as _app loads helpers: putting this checkout on sys.path would make the pages import its core
    # instead of TL_APP_ROOT's (the corpus itself imports nothing of the app)
    spec = importlib.util.spec_from_file_location("_tl_hostile_corpus", HERE / "hostile_corpus.py")
    corpus = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = corpus  # its dataclasses look their module up by name
    spec.loader.exec_module(corpus)
    files = corpus.make_files(d)
    return {k: p for k, p in files.items() if p.is_file()}  # uploads are bytes: no FIFO or folder


#: Tokenizer-file kinds of the CLI corpus (tests/hostile_corpus.py) and text-file kinds, as uploads.
TOKENIZER_FILES = ("deep.json", "deep_plain.json", "hugeid.json", "sparseid.json", "dupid.json", "emptywp.json",
                   "dup.tiktoken", "bigrank.tiktoken", "one.tiktoken", "empty.tiktoken", "sparse.bin",
                   "empty_vocab.txt", "nul.txt", "latin1.txt")
TEXT_FILES = ("sparse.bin", "nul.txt", "latin1.txt", "aaaa.txt", "noline.txt", "late_nul.txt", "big.txt",
              "ragged.tsv", "deep.json", "empty_vocab.txt", "doc.txt")
#: Chat templates of the CLI corpus that must each end in one message (loops, memory and output bombs, escapes).
TEMPLATE_FILES = ("tmpl_loop.jinja", "tmpl_strloop.jinja", "tmpl_center.jinja", "tmpl_nested.jinja",
                  "tmpl_output.jinja", "tmpl_double.jinja", "tmpl_power.jinja", "tmpl_escape.jinja", "tmpl_raise.jinja",
                  "tmpl_syntax.jinja", "tmpl_huge.jinja", "cfg_notemplate.json", "cfg_deep.json", "deep.json",
                  "sparse.bin", "latin1.txt", "cfg_listname.json", "cfg_dictname.json", "tmpl_surrogate.jinja",
                  "tmpl_escape_seq.jinja")
#: The uploaders: page, widget key, query, which files, and the largest file the browser would send (MB).
UPLOADERS = {
    "chat": ("chat_format", "chat_upload", {"sample": "bn"}, TEMPLATE_FILES, 4),
    "compare": ("compare", "cmp_upload", {"tok": "bytes", "text": "ঘর"}, TOKENIZER_FILES, 200),
    "train-load": ("train", "tr_load", {"recipes": "bpe", "sizes": "300"}, TOKENIZER_FILES, 5),
    "home": ("home", "home_text_upload", {"tok": "bytes"}, TEXT_FILES, 5),
    "stepper": ("stepper", "st_upload", {"corpus": "upload"}, TEXT_FILES, 5),
    "special-tokens": ("special_tokens", "sp_cases", {}, TEXT_FILES, 5),
    "tax": ("tax", "tax_upload", {"data": "upload", "tok": "bytes"}, TEXT_FILES, 5),
    "tax-records": ("tax", "tax_fmt_upload", {"records": "upload", "tok": "bytes"},
                    ("deep.json", "deep_plain.json", "latin1.txt", "sparse.bin", "nul.txt", "doc.txt"), 2),
    "train": ("train", "tr_upload", {"corpus": "upload", "recipes": "bpe", "sizes": "300"}, TEXT_FILES, 5),
    "wordpiece": ("wordpiece", "wp_upload", {"vocab": "upload"}, TOKENIZER_FILES, 20),
    "unigram": ("unigram", "ug_upload", {"model": "upload"}, TOKENIZER_FILES, 50),
    "vocabulary-corpus": ("vocabulary", "vc_corpus", {"tok": "cl100k_base"}, TEXT_FILES, 5),
}


#: File name endings each uploader accepts (its ``type=``), first one used to rename other kinds.
EXTENSIONS = {"compare": (".model", ".json", ".tiktoken"), "train-load": (".json",), "home": (".txt", ".md", ".tsv"),
              "stepper": (".txt", ".md"), "special-tokens": (".txt",), "tax": (".tsv", ".txt"), "tax-records": (".json",), "train": (".txt",),
              "wordpiece": ("",), "unigram": ("",),  # type=None: any name
              "vocabulary-corpus": (".txt", ".md", ".tsv"), "chat": (".jinja", ".json")}


def scenario_uploads(uploader: str) -> list[dict[str, Any]]:
    """Every hostile file of the CLI corpus through one uploader (files the browser would refuse as too big are skipped)."""
    import tempfile

    page, key, query, kinds, max_mb = UPLOADERS[uploader]
    allowed = EXTENSIONS[uploader]
    with tempfile.TemporaryDirectory() as tmp:
        files = _hostile_files(Path(tmp))
        at = _app(page, query)
        steps = [_run(at, "open")]
        for kind in kinds:
            path = files.get(kind)
            if path is None or path.stat().st_size > max_mb * 1024 * 1024:
                continue
            try:
                uploader = at.file_uploader(key=key)
            except KeyError:  # the previous run did not get as far as the uploader
                steps.append({"step": f"upload {kind}", "exceptions": [f"the uploader {key} is not on the page"],
                              "errors": [], "warnings": []})
                at = _app(page, query)
                steps.append(_run(at, "reopen"))
                continue
            name = kind if kind.endswith(allowed) else f"{kind}{allowed[0]}"  # the browser only sends these
            uploader.upload(name, path.read_bytes(), "application/octet-stream")
            steps.append(_run(at, f"upload {kind}"))
    return steps


def scenario_links(page: str) -> list[dict[str, Any]]:
    """Each hostile value, in a fresh session each time: in every URL parameter any page reads, all at once
    (step ``all``; not for :data:`NUMERIC_ONLY` or :data:`PLAIN_REFUSED`); and, for a value every checked parameter must refuse, in the checked ones only (step
    ``checked``: a free-text value could end the page before a later parameter is read, e.g. a one-word
    stepper corpus has no merge to step to)."""
    params = page_params(Path.cwd())
    every = sorted({p for found in params.values() for p in found})
    checked = sorted({p for found in params.values() for p, kind in found.items() if kind == "checked"})
    steps = []
    for i, value in enumerate(HOSTILE_VALUES):
        if value not in NUMERIC_ONLY and value not in PLAIN_REFUSED:
            at = _app(page, {p: value for p in every})
            steps.append({**_run(at, f"all params = {value[:30]!r}"), "value": i, "set": "all"})
        if value in REFUSED_VALUES:
            at = _app(page, {p: value for p in checked})
            steps.append({**_run(at, f"checked params = {value[:30]!r}"), "value": i, "set": "checked"})
    return steps


def scenario_pastes(page: str) -> list[dict[str, Any]]:
    """Hostile pastes into the page's main text box."""
    key = {"pretokenizers": "pt_text", "normalization": "norm_text", "home": "home_text"}[page]
    at = _app(page)
    steps = [_run(at, "open")]
    for text in BAD_PASTES:
        at.text_area(key=key).set_value(text)
        steps.append(_run(at, f"paste {text[:12]!r}… ({len(text):,} chars)"))
    return steps


#: Regex compile bombs (issue 37: a link alone grew the server to gigabytes) and their neighbours.
REGEX_BOMBS = ("(?:(?:(?:a{100}){100}){100}){100}", "(?:(?:a{100}){100}){1000}", "(?:\\w{1000}){1000}",
               "(" * 120 + "a" + ")" * 120)
#: Tool definitions the Chat page must refuse in one message (a lone surrogate passed, then broke the output).
BAD_TOOLS = ('[{"type": "function", "function": {"name": "f\\ud800"}}]', '[{"\\udc00": 1}]',
             '[{"n": ' + "9" * 5000 + "}]")


def scenario_issue37(which: str) -> list[dict[str, Any]]:
    """``vocabulary``: each regex bomb as a link (``mode=regex&query=``), then a sane search on the same page;
    ``chat-tools``: each bad tool list pasted, then an empty one (the page must show its tables again)."""
    steps = []
    if which == "vocabulary":
        for bomb in REGEX_BOMBS:
            at = _app("vocabulary", {"tok": "cl100k_base", "mode": "regex", "query": bomb})
            steps.append(_run(at, f"bomb {bomb[:24]}"))
            at.text_input(key="vc_query").set_value("^a$")
            steps.append(_run(at, f"sane search after {bomb[:24]}"))
    else:
        at = _app("chat_format", {"sample": "en", "tpl": "qwen-2.5,granite-3.3"})
        steps.append(_run(at, "open"))
        for tools in BAD_TOOLS:
            at.text_area(key="chat_tools").set_value(tools)
            steps.append(_run(at, f"tools {tools[:30]}"))
        at.text_area(key="chat_tools").set_value("")
        steps.append({**_run(at, "no tools"), "dataframes": len(at.dataframe)})
    return steps


SCENARIOS = {"panic-upload": scenario_panic_upload, "rules": scenario_rule_patterns, "uploads": scenario_uploads,
             "urls": scenario_links, "pastes": scenario_pastes, "issue37": scenario_issue37}


# ---------------------------------------------------------------------------
# The parent side
# ---------------------------------------------------------------------------

def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_LIMIT_S, CPU_LIMIT_S))


def run_scenario(name: str, arg: str, root: Path | None = None) -> tuple[int, list[dict[str, Any]], str]:
    """Run one scenario in a child under RLIMIT_AS/RLIMIT_CPU against checkout ``root`` (``TL_APP_ROOT`` or this one).

    Returns (exit status, steps, the child's stderr tail). A child killed by
    its CPU limit has a negative status (SIGXCPU/SIGKILL).
    """
    root = Path(root or os.environ.get("TL_APP_ROOT") or HERE.parent)
    # MALLOC_ARENA_MAX: each thread's malloc arena reserves 64 MB of address space, which RLIMIT_AS counts
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONUNBUFFERED": "1", "MALLOC_ARENA_MAX": "2"}
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), name, arg], cwd=root, env=env,
                          capture_output=True, text=True, preexec_fn=_limits, stdin=subprocess.DEVNULL)
    steps: list[dict[str, Any]] = []
    for line in proc.stdout.splitlines():
        if line.startswith("{\"steps\""):
            steps = json.loads(line)["steps"]
    return proc.returncode, steps, proc.stderr[-3000:]


def bad_steps(steps: list[dict[str, Any]], *, need_message: bool = False) -> list[str]:
    """Steps that show an exception box (or, with ``need_message``, no error/warning at all)."""
    out = []
    for s in steps:
        if s["exceptions"]:
            out.append(f"{s['step']}: exception {s['exceptions'][0][:200]}")
        elif need_message and not (s["errors"] or s["warnings"]):
            out.append(f"{s['step']}: no message")
    return out


if __name__ == "__main__":
    import logging

    logging.disable(logging.WARNING)  # "missing ScriptRunContext" noise
    scenario, arg = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "")
    result = SCENARIOS[scenario](arg) if arg else SCENARIOS[scenario]()
    print(json.dumps({"steps": result}, ensure_ascii=False))
    sys.stdout.flush()
    sys.stderr.flush()
    # the steps are out: end here, before interpreter shutdown. Two children of one full run aborted with
    # "terminate called without an active exception" (SIGABRT) at exit: pyarrow (behind AppTest's dataframes)
    # can tear its thread pool down while a worker is still joinable (apache/arrow#34314, intermittent). Nothing
    # a scenario checks happens after this line.
    os._exit(0)
