"""Text for the differential (parity) tests: every script we care about, cheaply, with hypothesis.

:func:`texts` draws a short string from fragments: Bangla, Hindi, Persian
with ZWNJ, Uzbek with ʻ ʼ, Arabic, CJK, emoji ZWJ sequences, combining
marks, controls, whitespace runs, very long runs, and one character new in
each Unicode version from 1.1 to 17.0. Drawing fragments (not single code
points) keeps each example cheap and makes the hard cases common.
"""
from __future__ import annotations

from hypothesis import strategies as st

#: One letter or symbol first assigned in each Unicode version (from the Unicode Character Database's
#: DerivedAge.txt). Checked in tests/test_parity_text.py against regex (17.0) and unicodedata (14.0).
NEW_IN_VERSION: dict[str, str] = {
    "1.1": "\u0e01", "2.0": "\u0f40", "2.1": "\u20ac", "3.0": "\u1780", "3.1": "\U00010330", "3.2": "\u1700",
    "4.0": "\u1900", "4.1": "\u2d30", "5.0": "\u1b05", "5.1": "\u1c00", "5.2": "\ua4d0", "6.0": "\u1bc0",
    "6.1": "\U0001f600", "6.2": "\u20ba", "6.3": "\u061c", "7.0": "\U00010500", "8.0": "\U000108e0",
    "9.0": "\U000104b0", "10.0": "\u20bf", "11.0": "\U00010d00", "12.0": "\U00010fe0", "13.0": "\U00010e80",
    "14.0": "\U00010f70", "15.0": "\U0001e4d0", "15.1": "\U0002ebf0", "16.0": "\U0001e5d0",
    "17.0": "\U00010940",
}  # fmt: skip
#: More characters new in Unicode 17.0 (letters to regex, not to tiktoken 0.14's engine).
UNICODE17 = ["\U00010940", "\U00016ea5", "\U00010941", "\U00016ea6"]

FRAGMENTS: dict[str, list[str]] = {
    "bangla": ["বাজারঘরের", "অর্ডার", "রাজশাহী", "পৌঁছাবে।", "প্যাকেট", "ক্ষমা", "কি", "য়", "ৎ", "শাড়ি", "৫৬৭"],
    "hindi": ["नमस्ते", "हिन्दी", "क्षत्रिय", "ज़िंदगी", "श्री", "१२३", "है।"],
    "persian": ["کتاب\u200cخانه", "می\u200cخواهم", "بچه\u200cها", "فارسی", "۱۴۰۳", "\u200c"],
    "uzbek": ["Oʻzbekiston", "gʻalaba", "maʼno", "taʼlim", "sheʼr", "ʻ", "ʼ", "o‘zbek", "g'oz"],
    "arabic": ["العربية", "مَرْحَبًا", "٣٤٥", "؟", "ـ"],
    "cjk": ["東京", "中文字", "한국어", "ひらがな", "カタカナ", "\u3000", "。"],
    "emoji": ["👨\u200d👩\u200d👧", "🏳️\u200d🌈", "👍🏽", "🇧🇩", "❤️", "🫠", "\u200d"],
    "marks": ["e\u0301", "\u0301", "a\u0308\u0323", "\u09cd", "\u094d\u200d", "\u0651\u064e"],
    "controls": ["\x00", "\x07", "\x1b", "\x7f", "\x85", "\u200b", "\ufeff", "\u2028", "\u202e"],
    "ascii": ["Hello", "world", "don't", "I'LL", "we've", "1234", "3.14", "x=1;", "<|endoftext|>", "[SEP]", "#"],
    "space": [" ", "  ", "   ", "\t", "\n", "\n\n", "\r\n", " \n ", "\u00a0", "    \n"],
    "version": list(NEW_IN_VERSION.values()) + UNICODE17,
}

_fragment = st.sampled_from(sorted(FRAGMENTS)).flatmap(lambda k: st.sampled_from(FRAGMENTS[k]))
_long_run = st.tuples(st.sampled_from([" ", "a", "ক", "1", "\n", "😀", "\u0301"]),
                      st.integers(min_value=20, max_value=400)).map(lambda t: t[0] * t[1])
_piece = st.one_of(_fragment, _fragment, _fragment, _fragment, _long_run,
                   st.text(st.characters(codec="utf-8"), max_size=3))


def texts(max_pieces: int = 8) -> st.SearchStrategy[str]:
    """A string of up to ``max_pieces`` fragments (see the module docstring)."""
    return st.lists(_piece, max_size=max_pieces).map("".join)
