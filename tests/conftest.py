"""Shared fixtures: a real ``streamlit run`` server and Debian's Chromium via playwright.

Browser tests use the ``app`` fixture (an :class:`AppBrowser`)::

    def test_my_page(app):
        app.open("my_page")            # URL path = the page file's stem
        app.assert_no_exception()
        app.screenshot("my_page")      # -> test-output/my_page.png

The server starts once per test session on a free port on 127.0.0.1. Browser
tests are skipped (not failed) only when ``/usr/bin/chromium`` is missing;
CI installs it (``.ci/run``).

Tiers
-----
Markers are applied here, in one place (:func:`pytest_collection_modifyitems`),
never written on tests:

- ``browser``: the test uses the ``app`` / ``browser`` / ``streamlit_server``
  fixtures (real Chromium against ``streamlit run``);
- ``apptest``: the test drives pages through Streamlit's ``AppTest``
  (directly, through :func:`tests.helpers.open_page`, or in a child process
  through :func:`tests.app_hostile.run_scenario`), itself or through a helper
  or fixture of its module (found with ``ast``, see :data:`APPTEST_SIGNS`);
- ``shelf``: the module needs the installed pretrained shelf
  (``python -m core zoo install``): the ``*shelf*`` test files;
- ``slow``: listed in :data:`SLOW` (measured: over ~10 s each on the 2-core machine).

The fast tier (about a minute; engine, adapters, every page's imports,
doctests)::

    python -m pytest -q -m "not browser and not apptest and not slow"

The full suite, the CI gate, is plain ``python -m pytest -q``.

Hypothesis profiles
-------------------
``ci`` keeps the example counts the suite had (100 per test, and the
per-test multiples written with :func:`tests.helpers.examples`); ``dev``
runs a tenth of them. Which one runs: ``HYPOTHESIS_PROFILE`` if set, else
``ci`` when the ``CI`` variable is set or pytest runs the whole suite (no
paths and no ``-m``: exactly what ``.ci/run`` calls), else ``dev``.
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
import zlib
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Iterator
from urllib.parse import urlsplit

import pytest
from hypothesis import settings as _hsettings

REPO = Path(__file__).resolve().parents[1]
OUTPUT = REPO / "test-output"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


# ---------------------------------------------------------------------------
# Hypothesis profiles (see the module docstring)
# ---------------------------------------------------------------------------

#: Examples per property under each profile. ``ci`` is hypothesis' own default, what the suite always ran.
PROFILE_EXAMPLES = {"ci": 100, "dev": 10}
for _name, _n in PROFILE_EXAMPLES.items():
    # deadline off in both: a loaded CI machine must not turn a slow example into a failure
    _hsettings.register_profile(_name, max_examples=_n, deadline=None)


def hypothesis_profile(config: pytest.Config) -> str:
    """``HYPOTHESIS_PROFILE``; else ``ci`` under ``CI`` or for the whole suite (no paths, no ``-m``); else ``dev``."""
    chosen = os.environ.get("HYPOTHESIS_PROFILE")
    if chosen:
        return chosen
    worker = getattr(config, "workerinput", None)  # a pytest-xdist worker: the controller chose (see below)
    if worker is not None and "hypothesis_profile" in worker:
        return str(worker["hypothesis_profile"])
    whole_suite = config.args_source == pytest.Config.ArgsSource.TESTPATHS and not config.option.markexpr
    return "ci" if os.environ.get("CI") or whole_suite else "dev"


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:
    """Workers run the profile the controller chose: their own command line names test ids, not the whole suite."""
    node.workerinput["hypothesis_profile"] = hypothesis_profile(node.config)


def pytest_configure(config: pytest.Config) -> None:
    # before collection: tests' @settings(max_examples=examples(k)) read the profile when their module is imported
    _hsettings.load_profile(hypothesis_profile(config))


def pytest_report_header(config: pytest.Config) -> str:
    return (f"hypothesis profile: {_hsettings.get_current_profile_name()} "
            f"({_hsettings.default.max_examples} examples per property)")


# ---------------------------------------------------------------------------
# Markers, applied in one place (see the module docstring)
# ---------------------------------------------------------------------------

#: Fixtures that put a test in the ``browser`` tier.
BROWSER_FIXTURES = {"app", "browser", "streamlit_server"}
#: Names that run a page through AppTest: a test whose body (or a module-level helper or fixture it uses,
#: followed to any depth) names one of them is in the ``apptest`` tier.
APPTEST_SIGNS = {"AppTest", "open_page", "app_test", "run_scenario"}
#: Tests kept out of the fast tier: a whole file, or ``file::test`` (all its parameters). Measured on the
#: 2-core machine (bench/test_durations.py over a junit XML): each is seconds or more (subprocesses, big
#: corpora, every shelf entry loaded, many tokenizers loaded for one check).
SLOW: set[str] = {
    "test_first_paint_browser.py",  # starts a fresh server per case (the first request is what it checks)
    "test_hostile.py",  # builds the CLI's hostile corpus (50 MB files, FIFOs) and runs the CLI on it
    "test_fresh_clone.py",  # clones the repository and runs pytest in the clone
    "test_train_determinism.py",  # trains in new processes
    "test_shelf.py::test_every_entry_loads_offline_and_round_trips",
    "test_shelf.py::test_tokenizer_json_entries_equal_the_library_on_generated_text",
    "test_shelf.py::test_table_matches_encoding_on_varied_text",
    "test_shelf_real_forms.py::test_the_audit_steps_are_what_the_tokenizer_does",  # loads every shelf entry
    "test_shelf_pages.py::test_compare_and_inspector_show_the_audit_and_where_llama_cpp_cuts_otherwise",
    "test_shelf_browser.py::test_compare_names_llama_cpp_where_it_cuts_otherwise_in_persian_and_bangla",  # two page loads  # three page runs with shelf tokenizers
    "test_replay_shelf.py",  # loads every BPE of the shelf and its reference library
    "test_vocab_shelf.py::test_reserved_placeholders_have_their_own_reason_and_both_tests_count_one_total",  # Gemma 4's 262k
    "test_stream_train.py::test_train_on_a_100_mb_corpus_in_bounded_memory",
    "test_stream_train.py::test_bpe_train_corpus_file_equals_the_whole_text",
    "test_stream_train.py::test_evaluate_corpus_file_equals_the_whole_text",
    "test_stream_train.py::test_streamed_word_counts_equal_the_whole_text",
    "test_stream.py::test_workers_output_is_byte_identical",
    "test_stream.py::test_dask_local_cluster_is_identical",
    "test_stream.py::test_every_streaming_command_is_byte_identical_on_a_dask_scheduler",  # a cluster, 18 CLI runs
    "test_chat_injection_shelf.py",  # mistral-common, llama-models, transformers' Qwen conversion (150,000 ranks)
    "test_stream.py::test_unreachable_scheduler_is_one_line",
    "test_stream.py::test_compare_evaluate_round_trip_equal_whole",
    "test_inspect.py::test_merges_are_explained_for_every_bpe_not_only_tiktoken",
    "test_inspect.py::test_the_merge_explanation_follows_the_word",
    "test_zoo_parity.py::test_adapter_and_replay_match_reference",
    "test_zoo.py::test_every_entry_loads_offline_with_hash_checked",
    "test_zoo.py::test_user_files_detect_format",
    "test_zoo.py::test_user_tiktoken_file_with_chosen_pattern",
    "test_parity_adapters.py::test_differential_tiktoken_family",
    "test_parity_adapters.py::test_differential_tokenizers_adapter",
    "test_parity_models.py::test_differential_bpe_trainer_merges",
    "test_align.py::test_degenerate_inputs_end_within_a_cpu_and_memory_limit",
    "test_untrusted_pages.py::test_the_cli_turns_the_same_panic_into_one_line",
    "test_cli.py::test_bad_input_one_line_error",
    "test_cli.py::test_bad_corpus_files",
    "test_algos_cli.py::test_real_subprocess",
    "test_algos_cli.py::test_pretokenize_all_and_one",
    "test_zoo_cli.py::test_module_entry_point_runs",
    "test_train_cli.py::test_module_entry_point",
    "test_adapters.py::test_special_text_is_plain_text_by_default",
    "test_adapters.py::test_special_text_is_flagged",
    "test_boundaries.py::test_codepoint_tokens_never_cut_a_codepoint_and_are_valid",
    "test_recipes.py::test_recipe_trains_with_specials_first",
}


def _apptest_names(path: Path, cache: dict[Path, set[str]] = {}) -> set[str]:  # noqa: B006 - a per-process memo
    """The signs, plus every module-level function or fixture of ``path`` that reaches one of them."""
    if path not in cache:
        import ast
        import re

        text = path.read_text(encoding="utf-8")
        bodies = {n.name: ast.get_source_segment(text, n) or "" for n in ast.parse(text).body
                  if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        names = set(APPTEST_SIGNS) | {a.asname for n in ast.walk(ast.parse(text)) if isinstance(n, ast.ImportFrom)
                                      for a in n.names if a.name in APPTEST_SIGNS and a.asname}
        while True:
            pattern = re.compile(r"\b(" + "|".join(sorted(names)) + r")\b")
            more = {n for n, body in bodies.items() if n not in names and pattern.search(body.split(":", 1)[1])}
            if not more:
                break
            names |= more
        cache[path] = names
    return cache[path]


def _uses_apptest(item: pytest.Item, path: Path) -> bool:
    import inspect
    import re

    names = _apptest_names(path)
    if names & set(getattr(item, "fixturenames", ())):
        return True
    try:
        body = inspect.getsource(item.function)  # type: ignore[attr-defined]
    except (AttributeError, OSError, TypeError):
        return False
    return re.search(r"\b(" + "|".join(sorted(names)) + r")\b", body) is not None


#: Files so long that one worker running the whole file would finish minutes after the other: their tests
#: (one per page each) are dealt into this many groups. Every other file is one group, so its tests share a
#: worker, a Streamlit server and module fixtures (``--dist loadgroup``, the README's test command).
SPLIT_FILES = {"test_injection_browser.py": 3, "test_url_params.py": 2, "test_browser.py": 2, "test_projector_browser.py": 2}
#: Seconds each test file took in a full run (``python bench/test_durations.py --costs run.xml`` writes it from a
#: ``--junitxml`` report). Only the order of the groups depends on it: a stale or missing file costs balance, never
#: a test.
DURATIONS = REPO / "tests" / "durations.json"


def _file_seconds() -> dict[str, float]:
    try:
        data = json.loads(DURATIONS.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): float(v) for k, v in data.items() if isinstance(v, (int, float))} if isinstance(data, dict) else {}


def xdist_group(item: pytest.Item) -> str:
    """The group of ``item`` under ``--dist loadgroup``: its file, or a share of one of :data:`SPLIT_FILES`."""
    path = Path(str(item.path))
    shares = SPLIT_FILES.get(path.name)
    if not shares:
        return path.name if path.parent == REPO / "tests" else str(path.relative_to(REPO))
    return f"{path.name}#{zlib.crc32(item.nodeid.encode('utf-8')) % shares}"


def group_order(items: list[pytest.Item]) -> list[pytest.Item]:
    """``items`` with the groups that take longest first, each group's tests in their own order.

    Why: ``--dist loadgroup`` hands a worker the next whole group when it is free (with ``--no-loadscope-reorder``,
    in this order), so the longest groups start at once and the last to start are the shortest: both workers end
    within a few seconds of each other (xdist's own order, by number of tests, started the long browser files
    last and left one worker idle for minutes). A file's seconds come from :data:`DURATIONS`, shared by its groups;
    a file not listed counts as short, by its number of tests.
    """
    seconds = _file_seconds()
    groups: dict[str, list[pytest.Item]] = {}
    for item in items:
        groups.setdefault(xdist_group(item), []).append(item)

    def cost(group: str) -> tuple[float, int]:
        path = Path(str(groups[group][0].path))
        name = str(path.relative_to(REPO)) if path.is_relative_to(REPO) else path.name
        return (seconds.get(name, 0.0) / SPLIT_FILES.get(path.name, 1), len(groups[group]))

    return [item for group in sorted(groups, key=cost, reverse=True) for item in groups[group]]


# tryfirst: pytest-xdist reads the xdist_group marks in its own hook of this name on each worker; it must see them
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items[:] = group_order(items)
    for item in items:
        item.add_marker(pytest.mark.xdist_group(xdist_group(item)))
        path = Path(str(item.path))
        if path.parent != REPO / "tests":
            continue  # doctests over core/ are always in the fast tier
        name = f"{path.name}::{getattr(item, 'originalname', item.name)}"
        if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
        elif _uses_apptest(item, path):
            item.add_marker(pytest.mark.apptest)
        if "shelf" in path.stem:
            item.add_marker(pytest.mark.shelf)
        if path.name in SLOW or name in SLOW:
            item.add_marker(pytest.mark.slow)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def output_dir() -> Path:
    """``test-output/`` in the repo (git-ignored): screenshots and logs."""
    OUTPUT.mkdir(exist_ok=True)
    return OUTPUT


@contextmanager
def run_streamlit(log_path: Path, cwd: Path = REPO) -> Iterator[str]:
    """Start ``streamlit run app.py`` (of the checkout ``cwd``) on a free port; yield its base URL; stop it."""
    port = free_port()
    log = open(log_path, "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true",
         "--browser.gatherUsageStats", "false"],
        cwd=cwd, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 60
        while True:
            try:
                with urllib.request.urlopen(base + "/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.time() > deadline:
                raise RuntimeError(f"streamlit did not start; see {log_path}")
            time.sleep(0.3)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def _require_chromium() -> None:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} not installed (CI installs it); browser tests skipped")


@pytest.fixture(scope="session")
def streamlit_server(output_dir: Path) -> Iterator[str]:
    """Base URL of ``streamlit run app.py`` on a free local port, shared by the session."""
    _require_chromium()
    with run_streamlit(output_dir / "streamlit-server.log") as base:
        yield base


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the session."""
    _require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


class AppBrowser:
    """A browser tab on the app with the waits and checks every page test needs."""

    def __init__(self, page, base_url: str, output_dir: Path) -> None:
        self.page = page
        self.base_url = base_url
        self.output_dir = output_dir
        self.dialogs: list[str] = []
        self._runs = 0  # script runs the page had started when it was last seen idle
        self._doc = 0.0  # and its document (performance.timeOrigin)
        page.on("dialog", self._on_dialog)

    def _on_dialog(self, dialog) -> None:
        self.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    def wait_rerun(self, timeout: float = 60.0, settle: float = 0.3) -> None:
        """After a click, key press or upload that must start a script run: wait for that run, then for the app
        to be idle. Fails when no run starts within ``timeout`` seconds (the checks that follow would otherwise
        read the old page).

        Every run the page starts is counted in the page (:data:`RUNS_JS`); a run has come when the count
        passes the one seen when the app was last idle, or the tab holds a new document (a full load counts
        from zero again). For an action that may rightly change nothing, :meth:`wait_rerun_if_any`.
        """
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        try:
            self._wait_for_run(timeout)
        except PlaywrightTimeout:
            raise AssertionError(f"no script run started within {timeout:.0f} s of the action (the page shown is "
                                 "the one from before it)") from None
        self.wait_idle(timeout, settle)

    def wait_rerun_if_any(self, start: float) -> None:
        """After an action that may change nothing the script reads (Enter in a select box's search field with
        no matching option): wait up to ``start`` seconds for a run, then for the app to be idle. Whatever follows
        may see the page from before the action: use it only where that page is as good to check."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        with suppress(PlaywrightTimeout):
            self._wait_for_run(start)
        self.wait_idle()

    def _wait_for_run(self, seconds: float) -> None:
        self.page.wait_for_function(
            "([seen, doc]) => performance.timeOrigin !== doc || (window.__tlRuns || 0) > seen",
            arg=[self._runs, self._doc], timeout=seconds * 1000, polling=50)

    def wait_still(self, selector: str, timeout: float = 10.0) -> None:
        """Wait until the element ``selector`` has no running animation or transition and kept its place and
        size for one 100 ms poll (a folding sidebar, an opening expander)."""
        self.page.wait_for_function(
            """(sel) => {
                 const e = document.querySelector(sel);
                 const r = e ? JSON.stringify(e.getBoundingClientRect()) : '';
                 const still = window.__tlStill === r && (!e || e.getAnimations({subtree: true}).length === 0);
                 window.__tlStill = r;
                 return still;
               }""", arg=selector, timeout=timeout * 1000, polling=100)

    def next_frame(self) -> None:
        """Wait until the browser has drawn two more frames (after a resize, before a screenshot)."""
        self.page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")

    def open(self, path: str = "", query: str = "") -> None:
        """Load ``/<path>?<query>`` and wait until the script run is over."""
        url = f"{self.base_url}/{path}" + (f"?{query}" if query else "")
        self.page.goto(url)
        self.page.wait_for_selector('[data-testid="stApp"]', timeout=30_000)
        self.page.wait_for_selector("h1", timeout=30_000)
        self.wait_idle()

    def wait_idle(self, timeout: float = 60.0, settle: float = 0.3) -> None:
        """Wait until the script run is over: the app reports ``data-test-script-state``
        ``notRunning``, shows no "running" status and started no run, steadily for ``settle`` seconds.

        After a click, key press or upload call :meth:`wait_rerun` instead: the
        rerun may not have started yet.

        An element whose code Streamlit loads on demand (``st.html``, tables,
        components) shows a ``stSkeleton`` placeholder until its chunk arrives;
        on a busy machine that can be seconds after the run is over, so a
        placeholder on the page counts as running too. A rerun that starts and
        ends between two polls (a page that calls ``st.rerun``) is seen by the
        run counter (:data:`RUNS_JS`), so the settle time can stay short.
        """
        end = time.time() + timeout
        quiet_since = None
        runs = None
        while time.time() < end:
            running, now_runs = self.page.evaluate(IDLE_JS)
            if running or now_runs != runs:
                quiet_since = None
            elif quiet_since is None:
                quiet_since = time.time()
            elif time.time() - quiet_since >= settle:
                self._runs = now_runs
                self._doc = self.page.evaluate("performance.timeOrigin")
                return
            runs = now_runs
            self.page.wait_for_timeout(50 if quiet_since is None else 100)
        raise AssertionError(f"the app was still running after {timeout:.0f} s")

    def exceptions(self) -> list[str]:
        """Texts of Streamlit exception boxes on the page."""
        boxes = self.page.locator('[data-testid="stException"]')
        return [boxes.nth(i).inner_text() for i in range(boxes.count())]

    def assert_no_exception(self) -> None:
        found = self.exceptions()
        assert not found, f"Streamlit exception on the page: {found[0][:500]}"

    def nav_links(self) -> list[str]:
        """Titles of the sidebar navigation links."""
        links = self.page.locator('[data-testid="stSidebarNav"] a')
        return [links.nth(i).inner_text().splitlines()[-1].strip() for i in range(links.count())]

    def screenshot(self, name: str, full_page: bool | None = None, max_height: int = 5000) -> Path:
        """Save ``test-output/<name>.png``. Streamlit scrolls inside its main
        container, not the document, so a full-page shot grows the viewport to
        the content's height (up to ``max_height``) for the picture.

        ``full_page=None`` (most calls) means the first screen, or the whole page with
        ``TL_FULL_SCREENSHOTS=1``: a whole page costs Chromium a relayout and a raster
        up to 5000 px tall (about half a second of CPU each), which a run nobody looks
        at does not need. ``True`` is for the pictures a test is about."""
        if full_page is None:
            full_page = os.environ.get("TL_FULL_SCREENSHOTS") == "1"
        path = self.output_dir / f"{name}.png"
        size = self.page.viewport_size
        if full_page and size:
            height = self.page.evaluate(
                "() => { const m = document.querySelector('[data-testid=\"stMain\"]');"
                " return m ? m.scrollHeight : document.body.scrollHeight; }"
            )
            self.page.set_viewport_size({"width": size["width"], "height": max(size["height"], min(int(height), max_height))})
            self.next_frame()
        try:
            self.page.screenshot(path=str(path), full_page=full_page)
        finally:
            if full_page and size:
                self.page.set_viewport_size(size)
        return path


#: One poll of :meth:`AppBrowser.wait_idle`: ``[running, runs started so far]`` in one round trip.
IDLE_JS = """() => {
  // visible as Playwright's is_visible() means it: a non-empty box and not visibility:hidden
  const visible = (e) => { const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'; };
  const app = document.querySelector('[data-testid="stApp"]');
  const status = document.querySelector('[data-testid="stStatusWidget"]');
  const running = !app || app.getAttribute('data-test-script-state') !== 'notRunning'
    || document.querySelector('[data-testid="stSkeleton"]') !== null
    || (status !== null && visible(status));
  return [running, window.__tlRuns || 0];
}"""
#: Counts the script runs a page starts (``data-test-script-state`` turning ``running``), in every
#: document of a context, so :meth:`AppBrowser.wait_rerun` waits for a run instead of a fixed time.
#: A run that starts and ends before the observer is called leaves two records and the attribute back at
#: ``notRunning``: each record's new value is read from the next record's ``oldValue`` (the attribute itself only
#: for the last one), so such a run is counted too.
RUNS_JS = """
window.__tlRuns = 0;
new MutationObserver((changes) => {
  changes.forEach((c, i) => {
    const next = changes.slice(i + 1).find((d) => d.target === c.target);
    const value = next ? next.oldValue : (c.target.getAttribute && c.target.getAttribute('data-test-script-state'));
    if (value === 'running' && c.oldValue !== 'running') window.__tlRuns++;
  });
}).observe(document, {subtree: true, attributes: true, attributeOldValue: true,
                      attributeFilter: ['data-test-script-state']});
"""


@contextmanager
def app_tab(browser, base_url: str, output_dir: Path) -> Iterator[AppBrowser]:
    """A fresh tab (1400x1000) in a context of its own on ``base_url``; dialogs are recorded and dismissed."""
    context = _new_context(browser)
    try:
        yield _new_tab(context, base_url, output_dir)
    finally:
        context.close()


def _new_context(browser):
    """A browser context as every app tab starts in: 1400x1000, the script-run counter installed."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.add_init_script(RUNS_JS)
    return context


def _new_tab(context, base_url: str, output_dir: Path) -> AppBrowser:
    page = context.new_page()
    page.set_default_timeout(30_000)
    return AppBrowser(page, base_url, output_dir)


def outside_requests(page) -> list[str]:
    """A list that fills with every request ``page`` makes to somewhere other than 127.0.0.1 (recorded, not
    intercepted: a route would turn the browser's cache off)."""
    seen: list[str] = []

    def record(request) -> None:
        if not (request.url.startswith(("data:", "blob:", "about:")) or urlsplit(request.url).hostname == "127.0.0.1"):
            seen.append(request.url)

    page.on("request", record)
    return seen


@pytest.fixture(scope="session")
def app_context(browser):
    """The browser context the ``app`` tabs of one test process share (1400x1000, the run counter installed).

    Each test still gets its own tab, so its own Streamlit session; what the tabs share is the HTTP and
    compiled-script cache, so a tab does not fetch and compile Streamlit's frontend again (a sixth of the CPU
    of opening a page). Tests that need a context of their own (routes, listeners, another server) use
    :func:`app_tab`.
    """
    context = _new_context(browser)
    try:
        yield context
    finally:
        context.close()


@pytest.fixture
def app(app_context, streamlit_server: str, output_dir: Path) -> Iterator[AppBrowser]:
    """A new tab on the session's server, in the shared :func:`app_context`; closed after the test, with the
    origin's storage cleared, so the next test starts as a new visitor."""
    tab = _new_tab(app_context, streamlit_server, output_dir)
    try:
        yield tab
    finally:
        with suppress(Exception):  # a page that never loaded the app has no storage of ours to clear
            tab.page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
        for page in app_context.pages:  # this one, and any a link opened
            page.close()


def app_pages() -> list[tuple[str, str]]:
    """``(url path, title)`` of every page listed in app.py's ``PAGES`` whose file exists.

    Read from the source (not imported), so tests never run app.py outside Streamlit.
    """
    import ast

    class _Unmark(ast.NodeTransformer):  # N_("Title") marks a title for translation; read it as "Title"
        def visit_Call(self, node: ast.Call) -> ast.AST:
            if isinstance(node.func, ast.Name) and node.func.id == "N_" and len(node.args) == 1:
                return node.args[0]
            return self.generic_visit(node)

    tree = _Unmark().visit(ast.parse((REPO / "app.py").read_text(encoding="utf-8")))
    for node in tree.body:
        target = getattr(node, "target", None) or (node.targets[0] if isinstance(node, ast.Assign) else None)
        if isinstance(target, ast.Name) and target.id == "PAGES":
            pages = ast.literal_eval(node.value)
            return [
                (Path(file).stem, title)
                for entries in pages.values()
                for file, title, _icon in entries
                if (REPO / "pages" / file).exists()
            ]
    raise AssertionError("app.py has no PAGES table")
