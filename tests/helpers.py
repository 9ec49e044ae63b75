"""Shared test helpers (paths to the read-only shared material)."""
from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
GRAPHEME_TEST = SHARED / "unicode" / "GraphemeBreakTest-17.0.0.txt"
