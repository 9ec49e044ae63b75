"""``python -m core``: every analysis the app shows, as JSON or a table.

The top wing: it may import every other one, and nothing in ``core`` imports it
(only ``core/__main__.py``). Pages never import it either.

One module per group of subcommands, listed in :data:`GROUPS` (a plain
list: adding a group is one import and one entry). Each module offers
``register(subparsers)``, which adds its parsers and sets ``func`` (a
callable taking the parsed args and returning a JSON-able object) and
optionally ``table`` (a callable turning that object into readable text):

- :mod:`.text`: ``graphemes``
- :mod:`.bpe`: ``bpe-train``
- :mod:`.zoo`: ``list``, ``tokenize``, ``replay``, ``compare``, ``differences``
- :mod:`.shelf`: ``zoo install``, ``zoo status`` (fetch the checkpoint shelf once)
- :mod:`.algorithms`: ``wordpiece``, ``unigram``, ``normalize``, ``pretokenize``
- :mod:`.training`: ``train``, ``evaluate``, ``special-tokens``, ``round-trip``
- :mod:`.inspect`: ``inspect``, ``report``
- :mod:`.vocab`: ``vocab``, ``decode``
- :mod:`.chat`: ``chat``
- :mod:`.chunk`: ``chunk``

Errors that come from the user's input (:class:`core.text.errors.UserError`,
and ``OSError`` from the files named) are reported as one line on stderr with
exit status 2, never a traceback. Anything else is a bug: one line naming the
exception type, exit status 1, and a hint to rerun with
``TOKENIZER_LAB_TRACEBACK=1`` (which prints the traceback). The decision is
made by exception type, never by ``ValueError``.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from typing import Any, Callable, Sequence

from ..i18n import DEFAULT_LANG, LANGS, localize, use_lang
from ..text.errors import UserError
from ..text.native import fenced, hushed_panic_reports
from . import algorithms, bpe, chat, chunk, inspect, shelf, text, training, vocab, zoo
from .common import STREAMED, CliError, _Parser

#: The subcommand groups, in the order ``--help`` lists them.
GROUPS = (text, bpe, zoo, shelf, algorithms, training, inspect, vocab, chat, chunk)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m core", description="Tokenizer Lab engine: analyses as JSON or tables.")
    parser.add_argument("--lang", choices=list(LANGS), default=DEFAULT_LANG,
                        help="language of the human-readable text (verdicts, reasons, reports); JSON keys never change "
                             "(default: %(default)s)")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for group in GROUPS:
        group.register(sub)
    for choice in sub.choices.values():  # also accepted after the subcommand: python -m core inspect --lang bn
        try:
            choice.add_argument("--lang", choices=list(LANGS), default=argparse.SUPPRESS,
                                help="language of the human-readable text (default: en)")
        except argparse.ArgumentError:  # the subcommand has its own --lang (argparse refuses a second one)
            pass
    return parser


def _one_line(exc: BaseException) -> str:
    """The error as one line (a message with line breaks is joined; an empty one names the error type), in the
    language of ``--lang`` when core raised it with a :class:`core.i18n.Message` (English by default)."""
    message = localize(exc)
    text = " ".join(message.split()) if message.strip() else type(exc).__name__
    return text[:500]


#: Set (to anything but "" or "0") to have an internal error print its traceback.
TRACEBACK_ENV = "TOKENIZER_LAB_TRACEBACK"


def _internal_error(exc: BaseException) -> int:
    """A bug (not the user's input): one line with a hint, or the traceback when :data:`TRACEBACK_ENV` asks."""
    if os.environ.get(TRACEBACK_ENV, "") not in ("", "0"):
        traceback.print_exception(exc, file=sys.stderr)
    else:
        print(f"internal error ({type(exc).__name__}): {_one_line(exc)} (run with {TRACEBACK_ENV}=1 for the "
              "traceback)", file=sys.stderr)
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Callable[[argparse.Namespace], Any] = args.func
    with use_lang(args.lang):
        return _run(args, func)


def _run(args: argparse.Namespace, func: Callable[[argparse.Namespace], Any]) -> int:
    try:
        # a native library's panic is one line too (bad input is an error, not a crash), without Rust's report above it
        with hushed_panic_reports(), fenced(args.command):
            result = func(args)
    except BrokenPipeError:  # streamed output piped into `head`
        sys.stderr.close()
        return 0
    except (UserError, CliError, OSError) as exc:
        print(f"error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - a bug, not the user's input: exit 1 with the hint
        return _internal_error(exc)
    if result is STREAMED:
        return 0
    try:
        if getattr(args, "json", False) or getattr(args, "table", None) is None:
            # one write: json.dump writes each small piece on its own (2 million writes for a long differences list)
            sys.stdout.write(json.dumps(result, ensure_ascii=False, indent=2) + "\n")
        else:
            print(args.table(result))
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into `head`
        sys.stderr.close()
    return 0
