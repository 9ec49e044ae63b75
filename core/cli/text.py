"""``python -m core graphemes``: grapheme clusters of a text (UAX #29), with code points and bytes.

A ``--file`` up to :data:`core.text.limits.MAX_STEP_TEXT_BYTES` prints one
JSON document (or a table); any file streams with ``--summary`` (counts:
clusters, code points, bytes, lines) or ``--jsonl`` (one JSON object per
cluster, offsets into the whole file, then a ``{"summary": ...}`` line), in
chunks cut after line breaks (no cluster spans a line break: UAX #29 GB4/GB5).
"""
from __future__ import annotations

import argparse
from typing import Any

from ..analysis import stream
from ..text import limits
from ..text.units import UNICODE_VERSION, codepoint_info, graphemes, utf8_hex
from .common import CliError, add_stream_options, run_streamed, stream_setup, streamed_summary, text_arg


def _document(text: str) -> dict[str, Any]:
    clusters = graphemes(text)
    return {
        "unicode_version": UNICODE_VERSION,
        "clusters": [c.text for c in clusters],
        "details": [
            {
                "text": c.text,
                "start": c.start,
                "end": c.end,
                "hex": utf8_hex(c.text.encode("utf-8")),
                "codepoints": [codepoint_info(ch).label() for ch in c.text],
            }
            for c in clusters
        ],
    }


def _graphemes(args: argparse.Namespace) -> Any:
    if args.file and (args.summary or args.jsonl):
        return _streamed(args)
    if args.summary or args.jsonl:
        raise CliError("--summary and --jsonl read a --file")
    return _document(text_arg(args, max_bytes=limits.MAX_STEP_TEXT_BYTES))


def _streamed(args: argparse.Namespace) -> Any:
    size, workers, scheduler = stream_setup(args.file, args)
    total = run_streamed(stream.graphemes_shard, bool(args.jsonl), stream.iter_chunks(args.file, cut="line"),
                         stream.GraphemeCounts(), size=size, label="graphemes", workers=workers, scheduler=scheduler)
    summary = {"unicode_version": UNICODE_VERSION, "file": args.file, **total.to_json()}
    return streamed_summary(summary, bool(args.jsonl))


def _graphemes_table(result: dict[str, Any]) -> str:
    if "details" not in result:
        return (f"Unicode {result['unicode_version']}: {result['clusters']:,} grapheme clusters, "
                f"{result['codepoints']:,} code points, {result['bytes']:,} bytes, {result['lines']:,} line breaks")
    lines = [f"Unicode {result['unicode_version']}: {len(result['clusters'])} grapheme clusters"]
    for d in result["details"]:
        lines.append(f"{d['start']:>5}-{d['end']:<5} {d['text']!r:<12} {d['hex']:<24} {', '.join(d['codepoints'])}")
    return "\n".join(lines)


def register(sub: argparse._SubParsersAction) -> None:
    g = sub.add_parser("graphemes", help="grapheme clusters of a text (UAX #29)")
    src = g.add_mutually_exclusive_group(required=True)
    src.add_argument("--text")
    src.add_argument("--file", help=f"a UTF-8 file (up to {limits.MAX_STEP_TEXT_BYTES:,} bytes without "
                                    "--summary/--jsonl; any size with them)")
    mode = g.add_mutually_exclusive_group()
    mode.add_argument("--summary", action="store_true", help="stream the file: counts only")
    mode.add_argument("--jsonl", action="store_true", help="stream the file: one JSON line per cluster")
    add_stream_options(g)
    g.add_argument("--json", action="store_true", help="print JSON")
    g.set_defaults(func=_graphemes, table=_graphemes_table)
