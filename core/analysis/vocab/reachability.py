"""Tokens no text reaches alone (``encode(decode([id])) != [id]``, with the stage to blame) and tokens a reference
corpus never uses."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Iterable, Literal, Sequence

import numpy as np
import regex

from ...i18n import T_, Message
from ...pretrained.adapter import PretrainedTokenizer, TextError
from ...pretrained.memo import per_tokenizer
from ...pretrained.protocols import VocabularyCodec
from ...text.scripts import census_name
from .entry import model_kind, token_scripts
from .script_census import census
from .table import VocabTable, vocab_table

UnreachableReason = Literal["partial", "byte-fallback", "word-internal", "decoder", "normalizer", "pretokenizer",
                            "reserved", "merge", "segmentation", "longest-match"]

#: Why a token's own text does not encode to it. The first three are reachable next to other text (inside a
#: word, next to the bytes that complete a character); the others not even there.
UNREACHABLE_REASONS: dict[str, Message] = {
    "partial": T_("Its bytes are part of a character: decoded alone it is U+FFFD. Text reaches it only next to the "
                  "bytes that complete the character."),
    "byte-fallback": T_("A byte-fallback piece: the character it spells has a token of its own, which wins."),
    "word-internal": T_("A piece for the inside of a word: alone, its text starts a word and gets the word-start "
                        "marker."),
    "decoder": T_("Decoding it alone changes its text (a space dropped or added), so its text encodes otherwise."),
    "normalizer": T_("The normalizer changes its text before the model sees it (case, compatibility forms, spaces)."),
    "pretokenizer": T_("The pre-tokenizer cuts its text into several pieces, and no merge crosses a pre-tokenizer "
                       "cut."),
    "reserved": T_("A reserved or placeholder entry, spelled like a tag ({examples}): kept in the vocabulary for the "
                   "model's own use (later training, images, markup), and no merge builds it from text.",
                   examples="<unused12>, [multimodal]"),
    "merge": T_("Its text is one piece, but the merges in the library's order build other tokens: an earlier merge "
                "shadows the one that makes it."),
    "segmentation": T_("Unigram prefers another segmentation of its text (a higher total score)."),
    "longest-match": T_("WordPiece's longest match from the left takes another piece first."),
}
#: Reasons for tokens that other text around them can still reach.
IN_CONTEXT = frozenset({"partial", "byte-fallback", "word-internal"})
#: A whole token spelled like a tag (``<unused12>``, ``</h1>``, ``[multimodal]``, ``<|reserved_3|>``): a model's
#: reserved or placeholder entry when no merge builds it (counted apart from the tokens an earlier merge shadows).
TAG = regex.compile(r"<\|[^|\s]+\|>|</?[^<>\s|]+>|\[[^\[\]\s]+\]")


@dataclass(frozen=True)
class UnreachableToken:
    """A token whose text, decoded alone and encoded again, is not that token."""

    id: int
    reason: str
    #: What encoding its text gives instead.
    got: tuple[int, ...]
    script: str

    @property
    def in_context(self) -> bool:
        """Other text around it can still produce it (see :data:`IN_CONTEXT`)."""
        return self.reason in IN_CONTEXT


@dataclass(frozen=True)
class UnreachableReport:
    """Every token of a tokenizer that fails ``encode(decode([id])) == [id]``, with the reason for each."""

    tokenizer: str
    checked: int
    tokens: tuple[UnreachableToken, ...]
    seconds: float = field(default=0.0, compare=False)

    @property
    def reserved(self) -> int:
        """How many are reserved or placeholder entries (``<unusedN>``)."""
        return sum(t.reason == "reserved" for t in self.tokens)

    @property
    def strict(self) -> int:
        """How many no text reaches in any context, reserved entries left out."""
        return sum(not t.in_context and t.reason != "reserved" for t in self.tokens)

    def by_reason(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for t in self.tokens:
            out[t.reason] = out.get(t.reason, 0) + 1
        return dict(sorted(out.items(), key=lambda kv: -kv[1]))

    def by_script(self, *, in_context: bool | None = None) -> dict[str, int]:
        out: dict[str, int] = {}
        for t in self.tokens:
            if in_context is None or t.in_context == in_context:
                out[t.script] = out.get(t.script, 0) + 1
        return dict(sorted(out.items(), key=lambda kv: -kv[1]))

    def to_json(self, limit: int | None = None) -> dict[str, Any]:
        toks = self.tokens if limit is None else self.tokens[:limit]
        return {
            "tokenizer": self.tokenizer, "checked": self.checked, "count": len(self.tokens),
            "unreachable": sum(not t.in_context for t in self.tokens),
            "by_reason": self.by_reason(), "by_script": self.by_script(),
            "tokens": [{"id": t.id, "reason": t.reason, "got": list(t.got), "script": t.script} for t in toks],
        }


def _diagnose(tok: PretrainedTokenizer, table: VocabTable, token_id: int, text: str, got: Sequence[int]) -> str:
    """Which stage keeps ``token_id``'s own text from encoding to it."""
    data = table.data[token_id] or b""
    if not table.valid[token_id]:
        return "partial"
    if tok.is_byte_piece(token_id):
        return "byte-fallback"
    if tok.is_continuation(token_id):
        return "word-internal"
    back = b"".join(table.data[i] or b"" for i in got if 0 <= i < table.size)
    if back != data:
        if back.startswith(b" ") and not data.startswith(b" ") and back[1:].startswith(data[:1]):
            return "word-internal"
        if text.encode("utf-8") != data:
            return "decoder"
    norm = tok.normalizer()
    if norm is not None and norm.normalize(text) != text:
        return "normalizer"
    if back != data:
        return "decoder"
    pattern = tok.split_pattern
    if pattern is not None:
        if len([p for p in regex.findall(pattern, text) if p]) > 1:
            return "pretokenizer"
    else:
        pre = tok.pre_tokenizer()
        if pre is not None and len([p for p, _ in pre.split(text) if p]) > 1:
            return "pretokenizer"
    if TAG.fullmatch(text):
        return "reserved"
    kind = model_kind(tok)
    return "segmentation" if kind == "Unigram" else "longest-match" if kind == "WordPiece" else "merge"


def not_from_text(tok: VocabularyCodec, table: VocabTable) -> set[int]:
    """The ids no text is meant to make: control tokens and the unknown token (the pages encode their spelling as
    text). The reachability test and the unused count both leave them out, so both count the same total."""
    unk = getattr(tok, "unk_id", None)
    return set(table.special) | set(getattr(tok, "specials", {}).values()) | ({unk} if unk is not None else set())


def _build_unreachable(tok: PretrainedTokenizer) -> UnreachableReport:
    t0 = time.perf_counter()
    table = vocab_table(tok)
    specials = not_from_text(tok, table)
    encode, decode_ids = tok.encode_ids, tok.decode_ids
    out: list[UnreachableToken] = []
    checked = 0
    for i, d in enumerate(table.data):
        if d is None or i in specials:
            continue
        checked += 1
        text = decode_ids([i])
        try:
            got = encode(text)
        except TextError:
            got = []
        if len(got) == 1 and got[0] == i:
            continue
        reason = _diagnose(tok, table, i, text, got)
        out.append(UnreachableToken(i, reason, tuple(got), census_name(token_scripts(d))))
    return UnreachableReport(tok.id, checked, tuple(out), time.perf_counter() - t0)


def unreachable(tok: PretrainedTokenizer) -> UnreachableReport:
    """The tokens of ``tok`` whose own text does not encode back to them, with reasons (computed once per tokenizer).

    The test is the library's own ``encode(decode([id])) == [id]`` for every token but the control tokens; the
    reason comes from asking each stage in turn (:func:`_diagnose`: bytes, decoder, normalizer, pre-tokenizer,
    model).
    """
    return per_tokenizer(tok, "unreachable", lambda: _build_unreachable(tok))


@dataclass(frozen=True)
class UnusedReport:
    """Tokens a reference corpus never produces."""

    tokenizer: str
    corpus: str
    corpus_tokens: int
    used: int
    unused: tuple[int, ...]
    by_script: dict[str, int]
    #: The tokens counted: every token but those no text is meant to make (:func:`not_from_text`).
    total: int = 0

    def to_json(self, limit: int | None = None) -> dict[str, Any]:
        ids = self.unused if limit is None else self.unused[:limit]
        return {"tokenizer": self.tokenizer, "corpus": self.corpus, "corpus_tokens": self.corpus_tokens,
                "used": self.used, "unused_count": len(self.unused), "unused_by_script": self.by_script,
                "unused": list(ids)}


def unused(tok: VocabularyCodec, texts: Iterable[str], corpus: str) -> UnusedReport:
    """Which tokens of ``tok`` encoding ``texts`` (each on its own) never gives; control tokens left out."""
    table = vocab_table(tok)
    encode = tok.encode_ids
    # every text's ids in one array, counted once (a count array per text would cost the vocabulary size each)
    parts = [np.asarray(encode(text), dtype=np.int64) for text in texts]
    got = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    got = got[(got >= 0) & (got < table.size)]
    counts = np.bincount(got, minlength=table.size)
    counted = table.assigned.copy()
    left_out = [i for i in not_from_text(tok, table) if 0 <= i < table.size]
    if left_out:
        counted[left_out] = False
    never = counted & (counts == 0)
    found = np.flatnonzero(never)
    by_script = census(tok).count_by_script(found)
    return UnusedReport(tok.id, corpus, len(got), int(np.count_nonzero((counts > 0) & counted)), tuple(found.tolist()),
                        by_script, int(np.count_nonzero(counted)))
