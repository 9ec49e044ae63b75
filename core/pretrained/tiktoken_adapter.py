"""The tiktoken backend: byte-level BPE run by the real ``tiktoken`` engine (cl100k, o200k, Llama 3/4, Tekken, user ``.tiktoken``).
"""
from __future__ import annotations

import base64
import binascii
import re
from dataclasses import replace
from functools import cached_property, lru_cache
from itertools import accumulate
from typing import TYPE_CHECKING, Sequence, cast

import numpy as np

from ..i18n import T_, localize, message_of
from ..models.bpe import tiktoken_rank_of
from ..pipeline.pretokenize import LOCAL_PATTERNS, MAX_WORD_PARTS_LINE, engine_pieces
from ..text import limits
from ..text.boundaries import is_valid_utf8
from ..text.nfc import nfc, nfc_map
from ..text.units import utf8_hex
from ..tokens import Encoding, SpecialProbe, TokenTable, build_table
from .adapter import NormalizerInfo, PretrainedTokenizer, check_text, register_loader
from .catalog import QWEN_PAT, SPECIAL_NOTE, TEKKEN_SPECIALS, TIKTOKEN_PATTERNS, ZooError, llama3_specials
from .explain import MAX_EVIDENCE, Layer, Reason, pretokenizer_reasons, unchanged_layer
from .explain import num as _n
from .explain import q as _q
from .explain import show as _show
from .library import LibraryObject, register_library_view
from .locate import llama4_specials
from .replay.records import MergeNode, Replay
from .replay.tiktoken_bpe import TiktokenReplay, replay_tiktoken, tiktoken_tree
from .uploads import register_upload

if TYPE_CHECKING:  # pragma: no cover
    from ..i18n import Translator
    from .catalog import ZooEntry


@lru_cache(maxsize=1)
def _space_codes() -> np.ndarray:
    """Every code point Python's ``str.isspace`` calls whitespace (what llama-models tests), sorted."""
    # subtle: the standard library's ``\s`` on a str pattern is exactly ``str.isspace`` (both ask
    # Py_UNICODE_ISSPACE), and one findall over every character is far quicker than 1.1M method calls
    every = "".join(map(chr, range(0x110000)))
    return np.array(sorted(map(ord, re.findall(r"\s", every))), dtype=np.uint32)


def long_runs(text: str, max_run: int) -> list[tuple[int, int]]:
    """``(start, end)`` of every run of whitespace or of non-whitespace longer than ``max_run`` code points.

    One vectorized pass over the code points (the runs of an ordinary text are words and single spaces:
    none is long, and a regex match per run cost as much as tiktoken's own encode).

    >>> long_runs("ab" + " " * 5 + "c", 4)
    [(2, 7)]
    """
    if len(text) <= max_run:
        return []
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    space = np.isin(codes, _space_codes())
    edges = np.flatnonzero(space[1:] != space[:-1]) + 1
    starts = np.concatenate(([0], edges))
    ends = np.concatenate((edges, [len(codes)]))
    long = np.flatnonzero(ends - starts > max_run)
    return list(zip(starts[long].tolist(), ends[long].tolist()))


def run_chunks(text: str, max_run: int, max_chunk: int) -> list[str]:
    """``text`` cut as llama-models cuts it before calling tiktoken (so our ids are its ids).

    First into chunks of ``max_chunk`` code points; then, inside each chunk,
    a run of whitespace (``str.isspace``) or of non-whitespace longer than
    ``max_run`` is cut every ``max_run`` code points from the run's start.
    Joining the chunks gives ``text`` back.

    >>> [len(c) for c in run_chunks(" " * 7, 3, 100)]
    [3, 3, 1]
    """
    out: list[str] = []
    for base in range(0, len(text), max_chunk):
        chunk = text[base : base + max_chunk]
        cut = 0  # start of the piece being built
        for start, end in long_runs(chunk, max_run):
            for at in range(start + max_run, end, max_run):  # cut the run every max_run code points from its start
                out.append(chunk[cut:at])
                cut = at
        out.append(chunk[cut:])
    return out or [""]


def tiktoken_probes(enc) -> list[SpecialProbe]:  # noqa: ANN001 - tiktoken.Encoding
    """The three ways ``tiktoken`` can encode user text: ``encode`` refuses special-token text by default;
    ``allowed_special="all"`` is what an unsafe app does; ``encode_ordinary`` never makes control ids."""
    specials = {enc.encode_single_token(s): s for s in enc.special_tokens_set}

    def pairs(ids: list[int]) -> list[tuple[int, str | None]]:
        return [(i, None) for i in ids]  # tiktoken has no unknown token: a special id came from its spelling

    return [
        SpecialProbe("library default (encode)", lambda text: pairs(enc.encode(text)), specials),
        SpecialProbe('allowed_special="all"', lambda text: pairs(enc.encode(text, allowed_special="all")), specials),
        SpecialProbe("encode_ordinary", lambda text: pairs(enc.encode_ordinary(text)), specials),
    ]


@register_library_view
def tiktoken_object(obj: object) -> LibraryObject | None:
    """A bare ``tiktoken.Encoding``: its name and the library's three modes."""
    import tiktoken  # a pinned dependency

    if not isinstance(obj, tiktoken.Encoding):
        return None
    return LibraryObject(obj.name, lambda: tiktoken_probes(obj))


class TiktokenTokenizer(PretrainedTokenizer):
    """Byte-level BPE run by the real ``tiktoken`` engine.

    tiktoken is lossless: the tokens' bytes joined are exactly the input's
    UTF-8, so byte spans are running sums of token lengths. When the entry
    declares ``max_run`` (Llama 3 and 4), text is first cut as its library
    cuts it (:func:`run_chunks`), each chunk encoded alone.
    """

    replayable = True
    family = "tiktoken"

    def __init__(self, entry: "ZooEntry", ranks: dict[bytes, int], pattern: str, specials: dict[str, int]) -> None:
        import tiktoken

        self.entry = entry
        self.ranks = ranks
        self.pattern = pattern
        self.specials = dict(specials)
        try:
            self._enc = tiktoken.Encoding(entry.id, pat_str=pattern, mergeable_ranks=ranks, special_tokens=self.specials)
        except Exception as exc:  # noqa: BLE001 - the Rust core rejects bad tables/patterns with assorted errors
            raise ValueError(T_("{source}: tiktoken cannot build this tokenizer ({reason})", source=entry.source,
                                reason=str(exc))) from None
        size = max(max(ranks.values()), max(specials.values(), default=-1)) + 1
        by_id: list[bytes] = [b""] * size
        for tok, rank in ranks.items():
            by_id[rank] = tok
        for name, sid in self.specials.items():
            by_id[sid] = name.encode("utf-8")
        self._by_id = by_id
        if not entry.vocab_size:
            self.entry = replace(entry, vocab_size=size)
        # What the vendor's encode does to the text before the model (Qwen's QwenTokenizer: NFC). Tokens are
        # made from the normalized text; their spans are mapped back to the text as typed (core.text.nfc).
        self._nfc = entry.options.get("normalize") == "NFC"
        self._max_run = int(entry.options.get("max_run", 0) or 0)  # type: ignore[call-overload]
        self._max_chunk = int(entry.options.get("max_chunk", 0) or 0) or 400_000  # type: ignore[call-overload]

    # The per-id tables below serve only :meth:`table` (the app's token chips): built on first use, so a
    # command that only counts tokens (``compare`` on a big file) does not pay for them at load.
    @cached_property
    def _lens(self) -> np.ndarray:
        return np.fromiter(map(len, self._by_id), dtype=np.int64, count=len(self._by_id))

    @cached_property
    def _valid(self) -> np.ndarray:
        return np.fromiter(map(is_valid_utf8, self._by_id), dtype=bool, count=len(self._by_id))

    @cached_property
    def _special_mask(self) -> np.ndarray:
        mask = np.zeros(len(self._by_id), dtype=bool)
        mask[list(self.specials.values())] = True
        return mask

    @property
    def engine(self):  # noqa: ANN201 - tiktoken.Encoding
        """The underlying ``tiktoken.Encoding`` (for benchmarks and parity tests)."""
        return self._enc

    @property
    def split_pattern(self) -> str:  # type: ignore[override]
        return self.pattern

    def replay_source(self) -> TiktokenReplay:
        return TiktokenReplay(self.ranks, self.pattern, nfc if self._nfc else None)

    def replay(self, text: str) -> Replay:
        return replay_tiktoken(self, self.replay_source(), text)

    def merge_tree(self, token_id: int) -> MergeNode | None:
        return tiktoken_tree(self.replay_source(), self.token_bytes(token_id))

    def normalizer(self) -> NormalizerInfo | None:
        return NormalizerInfo("NFC", nfc) if self._nfc else None

    # -- the word inspector ----------------------------------------------------------------------
    def explain_normalizer(self, text: str, t: "Translator") -> Layer:
        if self._nfc:
            return super().explain_normalizer(text, t)
        n = len(text.encode("utf-8"))
        line = t.ngettext("tiktoken runs no normalizer: the model sees the {count} UTF-8 byte of the text as typed.",
                          "tiktoken runs no normalizer: the model sees the {count} UTF-8 bytes of the text as typed.", n)
        return unchanged_layer(line.format(count=_n(n, t=t)), t)

    def explain_layers(self, text: str, enc: Encoding, t: "Translator") -> list[Layer]:
        """The split regex's cuts (which alternative stopped where) and the merges replayed in rank order."""
        norm = self.normalizer()
        text = norm.normalize(text) if norm is not None else text  # later stages see the normalized text
        parts, pre = pretokenizer_reasons(text, self.pattern, t=t,
                                          label=t.gettext("{tokenizer}'s split regex").format(tokenizer=self.id))
        from .replay import replay

        rep = replay(self, text)
        # the regex above runs with Unicode 17.0; where tiktoken's engine (older tables) cuts otherwise, say so
        pre = list(pre) + [Reason("engine", t.gettext("At {char}: {note}; the merges below follow the model.").format(
                                    char=_q(n.char, t=t), note=localize(n.message, t)))
                           for n in rep.notes]
        rank_of = tiktoken_rank_of(self.ranks)
        model: list[Reason] = []
        for p in rep.pieces:
            steps = p.trace.steps
            if p.direct and len(p.trace.initial) > 1 and not steps:
                model.append(Reason("direct", t.gettext("{text} is itself one token (id {id}).").format(text=_q(p.text, t=t),
                                                                                                id=p.final_ids[0])))
            elif steps:
                ev = tuple(t.gettext("rank {rank}: {left} + {right} -> {merged}").format(
                    rank=s.rank, left=utf8_hex(s.left), right=utf8_hex(s.right), merged=_show(s.left + s.right, t=t))
                    for s in steps)
                ranks = sorted({s.rank for s in steps})
                model.append(Reason(
                    "merge",
                    t.ngettext("In {text}: {count} merge from the {bytes} bytes (lowest rank {low}, highest {high}) gives "
                             "{pieces}: {list}.",
                             "In {text}: {count} merges from the {bytes} bytes (lowest rank {low}, highest {high}) give "
                             "{pieces}: {list}.", len(steps)).format(
                        text=_q(p.text, t=t), count=_n(len(steps), t=t), bytes=_n(len(p.trace.initial), t=t), low=ranks[0], high=ranks[-1],
                        pieces=t.ngettext("{count} piece", "{count} pieces", len(p.final)).format(count=_n(len(p.final), t=t)),
                        list=" | ".join(_show(b, t=t) for b in p.final)),
                    ev[:MAX_EVIDENCE],
                ))
                if p.direct and p.final != p.trace.final:
                    model.append(Reason("direct", t.gettext("{text} is in the vocabulary as one token (id {id}), so tiktoken takes "
                                                    "it whole.").format(text=_q(p.text, t=t), id=p.final_ids[0])))
            else:
                model.append(Reason("single", t.gettext("{text} is a single byte {hex}: nothing to merge.").format(
                    text=_q(p.text, t=t), hex=utf8_hex(p.final[0]))))
            for a, b in zip(p.final, p.final[1:]):
                model.append(Reason("no-merge", t.gettext("No merge for {left_hex} + {right_hex} in this vocabulary (no token "
                                                  "{joined_hex}), so {left} and {right} stay apart.").format(
                    left_hex=utf8_hex(a), right_hex=utf8_hex(b), joined_hex=utf8_hex(a + b), left=_show(a, t=t), right=_show(b, t=t))))
        for p, q in zip(rep.pieces, rep.pieces[1:]):
            a, b = p.final[-1], q.final[0]
            if rank_of(a, b) is not None and not (p.text[-1:].isspace() or q.text[:1].isspace()):
                model.append(Reason("blocked", t.gettext("{left_hex} + {right_hex} is a token (rank {rank}) but the pre-tokenizer cut "
                                                 "between them, and merges never cross a cut.").format(
                    left_hex=utf8_hex(a), right_hex=utf8_hex(b), rank=rank_of(a, b))))
        if not rep.matches_library:  # pragma: no cover - replay is checked against tiktoken in the tests
            model.append(Reason("mismatch", t.gettext("The replay differs from the library's own ids; the library's tokens are "
                                              "shown.")))
        return [Layer("pre-tokenizer", t.gettext("Pre-tokenizer (split regex)"), tuple(pre)),
                Layer("model", t.gettext("Model: byte-level BPE merges (replayed in rank order)"), tuple(model))]

    def special_probes(self) -> list[SpecialProbe]:
        """tiktoken's own three modes (the library's, not the adapter's: that is what an app calling it gets)."""
        return tiktoken_probes(self._enc)

    def encode_ids(self, text: str, *, allow_special: bool = False) -> list[int]:
        check_text(text)  # subtle: tiktoken would replace a lone surrogate with U+FFFD silently
        if self._nfc:
            text = nfc(text)
        if not self._max_run or (len(text) <= self._max_run):
            return self._encode_chunk(text, allow_special)
        out: list[int] = []
        for chunk in run_chunks(text, self._max_run, self._max_chunk):
            out.extend(self._encode_chunk(chunk, allow_special))
        return out

    def _encode_chunk(self, text: str, allow_special: bool) -> list[int]:
        if allow_special:
            return self._enc.encode(text, allowed_special="all")
        return self._enc.encode(text, disallowed_special=())

    def _encode_spans(self, text: str, allow_special: bool) -> tuple[list[int], list[tuple[int, int]], list[bytes]]:
        ids = self.encode_ids(text, allow_special=allow_special)
        by_id = self._by_id
        data = [by_id[i] for i in ids]
        if not self._nfc:  # spans are running sums of the token lengths (no numpy: pieces are often a few tokens)
            ends_list = list(accumulate(map(len, data)))
            return ids, list(zip([0, *ends_list[:-1]], ends_list)), data
        lens = np.fromiter(map(len, data), dtype=np.int64, count=len(data))
        ends = np.cumsum(lens)
        starts, ends = self._source_spans(text, ends - lens, ends)
        return ids, list(zip(starts.tolist(), ends.tolist())), data

    def _source_spans(self, text: str, starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Byte spans over the encoded text -> byte spans over ``text`` as typed (they differ only after NFC)."""
        mapping = nfc_map(text) if self._nfc else None
        if mapping is None:
            return starts, ends
        return mapping.to_source(starts), mapping.to_source(ends)

    def table(self, text: str, *, allow_special: bool = False) -> TokenTable:
        check_text(text)
        ids_list = self.encode_ids(text, allow_special=allow_special)
        ids = np.asarray(ids_list, dtype=np.int64)
        lens = self._lens[ids]
        ends = np.cumsum(lens)
        starts, ends = self._source_spans(text, ends - lens, ends)
        # map() over the list tiktoken returned: a comprehension over ``ids.tolist()`` cost as much as the encode
        data = list(map(self._by_id.__getitem__, ids_list))
        return build_table(text, ids, starts, ends, data, self._special_mask[ids], self._valid[ids])

    # -- the pre-tokenizer floor (core.pretrained.protocols.Pieces) ------------------------------------
    pre_splits = True

    @cached_property
    def pieces_cut_at_words(self) -> bool:
        """The split patterns of :data:`LOCAL_PATTERNS` (and Qwen's, Llama 3's with single digits) put a space after
        a non-space only at a piece's start. Qwen's NFC composes nothing with a space, so it keeps the cuts too."""
        return self.pattern in LOCAL_PATTERNS | {QWEN_PAT} and not (self._max_run and self._max_run < MAX_WORD_PARTS_LINE)

    def pre_pieces(self, text: str) -> list[bytes] | None:
        """The pieces tiktoken's regex engine cuts the text into (after Qwen's NFC; Llama's long runs cut first)."""
        if self._nfc:
            text = nfc(text)
        chunks = run_chunks(text, self._max_run, self._max_chunk) if self._max_run and len(text) > self._max_run else [text]
        return [p.encode("utf-8") for chunk in chunks for p in engine_pieces(chunk, self.pattern)]

    def spelling_vocab(self) -> list[bytes | None]:
        """Every rank's bytes; the control tokens and the holes between them are None."""
        out: list[bytes | None] = [None] * len(self._by_id)
        for tok, rank in self.ranks.items():
            out[rank] = tok
        return out

    def byte_span_columns(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """Running sums of the token lengths (no token bytes, no cut kinds: the fast path of chunking)."""
        check_text(text)
        ids_list = self.encode_ids(text)
        lens = self._lens[np.fromiter(ids_list, dtype=np.int64, count=len(ids_list))]
        ends = np.cumsum(lens)
        return self._source_spans(text, ends - lens, ends)

    def count_tokens(self, texts: Sequence[str]) -> int:
        # encode_ordinary is encode(..., disallowed_special=()) without the Python-side checks per call.
        enc = self._enc.encode_ordinary
        if self._nfc:
            return sum(len(enc(nfc(t))) for t in texts)
        return sum(len(enc(t)) for t in texts)

    @cached_property
    def _assigned(self) -> frozenset[int]:
        return frozenset(self.ranks.values()) | frozenset(self.specials.values())

    def has_token(self, token_id: int) -> bool:
        # the ids between the last rank and the control tokens (cl100k: 100256, 100261-100275) are holes
        return token_id in self._assigned

    def token_bytes(self, token_id: int) -> bytes:
        if not 0 <= token_id < len(self._by_id):
            raise ValueError(T_("token id {id} is outside the vocabulary of {tokenizer}", id=str(token_id),
                                tokenizer=self.id))
        return self._by_id[token_id]

    def decode_checked(self, ids: Sequence[int]) -> str | None:
        # tiktoken refuses what is not a token as it decodes: a hole or an id past the end (KeyError), a negative
        # or huge one (OverflowError), anything but a whole number (TypeError); so a decode that succeeds checked all
        try:
            return self._enc.decode(ids if isinstance(ids, list) else list(ids), errors="replace")
        except (KeyError, OverflowError, TypeError):
            raise ValueError(T_("an id is not a token of {tokenizer}", tokenizer=self.id)) from None

    def decode_ids(self, ids: Sequence[int]) -> str:
        try:
            return self._enc.decode(list(ids), errors="replace")
        except (KeyError, OverflowError, TypeError):  # a hole between ids (b"" in the table), a negative or huge one
            n = len(self._by_id)  # (a negative index would count from the end of the table: another token's bytes)
            return b"".join(self._by_id[i] if isinstance(i, int) and 0 <= i < n else b"" for i in ids).decode(
                "utf-8", errors="replace")


# ---------------------------------------------------------------------------
# Loading: the two file formats this backend reads, and the catalog loaders that serve them
# ---------------------------------------------------------------------------


def parse_tiktoken_ranks(data: bytes, where: str) -> dict[bytes, int]:
    """Parse a ``.tiktoken`` file (``base64 rank`` per line) into a ranks table.

    Checked so the engine never sees a table it would crash or stall on:
    at most :data:`core.text.limits.MAX_TOKENIZER_FILE_BYTES`, no token
    listed twice, ranks unique, dense and below 2^31
    (:func:`core.text.limits.check_ids`), and all 256 single bytes present
    (byte-level BPE starts from them; without one, some text has no tokens).
    """
    if len(data) > limits.MAX_TOKENIZER_FILE_BYTES:
        raise ZooError(T_("{where} is {size:,} bytes; the limit for a tokenizer file is {limit:,}", where=where,
                          size=len(data), limit=limits.MAX_TOKENIZER_FILE_BYTES))
    ranks: dict[bytes, int] = {}
    lineno = 0
    a2b = binascii.a2b_base64
    try:
        for lineno, line in enumerate(data.splitlines(), 1):  # noqa: B007 - the except below names the line
            if not line:
                continue
            tok, rank = line.split()
            # subtle: Whisper's multilingual file spells its one empty token as "=" (tiktoken accepts it);
            # strict base64 refuses "=", so that is the only way to an empty token
            piece = a2b(tok, strict_mode=True) if tok != b"=" else b""
            size = len(ranks)
            ranks[piece] = int(rank)
            if len(ranks) == size:  # one dict operation per line, not a lookup and then a store
                raise ValueError(T_("token {token} is listed twice", token=repr(piece)))
    except (ValueError, TypeError) as exc:  # binascii.Error is a ValueError
        raise ZooError(T_("{where} is not a valid .tiktoken ranks file (line {line}: {reason})", where=where,
                          line=lineno, reason=message_of(exc))) from None
    if not ranks:
        raise ZooError(T_("{where} is empty: no ranks", where=where))
    try:
        limits.check_ids(ranks.values(), where, what=T_("rank"))
    except limits.LimitError as exc:
        raise ZooError(message_of(exc)) from None
    missing = [b for b in range(256) if bytes([b]) not in ranks]
    if missing:
        raise ZooError(T_("{where} is not a byte-level ranks table: {count} of the 256 single bytes have no rank "
                          "(first: {first})", where=where, count=len(missing), first="%#04x" % missing[0]))
    return ranks


def parse_tekken(data: bytes, where: str) -> tuple[dict[bytes, int], str, dict[str, int]]:
    """A Tekken JSON file as (ranks shifted to final ids, pattern, specials).

    Tekken keeps the first ``default_num_special_tokens`` ids for control
    tokens and shifts every byte-level token up by that many; the inner
    vocabulary is cut to ``default_vocab_size - num_special``. Shifting all
    ranks by a constant keeps their order, so the BPE result is unchanged
    and the ids come out final.
    """
    try:
        obj = limits.read_json(data, where)
    except limits.LimitError as exc:
        raise ZooError(message_of(exc)) from None
    try:
        config = obj["config"]
        n_special = int(config["default_num_special_tokens"])
        n_inner = int(config["default_vocab_size"]) - n_special
        pattern = config["pattern"]
        vocab = obj["vocab"][:n_inner]
        ranks = {base64.b64decode(v["token_bytes"]): int(v["rank"]) + n_special for v in vocab}
        special_list = obj.get("special_tokens")
    except (ValueError, KeyError, TypeError) as exc:
        raise ZooError(T_("{where} is not a valid Tekken tokenizer file ({reason})", where=where,
                          reason="%s: %s" % (type(exc).__name__, exc))) from None
    try:
        limits.check_ids(ranks.values(), where, what=T_("rank"))
    except limits.LimitError as exc:
        raise ZooError(message_of(exc)) from None
    if special_list:
        names = {s["token_str"]: int(s["rank"]) for s in special_list}
    else:
        names = {name: i for i, name in enumerate(TEKKEN_SPECIALS)}
    for i in range(n_special):
        if i not in names.values():
            names[f"<SPECIAL_{i}>"] = i
    return ranks, pattern, names


def _sized(entry: "ZooEntry", ranks: dict[bytes, int], specials: dict[str, int]) -> "ZooEntry":
    """An entry that declares no vocabulary size (an upload) gets the table's: ranks plus specials."""
    return entry if entry.vocab_size else replace(entry, vocab_size=len(ranks) + len(specials))


@register_loader("tiktoken")
def load_tiktoken(entry: "ZooEntry", data: bytes | None, where: str) -> TiktokenTokenizer:
    """Catalog ``loader="tiktoken"`` (and ``.tiktoken`` uploads): a ranks file, with the entry's split
    ``pattern`` and its specials (``specials_fn``: ``llama3``/``llama4``, else the ``specials`` table)."""
    assert data is not None
    ranks = parse_tiktoken_ranks(data, where)
    fn = entry.options.get("specials_fn")
    if fn == "llama3":
        specials = llama3_specials(len(ranks))
    elif fn == "llama4":
        specials = llama4_specials(len(ranks))
    else:
        specials = dict(cast("dict[str, int]", entry.options.get("specials", {})))
    return TiktokenTokenizer(_sized(entry, ranks, specials), ranks, str(entry.options["pattern"]), specials)


@register_loader("tekken")
def load_tekken(entry: "ZooEntry", data: bytes | None, where: str) -> TiktokenTokenizer:
    """Catalog ``loader="tekken"`` (and Tekken uploads): Mistral's JSON, run by the tiktoken engine."""
    assert data is not None
    ranks, pattern, specials = parse_tekken(data, where)
    return TiktokenTokenizer(_sized(entry, ranks, specials), ranks, pattern, specials)


# ---------------------------------------------------------------------------
# Uploads: a .tiktoken ranks file (with the reader's split pattern) and a Tekken JSON
# ---------------------------------------------------------------------------


def _is_ranks_file(data: bytes) -> bool:
    """A first line ``base64 rank``: a ``.tiktoken`` file."""
    first = data[:4096].lstrip().split(b"\n", 1)[0].split()
    if len(first) == 2 and first[1].isdigit():
        try:
            base64.b64decode(first[0], validate=True)
            return True
        except ValueError:
            pass
    return False


def _is_tekken(data: bytes) -> bool:
    """A JSON object with Tekken's ``config`` and ``token_bytes`` keys."""
    return data[:4096].lstrip().startswith(b"{") and b'"config"' in data[:4096] and b'"token_bytes"' in data[:200_000]


def _ranks_options(name: str, data: bytes, pattern: str) -> dict[str, object]:
    """The split pattern is the reader's choice (a :data:`~core.pretrained.catalog.TIKTOKEN_PATTERNS` name or a
    regex), checked before the file is parsed."""
    import regex

    from ..text.safe_regex import compile_user_regex

    pat = TIKTOKEN_PATTERNS.get(pattern, pattern)
    try:
        compiled = compile_user_regex(pat)
    except regex.error as exc:
        raise ZooError(T_("invalid split pattern {pattern}: {reason}", pattern=repr(pat), reason=str(exc))) from None
    except limits.LimitError as exc:
        raise ZooError(T_("split pattern {pattern}: {reason}", pattern=repr(pat)[:80], reason=exc.args[0])) from None
    # tiktoken drops the text its pattern does not match: one that matches no ordinary text drops everything
    if not any(m.group() for m in limits.user_finditer(compiled, _PATTERN_PROBE)):
        raise ZooError(T_("split pattern {pattern} matches nothing in ordinary text ({probe}): the tokenizer would drop "
                          "every character", pattern=repr(pat)[:80], probe=repr(_PATTERN_PROBE)))
    return {"pattern": pat}


#: Text every sensible split pattern finds pieces in.
_PATTERN_PROBE = "hello world 123 ?! বাজার"


def _tekken_options(name: str, data: bytes, pattern: str) -> dict[str, object]:
    limits.check_json_bytes(data, name)
    return {}


register_upload("tiktoken", label="byte-level BPE (user .tiktoken)", specials=T_("none declared"), detect=_is_ranks_file,
                priority=30, suffixes=(".tiktoken",), options=_ranks_options)
register_upload("tekken", label="byte-level BPE (user Tekken)", specials=SPECIAL_NOTE, detect=_is_tekken, priority=10,
                options=_tekken_options)
