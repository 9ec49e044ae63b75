"""Grapheme clusters against the official Unicode 17.0.0 conformance file."""
from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.text.units import UNICODE_VERSION, char_byte_offsets, codepoint_info, graphemes, utf8_hex

from .helpers import GRAPHEME_TEST


def _cases() -> list[tuple[str, list[str], str]]:
    cases = []
    for raw in GRAPHEME_TEST.read_text(encoding="utf-8").splitlines():
        line = raw.split("#")[0].strip()
        if not line:
            continue
        text, clusters, current = "", [], ""
        for tok in line.split():
            if tok == "÷":
                if current:
                    clusters.append(current)
                current = ""
            elif tok != "×":
                ch = chr(int(tok, 16))
                current += ch
                text += ch
        cases.append((text, clusters, line))
    return cases


def test_conformance_file_is_the_expected_one() -> None:
    digest = hashlib.sha256(GRAPHEME_TEST.read_bytes()).hexdigest()
    assert digest == "e2d134d2c52919bace503ebb6a551c1855fe1a1faec18478c78fff254a1793ec"
    assert UNICODE_VERSION == "17.0.0"


def test_every_conformance_line() -> None:
    cases = _cases()
    assert len(cases) == 766
    failures = [line for text, expected, line in cases if [g.text for g in graphemes(text)] != expected]
    assert failures == []


def test_gb9c_conjunct_and_bangla_examples() -> None:
    assert [g.text for g in graphemes("ক্ষ")] == ["ক্ষ"]
    assert [g.text for g in graphemes("প্যাকেট")] == ["প্যা", "কে", "ট"]
    assert [g.text for g in graphemes("কি")] == ["কি"]


def test_raj_is_three_code_points_nine_bytes() -> None:
    assert len("রাজ") == 3
    assert utf8_hex("রাজ".encode()) == "E0 A6 B0 E0 A6 BE E0 A6 9C"
    assert char_byte_offsets("রাজ") == [0, 3, 6, 9]


def test_codepoint_info() -> None:
    info = codepoint_info("র")
    assert info.label() == "U+09B0 BENGALI LETTER RA"
    assert info.category == "Lo"
    assert codepoint_info("\n").name == "LINE FEED"
    with pytest.raises(ValueError):
        codepoint_info("ab")


@given(st.text())
def test_clusters_tile_the_text(text: str) -> None:
    spans = graphemes(text)
    assert "".join(s.text for s in spans) == text
    assert all(text[s.start : s.end] == s.text for s in spans)


@given(st.text())
def test_byte_offsets_match_encoding(text: str) -> None:
    offsets = char_byte_offsets(text.encode("utf-8", "surrogatepass").decode("utf-8", "surrogatepass"))
    assert offsets[-1] == len(text.encode("utf-8", "surrogatepass"))
    assert all(offsets[i + 1] - offsets[i] == len(ch.encode("utf-8", "surrogatepass")) for i, ch in enumerate(text))
