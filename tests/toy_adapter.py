"""A toy backend written the way a new one is added: this one module, nothing else in the code base.

A byte-pair model over characters. Its file (``TOYBPE`` on the first line, then the alphabet on one line, then
one merge per line, ``left<TAB>right``) gives the starting pieces (``<|end|>`` is id 0, ``<unk>`` id 1, then
the alphabet) and the merges in rank order; each merge's result is the next id. A character outside the alphabet
is ``<unk>`` (its bytes are the character's, so spans stay exact, but it decodes to U+FFFD) and merges with
nothing; ``<|end|>`` is made from text only with ``allow_special=True``.

The "library" (:meth:`ToyTokenizer._bpe`) applies the merges one rank after the other over the whole text; the
replay engine here (:func:`replay_toy`) merges the lowest-ranked adjacent pair first, as the real engines do, and
the two must agree (``Replay.matches_library``). Everything a backend may declare is declared below, next to
its loader: the inspector's model layer (:meth:`ToyTokenizer.explain_layers`), the replay and merge trees, the
vocabulary lookups, and an upload format (:func:`core.pretrained.uploads.register_upload`).

In the code base this file would be ``core/pretrained/toy_adapter.py`` (found by the zoo's discovery);
``tests/test_backend_seam.py`` imports it from here and declares its catalog entry.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Sequence

from core.models.bpe import EncodeStep, EncodeTrace
from core.pretrained.adapter import PretrainedTokenizer, check_text, register_loader
from core.pretrained.explain import Layer, Reason, replayed_merges
from core.pretrained.replay import replay_or_none
from core.pretrained.replay.records import MergeNode, PieceReplay, Replay
from core.pretrained.uploads import register_upload
from core.tokens import Encoding

if TYPE_CHECKING:  # pragma: no cover
    from core.i18n import Translator
    from core.pretrained.catalog import ZooEntry

MAGIC = "TOYBPE"
END = "<|end|>"
UNK = "<unk>"


@dataclass(frozen=True)
class ToyModel:
    """The parsed file: pieces by id, and each merge ``(left id, right id) -> rank`` (its result is id
    ``first_merged + rank``)."""

    pieces: tuple[str, ...]
    merges: dict[tuple[int, int], int]
    first_merged: int


class ToyTokenizer(PretrainedTokenizer):
    """Character BPE from a toy merges file."""

    family = "toy"
    replayable = True

    def __init__(self, entry: "ZooEntry", model: ToyModel) -> None:
        self._model = model
        self._ids = {p: i for i, p in enumerate(model.pieces) if i >= 2}
        self.specials = {END: 0}
        self.unk_id = 1
        self.entry = entry if entry.vocab_size else replace(entry, vocab_size=len(model.pieces))

    # -- the library: merges applied rank after rank ----------------------------------------------
    def _symbols(self, text: str) -> list[int]:
        return [self._ids.get(ch, self.unk_id) for ch in text]

    def _bpe(self, text: str) -> list[int]:
        ids = self._symbols(text)
        m = self._model
        for (a, b), rank in sorted(m.merges.items(), key=lambda kv: kv[1]):
            out: list[int] = []
            for tid in ids:
                if out and out[-1] == a and tid == b:
                    out[-1] = m.first_merged + rank
                else:
                    out.append(tid)
            ids = out
        return ids

    def _encode_spans(self, text: str, allow_special: bool) -> tuple[list[int], list[tuple[int, int]], list[bytes]]:
        parts = text.split(END) if allow_special else [text]
        ids: list[int] = []
        spans: list[tuple[int, int]] = []
        data: list[bytes] = []
        at = pos = 0  # byte and code point positions
        for k, part in enumerate(parts):
            if k:
                ids.append(0)
                spans.append((at, at + len(END)))
                data.append(END.encode())
                at += len(END)
                pos += len(END)
            for tid in self._bpe(part):
                piece = text[pos] if tid == self.unk_id else self._model.pieces[tid]
                raw = piece.encode("utf-8")
                ids.append(tid)
                spans.append((at, at + len(raw)))
                data.append(raw)
                at += len(raw)
                pos += len(piece)
        return ids, spans, data

    def encode_ids(self, text: str, *, allow_special: bool = False) -> list[int]:
        check_text(text)
        return self._encode_spans(text, allow_special)[0]

    def token_bytes(self, token_id: int) -> bytes:
        if not 0 <= token_id < len(self._model.pieces):
            raise ValueError(f"token id {token_id} is outside the toy vocabulary")
        return "\ufffd".encode() if token_id == self.unk_id else self._model.pieces[token_id].encode("utf-8")

    def decode_ids(self, ids: Sequence[int]) -> str:
        return "".join(self.token_bytes(i).decode("utf-8") for i in ids)

    # -- vocabulary lookups -------------------------------------------------------------------------
    def model_type(self) -> str:
        return "BPE"

    def replay_source(self) -> ToyModel:
        return self._model

    def vocab(self) -> dict[str, int]:
        return {p: i for i, p in enumerate(self._model.pieces)}

    def id_to_token(self, token_id: int) -> str | None:
        return self._model.pieces[token_id] if 0 <= token_id < len(self._model.pieces) else None

    def token_to_id(self, piece: str) -> int | None:
        return self.vocab().get(piece)

    # -- replay and merge trees ---------------------------------------------------------------------
    def replay(self, text: str) -> Replay:
        return replay_toy(self, text)

    def merge_tree(self, token_id: int) -> MergeNode | None:
        m = self._model
        data = self.token_bytes(token_id)
        made = {m.first_merged + rank: pair for pair, rank in m.merges.items()}
        if token_id not in made:
            return MergeNode(token_id, data)
        left, right = made[token_id]
        return MergeNode(token_id, data, token_id - m.first_merged, self.merge_tree(left), self.merge_tree(right))

    # -- the word inspector -------------------------------------------------------------------------
    def explain_layers(self, text: str, enc: Encoding, t: "Translator") -> list[Layer]:
        """No pre-tokenizer; the model layer from the replay, through the shared merge reasons."""
        reasons = replayed_merges(replay_or_none(self, enc.text), t, adjacent=True) or []
        if not reasons:
            reasons = [Reason("pieces", "Every character is its own piece: no merge applies.")]
        return [Layer("model", "Model: toy BPE (merges replayed, lowest rank first)", tuple(reasons))]


def replay_toy(tok: ToyTokenizer, text: str) -> Replay:
    """The toy's replay engine: the whole text as one piece, the lowest-ranked adjacent pair merged first."""
    m = tok.replay_source()
    ids: list[int] = tok._symbols(text)
    data = [text[k].encode() if tid == tok.unk_id else tok.token_bytes(tid) for k, tid in enumerate(ids)]
    initial = tuple(data)
    steps = []
    while True:
        ranked = [(m.merges[(a, b)], i) for i, (a, b) in enumerate(zip(ids, ids[1:])) if (a, b) in m.merges]
        if not ranked:
            break
        rank, i = min(ranked)
        left, right = data[i], data[i + 1]
        ids[i : i + 2] = [m.first_merged + rank]
        data[i : i + 2] = [left + right]
        steps.append(EncodeStep(rank, (i,), left, right, tuple(data)))
    trace = EncodeTrace(initial, tuple(steps))
    piece = PieceReplay(text, 0, len(text), trace, trace.final, tuple(ids), False)
    return Replay(tok.id, text, (piece,) if text else (), tuple(tok.encode_ids(text)), method="tokenizers")


def parse_toy(data: bytes, where: str) -> ToyModel:
    """The toy file: ``TOYBPE``, the alphabet, then ``left<TAB>right`` merges of known pieces."""
    lines = data.decode("utf-8").split("\n")
    if len(lines) < 2 or lines[0] != MAGIC or not lines[1]:
        raise ValueError(f"{where} is not a toy BPE file ({MAGIC}, then the alphabet, then merges)")
    pieces = [END, UNK, *dict.fromkeys(lines[1])]
    index = {p: i for i, p in enumerate(pieces)}
    first = len(pieces)
    merges: dict[tuple[int, int], int] = {}
    for n, line in enumerate((x for x in lines[2:] if x), 3):
        left, tab, right = line.partition("\t")
        if not tab or left not in index or right not in index or index[left] < 2 or index[right] < 2:
            raise ValueError(f"{where}: line {n} is not a merge of two known pieces")
        merged = left + right
        merges[(index[left], index[right])] = len(pieces) - first
        index.setdefault(merged, len(pieces))
        pieces.append(merged)
    return ToyModel(tuple(pieces), merges, first)


@register_loader("toy")
def load_toy(entry: "ZooEntry", data: bytes | None, where: str) -> ToyTokenizer:
    """Catalog ``loader="toy"`` (and uploads of a toy file)."""
    assert data is not None
    return ToyTokenizer(entry, parse_toy(data, where))


def _is_toy(data: bytes) -> bool:
    return data.startswith(MAGIC.encode() + b"\n")


register_upload("toy", label="toy BPE (user file)", specials="<|end|> only with allow_special", detect=_is_toy,
                priority=5)
