"""What every subcommand group shares: the one-line user error, the argparse class, reading text input."""
from __future__ import annotations

import argparse
from pathlib import Path


class CliError(Exception):
    """A user-facing error: printed as one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # noqa: D401 - argparse hook
        """Report a usage error as one line (argparse prints usage + exits 2)."""
        self.exit(2, f"error: {message}\n")


def read_text_file(path: str) -> str:
    """Read a UTF-8 text file or raise :class:`CliError` with a one-line reason."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror or exc}") from None
    if b"\x00" in raw:
        raise CliError(f"{path} looks like a binary file (it contains NUL bytes)")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CliError(f"{path} is not valid UTF-8 (byte {exc.start}: {raw[exc.start]:#04x})") from None


def text_arg(args: argparse.Namespace) -> str:
    """The input text from ``--text`` or ``--file`` (whichever was given)."""
    if getattr(args, "text", None) is not None:
        return args.text
    if getattr(args, "file", None):
        return read_text_file(args.file)
    raise CliError("give --text or --file")
