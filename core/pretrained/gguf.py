"""A small reader for the metadata of a GGUF file (the format llama.cpp stores models in).

Only the header and the key/value metadata are read; tensor infos and
tensor data are ignored (the vocabulary files of llama.cpp's test suite
carry no tensors at all). The layout follows the published specification
(ggml-org/ggml ``docs/gguf.md``): little-endian; ``GGUF`` magic, a uint32
version (2 or 3), uint64 tensor count, uint64 key/value count, then each
key as a uint64-length-prefixed UTF-8 string, a uint32 value type and the
value. Arrays of numbers come back as numpy arrays (one ``frombuffer`` call,
so a 262k-entry score table costs nothing); arrays of strings as a list of
``str`` read in one pass over a ``memoryview``.

This module does not tokenize or convert: :mod:`core.pretrained.gguf_convert` does.
"""
from __future__ import annotations

import struct
from typing import Any

import numpy as np

from ..i18n import T_
from ..text.errors import UserError

MAGIC = b"GGUF"

# value type -> (struct code, numpy dtype) for the fixed-size scalars
_SCALARS: dict[int, tuple[str, str]] = {
    0: ("<B", "<u1"),
    1: ("<b", "<i1"),
    2: ("<H", "<u2"),
    3: ("<h", "<i2"),
    4: ("<I", "<u4"),
    5: ("<i", "<i4"),
    6: ("<f", "<f4"),
    7: ("<?", "<u1"),
    10: ("<Q", "<u8"),
    11: ("<q", "<i8"),
    12: ("<d", "<f8"),
}
_STRING = 8
_ARRAY = 9


class GGUFError(UserError):
    """The bytes are not a GGUF file this reader understands."""


class _Cursor:
    """Reads little-endian values from a buffer, raising :class:`GGUFError` when it runs out."""

    def __init__(self, data: bytes) -> None:
        self.buf = memoryview(data)
        self.pos = 0

    def unpack(self, fmt: str) -> Any:
        size = struct.calcsize(fmt)
        if self.pos + size > len(self.buf):
            raise GGUFError(T_("truncated at byte {offset}", offset=self.pos))
        (value,) = struct.unpack_from(fmt, self.buf, self.pos)
        self.pos += size
        return value

    def string(self) -> str:
        n = self.unpack("<Q")
        end = self.pos + n
        if end > len(self.buf):
            raise GGUFError(T_("string of {count} bytes runs past the end at byte {offset}", count=n, offset=self.pos))
        raw = bytes(self.buf[self.pos : end])
        self.pos = end
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            # subtle: a few vocabularies store pieces that are not valid UTF-8; keep every byte
            return raw.decode("utf-8", errors="surrogateescape")

    def strings(self, count: int) -> list[str]:
        buf, pos, n_buf = self.buf, self.pos, len(self.buf)
        out: list[str] = []
        append = out.append
        unpack = struct.unpack_from
        for _ in range(count):
            if pos + 8 > n_buf:
                raise GGUFError(T_("truncated string array at byte {offset}", offset=pos))
            (n,) = unpack("<Q", buf, pos)
            pos += 8
            end = pos + n
            if end > n_buf:
                raise GGUFError(T_("string of {count} bytes runs past the end at byte {offset}", count=n, offset=pos))
            raw = bytes(buf[pos:end])
            try:
                append(raw.decode("utf-8"))
            except UnicodeDecodeError:
                append(raw.decode("utf-8", errors="surrogateescape"))
            pos = end
        self.pos = pos
        return out

    def value(self, vtype: int) -> Any:
        if vtype in _SCALARS:
            v = self.unpack(_SCALARS[vtype][0])
            return bool(v) if vtype == 7 else v
        if vtype == _STRING:
            return self.string()
        if vtype == _ARRAY:
            itype = self.unpack("<I")
            count = self.unpack("<Q")
            if itype in _SCALARS:
                dtype = np.dtype(_SCALARS[itype][1])
                nbytes = dtype.itemsize * count
                if self.pos + nbytes > len(self.buf):
                    raise GGUFError(T_("array of {count} values runs past the end at byte {offset}", count=count,
                                       offset=self.pos))
                arr = np.frombuffer(self.buf, dtype=dtype, count=count, offset=self.pos).copy()
                self.pos += nbytes
                return arr.astype(bool) if itype == 7 else arr
            if itype == _STRING:
                return self.strings(count)
            if itype == _ARRAY:
                return [self.value(_ARRAY) for _ in range(count)]  # nested arrays: rare, never in vocab files
            raise GGUFError(T_("unknown array element type {type} at byte {offset}", type=str(itype), offset=self.pos))
        raise GGUFError(T_("unknown value type {type} at byte {offset}", type=str(vtype), offset=self.pos))


def read_metadata(data: bytes, *, prefix: str = "") -> dict[str, Any]:
    """The key/value metadata of a GGUF file, optionally only keys starting with ``prefix``.

    Keys outside ``prefix`` are still parsed (the format has no index to
    skip by) but not kept. Raises :class:`GGUFError` on anything malformed.

    >>> blob = b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + struct.pack("<Q", 1) + b"k" + struct.pack("<IQ", 8, 2) + b"hi"
    >>> read_metadata(blob)
    {'k': 'hi'}
    """
    if data[:4] != MAGIC:
        raise GGUFError(T_("not a GGUF file (no 'GGUF' magic at the start)"))
    cur = _Cursor(data)
    cur.pos = 4
    version = cur.unpack("<I")
    if version not in (2, 3):
        raise GGUFError(T_("GGUF version {version} is not supported (2 and 3 are)", version=str(version)))
    cur.unpack("<Q")  # tensor count: not needed
    n_kv = cur.unpack("<Q")
    out: dict[str, Any] = {}
    for _ in range(n_kv):
        key = cur.string()
        vtype = cur.unpack("<I")
        value = cur.value(vtype)
        if key.startswith(prefix):
            out[key] = value
    return out
