"""The word inspector: *why* a tokenizer cuts one word the way it does, layer by layer.

For one short text (a word, usually) and one tokenizer this module collects
the evidence the engine already computes and turns it into short sentences,
returned as data (:class:`Reason`, :class:`Layer`, :class:`TokenizerView`):

- **normalizer**: what the tokenizer's own normalizer changed
  (:mod:`core.pipeline.normalize` warnings; tiktoken tokenizers have none);
- **pre-tokenizer**: every cut its split regex makes inside the text, which
  top-level alternative of the regex matched the piece before the cut and
  which part of it stopped (e.g. ``\\p{L}++`` does not match a vowel sign,
  ``\\p{M}``); marks cut from their base come from :mod:`core.analysis.pretok_compare`;
- **model**: for byte-level BPE the merges applied with their ranks (from
  :func:`core.pretrained.replay.replay`) and the adjacent final pieces that have no
  merge; for SentencePiece the byte-fallback characters and missing pairs;
  for WordPiece the greedy longest-match trace (:mod:`core.models.wordpiece`); for
  Unigram the best path and the runner-up (:mod:`core.models.unigram`);
- **bytes and letters**: which tokens end inside a code point or inside a
  grapheme cluster (:mod:`core.text.boundaries`).

Nothing here is a canned sentence about a particular word: every number,
code point and regex fragment in a reason is read off the computation, so
changing the input changes the reasons (``tests/test_inspect.py`` checks).

This module does not render and does not load tokenizers: callers pass
tokenizers that answer :class:`core.pretrained.protocols.Explainable` (every zoo adapter does).
"""
from __future__ import annotations

import unicodedata
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import regex

from ..i18n import N_, T_, Translator, translator
from ..pretrained.explain import MAX_EVIDENCE, Layer, Reason, mark_kind, pretokenizer_reasons
from ..pretrained.explain import cp as _cp
from ..pretrained.explain import num as _n
from ..pretrained.explain import q as _q
from ..pretrained.explain import show as _show
from ..pretrained.protocols import Explainable
from ..text.boundaries import BoundaryReport
from ..text.errors import UserError
from ..text.units import CodePointInfo, Span, char_byte_offsets, codepoint_info, graphemes, utf8_hex
from ..tokens import Encoding

__all__ = ["MAX_EVIDENCE", "MAX_WORD_CHARS", "Counts", "InspectError", "Inspection", "Layer", "Reason", "TokenizerView",
           "WordFacts", "WordIndex", "bytes_layer", "check_word", "explain", "inspect_word", "mark_kind",
           "normalizer_layer", "pretokenizer_reasons", "word_at", "word_facts", "word_index"]

#: Longest text the inspector explains (code points). It is a word inspector.
MAX_WORD_CHARS = 200

class InspectError(UserError):
    """Text the inspector cannot explain (empty, too long, not valid Unicode)."""


# ---------------------------------------------------------------------------
# Records
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Counts:
    """The counts a verdict is built from."""

    tokens: int
    boundaries: int
    inside_letter: int
    inside_codepoint: int
    partial_tokens: int

    @classmethod
    def of(cls, enc: Encoding) -> "Counts":
        r: BoundaryReport = enc.report
        return cls(len(enc.tokens), r.total, r.inside_grapheme, r.inside_codepoint, r.bad_tokens)


@dataclass(frozen=True)
class TokenizerView:
    """One tokenizer on the word: its tokens, the reasons per layer and a one-line verdict."""

    tokenizer: str
    name: str
    algorithm: str
    encoding: Encoding
    layers: tuple[Layer, ...]
    counts: Counts
    verdict: str
    translation: Counts | None = None
    translation_verdict: str = ""

    @property
    def pieces(self) -> tuple[bytes, ...]:
        return tuple(t.data for t in self.encoding.tokens)

    def reasons(self, kind: str | None = None) -> list[Reason]:
        """Every reason of every layer (of one ``kind`` if given)."""
        return [r for layer in self.layers for r in layer.reasons if kind is None or r.kind == kind]

    def layer(self, name: str) -> Layer | None:
        return next((la for la in self.layers if la.name == name), None)


@dataclass(frozen=True)
class WordFacts:
    """The word itself: code points, UTF-8 bytes, grapheme clusters."""

    text: str
    codepoints: tuple[CodePointInfo, ...]
    utf8: str
    clusters: tuple[Span, ...]


@dataclass(frozen=True)
class Inspection:
    """Everything the inspector page and ``python -m core inspect`` show."""

    facts: WordFacts
    views: tuple[TokenizerView, ...]
    translation: str | None = None


# ---------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------


def normalizer_layer(tok: Explainable, text: str, t: Translator | None = None) -> Layer:
    """What ``tok``'s own normalizer does to ``text`` (its adapter's
    :meth:`~core.pretrained.adapter.PretrainedTokenizer.explain_normalizer`), in ``t``'s language (English by
    default)."""
    return tok.explain_normalizer(text, t or translator())


#: Script words of Unicode names (:func:`_script`) that a verdict may name.
_SCRIPTS = (N_("Bengali"), N_("Devanagari"), N_("Arabic"), N_("Latin"), N_("Cyrillic"), N_("Tamil"), N_("Thai"))


def word_facts(text: str) -> WordFacts:
    """Code points (hex, name, category), UTF-8 bytes and grapheme clusters of ``text``."""
    return WordFacts(text, tuple(codepoint_info(c) for c in text), utf8_hex(text.encode("utf-8")), tuple(graphemes(text)))


def check_word(text: str) -> str:
    """``text`` if the inspector can take it, else :class:`InspectError` with a one-line reason."""
    if not text or not text.strip():
        raise InspectError(T_("give a word to inspect"))
    if len(text) > MAX_WORD_CHARS:
        raise InspectError(T_("the text is {count} code points; the inspector takes at most {limit}", count=len(text),
                              limit=MAX_WORD_CHARS))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InspectError(T_("text has a lone surrogate {code} at {position}", code="U+%04X" % ord(text[exc.start]),
                              position=exc.start)) from None
    return text


def bytes_layer(enc: Encoding, t: Translator | None = None) -> Layer:
    """Which tokens end inside a code point or inside a letter (grapheme cluster), in ``t``'s language
    (English by default)."""
    t = t or translator()
    text = enc.text
    offsets = char_byte_offsets(text)
    clusters = graphemes(text)
    owner_cluster = {}
    for c in clusters:
        for i in range(c.start, c.end):
            owner_cluster[i] = c
    reasons: list[Reason] = []
    for b in enc.report.boundaries:
        if b.kind == "clean":
            continue
        left, right = enc.tokens[b.index - 1], enc.tokens[b.index]
        if b.kind == "inside_codepoint":
            ci = max(i for i in range(len(text)) if offsets[i] <= b.byte_offset)
            ch = text[ci]
            inside = b.byte_offset - offsets[ci]
            total = offsets[ci + 1] - offsets[ci]
            reasons.append(Reason("inside-codepoint", t.gettext(
                "token {index} ({token}) ends inside {char}: {inside} of its {total} bytes ({hex}) are in this token, "
                "the rest in token {next_index} ({next_token}).").format(
                index=b.index, token=_show(left.data, t=t), char=_cp(ch), inside=inside, total=total,
                hex=utf8_hex(ch.encode()), next_index=b.index + 1, next_token=_show(right.data, t=t))))
        else:
            ci = right.start
            cl = owner_cluster.get(ci)
            letter = cl.text if cl else text[ci]
            reasons.append(Reason("inside-letter", t.gettext(
                "token {index} ({token}) ends inside the letter {letter}: {left} and {right} are in different "
                "tokens.").format(index=b.index, token=_show(left.data, t=t), letter=_q(letter, t=t), left=_cp(text[ci - 1]),
                                  right=_cp(text[ci]))))
    if not reasons:
        reasons.append(Reason("clean", t.gettext("Every boundary falls between letters (grapheme clusters).")))
    return Layer("bytes", t.gettext("Bytes and letters"), tuple(reasons))


def _script(text: str) -> str:
    """The most common script word in the Unicode names of ``text``'s non-ASCII letters ("Bengali")."""
    words = Counter(unicodedata.name(c, "?").split()[0].title() for c in text
                    if ord(c) > 0x7F and unicodedata.category(c) in ("Lu", "Ll", "Lo", "Mn", "Mc"))
    if not words:
        return ""
    name, n = words.most_common(1)[0]
    return name if n >= 2 else ""  # one accented letter says nothing about a script's merges


def _open_tail(data: bytes) -> bytes:
    """The bytes at the end of ``data`` that start a character the token does not finish."""
    for k in range(1, min(4, len(data)) + 1):
        lead = data[-k]
        if lead & 0xC0 != 0x80:  # the last lead byte
            need = 1 if lead < 0x80 else 2 if lead >> 5 == 6 else 3 if lead >> 4 == 14 else 4
            return data[-k:] if k < need else b""
    return b""


def _verdict(enc: Encoding, counts: Counts, layers: Sequence[Layer], t: Translator) -> str:
    parts = []
    kinds = Counter(r.kind for la in layers for r in la.reasons)
    if kinds["mark-split"]:
        parts.append(t.ngettext("the split regex cuts {count} mark from its base",
                              "the split regex cuts {count} marks from their bases", kinds["mark-split"]).format(
            count=_n(kinds["mark-split"], t=t)))
    if counts.partial_tokens:
        tails = Counter(utf8_hex(tail) for tail in (_open_tail(tok.data) for tok in enc.tokens) if tail)
        widest = max(sum(ord(c) > 0x7F for c in tk.data.decode("utf-8", errors="ignore")) for tk in enc.tokens)
        script = _script(enc.text)
        if tails and widest <= 1 and script:
            parts.append(t.gettext("no {script} merges beyond single characters and the byte prefix {prefix}").format(
                script=t.gettext(script), prefix=tails.most_common(1)[0][0]))
        parts.append(t.gettext("{count} of {total} tokens are not whole characters").format(
            count=_n(counts.partial_tokens, t=t), total=_n(counts.tokens, t=t)))
    if kinds["byte-fallback"]:
        parts.append(t.ngettext("{count} character falls back to bytes", "{count} characters fall back to bytes",
                              kinds["byte-fallback"]).format(count=_n(kinds["byte-fallback"], t=t)))
    if kinds["unk"]:
        parts.append(t.ngettext("{count} word becomes the unknown token", "{count} words become the unknown token",
                              kinds["unk"]).format(count=_n(kinds["unk"], t=t)))
    parts.append(t.gettext("{count} of {total} boundaries fall inside letters").format(
        count=_n(counts.inside_letter, t=t), total=_n(counts.boundaries, t=t)) if counts.boundaries else t.gettext("no boundaries"))
    # TRANSLATORS: {reasons} are the clauses above joined by the list separator "; "
    return t.ngettext("{count} token: {reasons}", "{count} tokens: {reasons}", counts.tokens).format(
        count=_n(counts.tokens, t=t), reasons=t.gettext("; ").join(parts))


def explain(tok: Explainable, text: str, *, translation: str | None = None, lang: str = "en",
            digits: str = "western") -> TokenizerView:
    """The tokens of ``text`` under ``tok`` with the reasons per layer and a verdict.

    ``lang`` is the language of the sentences (:mod:`core.i18n`; English by default), ``digits``
    ``"native"`` writes Bangla/Persian digits in them; the data fields do not change.

    >>> from core.pretrained import zoo
    >>> v = explain(zoo.load("o200k_base"), "রাজশাহী")
    >>> v.counts.tokens, v.verdict.split(":")[0]
    (3, '3 tokens')
    """
    return _explain(tok, text, translation, translator(lang, digits))


def _explain(tok: Explainable, text: str, translation: str | None, t: Translator) -> TokenizerView:
    check_word(text)
    enc = tok.encode(text)
    layers = [tok.explain_normalizer(text, t), *tok.explain_layers(text, enc, t), bytes_layer(enc, t)]
    counts = Counts.of(enc)
    view_t = None
    tverdict = ""
    if translation and translation.strip():
        tenc = tok.encode(translation)
        view_t = Counts.of(tenc)
        ratio = counts.tokens / view_t.tokens if view_t.tokens else 0.0
        tverdict = t.ngettext(
            "translation {text}: {count} token, {inside} of {boundaries} boundaries inside letters; the word costs "
            "{ratio}x its translation",
            "translation {text}: {count} tokens, {inside} of {boundaries} boundaries inside letters; the word costs "
            "{ratio}x its translation", view_t.tokens).format(
            text=_q(translation, t=t), count=_n(view_t.tokens, t=t), inside=_n(view_t.inside_letter, t=t),
            boundaries=_n(view_t.boundaries, t=t), ratio=_n(ratio, 2, t=t))
    return TokenizerView(tok.id, tok.name, tok.algorithm, enc, tuple(layers), counts,
                         _verdict(enc, counts, layers, t), view_t, tverdict)


def inspect_word(text: str, tokenizers: Sequence[Explainable], *, translation: str | None = None,
                 lang: str = "en", digits: str = "western") -> Inspection:
    """Facts about ``text`` and :func:`explain` for each tokenizer (sentences in ``lang``, numbers in ``digits``)."""
    check_word(text)
    return Inspection(word_facts(text), tuple(explain(tok, text, translation=translation, lang=lang, digits=digits)
                                              for tok in tokenizers), translation or None)


# ---------------------------------------------------------------------------
# The word around a position (pages/_links.py turns it into a link to the inspector)
# ---------------------------------------------------------------------------

_WORD = regex.compile(r"[\p{L}\p{M}\p{N}\u200c\u200d'’ʻʼ]+")
#: Where no word is: a run of other non-space characters (punctuation), else one character.
_OTHER = regex.compile(r"[^\s\p{L}\p{M}\p{N}\u200c\u200d]+|\S")


def word_at(text: str, index: int) -> str | None:
    """The word around code point ``index`` (letters, marks, digits, ZWJ/ZWNJ), else the
    run of other non-space characters there (punctuation), else None (whitespace).

    >>> word_at("বাজার রাজশাহী পৌঁছাবে।", 8)
    'রাজশাহী'
    """
    if not 0 <= index < len(text) or text[index].isspace():
        return None
    lo = max(0, index - MAX_WORD_CHARS)
    window = text[lo : index + MAX_WORD_CHARS]  # only the neighbourhood: a chip on a long text stays cheap
    index -= lo
    for m in _WORD.finditer(window):
        if m.start() <= index < m.end():
            return m.group()[:MAX_WORD_CHARS]
    for m in _OTHER.finditer(window):
        if m.start() <= index < m.end():
            return m.group()[:MAX_WORD_CHARS]
    return None  # pragma: no cover - a non-space index is always inside some \S+ run


@lru_cache(maxsize=4)
def word_index(text: str) -> "WordIndex":
    """One index per text, shared by every chip link on it (a page draws many pieces of one text)."""
    return WordIndex(text)


class WordIndex:
    """:func:`word_at` for many positions of one text: the runs are found once, looked up by bisection."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._runs = [(m.start(), m.end()) for m in _WORD.finditer(text)]
        self._starts = [a for a, _ in self._runs]
        self._other = [(m.start(), m.end()) for m in _OTHER.finditer(text)]
        self._other_starts = [a for a, _ in self._other]

    def word_at(self, index: int) -> str | None:
        """Same answer as ``word_at(text, index)``."""
        if not 0 <= index < len(self._text) or self._text[index].isspace():
            return None
        for runs, starts in ((self._runs, self._starts), (self._other, self._other_starts)):
            k = bisect_right(starts, index) - 1
            if k >= 0 and runs[k][0] <= index < runs[k][1]:
                a, b = runs[k]
                return self._text[a:b][:MAX_WORD_CHARS]
        return None  # pragma: no cover - a non-space index is always inside some run
