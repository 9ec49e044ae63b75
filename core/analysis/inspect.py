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
:class:`core.pretrained.adapter.PretrainedTokenizer` objects.
"""
from __future__ import annotations

import unicodedata
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Sequence

import regex

from ..i18n import N_, T_, Translator, localize, translator
from ..i18n import quote as quote_word
from ..pipeline.pattern import PiecePart, atom_re, atoms, regex_pieces
from ..pretrained.adapter import PretrainedTokenizer, TiktokenReplay
from ..text.boundaries import BoundaryReport
from ..text.errors import UserError
from ..text.units import CodePointInfo, Span, char_byte_offsets, codepoint_info, graphemes, utf8_hex
from ..tokens import Encoding
from .pretok_compare import mark_splits

#: Longest text the inspector explains (code points). It is a word inspector.
MAX_WORD_CHARS = 200

#: How many merges / candidates a reason lists as evidence before summarising.
MAX_EVIDENCE = 40


class InspectError(UserError):
    """Text the inspector cannot explain (empty, too long, not valid Unicode)."""


# ---------------------------------------------------------------------------
# Records
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Reason:
    """One sentence of explanation plus the evidence it rests on.

    ``kind`` is a stable tag for tests and styling (``mark-split``,
    ``merge``, ``no-merge``, ``inside-codepoint``...); ``text`` is the
    sentence; ``evidence`` holds short lines (hex, ranks, candidates).
    """

    kind: str
    text: str
    evidence: tuple[str, ...] = ()


@dataclass(frozen=True)
class Layer:
    """One pipeline stage (``normalizer``, ``pre-tokenizer``, ``model``, ``bytes``) and its reasons."""

    name: str
    title: str
    reasons: tuple[Reason, ...]


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


def _cp(ch: str) -> str:
    """``U+09BE BENGALI VOWEL SIGN AA``."""
    return codepoint_info(ch).label()


def _show(data: bytes, *, t: Translator) -> str:
    """A piece for a sentence: its text in ``t``'s quotes if whole UTF-8, else its hex."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return utf8_hex(data)
    return _q(text, t=t)


#: Invisible characters named inside quotes, so a reason never hides what it talks about.
_INVISIBLE = {"\u200c": "‹ZWNJ›", "\u200d": "‹ZWJ›", "\u200b": "‹ZWSP›", "\ufeff": "‹BOM›", "\u200e": "‹LRM›",
              "\u200f": "‹RLM›", "\u00ad": "‹SHY›", "\n": "↵", "\t": "→", "\r": "␍"}


def _q(text: str, *, t: Translator) -> str:
    """``text`` in the quotation marks of ``t``'s language (“…”, Persian «…»), invisible characters named
    (pages put the quoted text in its own bidi island).

    >>> _q("می\u200cرسد", t=translator("en")), _q("رسد", t=translator("fa"))
    ('“می‹ZWNJ›رسد”', '«رسد»')
    """
    return quote_word("".join(_INVISIBLE.get(c, c) for c in text), t.lang)


def _n(x: float, decimals: int | None = None, *, t: Translator) -> str:
    """A number in ``t``'s language format (Western digits unless ``t`` was asked for native ones)."""
    return t.format_number(x, decimals=decimals)


#: Plain names of character kinds (:func:`mark_kind`), translated where a sentence uses them.
_KINDS = (N_("vowel sign"), N_("virama (hasant)"), N_("nukta"), N_("nasal/aspiration sign"), N_("combining mark"),
          N_("letter"), N_("digit"), N_("punctuation mark"), N_("symbol"), N_("space"), N_("control or format character"),
          N_("character"))
#: Script words of Unicode names (:func:`_script`) that a verdict may name.
_SCRIPTS = (N_("Bengali"), N_("Devanagari"), N_("Arabic"), N_("Latin"), N_("Cyrillic"), N_("Tamil"), N_("Thai"))


def mark_kind(ch: str) -> str:
    """Plain name of what a character is, read from its Unicode name and category.

    >>> mark_kind("\\u09be"), mark_kind("\\u09cd"), mark_kind("a")
    ('vowel sign', 'virama (hasant)', 'letter')
    """
    name = unicodedata.name(ch, "")
    cat = unicodedata.category(ch)
    if cat.startswith("M"):
        if "VOWEL SIGN" in name:
            return "vowel sign"
        if "VIRAMA" in name:
            return "virama (hasant)"
        if "NUKTA" in name:
            return "nukta"
        if "CANDRABINDU" in name or "ANUSVARA" in name or "VISARGA" in name:
            return "nasal/aspiration sign"
        return "combining mark"
    return {"L": "letter", "N": "digit", "P": "punctuation mark", "S": "symbol", "Z": "space",
            "C": "control or format character"}.get(cat[0], "character")


#: The Unicode property class named in reasons, by general category's first letter.
_MAJOR_CLASS = {"L": r"\p{L}", "M": r"\p{M}", "N": r"\p{N}", "P": r"\p{P}", "S": r"\p{S}", "Z": r"\p{Z}", "C": r"\p{C}"}


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


# ---------------------------------------------------------------------------
# Pre-tokenizer: which alternative matched, what stopped it
# ---------------------------------------------------------------------------


def _why_stop(piece: PiecePart, nxt: str, t: Translator) -> tuple[str, str] | None:
    """(regex part, sentence tail in ``t``'s language) explaining why ``piece``'s alternative did not take ``nxt``."""
    last = piece.text[-1]
    for at in reversed(atoms(piece.alternative)):
        if not at.repeats or not atom_re(at.atom).fullmatch(last):
            continue
        if not atom_re(at.atom).fullmatch(nxt):
            cat = unicodedata.category(nxt)
            klass = _MAJOR_CLASS.get(cat[0], cat)
            return at.source, t.gettext("{regex} does not match a {kind} ({klass}, category {category})").format(
                regex=at.atom + at.quantifier, kind=t.gettext(mark_kind(nxt)), klass=klass, category=cat)
        if at.quantifier.startswith("{"):
            return at.source, t.gettext("{regex} takes at most {count} in a row").format(
                regex=at.atom + at.quantifier, count=at.quantifier.strip("{}+?").split(",")[-1])
    return None


def pretokenizer_reasons(text: str, pattern: str, *, label: str = "the pre-tokenizer",
                         t: Translator | None = None) -> tuple[list[PiecePart], list[Reason]]:
    """The pieces of ``text`` under split regex ``pattern`` and one reason per cut (sentences in ``t``'s
    language, English by default).

    A cut right before a combining mark (the mark separated from its base)
    has kind ``mark-split``; a cut at whitespace ``space``; any other cut
    ``split``. Text with no cut gets a ``whole`` reason naming the
    alternative that took all of it.
    """
    t = t or translator()
    parts = regex_pieces(text, pattern)
    marks = {m.offset for m in mark_splits(text, [Span(p.text, p.start, p.end) for p in parts])}
    reasons: list[Reason] = []
    if len(parts) == 1 and parts[0].start == 0 and parts[0].end == len(text):
        reasons.append(Reason("whole", t.gettext("{splitter} keeps {text} as one piece: the alternative {alternative} matches "
                                         "all of it.").format(splitter=label, text=_q(text, t=t),
                                                              alternative=parts[0].alternative),
                              (parts[0].alternative,)))
        return parts, reasons
    for prev, cur in zip(parts, parts[1:]):
        at = cur.start
        nxt = text[at]
        evidence = tuple(t.gettext("piece {piece} matched {alternative}").format(piece=_q(p.text, t=t), alternative=p.alternative)
                         for p in (prev, cur))
        if nxt.isspace() or prev.text[-1].isspace():
            reasons.append(Reason("space", t.gettext("{splitter} splits at the space before {text}.").format(
                splitter=label, text=_q(cur.text.strip(), t=t)), evidence))
            continue
        why = _why_stop(prev, nxt, t)
        kind = "mark-split" if at in marks else "split"
        values = {"char": _cp(nxt), "base": _cp(text[at - 1]), "why": why[1] if why else "",
                  "alternative": prev.alternative, "piece": _q(prev.text, t=t)}
        if kind == "mark-split":
            line = (t.gettext("split before {char} from {base} because {why}") if why else
                    t.gettext("split before {char} from {base}: the alternative {alternative} stops after {piece}"))
        else:
            line = (t.gettext("split before {char} because {why}") if why else
                    t.gettext("split before {char}: the alternative {alternative} stops after {piece}"))
        line = line.format(**values)
        if cur.text[0] == nxt and unicodedata.category(nxt).startswith("M") and cur.alternative != prev.alternative:
            line += t.gettext("; the {kind} then starts the next piece {piece} (matched by {alternative})").format(
                kind=t.gettext(mark_kind(nxt)), piece=_q(cur.text, t=t), alternative=cur.alternative)
        reasons.append(Reason(kind, line + t.gettext("."), evidence))
    return parts, reasons


# ---------------------------------------------------------------------------
# Layers per tokenizer family
# ---------------------------------------------------------------------------


def normalizer_layer(tok: PretrainedTokenizer, text: str, t: Translator | None = None) -> Layer:
    """What ``tok``'s own normalizer does to ``text`` (tiktoken and baselines have none), in ``t``'s language
    (English by default)."""
    from ..pipeline.normalize import normalize_with

    t = t or translator()

    info = tok.normalizer()
    if info is None:
        n = len(text.encode("utf-8"))
        line = (t.ngettext("tiktoken runs no normalizer: the model sees the {count} UTF-8 byte of the text as typed.",
                         "tiktoken runs no normalizer: the model sees the {count} UTF-8 bytes of the text as typed.", n)
                if tok.family == "tiktoken" else
                t.ngettext("This tokenizer has no normalizer: the model sees the {count} UTF-8 byte of the text as typed.",
                         "This tokenizer has no normalizer: the model sees the {count} UTF-8 bytes of the text as typed.",
                         n))
        return Layer("normalizer", t.gettext("Normalizer"), (Reason("unchanged", line.format(count=_n(n, t=t))),))
    fn: Callable[[str], str] = info.normalize
    name = localize(info.name, t)
    # Word by word (each distinct word once): fast on a whole file, and whitespace handling is the
    # pre-tokenizer's business (SentencePiece turns spaces into ▁ there).
    words = list(dict.fromkeys(text.split()))
    changed = [w for w in words if fn(w) != w]
    if not changed:
        line = (t.gettext("The {normalizer} leaves {text} unchanged.").format(normalizer=name, text=_q(text, t=t)) if len(words) == 1
                else t.gettext("The {normalizer} leaves all {count} distinct words unchanged.").format(
                    normalizer=name, count=_n(len(words), t=t)))
        return Layer("normalizer", t.gettext("Normalizer"), (Reason("unchanged", line),))
    result = normalize_with(" ".join(changed[:500]), fn, name)
    examples = tuple(f"{_q(w, t=t)} -> {_q(fn(w), t=t)}" for w in changed[:MAX_EVIDENCE])
    head = (t.gettext("The {normalizer} changes {text} to {result}.").format(normalizer=name, text=_q(text, t=t), result=_q(fn(text), t=t))
            if len(words) == 1 else
            t.gettext("The {normalizer} changes {count} of {total} distinct words, e.g. {examples}.").format(
                normalizer=name, count=_n(len(changed), t=t), total=_n(len(words), t=t), examples=", ".join(examples[:3])))
    reasons = [Reason("changed", head, examples)]
    reasons += [Reason(w.kind, localize(w.message, t), w.examples) for w in result.warnings]
    return Layer("normalizer", t.gettext("Normalizer"), tuple(reasons))


def _tiktoken_layers(tok: PretrainedTokenizer, text: str, enc: Encoding, t: Translator) -> list[Layer]:
    from ..models.bpe import tiktoken_rank_of
    from ..pretrained.replay import replay

    source = tok.replay_source()
    assert isinstance(source, TiktokenReplay) and tok.split_pattern is not None  # the tiktoken family has both
    norm = tok.normalizer()
    text = norm.normalize(text) if norm is not None else text  # later stages see the normalized text
    parts, pre = pretokenizer_reasons(text, tok.split_pattern, t=t,
                                      label=t.gettext("{tokenizer}'s split regex").format(tokenizer=tok.id))
    rep = replay(tok, text)
    # the regex above runs with Unicode 17.0; where tiktoken's engine (older tables) cuts otherwise, say so
    pre = list(pre) + [Reason("engine", t.gettext("At {char}: {note}; the merges below follow the model.").format(
                                char=_q(n.char, t=t), note=localize(n.message, t)))
                       for n in rep.notes]
    rank_of = tiktoken_rank_of(source.ranks)
    model: list[Reason] = []
    for p in rep.pieces:
        steps = p.trace.steps
        if p.direct and len(p.trace.initial) > 1 and not steps:
            model.append(Reason("direct", t.gettext("{text} is itself one token (id {id}).").format(text=_q(p.text, t=t),
                                                                                            id=p.final_ids[0])))
        elif steps:
            ev = tuple(t.gettext("rank {rank}: {left} + {right} -> {merged}").format(
                rank=s.rank, left=utf8_hex(s.left), right=utf8_hex(s.right), merged=_show(s.left + s.right, t=t))
                for s in steps)
            ranks = sorted({s.rank for s in steps})
            model.append(Reason(
                "merge",
                t.ngettext("In {text}: {count} merge from the {bytes} bytes (lowest rank {low}, highest {high}) gives "
                         "{pieces}: {list}.",
                         "In {text}: {count} merges from the {bytes} bytes (lowest rank {low}, highest {high}) give "
                         "{pieces}: {list}.", len(steps)).format(
                    text=_q(p.text, t=t), count=_n(len(steps), t=t), bytes=_n(len(p.trace.initial), t=t), low=ranks[0], high=ranks[-1],
                    pieces=t.ngettext("{count} piece", "{count} pieces", len(p.final)).format(count=_n(len(p.final), t=t)),
                    list=" | ".join(_show(b, t=t) for b in p.final)),
                ev[:MAX_EVIDENCE],
            ))
            if p.direct and p.final != p.trace.final:
                model.append(Reason("direct", t.gettext("{text} is in the vocabulary as one token (id {id}), so tiktoken takes "
                                                "it whole.").format(text=_q(p.text, t=t), id=p.final_ids[0])))
        else:
            model.append(Reason("single", t.gettext("{text} is a single byte {hex}: nothing to merge.").format(
                text=_q(p.text, t=t), hex=utf8_hex(p.final[0]))))
        for a, b in zip(p.final, p.final[1:]):
            model.append(Reason("no-merge", t.gettext("No merge for {left_hex} + {right_hex} in this vocabulary (no token "
                                              "{joined_hex}), so {left} and {right} stay apart.").format(
                left_hex=utf8_hex(a), right_hex=utf8_hex(b), joined_hex=utf8_hex(a + b), left=_show(a, t=t), right=_show(b, t=t))))
    for p, q in zip(rep.pieces, rep.pieces[1:]):
        a, b = p.final[-1], q.final[0]
        if rank_of(a, b) is not None and not (p.text[-1:].isspace() or q.text[:1].isspace()):
            model.append(Reason("blocked", t.gettext("{left_hex} + {right_hex} is a token (rank {rank}) but the pre-tokenizer cut "
                                             "between them, and merges never cross a cut.").format(
                left_hex=utf8_hex(a), right_hex=utf8_hex(b), rank=rank_of(a, b))))
    if not rep.matches_library:  # pragma: no cover - replay is checked against tiktoken in the tests
        model.append(Reason("mismatch", t.gettext("The replay differs from the library's own ids; the library's tokens are "
                                          "shown.")))
    return [Layer("pre-tokenizer", t.gettext("Pre-tokenizer (split regex)"), tuple(pre)),
            Layer("model", t.gettext("Model: byte-level BPE merges (replayed in rank order)"), tuple(model))]


def _replayed_merges(tok: PretrainedTokenizer, text: str, t: Translator, *, adjacent: bool = False) -> list[Reason] | None:
    """The merges of a ``tokenizers`` or SentencePiece BPE on ``text``, piece by piece, from the replay engine
    (:func:`core.pretrained.replay.replay`, checked against the library's ids); None when it cannot replay.

    ``tokenizers`` merges the pair lowest in its merge list first; SentencePiece BPE the pair whose joined
    piece has the highest score. Evidence lines give each merge with its rank or score. With ``adjacent``,
    each pair of neighbouring final pieces of a pre-token is said too: BPE stops only when no merge joins any
    neighbours, so none does (told from the replay's bytes, not the vocabulary's byte-alphabet spellings).
    """
    from ..pretrained.replay import ReplayError, replay

    try:
        rep = replay(tok, text)
    except (ReplayError, ValueError):  # not BPE, or text over the replay limit: the other reasons still stand
        return None
    out: list[Reason] = []
    for p in rep.pieces:
        steps = p.trace.steps
        if not steps:
            continue
        merged = [s.left + s.right for s in steps]
        final = " | ".join(_show(b, t=t) for b in p.final)
        parts = t.ngettext("{count} piece", "{count} pieces", len(p.final)).format(count=_n(len(p.final), t=t))
        if p.scores:
            ev = tuple(t.gettext("score {score}: {left} + {right} -> {merged}").format(
                score=_n(sc, 2, t=t), left=_show(st.left, t=t), right=_show(st.right, t=t), merged=_show(m, t=t))
                for st, sc, m in zip(steps, p.scores, merged))
            line = t.ngettext("In {text}: {count} merge from the {start} starting pieces, highest score first, gives "
                            "{pieces}: {list}.",
                            "In {text}: {count} merges from the {start} starting pieces, highest score first, give "
                            "{pieces}: {list}.", len(steps))
        else:
            ev = tuple(t.gettext("rank {rank}: {left} + {right} -> {merged}").format(
                rank=st.rank, left=_show(st.left, t=t), right=_show(st.right, t=t), merged=_show(m, t=t))
                for st, m in zip(steps, merged))
            line = t.ngettext("In {text}: {count} merge from the {start} starting pieces, lowest rank in the merge list "
                            "first, gives {pieces}: {list}.",
                            "In {text}: {count} merges from the {start} starting pieces, lowest rank in the merge list "
                            "first, give {pieces}: {list}.", len(steps))
        out.append(Reason("merge", line.format(text=_q(p.text, t=t), count=_n(len(steps), t=t),
                                               start=_n(len(p.trace.initial), t=t), pieces=parts, list=final),
                          ev[:MAX_EVIDENCE]))
    if adjacent:
        for p in rep.pieces:
            if p.final != p.trace.final:  # finished otherwise (added token, byte fallback): not a merge question
                continue
            for a, b in zip(p.final, p.final[1:]):
                out.append(Reason("no-merge", t.gettext("No merge in the merge list joins {left} and {right}, so they stay "
                                                "apart.").format(left=_show(a, t=t), right=_show(b, t=t))))
    if not rep.matches_library:  # pragma: no cover - replay is checked against each library in the tests
        out.append(Reason("mismatch", t.gettext("The replay differs from the library's own ids; the library's tokens are "
                                        "shown.")))
    return out


def _unigram_reasons(text: str, model, t: Translator) -> list[Reason]:  # noqa: ANN001 - core.models.unigram.UnigramModel
    """Best path and runner-up per word as the model cuts the text (:func:`core.models.unigram.encode_words`)."""
    from ..models.unigram import SPACE, encode_words

    out = []
    for lat in encode_words(text, model, k=2):
        w = lat.word.replace(SPACE, " ").strip(" ") or lat.word
        best = lat.best
        values = {"word": _q(w, t=t), "best": " | ".join(best.pieces), "score": _n(best.score, 2, t=t)}
        if len(lat.top) > 1:
            ru = lat.top[1]
            line = t.gettext("{word}: best path {best} (log-probability {score}); runner-up {runner_up} ({runner_score}, "
                     "{gap} lower).").format(runner_up=" | ".join(ru.pieces), runner_score=_n(ru.score, 2, t=t),
                                             gap=_n(best.score - ru.score, 2, t=t), **values)
        else:
            line = t.gettext("{word}: best path {best} (log-probability {score}); no other segmentation exists.").format(**values)
        evidence = tuple(f"{e.piece} [{e.start},{e.end}) {e.score:.2f}" for e in lat.edges)[:MAX_EVIDENCE]
        out.append(Reason("viterbi", line, evidence))
    return out


@lru_cache(maxsize=8)
def _sp_unigram(tok: PretrainedTokenizer):  # noqa: ANN202 - UnigramModel | None
    """The Unigram model inside a SentencePiece tokenizer, or None for a BPE (or other) model."""
    from ..models.unigram import UnigramError, load_sentencepiece

    proto = tok.model_proto()
    if proto is None:
        return None
    try:
        return load_sentencepiece(proto, source=tok.id)
    except UnigramError:
        return None


def _sentencepiece_layers(tok: PretrainedTokenizer, text: str, enc: Encoding, t: Translator) -> list[Layer]:
    pre = [Reason("metaspace", t.gettext("SentencePiece does not split with a regex: spaces become ▁ (one ▁ is added in "
                                 "front) and the model sees the whole text."))]
    unigram = _sp_unigram(tok)
    if unigram is not None:
        # the model's own normalizer runs inside encode_words
        return [Layer("pre-tokenizer", t.gettext("Pre-tokenizer"), tuple(pre)),
                Layer("model", t.gettext("Model: SentencePiece Unigram (Viterbi over the lattice)"),
                      tuple(_unigram_reasons(enc.text, unigram, t)))]
    model: list[Reason] = list(_replayed_merges(tok, enc.text, t) or [])
    ids = [tk.id for tk in enc.tokens]
    fallback: dict[int, list[int]] = {}
    for k, tid in enumerate(ids):
        if tid is not None and tok.is_byte_piece(tid):
            fallback.setdefault(enc.tokens[k].start, []).append(k)
    for start, ks in fallback.items():
        ch = enc.text[start] if start < len(enc.text) else ""
        model.append(Reason("byte-fallback", t.ngettext(
            "{char} is not in the vocabulary, so it falls back to {count} byte piece {pieces}.",
            "{char} is not in the vocabulary, so it falls back to {count} byte pieces {pieces}.", len(ks)).format(
            char=_cp(ch), count=_n(len(ks), t=t),
            pieces=" ".join(tok.id_to_token(i) or "" for i in (ids[k] for k in ks) if i is not None))))
    pieces = [tok.id_to_token(i) or "" for i in ids if i is not None]
    for a, b in zip(pieces, pieces[1:]):
        if any(i is not None and tok.is_byte_piece(i) for i in (tok.token_to_id(a), tok.token_to_id(b))):
            continue
        if tok.token_to_id(a + b) in (None, tok.unk_id):
            model.append(Reason("no-merge", t.gettext("No piece {joined} in this vocabulary, so {left} and {right} stay "
                                              "apart.").format(joined=_q(a + b, t=t), left=_q(a, t=t), right=_q(b, t=t))))
    if not model:
        model.append(Reason("pieces", t.gettext("Every piece is in the vocabulary: {pieces}.").format(pieces=" | ".join(pieces))))
    return [Layer("pre-tokenizer", t.gettext("Pre-tokenizer"), tuple(pre)),
            Layer("model", t.gettext("Model: SentencePiece BPE merges (replayed, highest score first)"), tuple(model))]


def _hf_layers(tok: PretrainedTokenizer, text: str, enc: Encoding, t: Translator) -> list[Layer]:
    mtype = tok.model_type()
    pre_tok = tok.pre_tokenizer()
    norm = tok.normalizer()
    text = norm.normalize(text) if norm is not None else text  # later stages see the normalized text
    pre: list[Reason] = []
    if pre_tok is None:
        pre.append(Reason("none", t.gettext("No pre-tokenizer: the model sees the whole text.")))
    else:
        spans = pre_tok.split(text)
        pre.append(Reason("pieces", t.ngettext("The {pre_tokenizer} pre-tokenizer makes {count} piece: {pieces}.",
                                             "The {pre_tokenizer} pre-tokenizer makes {count} pieces: {pieces}.",
                                             len(spans)).format(
            pre_tokenizer=pre_tok.name, count=_n(len(spans), t=t), pieces=" | ".join(_q(s, t=t) for s, _o in spans)),
            tuple(t.gettext("{piece} at {offsets}").format(piece=_q(s, t=t), offsets=str(o)) for s, o in spans)))
        cuts = [Span(s, a, b) for s, (a, b) in spans]
        for m in mark_splits(text, cuts):
            pre.append(Reason("mark-split", t.gettext("split before {char} from {base}: the {kind} is cut from its base.").format(
                char=_cp(m.mark), base=_cp(m.base), kind=t.gettext(mark_kind(m.mark)))))
    model: list[Reason] = []
    if mtype == "WordPiece":
        from ..models import wordpiece

        wp_vocab = wordpiece.load_tokenizer_json(tok.tokenizer_json or "", source=tok.id)
        for word, _s, _e in wordpiece.split_words(text):
            tr = wordpiece.encode_word(word, wp_vocab)
            ev = tuple((t.gettext("at {position}: tried {candidates} -> {match}") if st.match else
                        t.gettext("at {position}: tried {candidates} -> no match")).format(
                position=st.position, match=st.match,
                candidates=", ".join(c.piece for c in st.candidates[:8]) + (" …" if len(st.candidates) > 8 else ""))
                for st in tr.steps)
            if tr.unk:
                model.append(Reason("unk", t.gettext("{word}: {reason}.").format(word=_q(word, t=t), reason=localize(tr.reason, t)),
                                    ev[:MAX_EVIDENCE]))
            else:
                model.append(Reason("longest-match", t.gettext("{word}: greedy longest match from the left gives {pieces}.").format(
                    word=_q(word, t=t), pieces=" ".join(tr.pieces)), ev[:MAX_EVIDENCE]))
    elif mtype == "Unigram":
        from ..models import unigram

        model += _unigram_reasons(text, unigram.load_tokenizer_json(tok.tokenizer_json or "", source=tok.id), t)
    else:
        replayed = _replayed_merges(tok, enc.text, t, adjacent=True)
        model += replayed or []
        vocab = tok.vocab()
        pieces = [tok.id_to_token(tk.id) or "" for tk in enc.tokens if tk.id is not None]
        for a, b in zip(pieces, pieces[1:]) if replayed is None else ():
            if a + b not in vocab:
                model.append(Reason("no-merge", t.gettext("No token {joined} in this vocabulary, so {left} and {right} stay "
                                                  "apart.").format(joined=_q(a + b, t=t), left=_q(a, t=t), right=_q(b, t=t))))
        if not model:
            model.append(Reason("pieces", t.gettext("Pieces: {pieces}.").format(pieces=" | ".join(pieces))))
    return [Layer("pre-tokenizer", t.gettext("Pre-tokenizer"), tuple(pre)),
            Layer("model", t.gettext("Model: {algorithm}").format(algorithm=mtype or t.gettext("unknown")), tuple(model))]


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


def _baseline_layers(tok: PretrainedTokenizer, text: str, enc: Encoding, t: Translator) -> list[Layer]:
    return [Layer("model", t.gettext("Model"), (Reason("baseline", t.gettext("{algorithm}: no vocabulary decides the cuts.").format(
        algorithm=t.gettext(tok.entry.algorithm))),))]


#: The pre-tokenizer and model layers of each backend family (:attr:`PretrainedTokenizer.family`).
_FAMILY_LAYERS: dict[str, Callable[[PretrainedTokenizer, str, Encoding, Translator], list[Layer]]] = {
    "tiktoken": _tiktoken_layers, "sentencepiece": _sentencepiece_layers, "tokenizers": _hf_layers,
    "baseline": _baseline_layers,
}


def explain(tok: PretrainedTokenizer, text: str, *, translation: str | None = None, lang: str = "en",
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


def _explain(tok: PretrainedTokenizer, text: str, translation: str | None, t: Translator) -> TokenizerView:
    check_word(text)
    enc = tok.encode(text)
    layers: list[Layer] = [normalizer_layer(tok, text, t)]
    family_layers = _FAMILY_LAYERS.get(tok.family)
    if family_layers is not None:
        layers += family_layers(tok, text, enc, t)
    layers.append(bytes_layer(enc, t))
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
    return TokenizerView(tok.id, tok.name, tok.entry.algorithm, enc, tuple(layers), counts,
                         _verdict(enc, counts, layers, t), view_t, tverdict)


def inspect_word(text: str, tokenizers: Sequence[PretrainedTokenizer], *, translation: str | None = None,
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
