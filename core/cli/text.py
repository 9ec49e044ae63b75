"""``python -m core graphemes``: grapheme clusters of a text (UAX #29), with code points and bytes."""
from __future__ import annotations

import argparse
from typing import Any

from ..text.units import UNICODE_VERSION, codepoint_info, graphemes, utf8_hex
from .common import text_arg


def _graphemes(args: argparse.Namespace) -> dict[str, Any]:
    text = text_arg(args)
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


def _graphemes_table(result: dict[str, Any]) -> str:
    lines = [f"Unicode {result['unicode_version']}: {len(result['clusters'])} grapheme clusters"]
    for d in result["details"]:
        lines.append(f"{d['start']:>5}-{d['end']:<5} {d['text']!r:<12} {d['hex']:<24} {', '.join(d['codepoints'])}")
    return "\n".join(lines)


def register(sub: argparse._SubParsersAction) -> None:
    g = sub.add_parser("graphemes", help="grapheme clusters of a text (UAX #29)")
    src = g.add_mutually_exclusive_group(required=True)
    src.add_argument("--text")
    src.add_argument("--file")
    g.add_argument("--json", action="store_true", help="print JSON")
    g.set_defaults(func=_graphemes, table=_graphemes_table)
