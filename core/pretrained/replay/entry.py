"""The public entry points of merge replay: replay a text, build a token's merge tree, say which entries the
replay page lists. Each asks the tokenizer (:meth:`~core.pretrained.protocols.Replayable.replay`,
:meth:`~core.pretrained.protocols.Replayable.merge_tree`): its adapter module picks its engine.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..adapter import check_text
from ..protocols import Replayable, ReplayVocabulary
from .records import MAX_REPLAY_CHARS, MergeNode, Replay, not_replayable, too_long

if TYPE_CHECKING:  # pragma: no cover
    from ..catalog import ZooEntry


def replay_or_none(tok: Replayable, text: str) -> Replay | None:
    """:func:`replay`, or None when ``tok`` is not a BPE or the text is over the limit (the inspector's other
    reasons still stand then)."""
    try:
        return replay(tok, text)
    except ValueError:  # a ReplayError, or text no tokenizer takes
        return None


def replay(tok: Replayable, text: str) -> Replay:
    """Replay ``tok``'s merges on ``text`` (plain text: special tokens are not parsed).

    >>> from core.pretrained import zoo
    >>> r = replay(zoo.load("o200k_base"), "রাজশাহী")
    >>> len(r.final_ids), r.matches_library
    (3, True)
    """
    if not tok.replayable:
        raise not_replayable(tok)
    check_text(text)
    if len(text) > MAX_REPLAY_CHARS:
        raise too_long(text)
    return tok.replay(text)


def merge_tree(tok: ReplayVocabulary, token_id: int) -> MergeNode | None:
    """How BPE token ``token_id`` is built, merge by merge, down to bytes or characters; None for a model that does
    not merge pairs (Unigram, WordPiece, the baselines) or an id that is not a token.

    The rank of a node is its merge's place in the library's order: the tiktoken rank (the token's id), the
    ``tokenizers`` merge-list index, or, for SentencePiece (merged by score), the piece's id.

    >>> from core.pretrained import zoo
    >>> o200k = zoo.load("o200k_base")
    >>> t = merge_tree(o200k, o200k.encode_ids("hello")[0])
    >>> t.data, t.leaves, t.merges
    (b'hello', (b'h', b'e', b'l', b'l', b'o'), 4)
    """
    if not tok.replayable or not tok.has_token(token_id) or token_id in tok.special_ids:
        return None
    return tok.merge_tree(token_id)


def offered(entry: "ZooEntry") -> bool:
    """Whether the replay page lists a catalog entry: a BPE of any of the three engines (read from the catalog,
    without loading; ``tests/test_replay_shelf.py`` checks it against each loaded model's own type)."""
    return not entry.built_in and "BPE" in entry.algorithm
