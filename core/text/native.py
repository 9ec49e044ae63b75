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

This module imports nothing of ``core`` (the lowest wing) and nothing of
Streamlit.
"""
from __future__ import annotations

import functools
from contextlib import contextmanager
from typing import Callable, Iterator, TypeVar

F = TypeVar("F", bound=Callable)

#: Longest library message kept in a :class:`NativeError` (Rust panics can quote whole inputs).
MAX_MESSAGE_CHARS = 300

_PASS_THROUGH = (KeyboardInterrupt, SystemExit, GeneratorExit)


class NativeError(ValueError):
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


def as_native_error(exc: BaseException, what: str) -> NativeError | None:
    """The :class:`NativeError` for ``exc`` raised while running ``what``, or None if it must propagate."""
    if _control_flow(exc) or isinstance(exc, ValueError):
        return None
    if is_panic(exc) and "retry-limit" in str(exc):  # Oniguruma gave up: a regex that backtracks without end
        return NativeError(f"{what}: a regex backtracks too much on this text (catastrophic backtracking, "
                           "e.g. (a+)+$); simplify the pattern")
    if is_panic(exc):
        return NativeError(f"{what}: the tokenizer library crashed on this input ({_one_line(exc)}); "
                           "try a shorter or simpler input or another tokenizer")
    if isinstance(exc, MemoryError):
        return NativeError(f"{what}: ran out of memory on this input; try a shorter input or a smaller file")
    if type(exc) is Exception or isinstance(exc, (RuntimeError, OSError, TypeError, OverflowError)):
        return NativeError(f"{what}: the tokenizer library refused this input ({_one_line(exc)})")
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
    except BaseException as exc:  # noqa: BLE001 - panics derive from BaseException; see as_native_error
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
            except BaseException as exc:  # noqa: BLE001
                label = what(*args, **kwargs) if callable(what) else what
                err = as_native_error(exc, label)
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
        return str(exc)
    if not (is_panic(exc) or isinstance(exc, MemoryError)):
        return None
    err = as_native_error(exc, what)
    return str(err) if err is not None else None
