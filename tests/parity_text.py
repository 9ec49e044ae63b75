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

ALL_FRAGMENTS: list[str] = [f for k in sorted(FRAGMENTS) for f in FRAGMENTS[k]]
_RUN_CHARS = [" ", "a", "ক", "1", "\n", "😀", "\u0301", "\t", "\u200c"]


def decode_recipe(recipe: bytes) -> str:
    """The text a byte string stands for, read left to right.

    A byte below 208 picks a fragment; 208-239 a run of 20-400 copies of one
    character (the next byte sets the length); 240 and up a code point made
    of the next three bytes (any plane; surrogates are skipped). Hypothesis
    shrinks the bytes, so a failure shrinks to a short, readable text.
    """
    out: list[str] = []
    i = 0
    n = len(recipe)
    while i < n:
        b = recipe[i]
        if b < 208:
            out.append(ALL_FRAGMENTS[b % len(ALL_FRAGMENTS)])
            i += 1
        elif b < 240:
            length = 20 + (recipe[i + 1] if i + 1 < n else 0) * 380 // 255
            out.append(_RUN_CHARS[(b - 208) % len(_RUN_CHARS)] * length)
            i += 2
        else:
            cp = int.from_bytes(recipe[i + 1 : i + 4].ljust(3, b"\0"), "big") % 0x110000
            if not 0xD800 <= cp < 0xE000:
                out.append(chr(cp))
            i += 4
    return "".join(out)


def texts(max_pieces: int = 8) -> st.SearchStrategy[str]:
    """A string of up to about ``max_pieces`` fragments (see :func:`decode_recipe`).

    Drawn as bytes and decoded: several times cheaper than composing
    strategies, so 2,000 examples per adapter stay within the CI budget.
    """
    return st.binary(max_size=2 * max_pieces).map(decode_recipe)
