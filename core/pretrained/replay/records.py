"""The records of a merge replay, shared by every engine: a piece and its merges, a step, a whole replay, a
merge tree node, the error and the limits (the engines keep their parsed tables with
:func:`core.pretrained.memo.per_tokenizer`).

Nothing here knows a backend: each engine (``tiktoken_bpe``, ``hf_bpe``, ``sentencepiece_bpe``, or one a new
adapter brings) fills these records, and pages, the CLI and the inspector read them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from ...i18n import T_, Message
from ...models.bpe import EncodeTrace
from ...pipeline.pretokenize import EngineNote
from ...text.errors import UserError

#: Replays longer than this many code points are refused (a page would be unreadable anyway).
MAX_REPLAY_CHARS = 300

#: Trees deeper than this are cut (a token of a few hundred bytes; the page could not draw more anyway).
MAX_TREE_DEPTH = 64


class ReplayError(UserError):
    """A tokenizer that cannot be replayed, or text that is too long."""


def too_long(text: str) -> ReplayError:
    """The error for a text over :data:`MAX_REPLAY_CHARS`."""
    return ReplayError(T_("text is {count} code points; replay takes at most {limit}", count=len(text),
                          limit=MAX_REPLAY_CHARS))


class _Named(Protocol):
    """What the refusal names: a tokenizer's id and algorithm (any :class:`core.pretrained.protocols.Replayable`)."""

    @property
    def id(self) -> str: ...

    @property
    def algorithm(self) -> str: ...


def not_replayable(tok: _Named) -> ReplayError:
    """The error for a tokenizer that merges no pairs (Unigram, WordPiece, the baselines)."""
    return ReplayError(T_("{id} is not BPE ({algorithm}): it does not merge pairs, so there is nothing to replay",
                          id=tok.id, algorithm=tok.algorithm))


@dataclass(frozen=True)
class PieceReplay:
    """One pre-tokenizer piece (code point span ``start:end``) and its merges."""

    text: str
    start: int
    end: int
    trace: EncodeTrace
    final: tuple[bytes, ...]
    final_ids: tuple[int, ...]
    direct: bool
    #: How ``final`` differs from the last merge when it does: "direct" (whole piece in the vocabulary),
    #: "byte-fallback" (SentencePiece: pieces outside the vocabulary become bytes), "resegment" (unused pieces
    #: split back), "added" (an added token, matched before any merge).
    finish: str = ""
    #: SentencePiece: the score of each merge in ``trace.steps`` (empty for rank-ordered engines).
    scores: tuple[float, ...] = ()


@dataclass(frozen=True)
class ReplayStep:
    """One merge seen on the whole text: the pieces of all pre-tokens after it."""

    piece_index: int
    rank: int
    left: bytes
    right: bytes
    pieces: tuple[bytes, ...]
    #: "merge", or the piece's finish (see :attr:`PieceReplay.finish`) for the step that is not a merge.
    kind: str = "merge"
    #: SentencePiece: the merged piece's score (``rank`` is then its id).
    score: float | None = None


#: The merge order a replay followed (the page names it): tiktoken's (single bytes, lowest rank first),
#: ``tokenizers``' (starting symbols, lowest merge-list rank first), SentencePiece's (highest score first), or a
#: BPE trained here (learned order).
Method = Literal["tiktoken", "tokenizers", "sentencepiece", "trained"]


@dataclass(frozen=True)
class Replay:
    """A text replayed merge by merge, with the library's own ids for comparison."""

    tokenizer: str
    text: str
    pieces: tuple[PieceReplay, ...]
    library_ids: tuple[int, ...]
    #: Characters tiktoken's regex engine classifies differently from Unicode 17.0, at the piece they are in.
    notes: tuple[EngineNote, ...] = ()
    method: Method = "tiktoken"
    #: The engine's merge order in one sentence (the caption under the replay); None when the reader is told
    #: otherwise (a BPE trained here: the page names its learned order).
    order: Message | None = None
    #: What the replay starts from (step 0 of the page): single bytes, or the engine's starting symbols.
    units: Message = T_("single bytes")
    #: True when each merge is chosen by a piece's score (SentencePiece: ``rank`` is then the piece's id).
    scored: bool = False

    @property
    def final_ids(self) -> list[int]:
        return [i for p in self.pieces for i in p.final_ids]

    @property
    def matches_library(self) -> bool:
        return tuple(self.final_ids) == self.library_ids

    def piece_notes(self) -> list[tuple[int, EngineNote]]:
        """Each note with the index of the piece its character is in."""
        out = []
        for note in self.notes:
            k = next((k for k, p in enumerate(self.pieces) if p.start <= note.offset < p.end), -1)
            out.append((k, note))
        return out

    @property
    def initial(self) -> tuple[bytes, ...]:
        return tuple(b for p in self.pieces for b in p.trace.initial)

    def steps(self) -> list[ReplayStep]:
        """Every merge across the text, in order, with the full piece list after it."""
        out: list[ReplayStep] = []
        for k, p in enumerate(self.pieces):
            before = tuple(b for q in self.pieces[:k] for b in q.final)
            after = tuple(b for q in self.pieces[k + 1 :] for b in q.trace.initial)
            for n, s in enumerate(p.trace.steps):
                score = p.scores[n] if n < len(p.scores) else None
                out.append(ReplayStep(k, s.rank, s.left, s.right, before + s.pieces_after + after, score=score))
            if p.final != p.trace.final:
                kind = "direct" if p.direct else (p.finish or "direct")
                rank = p.final_ids[0] if len(p.final_ids) == 1 else -1
                out.append(ReplayStep(k, rank, b"", b"", before + p.final + after, kind=kind))
        return out


@dataclass(frozen=True)
class MergeNode:
    """One token in a merge tree: made by merging ``left`` and ``right`` at ``rank``, or a leaf (a byte, a character,
    a piece no merge makes). ``id`` is None for a leaf that is not itself a vocabulary token."""

    id: int | None
    data: bytes
    rank: int | None = None
    left: "MergeNode | None" = None
    right: "MergeNode | None" = None

    @property
    def leaves(self) -> tuple[bytes, ...]:
        """The bytes of the leaves, left to right (they join to :attr:`data`)."""
        if self.left is None or self.right is None:
            return (self.data,)
        return self.left.leaves + self.right.leaves

    @property
    def merges(self) -> int:
        """How many merges build this token."""
        if self.left is None or self.right is None:
            return 0
        return 1 + self.left.merges + self.right.merges

