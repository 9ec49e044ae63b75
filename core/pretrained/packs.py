"""Packed tokenizers: each catalog entry converted once into the form its backend loads fastest, kept on disk.

Building an adapter from its source file can cost seconds: a GGUF
vocabulary is read and converted (Gemma 4: 262k pieces, 515k merges), a
``tokenizer.json`` is parsed twice (the library, and Python for the facts
the adapter answers), per-id byte tables are derived piece by piece. The
adapter's :meth:`~core.pretrained.adapter.PretrainedTokenizer.packed` gives
the result of that work; this module keeps it under
``<shelf dir>/packed/<source sha256>-<entry id>-<code key>.pack`` (written
atomically: temp file, then rename; the newest three code versions of an
entry are kept) and reads it back, checked, on later loads.

A pack is used only when all of these hold, else the zoo builds from the
source again and writes a new pack:

- its header names the same source sha256, entry and code (a fingerprint of
  the entry's catalog line and of this package's and ``core/text``'s
  source files: a fixed conversion bug never survives in an old pack);
- the sha256 of its body matches the header's;
- an unpacker of its kind is registered and accepts it (the adapter checks
  its library's version there).

The source file itself is still read and checked by the zoo on every load,
so what runs is what was pinned. Nothing here names a backend.

``TOKENIZER_LAB_PACKS=0`` in the environment turns packs off (no read, no
write): every load builds from the source, as before packs existed
(``bench/shelf.py`` times both paths that way).
"""
from __future__ import annotations

import hashlib
import json
import os
import struct
from functools import lru_cache
from pathlib import Path

from ..text.limits import read_json
from .adapter import UNPACKERS, Packed, PretrainedTokenizer
from .catalog import ZooEntry
from .locate import shelf_dir
from .shelf import write_atomic

#: First bytes of a pack file (the format of the container, not of any backend's parts).
MAGIC = b"TLPACK1\n"
_HEAD = struct.Struct("<Q")


def pack_dir() -> Path:
    """Where packs are kept: ``packed/`` in the shelf directory."""
    return shelf_dir() / "packed"


def enabled() -> bool:
    """Whether packs are used: not when ``TOKENIZER_LAB_PACKS`` is ``0`` (read at each call, so a bench can switch)."""
    return os.environ.get("TOKENIZER_LAB_PACKS", "").strip() != "0"


def pack_path(entry: ZooEntry) -> Path | None:
    """The pack file of a pinned entry (None for an entry without a pinned sha256: uploads, baselines, or
    packs turned off)."""
    if not entry.sha256 or not enabled():
        return None
    # the code's fingerprint is in the name too (not only in the header): two checkouts of different code that
    # share the shelf keep a pack each, instead of rebuilding each other's on every load
    return pack_dir() / f"{entry.sha256}-{entry.id}-{_entry_key(entry)[:16]}.pack"


#: Packs kept per entry and source: the newest few code versions (checkouts side by side, a branch and main).
KEEP_VERSIONS = 3


def _prune(entry: ZooEntry, keep: Path) -> None:
    """Remove the entry's packs of older code versions beyond the newest :data:`KEEP_VERSIONS` (``keep`` stays)."""
    prefix = f"{entry.sha256}-{entry.id}-"
    try:
        mine = [p for p in pack_dir().iterdir() if p.name.startswith(prefix) and p.name.endswith(".pack")
                and len(p.name) == len(prefix) + 16 + len(".pack")]
        mine.sort(key=lambda p: (p != keep, -p.stat().st_mtime))
    except OSError:
        return
    for old in mine[KEEP_VERSIONS:]:
        try:
            old.unlink()
        except OSError:  # another process pruned it first, or the shelf is read-only
            pass


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """sha256 of the source files that build adapters (this package and ``core/text``)."""
    here = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for folder in (here, here.parent / "text"):
        for path in sorted(folder.glob("*.py")):
            h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def _entry_key(entry: ZooEntry) -> str:
    line = repr((entry.id, entry.loader, entry.file, entry.sha256, entry.vocab_size, sorted(entry.options.items(), key=str)))
    return hashlib.sha256(f"{line}\n{code_fingerprint()}".encode()).hexdigest()


def encode_pack(entry: ZooEntry, packed: Packed) -> bytes:
    """The pack file's bytes: magic, header length, JSON header, then the parts end to end."""
    names = sorted(packed.parts)
    body = b"".join(bytes(packed.parts[n]) for n in names)
    header = json.dumps({"source_sha256": entry.sha256, "entry": entry.id, "key": _entry_key(entry),
                         "kind": packed.kind, "meta": packed.meta,
                         "parts": [[n, len(packed.parts[n])] for n in names],
                         "body_sha256": hashlib.sha256(body).hexdigest()}, ensure_ascii=False).encode("utf-8")
    return MAGIC + _HEAD.pack(len(header)) + header + body


def decode_pack(entry: ZooEntry, data: bytes) -> Packed | None:
    """The :class:`Packed` in ``data`` when it is intact and made for ``entry`` by this code, else None."""
    if not data.startswith(MAGIC) or len(data) < len(MAGIC) + _HEAD.size:
        return None
    (size,) = _HEAD.unpack_from(data, len(MAGIC))
    start = len(MAGIC) + _HEAD.size
    try:
        # read_json: a damaged pack nested too deep is refused (LimitError, a ValueError), not a RecursionError
        header = read_json(data[start : start + size], "pack")
        if header["source_sha256"] != entry.sha256 or header["key"] != _entry_key(entry):
            return None
        body = memoryview(data)[start + size :]
        if hashlib.sha256(body).hexdigest() != header["body_sha256"]:
            return None
        parts: dict[str, bytes] = {}
        pos = 0
        for name, length in header["parts"]:
            parts[name] = body[pos : pos + length]  # type: ignore[assignment]  # a view: no copy of the big parts
            pos += length
        if pos != len(body):
            return None
        return Packed(str(header["kind"]), header["meta"], parts)
    except (ValueError, KeyError, TypeError):
        return None


def read(entry: ZooEntry) -> Packed | None:
    """The entry's pack, checked (see the module docstring), or None."""
    path = pack_path(entry)
    if path is None:
        return None
    try:
        data = path.read_bytes()
    except OSError:
        return None
    return decode_pack(entry, data)


def load(entry: ZooEntry) -> PretrainedTokenizer | None:
    """The adapter rebuilt from the entry's pack, or None (no pack, stale, damaged, or refused by its unpacker)."""
    packed = read(entry)
    unpack = UNPACKERS.get(packed.kind) if packed is not None else None
    if packed is None or unpack is None:
        return None
    try:
        return unpack(entry, packed)
    except (ValueError, KeyError, TypeError, IndexError):
        return None


def save(entry: ZooEntry, tok: PretrainedTokenizer) -> Path | None:
    """Write ``tok``'s packed form for later loads; the path, or None when there is nothing to keep or the
    shelf is read-only (a pack only saves time: failing to write one is not an error)."""
    path = pack_path(entry)
    packed = tok.packed() if path is not None else None
    if path is None or packed is None:
        return None
    data = encode_pack(entry, packed)
    try:
        write_atomic(path, data)  # a reader never sees half a pack
    except OSError:
        return None
    _prune(entry, path)
    return path
