"""The parity tests' text generator covers the scripts and edge cases the parity properties need."""
from __future__ import annotations

import unicodedata

import regex
from hypothesis import given, seed, settings

from tests.helpers import examples

from .parity_text import FRAGMENTS, NEW_IN_VERSION, UNICODE17, texts


def test_one_character_per_unicode_version_is_really_from_that_version():
    # regex knows Unicode 17.0: every sample is assigned there
    for version, ch in NEW_IN_VERSION.items():
        assert regex.match(r"\P{Cn}", ch), version
        # Python 3.11's unicodedata knows 14.0: samples from later versions are unassigned there
        old = unicodedata.category(ch) != "Cn"
        assert old == (tuple(map(int, version.split("."))) <= (14, 0)), version
    for ch in UNICODE17:
        assert regex.match(r"\p{L}", ch) and unicodedata.category(ch) == "Cn"


@seed(12)
@settings(max_examples=examples(3), database=None)
@given(texts())
def test_texts_are_valid_unicode(s):
    """No lone surrogate (strict UTF-8 refuses one, as the adapters do): the text round-trips through UTF-8."""
    assert isinstance(s, str)
    assert not any(0xD800 <= ord(c) < 0xE000 for c in s)
    assert s.encode("utf-8").decode("utf-8") == s


def test_fragments_cover_the_scripts():
    joined = "".join(sum(FRAGMENTS.values(), []))
    for probe in ["র", "ह", "\u200c", "ʻ", "ʼ", "ع", "東", "\u200d", "\u0301", "\x00", "\t"]:
        assert probe in joined, probe


def test_recipes_reach_every_kind_of_piece():
    from .parity_text import ALL_FRAGMENTS, decode_recipe

    assert decode_recipe(b"") == ""
    assert decode_recipe(bytes([0])) == ALL_FRAGMENTS[0]
    assert decode_recipe(bytes([208, 255])) == " " * 400
    assert decode_recipe(bytes([240, 0x01, 0x09, 0x40])) == "\U00010940"
    assert decode_recipe(bytes([240, 0x00, 0xD8, 0x00])) == ""  # a surrogate is skipped
    assert {decode_recipe(bytes([b])) for b in range(208)} == set(ALL_FRAGMENTS)
