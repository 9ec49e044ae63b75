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

This module does not tokenize and names no backend: each ``core/pretrained/*_adapter.py``
module registers the catalog loaders it serves (:func:`core.pretrained.adapter.register_loader`);
:func:`discover_adapters` imports them all before the first load, and an entry is built by
``LOADERS[entry.loader]``. A new backend is one adapter module plus catalog lines.
"""
from __future__ import annotations

import base64
import gzip
import hashlib
import importlib
import os
import pkgutil
import re
import tempfile
import threading
import urllib.error
import urllib.request
from pathlib import Path

from ..i18n import T_, Message, message_of
from ..text import limits
from ..text.native import fenced
from . import packs
from .adapter import LOADERS, PretrainedTokenizer, RegisteredLoader
from .catalog import (
    CL100K_PAT,
    CONTROL_PIECES,
    ENTRIES,
    LLAMA3_PAT,
    O200K_PAT,
    PRETRAINED_IDS,
    SPECIAL_NOTE,
    SPECIALS_AS_TEXT,
    TIKTOKEN_PATTERNS,
    USER_FILE,
    UserKind,
    ZooEntry,
    ZooError,
    get_entry,
)
from .shelf import read_member

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
        with fenced(entry.id):  # a panic while parsing a damaged file becomes a one-line message, not a crash
            return _build(entry)
    except ZooError:
        raise
    except ValueError as exc:  # a parser's complaint about the file: keep it one line, naming the file
        raise ZooError(T_("{id}: {error}", id=entry.id, error=message_of(exc))) from None


_discovered: tuple[str, ...] | None = None
_discover_lock = threading.Lock()


def adapter_module_names(where: Path | None = None, package: str | None = None) -> list[str]:
    """The ``*_adapter`` modules of a package folder (default: this one, ``core.pretrained.hf_adapter``...),
    found by file name, not imported."""
    package = package or __name__.rpartition(".")[0]
    folder = [str(where or Path(__file__).parent)]
    return sorted(f"{package}.{m.name}" for m in pkgutil.iter_modules(folder) if m.name.endswith("_adapter"))


def discover_adapters() -> tuple[str, ...]:
    """Import every ``*_adapter`` module once (each registers its loaders); the modules' names.

    Called before the first build, so a new ``core/pretrained/foo_adapter.py`` is found without editing
    this module.
    """
    global _discovered
    if _discovered is None:
        with _discover_lock:
            if _discovered is None:
                names = adapter_module_names()
                for name in names:
                    importlib.import_module(name)
                _discovered = tuple(names)
    return _discovered


def loader_for(name: str) -> RegisteredLoader | None:
    """The registered loader called ``name`` (after discovery), None when no adapter module serves it."""
    discover_adapters()
    return LOADERS.get(name)


def _build(entry: ZooEntry) -> PretrainedTokenizer:
    loader = loader_for(entry.loader)
    if loader is None:
        raise ZooError(T_("{id}: unknown loader {loader}", id=entry.id, loader=repr(entry.loader)))
    if not loader.needs_file:
        return loader.build(entry, None, entry.id)
    data = read_member(entry) if entry.shelf is not None else read_checked(entry)
    # The source is read and hash-checked on every load (what runs is what was pinned); its pack, named by
    # that sha256, spares the conversion and the derived tables (seconds for the big vocabularies).
    tok = packs.load(entry)
    if tok is None:
        tok = loader.build(entry, data, str(entry.path()))
        del data  # the source's bytes are not needed while the pack is written
        packs.save(entry, tok)
    return tok


def prepare(ids: list[str] | None = None) -> list[str]:
    """Build and keep the packed form of the given entries (default: every installed pretrained one).

    ``zoo install`` calls it, so the first use in the app already loads the fast form. The ids whose pack
    is now in place.
    """
    chosen = [get_entry(i) for i in ids] if ids else [e for e in ENTRIES.values() if not e.built_in and e.available]
    done = []
    for entry in chosen:
        if packs.read(entry) is None:
            load_entry(entry)  # builds from the source and writes the pack
        if packs.read(entry) is not None:
            done.append(entry.id)
    return done


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


#: The upload kinds (:data:`core.pretrained.catalog.UserKind` without ``auto``): the entry's description and
#: special-token note. Each is also the name of the registered loader that builds it.
_USER_KINDS: dict[str, tuple[str, Message | str]] = {
    "tiktoken": ("byte-level BPE (user .tiktoken)", T_("none declared")),
    "tekken": ("byte-level BPE (user Tekken)", SPECIAL_NOTE),
    "sentencepiece": ("SentencePiece (user .model)", CONTROL_PIECES),
    "hf-json": ("Hugging Face tokenizer.json (user)", SPECIALS_AS_TEXT),
}


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
        with fenced(name):  # a panic while parsing a hostile upload becomes a one-line message, not a crash
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
    described = _USER_KINDS.get(kind)
    loader = loader_for(kind) if described is not None else None
    if described is None or loader is None:
        raise ZooError(T_("unknown tokenizer file kind {kind}", kind=repr(kind)))
    algorithm, specials = described
    options: dict[str, object] = {}
    if kind == "tiktoken":  # the split pattern is the user's choice, checked before the file is parsed
        pat = TIKTOKEN_PATTERNS.get(pattern, pattern)
        _check_pattern(pat)
        options["pattern"] = pat
    elif kind == "tekken":
        limits.check_json_bytes(data, name)
    # vocab_size 0: the adapter fills in the size of what it loaded
    entry = ZooEntry(f"user:{name}", name, algorithm, 0, kind, None, name, sha256_hex(data), USER_FILE, specials,
                     options)
    return loader.build(entry, data, name)


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
