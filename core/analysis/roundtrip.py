"""Round trips: does decode(encode(norm(text))) give norm(text) back, and if not, what changed and why.

- :func:`round_trip`: one text through one tokenizer;
- :func:`char_diff` and :func:`failure_reason`: what a failed round trip changed, as data and in words;
- :func:`first_difference`: where a long text first changed, in a bounded window (for reports);
- :func:`round_trip_suite`: built-in hard cases (ZWJ/ZWNJ, ৎ, emoji, URLs, Persian, Uzbek, odd whitespace, CRLF).

A tokenizer here is any :class:`core.tokens.Tokenizer`. The metrics that count round trips over a held-out
set are in :mod:`core.analysis.evaluate`; this module does not count or print.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, Sequence

from ..i18n import N_, T_
from ..text.align import opcodes
from ..text.native import fence
from ..tokens import Encoding, IdCodec, Tokenizer

# ---------------------------------------------------------------------------
# Round trip
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DiffPart:
    """One stretch of a character diff: ``op`` is equal, delete, insert or replace."""

    op: Literal["equal", "delete", "insert", "replace"]
    original: str
    decoded: str


@dataclass(frozen=True)
class RoundTripFailure:
    """A sentence whose decoded form differs from its (normalized) original."""

    original: str
    decoded: str
    reason: str
    diff: tuple[DiffPart, ...]


def char_diff(original: str, decoded: str) -> tuple[DiffPart, ...]:
    """Character-level diff of ``original`` against ``decoded``.

    Bounded (:func:`core.text.align.opcodes`): a changed stretch too long to
    align exactly comes back as one ``replace`` part, still a correct diff.
    """
    return tuple(DiffPart(op, original[i1:i2], decoded[j1:j2]) for op, i1, i2, j1, j2 in opcodes(original, decoded).opcodes)


#: How far :func:`first_difference` looks past the common prefix to align the change (code points).
DIFF_WINDOW = 200


@dataclass(frozen=True)
class FirstDifference:
    """The first change of a round trip, bounded: ``offset`` (code points into the original), up to ``context``
    characters of unchanged text before and after it, and the changed stretch on each side (each at most ``width``
    characters; ``cut`` is True when a stretch was longer and was shortened)."""

    offset: int
    before: str
    original: str
    decoded: str
    after: str
    cut: bool


def _common_prefix(a: str, b: str) -> int:
    """Length of the common prefix of ``a`` and ``b`` (slices compared in blocks, so a long equal run is fast)."""
    n, p, block = min(len(a), len(b)), 0, 4096
    while p + block <= n and a[p:p + block] == b[p:p + block]:
        p += block
    while p < n and a[p] == b[p]:
        p += 1
    return p


def first_difference(original: str, decoded: str, *, context: int = 24, width: int = 40) -> FirstDifference | None:
    """Where ``decoded`` first differs from ``original``, shown in a small window whatever the texts' length
    (None when they are equal). The changed stretches are aligned in :data:`DIFF_WINDOW` characters after the
    common prefix, so a text that changes everywhere (e.g. NFKC on a whole file) still gives a few characters.

    >>> d = first_difference("বাজার ﬁle " * 3, "বাজার file " * 3, context=6)
    >>> d.offset, d.before, d.original, d.decoded, d.after, d.cut
    (6, 'বাজার ', 'ﬁ', 'fi', 'le বাজ', False)
    """
    if original == decoded:
        return None
    p = _common_prefix(original, decoded)
    a, b = original[p:p + DIFF_WINDOW], decoded[p:p + DIFF_WINDOW]
    part = next((d for d in char_diff(a, b) if d.op != "equal"), DiffPart("replace", a, b))
    ours, theirs = part.original, part.decoded
    cut = len(ours) > width or len(theirs) > width
    end = p + len(ours)
    return FirstDifference(p, original[max(0, p - context):p], ours[:width], theirs[:width],
                           "" if cut else original[end:end + context], cut)


def failure_reason(original: str, decoded: str) -> str:
    """Why a round trip failed, in words (a :class:`core.i18n.Message`: English in data, translated where shown)."""
    if "[UNK]" in decoded and "[UNK]" not in original:
        return T_("unknown token: [UNK] replaced text the tokenizer had never seen")
    if "\ufffd" in decoded and "\ufffd" not in original:
        return T_("bytes lost: decoding produced U+FFFD")
    if decoded.split() == original.split():
        return T_("whitespace changed: spaces, tabs or line breaks are not kept")
    if re.sub(r"\s+", "", decoded) == re.sub(r"\s+", "", original):
        return T_("spacing changed around punctuation: the pre-tokenizer split it off and the decoder joined with "
                  "spaces")
    return T_("text changed")


@fence(T_("the round trip"))
def round_trip(tok: Tokenizer, text: str) -> tuple[bool, str, str, Encoding]:
    """``(ok, normalized, decoded, encoding)`` for decode(encode(norm(text))) == norm(text)."""
    norm = tok.normalize(text)
    enc = tok.encode(norm)
    decoded = tok.decode(enc.tokens)
    return decoded == norm, norm, decoded, enc


@fence(T_("the round trip"))
def round_trip_text(tok: IdCodec, text: str) -> tuple[bool, str, str]:
    """``(ok, normalized, decoded)`` as :func:`round_trip` gives them, on the fastest path the tokenizer has.

    A pretrained adapter's ``decode`` is ``decode_ids`` of the token ids, so ids alone give the same decoded
    text without building token records, spans and the grapheme report (most of :meth:`encode`'s cost): what a
    file of millions of lines needs. Baselines (units that may have no id) and trained tokenizers take the
    general path.
    """
    norm = tok.normalize(text)
    if tok.ids_complete:
        decoded = tok.decode_ids(tok.encode_ids(norm))
    else:
        decoded = tok.decode(tok.encode(norm).tokens)
    return decoded == norm, norm, decoded


def round_trip_lines(tok: IdCodec, cases: Sequence[tuple[str, str]], keep: int) -> tuple[int, list[SuiteResult]]:
    """How many of ``cases`` round-trip, and the first ``keep`` failures with their reason and diff.

    Only the kept failures are explained (a diff per failing line would cost more than the tokenizing when a
    normalizer changes every line), so the time stays that of encoding and decoding each line once.
    """
    passed = 0
    failures: list[SuiteResult] = []
    for name, text in cases:
        good, norm, decoded = round_trip_text(tok, text)
        if good:
            passed += 1
        elif len(failures) < keep:
            failures.append(SuiteResult(name, text, False, decoded, norm, failure_reason(norm, decoded),
                                        char_diff(norm, decoded)))
    return passed, failures


# ---------------------------------------------------------------------------
# Round-trip suite over hard cases
# ---------------------------------------------------------------------------

#: ``(name, text)`` cases that break careless tokenizers.
#: The names are English (the CLI's JSON keeps them) and marked for the catalogs: a page shows ``_(name)``.
HARD_CASES: tuple[tuple[str, str], ...] = (
    (N_("Bangla sentence"), "বাজারঘরের অর্ডার আগামীকাল বিকেলে রাজশাহী পৌঁছাবে।"),
    (N_("Bangla with ZWNJ (র‌্যাব)"), "র\u200c্যাব"),
    (N_("Bangla with ZWJ (র‍্যা)"), "র\u200d্যা"),
    (N_("ৎ as one letter"), "উৎসব হঠাৎ"),
    (N_("ৎ as ত + virama + ZWJ"), "উত\u09cd\u200dসব"),
    (N_("য় precomposed (U+09DF)"), "\u09dfাত্রা"),
    (N_("Latin with accents"), "Café naïve résumé"),
    (N_("Digits, Bangla and ASCII"), "০১২৩৪৫৬৭৮৯ 0123456789 ৳১,২৫০.৫০"),
    (N_("Emoji sequences"), "👩🏽‍💻 👨‍👩‍👧 🇧🇩 ❤️"),
    (N_("URL and e-mail"), "https://example.org/path?q=বাজার&x=1 support@example.com"),
    (N_("Persian with ZWNJ"), "می\u200cخواهم کتاب\u200cها را بخوانم."),
    (N_("Uzbek with ʻ ʼ"), "Oʻzbekiston gʻalaba maʼno"),
    (N_("Leading and trailing spaces"), "  বাজার ঘর  "),
    (N_("Multiple spaces"), "বাজার    ঘর"),
    (N_("Tabs"), "নাম\tদাম\tপরিমাণ"),
    (N_("CRLF line breaks"), "প্রথম লাইন\r\nদ্বিতীয় লাইন\r\n"),
    (N_("Special-token spelling"), "hello [SEP] <|endoftext|> <s>"),
)


@dataclass(frozen=True)
class SuiteResult:
    """One tokenizer on one case."""

    case: str
    text: str
    ok: bool
    decoded: str
    normalized: str
    reason: str
    diff: tuple[DiffPart, ...]


def round_trip_suite(tok: IdCodec, cases: Sequence[tuple[str, str]] = HARD_CASES) -> list[SuiteResult]:
    """decode(encode(norm(text))) == norm(text) for each case."""
    out = []
    for name, text in cases:
        good, norm, decoded, _ = round_trip(tok, text)
        out.append(SuiteResult(name, text, good, decoded, norm, "" if good else failure_reason(norm, decoded),
                               () if good else char_diff(norm, decoded)))
    return out
