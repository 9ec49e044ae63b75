"""Shared test helpers: paths to the data files the repository carries (``tests/data/``)."""
from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
#: Unicode 17.0.0 grapheme break conformance file (a copy carried here; see tests/data/README.md).
GRAPHEME_TEST = DATA / "GraphemeBreakTest-17.0.0.txt"
