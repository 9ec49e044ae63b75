"""``python -m core chunk``: a text's tokens cut into chunks of N tokens (overlap K), every cut judged.

Where each chunk edge falls (inside a character's bytes, a letter, a word) and, with ``--snap grapheme|word``,
the chunks re-cut at whole letters or words and what that costs in tokens and chunks
(:mod:`core.analysis.chunks`). A ``--file`` of any size is read in blocks of about 1 MB cut after line breaks
(:func:`core.analysis.stream.iter_chunks`); only the blocks the current chunk reaches are held.

JSON shapes:

- ``--json``: ``{"tokenizer", "source", "summary": {...}, "chunks": [...], "listed", "note"?}``. The summary
  counts every chunk; ``chunks`` lists the first :data:`core.analysis.chunks.MAX_LISTED` (1,000) with their
  text (fewer when their text passes :data:`MAX_LISTED_TEXT` characters), and ``note`` (also a ``note:`` line
  on stderr) says when there are more: use ``--jsonl`` for all.
- ``--jsonl``: one JSON object per chunk as it is cut (any number, streamed), then ``{"summary": {...}}``.

A chunk: ``{"index", "tokens": [start, end], "bytes": [...], "chars": [...], "text", "start": EDGE,
"end": EDGE}``; an edge: ``{"token", "byte", "char", "inside_character", "inside_grapheme", "inside_word",
"moved_from", "fallback"}`` (and ``"note"`` when a snap could not reach its level).
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Iterable

from ..analysis import stream
from ..analysis.chunks import MAX_LISTED, MAX_SIZE, SNAP_MODES, ChunkCutter, ChunkSettings
from ..text import limits
from .common import CliError, Progress, int_range, streamed_summary, text_arg

#: Characters of chunk text ``--json`` lists at most (the listing stops after the chunk that passes it), so a big file
#: cut into big chunks is not held whole in the answer.
MAX_LISTED_TEXT = 4_000_000


def _chunk(args: argparse.Namespace) -> Any:
    settings = ChunkSettings(args.size, args.overlap, args.snap)  # overlap < size: one line before any work
    tok = stream.load_spec(stream.TokSpec(args.tokenizer, args.pattern))
    blocks: Iterable[stream.Chunk]
    if args.text is not None:
        text = text_arg(args)
        blocks, size, source = [stream.Chunk(0, 0, 0, 0, text)], len(text.encode("utf-8", "surrogatepass")), "--text"
    else:
        try:
            size = stream.file_size(args.file)
        except limits.LimitError as exc:
            raise CliError(str(exc)) from None
        cut: stream.Cut = "text" if stream.can_cut_text(tok) else "none"
        blocks, source = stream.iter_chunks(args.file, cut=cut), args.file
    cutter = ChunkCutter(tok, blocks, settings, verify_joins=True, keep_text=None if args.jsonl else MAX_LISTED,
                         expected_bytes=size)
    progress = Progress(size, f"chunk {tok.id}")
    listed: list[dict[str, Any]] = []
    text_held = 0
    for c in cutter:
        if args.jsonl:
            sys.stdout.write(json.dumps(c.to_json(), ensure_ascii=False) + "\n")
        elif c.index == len(listed) < MAX_LISTED and text_held < MAX_LISTED_TEXT:  # big chunks: fewer listed
            listed.append(c.to_json())
            text_held += len(c.text or "")
        progress.update(c.byte_end)
    progress.close()
    summary = {"tokenizer": tok.id, "source": source, **cutter.summary().to_json()}
    if args.jsonl:
        return streamed_summary(summary, True)
    out: dict[str, Any] = {"tokenizer": tok.id, "source": source, "summary": summary, "chunks": listed,
                           "listed": len(listed)}
    if summary["chunks"] > len(listed):
        out["note"] = (f"{summary['chunks']:,} chunks; the first {len(listed):,} are listed (the summary counts all): "
                       "--jsonl streams every chunk")
        print(f"note: {out['note']}", file=sys.stderr)
    return out


def _edge_mark(e: dict[str, Any]) -> str:
    kind = ("inside a character" if e["inside_character"] else "inside a letter" if e["inside_grapheme"]
            else "inside a word" if e["inside_word"] else "whole")
    if e["moved_from"] is not None:
        kind += f" (moved from token {e['moved_from']:,})"
    return kind + (" [no whole edge in reach]" if e["fallback"] == "none" else "")


def _chunk_table(result: dict[str, Any]) -> str:
    s = result["summary"]
    share = s["share_inside"]
    cost = s["snap_cost"]
    lines = [f"{result['tokenizer']}: {s['tokens']:,} tokens in {s['chunks']:,} chunks of {s['size']:,} "
             f"(overlap {s['overlap']:,}, snap {s['snap']}); chunks starting or ending inside a character "
             f"{100 * share['character']:.1f}%, a letter {100 * share['grapheme']:.1f}%, a word {100 * share['word']:.1f}%"]
    if s["snap"] != "none":
        lines.append(f"snapping: {cost['moved_cuts']:,} cuts moved, {cost['extra_tokens']:+,} tokens and "
                     f"{cost['extra_chunks']:+,} chunks against the plain cut; {cost['left_inside_letter']:,} cuts "
                     "left inside a letter (no whole edge in reach)")
    for c in result["chunks"]:
        text = c["text"] if len(c["text"]) <= 40 else c["text"][:39] + "…"
        lines.append(f"{c['index']:>6} tokens {c['tokens'][0]:,}-{c['tokens'][1]:,}  start {_edge_mark(c['start'])}; "
                     f"end {_edge_mark(c['end'])}  {text!r}")
    if "note" in result:
        lines.append(f"({result['note']})")
    return "\n".join(lines)


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``chunk`` to the CLI."""
    p = sub.add_parser("chunk", help="a text's tokens cut into chunks of N tokens (overlap K): where each cut falls, "
                                     "snapped to whole letters or words if asked")
    p.add_argument("--tokenizer", required=True,
                   help="a zoo id (see `list`), hf:ORG/NAME (needs network), file:PATH or a trained tokenizer.json")
    p.add_argument("--pattern", default="cl100k", help="split pattern for a .tiktoken file: cl100k, o200k, llama3 or a regex")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--text", help="the text")
    src.add_argument("--file", help="a UTF-8 text file (any size: read in blocks)")
    p.add_argument("--size", type=int_range(1, MAX_SIZE), required=True, help="tokens per chunk (N)")
    p.add_argument("--overlap", type=int_range(0, MAX_SIZE - 1), default=0,
                   help="tokens two consecutive chunks share (K, less than --size; default 0)")
    p.add_argument("--snap", choices=SNAP_MODES, default="none",
                   help="move each cut back to a whole letter (grapheme) or word edge (default: none)")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help=f"print JSON: the summary and the first {MAX_LISTED:,} chunks")
    fmt.add_argument("--jsonl", action="store_true", help="stream one JSON line per chunk, then the summary")
    p.set_defaults(func=_chunk, table=_chunk_table)

