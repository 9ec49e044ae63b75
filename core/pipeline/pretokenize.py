"""Pre-tokenizer patterns: the regex split that runs before the model.

Each named pattern is declared as data. ``gpt2``, ``cl100k``, ``o200k`` and
``llama3`` are the published split regexes (cl100k in the form tiktoken
runs today, whose trailing-whitespace rule differs from the 2023 release); ``tests/test_pretokenize.py``
checks them against the patterns that ``tiktoken`` itself declares.

Merges can never cross a piece boundary made here: that is why \\p{L}+
patterns, which stop at Bangla vowel signs (\\p{M}), cut Bangla words apart.

The ``regex`` package we run the patterns with knows Unicode 17.0; the
regex engine inside ``tiktoken`` (which is what cl100k, o200k, Llama and
Tekken really run) has older tables, so a letter new in Unicode 17 (U+10940,
U+16EA5) is \\p{L} here but not there. :func:`engine_split` cuts text as
tiktoken does (its tables are probed from the installed engine, not written
down) and notes every character where the two disagree.
"""
from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

import regex

from ..i18n import N_, T_
from ..text.errors import UserError
from ..text.limits import user_finditer
from ..text.safe_regex import compile_user_regex
from ..text.units import Span

_CONTRACTIONS = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)"


@dataclass(frozen=True)
class Pattern:
    """A named split regex. ``regex is None`` means: the whole text is one piece."""

    name: str
    regex: str | None
    description: str
    #: The engine the models using this pattern run it with ("tiktoken"), if not this module's ``regex``.
    engine: str = ""


PATTERNS: dict[str, Pattern] = {
    p.name: p
    for p in (
        Pattern("none", None, N_("No split: the whole text is one piece.")),
        Pattern(
            "ws-attached",
            r"\s*\S+|\s+",
            N_("Whitespace stays on the following word, so joining pieces gives the text back exactly."),
        ),
        Pattern("whitespace", r"\S+", N_("Runs of non-space; whitespace is dropped.")),
        Pattern(
            "gpt2",
            r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+",
            N_("GPT-2: letters (\\p{L}+), numbers and punctuation apart; vowel signs (\\p{M}) break words."),
            "tiktoken",
        ),
        Pattern(
            "cl100k",
            r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s",
            N_("cl100k_base (GPT-4): like GPT-2, digits in groups of three; still \\p{L}+ only."),
            "tiktoken",
        ),
        Pattern(
            "o200k",
            "|".join(
                [
                    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+" + _CONTRACTIONS + "?",
                    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*" + _CONTRACTIONS + "?",
                    r"\p{N}{1,3}",
                    r" ?[^\s\p{L}\p{N}]+[\r\n/]*",
                    r"\s*[\r\n]+",
                    r"\s+(?!\S)",
                    r"\s+",
                ]
            ),
            N_("o200k_base (GPT-4o): letter runs include marks (\\p{M}), so Bangla words stay whole."),
            "tiktoken",
        ),
        Pattern(
            "llama3",
            _CONTRACTIONS
            + r"|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
            N_("Llama 3: the cl100k pattern family; \\p{L}+ only."),
            "tiktoken",
        ),
    )
}


#: Split patterns whose pieces hold a space after another character only at their start (``" ?X"``) or in a run
#: of whitespace: no piece lies across a cut before a space that follows a character no engine counts as
#: whitespace (:data:`_BEFORE_CUT`), so a text's pieces are its :func:`word_parts`' pieces laid end to end (checked on random
#: text in every script by tests/test_measures.py).
LOCAL_PATTERNS = frozenset(PATTERNS[k].regex for k in ("gpt2", "cl100k", "o200k", "llama3"))
#: Longer lines are not cut into word parts (Llama 3's tiktoken cuts runs longer than 25,000 characters).
MAX_WORD_PARTS_LINE = 20_000
#: A letter, digit or visible ASCII character (Python's ``\w``: letters and numbers; it leaves out marks, so the
#: blocks whose words end in vowel signs are named whole: Arabic to Sinhala hold no whitespace). The standard
#: ``re`` module: a third faster than ``regex`` here, and a character it misses only leaves two words together.
_BEFORE_CUT = r"[\w!-~\u0300-\u036f\u0591-\u08ff\u0900-\u0dff]"
_WORD_CUT = re.compile(rf"(?<={_BEFORE_CUT})(?= )")
_WORD_OR_LINE_CUT = re.compile(rf"(?<={_BEFORE_CUT})(?= )|\n")


def word_parts(text: str, *, line_breaks: bool = False) -> list[str]:
    """``text`` cut before each space that follows a letter, number, visible ASCII character, combining mark or
    character of the Arabic-to-Sinhala blocks (whole when
    longer than :data:`MAX_WORD_PARTS_LINE`). ``line_breaks``: ``text`` is lines joined by ``"\\n"``, each cut
    alone (the breaks are dropped; no line may be longer than the limit).

    >>> word_parts("ab cd  e. f")
    ['ab', ' cd', '  e.', ' f']
    """
    if line_breaks:
        return _WORD_OR_LINE_CUT.split(text)
    return _WORD_CUT.split(text) if len(text) <= MAX_WORD_PARTS_LINE else [text]


class PatternError(UserError):
    """A user regex that does not compile or matches the empty string."""


def resolve_pattern(name_or_regex: str) -> Pattern:
    """A named pattern, or a user regex wrapped as ``Pattern("custom", ...)``."""
    if name_or_regex in PATTERNS:
        return PATTERNS[name_or_regex]
    if not name_or_regex:
        raise PatternError(T_("empty regex"))
    try:
        compiled = compile_user_regex(name_or_regex)
    except regex.error as exc:
        raise PatternError(T_("invalid regex {regex}: {reason}", regex=repr(name_or_regex), reason=str(exc))) from None
    if compiled.fullmatch("") is not None and not compiled.search("a b"):
        raise PatternError(T_("regex {regex} only matches empty text", regex=repr(name_or_regex)))
    return Pattern("custom", name_or_regex, N_("User regex."))


_COMPILED: dict[str, regex.Pattern] = {}


def _compiled(pattern: Pattern) -> regex.Pattern:
    assert pattern.regex is not None
    c = _COMPILED.get(pattern.regex)
    if c is None:
        c = _COMPILED[pattern.regex] = regex.compile(pattern.regex)
    return c


def pretokenize(text: str, pattern: str | Pattern = "ws-attached") -> list[Span]:
    """Split ``text`` into pieces with code point offsets.

    Empty matches are skipped. Text a pattern does not match (e.g. spaces
    with ``whitespace``) is simply not in any piece.

    >>> [p.text for p in pretokenize("বাজার ঘর", "ws-attached")]
    ['বাজার', ' ঘর']
    >>> [p.text for p in pretokenize("কার", "cl100k")]
    ['ক', 'ার']
    """
    pat = pattern if isinstance(pattern, Pattern) else resolve_pattern(pattern)
    if pat.regex is None:
        return [Span(text, 0, len(text))] if text else []
    compiled = _compiled(pat)
    # A user's regex may backtrack for ever ((a|aa)+$ on a long run of a): it runs with a timeout.
    matches = compiled.finditer(text) if pat.name != "custom" else user_finditer(compiled, text)
    return [Span(m.group(), m.start(), m.end()) for m in matches if m.end() > m.start()]


# ---------------------------------------------------------------------------
# The split as tiktoken's own regex engine makes it (older Unicode tables)
# ---------------------------------------------------------------------------

#: The Unicode properties the split patterns use, as they are written in a pattern.
ENGINE_PROPERTIES = ("L", "Lu", "Ll", "Lt", "Lm", "Lo", "M", "N", "s")
_PROPERTY_NAMES = {"L": T_("a letter"), "Lu": T_("an upper-case letter"), "Ll": T_("a lower-case letter"),
                   "Lt": T_("a title-case letter"), "Lm": T_("a modifier letter"), "Lo": T_("an other letter"),
                   "M": T_("a mark"), "N": T_("a number"), "s": T_("whitespace")}  # fmt: skip
_PROP_TOKEN = regex.compile(r"\\(?:[pP]\{(\w+)\}|[sS])")


def _all_code_points() -> str:
    return "".join(map(chr, range(0xD800))) + "".join(map(chr, range(0xE000, 0x110000)))


@dataclass(frozen=True)
class EngineTables:
    """How the installed ``tiktoken`` regex engine classifies characters, where ``regex`` (Unicode 17.0) differs.

    ``only_here[p]`` are code points in property ``p`` for ``regex`` but not
    for the engine; ``only_engine[p]`` the reverse. ``ranges[p]`` is the
    engine's whole property as the body of a character class.
    """

    engine: str
    only_here: dict[str, frozenset[int]]
    only_engine: dict[str, frozenset[int]]
    ranges: dict[str, str]

    @property
    def differing(self) -> frozenset[int]:
        return frozenset().union(*self.only_here.values(), *self.only_engine.values())

    def reason(self, ch: str, props: set[str] | None = None) -> str:
        """Why ``ch`` is cut differently, in words (which property it has here and not there, or the reverse);
        a :class:`core.i18n.Message`."""
        cp = ord(ch)
        what = None
        for p in ENGINE_PROPERTIES:
            if props is not None and p not in props:
                continue
            if cp in self.only_here[p]:
                part = T_("{property} ({code}) in Unicode 17.0 but not to {engine}", property=_PROPERTY_NAMES[p],
                          code="\\p{%s}" % p, engine=self.engine)
            elif cp in self.only_engine[p]:
                part = T_("{property} ({code}) to {engine} but not in Unicode 17.0", property=_PROPERTY_NAMES[p],
                          code="\\p{%s}" % p, engine=self.engine)
            else:
                continue
            what = part if what is None else T_("{first}; {second}", first=what, second=part)
        what = what or T_("classified differently by {engine}", engine=self.engine)
        if any(cp in v for v in self.only_here.values()):
            return T_("{code} is {what}: this character is newer than the engine's Unicode tables",
                      code="U+%04X" % cp, what=what)
        return T_("{code} is {what}: its Unicode properties changed", code="U+%04X" % cp, what=what)


def _class_body(cps: list[int]) -> str:
    out = []
    i = 0
    while i < len(cps):
        j = i
        while j + 1 < len(cps) and cps[j + 1] == cps[j] + 1:
            j += 1
        out.append(f"\\U{cps[i]:08X}" + (f"-\\U{cps[j]:08X}" if j > i else ""))
        i = j + 1
    return "".join(out)


def _probe(prop_regex: str, candidates: list[int]) -> set[int]:
    """Which ``candidates`` the tiktoken engine matches with ``prop_regex`` (e.g. ``\\p{L}``).

    Each candidate is a whole vocabulary entry and the pattern matches one
    character: tiktoken encodes only what its pattern matches, so the ids
    that come back name the characters in the property.
    """
    import tiktoken

    ranks = {bytes((b,)): b for b in range(256)}
    ids: dict[int, int] = {}
    for cp in candidates:
        data = chr(cp).encode("utf-8")
        if data not in ranks:
            ids[len(ranks)] = cp
            ranks[data] = len(ranks)
    enc = tiktoken.Encoding("unicode-probe", pat_str=prop_regex, mergeable_ranks=ranks, special_tokens={})
    text = "".join(chr(cp) for cp in candidates)
    found = {ids[i] for i in enc.encode_ordinary(text) if i in ids}
    return found | {cp for cp in candidates if cp < 0x80 and enc.encode_ordinary(chr(cp))}


@lru_cache(maxsize=1)
def tiktoken_tables() -> EngineTables | None:
    """The installed tiktoken engine's tables for :data:`ENGINE_PROPERTIES` (``None`` without tiktoken).

    Candidates are the code points whose property differs between
    ``unicodedata`` (Python's own, older, tables) and ``regex`` (17.0):
    every character new or changed since then. Each is asked of the engine.
    """
    try:
        from importlib.metadata import version

        import tiktoken  # noqa: F401

        engine = f"tiktoken {version('tiktoken')}"
    except Exception:  # noqa: BLE001 # pragma: no cover - tiktoken is a requirement
        return None
    everything = _all_code_points()
    only_here: dict[str, frozenset[int]] = {}
    only_engine: dict[str, frozenset[int]] = {}
    ranges: dict[str, str] = {}
    by_category: dict[str, list[int]] = {}
    for c in everything:
        by_category.setdefault(unicodedata.category(c), []).append(ord(c))
    for p in ENGINE_PROPERTIES:
        rx = r"\s" if p == "s" else rf"\p{{{p}}}"
        here = set(map(ord, regex.findall(rx, everything)))
        if p == "s":
            old = {ord(c) for c in regex.findall(r"\s", everything) if c.isspace()} | {ord(c) for c in "\x1c\x1d\x1e\x1f\u180e\u200b\ufeff"}
        else:
            old = {cp for cat, cps in by_category.items() if cat.startswith(p) for cp in cps}
        candidates = sorted(here ^ old)
        engine_has = _probe(rx, candidates) if candidates else set()
        only_here[p] = frozenset(c for c in candidates if c in here and c not in engine_has)
        only_engine[p] = frozenset(c for c in candidates if c not in here and c in engine_has)
        ranges[p] = _class_body(sorted((here - only_here[p]) | only_engine[p]))
    return EngineTables(engine, only_here, only_engine, ranges)


def pattern_properties(pattern: str) -> set[str]:
    """The properties of :data:`ENGINE_PROPERTIES` that ``pattern`` uses (``\\p{L}``, ``\\s``, ...)."""
    out = set()
    for m in _PROP_TOKEN.finditer(pattern):
        out.add(m.group(1) or "s")
    return out & set(ENGINE_PROPERTIES)


def engine_regex(pattern: str, tables: EngineTables) -> str:
    """``pattern`` with each ``\\p{X}`` / ``\\P{X}`` / ``\\s`` / ``\\S`` spelled out as the engine's tables have it."""
    out = []
    i = 0
    in_class = False
    n = len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "\\":
            m = _PROP_TOKEN.match(pattern, i)
            if m:
                token = m.group()
                prop = m.group(1) or "s"
                negated = token[1] in "PS"
                if prop in tables.ranges:
                    body = tables.ranges[prop]
                    if not in_class:
                        out.append(f"[{'^' if negated else ''}{body}]")
                    elif not negated:
                        out.append(body)
                    else:  # a negated property inside a class cannot be spelled out: keep it
                        out.append(token)
                    i = m.end()
                    continue
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if ch == "[" and not in_class:
            in_class = True
            out.append(ch)
            if pattern.startswith("^", i + 1):
                out.append("^")
                i += 1
            if pattern.startswith("]", i + 1):  # a literal ] first in a class
                out.append("]")
                i += 1
        elif ch == "]" and in_class:
            in_class = False
            out.append(ch)
        else:
            out.append(ch)
        i += 1
    return "".join(out)


@lru_cache(maxsize=32)
def _engine_compiled(pattern: str) -> regex.Pattern[str] | None:
    tables = tiktoken_tables()
    return None if tables is None else regex.compile(_rust_dollar(engine_regex(pattern, tables)))


@lru_cache(maxsize=32)
def _here_compiled(pattern: str) -> regex.Pattern[str]:
    return regex.compile(_rust_dollar(pattern))


def _rust_dollar(pattern: str) -> str:
    # subtle: in the Rust regex engine tiktoken uses, "$" only matches at the very end;
    # Python's also matches before a final "\n". "\Z" is the Rust meaning.
    return regex.sub(r"(?<!\\)\$", r"\\Z", pattern)


@dataclass(frozen=True)
class EngineNote:
    """A character the engine cuts differently from ``regex`` (Unicode 17.0): where, and why."""

    offset: int
    char: str
    reason: str
    engine_pieces: tuple[str, ...]
    unicode17_pieces: tuple[str, ...]

    @property
    def message(self) -> str:
        def show(pieces: tuple[str, ...]) -> str:
            return " | ".join(f"“{p}”" for p in pieces)

        return T_("{reason}; the model splits it as {engine}, not {unicode}", reason=self.reason,
                  engine=show(self.engine_pieces), unicode=show(self.unicode17_pieces))


@dataclass(frozen=True)
class EngineSplit:
    """Pieces as the engine cuts them, and a note at every character where Unicode 17.0 would cut otherwise."""

    pieces: tuple[Span, ...]
    notes: tuple[EngineNote, ...]


def engine_split(text: str, pattern: str | Pattern) -> EngineSplit:
    """Cut ``text`` as tiktoken's regex engine does with ``pattern`` (its ``$`` and its Unicode tables).

    Only text holding a character the tables disagree on is cut twice; for
    the rest the two splits are the same by construction.

    >>> [p.text for p in engine_split(chr(0x16EA5) + "'U", "cl100k").pieces] == [chr(0x16EA5) + "'", "U"]
    True
    """
    pat = pattern if isinstance(pattern, Pattern) else resolve_pattern(pattern)
    if pat.regex is None:
        return EngineSplit(tuple(pretokenize(text, pat)), ())
    here = [Span(m.group(), m.start(), m.end()) for m in _here_compiled(pat.regex).finditer(text) if m.end() > m.start()]
    tables = tiktoken_tables()
    if tables is None:
        return EngineSplit(tuple(here), ())
    props = frozenset(pattern_properties(pat.regex))
    odd = [m.start() for m in _differing_re(props).finditer(text)]
    if not odd:
        return EngineSplit(tuple(here), ())
    compiled = _engine_compiled(pat.regex)
    assert compiled is not None
    there = [Span(m.group(), m.start(), m.end()) for m in compiled.finditer(text) if m.end() > m.start()]
    here_starts, there_starts = [p.start for p in here], [p.start for p in there]
    notes = []
    for i in odd:
        a, b = _piece_at(here, here_starts, i), _piece_at(there, there_starts, i)
        if a != b:
            eng = _near(there, there_starts, i)
            u17 = _near(here, here_starts, i)
            notes.append(EngineNote(i, text[i], tables.reason(text[i], set(props)), eng, u17))
    return EngineSplit(tuple(there), tuple(notes))


@lru_cache(maxsize=32)
def _engine_setup(pattern: str) -> tuple[regex.Pattern[str], frozenset[str]]:
    """``pattern`` compiled here, and the characters the engine's tables put otherwise for it."""
    tables = tiktoken_tables()
    if tables is None:
        return _here_compiled(pattern), frozenset()
    props = pattern_properties(pattern)
    return _here_compiled(pattern), frozenset(chr(c) for p in props for c in tables.only_here[p] | tables.only_engine[p])


def engine_pieces(text: str, pattern: str) -> list[str]:
    """The pieces of :func:`engine_split` as strings only, fast: the regex runs once when no character of
    ``text`` is one the engine's tables and Unicode 17.0 disagree on (the pre-tokenizer floor counts them).

    >>> engine_pieces("কার hello", PATTERNS["cl100k"].regex)
    ['ক', 'ার', ' hello']
    """
    here, odd = _engine_setup(pattern)
    if not odd.isdisjoint(text):
        return [p.text for p in engine_split(text, Pattern("custom", pattern, "")).pieces]
    if here.groups:
        return [m.group() for m in here.finditer(text) if m.end() > m.start()]
    return [p for p in here.findall(text) if p]


@lru_cache(maxsize=16)
def _differing_re(props: frozenset[str]) -> regex.Pattern[str]:
    """A class of every character the engine's tables put otherwise than Unicode 17.0, for ``props``."""
    tables = tiktoken_tables()
    assert tables is not None
    cps = sorted({c for p in props for c in tables.only_here[p] | tables.only_engine[p]})
    return regex.compile(f"[{_class_body(cps)}]" if cps else r"(?!)")


def _piece_at(spans: list[Span], starts: list[int], i: int) -> tuple[int, int] | None:
    """The span of the piece holding code point ``i`` (``None`` when no piece holds it)."""
    k = bisect_right(starts, i) - 1
    if k >= 0 and spans[k].start <= i < spans[k].end:
        return (spans[k].start, spans[k].end)
    return None


def _near(spans: list[Span], starts: list[int], i: int) -> tuple[str, ...]:
    """The pieces touching code points ``i - 1`` to ``i + 1``."""
    lo = max(bisect_right(starts, i - 1) - 1, 0)
    hi = bisect_right(starts, i + 1)
    return tuple(p.text for p in spans[lo:hi] if p.end > i - 1 and p.start <= i + 1)
