"""Bare library objects (a ``tokenizers.Tokenizer``, a ``tiktoken.Encoding``) handed to an analysis directly.

The special-token injection check and the padding demo also take a library object that is not an adapter (the
doctests and tests build them by hand). Each adapter module registers, with :func:`register_library_view`, a
function that recognises its own library's objects and says what the analyses may ask of them
(:class:`LibraryObject`); :func:`library_view` asks them in turn, so no analysis tests a library class.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..tokens import SpecialProbe


@dataclass(frozen=True)
class LibraryObject:
    """What the analyses may ask of a bare library object: a name for messages, its special-token probes (the
    library's own encode modes), and its ``tokenizer.json`` when the library has one."""

    name: str
    special_probes: Callable[[], list[SpecialProbe]]
    tokenizer_json: Callable[[], str] | None = None


#: ``obj -> LibraryObject | None``: one per adapter module whose library has objects worth taking directly.
ViewFn = Callable[[object], "LibraryObject | None"]

#: The registered views, in registration order (filled when the adapter modules are imported).
LIBRARY_VIEWS: list[ViewFn] = []


def register_library_view(fn: ViewFn) -> ViewFn:
    """Register ``fn`` (it returns None for an object of another library). The same function again (a module
    reloaded) replaces it."""
    key = (getattr(fn, "__module__", None), getattr(fn, "__qualname__", None))
    LIBRARY_VIEWS[:] = [v for v in LIBRARY_VIEWS if (getattr(v, "__module__", None), getattr(v, "__qualname__", None)) != key]
    LIBRARY_VIEWS.append(fn)
    return fn


def library_view(obj: object) -> LibraryObject | None:
    """What the adapter modules say about ``obj``, or None when no registered library made it."""
    from .zoo import discover_adapters

    discover_adapters()
    for view in LIBRARY_VIEWS:
        got = view(obj)
        if got is not None:
            return got
    return None
