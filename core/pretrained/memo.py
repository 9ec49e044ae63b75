"""The one memo for data derived from a tokenizer: :func:`per_tokenizer`.

A vocabulary table, a census, a replay model, a parsed Unigram lattice: each
is built from one tokenizer object, costs seconds on a big vocabulary, and is
the same for as long as that object lives. They are all kept here, beside the
tokenizer (held weakly: when the registry of :mod:`core.pretrained.zoo` or a
session drops the tokenizer, its derived data goes with it), at most
:data:`MAX_KEYS` per tokenizer (least recently used first out). Nothing here
holds a tokenizer alive, so the zoo's registry stays the one cache of
tokenizer objects.

Two threads asking for the same missing value build it once (the second
waits for the first); different values build in parallel.
"""
from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TypeVar

__all__ = ["MAX_KEYS", "clear", "per_tokenizer"]

V = TypeVar("V")

#: Derived values kept per tokenizer (vocabulary table, census, replay model...); the oldest used goes first.
MAX_KEYS = 16


class _Slot:
    """One tokenizer's values (most recently used last) and the locks of the values being built."""

    __slots__ = ("building", "values")

    def __init__(self) -> None:
        self.values: OrderedDict[Hashable, object] = OrderedDict()
        self.building: dict[Hashable, threading.Lock] = {}


_slots: weakref.WeakKeyDictionary[object, _Slot] = weakref.WeakKeyDictionary()
_guard = threading.Lock()
_MISSING = object()


def _lookup(slot: _Slot, key: Hashable) -> object:
    got = slot.values.get(key, _MISSING)
    if got is not _MISSING:
        slot.values.move_to_end(key)
    return got


def per_tokenizer(tok: object, key: Hashable, build: Callable[[], V]) -> V:
    """``build()``, computed once per ``(tok, key)`` and kept as long as ``tok`` lives.

    ``key`` names the derived value (``"vocab-table"``, ``("replay", "hf")``...); ``build`` makes it from
    ``tok`` (closing over whatever it needs). A tokenizer that cannot be weakly referenced (or hashed) is
    not memoized: ``build()`` runs every time.

    >>> class Tok: pass
    >>> t, calls = Tok(), []
    >>> per_tokenizer(t, "n", lambda: calls.append(1) or len(calls))
    1
    >>> per_tokenizer(t, "n", lambda: calls.append(1) or len(calls)), len(calls)
    (1, 1)
    """
    try:
        with _guard:
            slot = _slots.get(tok)
            if slot is None:
                slot = _slots[tok] = _Slot()
            got = _lookup(slot, key)
            if got is not _MISSING:
                return got  # type: ignore[return-value]
            lock = slot.building.setdefault(key, threading.Lock())
    except TypeError:  # not weak-referenceable or not hashable: nothing to keep it beside
        return build()
    with lock:
        with _guard:
            got = _lookup(slot, key)
        if got is not _MISSING:
            return got  # type: ignore[return-value]
        value = build()
        with _guard:
            slot.values[key] = value
            while len(slot.values) > MAX_KEYS:
                slot.values.popitem(last=False)
            slot.building.pop(key, None)
    return value


def clear(tok: object | None = None) -> None:
    """Forget the derived data of ``tok`` (of every tokenizer when None): tests, and a tokenizer replaced."""
    with _guard:
        if tok is None:
            _slots.clear()
        else:
            _slots.pop(tok, None)
