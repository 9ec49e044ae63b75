"""The upload registry: which tokenizer file formats a reader may upload, how each is recognised, what its entry says.

Each adapter module declares the formats it reads with :func:`register_upload`, next to its
:func:`~core.pretrained.adapter.register_loader` (an upload kind is the name of the loader that builds it);
:func:`core.pretrained.zoo.detect_kind` and :func:`core.pretrained.zoo.load_user_bytes` read :data:`UPLOADS`
and name no format themselves.

Recognising a file (:func:`detect`): first by content, the registered tests in ``priority`` order (lowest
first); then by the file name's ending; then the one kind registered as the ``fallback`` (a file nothing else
recognises).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Union

from ..i18n import Message

#: ``(name, data, pattern) -> entry options``: what the upload's catalog entry needs besides the file (a
#: ``.tiktoken`` file's split pattern, the reader's choice), checked before the file is parsed; raises
#: :class:`core.pretrained.catalog.ZooError` (or ``ValueError``) with a one-line message.
OptionsFn = Callable[[str, bytes, str], dict[str, object]]


@dataclass(frozen=True)
class UploadKind:
    """One upload format: the loader that builds it (``kind``), the entry's description and special-token note,
    and how a file is recognised as this format."""

    kind: str
    label: str
    specials: Union[Message, str]
    #: A test on the file's bytes (its start, usually), or None when the content cannot tell.
    detect: Callable[[bytes], bool] | None = None
    #: Content tests run lowest first (a more specific test before a more general one).
    priority: int = 100
    #: File name endings that mean this format when no content test matched.
    suffixes: tuple[str, ...] = ()
    #: The kind of a file that nothing else recognises (with two, the first in ``priority`` order).
    fallback: bool = False
    options: OptionsFn | None = None
    #: The adapter module that registered it (the one whose loader builds it).
    module: str = ""


#: Every registered upload format by kind, filled when the adapter modules are imported
#: (:func:`core.pretrained.zoo.discover_adapters`).
UPLOADS: dict[str, UploadKind] = {}


def register_upload(kind: str, *, label: str, specials: Union[Message, str], detect: Callable[[bytes], bool] | None = None,
                    priority: int = 100, suffixes: tuple[str, ...] = (), fallback: bool = False,
                    options: OptionsFn | None = None, module: str = "") -> UploadKind:
    """Offer loader ``kind`` for uploads (see :class:`UploadKind` for the fields; ``module`` defaults to the module
    of ``detect`` or ``options``). Registering a kind again (a module reloaded) replaces it.

    >>> register_upload("doc-example", label="toy", specials="none", detect=lambda data: data.startswith(b"TOY"),
    ...                 priority=-1).kind
    'doc-example'
    >>> detect("a.bin", b"TOY 1")
    'doc-example'
    >>> UPLOADS.pop("doc-example").label
    'toy'
    """
    owner = module or str(getattr(detect or options, "__module__", "") or "")
    UPLOADS[kind] = UploadKind(kind, label, specials, detect, priority, tuple(suffixes), fallback, options, owner)
    return UPLOADS[kind]


def detect(name: str, data: bytes) -> str | None:
    """The registered kind of an uploaded file: by content, then by name, then the fallback; None when no kind
    is registered that takes it."""
    kinds = sorted(UPLOADS.values(), key=lambda u: (u.priority, u.kind))
    for u in kinds:
        if u.detect is not None and u.detect(data):
            return u.kind
    for u in kinds:
        if u.suffixes and name.endswith(u.suffixes):
            return u.kind
    return next((u.kind for u in kinds if u.fallback), None)
