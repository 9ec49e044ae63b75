"""What every subcommand group shares: the one-line user error, the argparse class, bounded input, atomic output.

Every path argument goes through :func:`read_text_file` / :func:`read_file_bytes`
(regular files only, with a size limit: :mod:`core.text.limits`), every
number through :func:`int_range`, and every output file through
:func:`write_atomic` (temp file, then rename; a write error is an error).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, NoReturn

from ..text import limits
from ..text.errors import UserError


class CliError(UserError):
    """A user-facing error raised by the CLI itself (a path, a flag): printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """Report a usage error as one line (argparse prints usage + exits 2)."""
        self.exit(2, f"error: {message}\n")


#: Hint added when a step-by-step command is given a file above its limit.
STREAM_HINT = "; for big files use the streaming commands (tokenize --summary/--jsonl, graphemes, compare, evaluate, round-trip)"


def decode_utf8(raw: bytes, path: str) -> str:
    """UTF-8 text of a file's bytes, or :class:`CliError` (NUL bytes, invalid UTF-8) with a one-line reason."""
    if b"\x00" in raw:
        raise CliError(f"{path} looks like a binary file (it contains NUL bytes)")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CliError(f"{path} is not valid UTF-8 (byte {exc.start}: {raw[exc.start]:#04x})") from None


def read_file_bytes(path: str, *, max_bytes: int, what: str = "file", hint: str = "") -> bytes:
    """A regular file's bytes (at most ``max_bytes``) or :class:`CliError` with a one-line reason."""
    try:
        return limits.read_regular(path, max_bytes=max_bytes, what=what, hint=hint)
    except limits.LimitError as exc:
        raise CliError(str(exc)) from None


def read_text_file(path: str, *, max_bytes: int = limits.MAX_STEP_TEXT_BYTES, hint: str = STREAM_HINT) -> str:
    """Read a UTF-8 text file (regular, at most ``max_bytes``) or raise :class:`CliError`."""
    return decode_utf8(read_file_bytes(path, max_bytes=max_bytes, what="text file", hint=hint), path)


def text_arg(args: argparse.Namespace, *, max_bytes: int = limits.MAX_STEP_TEXT_BYTES) -> str:
    """The input text from ``--text`` or ``--file`` (whichever was given), within ``max_bytes``."""
    if getattr(args, "text", None) is not None:
        try:
            limits.check_size(args.text, max_bytes=max_bytes, what="--text")
        except limits.LimitError as exc:
            raise CliError(str(exc)) from None
        return args.text
    if getattr(args, "file", None):
        return read_text_file(args.file, max_bytes=max_bytes)
    raise CliError("give --text or --file")


def int_range(low: int, high: int) -> Callable[[str], int]:
    """An argparse ``type=`` for a whole number in ``[low, high]`` (a clear one-line error otherwise)."""

    def parse(value: str) -> int:
        try:
            n = int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
        if not low <= n <= high:
            raise argparse.ArgumentTypeError(f"{value} must be >= {low:,} and <= {high:,}")
        return n

    parse.__name__ = "whole number"  # argparse names the type in its message
    return parse


#: Folders of kernel pseudo-filesystems: an output file there is never what the user meant.
KERNEL_FOLDERS = ("/dev", "/proc", "/sys")


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temp file in the same folder, then rename.

    A failed write (disk full, ``/dev/full``, no such folder) raises
    :class:`CliError` and leaves no partial file; a device or other
    non-regular target is refused (the rename would replace it).
    """
    p = Path(path)
    folder = Path(os.path.realpath(p.parent if str(p.parent) else "."))
    if any(folder == Path(k) or Path(k) in folder.parents for k in KERNEL_FOLDERS):
        raise CliError(f"cannot write {path}: {folder} is a device or kernel folder, not a place for files")
    if p.exists() and not p.is_file():
        raise CliError(f"cannot write {path}: it exists and is not a regular file")
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if not folder.is_dir():  # never create folders: a typo would scatter files anywhere, even at the root
        raise CliError(f"cannot write {path}: the folder {p.parent} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{p.name}.", suffix=".tmp")
    except OSError as exc:
        raise CliError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes it private; outputs are meant to be shared
        os.replace(tmp, p)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise CliError(f"cannot write {path}: {exc.strerror or exc}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# -- streaming options and progress --------------------------------------------------


#: Returned by a command that wrote its own output (JSON Lines) instead of returning a result to print.
STREAMED = object()


def streamed_summary(summary: dict[str, Any], jsonl: bool) -> Any:
    """End a streamed command: with ``--jsonl`` the summary is the last JSON line (and :data:`STREAMED` is
    returned, so nothing more is printed); otherwise it is the command's result."""
    if not jsonl:
        return summary
    sys.stdout.write(json.dumps({"summary": summary}, ensure_ascii=False) + "\n")
    sys.stdout.flush()
    return STREAMED


def add_stream_options(p: argparse.ArgumentParser) -> None:
    """``--workers N`` and ``--scheduler ADDRESS`` for a streaming command."""
    from ..analysis.stream import default_workers

    p.add_argument("--workers", type=int_range(1, 256), default=default_workers(),
                   help="worker processes for the chunks of a big file (default: the machine's cores, %(default)s)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="send the chunks to a Dask distributed scheduler (e.g. tcp://host:8786) instead of local workers")


def stream_setup(path: str, args: argparse.Namespace) -> tuple[int, int, str | None]:
    """(file size, workers to use, scheduler) for streaming ``path``: a file of one chunk runs in this process."""
    from ..analysis.stream import CHUNK_BYTES, file_size

    try:
        size = file_size(path)
    except limits.LimitError as exc:
        raise CliError(str(exc)) from None
    workers = args.workers if size > CHUNK_BYTES else 1
    return size, workers, args.scheduler


class Progress:
    """A one-line progress bar on stderr (bytes done, rate, time left), drawn only when stderr is a terminal."""

    def __init__(self, total: int, label: str, stream=None) -> None:  # noqa: ANN001 - a text stream
        import sys
        import time

        self.stream = stream if stream is not None else sys.stderr
        self.total = max(total, 1)
        self.label = label
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self._t0 = time.monotonic()
        self._last = 0.0
        self._drawn = False

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        import time

        now = time.monotonic()
        if now - self._last < 0.2 and done < self.total:
            return
        self._last = now
        elapsed = max(now - self._t0, 1e-6)
        rate = done / elapsed
        left = (self.total - done) / rate if rate > 0 else 0.0
        width = 24
        filled = int(width * min(done / self.total, 1.0))
        bar = "#" * filled + "-" * (width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done / 1e6:,.1f}/{self.total / 1e6:,.1f} MB "
                          f"{rate / 1e6:,.1f} MB/s {int(left) // 60}:{int(left) % 60:02d} left ")
        self.stream.flush()
        self._drawn = True

    def close(self) -> None:
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()


def run_streamed(fn, task, chunks, start, *, size: int, label: str, workers: int, scheduler: str | None):  # noqa: ANN001, ANN201
    """Run a shard function whose results are ``(counts, jsonl_text)`` over ``chunks``: write the JSON Lines to
    stdout as they come (in chunk order), draw progress, and return ``start`` plus every ``counts``."""
    import sys

    from ..analysis.stream import run_shards

    progress = Progress(size, label)
    total = start
    for chunk, (counts, lines) in run_shards(fn, task, chunks, workers=workers, scheduler=scheduler):
        total = total + counts
        if lines:
            sys.stdout.write(lines)
        progress.update(chunk.byte_start + chunk.nbytes)
    progress.close()
    return total
