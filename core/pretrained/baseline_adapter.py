"""The baselines (code points, UTF-8 bytes, words) behind the pretrained adapter interface, so the zoo can list them.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ..i18n import T_
from ..models.baselines import ByteTokenizer, CodePointTokenizer, WordTokenizer
from ..tokens import Encoding, Token, TokenTable
from .adapter import PretrainedTokenizer, check_text, register_loader
from .explain import Layer, Reason

if TYPE_CHECKING:  # pragma: no cover
    from ..i18n import Translator
    from .catalog import ZooEntry


class BaselineTokenizer(PretrainedTokenizer):
    """The three baselines of :mod:`core.tokens` behind the same adapter."""

    specials: dict[str, int] = {}
    family = "baseline"
    ids_complete = False  # a unit may have no id (a word; a code point outside a vocabulary)

    def __init__(self, entry: "ZooEntry", inner) -> None:  # noqa: ANN001 - a core.tokens baseline
        self.entry = entry
        self._inner = inner
        self.specials = {}

    @classmethod
    def for_id(cls, entry: "ZooEntry") -> "BaselineTokenizer":
        inner = {"codepoints": CodePointTokenizer, "bytes": ByteTokenizer, "words": WordTokenizer}[entry.id]()
        return cls(entry, inner)

    def encode(self, text: str, *, allow_special: bool = False) -> Encoding:
        check_text(text)
        return self._inner.encode(text)

    def encode_ids(self, text: str, *, allow_special: bool = False) -> list[int]:
        return [t.id for t in self.encode(text).tokens if t.id is not None]

    def count_tokens(self, texts: Sequence[str]) -> int:
        # every unit is a token, also those with no id (code points outside a vocabulary)
        return sum(len(self.encode(t).tokens) for t in texts)

    def _encode_spans(self, text: str, allow_special: bool) -> tuple[list[int], list[tuple[int, int]], list[bytes]]:
        toks = self._inner.encode(text).tokens
        return [-1 if t.id is None else t.id for t in toks], [(t.byte_start, t.byte_end) for t in toks], [t.data for t in toks]

    def decode(self, tokens: Sequence[Token]) -> str:
        return self._inner.decode(tokens)

    def table(self, text: str, *, allow_special: bool = False) -> TokenTable:
        check_text(text)
        return self._inner.table(text)  # the baseline's own columns (vectorised), as the pages always drew them

    def token_bytes(self, token_id: int) -> bytes:
        if self.entry.id == "codepoints":
            return chr(token_id).encode("utf-8", "surrogatepass")
        if self.entry.id == "bytes" and 0 <= token_id < 256:
            return bytes((token_id,))
        raise ValueError(T_("token id {id} is outside the vocabulary of {tokenizer}", id=str(token_id), tokenizer=self.id))

    def decode_ids(self, ids: Sequence[int]) -> str:
        return b"".join(self.token_bytes(i) for i in ids).decode("utf-8", errors="replace")

    def explain_layers(self, text: str, enc: Encoding, t: "Translator") -> list[Layer]:
        """One model layer: the cuts are the unit's (code points, bytes, words), no vocabulary decides them."""
        return [Layer("model", t.gettext("Model"), (Reason("baseline", t.gettext("{algorithm}: no vocabulary decides the cuts.").format(
            algorithm=t.gettext(self.entry.algorithm))),))]


@register_loader("baseline", needs_file=False)
def load_baseline(entry: "ZooEntry", data: bytes | None, where: str) -> BaselineTokenizer:
    """Catalog ``loader="baseline"``: built in, nothing to read (the entry's id picks the baseline)."""
    return BaselineTokenizer.for_id(entry)
