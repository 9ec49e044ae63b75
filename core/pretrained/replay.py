"""Merge replay for pretrained byte-level BPE: every merge, in rank order.

The text is split with the tokenizer's own pre-tokenizer regex, as
tiktoken's regex engine runs it (its Unicode tables, not Unicode 17.0: see
:func:`core.pipeline.pretokenize.engine_split`; every character where the two
differ comes back as a note at its piece); each piece
starts as single bytes and :func:`core.models.bpe.encode_trace` applies tiktoken's
loop (merge the leftmost adjacent pair with the lowest rank, repeat),
recording each step. The final ids must equal the library's own encode;
:func:`replay` returns both so callers (tests, the page, the CLI) can check.

tiktoken looks a whole piece up in the vocabulary before merging. When the
piece is a vocabulary entry the result is that one token; the trace still
shows the merges, and ``direct`` marks the shortcut.

This module does not render: pages show the returned steps.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..models.bpe import BpeTrace, EncodeTrace, encode_trace, tiktoken_rank_of
from ..pipeline.pretokenize import EngineNote, Pattern, engine_split, pretokenize
from .adapter import PretrainedTokenizer, check_text
from .tiktoken_adapter import TiktokenTokenizer

#: Replays longer than this many code points are refused (a page would be unreadable anyway).
MAX_REPLAY_CHARS = 300


class ReplayError(ValueError):
    """A tokenizer that cannot be replayed, or text that is too long."""


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


@dataclass(frozen=True)
class ReplayStep:
    """One merge seen on the whole text: the pieces of all pre-tokens after it."""

    piece_index: int
    rank: int
    left: bytes
    right: bytes
    pieces: tuple[bytes, ...]


@dataclass(frozen=True)
class Replay:
    """A text replayed merge by merge, with the library's own ids for comparison."""

    tokenizer: str
    text: str
    pieces: tuple[PieceReplay, ...]
    library_ids: tuple[int, ...]
    #: Characters tiktoken's regex engine classifies differently from Unicode 17.0, at the piece they are in.
    notes: tuple[EngineNote, ...] = ()

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
            for s in p.trace.steps:
                out.append(ReplayStep(k, s.rank, s.left, s.right, before + s.pieces_after + after))
            if p.direct and p.final != p.trace.final:
                out.append(ReplayStep(k, p.final_ids[0], b"", b"", before + p.final + after))
        return out


def split_with_notes(tok: TiktokenTokenizer, text: str) -> tuple[list[tuple[str, int, int]], tuple[EngineNote, ...]]:
    """The pre-tokenizer pieces of ``text`` with code point spans, cut as tiktoken's engine cuts them.

    The notes name each character whose Unicode 17.0 properties would cut it otherwise.
    """
    split = engine_split(text, Pattern("custom", tok.pattern, "", "tiktoken"))
    return [(p.text, p.start, p.end) for p in split.pieces], split.notes


def split_pieces(tok: TiktokenTokenizer, text: str) -> list[tuple[str, int, int]]:
    """The pre-tokenizer pieces of ``text`` with code point spans (see :func:`split_with_notes`)."""
    return split_with_notes(tok, text)[0]


def replay(tok: PretrainedTokenizer, text: str) -> Replay:
    """Replay ``tok``'s merges on ``text`` (plain text: special tokens are not parsed).

    >>> from core.pretrained import zoo
    >>> r = replay(zoo.load("o200k_base"), "রাজশাহী")
    >>> len(r.final_ids), r.matches_library
    (3, True)
    """
    if not isinstance(tok, TiktokenTokenizer):
        raise ReplayError(f"{tok.id} is not a byte-level BPE ranks table; merge replay needs one")
    check_text(text)
    if len(text) > MAX_REPLAY_CHARS:
        raise ReplayError(f"text is {len(text)} code points; replay takes at most {MAX_REPLAY_CHARS}")
    ranks = tok.ranks
    rank_of = tiktoken_rank_of(ranks)
    pieces = []
    spans, notes = split_with_notes(tok, text)
    for piece, start, end in spans:
        trace = encode_trace(piece, rank_of, unit="byte", mode="lowest-rank")
        data = piece.encode("utf-8")
        direct = data in ranks
        final = (data,) if direct else trace.final
        pieces.append(PieceReplay(piece, start, end, trace, final, tuple(ranks[b] for b in final), direct))
    return Replay(tok.id, text, tuple(pieces), tuple(tok.encode_ids(text)), notes)


def replay_trained(trace: BpeTrace, text: str, upto: int | None = None) -> Replay:
    """Replay a BPE trained in the app (its first ``upto`` merges) on ``text``.

    Merges apply in learned order, as in training; a rank is the merge's
    number (0 = first merge). Ids are the trace's vocabulary ids; a piece
    outside the vocabulary (a code point never seen in training) has id -1
    on both sides of the comparison.

    >>> from core.models.bpe import train_bpe
    >>> t = train_bpe({"low": 5, "lower": 2}, merges=2, unit="codepoint")
    >>> replay_trained(t, "lowly").matches_library
    True
    """
    check_text(text)
    if len(text) > MAX_REPLAY_CHARS:
        raise ReplayError(f"text is {len(text)} code points; replay takes at most {MAX_REPLAY_CHARS}")
    limit = len(trace.steps) if upto is None else min(upto, len(trace.steps))
    rank_of = trace.rank_of(limit)
    vocab = trace.vocab
    pieces = []
    for span in pretokenize(text, trace.pattern):
        tr = encode_trace(span.text, rank_of, unit=trace.unit, mode="learned-order")
        ids = tuple(vocab.get(p, -1) for p in tr.final)
        pieces.append(PieceReplay(span.text, span.start, span.end, tr, tr.final, ids, False))
    library = tuple(-1 if i is None else i for i in trace.tokenizer(limit).encode(text).ids)
    return Replay(f"bpe-{trace.unit}-{limit}", text, tuple(pieces), library)
