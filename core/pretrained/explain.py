"""The inspector's records and the layer helpers every backend shares: why a text is cut as it is.

:class:`Reason` (one sentence and its evidence) and :class:`Layer` (one pipeline stage) are what each adapter's
:meth:`~core.pretrained.adapter.PretrainedTokenizer.explain_layers` returns and what
:mod:`core.analysis.inspect` puts around them (the normalizer and bytes layers, the verdict). The helpers here
are those more than one backend uses: the normalizer layer, the split-regex reasons (which alternative matched,
what stopped it), the replayed merges of a BPE, the Unigram best paths, and the way a sentence quotes a piece.

Nothing here names a backend: what differs per backend is in its adapter module.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Protocol

from ..i18n import N_, Translator, localize, translator
from ..i18n import quote as quote_word
from ..models.unigram import SPACE, encode_words
from ..pipeline.pattern import PiecePart, atom_re, atoms, regex_pieces
from ..text.boundaries import mark_cuts
from ..text.units import codepoint_info, utf8_hex

if TYPE_CHECKING:  # pragma: no cover
    from ..models.unigram import UnigramModel
    from .replay.records import Replay

#: How many merges / candidates a reason lists as evidence before summarising.
MAX_EVIDENCE = 40


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


def cp(ch: str) -> str:
    """``U+09BE BENGALI VOWEL SIGN AA``."""
    return codepoint_info(ch).label()


def show(data: bytes, *, t: Translator) -> str:
    """A piece for a sentence: its text in ``t``'s quotes if whole UTF-8, else its hex."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return utf8_hex(data)
    return q(text, t=t)


#: Invisible characters named inside quotes, so a reason never hides what it talks about.
_INVISIBLE = {"\u200c": "‹ZWNJ›", "\u200d": "‹ZWJ›", "\u200b": "‹ZWSP›", "\ufeff": "‹BOM›", "\u200e": "‹LRM›",
              "\u200f": "‹RLM›", "\u00ad": "‹SHY›", "\n": "↵", "\t": "→", "\r": "␍"}


def q(text: str, *, t: Translator) -> str:
    """``text`` in the quotation marks of ``t``'s language (“…”, Persian «…»), invisible characters named
    (pages put the quoted text in its own bidi island).

    >>> q("می\u200cرسد", t=translator("en")), q("رسد", t=translator("fa"))
    ('“می‹ZWNJ›رسد”', '«رسد»')
    """
    return quote_word("".join(_INVISIBLE.get(c, c) for c in text), t.lang)


def num(x: float, decimals: int | None = None, *, t: Translator) -> str:
    """A number in ``t``'s language format (Western digits unless ``t`` was asked for native ones)."""
    return t.format_number(x, decimals=decimals)


#: Plain names of character kinds (:func:`mark_kind`), translated where a sentence uses them.
_KINDS = (N_("vowel sign"), N_("virama (hasant)"), N_("nukta"), N_("nasal/aspiration sign"), N_("combining mark"),
          N_("letter"), N_("digit"), N_("punctuation mark"), N_("symbol"), N_("space"), N_("control or format character"),
          N_("character"))
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
    marks = set(mark_cuts(text, [b for p in parts for b in (p.start, p.end)]))
    reasons: list[Reason] = []
    if len(parts) == 1 and parts[0].start == 0 and parts[0].end == len(text):
        reasons.append(Reason("whole", t.gettext("{splitter} keeps {text} as one piece: the alternative {alternative} matches "
                                         "all of it.").format(splitter=label, text=q(text, t=t),
                                                              alternative=parts[0].alternative),
                              (parts[0].alternative,)))
        return parts, reasons
    for prev, cur in zip(parts, parts[1:]):
        at = cur.start
        nxt = text[at]
        evidence = tuple(t.gettext("piece {piece} matched {alternative}").format(piece=q(p.text, t=t), alternative=p.alternative)
                         for p in (prev, cur))
        if nxt.isspace() or prev.text[-1].isspace():
            reasons.append(Reason("space", t.gettext("{splitter} splits at the space before {text}.").format(
                splitter=label, text=q(cur.text.strip(), t=t)), evidence))
            continue
        why = _why_stop(prev, nxt, t)
        kind = "mark-split" if at in marks else "split"
        values = {"char": cp(nxt), "base": cp(text[at - 1]), "why": why[1] if why else "",
                  "alternative": prev.alternative, "piece": q(prev.text, t=t)}
        if kind == "mark-split":
            line = (t.gettext("split before {char} from {base} because {why}") if why else
                    t.gettext("split before {char} from {base}: the alternative {alternative} stops after {piece}"))
        else:
            line = (t.gettext("split before {char} because {why}") if why else
                    t.gettext("split before {char}: the alternative {alternative} stops after {piece}"))
        line = line.format(**values)
        if cur.text[0] == nxt and unicodedata.category(nxt).startswith("M") and cur.alternative != prev.alternative:
            line += t.gettext("; the {kind} then starts the next piece {piece} (matched by {alternative})").format(
                kind=t.gettext(mark_kind(nxt)), piece=q(cur.text, t=t), alternative=cur.alternative)
        reasons.append(Reason(kind, line + t.gettext("."), evidence))
    return parts, reasons


class NormalizerLike(Protocol):
    """A tokenizer's own normalizer (:class:`core.pretrained.adapter.NormalizerInfo`): its name and function."""

    @property
    def name(self) -> object: ...

    @property
    def normalize(self) -> Callable[[str], str]: ...


class HasNormalizer(Protocol):
    """What :func:`normalizer_layer` asks of a tokenizer."""

    def normalizer(self) -> NormalizerLike | None: ...


def unchanged_layer(line: str, t: Translator) -> Layer:
    """The normalizer layer of a tokenizer that runs none: one ``unchanged`` reason saying so."""
    return Layer("normalizer", t.gettext("Normalizer"), (Reason("unchanged", line),))


def normalizer_layer(tok: "HasNormalizer", text: str, t: Translator | None = None) -> Layer:
    """What ``tok``'s own normalizer does to ``text`` (the default of
    :meth:`core.pretrained.adapter.PretrainedTokenizer.explain_normalizer`), in ``t``'s language (English by
    default)."""
    from ..pipeline.normalize import normalize_with

    t = t or translator()

    info = tok.normalizer()
    if info is None:
        n = len(text.encode("utf-8"))
        line = t.ngettext("This tokenizer has no normalizer: the model sees the {count} UTF-8 byte of the text as typed.",
                          "This tokenizer has no normalizer: the model sees the {count} UTF-8 bytes of the text as typed.",
                          n)
        return unchanged_layer(line.format(count=num(n, t=t)), t)
    fn: Callable[[str], str] = info.normalize
    name = localize(info.name, t)
    # Word by word (each distinct word once): fast on a whole file, and whitespace handling is the
    # pre-tokenizer's business (SentencePiece turns spaces into ▁ there).
    words = list(dict.fromkeys(text.split()))
    changed = [w for w in words if fn(w) != w]
    if not changed:
        line = (t.gettext("The {normalizer} leaves {text} unchanged.").format(normalizer=name, text=q(text, t=t)) if len(words) == 1
                else t.gettext("The {normalizer} leaves all {count} distinct words unchanged.").format(
                    normalizer=name, count=num(len(words), t=t)))
        return Layer("normalizer", t.gettext("Normalizer"), (Reason("unchanged", line),))
    result = normalize_with(" ".join(changed[:500]), fn, name)
    examples = tuple(f"{q(w, t=t)} -> {q(fn(w), t=t)}" for w in changed[:MAX_EVIDENCE])
    head = (t.gettext("The {normalizer} changes {text} to {result}.").format(normalizer=name, text=q(text, t=t), result=q(fn(text), t=t))
            if len(words) == 1 else
            t.gettext("The {normalizer} changes {count} of {total} distinct words, e.g. {examples}.").format(
                normalizer=name, count=num(len(changed), t=t), total=num(len(words), t=t), examples=", ".join(examples[:3])))
    reasons = [Reason("changed", head, examples)]
    reasons += [Reason(w.kind, localize(w.message, t), w.examples) for w in result.warnings]
    return Layer("normalizer", t.gettext("Normalizer"), tuple(reasons))


def replayed_merges(rep: "Replay | None", t: Translator, *, adjacent: bool = False) -> list[Reason] | None:
    """The merges of a ``tokenizers`` or SentencePiece BPE, piece by piece, from a replay
    (:func:`core.pretrained.replay.replay_or_none`, checked against the library's ids); None without one.

    ``tokenizers`` merges the pair lowest in its merge list first; SentencePiece BPE the pair whose joined
    piece has the highest score. Evidence lines give each merge with its rank or score. With ``adjacent``,
    each pair of neighbouring final pieces of a pre-token is said too: BPE stops only when no merge joins any
    neighbours, so none does (told from the replay's bytes, not the vocabulary's byte-alphabet spellings).
    """
    if rep is None:
        return None
    out: list[Reason] = []
    for p in rep.pieces:
        steps = p.trace.steps
        if not steps:
            continue
        merged = [s.left + s.right for s in steps]
        final = " | ".join(show(b, t=t) for b in p.final)
        parts = t.ngettext("{count} piece", "{count} pieces", len(p.final)).format(count=num(len(p.final), t=t))
        if p.scores:
            ev = tuple(t.gettext("score {score}: {left} + {right} -> {merged}").format(
                score=num(sc, 2, t=t), left=show(st.left, t=t), right=show(st.right, t=t), merged=show(m, t=t))
                for st, sc, m in zip(steps, p.scores, merged))
            line = t.ngettext("In {text}: {count} merge from the {start} starting pieces, highest score first, gives "
                            "{pieces}: {list}.",
                            "In {text}: {count} merges from the {start} starting pieces, highest score first, give "
                            "{pieces}: {list}.", len(steps))
        else:
            ev = tuple(t.gettext("rank {rank}: {left} + {right} -> {merged}").format(
                rank=st.rank, left=show(st.left, t=t), right=show(st.right, t=t), merged=show(m, t=t))
                for st, m in zip(steps, merged))
            line = t.ngettext("In {text}: {count} merge from the {start} starting pieces, lowest rank in the merge list "
                            "first, gives {pieces}: {list}.",
                            "In {text}: {count} merges from the {start} starting pieces, lowest rank in the merge list "
                            "first, give {pieces}: {list}.", len(steps))
        out.append(Reason("merge", line.format(text=q(p.text, t=t), count=num(len(steps), t=t),
                                               start=num(len(p.trace.initial), t=t), pieces=parts, list=final),
                          ev[:MAX_EVIDENCE]))
    if adjacent:
        for p in rep.pieces:
            if p.final != p.trace.final:  # finished otherwise (added token, byte fallback): not a merge question
                continue
            for a, b in zip(p.final, p.final[1:]):
                out.append(Reason("no-merge", t.gettext("No merge in the merge list joins {left} and {right}, so they stay "
                                                "apart.").format(left=show(a, t=t), right=show(b, t=t))))
    if not rep.matches_library:  # pragma: no cover - replay is checked against each library in the tests
        out.append(Reason("mismatch", t.gettext("The replay differs from the library's own ids; the library's tokens are "
                                        "shown.")))
    return out


def unigram_reasons(text: str, model: "UnigramModel", t: Translator) -> list[Reason]:
    """Best path and runner-up per word as the model cuts the text (:func:`core.models.unigram.encode_words`)."""

    out = []
    for lat in encode_words(text, model, k=2):
        w = lat.word.replace(SPACE, " ").strip(" ") or lat.word
        best = lat.best
        values = {"word": q(w, t=t), "best": " | ".join(best.pieces), "score": num(best.score, 2, t=t)}
        if len(lat.top) > 1:
            ru = lat.top[1]
            line = t.gettext("{word}: best path {best} (log-probability {score}); runner-up {runner_up} ({runner_score}, "
                     "{gap} lower).").format(runner_up=" | ".join(ru.pieces), runner_score=num(ru.score, 2, t=t),
                                             gap=num(best.score - ru.score, 2, t=t), **values)
        else:
            line = t.gettext("{word}: best path {best} (log-probability {score}); no other segmentation exists.").format(**values)
        evidence = tuple(f"{e.piece} [{e.start},{e.end}) {e.score:.2f}" for e in lat.edges)[:MAX_EVIDENCE]
        out.append(Reason("viterbi", line, evidence))
    return out


