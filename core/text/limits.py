"""Input limits: what the engine refuses before it tries, so hostile input gets a clear, bounded answer.

Every path the user names is read through :func:`read_regular` (or opened
for streaming with :func:`open_regular`): devices (``/dev/zero``), FIFOs and
directories are refused before they are opened, and a file above its size
limit is refused before it is read. Tokenizer files are checked by
:func:`check_json_bytes` (size, nesting depth, without recursion) and
:func:`check_ids` (unique, below 2^31, dense enough that a table indexed by
id stays small); every JSON a user gives is parsed by :func:`read_json`
(size and depth checked first, so no ``RecursionError``). User regexes run with a timeout (:data:`REGEX_TIMEOUT_S`,
the ``regex`` module's ``timeout=``) through :func:`user_finditer`.

Every refusal is a :class:`LimitError` (a ``ValueError``) with a one-line
message, so the CLI prints it as one line and the pages show it as a message.
The message is a :class:`core.i18n.Message`: English for the CLI, shown in the
reader's language by the pages (``localize``).

This module lives in the lowest wing (it imports nothing of ``core`` but
:mod:`core.i18n`, of the same rank) because parsers in every wing need it. It does not decide what a command
does with a big file (streaming is :mod:`core.analysis.stream`).
"""
from __future__ import annotations

import os
import re
import stat
import sys
from typing import Any, BinaryIO, Iterable, Iterator, cast

import numpy as np

from ..i18n import T_, Message, Tn_
from .errors import UserError

#: Largest tokenizer file read (``tokenizer.json``, ``.tiktoken``, ``.model``, ``vocab.txt``), in bytes.
MAX_TOKENIZER_FILE_BYTES = 64 * 1024 * 1024
#: Deepest nesting accepted in a tokenizer JSON file (real ones nest under 10 levels).
MAX_JSON_DEPTH = 64
#: Ids at or above this are refused (tiktoken and ``tokenizers`` store ids as 32-bit integers).
MAX_ID = 2**31 - 1
#: Largest id allowed for a vocabulary of ``n`` entries: ``n * ID_SLACK_FACTOR + ID_SLACK``.
ID_SLACK_FACTOR = 2
ID_SLACK = 1024
#: Largest text a step-by-step analysis takes at once (bytes); streaming commands have no such limit.
MAX_STEP_TEXT_BYTES = 1_000_000
#: Seconds a user-supplied regex may spend on one text.
REGEX_TIMEOUT_S = 2.0


class LimitError(UserError):
    """Input refused by a limit (not a regular file, too big, too deep, bad ids, a regex that runs away)."""


def _mib(n: int) -> Message:
    """A size for a sentence: ``12.5 MB``, or ``812 bytes`` below one megabyte."""
    if n >= 1024 * 1024:
        return T_("{size:,.1f} MB", size=n / (1024 * 1024))
    return Tn_("{count:,} byte", "{count:,} bytes", n, count=n)


#: What a refused path is, for :func:`check_regular`'s message.
_KINDS = {stat.S_ISDIR: T_("a directory"), stat.S_ISCHR: T_("a character device"), stat.S_ISBLK: T_("a block device"),
          stat.S_ISFIFO: T_("a FIFO (named pipe)"), stat.S_ISSOCK: T_("a socket")}
#: The default ``what`` of the readers below.
FILE = T_("file")


def check_regular(path: str | os.PathLike[str], what: str = FILE) -> os.stat_result:
    """``os.stat`` of ``path``, or :class:`LimitError` unless it is a regular file.

    >>> check_regular("/dev/zero")
    Traceback (most recent call last):
    ...
    core.text.limits.LimitError: /dev/zero is not a regular file (a character device); give a file
    """
    try:
        st = os.stat(path)
    except OSError as exc:
        raise LimitError(T_("cannot read {path}: {reason}", path=os.fspath(path), reason=exc.strerror or str(exc))) from None
    if not stat.S_ISREG(st.st_mode):
        kind = next((k for test, k in _KINDS.items() if test(st.st_mode)), T_("not a file"))
        raise LimitError(T_("{path} is not a regular file ({kind}); give a {what}", path=os.fspath(path), kind=kind,
                            what=what))
    return st


def open_regular(path: str | os.PathLike[str], what: str = FILE) -> BinaryIO:
    """Open a regular file for reading in binary (never a device or FIFO: checked before opening)."""
    check_regular(path, what)
    try:
        fh = open(path, "rb")  # noqa: SIM115 - the caller closes it
    except OSError as exc:
        raise LimitError(T_("cannot read {path}: {reason}", path=os.fspath(path), reason=exc.strerror or str(exc))) from None
    if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):  # replaced between stat and open
        fh.close()
        raise LimitError(T_("{path} is not a regular file; give a {what}", path=os.fspath(path), what=what))
    return fh


def read_regular(path: str | os.PathLike[str], *, max_bytes: int, what: str = FILE, hint: str = "") -> bytes:
    """All bytes of a regular file no bigger than ``max_bytes``, else :class:`LimitError`.

    ``hint`` is appended to the too-big message (e.g. which command streams instead).
    """
    with open_regular(path, what) as fh:
        size = os.fstat(fh.fileno()).st_size
        if size > max_bytes:
            raise LimitError(T_("{path} is {size}; the limit for a {what} is {limit}{hint}", path=os.fspath(path),
                                size=_mib(size), what=what, limit=_mib(max_bytes), hint=hint))
        data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:  # grew while we read it
        raise LimitError(T_("{path} is larger than the limit for a {what} ({limit}){hint}", path=os.fspath(path),
                            what=what, limit=_mib(max_bytes), hint=hint))
    return data


def looks_utf16(raw: bytes) -> bool:
    """A UTF-16 text file: a byte order mark, or (without one) a NUL in every other byte of a text of mostly
    Latin letters, which is how UTF-16 writes them (Windows "Unicode" files).

    >>> looks_utf16("hello".encode("utf-16")), looks_utf16("hello".encode("utf-16-le")), looks_utf16(b"hello")
    (True, True, False)
    """
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return True
    head = raw[:4096]
    if len(head) < 4:
        return False
    evens, odds = head[0::2], head[1::2]
    return max(evens.count(0), odds.count(0)) >= 0.9 * (len(head) // 2) and min(evens.count(0), odds.count(0)) == 0


def check_size(data: bytes | str, *, max_bytes: int, what: str, hint: str = "") -> None:
    """:class:`LimitError` if ``data`` (bytes, or text measured in UTF-8 bytes) exceeds ``max_bytes``."""
    n = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", errors="surrogatepass"))
    if n > max_bytes:
        raise LimitError(T_("the {what} is {size}; the limit is {limit}{hint}", what=what, size=_mib(n),
                            limit=_mib(max_bytes), hint=hint))


#: A JSON string. Possessive (``++``, ``*+``): an unterminated string in a hostile file (``"`` then a long run
#: of letters) fails in one pass instead of trying every way to cut the run into pieces (exponential).
_JSON_STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+"', re.S)


def json_depth(data: bytes) -> int:
    """Deepest ``[``/``{`` nesting of a JSON text, brackets inside strings ignored (no recursion).

    >>> json_depth(b'{"a": [1, {"b": "[[["}]}')
    3
    """
    bare = np.frombuffer(_JSON_STRING.sub(b'""', data), dtype=np.uint8)
    step = np.zeros(bare.size, dtype=np.int8)
    step[(bare == ord("[")) | (bare == ord("{"))] = 1
    step[(bare == ord("]")) | (bare == ord("}"))] = -1
    return int(np.cumsum(step, dtype=np.int64).max(initial=0))


def check_json_bytes(data: bytes, where: str, *, max_bytes: int = MAX_TOKENIZER_FILE_BYTES,
                     max_depth: int = MAX_JSON_DEPTH) -> None:
    """:class:`LimitError` if a JSON tokenizer file is too big or nested too deep to parse safely."""
    if len(data) > max_bytes:
        raise LimitError(T_("{where} is {size}; the limit for a tokenizer file is {limit}", where=where,
                            size=_mib(len(data)), limit=_mib(max_bytes)))
    depth = json_depth(data)
    if depth > max_depth:
        raise LimitError(T_("{where} nests {depth:,} levels deep; a tokenizer file may nest at most {limit}",
                            where=where, depth=depth, limit=max_depth))


class JsonSyntaxError(LimitError):
    """Text that is not JSON. ``lineno``, ``colno``, ``pos`` and ``reason`` are the parser's; ``length`` the text's."""

    def __init__(self, message: Message, *, reason: str, lineno: int, colno: int, pos: int, length: int) -> None:
        super().__init__(message)
        self.reason, self.lineno, self.colno, self.pos, self.length = reason, lineno, colno, pos, length

    @property
    def truncated(self) -> bool:
        """True when the text looks cut short: the parser stopped at its very end, or in a string running to it."""
        return self.pos >= self.length - 1 or self.reason.startswith("Unterminated string")


def read_json(data: bytes | str, where: str, *, max_bytes: int = MAX_TOKENIZER_FILE_BYTES,
              max_depth: int = MAX_JSON_DEPTH) -> Any:
    """The one reader of JSON a user gives (uploads, files named on the command line, pasted rules).

    Size and nesting depth are checked before the parser runs
    (:func:`check_json_bytes`): Python's ``json`` recurses once per level, so
    a file nested 100,000 deep would raise ``RecursionError`` out of any
    caller. Bytes must be UTF-8 (a byte-order mark is dropped). Every refusal
    is a :class:`LimitError` with one line; a syntax error is the subclass
    :class:`JsonSyntaxError`, which keeps the parser's position.

    >>> read_json(b'{"a": [1]}', "a.json")
    {'a': [1]}
    >>> read_json("[" * 100 + "]" * 100, "deep.json")
    Traceback (most recent call last):
    ...
    core.text.limits.LimitError: deep.json nests 100 levels deep; a tokenizer file may nest at most 64
    """
    import json

    raw = data if isinstance(data, bytes) else data.encode("utf-8", errors="surrogatepass")
    check_json_bytes(raw, where, max_bytes=max_bytes, max_depth=max_depth)
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise LimitError(T_("{where} is not UTF-8 text (byte {offset:,}), so it is not JSON", where=where,
                                offset=exc.start)) from None
    else:
        text = data.removeprefix("\ufeff")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonSyntaxError(T_("{name} is not valid JSON (line {line}, column {column}: {reason})", name=where,
                                 line=exc.lineno, column=exc.colno, reason=exc.msg),
                              reason=exc.msg, lineno=exc.lineno, colno=exc.colno, pos=exc.pos,
                              length=len(text.rstrip())) from None
    except ValueError:  # Python's own limit on the digits of an integer it converts (sys.get_int_max_str_digits)
        raise LimitError(T_("a number in {where} has more than {limit:,} digits", where=where,
                            limit=sys.get_int_max_str_digits())) from None


#: C0 and C1 control characters (terminal escapes among them) but newline and tab.
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def escape_controls(text: str) -> str:
    r"""``text`` with every C0/C1 control character but newline and tab written as an escape (``\x1b``), so text a
    user or a template wrote cannot move a terminal's cursor, retitle its window or clear its screen.

    >>> escape_controls("a\x1b[2Jb\tc\x9b")
    'a\\x1b[2Jb\tc\\x9b'
    """
    return _CONTROLS.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def check_ids(ids: Iterable[object], where: str, *, what: str = T_("id")) -> int:
    """Check a vocabulary's ids: whole numbers, unique, ``0 <= id < 2^31``, and dense.

    Dense means the largest id is below ``ID_SLACK_FACTOR * n + ID_SLACK``
    for ``n`` ids, so a table indexed by id stays about the vocabulary's
    size. Returns the largest id (-1 for none).

    >>> check_ids([0, 1, 2], "t")
    2
    >>> check_ids([0, 0], "t")
    Traceback (most recent call last):
    ...
    core.text.limits.LimitError: t: id 0 is used twice
    """
    values = list(ids)
    # Fast path (every real vocabulary): plain ints, in range, no repeats, dense; the loop below finds the
    # first offending id for the message.
    if values and all(type(i) is int for i in values):
        ints = cast("list[int]", values)
        lo, hi, n = min(ints), max(ints), len(set(ints))
        if lo >= 0 and hi <= MAX_ID and n == len(values) and hi < ID_SLACK_FACTOR * n + ID_SLACK:
            return hi
    seen: set[int] = set()
    top = -1
    for i in values:
        if isinstance(i, bool) or not isinstance(i, int):
            raise LimitError(T_("{where}: {what} {value} is not a whole number", where=where, what=what,
                                value=repr(i)))
        if i < 0 or i > MAX_ID:
            raise LimitError(T_("{where}: {what} {value:,} is outside 0..2^31-1", where=where, what=what, value=i))
        if i in seen:
            raise LimitError(T_("{where}: {what} {value:,} is used twice", where=where, what=what, value=i))
        seen.add(i)
        top = max(top, i)
    limit = ID_SLACK_FACTOR * len(seen) + ID_SLACK
    if top >= limit:
        raise LimitError(T_("{where}: {what} {value:,} is far beyond the {count:,} entries (ids must be dense: "
                            "below {limit:,})", where=where, what=what, value=top, count=len(seen), limit=limit))
    return top


def user_finditer(compiled, text: str, *, timeout: float = REGEX_TIMEOUT_S,  # noqa: ANN001
                  shown: str | None = None) -> Iterator:
    """``compiled.finditer(text)`` (a ``regex`` pattern) that gives up after ``timeout`` seconds overall.

    Raises :class:`LimitError` naming the pattern (``shown``, else the compiled one) when it runs away (e.g.
    ``(a|aa)+$`` on a long run of ``a``).
    """
    try:
        yield from compiled.finditer(text, timeout=timeout)
    except TimeoutError:
        name = compiled.pattern if shown is None else shown
        raise LimitError(T_("the pattern {pattern} took more than {seconds:g} s on this text (catastrophic "
                            "backtracking?); simplify it", pattern=repr(name)[:200], seconds=float(timeout))) from None


def parse_tokenizer_json(data: bytes, where: str) -> dict:
    """A Hugging Face ``tokenizer.json``'s content, checked before any library sees it.

    Size and depth (:func:`check_json_bytes`), UTF-8 and JSON, a ``model``
    section, a non-empty vocabulary, its ids and the added tokens' ids
    (:func:`check_ids`), and for WordPiece / WordLevel an unknown token that
    is in the vocabulary. Raises :class:`LimitError` with one line.
    """
    try:
        cfg = read_json(data, where)
    except JsonSyntaxError as exc:
        raise LimitError(T_("{where} is not a valid tokenizer.json (not valid JSON: {reason})", where=where,
                            reason=exc.reason)) from None
    model = cfg.get("model") if isinstance(cfg, dict) else None
    if not isinstance(model, dict):
        raise LimitError(T_("{where} is JSON but not a tokenizer.json (no \"model\" section)", where=where))
    vocab = model.get("vocab")
    mtype = model.get("type")
    if isinstance(vocab, dict):
        if not vocab:
            raise LimitError(T_("{where}: the {model} vocabulary is empty", where=where, model=str(mtype) if mtype else T_("model")))
        n = len(vocab)
        check_ids(vocab.values(), where)
        unk = model.get("unk_token")
        if mtype in ("WordPiece", "WordLevel") and isinstance(unk, str) and unk not in vocab:
            raise LimitError(T_("{where}: the unknown token {unk} is not in the vocabulary ({model})", where=where,
                                unk=repr(unk), model=mtype))
    elif isinstance(vocab, list):
        if not vocab:
            raise LimitError(T_("{where}: the {model} vocabulary is empty", where=where, model=str(mtype) if mtype else T_("model")))
        n = len(vocab)
    else:
        raise LimitError(T_("{where}: the model has no vocabulary", where=where))
    added = cfg.get("added_tokens") or []
    if not isinstance(added, list) or not all(isinstance(a, dict) for a in added):
        raise LimitError(T_("{where}: added_tokens is not a list of tokens", where=where))
    ids = [a.get("id") for a in added]
    for i in ids:
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i <= MAX_ID:
            raise LimitError(T_("{where}: added token id {value} is not a whole number in 0..2^31-1", where=where,
                                value=repr(i)))
    if ids and max(ids) >= ID_SLACK_FACTOR * (n + len(ids)) + ID_SLACK:
        raise LimitError(T_("{where}: added token id {value:,} is far beyond the {count:,} vocabulary entries",
                            where=where, value=max(ids), count=n))
    return cfg


# ---------------------------------------------------------------------------
# Per-session budget for uploaded and trained tokenizers (one session must not fill the server's memory)
# ---------------------------------------------------------------------------

#: Most tokenizers one app session may upload or add from the Train page.
MAX_SESSION_TOKENIZERS = 8
#: Most estimated memory (bytes) those tokenizers may hold in one session.
MAX_SESSION_TOKENIZER_BYTES = 512 * 1024 * 1024
#: Estimated memory per vocabulary entry once loaded. Measured on real files (resident growth after
#: loading and one encode): tiktoken 400-420 bytes per rank, tokenizers BPE 850-900 (vocab + merges),
#: SentencePiece 300, Tekken 480; rounded up.
BYTES_PER_ENTRY = 1024
#: Estimated memory per byte of the file while it is parsed (the JSON tree is a few times the text).
BYTES_PER_FILE_BYTE = 4


def estimate_tokenizer_bytes(file_bytes: int, entries: int = 0) -> int:
    """Estimated memory a loaded tokenizer keeps: the larger of the parse estimate and the per-entry one."""
    return max(BYTES_PER_FILE_BYTE * file_bytes, BYTES_PER_ENTRY * entries)


def check_session_budget(held: Iterable[int], new_bytes: int, *, what: str = T_("this tokenizer"),
                         max_count: int = MAX_SESSION_TOKENIZERS,
                         max_bytes: int = MAX_SESSION_TOKENIZER_BYTES) -> None:
    """:class:`LimitError` if a session holding tokenizers of sizes ``held`` cannot take one of ``new_bytes`` more.

    >>> check_session_budget([100, 200], 300)
    >>> check_session_budget([0] * 8, 1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    core.text.limits.LimitError: this session already holds 8 uploaded or trained tokenizers (the limit); remove one ...
    """
    sizes = list(held)
    if len(sizes) >= max_count:
        raise LimitError(Tn_("this session already holds {count} uploaded or trained tokenizer (the limit); remove "
                             "it before adding {what}",
                             "this session already holds {count} uploaded or trained tokenizers (the limit); remove "
                             "one before adding {what}", len(sizes), count=len(sizes), what=what))
    used = sum(sizes)
    if used + new_bytes > max_bytes:
        raise LimitError(T_("{what} needs about {size} of memory and this session's uploaded or trained tokenizers "
                            "already use about {used}; the limit per session is {limit}. Remove one first (or use the "
                            "shelf's copy, which all sessions share)", what=what, size=_mib(new_bytes), used=_mib(used),
                            limit=_mib(max_bytes)))
