"""The tokenizer zoo: find, check and load the tokenizers the catalog declares, offline.

Loading reads the file's bytes once, checks the hash of exactly those
bytes, then parses them, so what runs is what was checked. Loaded
tokenizers are cached per process (one layer: pages do not add another
cache on top). The declarations themselves are data in
:mod:`core.pretrained.catalog` (re-exported here: ``zoo.ENTRIES``).

Users can add their own tokenizers (:func:`load_user_file`,
:func:`load_user_bytes`): a Hugging Face ``tokenizer.json``, a ``.tiktoken``
ranks file with a chosen split pattern, a SentencePiece ``.model`` (or a
Tekken ``.json``); and a Hugging Face Hub id (:func:`load_hub`), the only
path that may touch the network, with a short timeout and a clear message
when offline.

Every :class:`ZooError` carries a :class:`core.i18n.Message`: English for the
CLI, shown in the reader's language by the pages.

This module does not tokenize; the adapters (:mod:`core.pretrained.adapter`) do.
"""
from __future__ import annotations

import base64
import binascii
import gzip
import hashlib
import json
import os
import re
import tempfile
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import cast

from ..i18n import T_, message_of
from ..text import limits
from ..text.native import fenced
from .adapter import PretrainedTokenizer
from .baseline_adapter import BaselineTokenizer
from .catalog import (
    CL100K_PAT,
    CONTROL_PIECES,
    ENTRIES,
    LLAMA3_PAT,
    O200K_PAT,
    PRETRAINED_IDS,
    SPECIAL_NOTE,
    SPECIALS_AS_TEXT,
    TEKKEN_SPECIALS,
    TIKTOKEN_PATTERNS,
    USER_FILE,
    UserKind,
    ZooEntry,
    ZooError,
    get_entry,
    llama3_specials,
    llama4_specials,
)
from .clip_adapter import ClipTokenizer
from .hf_adapter import HFTokenizer
from .sentencepiece_adapter import SentencePieceTokenizer
from .shelf import read_member
from .tiktoken_adapter import TiktokenTokenizer

__all__ = [
    "CL100K_PAT", "ENTRIES", "LLAMA3_PAT", "O200K_PAT", "PRETRAINED_IDS", "TIKTOKEN_PATTERNS", "ZooEntry",
    "ZooError", "get_entry", "load", "load_entry", "load_hub", "load_user_bytes", "load_user_file", "read_checked",
    "resolve",
]  # fmt: skip


# ---------------------------------------------------------------------------
# Reading and checking files
# ---------------------------------------------------------------------------


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_checked(entry: ZooEntry) -> bytes:
    """The entry's file content (decompressed for ``.gz``), hash-checked.

    Raises :class:`ZooError` naming the file when it is missing, not valid
    gzip, or its sha256 differs from the pinned one.
    """
    path = entry.path()
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ZooError(T_("{id}: cannot read {path}: {reason}", id=entry.id, path=str(path),
                          reason=exc.strerror or str(exc))) from None
    data = raw
    if path.name.endswith(".gz"):
        try:
            data = gzip.decompress(raw)
        except (OSError, EOFError, gzip.BadGzipFile) as exc:
            raise ZooError(T_("{id}: {path} is corrupt (not valid gzip: {reason})", id=entry.id, path=str(path),
                              reason=str(exc))) from None
    if entry.sha256 is not None:
        actual = sha256_hex(data)
        if actual != entry.sha256:
            raise ZooError(T_("{id}: {path} failed its hash check (sha256 {actual}..., pinned {pinned}...); the file "
                              "was modified or a different package version is installed", id=entry.id, path=str(path),
                              actual=actual[:16], pinned=entry.sha256[:16]))
    return data


def parse_tiktoken_ranks(data: bytes, where: str) -> dict[bytes, int]:
    """Parse a ``.tiktoken`` file (``base64 rank`` per line) into a ranks table.

    Checked so the engine never sees a table it would crash or stall on:
    at most :data:`core.text.limits.MAX_TOKENIZER_FILE_BYTES`, no token
    listed twice, ranks unique, dense and below 2^31
    (:func:`core.text.limits.check_ids`), and all 256 single bytes present
    (byte-level BPE starts from them; without one, some text has no tokens).
    """
    if len(data) > limits.MAX_TOKENIZER_FILE_BYTES:
        raise ZooError(T_("{where} is {size:,} bytes; the limit for a tokenizer file is {limit:,}", where=where,
                          size=len(data), limit=limits.MAX_TOKENIZER_FILE_BYTES))
    ranks: dict[bytes, int] = {}
    lineno = 0
    a2b = binascii.a2b_base64
    try:
        for lineno, line in enumerate(data.splitlines(), 1):  # noqa: B007 - the except below names the line
            if not line:
                continue
            tok, rank = line.split()
            # subtle: Whisper's multilingual file spells its one empty token as "=" (tiktoken accepts it);
            # strict base64 refuses "=", so that is the only way to an empty token
            piece = a2b(tok, strict_mode=True) if tok != b"=" else b""
            size = len(ranks)
            ranks[piece] = int(rank)
            if len(ranks) == size:  # one dict operation per line, not a lookup and then a store
                raise ValueError(T_("token {token} is listed twice", token=repr(piece)))
    except (ValueError, TypeError) as exc:  # binascii.Error is a ValueError
        raise ZooError(T_("{where} is not a valid .tiktoken ranks file (line {line}: {reason})", where=where,
                          line=lineno, reason=message_of(exc))) from None
    if not ranks:
        raise ZooError(T_("{where} is empty: no ranks", where=where))
    try:
        limits.check_ids(ranks.values(), where, what=T_("rank"))
    except limits.LimitError as exc:
        raise ZooError(message_of(exc)) from None
    missing = [b for b in range(256) if bytes([b]) not in ranks]
    if missing:
        raise ZooError(T_("{where} is not a byte-level ranks table: {count} of the 256 single bytes have no rank "
                          "(first: {first})", where=where, count=len(missing), first="%#04x" % missing[0]))
    return ranks


def parse_tekken(data: bytes, where: str) -> tuple[dict[bytes, int], str, dict[str, int]]:
    """A Tekken JSON file as (ranks shifted to final ids, pattern, specials).

    Tekken keeps the first ``default_num_special_tokens`` ids for control
    tokens and shifts every byte-level token up by that many; the inner
    vocabulary is cut to ``default_vocab_size - num_special``. Shifting all
    ranks by a constant keeps their order, so the BPE result is unchanged
    and the ids come out final.
    """
    try:
        obj = json.loads(data)
        config = obj["config"]
        n_special = int(config["default_num_special_tokens"])
        n_inner = int(config["default_vocab_size"]) - n_special
        pattern = config["pattern"]
        vocab = obj["vocab"][:n_inner]
        ranks = {base64.b64decode(v["token_bytes"]): int(v["rank"]) + n_special for v in vocab}
        special_list = obj.get("special_tokens")
    except (ValueError, KeyError, TypeError) as exc:
        raise ZooError(T_("{where} is not a valid Tekken tokenizer file ({reason})", where=where,
                          reason="%s: %s" % (type(exc).__name__, exc))) from None
    try:
        limits.check_ids(ranks.values(), where, what=T_("rank"))
    except limits.LimitError as exc:
        raise ZooError(message_of(exc)) from None
    if special_list:
        names = {s["token_str"]: int(s["rank"]) for s in special_list}
    else:
        names = {name: i for i, name in enumerate(TEKKEN_SPECIALS)}
    for i in range(n_special):
        if i not in names.values():
            names[f"<SPECIAL_{i}>"] = i
    return ranks, pattern, names


# ---------------------------------------------------------------------------
# Loading (lazy, cached)
# ---------------------------------------------------------------------------

_cache: dict[str, PretrainedTokenizer] = {}
_locks: dict[str, threading.Lock] = {}
_guard = threading.Lock()


def load(tokenizer_id: str) -> PretrainedTokenizer:
    """Load a zoo tokenizer once per process (thread-safe) and return its adapter.

    >>> load("cl100k_base").encode_ids("hello world")
    [15339, 1917]
    """
    entry = get_entry(tokenizer_id)
    tok = _cache.get(entry.id)
    if tok is not None:
        return tok
    with _guard:
        lock = _locks.setdefault(entry.id, threading.Lock())
    with lock:
        tok = _cache.get(entry.id)
        if tok is None:
            tok = _cache[entry.id] = load_entry(entry)
    return tok


def load_entry(entry: ZooEntry) -> PretrainedTokenizer:
    """Build the adapter for ``entry`` without caching (tests use this on tampered copies)."""
    try:
        with fenced(entry.id):  # a panic while parsing a damaged file is a message (issue 16)
            return _build(entry)
    except ZooError:
        raise
    except ValueError as exc:  # a parser's complaint about the file: keep it one line, naming the file
        raise ZooError(T_("{id}: {error}", id=entry.id, error=message_of(exc))) from None


def _build(entry: ZooEntry) -> PretrainedTokenizer:
    if entry.loader == "baseline":
        return BaselineTokenizer.for_id(entry)
    data = read_member(entry) if entry.shelf is not None else read_checked(entry)
    where = str(entry.path())
    if entry.loader == "gguf":
        from . import convert
        from .gguf import read_metadata

        kind, payload = convert.from_gguf(read_metadata(data, prefix="tokenizer.ggml."), pre=entry.options.get("pre"))  # type: ignore[arg-type]
        if kind == "sentencepiece":
            return SentencePieceTokenizer.from_bytes(entry, payload, where)
        return HFTokenizer.from_bytes(entry, payload, where)
    if entry.loader == "clip-bpe":
        from .convert import clip_to_hf_json

        return ClipTokenizer.from_bytes(entry, clip_to_hf_json(data.decode("utf-8")), where)
    if entry.loader == "tiktoken":
        ranks = parse_tiktoken_ranks(data, where)
        fn = entry.options.get("specials_fn")
        if fn == "llama3":
            specials = llama3_specials(len(ranks))
        elif fn == "llama4":
            specials = llama4_specials(len(ranks))
        else:
            specials = dict(cast("dict[str, int]", entry.options.get("specials", {})))
        return TiktokenTokenizer(entry, ranks, str(entry.options["pattern"]), specials)
    if entry.loader == "tekken":
        ranks, pattern, specials = parse_tekken(data, where)
        return TiktokenTokenizer(entry, ranks, pattern, specials)
    if entry.loader == "sentencepiece":
        return SentencePieceTokenizer.from_bytes(entry, data, where)
    if entry.loader == "hf-json":
        limits.parse_tokenizer_json(data, where)
        return HFTokenizer.from_bytes(entry, data, where)
    raise ZooError(T_("{id}: unknown loader {loader}", id=entry.id, loader=repr(entry.loader)))


# ---------------------------------------------------------------------------
# User tokenizers
# ---------------------------------------------------------------------------

def detect_kind(name: str, data: bytes) -> str:
    """Guess the format of an uploaded tokenizer from its content (and name)."""
    head = data[:4096].lstrip()
    if head.startswith(b"{"):
        if b'"config"' in data[:4096] and b'"token_bytes"' in data[:200_000]:
            return "tekken"
        return "hf-json"
    first = head.split(b"\n", 1)[0].split()
    if len(first) == 2 and first[1].isdigit():
        try:
            base64.b64decode(first[0], validate=True)
            return "tiktoken"
        except ValueError:
            pass
    if name.endswith(".json"):
        return "hf-json"
    if name.endswith(".tiktoken"):
        return "tiktoken"
    return "sentencepiece"


def load_user_bytes(
    name: str, data: bytes, *, kind: UserKind = "auto", pattern: str = "cl100k"
) -> PretrainedTokenizer:
    """A tokenizer from an uploaded file's bytes (not cached, no pinned hash).

    ``pattern`` is the split regex for a ``.tiktoken`` file: a name from
    :data:`TIKTOKEN_PATTERNS` or a regex. The sha256 of the content is kept
    on the entry so the user can see exactly which file ran. Any problem is
    a :class:`ZooError` naming the file.
    """
    try:
        with fenced(name):  # a panic while parsing a hostile upload is a message (issue 16)
            return _user_bytes(name, data, kind, pattern)
    except ZooError:
        raise
    except ValueError as exc:
        raise ZooError(message_of(exc)) from None


def _user_bytes(name: str, data: bytes, kind: str, pattern: str) -> PretrainedTokenizer:
    if not data:
        raise ZooError(T_("{name} is empty", name=name))
    limits.check_size(data, max_bytes=limits.MAX_TOKENIZER_FILE_BYTES, what=T_("tokenizer file “{name}”", name=name))
    if kind == "auto":
        kind = detect_kind(name, data)
    digest = sha256_hex(data)
    uid = f"user:{name}"
    if kind == "tiktoken":
        pat = TIKTOKEN_PATTERNS.get(pattern, pattern)
        _check_pattern(pat)
        ranks = parse_tiktoken_ranks(data, name)
        entry = ZooEntry(uid, name, "byte-level BPE (user .tiktoken)", len(ranks), "tiktoken", None, name, digest,
                         USER_FILE, T_("none declared"), {"pattern": pat}, offline=True)
        return TiktokenTokenizer(entry, ranks, pat, {})
    if kind == "tekken":
        limits.check_json_bytes(data, name)
        ranks, pat, specials = parse_tekken(data, name)
        entry = ZooEntry(uid, name, "byte-level BPE (user Tekken)", len(ranks) + len(specials), "tekken", None, name,
                         digest, USER_FILE, SPECIAL_NOTE)
        return TiktokenTokenizer(entry, ranks, pat, specials)
    if kind == "sentencepiece":
        entry = ZooEntry(uid, name, "SentencePiece (user .model)", 0, "sentencepiece", None, name, digest, USER_FILE,
                         CONTROL_PIECES)
        return SentencePieceTokenizer.from_bytes(entry, data, name)
    if kind == "hf-json":
        limits.parse_tokenizer_json(data, name)
        entry = ZooEntry(uid, name, "Hugging Face tokenizer.json (user)", 0, "hf-json", None, name, digest,
                         USER_FILE, SPECIALS_AS_TEXT)
        return HFTokenizer.from_bytes(entry, data, name)
    raise ZooError(T_("unknown tokenizer file kind {kind}", kind=repr(kind)))


def load_user_file(path: str | os.PathLike[str], *, kind: UserKind = "auto", pattern: str = "cl100k") -> PretrainedTokenizer:
    """:func:`load_user_bytes` for a file on disk."""
    p = Path(path)
    try:
        data = limits.read_regular(p, max_bytes=limits.MAX_TOKENIZER_FILE_BYTES, what=T_("tokenizer file"))
    except limits.LimitError as exc:
        raise ZooError(message_of(exc)) from None
    return load_user_bytes(p.name, data, kind=kind, pattern=pattern)


def _check_pattern(pat: str) -> None:
    import regex

    try:
        regex.compile(pat)
    except regex.error as exc:
        raise ZooError(T_("invalid split pattern {pattern}: {reason}", pattern=repr(pat), reason=str(exc))) from None


# ---------------------------------------------------------------------------
# Hugging Face Hub (network, only on request)
# ---------------------------------------------------------------------------

_HUB_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,95}(/[A-Za-z0-9][A-Za-z0-9._-]{0,95})?$")
HUB_TIMEOUT_S = 6.0


def hub_cache_dir() -> Path:
    """Where Hub downloads are kept (``TOKENIZER_LAB_CACHE`` or ``~/.cache/tokenizer-lab``)."""
    base = os.environ.get("TOKENIZER_LAB_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "tokenizer-lab")
    return Path(base) / "hub"


def _hf_hub_cached(repo_id: str) -> Path | None:
    """A tokenizer.json already in the standard Hugging Face cache, if any."""
    home = os.environ.get("HF_HOME") or os.path.join(os.path.expanduser("~"), ".cache", "huggingface")
    snaps = Path(home) / "hub" / ("models--" + repo_id.replace("/", "--")) / "snapshots"
    if snaps.is_dir():
        for snap in sorted(snaps.iterdir()):
            cand = snap / "tokenizer.json"
            if cand.is_file():
                return cand
    return None


def load_hub(repo_id: str, *, timeout: float = HUB_TIMEOUT_S) -> PretrainedTokenizer:
    """A tokenizer.json from the Hugging Face Hub (cached on disk after the first fetch).

    Offline (``HF_HUB_OFFLINE=1`` or no route to huggingface.co) and not
    cached: :class:`ZooError` with a message that says so and suggests
    uploading the file instead. Never waits longer than ``timeout`` seconds.
    """
    if not _HUB_ID.match(repo_id) or ".." in repo_id:
        raise ZooError(T_("{id} is not a Hugging Face model id (like 'xlm-roberta-base' or 'org/name')",
                          id=repr(repo_id)))
    target = hub_cache_dir() / repo_id.replace("/", "--") / "tokenizer.json"
    cached = target if target.is_file() else _hf_hub_cached(repo_id)
    if cached is None:
        if os.environ.get("HF_HUB_OFFLINE", "").strip() not in ("", "0", "false", "False"):
            raise ZooError(T_("offline (HF_HUB_OFFLINE is set) and {id} is not cached; upload its tokenizer.json "
                              "instead", id=repo_id))
        url = f"https://huggingface.co/{repo_id}/resolve/main/tokenizer.json"
        try:
            data = _fetch(url, timeout)
        except urllib.error.HTTPError as exc:
            raise ZooError(T_("{id}: the Hub answered {code} for tokenizer.json (no such model, gated, or no fast "
                              "tokenizer)", id=repo_id, code=str(exc.code))) from None
        except (urllib.error.URLError, OSError, TimeoutError) as exc:
            reason = getattr(exc, "reason", exc)
            reason = message_of(reason) if isinstance(reason, BaseException) else str(reason)
            raise ZooError(T_("cannot reach huggingface.co to fetch {id} ({reason}); you seem to be offline: upload "
                              "its tokenizer.json instead", id=repo_id, reason=reason)) from None
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, target)  # atomic: never a half-written cache file
        cached = target
    data = cached.read_bytes()
    tok = load_user_bytes(repo_id.split("/")[-1] + ".json", data, kind="hf-json")
    tok.entry = ZooEntry(f"hf:{repo_id}", repo_id, "Hugging Face Hub tokenizer.json", tok.vocab_size, "hf-json", None,
                         str(cached), sha256_hex(data), T_("see the model card"), tok.entry.specials, offline=False)
    return tok


def _fetch(url: str, timeout: float, max_bytes: int | None = None) -> bytes:
    """GET ``url`` within ``timeout`` seconds overall (DNS included: it runs in a helper thread).

    At most ``max_bytes`` (default: the tokenizer file limit) are read: a bigger answer, announced by its
    ``Content-Length`` or found while reading, is a :class:`ZooError`, so a Hub id can never fill the
    memory or the disk.
    """
    cap = limits.MAX_TOKENIZER_FILE_BYTES if max_bytes is None else max_bytes
    box: dict[str, object] = {}

    def too_big(size: int | None) -> ZooError:
        if size is None:  # no Content-Length: found while reading
            return ZooError(T_("{url} is bigger than {limit:,} bytes, the limit for a tokenizer file", url=url, limit=cap))
        return ZooError(T_("{url} is {size:,} bytes; the limit for a tokenizer file is {limit:,} bytes", url=url,
                           size=size, limit=cap))

    def run() -> None:
        try:
            with urllib.request.urlopen(url, timeout=timeout) as resp:  # noqa: S310 - fixed https host
                announced = resp.headers.get("Content-Length", "")
                if announced.isdigit() and int(announced) > cap:
                    raise too_big(int(announced))
                data = resp.read(cap + 1)
                if len(data) > cap:
                    raise too_big(None)
                box["data"] = data
        except BaseException as exc:  # noqa: BLE001 - handed to the caller below, re-raised in its thread
            box["error"] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout + 1.0)
    if worker.is_alive():
        raise TimeoutError(T_("no answer within {seconds:g} s", seconds=float(timeout)))
    if "error" in box:
        raise box["error"]  # type: ignore[misc]
    return box["data"]  # type: ignore[return-value]


#: File names a bare path spec may end with (a zoo id never contains a path separator or one of these).
_FILE_SUFFIXES = (".json", ".tiktoken", ".model", ".gz")


def resolve(spec: str, *, pattern: str = "cl100k") -> PretrainedTokenizer:
    """A tokenizer from a CLI/URL spec: a zoo id, ``hf:ORG/NAME``, ``file:PATH`` or a plain file path.

    A spec that is not a zoo id is read as a file path when it names an
    existing file, contains a path separator or ends like a tokenizer file
    (``tok.json``, ``x.tiktoken``, ``m.model``), so ``tokenize``, ``inspect``,
    ``report`` and ``evaluate`` all accept what ``train --out`` wrote. A path
    that does not exist gives the one-line :class:`ZooError` "cannot read …".
    """
    if spec.startswith("hf:"):
        return load_hub(spec[3:])
    if spec.startswith("file:"):
        return load_user_file(spec[5:], pattern=pattern)
    if spec in ENTRIES:
        return load(spec)
    path = Path(spec)
    if path.is_file() or os.sep in spec or "/" in spec or spec.lower().endswith(_FILE_SUFFIXES):
        return load_user_file(path, pattern=pattern)
    return load(spec)
