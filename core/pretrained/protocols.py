"""The capabilities an analysis asks of a tokenizer, one small protocol each: :class:`Vocabulary`,
:class:`Explainable`, :class:`Replayable` (and the intersections the analyses need).

:class:`core.tokens.Tokenizer` and :class:`core.tokens.IdCodec` are what every tokenizer kind answers (encode,
ids, columns). The questions here are about a tokenizer's own tables and stages; their records
(:class:`~core.pretrained.explain.Layer`, :class:`~core.pretrained.replay.records.Replay`,
:class:`~core.pretrained.replay.records.MergeNode`) live in this package, so the protocols do too.
:class:`core.pretrained.adapter.PretrainedTokenizer` answers all of them with its defaults (a backend without a
piece table, without merges, with nothing to explain beyond its normalizer), and mypy checks that at the end
of this module. An analysis is typed against the smallest of them it reads, so a tokenizer kind that is not a
zoo adapter can be handed to it by implementing that protocol alone.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, Sequence, runtime_checkable

from ..tokens import Encoding, IdCodec, Tokenizer

if TYPE_CHECKING:  # pragma: no cover
    from ..i18n import Translator
    from .explain import Layer
    from .replay.records import MergeNode, Replay

__all__ = ["Explainable", "Pieces", "ReplayVocabulary", "Replayable", "Vocabulary", "VocabularyCodec"]


class Vocabulary(Protocol):
    """A tokenizer's vocabulary: its pieces, their bytes and flags (the vocabulary views and ``vocab`` CLI)."""

    @property
    def id(self) -> str: ...

    @property
    def vocab_size(self) -> int: ...

    @property
    def special_ids(self) -> frozenset[int]: ...

    @property
    def algorithm(self) -> str:
        """The model's algorithm as the catalog names it (``BPE (byte-level)``, ``Unigram``...)."""
        ...

    def model_type(self) -> str | None:
        """The model's kind as its file names it (``BPE``, ``WordPiece``, ``Unigram``), None when not said."""
        ...

    def vocab(self) -> dict[str, int]:
        """Every piece as the library spells it -> id (empty without a piece table)."""
        ...

    def id_to_token(self, token_id: int) -> str | None: ...

    def token_to_id(self, piece: str) -> int | None: ...

    def has_token(self, token_id: int) -> bool:
        """Whether ``token_id`` names a token (ids below :attr:`vocab_size` can be holes)."""
        ...

    def token_bytes(self, token_id: int) -> bytes:
        """The exact bytes of one token (``ValueError`` for an id that names none)."""
        ...

    def is_byte_piece(self, token_id: int) -> bool: ...

    def is_continuation(self, token_id: int) -> bool: ...

    def piece_score(self, token_id: int) -> float | None: ...

    def decode_checked(self, ids: Sequence[int]) -> str | None:
        """Text from ``ids`` in one call that checks every id (``ValueError``), None when the library cannot tell."""
        ...


class VocabularyCodec(Vocabulary, IdCodec, Protocol):
    """A vocabulary that also encodes and decodes ids (decoding an id list, its round trip)."""


class Replayable(Protocol):
    """A tokenizer whose merges can be replayed (the replay page, merge trees, the inspector's model layer)."""

    @property
    def id(self) -> str: ...

    @property
    def algorithm(self) -> str: ...

    @property
    def replayable(self) -> bool:
        """True when :meth:`replay` can replay merges (a BPE whose adapter brings a replay engine)."""
        ...

    def replay(self, text: str) -> Replay:
        """``text`` replayed merge by merge (checked text: :func:`core.pretrained.replay.replay` calls it)."""
        ...

    def merge_tree(self, token_id: int) -> MergeNode | None:
        """How an ordinary token is built merge by merge; None for a backend without merges."""
        ...


class ReplayVocabulary(Vocabulary, Replayable, Protocol):
    """A vocabulary whose tokens may have merge trees (one token looked up, its model's kind)."""


class Explainable(Tokenizer, Protocol):
    """A tokenizer the word inspector explains layer by layer (its sentences in the translator's language)."""

    @property
    def algorithm(self) -> str: ...

    def explain_normalizer(self, text: str, t: Translator) -> Layer:
        """The normalizer layer: what the tokenizer's own normalizer does to ``text``."""
        ...

    def explain_layers(self, text: str, enc: Encoding, t: Translator) -> list[Layer]:
        """The pre-tokenizer and model layers for ``text`` (encoded as ``enc``); empty when there are none."""
        ...


@runtime_checkable
class Pieces(Protocol):
    """A tokenizer that can say what its own normalizer and pre-tokenizer make of a text, and spell it again
    from its vocabulary (the pre-tokenizer floor and the optimal token count of :mod:`core.analysis.measures`).
    Only the adapters of backends whose stages we can run alone implement it."""

    #: False when the backend normalizes but does not split: :meth:`pre_pieces` is then the whole text.
    pre_splits: bool
    #: True when the pieces of a text are the pieces of its parts cut before each space that follows a letter,
    #: number or visible ASCII character (:func:`core.pipeline.pretokenize.word_parts`): no piece lies across
    #: such a cut, so each distinct part is cut once (a whole file's lines share their words).
    pieces_cut_at_words: bool

    def pre_pieces(self, text: str) -> list[bytes] | None:
        """The pieces of ``text`` after the backend's normalizer and pre-tokenizer, each as the bytes its tokens
        spell (:meth:`Vocabulary.token_bytes`): the model encodes each piece alone. None when it cannot say."""
        ...

    def spelling_vocab(self) -> list[bytes | None]:
        """The bytes of every id (largest id + 1 entries), None for a control, unknown or unused id."""
        ...


if TYPE_CHECKING:  # pragma: no cover - mypy checks that the adapter base answers every protocol here
    from .adapter import PretrainedTokenizer

    _vocabulary: type[Vocabulary] = PretrainedTokenizer
    _codec: type[VocabularyCodec] = PretrainedTokenizer
    _replayable: type[Replayable] = PretrainedTokenizer
    _replay_vocabulary: type[ReplayVocabulary] = PretrainedTokenizer
    _explainable: type[Explainable] = PretrainedTokenizer
