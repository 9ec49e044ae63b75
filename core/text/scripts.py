"""Unicode scripts (UAX #24 ``Script`` property) of characters and of token bytes.

The ``Script`` values come from the ``regex`` package (the same Unicode
version as the grapheme clusters in :mod:`core.text.units`): a character's
script is looked up once per process, for all characters not seen before
at once (one ``\\p{sc=...}`` scan per script over them), so a census of a
vocabulary of 262,144 tokens classifies each distinct character once.

A token's scripts are the scripts of its characters without ``Common``
(digits, punctuation, spaces) and ``Inherited`` (combining marks shared by
scripts): "রাজ" is ``Bengali``, " the" is ``Latin``, "12," is ``Common``.
A token whose bytes are not whole UTF-8 (half a Bangla letter) is named by
the characters its lead bytes start (see :func:`partial_scripts`).

This module does not tokenize and imports nothing else of ``core``.
"""
from __future__ import annotations

import threading
from typing import Iterable

import regex

#: Every ``Script`` value (Unicode 17.0 long names), ``Common`` and ``Inherited`` included.
SCRIPTS: tuple[str, ...] = (
    "Common", "Inherited", "Latin", "Greek", "Cyrillic", "Armenian", "Hebrew", "Arabic", "Syriac", "Thaana", "Nko",
    "Samaritan", "Mandaic", "Devanagari", "Bengali", "Gurmukhi", "Gujarati", "Oriya", "Tamil", "Telugu", "Kannada",
    "Malayalam", "Sinhala", "Thai", "Lao", "Tibetan", "Myanmar", "Georgian", "Hangul", "Ethiopic", "Cherokee",
    "Canadian_Aboriginal", "Ogham", "Runic", "Tagalog", "Hanunoo", "Buhid", "Tagbanwa", "Khmer", "Mongolian",
    "Limbu", "Tai_Le", "New_Tai_Lue", "Buginese", "Tai_Tham", "Balinese", "Sundanese", "Batak", "Lepcha",
    "Ol_Chiki", "Braille", "Glagolitic", "Tifinagh", "Han", "Hiragana", "Katakana", "Bopomofo", "Yi", "Lisu", "Vai",
    "Bamum", "Syloti_Nagri", "Phags_Pa", "Saurashtra", "Kayah_Li", "Rejang", "Javanese", "Cham", "Tai_Viet",
    "Meetei_Mayek", "Linear_B", "Lycian", "Carian", "Old_Italic", "Gothic", "Old_Permic", "Ugaritic", "Old_Persian",
    "Deseret", "Shavian", "Osmanya", "Osage", "Elbasan", "Caucasian_Albanian", "Vithkuqi", "Todhri", "Linear_A",
    "Cypriot", "Imperial_Aramaic", "Palmyrene", "Nabataean", "Hatran", "Phoenician", "Lydian", "Sidetic",
    "Meroitic_Hieroglyphs", "Meroitic_Cursive", "Kharoshthi", "Old_South_Arabian", "Old_North_Arabian",
    "Manichaean", "Avestan", "Inscriptional_Parthian", "Inscriptional_Pahlavi", "Psalter_Pahlavi", "Old_Turkic",
    "Old_Hungarian", "Hanifi_Rohingya", "Garay", "Yezidi", "Old_Sogdian", "Sogdian", "Old_Uyghur", "Chorasmian",
    "Elymaic", "Brahmi", "Kaithi", "Sora_Sompeng", "Chakma", "Mahajani", "Sharada", "Khojki", "Multani",
    "Khudawadi", "Grantha", "Tulu_Tigalari", "Newa", "Tirhuta", "Siddham", "Modi", "Takri", "Ahom", "Dogra",
    "Warang_Citi", "Dives_Akuru", "Nandinagari", "Zanabazar_Square", "Soyombo", "Pau_Cin_Hau", "Sunuwar",
    "Bhaiksuki", "Marchen", "Masaram_Gondi", "Gunjala_Gondi", "Tolong_Siki", "Makasar", "Kawi", "Cuneiform",
    "Cypro_Minoan", "Egyptian_Hieroglyphs", "Anatolian_Hieroglyphs", "Gurung_Khema", "Mro", "Tangsa", "Bassa_Vah",
    "Pahawh_Hmong", "Kirat_Rai", "Medefaidrin", "Beria_Erfe", "Miao", "Tangut", "Nushu", "Khitan_Small_Script",
    "Duployan", "SignWriting", "Nyiakeng_Puachue_Hmong", "Toto", "Wancho", "Nag_Mundari", "Ol_Onal", "Tai_Yo",
    "Mende_Kikakui", "Adlam", "Coptic",
)

#: Characters no script claims (unassigned code points, private use): ``Unknown``.
UNKNOWN = "Unknown"
#: Scripts that do not make a token "of" a script: they are shared by all.
SHARED = frozenset({"Common", "Inherited"})
#: The census name of a token with letters of two or more scripts.
MIXED = "mixed"

_SCANNERS = {name: regex.compile(r"\p{sc=%s}" % name) for name in SCRIPTS}
_cache: dict[str, str] = {}
_lock = threading.Lock()


def _learn(chars: Iterable[str]) -> None:
    new = sorted(set(chars) - _cache.keys())
    if not new:
        return
    joined = "".join(new)
    found: dict[str, str] = {}
    for name, pat in _SCANNERS.items():
        for m in pat.finditer(joined):
            found[m.group()] = name
    with _lock:
        for ch in new:
            _cache[ch] = found.get(ch, UNKNOWN)


def script_of(char: str) -> str:
    """The ``Script`` value of one character.

    >>> script_of("র"), script_of("a"), script_of("中"), script_of("1"), script_of("\\u09cd")
    ('Bengali', 'Latin', 'Han', 'Common', 'Bengali')
    """
    got = _cache.get(char)
    if got is None:
        _learn(char)
        got = _cache[char]
    return got


def scripts_of_texts(texts: Iterable[str]) -> dict[str, str]:
    """The script of every character in ``texts`` (classified together: fast for a whole vocabulary)."""
    seen: set[str] = set()
    for t in texts:
        seen.update(t)
    _learn(seen)
    return {ch: _cache[ch] for ch in seen}


def text_scripts(text: str) -> tuple[str, ...]:
    """The scripts of ``text``'s letters, sorted, without ``Common``/``Inherited`` (``("Common",)`` when only those).

    >>> text_scripts("রাজ"), text_scripts(" 12,"), text_scripts("aб")
    (('Bengali',), ('Common',), ('Cyrillic', 'Latin'))
    """
    if not text:
        return ()
    found = {script_of(ch) for ch in text}
    own = sorted(found - SHARED)
    return tuple(own) if own else ("Common",)


def census_name(scripts: tuple[str, ...]) -> str:
    """One name for a token's scripts: the script, :data:`MIXED` for several, ``Common`` for none."""
    if not scripts:
        return "Common"
    return scripts[0] if len(scripts) == 1 else MIXED


def partial_scripts(data: bytes) -> tuple[str, ...]:
    """Scripts of a token that is not whole UTF-8, from the characters it has whole and the lead bytes it starts.

    A character whose last bytes are cut off is completed with the smallest
    continuation bytes (``E0 A6`` -> U+0980), which names its 64-code-point
    block; a lone lead byte of a 3- or 4-byte character names none; bytes that continue a character begun in an earlier
    token name nothing (``()`` when the token has nothing else).

    >>> partial_scripts(bytes.fromhex("e0a6")), partial_scripts(bytes.fromhex("a6b0")), partial_scripts(b"a\\xe0")
    (('Bengali',), (), ('Latin',))
    """
    chars: list[str] = []
    i, n = 0, len(data)
    while i < n:
        b = data[i]
        need = 1 if b < 0x80 else 2 if 0xC2 <= b < 0xE0 else 3 if 0xE0 <= b < 0xF0 else 4 if 0xF0 <= b < 0xF5 else 0
        if need == 0:  # a continuation byte with no lead in this token, or a byte UTF-8 never uses
            i += 1
            continue
        chunk = data[i : i + need]
        if len(chunk) < need and need > 2 and len(chunk) < 2:
            break  # a lone lead byte of a 3- or 4-byte character names 4,096 code points or more: no script
        if len(chunk) < need:
            chunk = chunk + bytes([0x80]) * (need - len(chunk))
            # E0 and F0 need a second byte of at least A0 / 90 to be well formed
            if b == 0xE0 and chunk[1] < 0xA0:
                chunk = chunk[:1] + bytes([0xA0]) + chunk[2:]
            elif b == 0xF0 and chunk[1] < 0x90:
                chunk = chunk[:1] + bytes([0x90]) + chunk[2:]
        try:
            chars.append(chunk.decode("utf-8"))
        except UnicodeDecodeError:
            pass
        i += need
    found = {script_of(ch) for ch in chars}
    own = sorted(found - SHARED)
    return tuple(own) if own else (("Common",) if found else ())


#: Cursive joining (``Joining_Type``, from ``regex``): letters that join on both sides (Arabic ب, Syriac, N'Ko,
#: Mongolian ...) or join causing (ZWJ, tatweel); those that join their neighbour before them only (ر, ا, د, و);
#: marks the joining looks through (harakat, Transparent).
_JOINS_FORWARD = regex.compile(r"[\p{Joining_Type=Dual_Joining}\p{Joining_Type=Join_Causing}]")
_JOINS_BACK = regex.compile(r"[\p{Joining_Type=Dual_Joining}\p{Joining_Type=Join_Causing}\p{Joining_Type=Right_Joining}]")
_TRANSPARENT = regex.compile(r"\p{Joining_Type=Transparent}")


def joined_at(text: str, k: int) -> bool:
    """Whether the letters on both sides of position ``k`` of ``text`` are drawn joined (cursive scripts).

    A view that puts a mark between them (a cut) breaks the joining, so each letter would take its
    unjoined form (بر becomes ب ر): such a view writes a ZWJ on both sides of the mark to keep the forms
    the word really has. Transparent marks (harakat) between them are looked through.

    >>> joined_at("بر", 1), joined_at("رب", 1), joined_at("بِر", 1), joined_at("ab", 1), joined_at("ب", 1)
    (True, False, True, False, False)
    """
    i = k - 1
    while i >= 0 and _TRANSPARENT.match(text[i]):
        i -= 1
    j = k
    while j < len(text) and _TRANSPARENT.match(text[j]):
        j += 1
    return i >= 0 and j < len(text) and bool(_JOINS_FORWARD.match(text[i])) and bool(_JOINS_BACK.match(text[j]))
