"""NFC with a map back to the text as typed, for tokenizers whose library normalizes before it encodes.

A tokenizer that applies NFC first (Qwen's ``QwenTokenizer``) gives tokens
over the normalized text, but the app draws them over the text the reader
typed. :func:`nfc_map` normalizes and keeps, for every byte offset of the
normalized UTF-8, the offset in the original UTF-8 it comes from.

How: the text is cut into segments that NFC normalizes independently, each
starting before a character that nothing before it can combine with (a
starter, canonical combining class 0, that is not the second half of a
canonical composition such as the Bangla length mark U+09D7 or the AA sign
U+09BE of ো, and whose decomposition does not start with a mark). NFC of the
text is then NFC of each segment laid end to end (checked, and if that ever
failed the whole text would be one segment). Offsets inside a segment that
NFC left alone map one to one; offsets inside a segment it changed map to
the segment's start, so a token that starts there covers the whole cluster.

This module does not decide which tokenizers normalize (that is the catalog's
and the adapters'), and it follows the NFC of Python's :mod:`unicodedata`
(:data:`unicodedata.unidata_version`), as the vendors' Python code does.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

#: Code point ranges scanned for characters that do not start a segment. The ranges left out hold none:
#: CJK ideographs, Hangul syllables (their decomposition starts with a leading consonant, a starter),
#: surrogates and private use, and everything from U+20000 (no combining marks up there; compatibility
#: ideographs decompose to ideographs).
_SCAN = ((0, 0x3400), (0xA000, 0xAC00), (0xF900, 0x20000))


@lru_cache(maxsize=1)
def _segment_re() -> re.Pattern[str]:
    """One segment: any character, then every following character that cannot start a segment."""
    seconds: set[int] = set(range(0x1161, 0x1176)) | set(range(0x11A8, 0x11C3))  # Hangul V and T jamo (LV, LVT)
    for lo, hi in _SCAN:
        for cp in range(lo, hi):
            d = unicodedata.decomposition(chr(cp))
            if d and d[0] != "<":
                parts = d.split()
                if len(parts) == 2 and not unicodedata.combining(chr(int(parts[1], 16))):
                    seconds.add(int(parts[1], 16))
    joiners = []
    for lo, hi in _SCAN:
        for cp in range(lo, hi):
            c = chr(cp)
            if unicodedata.combining(c) or cp in seconds:
                joiners.append(cp)
                continue
            first = unicodedata.normalize("NFD", c)[0]
            if first != c and (unicodedata.combining(first) or ord(first) in seconds):
                joiners.append(cp)
    ranges: list[list[int]] = []
    for cp in joiners:
        if ranges and ranges[-1][1] == cp - 1:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp])
    cls = "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges)
    return re.compile(f"(?s).[{cls}]*")


@dataclass(frozen=True)
class NfcMap:
    """``text`` normalized to NFC, and where each byte offset of its UTF-8 came from in the original."""

    text: str
    #: Segment starts, as byte offsets in the normalized and in the original UTF-8 (both end with the totals).
    nfc_starts: np.ndarray
    src_starts: np.ndarray
    #: Whether NFC changed the segment.
    changed: np.ndarray

    def to_source(self, offsets: np.ndarray) -> np.ndarray:
        """Byte offsets in the normalized UTF-8 -> byte offsets in the original (see the module docstring)."""
        at = np.asarray(offsets, dtype=np.int64)
        k = np.searchsorted(self.nfc_starts, at, side="right") - 1
        k = np.clip(k, 0, len(self.changed) - 1)
        inside = at - self.nfc_starts[k]
        return np.where(self.changed[k] & (inside > 0), self.src_starts[k], self.src_starts[k] + inside)


def nfc(text: str) -> str:
    """``unicodedata.normalize("NFC", text)`` (the fast check first: most text is NFC already)."""
    return text if unicodedata.is_normalized("NFC", text) else unicodedata.normalize("NFC", text)


def nfc_map(text: str) -> NfcMap | None:
    """The NFC form of ``text`` with its offset map, or None when ``text`` is NFC already.

    >>> m = nfc_map("ক\\u09c7\\u09be!")  # ক + the two halves of the vowel sign ো, typed apart
    >>> m.text == "কো!", m.to_source([0, 3, 4, 6, 7]).tolist()
    (True, [0, 3, 3, 9, 10])
    """
    if unicodedata.is_normalized("NFC", text):
        return None
    whole = unicodedata.normalize("NFC", text)
    nfc_starts, src_starts, changed, parts = [0], [0], [], []
    n_pos = s_pos = 0
    for m in _segment_re().finditer(text):
        seg = m.group()
        out = unicodedata.normalize("NFC", seg) if not unicodedata.is_normalized("NFC", seg) else seg
        parts.append(out)
        s_pos += len(seg.encode("utf-8"))
        n_pos += len(out.encode("utf-8"))
        src_starts.append(s_pos)
        nfc_starts.append(n_pos)
        changed.append(out != seg)
    if "".join(parts) != whole:  # never seen; one segment is always right
        nfc_starts, src_starts, changed = [0, len(whole.encode("utf-8"))], [0, len(text.encode("utf-8"))], [True]
    # the last start is the end, so an offset at the very end maps to the original's end
    changed.append(False)
    return NfcMap(whole, np.asarray(nfc_starts, dtype=np.int64), np.asarray(src_starts, dtype=np.int64),
                  np.asarray(changed, dtype=bool))
