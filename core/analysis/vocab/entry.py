"""One token described for a reader: bytes, text, scripts, control or not, merge rank and tree, score."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...pretrained.protocols import ReplayVocabulary
from ...pretrained.replay import MergeNode, merge_tree
from ...text.boundaries import is_valid_utf8
from ...text.scripts import partial_scripts, text_scripts
from ...text.units import utf8_hex
from .table import check_id


@dataclass(frozen=True)
class TokenInfo:
    """One vocabulary entry described for a reader."""

    id: int
    data: bytes
    text: str
    #: The piece as the library spells it (``▁the``, ``Ġthe``, ``##ing``, ``<0x41>``); None when it has no spelling.
    piece: str | None
    valid_utf8: bool
    scripts: tuple[str, ...]
    special: bool
    byte_piece: bool
    continuation: bool
    score: float | None
    tree: MergeNode | None
    model: str

    @property
    def hex(self) -> str:
        return utf8_hex(self.data)

    @property
    def merge_rank(self) -> int | None:
        return self.tree.rank if self.tree is not None else None

    def to_json(self) -> dict[str, Any]:
        """The JSON record (``id``, ``bytes`` as hex, ``text``...)."""
        return {
            "id": self.id, "bytes": self.hex, "text": self.text, "piece": self.piece, "valid_utf8": self.valid_utf8,
            "scripts": list(self.scripts), "special": self.special, "byte_piece": self.byte_piece,
            "continuation": self.continuation, "score": self.score, "model": self.model,
            "merge_rank": self.merge_rank, "merge_tree": tree_json(self.tree) if self.tree is not None else None,
        }


def tree_json(node: MergeNode) -> dict[str, Any]:
    """A merge tree as nested JSON: ``{"id", "bytes", "rank", "left", "right"}``."""
    out: dict[str, Any] = {"id": node.id, "bytes": utf8_hex(node.data), "text": node.data.decode("utf-8", "replace")}
    if node.left is not None and node.right is not None:
        out.update(rank=node.rank, left=tree_json(node.left), right=tree_json(node.right))
    return out


def model_kind(tok: ReplayVocabulary) -> str:
    """``BPE``, ``Unigram``, ``WordPiece``, or the catalog's algorithm when the file does not say."""
    kind = tok.model_type()
    if kind:
        return kind
    if tok.replayable:
        return "BPE"
    algorithm = tok.algorithm
    return "Unigram" if "Unigram" in algorithm else algorithm


def token_scripts(data: bytes) -> tuple[str, ...]:
    """The scripts of a token's bytes: of its text when whole UTF-8, else of the characters its bytes start."""
    if is_valid_utf8(data):
        return text_scripts(data.decode("utf-8"))
    return partial_scripts(data)


def lookup(tok: ReplayVocabulary, token_id: int) -> TokenInfo:
    """Token ``token_id`` of ``tok`` described (raises :class:`VocabError` for an id that is not a token).

    >>> from core.pretrained import zoo
    >>> info = lookup(zoo.load("o200k_base"), 10)
    >>> info.hex, info.text, info.scripts
    ('2B', '+', ('Common',))
    """
    check_id(tok, token_id)
    data = tok.token_bytes(token_id)
    special = token_id in tok.special_ids
    return TokenInfo(
        id=token_id, data=data, text=data.decode("utf-8", errors="replace"), piece=tok.id_to_token(token_id),
        valid_utf8=is_valid_utf8(data), scripts=() if special else token_scripts(data), special=special,
        byte_piece=tok.is_byte_piece(token_id), continuation=tok.is_continuation(token_id),
        score=tok.piece_score(token_id), tree=None if special else merge_tree(tok, token_id), model=model_kind(tok),
    )
