"""Normalization: what NFC, NFKC, BERT's normalizer and custom rules do to text.

Every form runs through the real ``tokenizers.normalizers`` objects, so what
we show is what a tokenizer built with them would see. :func:`normalize`
returns the text before and after, an alignment per grapheme cluster with
per-code-point rows (hex, name, category), and plain-language warnings for
lossy or surprising changes: marks removed (the uncased-BERT trap),
compatibility mappings that change meaning (½, ², ①, no-break space),
ZWJ/ZWNJ present, and the two spellings of ৎ.

:class:`Rule` lists build a ``Replace``/``Sequence`` normalizer (the Uzbek
apostrophe rules are a preset) that exports as normalizer JSON.

This module does not tokenize; counting tokens before/after is the page's job.
"""
from __future__ import annotations

import json
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Callable, Sequence

from ..i18n import N_, T_, Message, Tn_, Verbatim, message_of
from ..text import limits
from ..text.align import opcodes
from ..text.errors import UserError
from ..text.units import CodePointInfo, codepoint_info, graphemes

if TYPE_CHECKING:  # pragma: no cover
    from tokenizers.normalizers import Normalizer

#: Longest text we align code point by code point (longer text is cut, with a notice).
MAX_CHARS = 5000


@dataclass(frozen=True)
class Form:
    """A named normalizer configuration."""

    name: str
    label: str
    description: str


FORMS: dict[str, Form] = {
    f.name: f
    for f in (
        Form("NFC", "NFC", "Canonical composition: the safe default; the text means the same."),
        Form("NFD", "NFD", "Canonical decomposition: letters and their marks apart."),
        Form("NFKC", "NFKC", "Compatibility composition: also folds look-alikes (½ -> 1⁄2, ² -> 2, ① -> 1)."),
        Form("NFKD", "NFKD", "Compatibility decomposition."),
        Form("bert-uncased", "BERT (lowercase=True, strip_accents unset)",
             "Uncased BERT: lowercases and, because strip_accents is unset, strips all Mn marks."),
        Form("bert-uncased-keep-accents", "BERT (lowercase=True, strip_accents=False)",
             "Lowercases but keeps marks."),
        Form("bert-cased", "BERT (lowercase=False, strip_accents unset)", "Cased BERT: cleans control characters only."),
        Form("bert-strip", "BERT (lowercase=False, strip_accents=True)", "Keeps case but strips all Mn marks."),
    )
}


def make_normalizer(form: str) -> Normalizer:
    """The ``tokenizers`` normalizer for a form name in :data:`FORMS`."""
    from tokenizers import normalizers as n

    simple = {"NFC": n.NFC, "NFD": n.NFD, "NFKC": n.NFKC, "NFKD": n.NFKD}
    if form in simple:
        return simple[form]()
    bert: dict[str, dict[str, Any]] = {
        "bert-uncased": dict(lowercase=True, strip_accents=None),
        "bert-uncased-keep-accents": dict(lowercase=True, strip_accents=False),
        "bert-cased": dict(lowercase=False, strip_accents=None),
        "bert-strip": dict(lowercase=False, strip_accents=True),
    }
    if form in bert:
        return n.BertNormalizer(clean_text=True, handle_chinese_chars=True, **bert[form])
    raise UserError(f"unknown normalization form {form!r}; choose one of: {', '.join(FORMS)}")


def bert_normalizer(*, lowercase: bool, strip_accents: bool | None, clean_text: bool = True,
                    handle_chinese_chars: bool = True) -> Normalizer:
    """The real ``BertNormalizer`` with any settings."""
    from tokenizers import normalizers as n

    return n.BertNormalizer(clean_text=clean_text, handle_chinese_chars=handle_chinese_chars,
                            strip_accents=strip_accents, lowercase=lowercase)


# ---------------------------------------------------------------- alignment


@dataclass(frozen=True)
class CodePointRow:
    """One row of the diff table: code points ``before`` became code points ``after``.

    ``op`` is ``equal``, ``canonical`` (different code points, canonically the
    same text, e.g. composed vs decomposed), ``replace``, ``delete`` or ``insert``.
    """

    op: str
    before: tuple[CodePointInfo, ...]
    after: tuple[CodePointInfo, ...]

    @property
    def changed(self) -> bool:
        return self.op != "equal"


@dataclass(frozen=True)
class ClusterDiff:
    """One grapheme cluster of the input, what it became, and (computed on first use) its code point rows."""

    start: int
    end: int
    before: str
    after: str

    @property
    def changed(self) -> bool:
        return self.before != self.after

    @cached_property
    def rows(self) -> tuple[CodePointRow, ...]:
        """Code point rows pairing ``before`` with ``after`` (see :func:`_rows`)."""
        return _rows(self.before, self.after)


@dataclass(frozen=True)
class Warning:
    """A plain-language warning about one kind of change; ``examples`` show what happened."""

    kind: str
    message: str
    examples: tuple[str, ...] = ()


@dataclass(frozen=True)
class NormalizeResult:
    """Before/after text, per-cluster alignment and warnings for one form."""

    form: str
    before: str
    after: str
    clusters: tuple[ClusterDiff, ...]
    warnings: tuple[Warning, ...]
    aligned_by: str
    notice: str = ""

    @property
    def changed_clusters(self) -> int:
        return sum(1 for c in self.clusters if c.changed)


def _rows(before: str, after: str) -> tuple[CodePointRow, ...]:
    """Pair code points through their canonical decompositions.

    Both sides are expanded to NFD units (remembering which code point each
    unit came from) and diffed; code points linked by matching units form one
    row. So "ৌ" -> "ে" + "ৗ" is one row and a stripped "ঁ" is its own delete row.
    """
    bu = [(u, i) for i, ch in enumerate(before) for u in unicodedata.normalize("NFD", ch)]
    au = [(u, j) for j, ch in enumerate(after) for u in unicodedata.normalize("NFD", ch)]
    parent: dict[tuple[str, int], tuple[str, int]] = {}

    def find(x: tuple[str, int]) -> tuple[str, int]:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(x: tuple[str, int], y: tuple[str, int]) -> None:
        parent[find(x)] = find(y)

    ops = opcodes([u for u, _ in bu], [u for u, _ in au]).opcodes  # bounded: a coarse block past the cap
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            for k in range(i2 - i1):
                union(("b", bu[i1 + k][1]), ("a", au[j1 + k][1]))
        elif tag == "replace":
            nodes = [("b", bu[k][1]) for k in range(i1, i2)] + [("a", au[k][1]) for k in range(j1, j2)]
            for n in nodes[1:]:
                union(nodes[0], n)
    # Groups in reading order: the order in which the diff first touches them.
    order: list[tuple[str, int]] = []
    members: dict[tuple[str, int], tuple[set[int], set[int]]] = {}
    for _tag, i1, i2, j1, j2 in ops:
        for side, units, lo, hi in (("b", bu, i1, i2), ("a", au, j1, j2)):
            for k in range(lo, hi):
                root = find((side, units[k][1]))
                if root not in members:
                    members[root] = (set(), set())
                    order.append(root)
                members[root][0 if side == "b" else 1].add(units[k][1])
    rows: list[CodePointRow] = []
    for root in order:
        bi, aj = members[root]
        b_txt = "".join(before[i] for i in sorted(bi))
        a_txt = "".join(after[j] for j in sorted(aj))
        if b_txt == a_txt:
            op = "equal"
        elif not a_txt:
            op = "delete"
        elif not b_txt:
            op = "insert"
        elif unicodedata.normalize("NFD", b_txt) == unicodedata.normalize("NFD", a_txt):
            op = "canonical"
        else:
            op = "replace"
        rows.append(CodePointRow(op, tuple(codepoint_info(c) for c in b_txt), tuple(codepoint_info(c) for c in a_txt)))
    return tuple(rows)


def align(before: str, after: str, norm: Callable[[str], str]) -> tuple[tuple[ClusterDiff, ...], str]:
    """Pair each grapheme cluster of ``before`` with what it became.

    Each cluster is normalized alone; when the pieces join to the whole
    result (true unless a rule looks at its neighbours) that is the
    alignment ("cluster"). Otherwise a code point diff of the whole text is
    folded back onto the clusters ("diff"), or, when the changed stretch is
    too long to align exactly (:mod:`core.text.align`), one block of it is
    given to its first cluster ("coarse").
    """
    clusters = graphemes(before)
    parts = [norm(c.text) for c in clusters]
    if "".join(parts) != after:
        owner = [0] * (len(before) + 1)
        for k, c in enumerate(clusters):
            for i in range(c.start, c.end):
                owner[i] = k
        owner[len(before)] = max(len(clusters) - 1, 0)
        got = [""] * len(clusters)
        alignment = opcodes(before, after)
        for op, i1, i2, j1, j2 in alignment.opcodes:
            if op == "equal":
                for k in range(i2 - i1):
                    got[owner[i1 + k]] += after[j1 + k]
            elif clusters:
                got[owner[i1]] += after[j1:j2]
        parts, how = got, "diff" if alignment.exact else "coarse"
    else:
        how = "cluster"
    return tuple(ClusterDiff(c.start, c.end, c.text, p) for c, p in zip(clusters, parts)), how


# ---------------------------------------------------------------- warnings

_COMPAT_WORDS = {
    "<fraction>": N_("a fraction becomes digits with a fraction slash"),
    "<super>": N_("a superscript becomes a plain character (m² reads as m2)"),
    "<sub>": N_("a subscript becomes a plain character"),
    "<circle>": N_("a circled character becomes plain"),
    "<noBreak>": N_("a no-break space becomes a plain character and may be split"),
    "<compat>": N_("a compatibility character becomes its plain look-alike"),
    "<font>": N_("a styled (font) variant becomes plain"),
    "<wide>": N_("a full-width character becomes narrow"),
    "<narrow>": N_("a half-width character becomes wide"),
    "<square>": N_("a squared abbreviation is spelled out"),
    "<small>": N_("a small form becomes normal size"),
    "<vertical>": N_("a vertical form becomes horizontal"),
    "<initial>": N_("an Arabic positional form becomes the base letter"),
    "<medial>": N_("an Arabic positional form becomes the base letter"),
    "<final>": N_("an Arabic positional form becomes the base letter"),
    "<isolated>": N_("an Arabic positional form becomes the base letter"),
}

ZWJ, ZWNJ = "\u200d", "\u200c"
KHANDA_TA = "\u09ce"
KHANDA_TA_OLD = "\u09a4\u09cd\u200d"


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch).startswith("M")


def warnings_for(before: str, after: str, clusters: Sequence[ClusterDiff]) -> tuple[Warning, ...]:
    """Plain-language warnings for the change ``before`` -> ``after`` (Messages: shown in the reader's language)."""
    out: list[Warning] = []
    removed: list[str] = []
    compat: dict[str, list[str]] = {}
    lowered = 0
    for c in clusters:
        if not c.changed:
            continue
        # marks lost: count per mark code point before vs after in this cluster
        lost = [ch for ch in Counter(unicodedata.normalize("NFD", c.before)) - Counter(unicodedata.normalize("NFD", c.after))
                if _is_mark(ch)]
        if lost:
            removed.append(f"{c.before} -> {c.after or '(nothing)'}")
        for ch in c.before:
            dec = unicodedata.decomposition(ch)
            if dec.startswith("<") and ch not in c.after:
                tag = dec.split(">", 1)[0] + ">"
                compat.setdefault(tag, []).append(f"{ch} ({codepoint_info(ch).hex}) -> {unicodedata.normalize('NFKC', ch)!r}")
        if c.before.lower() == c.after and c.before != c.after:
            lowered += 1
    # the sentences are Messages (a page shows them in its reader's language); counts are Verbatim: plain Western
    # digits, as they have always been shown here; kinds and examples do not change
    if removed:
        out.append(Warning("marks-removed", Tn_(
            "{count} letter lost a combining mark: vowel signs, virama, nukta or diacritics were deleted, which "
            "changes the word (the uncased-BERT trap).",
            "{count} letters lost a combining mark: vowel signs, virama, nukta or diacritics were deleted, which "
            "changes the word (the uncased-BERT trap).", len(removed), count=Verbatim(len(removed))), tuple(removed[:12])))
    for tag, ex in compat.items():
        what = T_(_COMPAT_WORDS[tag]) if tag in _COMPAT_WORDS else T_("a character is replaced by a look-alike")
        out.append(Warning("compatibility", T_("Compatibility mapping: {what}; the meaning can change.", what=what),
                           tuple(dict.fromkeys(ex))[:12]))
    if lowered:
        out.append(Warning("lowercased", Tn_("{count} character was lowercased.",
                                             "{count} characters were lowercased.", lowered, count=Verbatim(lowered))))
    for ch, name in ((ZWJ, "ZERO WIDTH JOINER (U+200D)"), (ZWNJ, "ZERO WIDTH NON-JOINER (U+200C)")):
        if ch in before:
            count = Verbatim(before.count(ch))
            message = (T_("The text contains {count} {name}, kept here. No normalization form unifies text written "
                          "with and without it, so look-alike words can get different tokens.", count=count, name=name)
                       if ch in after else
                       T_("The text contains {count} {name}, REMOVED here. No normalization form unifies text written "
                          "with and without it, so look-alike words can get different tokens.", count=count, name=name))
            out.append(Warning("zero-width", message))
    has_new, has_old = KHANDA_TA in before, KHANDA_TA_OLD in before
    if has_new or has_old:
        which = T_("both spellings") if has_new and has_old else ("U+09CE ৎ" if has_new else "ত + ্ + ZWJ")
        out.append(Warning("khanda-ta", T_(
            "Khanda ta (ৎ) can be written as U+09CE or as ত + ্ + ZWJ (U+09A4 U+09CD U+200D); this text uses {which}. "
            "NFC and NFKC keep them different, so the same word can tokenize two ways.", which=which)))
    return tuple(out)


def normalize_with(text: str, norm: Callable[[str], str], name: str) -> NormalizeResult:
    """Normalize with any callable ``str -> str`` (for example a ``normalize_str``)."""
    notices: list[Message] = []
    if len(text) > MAX_CHARS:
        notices.append(T_("Only the first {shown} of {total} characters are shown.", shown=Verbatim(MAX_CHARS),
                          total=Verbatim(len(text))))
        text = text[:MAX_CHARS]
    after = norm(text)
    clusters, how = align(text, after, norm)
    if how == "coarse":
        notices.append(T_("The change is too long to align character by character here; its changed stretch is shown "
                          "as one block."))
    # two notes are one Message (a template that is no catalog entry), so each sentence is translated where shown
    notice = notices[0] if len(notices) == 1 else Message("{first} {second}", values=dict(
        first=notices[0], second=notices[1])) if notices else ""
    return NormalizeResult(name, text, after, clusters, warnings_for(text, after, clusters), how, notice)


def normalize(text: str, form: str = "NFC") -> NormalizeResult:
    """Run one named form through ``tokenizers.normalizers``.

    >>> normalize("\\u09c7\\u09be", "NFC").after == "\\u09cb"
    True
    """
    norm = make_normalizer(form)
    return normalize_with(text, norm.normalize_str, form)


def compare_forms(text: str, forms: Sequence[str] = tuple(FORMS)) -> dict[str, NormalizeResult]:
    """:func:`normalize` for several forms at once."""
    return {f: normalize(text, f) for f in forms}


# ---------------------------------------------------------------- rule builder


@dataclass(frozen=True)
class Rule:
    """Replace ``pattern`` (a regex when ``regex`` is true, else literal text) by ``replacement``."""

    pattern: str
    replacement: str
    regex: bool = True
    note: str = ""


_APOS = "[\u2018\u2019`']"
#: Uzbek Latin apostrophes: o‘ and g‘ take U+02BB (ʻ); the tutuq belgisi between letters is U+02BC (ʼ).
UZBEK_RULES: tuple[Rule, ...] = (
    # the notes are English data marked for the catalogs (N_): the rule builder shows them translated
    Rule(r"(?<=[oOgG])" + _APOS + r"(?=\p{L})", "\u02bb", True, N_("‘ ’ ` ' after o/O or g/G before a letter -> ʻ (U+02BB)")),
    Rule(r"(?<=\p{L})" + _APOS + r"(?=\p{L})", "\u02bc", True, N_("‘ ’ ` ' between other letters -> ʼ (U+02BC)")),
)


class RuleError(UserError):
    """A rule that the tokenizers regex engine rejects."""


def build_rules(rules: Sequence[Rule], *, nfc: bool = True) -> Normalizer:
    """A ``tokenizers.normalizers.Sequence`` of ``Replace`` (after NFC by default)."""
    from tokenizers import Regex
    from tokenizers import normalizers as n

    steps: list[Normalizer] = [n.NFC()] if nfc else []
    for i, r in enumerate(rules, 1):
        if not r.pattern:
            raise RuleError(T_("rule {index}: the pattern is empty", index=i))
        try:
            steps.append(n.Replace(Regex(r.pattern) if r.regex else r.pattern, r.replacement))
        except Exception as exc:  # noqa: BLE001 - the Rust regex engine raises a plain Exception
            raise RuleError(T_("rule {index}: {pattern} is not a valid regex ({reason})", index=i, pattern=repr(r.pattern),
                               reason=str(exc))) from None
    return n.Sequence(steps)


def rules_json(rules: Sequence[Rule], *, nfc: bool = True) -> str:
    """The rules as normalizer JSON (the ``normalizer`` section of a tokenizer.json)."""
    norm = build_rules(rules, nfc=nfc)
    return json.dumps(json.loads(norm.__getstate__()), ensure_ascii=False, indent=2)


def normalizer_from_json(text: str) -> Normalizer:
    """Load a normalizer JSON (as exported) back into a ``tokenizers`` normalizer."""
    from tokenizers import Tokenizer

    try:
        spec = limits.read_json(text, T_("the normalizer JSON"))
    except limits.JsonSyntaxError as exc:
        raise RuleError(T_("not valid JSON ({reason})", reason=exc.reason)) from None
    except limits.LimitError as exc:
        raise RuleError(message_of(exc)) from None
    shell = {"version": "1.0", "truncation": None, "padding": None, "added_tokens": [], "normalizer": spec,
             "pre_tokenizer": None, "post_processor": None, "decoder": None,
             "model": {"type": "WordLevel", "vocab": {"[UNK]": 0}, "unk_token": "[UNK]"}}
    from ..text.native import NativeError, fenced

    try:
        with fenced(T_("this normalizer")):
            return Tokenizer.from_str(json.dumps(shell)).normalizer
    except (NativeError, ValueError) as exc:
        raise RuleError(T_("the tokenizers library rejects this normalizer: {reason}", reason=message_of(exc))) from None


def apply_rules(text: str, rules: Sequence[Rule], *, nfc: bool = True) -> NormalizeResult:
    """Run the rules (through the real normalizer) and report the change."""
    from ..text.native import NativeError, fenced

    try:
        with fenced(T_("the rules")):  # a rule the regex engine gives up on panics in Rust: one error, not a crash
            return normalize_with(text, build_rules(rules, nfc=nfc).normalize_str, "rules")
    except NativeError as exc:
        raise RuleError(message_of(exc)) from None
