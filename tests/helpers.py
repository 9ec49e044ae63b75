"""Shared test helpers: paths to the data files the repository carries (``tests/data/``), and AppTest openers."""
from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
#: Unicode 17.0.0 grapheme break conformance file (a copy carried here; see tests/data/README.md).
GRAPHEME_TEST = DATA / "GraphemeBreakTest-17.0.0.txt"


def grapheme_break_cases() -> list[tuple[str, str, list[bool]]]:
    """Each test line of :data:`GRAPHEME_TEST` as ``(line, text, breaks)``: ``breaks[p]`` says whether a cluster
    starts at code point offset ``p`` (``÷``) or not (``×``), for ``p`` from 0 to ``len(text)``."""
    cases = []
    for raw in GRAPHEME_TEST.read_text(encoding="utf-8").splitlines():
        body = raw.split("#")[0].split()
        if body:
            text = "".join(chr(int(t, 16)) for t in body if t not in ("÷", "×"))
            cases.append((raw, text, [t == "÷" for t in body if t in ("÷", "×")]))
    return cases


def shown(markdown: object) -> str:
    """The text a reader sees for Markdown source the pages wrote with ``md_escape`` / ``md_format``:
    backslash escapes and character references resolved, the invisible link breakers dropped."""
    import html
    import re

    text = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", str(markdown))
    return html.unescape(text).replace("\u2060", "")


def scan_components_once() -> None:
    """Make AppTest scan the installed packages for Streamlit components once per process, not on every run.

    ``AppTest.run`` calls ``scan_component_manifests`` each time, which parses the metadata of every installed
    distribution: 0.75 s of CPU per run on the CI machine, more than most page runs themselves, and over
    a fifth of the whole suite. The installed packages do not change while a test process lives, and a
    server (``streamlit run``) scans once at start-up, so the answer is kept after the first scan.
    """
    import functools

    from streamlit.components.v2 import manifest_scanner

    scan = manifest_scanner.scan_component_manifests
    if not hasattr(scan, "cache_info"):
        manifest_scanner.scan_component_manifests = functools.lru_cache(maxsize=None)(scan)  # type: ignore[assignment]


def app_test(page: str = "home", query: dict[str, str] | None = None, state: dict | None = None, *,
             timeout: float = 180, root: Path | None = None):
    """``app.py`` (of checkout ``root``, default this one) set to open ``pages/<page>.py`` with these URL
    parameters and session state, not yet run: the one AppTest opener every page test uses.

    ``home`` is the entrypoint's default page, so it is opened without a page switch, as a visitor does.
    """
    from streamlit.testing.v1 import AppTest

    scan_components_once()
    at = AppTest.from_file(str((root or REPO) / "app.py"), default_timeout=timeout)
    if page != "home":
        at.switch_page(f"pages/{page}.py")  # before the first run: the page opens directly
    for k, v in (query or {}).items():
        at.query_params[k] = v
    for k, v in (state or {}).items():
        at.session_state[k] = v
    return at


def open_page(page: str = "home", query: dict[str, str] | None = None, state: dict | None = None, *,
              timeout: float = 180, check: bool = True):
    """Run :func:`app_test` once; with ``check`` (the default) no exception box is allowed."""
    at = app_test(page, query, state, timeout=timeout)
    at.run()
    if check:
        assert not at.exception, [e.value for e in at.exception]
    return at


def examples(times: float) -> int:
    """``max_examples`` for a property that needs ``times`` the profile's usual number of examples.

    Under the ``ci`` profile (100 per test) ``examples(20)`` is the 2,000 the test always ran; under
    ``dev`` (10 per test) it is 200. Never below 1. See the profiles in ``tests/conftest.py``.
    """
    from hypothesis import settings

    return max(1, round(times * settings.default.max_examples))


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Write ``files`` (relative path -> text) under ``root``, making folders as needed; return ``root``.

    The ast rule tests (layering, seams) build small fake source trees with it.
    """
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return root


def displayed(table):
    """What an AppTest ``st.dataframe`` shows in its cells: the display values a page's pandas Styler wrote (the
    numbers as the reader reads them), else the data itself. ``.value`` stays the data underneath."""
    from streamlit import dataframe_util

    raw = table.proto.arrow_data.styler.display_values
    return dataframe_util.convert_arrow_bytes_to_pandas_df(raw) if raw else table.value


def load_vendor_module(path: Path, source: bytes, stub: dict | None = None):
    """Import a vendor's pinned source file written to ``path`` (``stub`` modules standing in for heavy imports).

    The module is registered under a name made from its folder while it executes (dataclasses look their
    module up in ``sys.modules``); ``sys.modules`` is restored afterwards.
    """
    import importlib.util
    import sys

    path.write_bytes(source)
    name = f"vendor_{path.parent.name}_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    saved = {k: sys.modules.get(k) for k in [*(stub or {}), name]}
    sys.modules.update(stub or {})
    sys.modules[name] = mod
    try:
        spec.loader.exec_module(mod)
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    return mod
