"""Where a catalog entry's file is on this machine, and whether it is there.

The catalog (:mod:`core.pretrained.catalog`) declares every tokenizer as data; this module is the one that asks
the machine: the shelf folder (``TOKENIZER_LAB_SHELF``), the path of a member of a shelf archive, the file
inside an installed distribution (``importlib``), and whether that file exists; and what an installed vendor
package declares where the catalog cannot say it as data (:func:`llama4_specials`). It reads no file's content
(:mod:`core.pretrained.zoo` reads and hash-checks) and fetches nothing (:mod:`core.pretrained.shelf` does).
"""
from __future__ import annotations

import os
from importlib import resources
from importlib.util import find_spec
from pathlib import Path

from ..i18n import T_
from .catalog import ZooEntry, ZooError


def shelf_dir() -> Path:
    """Where shelf files are kept: ``TOKENIZER_LAB_SHELF``, else ``~/.cache/tokenizer-lab/shelf``.

    Its own variable (not ``TOKENIZER_LAB_CACHE``, which holds Hub downloads):
    the shelf is installed data, like a package, not a download cache.
    """
    base = os.environ.get("TOKENIZER_LAB_SHELF")
    if base:
        return Path(base)
    return Path(os.path.expanduser("~")) / ".cache" / "tokenizer-lab" / "shelf"


def shelf_path(entry: ZooEntry, member: str | None = None) -> Path:
    """Where ``member`` (default: the entry's file) of a shelf entry is kept on disk."""
    if entry.shelf is None or not entry.package or not entry.file:
        raise ZooError(T_("{id} is not a shelf entry", id=entry.id))
    return shelf_dir() / f"{entry.package}-{entry.shelf.version}" / (member or entry.file)


def entry_path(entry: ZooEntry) -> Path:
    """The entry's file on disk; :class:`ZooError` when it has none or its package is not installed."""
    if entry.file is None:
        raise ZooError(T_("{id} has no file", id=entry.id))
    if entry.shelf is not None:
        return shelf_path(entry)
    if entry.package is None:
        return Path(entry.file)
    if find_spec(entry.package) is None:
        raise ZooError(T_("{id}: package {package} is not installed (pip install -r requirements.txt)", id=entry.id,
                          package=repr(entry.package)))
    return Path(str(resources.files(entry.package).joinpath(entry.file)))


def is_available(entry: ZooEntry) -> bool:
    """True when the entry is built in or its file is present (does not load or hash it)."""
    if entry.built_in:
        return True
    try:
        return entry_path(entry).is_file()
    except ZooError:
        return False


def llama4_specials(n_base: int) -> dict[str, int]:
    """Llama 4's 2,048 special tokens, taken from the installed llama-models package."""
    from llama_models.llama4 import tokenizer as l4  # light module: tiktoken + stdlib

    names = l4.BASIC_SPECIAL_TOKENS + l4.LLAMA4_SPECIAL_TOKENS
    names = names + [f"<|reserved_special_token_{i}|>" for i in range(2048 - len(names))]
    return {name: n_base + i for i, name in enumerate(names)}
