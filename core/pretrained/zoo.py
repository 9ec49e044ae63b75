"""The tokenizer zoo: find, check and load the tokenizers the catalog declares, offline.

Loading reads the file's bytes once, checks the hash of exactly those
bytes, then parses them, so what runs is what was checked. Loaded
tokenizers are kept per process in one bounded registry (:func:`load`,
:data:`MAX_LOADED`): pages do not add another cache of tokenizer objects on
top, and per-tokenizer derived data lives in :mod:`core.pretrained.memo`. The declarations themselves are data in
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

import gzip
import hashlib
import importlib
import os
import pkgutil
import re
import threading
from pathlib import Path
from typing import Any, Callable, TypeVar, cast

from ..i18n import T_, message_of
from ..text import limits
from ..text.native import fenced
from . import packs
from .adapter import LOADERS, PretrainedTokenizer, RegisteredLoader
from .catalog import (
    CL100K_PAT,
    ENTRIES,
    LLAMA3_PAT,
    O200K_PAT,
    PRETRAINED_IDS,
    TIKTOKEN_PATTERNS,
    USER_FILE,
    UserKind,
    ZooEntry,
    ZooError,
    get_entry,
)
from .locate import entry_path, is_available
from .shelf import read_member
from .uploads import UPLOADS, detect

__all__ = [
    "CL100K_PAT", "ENTRIES", "LLAMA3_PAT", "O200K_PAT", "PRETRAINED_IDS", "TIKTOKEN_PATTERNS", "ZooEntry",
    "ZooError", "entry_path", "get_entry", "is_available", "load", "load_entry", "load_hub", "load_user_bytes",
    "load_user_file", "read_checked", "resolve",
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
    path = entry_path(entry)
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

_T = TypeVar("_T")

#: Loaded tokenizers kept at once (least recently used first out; the shelf has fewer entries than this, so
#: a server that uses them all keeps them all). An evicted tokenizer is loaded again on its next use.
MAX_LOADED = 48

#: The one registry of tokenizer objects (id -> adapter, most recently used last): pages keep no second copy,
#: and data derived from a tokenizer lives beside it in :func:`core.pretrained.memo.per_tokenizer`.
_cache: dict[str, Any] = {}  # (a dict keeps insertion order: first key = least recently used)
_locks: dict[str, threading.Lock] = {}
_guard = threading.Lock()


def _kept(tokenizer_id: str) -> Any:
    with _guard:
        tok = _cache.pop(tokenizer_id, None)
        if tok is not None:
            _cache[tokenizer_id] = tok  # now the most recently used
        return tok


def load(tokenizer_id: str) -> PretrainedTokenizer:
    """Load a zoo tokenizer once per process (thread-safe) and return its adapter.

    At most :data:`MAX_LOADED` are kept; a tokenizer evicted for a newer one is loaded again when asked for.

    >>> load("cl100k_base").encode_ids("hello world")
    [15339, 1917]
    """
    entry = get_entry(tokenizer_id)
    tok = _kept(entry.id)
    if tok is not None:
        return tok
    with _guard:
        lock = _locks.setdefault(entry.id, threading.Lock())
    with lock:
        tok = _kept(entry.id)
        if tok is None:
            tok = load_entry(entry)
            with _guard:
                _cache[entry.id] = tok
                while len(_cache) > MAX_LOADED:
                    del _cache[next(iter(_cache))]
    return tok


def hold(key: str, build: Callable[[], _T]) -> _T:
    """A tokenizer that is not a catalog entry (a file a command streams, say), kept in the same registry under
    ``key`` (which must say everything the build depends on), built by ``build`` on first use."""
    key = "\0" + key  # never a catalog id
    tok = _kept(key)
    if tok is None:
        tok = build()
        with _guard:
            _cache[key] = tok
            while len(_cache) > MAX_LOADED:
                del _cache[next(iter(_cache))]
    return cast(_T, tok)


def is_loaded(tokenizer_id: str) -> bool:
    """Whether :func:`load` already holds this tokenizer in this process (its next call returns at once)."""
    return tokenizer_id in _cache


def forget(tokenizer_id: str | None = None) -> None:
    """Drop one loaded tokenizer (every one when None) from the registry: its next :func:`load` reads it again."""
    with _guard:
        if tokenizer_id is None:
            _cache.clear()
        else:
            _cache.pop(tokenizer_id, None)


def warm(ids: list[str]) -> list[str]:
    """Load the given installed entries into the process cache, one after another; the ids now loaded.

    Meant for a background thread: an entry that is missing or fails to load is skipped (the page that
    asks for it later shows the message), and a page asking for an entry while it is being warmed waits on
    the same per-entry lock as :func:`load` instead of loading it a second time.
    """
    done = []
    for tid in ids:
        entry = ENTRIES.get(tid)
        if entry is None or not is_available(entry):
            continue
        try:
            load(tid)
        except (ZooError, ValueError, OSError):
            continue
        done.append(tid)
    return done


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
        tok = loader.build(entry, data, str(entry_path(entry)))
        del data  # the source's bytes are not needed while the pack is written
        packs.save(entry, tok)
    return tok


def prepare(ids: list[str] | None = None) -> list[str]:
    """Build and keep the packed form of the given entries (default: every installed pretrained one).

    ``zoo install`` calls it, so the first use in the app already loads the fast form. The ids whose pack
    is now in place.
    """
    chosen = [get_entry(i) for i in ids] if ids else [e for e in ENTRIES.values() if not e.built_in and is_available(e)]
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
    """Guess the format of an uploaded tokenizer from its content (and name): the formats the adapter modules
    registered (:data:`core.pretrained.uploads.UPLOADS`), by content, then by name, then the fallback."""
    discover_adapters()
    return detect(name, data) or "auto"


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
    discover_adapters()
    described = UPLOADS.get(kind)
    loader = loader_for(kind) if described is not None else None
    if described is None or loader is None:
        raise ZooError(T_("unknown tokenizer file kind {kind}", kind=repr(kind)))
    algorithm, specials = described.label, described.specials
    options = described.options(name, data, pattern) if described.options is not None else {}
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


# ---------------------------------------------------------------------------
# Hugging Face Hub (network, only on request)
# ---------------------------------------------------------------------------

_HUB_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,95}(/[A-Za-z0-9][A-Za-z0-9._-]{0,95})?$")
HUB_TIMEOUT_S = 6.0


def hub_cache_dir() -> Path:
    """The Hugging Face cache ``huggingface_hub`` keeps Hub files in: ``HF_HUB_CACHE``, else ``HF_HOME/hub``, else
    ``~/.cache/huggingface/hub``.

    Read from the environment at each call: ``huggingface_hub`` reads these once, when it is imported, and a
    running app (or a test) that changes them must be followed. The layout inside is the library's own
    (``models--ORG--NAME/refs``, ``snapshots``, ``blobs``), so files downloaded by ``transformers`` serve here too.
    """
    explicit = os.environ.get("HF_HUB_CACHE") or os.environ.get("HUGGINGFACE_HUB_CACHE")
    if explicit:
        return Path(explicit)
    home = os.environ.get("HF_HOME") or os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache"), "huggingface")
    return Path(home) / "hub"


def hub_offline() -> bool:
    """``HF_HUB_OFFLINE`` set (huggingface_hub's truthy values), read now rather than at its import."""
    return os.environ.get("HF_HUB_OFFLINE", "").strip().upper() in ("1", "ON", "YES", "TRUE")


def _unreachable(repo_id: str, reason: object) -> ZooError:
    reason = message_of(reason) if isinstance(reason, BaseException) else str(reason)
    return ZooError(T_("cannot reach huggingface.co to fetch {id} ({reason}); you seem to be offline: upload its "
                       "tokenizer.json instead", id=repo_id, reason=reason.splitlines()[0] if reason else ""))


def load_hub(repo_id: str, *, timeout: float = HUB_TIMEOUT_S) -> PretrainedTokenizer:
    """A tokenizer.json from the Hugging Face Hub through ``huggingface_hub`` (its cache, its download).

    Served from the Hugging Face cache (:func:`hub_cache_dir`) when it is there. Offline (``HF_HUB_OFFLINE``
    set, or no route to huggingface.co) and not cached: :class:`ZooError` with a message that says so and
    suggests uploading the file instead. Before downloading, the file's size is asked from the Hub and a file
    above the tokenizer file limit is refused (nothing is fetched). Never waits longer than ``timeout``
    seconds.
    """
    if not _HUB_ID.match(repo_id) or ".." in repo_id:
        raise ZooError(T_("{id} is not a Hugging Face model id (like 'xlm-roberta-base' or 'org/name')",
                          id=repr(repo_id)))
    from huggingface_hub import try_to_load_from_cache

    cache = hub_cache_dir()
    found = try_to_load_from_cache(repo_id, "tokenizer.json", cache_dir=cache)
    if not isinstance(found, str):  # None (never fetched) or the library's marker for a known-missing file
        if hub_offline():
            raise ZooError(T_("offline (HF_HUB_OFFLINE is set) and {id} is not cached; upload its tokenizer.json "
                              "instead", id=repo_id))
        found = _hub_download(repo_id, cache, timeout)
    cached = Path(found)
    cap = limits.MAX_TOKENIZER_FILE_BYTES
    if cached.stat().st_size > cap:
        raise _too_big(repo_id, cached.stat().st_size, cap)
    data = cached.read_bytes()
    tok = load_user_bytes(repo_id.split("/")[-1] + ".json", data, kind="hf-json")
    tok.entry = ZooEntry(f"hf:{repo_id}", repo_id, "Hugging Face Hub tokenizer.json", tok.vocab_size, "hf-json", None,
                         str(cached), sha256_hex(data), T_("see the model card"), tok.entry.specials, offline=False)
    return tok


def _too_big(repo_id: str, size: int, cap: int) -> ZooError:
    return ZooError(T_("{id}: tokenizer.json is {size:,} bytes; the limit for a tokenizer file is {limit:,} bytes",
                       id=repo_id, size=size, limit=cap))


def _hub_download(repo_id: str, cache: Path, timeout: float) -> str:
    """Ask the Hub for tokenizer.json's size, refuse it above the limit, else let ``huggingface_hub`` download it
    into ``cache``; the whole exchange within ``timeout`` seconds (DNS included: it runs in a helper thread)."""
    cap = limits.MAX_TOKENIZER_FILE_BYTES
    box: dict[str, object] = {}

    def run() -> None:
        from huggingface_hub import get_hf_file_metadata, hf_hub_download, hf_hub_url

        try:
            meta = get_hf_file_metadata(hf_hub_url(repo_id, "tokenizer.json"), timeout=timeout)
            if meta.size is None:  # the Hub always says; without it the limit could not hold before the download
                raise ZooError(T_("{id}: the Hub did not say how big tokenizer.json is; not downloaded", id=repo_id))
            if meta.size > cap:
                raise _too_big(repo_id, meta.size, cap)
            path = hf_hub_download(repo_id, "tokenizer.json", cache_dir=cache, etag_timeout=timeout)
            box["path"] = str(path)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller below, re-raised in its thread
            box["error"] = exc

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout + 1.0)
    if worker.is_alive():
        raise _unreachable(repo_id, T_("no answer within {seconds:g} s", seconds=float(timeout)))
    exc = box.get("error")
    if exc is None:
        return box["path"]  # type: ignore[return-value]
    from huggingface_hub import errors

    if isinstance(exc, ZooError):
        raise exc
    if isinstance(exc, errors.HfHubHTTPError) and getattr(exc, "response", None) is not None:
        raise ZooError(T_("{id}: the Hub answered {code} for tokenizer.json (no such model, gated, or no fast "
                          "tokenizer)", id=repo_id, code=str(exc.response.status_code))) from None
    if isinstance(exc, (OSError, TimeoutError, errors.HTTPError)):  # refused, DNS, TLS, timeouts, the library's
        # offline errors (LocalEntryNotFoundError, OfflineModeIsEnabled are OSErrors)
        raise _unreachable(repo_id, exc) from None
    raise exc  # type: ignore[misc]


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
    spec = spec.strip()  # one rule for every command: " cl100k_base\t" names cl100k_base
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
