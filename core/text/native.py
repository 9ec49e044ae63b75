"""The fence around native libraries: a Rust panic or a library crash becomes a clear, catchable error.

``tokenizers`` and ``tiktoken`` are Rust (pyo3); a panic inside them raises
``pyo3_runtime.PanicException``, which derives from ``BaseException``, so
no ``except Exception`` catches it and a Streamlit script run dies with no
message (the page stays "Running…"). ``sentencepiece`` is C++ and raises
plain ``RuntimeError``/``OSError``; ``tokenizers`` raises a bare
``Exception`` for its own errors.

Every call into one of these libraries goes through :func:`fenced` (a
context manager) or :func:`fence` (a decorator). Inside, a panic, a bare
``Exception``, a ``RuntimeError`` or a ``MemoryError`` becomes a
:class:`NativeError` (a ``ValueError``) with a one-line message naming what
was running, so pages show it with ``st.error`` and the CLI prints one line
and exits 2. ``KeyboardInterrupt``, ``SystemExit``, ``GeneratorExit`` and
Streamlit's own control-flow exceptions (rerun/stop, which also derive from
``BaseException``) pass through untouched, and so do ordinary ``ValueError``s
(they already carry a message).

The message is a :class:`core.i18n.Message` (English for the CLI, shown
in the reader's language by the pages); ``what`` may be one too
(``T_("WordPiece training")``) or a plain name (a tokenizer id).

This module imports nothing of ``core`` but :mod:`core.i18n` (the same, lowest
rank) and nothing of Streamlit.
"""
from __future__ import annotations

import functools
import os
import re
import sys
import tempfile
from contextlib import contextmanager
from typing import Callable, Iterator, TypeVar

from ..i18n import T_
from .errors import UserError

F = TypeVar("F", bound=Callable)

#: Longest library message kept in a :class:`NativeError` (Rust panics can quote whole inputs).
MAX_MESSAGE_CHARS = 300

_PASS_THROUGH = (KeyboardInterrupt, SystemExit, GeneratorExit)


class NativeError(UserError):
    """A native tokenizer library failed (panic, crash, out of memory) on this input."""


def is_panic(exc: BaseException) -> bool:
    """True for a pyo3 ``PanicException`` (each Rust extension has its own class, so match by name)."""
    return type(exc).__name__ == "PanicException"


def _control_flow(exc: BaseException) -> bool:
    # Streamlit's RerunException / StopException derive from BaseException; never swallow them.
    return isinstance(exc, _PASS_THROUGH) or type(exc).__module__.startswith("streamlit")


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= MAX_MESSAGE_CHARS else text[: MAX_MESSAGE_CHARS - 1] + "…"


def library_detail(exc: BaseException, limit: int = 160) -> str:
    """What the library itself said, once, for a reader: the detail inside a :class:`NativeError` (not its
    "X: the tokenizer library refused this input (...)" wrapper), on one line, Markdown backticks turned into
    quotes, at most ``limit`` characters (cut whole, so no bracket is left open by the cut).

    >>> library_detail(NativeError(T_("{what}: the tokenizer library refused this input ({detail})", what="x.json",
    ...                                detail="Token `c` out of vocabulary at line 1 column 373")))
    'Token ‘c’ out of vocabulary at line 1 column 373'
    """
    inner = exc.args[0] if len(exc.args) == 1 else None
    values = getattr(inner, "values", None)
    text = str(values["detail"]) if isinstance(values, dict) and "detail" in values else \
        (str(exc).splitlines() or [type(exc).__name__])[0]
    text = re.sub(r"`([^`]*)`", "‘\\1’", " ".join(text.split())).replace("`", "'")
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def as_native_error(exc: BaseException, what: str) -> NativeError | None:
    """The :class:`NativeError` for ``exc`` raised while running ``what``, or None if it must propagate."""
    if _control_flow(exc) or isinstance(exc, ValueError):
        return None
    if is_panic(exc) and "retry-limit" in str(exc):  # Oniguruma gave up: a regex that backtracks without end
        return NativeError(T_("{what}: a regex backtracks too much on this text (catastrophic backtracking, e.g. "
                              "(a+)+$); simplify the pattern", what=what))
    if is_panic(exc):
        return NativeError(T_("{what}: the tokenizer library crashed on this input ({detail}); try a shorter or "
                              "simpler input or another tokenizer", what=what, detail=_one_line(exc)))
    if isinstance(exc, MemoryError):
        return NativeError(T_("{what}: ran out of memory on this input; try a shorter input or a smaller file",
                              what=what))
    if type(exc) is Exception or isinstance(exc, (RuntimeError, OSError, TypeError, OverflowError)):
        return NativeError(T_("{what}: the tokenizer library refused this input ({detail})", what=what,
                              detail=_one_line(exc)))
    return None


def _refusal(exc: BaseException) -> NativeError | None:
    """A library's plain ``ValueError`` out of a fenced call (a :func:`fence`-decorated adapter method, which
    only ever runs the user's text, ids or file): the library refusing that input, so a
    :class:`~core.text.errors.UserError` with the library's words unchanged (``tiktoken``'s "Regex error while
    tokenizing..." for a pattern that backtracks). Our own user errors pass as they are."""
    if isinstance(exc, ValueError) and not isinstance(exc, UserError):
        return NativeError(*exc.args) if exc.args else NativeError(type(exc).__name__)
    return None


@contextmanager
def fenced(what: str) -> Iterator[None]:
    """Run a block that calls a native library; failures become :class:`NativeError`.

    >>> with fenced("demo"):
    ...     raise Exception("bad")
    Traceback (most recent call last):
    ...
    core.text.native.NativeError: demo: the tokenizer library refused this input (bad)
    """
    try:
        yield
    except BaseException as exc:
        err = as_native_error(exc, what)
        if err is None:
            raise
        raise err from None


def fence(what: str | Callable[..., str]) -> Callable[[F], F]:
    """Decorator form of :func:`fenced`; ``what`` may be a function of the call's arguments (e.g. the tokenizer name)."""

    def deco(fn: F) -> F:
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
            try:
                return fn(*args, **kwargs)
            except BaseException as exc:
                label = what(*args, **kwargs) if callable(what) else what
                err = as_native_error(exc, label) or _refusal(exc)
                if err is None:
                    raise
                raise err from None

        wrapper.__fenced__ = True  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return deco


def fatal_message(exc: BaseException, what: str) -> str | None:
    """The last-resort message for a :class:`NativeError`, panic or ``MemoryError`` no page caught, else None.

    The router uses it around each page run, so even an unfenced native call
    ends in a message and the next rerun starts clean; other errors keep
    their normal treatment (a bug should still show as one).
    """
    if isinstance(exc, NativeError):  # fenced below, but the page did not catch it: it is still a message
        return exc.args[0] if len(exc.args) == 1 and isinstance(exc.args[0], str) else str(exc)
    if not (is_panic(exc) or isinstance(exc, MemoryError)):
        return None
    err = as_native_error(exc, what)
    return err.args[0] if err is not None else None


#: What Rust's default panic hook writes on file descriptor 2 for one panic: "thread '<name>' (<id>)
#: panicked at <file>:<line>:<col>:", the message, then (with RUST_BACKTRACE) a "stack backtrace:" block,
#: ending in a "note: ..." line; with RUST_BACKTRACE=full there is no note, so the report runs to the end.
_PANIC_REPORT = re.compile(r"^thread '[^'\n]*'[^\n]* panicked at [^\n]*\n(?:.*?^note: [^\n]*(?:\n|\Z)|.*\Z)",
                           re.S | re.M)
#: Set to keep native libraries' stderr as it is (panic reports and backtraces included).
RAW_STDERR_ENV = "TOKENIZER_LAB_RAW_STDERR"


def drop_panic_reports(text: str) -> str:
    """``text`` (what native code wrote on stderr) without Rust's panic-hook reports.

    >>> drop_panic_reports("thread '<unnamed>' (7) panicked at src/x.rs:1:2:\\nboom\\n"
    ...                    "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\\nkept\\n")
    'kept\\n'
    """
    return _PANIC_REPORT.sub("", text)


@contextmanager
def hushed_panic_reports() -> Iterator[None]:
    """Keep Rust's panic-hook reports off the terminal, so a fenced panic ends in our one line only.

    A pyo3 panic is printed by Rust's own hook straight to file descriptor 2
    before Python sees the exception, and Python cannot turn that hook off.
    Inside this block descriptor 2 goes to a temporary file while Python's
    ``sys.stderr`` (our messages, the progress bar) keeps writing to the real
    stderr; at the end whatever native code wrote is copied to the real stderr
    without the panic reports (so library warnings still show, after the
    command's own output rather than interleaved). The report (and its
    backtrace, when ``RUST_BACKTRACE`` is set) is hidden because the fence has
    already turned the panic into our one-line error; set
    ``TOKENIZER_LAB_RAW_STDERR=1`` to see it. Only the CLI uses this, and only
    when ``sys.stderr`` is the process's own stderr (not under a test's capture).
    """
    saved = sys.stderr
    if os.environ.get(RAW_STDERR_ENV) or saved is not sys.__stderr__ or saved is None:
        yield
        return
    try:
        saved.flush()
        real = os.dup(2)
    except (OSError, ValueError):  # no usable descriptor 2 (closed stderr)
        yield
        return
    with tempfile.TemporaryFile() as spool:
        os.dup2(spool.fileno(), 2)
        sys.stderr = open(real, "w", encoding=saved.encoding, errors=saved.errors, buffering=1, closefd=False)  # noqa: SIM115 - until the finally
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(real, 2)
            sys.stderr = saved
            spool.seek(0)
            rest = drop_panic_reports(spool.read().decode("utf-8", "replace"))
            os.close(real)
            if rest.strip():  # (the hook starts its report with a blank line)
                saved.write(rest)
                saved.flush()
