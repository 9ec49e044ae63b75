"""Shared test helpers: paths to the data files the repository carries (``tests/data/``), and AppTest openers."""
from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
#: Unicode 17.0.0 grapheme break conformance file (a copy carried here; see tests/data/README.md).
GRAPHEME_TEST = DATA / "GraphemeBreakTest-17.0.0.txt"


def shown(markdown: object) -> str:
    """The text a reader sees for Markdown source the pages wrote with ``md_escape`` / ``md_format``:
    backslash escapes and character references resolved, the invisible link breakers dropped."""
    import html
    import re

    text = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", str(markdown))
    return html.unescape(text).replace("\u2060", "")


def open_page(path: str, query: dict[str, str] | None = None, state: dict | None = None, *,
              timeout: float = 180):  # noqa: ANN201 - streamlit.testing.v1.AppTest
    """Run ``app.py`` on ``pages/<path>.py`` with these URL parameters and session state; no exception allowed."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=timeout)
    at.switch_page(f"pages/{path}.py")
    for k, v in (query or {}).items():
        at.query_params[k] = v
    for k, v in (state or {}).items():
        at.session_state[k] = v
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at
