"""Streaming, sharded analyses of big files: bounded chunks, pure shard functions, mergeable statistics.

A file is read in chunks of about :data:`CHUNK_BYTES` (never the whole file),
cut only where the cut cannot change the answer:

- ``"line"`` cuts (line-based analyses: held-out sentences, round-trip
  cases, parallel TSV rows, grapheme counts): after any ``\\n``. Lines are
  encoded one by one anyway, and no grapheme cluster spans a line break
  (UAX #29 rules GB4/GB5 break after every LF).
- ``"text"`` cuts (one text encoded whole: ``tokenize``): after a ``\\n``
  that is followed by a character that is not whitespace. The split
  patterns of cl100k, o200k and Llama 3 (and GPT-2) never make a piece that
  crosses such a place (the newline run ends a piece; no alternative starts
  with a newline and continues into a letter, digit or mark), and BPE
  merges never cross pieces, so the tokens of the whole text are the
  tokens of the chunks laid end to end. Each cut is also *verified*: the
  shard encodes the end of the previous chunk and the start of its own
  together and apart (:data:`JOIN_WINDOW` characters each) and reports a
  mismatch as an error instead of a wrong count. A tokenizer that fails a
  probe of this (SentencePiece adds a prefix space at the start of every
  text) is not cut at all: its file must fit in one chunk of
  :data:`NOCUT_MAX_BYTES`.

Each shard's work is a pure function of (task, chunk) that returns a small
statistics record (:class:`TextCounts`, :class:`GraphemeCounts`,
:class:`core.analysis.measures.TaxCounts`, :class:`core.analysis.evaluate.EvalTally`,
:class:`RoundTripTally`); records merge by addition in chunk order, so the
result does not depend on how many workers ran them. :func:`run_shards`
runs the shards in this process, in ``N`` worker processes, or on a Dask
distributed cluster, keeping at most a few chunks in flight.

This module does not print (the CLI draws progress from the chunks it gets back).
"""
from __future__ import annotations

import os
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Literal, Sequence, TypeVar

from ..text import limits
from ..text.errors import UserError
from ..text.units import cluster_bounds
from ..tokens import FullTokenizer, IdCodec, token_table
from .dask_run import run_dask

#: Target chunk size in bytes (a chunk ends at the last safe cut before it).
CHUNK_BYTES = 1 << 20
#: Largest chunk: a file with no safe cut within this many bytes is refused (and so is a
#: file bigger than this for a tokenizer that cannot be cut).
MAX_CHUNK_BYTES = 16 << 20
#: Largest file for a tokenizer that cannot be cut (it is encoded whole: memory grows with it).
NOCUT_MAX_BYTES = 4 << 20
#: Characters on each side of a cut that a shard re-encodes to verify it.
JOIN_WINDOW = 256
#: Chunks in flight per worker (bounds memory: about workers * this * CHUNK_BYTES of text). Results come back in
#: chunk order, so while one chunk is slow (its worker lost its core) the others run on only while the window
#: has room: with 2 per worker, two workers made 1.69x one on uneven chunks, with 4 1.95x (bench/stream_window.py).
IN_FLIGHT_PER_WORKER = 4

Cut = Literal["line", "text", "none"]
T = TypeVar("T")
R = TypeVar("R")


class StreamError(UserError):
    """A file that cannot be streamed as asked (binary, not UTF-8, no safe place to cut)."""


@dataclass(frozen=True)
class Chunk:
    """A piece of a file: its text, where it starts (byte, code point, line) and the text just before it."""

    index: int
    byte_start: int
    char_start: int
    line_start: int
    text: str
    before: str = ""  # the last JOIN_WINDOW characters of the previous chunk ("" for the first)

    @property
    def nbytes(self) -> int:
        return len(self.text.encode("utf-8"))


def _safe_text_cut(buf: bytes, end: int) -> int:
    """The largest ``i <= end`` such that ``buf[i-1]`` is ``\\n`` and ``buf[i:]`` starts with a non-space character; 0 if none."""
    pos = end
    while True:
        nl = buf.rfind(b"\n", 0, pos)
        if nl < 0:
            return 0
        nxt = nl + 1
        if nxt < len(buf):
            lead = buf[nxt]
            width = 1 if lead < 0x80 else 2 if lead >> 5 == 0b110 else 3 if lead >> 4 == 0b1110 else 4
            if nxt + width <= len(buf):
                try:
                    ch = buf[nxt:nxt + width].decode("utf-8")
                except UnicodeDecodeError:
                    ch = " "  # judged later, when the chunk is decoded
                if not ch.isspace():
                    return nxt
        pos = nl


def _decode(raw: bytes, path: str, offset: int) -> str:
    nul = raw.find(b"\x00")
    if nul >= 0:
        raise StreamError(f"{path} looks like a binary file (a NUL byte at byte {offset + nul:,})")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise StreamError(f"{path} is not valid UTF-8 (byte {offset + exc.start:,}: {raw[exc.start]:#04x})") from None


def file_size(path: str) -> int:
    """Size of a regular file (refusing devices, FIFOs, directories: :class:`core.text.limits.LimitError`)."""
    return limits.check_regular(path, "text file").st_size


def _cut_at(cut: Cut, buf: bytes) -> int:
    if cut == "text":
        return _safe_text_cut(buf, len(buf))
    if cut == "line":
        return buf.rfind(b"\n") + 1
    return 0


def iter_chunks(path: str, *, cut: Cut = "line", chunk_bytes: int = CHUNK_BYTES,
                max_chunk_bytes: int = MAX_CHUNK_BYTES, skip_bytes: int = 0) -> Iterator[Chunk]:
    """The chunks of a UTF-8 file, in order; together they are exactly the file's text (after ``skip_bytes``).

    ``cut="none"`` never cuts: the whole file is one chunk, refused when
    bigger than ``max_chunk_bytes`` (for tokenizers that cannot be cut).
    """
    with limits.open_regular(path, "text file") as fh:
        size = os.fstat(fh.fileno()).st_size
        if cut == "none":
            max_chunk_bytes = min(max_chunk_bytes, NOCUT_MAX_BYTES)
            if size - skip_bytes > max_chunk_bytes:
                raise StreamError(f"{path} is {size:,} bytes; this tokenizer cannot be cut at line breaks (its tokens "
                                  f"depend on the whole text), so the limit for it is {max_chunk_bytes:,} bytes")
            chunk_bytes = max_chunk_bytes + 1
        fh.seek(skip_bytes)
        buf = b""
        offset = skip_bytes
        index = char_pos = line_pos = 0
        before = ""
        eof = False
        while True:
            while not eof and len(buf) < chunk_bytes:
                block = fh.read(chunk_bytes)
                eof = not block
                buf += block
            if not buf:
                break
            take = len(buf) if eof else _cut_at(cut, buf)
            while take == 0:  # no safe cut yet: read on, up to the largest chunk
                if len(buf) >= max_chunk_bytes:
                    what = "line break followed by text" if cut == "text" else "line break"
                    raise StreamError(f"{path}: no {what} within {max_chunk_bytes:,} bytes after byte {offset:,}; "
                                      "cannot cut it into chunks")
                block = fh.read(chunk_bytes)
                if not block:
                    eof = True
                    take = len(buf)
                else:
                    buf += block
                    take = _cut_at(cut, buf)
            raw, buf = buf[:take], buf[take:]
            text = _decode(raw, path, offset)
            yield Chunk(index, offset, char_pos, line_pos, text, before)
            before = text[-JOIN_WINDOW:]
            index += 1
            offset += len(raw)
            char_pos += len(text)
            line_pos += text.count("\n")


# ---------------------------------------------------------------------------
# Tokenizers in shards
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class TokSpec:
    """How a worker finds a tokenizer: a zoo id, ``file:PATH`` or ``hf:ORG/NAME``; with ``trained`` also a
    ``tokenizer.json`` path saved by ``train`` (what ``evaluate`` and ``round-trip`` accept)."""

    spec: str
    pattern: str = "cl100k"
    trained: bool = False


def open_spec(spec: str, *, pattern: str = "cl100k", trained: bool = True) -> FullTokenizer:
    """A tokenizer from a spec: a saved ``tokenizer.json`` path (a trained recipe, if ``trained``), else a zoo
    spec (:func:`core.pretrained.zoo.resolve`); not cached here."""
    p = Path(spec)
    if trained and p.suffix == ".json" and not spec.startswith(("file:", "hf:")) and (p.is_file() or not p.exists()):
        from .recipes import load_json_bytes

        data = limits.read_regular(p, max_bytes=limits.MAX_TOKENIZER_FILE_BYTES, what="tokenizer file")
        return load_json_bytes(data, name=p.name)
    from ..pretrained import zoo

    return zoo.resolve(spec, pattern=pattern)


def load_spec(spec: TokSpec) -> FullTokenizer:
    """The tokenizer for ``spec``: a zoo id from the zoo's registry, a file loaded once per process into the same
    registry (each worker loads it on its first chunk)."""
    from ..pretrained import zoo

    if spec.spec in zoo.ENTRIES:
        return zoo.load(spec.spec)
    return zoo.hold(repr(spec), lambda: open_spec(spec.spec, pattern=spec.pattern, trained=spec.trained))


def _ids(tok: IdCodec, text: str) -> list[int | None]:
    """Token ids of ``text`` (specials encoded as text), on the fastest path the tokenizer has."""
    if tok.ids_complete:  # else a unit may have no id (a baseline's word): those count too
        return list(tok.encode_ids(text))
    return [t.id for t in tok.encode(text).tokens]


_PROBES = ("ab\ncd\n", "বাজার\nঘর", "x \n\ny\n", "Hello\nworld.\n", "سلام\nدنیا", "12\n34")


def can_cut_text(tok: IdCodec) -> bool:
    """True when cutting after a line break followed by text leaves this tokenizer's ids unchanged on probes."""
    for probe in _PROBES:
        for i in range(1, len(probe)):
            if probe[i - 1] == "\n" and not probe[i].isspace():
                if _ids(tok, probe) != _ids(tok, probe[:i]) + _ids(tok, probe[i:]):
                    return False
    return True


def check_join(tok: IdCodec, chunk: Chunk) -> None:
    """:class:`StreamError` unless encoding across the cut before ``chunk`` equals encoding both sides apart."""
    if not chunk.before:
        return
    left, right = chunk.before, chunk.text[:JOIN_WINDOW]
    if _ids(tok, left + right) != _ids(tok, left) + _ids(tok, right):
        raise StreamError(f"{tok.id}: the tokens change across the chunk cut at byte "
                          f"{chunk.byte_start:,}; this text cannot be streamed for this tokenizer")


# ---------------------------------------------------------------------------
# Statistics records (mergeable by +)
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class TextCounts:
    """One tokenizer on a whole text: what ``tokenize --summary`` reports, summable over chunks.

    ``boundaries`` counts cuts between consecutive tokens; a chunk cut is
    itself a clean boundary, added by :meth:`__add__` when both sides have tokens.
    """

    tokens: int = 0
    words: int = 0
    chars: int = 0
    bytes: int = 0
    boundaries: int = 0
    inside_grapheme: int = 0
    inside_codepoint: int = 0
    bad_tokens: int = 0
    unknown: int = 0
    special_text: int = 0
    round_trip_failures: int = 0  # chunks whose decode(encode(chunk)) != chunk

    def __add__(self, o: "TextCounts") -> "TextCounts":
        join = 1 if self.tokens and o.tokens else 0
        return TextCounts(
            self.tokens + o.tokens, self.words + o.words, self.chars + o.chars, self.bytes + o.bytes,
            self.boundaries + o.boundaries + join, self.inside_grapheme + o.inside_grapheme,
            self.inside_codepoint + o.inside_codepoint, self.bad_tokens + o.bad_tokens, self.unknown + o.unknown,
            self.special_text + o.special_text, self.round_trip_failures + o.round_trip_failures,
        )  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        n, w = self.tokens, self.words
        return {
            "tokens": n, "words": w, "chars": self.chars, "bytes": self.bytes,
            "tokens_per_word": round(n / w, 4) if w else 0.0,
            "chars_per_token": round(self.chars / n, 4) if n else 0.0,
            "bytes_per_token": round(self.bytes / n, 4) if n else 0.0,
            "boundaries": {"total": self.boundaries, "inside_grapheme": self.inside_grapheme,
                           "inside_codepoint": self.inside_codepoint},
            "cut_pct": round(100.0 * self.inside_grapheme / self.boundaries, 4) if self.boundaries else 0.0,
            "bad_pct": round(100.0 * self.bad_tokens / n, 4) if n else 0.0,
            "unknown": self.unknown, "special_text": self.special_text,
            "round_trip_ok": self.round_trip_failures == 0,
        }  # fmt: skip


def text_counts(tok: FullTokenizer, text: str) -> TextCounts:
    """:class:`TextCounts` of one text (the same figures ``tokenize`` gives for it whole)."""
    table = tok.table(text)
    n = len(table)
    ids = [int(i) for i in table.ids.tolist()]
    unk = tok.unk_id
    if any(i < 0 for i in ids):  # tokens without ids (the words baseline): decode the tokens themselves
        decoded = tok.decode(table.tokens())
    else:
        decoded = tok.decode_ids(ids)
    return TextCounts(
        tokens=n, words=len(text.split()), chars=len(text), bytes=len(text.encode("utf-8")),
        boundaries=max(n - 1, 0), inside_grapheme=table.inside_grapheme, inside_codepoint=table.inside_codepoint,
        bad_tokens=int(n - int(table.valid_utf8.sum())), unknown=0 if unk is None else ids.count(unk),
        special_text=len(tok.special_hits(text)),
        round_trip_failures=0 if decoded == text else 1,
    )  # fmt: skip


@dataclass(frozen=True)
class TokenizeTask:
    """Shard task of ``tokenize``: summary counts, or the JSON Lines of every token (``jsonl``)."""

    tok: TokSpec
    jsonl: bool = False
    verify_join: bool = True


def tokenize_shard(task: TokenizeTask, chunk: Chunk) -> tuple[TextCounts, str]:
    """Pure shard function of ``tokenize``: counts of the chunk, and its tokens as JSON Lines if asked."""
    import json

    tok = load_spec(task.tok)
    if task.verify_join:
        check_join(tok, chunk)
    counts = text_counts(tok, chunk.text)
    if not task.jsonl:
        cluster_bounds.cache_clear()  # subtle: the cache would keep the last chunks' bounds (tens of MB) alive
        return counts, ""
    from ..text.units import utf8_hex

    table = token_table(tok, chunk.text)
    b0 = chunk.byte_start
    c0 = chunk.char_start
    lines = []
    for t, ok in zip(table.tokens(), table.valid_utf8.tolist()):
        lines.append(json.dumps({"id": t.id, "text": t.text, "hex": utf8_hex(t.data), "start": c0 + t.start,
                                 "end": c0 + t.end, "byte_start": b0 + t.byte_start, "byte_end": b0 + t.byte_end,
                                 "valid_utf8": bool(ok)}, ensure_ascii=False))
    cluster_bounds.cache_clear()
    return counts, "".join(line + "\n" for line in lines)


@dataclass(frozen=True)
class GraphemeCounts:
    """Grapheme clusters, code points, UTF-8 bytes and line breaks of a text (summable)."""

    clusters: int = 0
    codepoints: int = 0
    bytes: int = 0
    lines: int = 0
    multi_codepoint: int = 0  # clusters of two or more code points

    def __add__(self, o: "GraphemeCounts") -> "GraphemeCounts":
        return GraphemeCounts(self.clusters + o.clusters, self.codepoints + o.codepoints, self.bytes + o.bytes,
                              self.lines + o.lines, self.multi_codepoint + o.multi_codepoint)

    def to_json(self) -> dict[str, Any]:
        return {"clusters": self.clusters, "codepoints": self.codepoints, "bytes": self.bytes, "lines": self.lines,
                "multi_codepoint_clusters": self.multi_codepoint}


def graphemes_shard(jsonl: bool, chunk: Chunk) -> tuple[GraphemeCounts, str]:
    """Pure shard function of ``graphemes``: counts, and one JSON line per cluster if asked."""
    import json

    from ..text.units import codepoint_info, utf8_hex

    text = chunk.text
    bounds = cluster_bounds(text) if text else (0,)
    starts, ends = bounds[:-1], bounds[1:]
    multi = sum(1 for s, e in zip(starts, ends) if e - s > 1)
    counts = GraphemeCounts(len(starts), len(text), len(text.encode("utf-8")), text.count("\n"), multi)
    cluster_bounds.cache_clear()  # subtle: the cache would keep the last chunks' bounds (tens of MB) alive
    if not jsonl:
        return counts, ""
    c0 = chunk.char_start
    out = []
    for s, e in zip(starts, ends):
        g = text[s:e]
        out.append(json.dumps({"text": g, "start": c0 + s, "end": c0 + e, "hex": utf8_hex(g.encode("utf-8")),
                               "codepoints": [codepoint_info(ch).label() for ch in g]}, ensure_ascii=False) + "\n")
    return counts, "".join(out)


@dataclass(frozen=True)
class TaxTask:
    """Shard task of ``compare``: which tokenizers, the TSV's languages and its name for messages."""

    toks: tuple[TokSpec, ...]
    languages: tuple[str, ...]
    label: str
    line_offset: int = 1  # lines before the first row (the header and blank lines above it)


def tsv_columns(task: TaxTask, chunk: Chunk) -> tuple[list[list[str]], int]:
    """The chunk's TSV rows as one list of cells per language, and how many rows (a ragged row is an error)."""
    from .tax import ParallelError

    n_lang = len(task.languages)
    columns: list[list[str]] = [[] for _ in range(n_lang)]
    rows = 0
    for k, line in enumerate(chunk.text.split("\n")):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        cells = line.split("\t")
        if len(cells) != n_lang:
            raise ParallelError(f"{task.label}: line {task.line_offset + chunk.line_start + k + 1} has {len(cells)} cells, "
                                f"the header has {n_lang}")
        for i, c in enumerate(cells):
            columns[i].append(c.strip())
        rows += 1
    return columns, rows


@dataclass(frozen=True)
class RoundTripTally:
    """Round-trip results over a file's lines: how many passed, and the first failures in file order."""

    cases: int = 0
    passed: int = 0
    failures: tuple[dict[str, Any], ...] = ()

    def merged(self, o: "RoundTripTally", keep: int) -> "RoundTripTally":
        return RoundTripTally(self.cases + o.cases, self.passed + o.passed, (self.failures + o.failures)[:keep])


#: Failures a streamed round-trip keeps per tokenizer (the counts cover every line).
MAX_LISTED_FAILURES = 100


@dataclass(frozen=True)
class LinesTask:
    """Shard task of ``evaluate --heldout`` / ``round-trip --file``: one tokenizer over the chunk's non-empty lines."""

    tok: TokSpec
    kind: Literal["evaluate", "round-trip"]
    keep: int
    newline_only: bool = False  # lines are cut at \n only (a held-out file written by corpus.FileSplit)


def lines_shard(task: LinesTask, chunk: Chunk) -> Any:
    """Pure shard function over lines: an :class:`~core.analysis.evaluate.EvalTally` or a :class:`RoundTripTally`."""
    from . import evaluate as E
    from .roundtrip import round_trip_lines

    cand = load_spec(task.tok)
    if task.newline_only:
        return E.tally(cand, [ln for ln in chunk.text.split("\n") if ln.strip()], max_failures=task.keep)
    # The lines ``str.splitlines`` gives for the whole file (it also breaks at \r, \x85, U+2028 ...),
    # numbered by the file's \n-terminated line they sit on.
    numbered = [(f"line {chunk.line_start + i + 1}", ln) for i, raw in enumerate(chunk.text.split("\n"))
                for ln in raw.splitlines() if ln.strip()]
    if task.kind == "evaluate":
        return E.tally(cand, [ln for _, ln in numbered], max_failures=task.keep)
    passed, failed = round_trip_lines(cand, numbered, task.keep)
    fails = tuple({"case": r.case, "ok": False, "text": r.normalized, "decoded": r.decoded, "reason": r.reason}
                  for r in failed)
    return RoundTripTally(len(numbered), passed, fails)


# ---------------------------------------------------------------------------
# Running shards: here, in processes, or on a Dask cluster
# ---------------------------------------------------------------------------

def default_workers() -> int:
    """The machine's cores (what ``--workers`` defaults to)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def run_shards(fn: Callable[[T, Chunk], R], task: T, chunks: Iterable[Chunk], *, workers: int = 1,
               scheduler: str | None = None) -> Iterator[tuple[Chunk, R]]:
    """``fn(task, chunk)`` for every chunk, yielded in chunk order with the chunk.

    ``workers > 1`` runs them in that many worker processes, forked (where
    the platform forks) from this one after the caller loaded the
    tokenizers, so workers share the loaded tables copy-on-write instead of
    each loading its own (elsewhere they are spawned and load on their first
    chunk); ``scheduler``
    (a Dask scheduler address, e.g. ``tcp://127.0.0.1:8786``) sends them to
    that cluster. At most ``IN_FLIGHT_PER_WORKER`` chunks per worker are in
    flight, so memory stays bounded whatever the file size. An error in a
    shard is raised here (the first one in chunk order).
    """
    if scheduler:
        yield from run_dask(fn, task, chunks, scheduler, in_flight=IN_FLIGHT_PER_WORKER)
        return
    if workers <= 1:
        for c in chunks:
            yield c, fn(task, c)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    window = workers * IN_FLIGHT_PER_WORKER
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    # Hugging Face tokenizers disables its own threads after a fork and warns on stderr unless told beforehand.
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    ex = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(method))
    try:
        pending: deque = deque()
        for c in chunks:
            pending.append((c, ex.submit(fn, task, c)))
            if len(pending) >= window:
                c0, f = pending.popleft()
                yield c0, f.result()
        while pending:
            c0, f = pending.popleft()
            yield c0, f.result()
    finally:
        ex.shutdown(wait=True, cancel_futures=True)


def summed(results: Iterable[tuple[Chunk, R]], start: R) -> R:
    """Sum of the statistics records (``start`` + each, in chunk order)."""
    total = start
    for _, r in results:
        total = total + r  # type: ignore[operator]
    return total


__all__: Sequence[str] = [
    "CHUNK_BYTES", "Chunk", "GraphemeCounts", "MAX_CHUNK_BYTES", "StreamError", "TaxTask", "TextCounts",
    "TokSpec", "TokenizeTask", "can_cut_text", "default_workers", "graphemes_shard", "iter_chunks", "lines_shard",
    "load_spec", "run_shards", "text_counts", "tokenize_shard", "tsv_columns",
]  # fmt: skip
