"""The tiktoken replay engine (cl100k, o200k, Qwen, Whisper, Tekken...): called by ``tiktoken_adapter`` only.

The text is split with the tokenizer's own pre-tokenizer regex, as tiktoken's regex engine runs it (its
Unicode tables, not Unicode 17.0: see :func:`core.pipeline.pretokenize.engine_split`; every character where the
two differ comes back as a note at its piece); each piece starts as single bytes and
:func:`core.models.bpe.encode_trace` applies tiktoken's loop (merge the leftmost adjacent pair with the lowest
rank, repeat). tiktoken looks a whole piece up in the vocabulary before merging; when the piece is a vocabulary
entry the result is that one token, the trace still shows the merges, and ``direct`` marks the shortcut.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping

from ...i18n import T_
from ...models.bpe import encode_trace, tiktoken_rank_of
from ...pipeline.pretokenize import EngineNote, Pattern, engine_split
from .records import MAX_TREE_DEPTH, MergeNode, PieceReplay, Replay, ReplayError

if TYPE_CHECKING:  # pragma: no cover
    from ..adapter import PretrainedTokenizer

#: How tiktoken orders its merges (the caption under the replay).
ORDER = T_("split pattern first (merges never cross its pieces), then tiktoken's loop: merge the adjacent pair "
           "whose joined bytes have the lowest rank, repeat.")


@dataclass(frozen=True)
class TiktokenReplay:
    """What merge replay needs from a tiktoken tokenizer: the ranks table, the split pattern, and the
    normalization its vendor applies first (Qwen: NFC), or None."""

    ranks: Mapping[bytes, int]
    pattern: str
    normalize: Callable[[str], str] | None = field(default=None, repr=False)


def split_with_notes(tok: "PretrainedTokenizer", text: str) -> tuple[list[tuple[str, int, int]], tuple[EngineNote, ...]]:
    """The pre-tokenizer pieces of ``text`` with code point spans, cut as tiktoken's engine cuts them
    (``tok`` has a :attr:`~core.pretrained.adapter.PretrainedTokenizer.split_pattern`).

    The notes name each character whose Unicode 17.0 properties would cut it otherwise.
    """
    if tok.split_pattern is None:
        raise ReplayError(T_("{id}: no replay engine for {type}", id=tok.id, type=type(tok).__name__))
    split = engine_split(text, Pattern("custom", tok.split_pattern, "", "tiktoken"))
    return [(p.text, p.start, p.end) for p in split.pieces], split.notes


def split_pieces(tok: "PretrainedTokenizer", text: str) -> list[tuple[str, int, int]]:
    """The pre-tokenizer pieces of ``text`` with code point spans (see :func:`split_with_notes`)."""
    return split_with_notes(tok, text)[0]


def replay_tiktoken(tok: "PretrainedTokenizer", source: TiktokenReplay, text: str) -> Replay:
    """Replay ``tok``'s ranks on ``text`` (already checked by :func:`core.pretrained.replay.replay`)."""
    if source.normalize is not None:  # the vendor normalizes first: the merges run on what the model sees
        text = source.normalize(text)
    ranks = source.ranks
    rank_of = tiktoken_rank_of(ranks)
    pieces = []
    spans, notes = split_with_notes(tok, text)
    for piece, start, end in spans:
        trace = encode_trace(piece, rank_of, unit="byte", mode="lowest-rank")
        data = piece.encode("utf-8")
        direct = data in ranks
        final = (data,) if direct else trace.final
        pieces.append(PieceReplay(piece, start, end, trace, final, tuple(ranks[b] for b in final), direct))
    return Replay(tok.id, text, tuple(pieces), tuple(tok.encode_ids(text)), notes, order=ORDER)


def _lowest_rank_parts(data: bytes, ranks: "Mapping[bytes, int] | Any", below: int) -> list[bytes]:
    """tiktoken's loop on ``data`` with only the merges ranked below ``below``: the two parts the last merge joined."""
    parts = [bytes((b,)) for b in data]
    while len(parts) > 1:
        best: tuple[int, int] | None = None
        for i in range(len(parts) - 1):
            r = ranks.get(parts[i] + parts[i + 1])
            if r is not None and r < below and (best is None or r < best[0]):
                best = (r, i)
        if best is None:
            break
        i = best[1]
        parts[i : i + 2] = [parts[i] + parts[i + 1]]
    return parts


def tiktoken_tree(source: TiktokenReplay, data: bytes, depth: int = 0) -> MergeNode:
    """How the token spelled ``data`` is built (the rank of a node is the token's id)."""
    rank = source.ranks.get(data)
    if len(data) <= 1 or rank is None or depth >= MAX_TREE_DEPTH:
        return MergeNode(rank, data)
    parts = _lowest_rank_parts(data, source.ranks, rank)
    if len(parts) != 2:  # a table entry no sequence of earlier merges makes (added by hand to the ranks)
        return MergeNode(rank, data, rank)
    return MergeNode(rank, data, rank, tiktoken_tree(source, parts[0], depth + 1), tiktoken_tree(source, parts[1], depth + 1))
