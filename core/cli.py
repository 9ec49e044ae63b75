"""``python -m core``: every analysis the app shows, as JSON or a table.

Subcommands live next to the engine piece they expose; each module below
offers ``register(subparsers)`` which adds its parsers and sets ``func``
(a callable taking the parsed args and returning a JSON-able object) and
optionally ``table`` (a callable turning that object into readable text).

Errors that come from the user's input are reported as one line on stderr
with exit status 2, never a traceback.
"""
from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path
from typing import Any, Callable, Sequence

from .units import UNICODE_VERSION, codepoint_info, graphemes, utf8_hex

#: Modules that add subcommands (each has ``register(subparsers)``).
_COMMAND_MODULES = ("core.cli_bpe", "core.zoo_cli", "core.algos_cli", "core.train_cli", "core.inspect_cli")


class CliError(Exception):
    """A user-facing error: printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # noqa: D401 - argparse hook
        """Report a usage error as one line (argparse prints usage + exits 2)."""
        self.exit(2, f"error: {message}\n")


def read_text_file(path: str) -> str:
    """Read a UTF-8 text file or raise :class:`CliError` with a one-line reason."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror or exc}") from None
    if b"\x00" in raw:
        raise CliError(f"{path} looks like a binary file (it contains NUL bytes)")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CliError(f"{path} is not valid UTF-8 (byte {exc.start}: {raw[exc.start]:#04x})") from None


def text_arg(args: argparse.Namespace) -> str:
    """The input text from ``--text`` or ``--file`` (whichever was given)."""
    if getattr(args, "text", None) is not None:
        return args.text
    if getattr(args, "file", None):
        return read_text_file(args.file)
    raise CliError("give --text or --file")


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


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m core", description="Tokenizer Lab engine: analyses as JSON or tables.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    g = sub.add_parser("graphemes", help="grapheme clusters of a text (UAX #29)")
    src = g.add_mutually_exclusive_group(required=True)
    src.add_argument("--text")
    src.add_argument("--file")
    g.add_argument("--json", action="store_true", help="print JSON")
    g.set_defaults(func=_graphemes, table=_graphemes_table)
    for name in _COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Callable[[argparse.Namespace], Any] = args.func
    try:
        result = func(args)
    except CliError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        if getattr(args, "json", False) or getattr(args, "table", None) is None:
            json.dump(result, sys.stdout, ensure_ascii=False, indent=2)
            sys.stdout.write("\n")
        else:
            print(args.table(result))
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into `head`
        sys.stderr.close()
    return 0
