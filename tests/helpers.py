"""Shared test helpers: paths to the data files the repository carries (``tests/data/``)."""
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
