"""Replay of a BPE trained in the app (the Train and Replay pages): merges in learned order."""
from __future__ import annotations

from ...models.bpe import BpeTrace, encode_trace
from ...pipeline.pretokenize import pretokenize
from ..adapter import check_text
from .records import MAX_REPLAY_CHARS, PieceReplay, Replay, too_long


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
        raise too_long(text)
    limit = len(trace.steps) if upto is None else min(upto, len(trace.steps))
    rank_of = trace.rank_of(limit)
    vocab = trace.vocab
    pieces = []
    for span in pretokenize(text, trace.pattern):
        tr = encode_trace(span.text, rank_of, unit=trace.unit, mode="learned-order")
        ids = tuple(vocab.get(p, -1) for p in tr.final)
        pieces.append(PieceReplay(span.text, span.start, span.end, tr, tr.final, ids, False))
    library = tuple(-1 if i is None else i for i in trace.tokenizer(limit).encode(text).ids)
    return Replay(f"bpe-{trace.unit}-{limit}", text, tuple(pieces), library, method="trained")
