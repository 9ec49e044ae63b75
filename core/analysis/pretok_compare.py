"""Pre-tokenizers side by side, with every combining mark cut from its base flagged.

The regex patterns come from :mod:`core.pipeline.pretokenize`; ``metaspace`` and
``bert`` are the real ``tokenizers.pre_tokenizers.Metaspace`` and
``BertPreTokenizer``. For each we return the pieces with code point offsets
into the original text and every boundary where a \\p{M} mark (a vowel sign,
virama, nukta, harakat...) is separated from the character before it. A
model can never merge across such a boundary.

This module does not change :mod:`core.pipeline.pretokenize`; it only compares.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Sequence

from ..i18n import N_, T_, Verbatim
from ..pipeline.pretokenize import PATTERNS, EngineNote, engine_split, pretokenize
from ..render import char_label
from ..text.boundaries import JOINERS, mark_cuts
from ..text.errors import UserError
from ..text.native import fence
from ..text.units import Span

#: Pre-tokenizers from the ``tokenizers`` library, shown next to the regex patterns.
LIBRARY_PRETOKENIZERS: dict[str, str] = {
    "metaspace": N_("SentencePiece-style Metaspace: spaces become ▁ and start the next piece; nothing else splits."),
    "bert": N_("BERT: split on whitespace (dropped) and around every punctuation character."),
}

#: The order the page and CLI show them in.
DEFAULT_ORDER: tuple[str, ...] = ("gpt2", "cl100k", "o200k", "llama3", "whitespace", "ws-attached", "metaspace", "bert")

#: Why \p{L} patterns cut words with marks apart and o200k does not (one line for the page; true of any script).
WHY = N_("GPT-2, cl100k and Llama 3 match words with \\p{L}+, but vowel signs, viramas and other combining marks "
         "(Bangla া, Hindi ा, Persian ـُ) are \\p{M} (marks), so the regex stops before every mark and cuts the word "
         "apart; o200k's letter classes include \\p{M}, so the word stays whole.")

#: Longest text compared (longer text is cut, with a notice).
MAX_CHARS = 20000


@dataclass(frozen=True)
class MarkSplit:
    """A piece boundary at ``offset`` that separates mark ``mark`` from the character ``base`` before it."""

    offset: int
    base: str
    mark: str

    @property
    def label(self) -> str:
        # a joiner draws nothing: its short name (‹ZWNJ›) stands in for it
        mark = f"‹{char_label(self.mark)}›" if self.mark in JOINERS else self.mark
        return f"{self.base} | {mark} (U+{ord(self.mark):04X} {unicodedata.name(self.mark, '?')})"


@dataclass(frozen=True)
class PatternPieces:
    """One pre-tokenizer's pieces on the text.

    ``pieces`` hold the text the model sees (for Metaspace with ``▁``) and
    offsets into the original; ``mark_splits`` lists the flagged boundaries.
    """

    name: str
    description: str
    pieces: tuple[Span, ...]
    mark_splits: tuple[MarkSplit, ...]
    #: Where the model's regex engine (older Unicode tables) cuts otherwise than Unicode 17.0 would, and why.
    engine_notes: tuple[EngineNote, ...] = ()


def names() -> list[str]:
    """Every pre-tokenizer name this module knows, in display order."""
    rest = [n for n in list(PATTERNS) + list(LIBRARY_PRETOKENIZERS) if n not in DEFAULT_ORDER and n != "none"]
    return list(DEFAULT_ORDER) + rest


def description(name: str) -> str:
    if name in LIBRARY_PRETOKENIZERS:
        return LIBRARY_PRETOKENIZERS[name]
    if name in PATTERNS:
        return PATTERNS[name].description
    raise UserError(T_("unknown pre-tokenizer {name}; choose one of: {known}", name=repr(name), known=", ".join(names())))


@fence(T_("the tokenizers library's pre-tokenizer"))
def _library(name: str, text: str) -> list[Span]:
    from tokenizers import pre_tokenizers as pt

    pre = pt.Metaspace() if name == "metaspace" else pt.BertPreTokenizer()
    return [Span(piece, s, e) for piece, (s, e) in pre.pre_tokenize_str(text) if e > s or piece]


def pieces(text: str, name: str) -> list[Span]:
    """The pieces one pre-tokenizer makes, with code point offsets into ``text``."""
    return list(pieces_and_notes(text, name)[0])


def pieces_and_notes(text: str, name: str) -> tuple[tuple[Span, ...], tuple[EngineNote, ...]]:
    """The pieces as the model cuts them, and a note at each character its engine cuts otherwise.

    A pattern run by tiktoken (gpt2, cl100k, o200k, llama3) is cut as
    tiktoken's regex engine cuts it: its Unicode tables are older than 17.0.
    """
    if name in LIBRARY_PRETOKENIZERS:
        return tuple(_library(name, text)), ()
    description(name)  # raises a clear error for unknown names
    if PATTERNS[name].engine == "tiktoken":
        split = engine_split(text, name)
        return split.pieces, split.notes
    return tuple(pretokenize(text, name)), ()


def mark_splits(text: str, spans: Sequence[Span]) -> list[MarkSplit]:
    """Boundaries of ``spans`` that fall right before a \\p{M} mark or a joiner (cut from its base)."""
    cuts = [b for s in spans for b in (s.start, s.end)]
    return [MarkSplit(b, text[b - 1], text[b]) for b in mark_cuts(text, cuts)]


def compare(text: str, which: Sequence[str] | None = None) -> tuple[list[PatternPieces], str]:
    """Pieces and flagged mark splits for each pre-tokenizer, plus a notice if the text was cut."""
    notice = ""
    if len(text) > MAX_CHARS:
        # a Message: the page shows it in its reader's language (counts Verbatim: plain Western digits, as always here)
        notice = T_("Only the first {shown} of {total} characters are compared.", shown=Verbatim(MAX_CHARS),
                    total=Verbatim(len(text)))
        text = text[:MAX_CHARS]
    out = []
    for name in which or DEFAULT_ORDER:
        spans, notes = pieces_and_notes(text, name)
        out.append(PatternPieces(name, description(name), spans, tuple(mark_splits(text, spans)), notes))
    return out, notice
