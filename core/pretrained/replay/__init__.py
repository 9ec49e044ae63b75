"""Merge replay for BPE: every merge, in the library's own order, checked against the library's ids.

One idea per module: :mod:`.records` (what a replay is: pieces, steps, merge trees, the limits),
:mod:`.entry` (:func:`replay`, :func:`merge_tree`, :func:`offered`: they ask the tokenizer, whose adapter
module picks its engine), :mod:`.trained` (a BPE trained in the app), and one engine per library, each
called by its adapter only: :mod:`.tiktoken_bpe` (also :func:`split_pieces`), :mod:`.hf_bpe`,
:mod:`.sentencepiece_bpe`. Unigram and WordPiece models do not merge pairs: :func:`replay` refuses them
(:func:`offered` says which entries the page lists). Nothing here renders: pages show the returned steps.
"""
from __future__ import annotations

from .entry import merge_tree, offered, replay, replay_or_none
from .records import (
    MAX_REPLAY_CHARS,
    MAX_TREE_DEPTH,
    MergeNode,
    Method,
    PieceReplay,
    Replay,
    ReplayError,
    ReplayStep,
    not_replayable,
)
from .tiktoken_bpe import split_pieces, split_with_notes
from .trained import replay_trained

__all__ = ["MAX_REPLAY_CHARS", "MAX_TREE_DEPTH", "MergeNode", "Method", "PieceReplay", "Replay", "ReplayError",
           "ReplayStep", "merge_tree", "not_replayable", "offered", "replay", "replay_or_none", "replay_trained", "split_pieces",
           "split_with_notes"]
