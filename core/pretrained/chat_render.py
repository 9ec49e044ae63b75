"""Rendering a chat template: untrusted Jinja run in a sandbox, with a time limit and an output limit.

A chat template is code from a model repository (or from the reader's own
upload). It runs here as ``transformers`` runs it in ``apply_chat_template``:
Jinja's :class:`~jinja2.sandbox.ImmutableSandboxedEnvironment` with
``trim_blocks``/``lstrip_blocks``, the loop controls, a ``{% generation %}``
block, and the same names (``raise_exception``, ``strftime_now``, a
``tojson`` that keeps non-ASCII text and takes ``indent``/``separators``/
``sort_keys``, ``dict``, and a ``namespace`` that refuses ``_`` names), so
the same template gives the same text.

What it adds is limits, because nothing in a sandbox stops a loop: every
call, attribute or item lookup, every step of a ``{% for %}`` loop (the
compiled template's loops iterate through a guard, :class:`_Guarded`) and
every 256 steps of ``range`` checks a deadline (:data:`RENDER_SECONDS`);
``*``, ``**`` and ``+`` refuse results over :data:`MAX_OUTPUT_CHARS`; the
output is counted as it is made. A template that raises, breaks a rule or a
limit ends in a :class:`ChatTemplateError` whose text is the template's own
message inside a translated frame.

Those checks are enough for the bundled templates, whose files are pinned by
sha256 and known to render. A template the reader uploads is anyone's code,
and Jinja has more ways to spend memory or time than a sandbox can watch from
inside (a filter such as ``center(10**10)``, the text of a list nested in
itself forty times, comparing two such lists): :func:`render_untrusted` runs
it in a child process (``python -m core.pretrained.chat_render``) under a
memory and CPU limit, killed at the time limit, so the worst such a template
can do is end its own render with a one-line error. This module tokenizes
nothing.
"""
from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
from contextvars import ContextVar
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

import jinja2
import jinja2.ext
import jinja2.nodes
import jinja2.utils
from jinja2.sandbox import ImmutableSandboxedEnvironment, safe_range

from ..i18n import T_, Message, message_of
from ..text.errors import UserError
from ..text.limits import LimitError, escape_controls, read_json

#: Largest template source accepted (the biggest bundled one, gpt-oss, is 16.7 KB).
MAX_TEMPLATE_BYTES = 256 * 1024
#: Largest rendered prompt, and largest string or list an operator may build on the way.
MAX_OUTPUT_CHARS = 2_000_000
#: Wall-clock limit of one render.
RENDER_SECONDS = 2.0
#: ``range`` checks the deadline every this many steps.
_RANGE_TICK = 256
#: Largest exponent of ``**`` (2 ** 4096 is already 1,234 digits).
_MAX_EXPONENT = 4096
#: Address space of the child process an uploaded template renders in (Python, Jinja and this module take about
#: 40 MB of it; the largest prompt allowed, 2 million characters, at most 8 MB).
CHILD_MEMORY_MB = 1024
#: Time the child process may take to start (import Jinja and this module) on top of the render's own limit.
_CHILD_START_SECONDS = 5.0
_ROOT = Path(__file__).resolve().parents[2]


class ChatTemplateError(UserError):
    """A template that does not compile, raises, breaks a sandbox rule or exceeds a limit."""


class _LimitError(Exception):
    """Raised inside a render when a limit is crossed (turned into a :class:`ChatTemplateError`)."""


#: Every way a render can fail, by kind: the sentence shown (its values are the only variable part). The child
#: process of :func:`render_untrusted` sends back a kind and its values, never a sentence, so what the parent shows
#: is always one of these.
_ERRORS: dict[str, Callable[..., Message]] = {
    "time": lambda seconds: T_("the chat template ran longer than {seconds} s and was stopped", seconds=seconds),
    "size": lambda limit: T_("the chat template made more than {limit:,} characters and was stopped", limit=limit),
    "memory": lambda mb: T_("the chat template needed more than {mb:,} MB of memory and was stopped", mb=mb),
    "sandbox": lambda reason: T_("the chat template tried something the sandbox forbids: {reason}", reason=reason),
    "refused": lambda reason: T_("the chat template refused this conversation: {reason}", reason=reason),
    "recursion": lambda: T_("the chat template recursed too deeply"),
    "failed": lambda reason: T_("the chat template failed: {reason}", reason=reason),
    "compile": lambda reason, line: T_("the chat template does not compile: {reason} (line {line})", reason=reason,
                                       line=line),
    "large": lambda limit: T_("the chat template is larger than {limit:,} bytes", limit=limit),
    "child": lambda reason: T_("the chat template could not be run in its own process: {reason}", reason=reason),
    "unicode": lambda offset: T_("the chat template made text that is not valid Unicode (a lone surrogate at "
                                 "character {offset:,})", offset=offset),
}


class _FailureError(ChatTemplateError):
    """A :class:`ChatTemplateError` that remembers its kind and values (what the child process sends back)."""

    def __init__(self, kind: str, **values: Any) -> None:
        super().__init__(_ERRORS[kind](**values))
        self.kind, self.values = kind, values

    def __reduce__(self):  # noqa: ANN204 - pickled as the plain error it is to everyone else
        return ChatTemplateError, self.args


_deadline: ContextVar[float] = ContextVar("chat_template_deadline", default=float("inf"))
#: The clock is read every this many checks: a check runs on every attribute, item, call and operator, and reading
#: the clock and the deadline each time was a tenth of a render (one process-wide countdown: renders in other
#: threads only make it read the clock sooner).
_TICK_EVERY = 16
_countdown = _TICK_EVERY


def _tick() -> None:
    global _countdown
    _countdown -= 1
    if _countdown <= 0:
        _countdown = _TICK_EVERY
        if time.monotonic() > _deadline.get():
            raise _LimitError("time")


def _check_size(value: object) -> object:
    if isinstance(value, (str, list, tuple, bytes)) and len(value) > MAX_OUTPUT_CHARS:
        raise _LimitError("size")
    return value


class _Guarded:
    """What a compiled ``{% for %}`` loop iterates: the template's own iterable, with a deadline check per step.

    Without it a loop over a plain string or list whose body calls nothing (``{% for a in s %}{% for b in s
    %}{% endfor %}{% endfor %}``) never reaches a check. Keeps ``len`` when the iterable has one, so
    ``loop.length`` and ``loop.last`` work as before."""

    __slots__ = ("_it",)

    def __init__(self, iterable: Any) -> None:
        self._it = iterable

    def __iter__(self) -> Iterator[Any]:
        for item in self._it:
            _tick()
            yield item

    def __len__(self) -> int:
        return len(self._it)


#: The global the rewritten loops call (a name no bundled template uses).
_GUARD_NAME = "__tl_loop_guard"


def _guard_loops(tree: jinja2.nodes.Template) -> jinja2.nodes.Template:
    """``tree`` with every loop's iterable wrapped in a call of :data:`_GUARD_NAME` (:class:`_Guarded`)."""
    for node in tree.find_all(jinja2.nodes.For):
        node.iter = jinja2.nodes.Call(jinja2.nodes.Name(_GUARD_NAME, "load"), [node.iter], [], None, None,
                                      lineno=node.lineno)
    return tree


class _TimedRange:
    """``range`` for templates: the sandbox's size cap, plus a deadline check while it is walked."""

    def __init__(self, *args: int) -> None:
        self._r = safe_range(*args)  # the sandbox's own cap (MAX_RANGE) and its own error

    def __iter__(self):  # noqa: ANN204 - a generator
        for k, v in enumerate(self._r):
            if k % _RANGE_TICK == 0:
                _tick()
            yield v

    def __len__(self) -> int:
        return len(self._r)

    def __reversed__(self):  # noqa: ANN204 - a generator
        return iter(_TimedRange(self._r.start + (len(self._r) - 1) * self._r.step, self._r.start - self._r.step,
                                -self._r.step)) if len(self._r) else iter(())


class _Namespace(jinja2.utils.Namespace):
    """Jinja's namespace, minus ``_`` names (no reaching CPython internals) and huge values."""

    def __init__(*args: Any, **kwargs: Any) -> None:
        self, rest = args[0], args[1:]
        attrs = dict(*rest, **kwargs)
        for name, value in attrs.items():
            _Namespace._check(name, value)
        jinja2.utils.Namespace.__init__(self, attrs)

    def __setitem__(self, name: str, value: Any) -> None:
        _Namespace._check(name, value)
        jinja2.utils.Namespace.__setitem__(self, name, value)

    @staticmethod
    def _check(name: object, value: object) -> None:
        if isinstance(name, str) and name.startswith("_"):
            raise jinja2.exceptions.SecurityError(T_("a namespace attribute may not start with _ ({name})", name=repr(name)))
        _check_size(value)


class _DictMaker:
    """``dict(...)`` and ``dict.fromkeys(...)`` for templates, without the type itself."""

    def __call__(self, *args: Any, **kwargs: Any) -> dict[Any, Any]:
        return dict(*args, **kwargs)

    def fromkeys(self, *args: Any, **kwargs: Any) -> dict[Any, Any]:
        return dict.fromkeys(*args, **kwargs)


class _Generation(jinja2.ext.Extension):
    """``{% generation %}...{% endgeneration %}``: marks the assistant's part; renders its body unchanged."""

    tags = {"generation"}

    def parse(self, parser: jinja2.parser.Parser) -> jinja2.nodes.Node:
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(("name:endgeneration",), drop_needle=True)
        return jinja2.nodes.CallBlock(self.call_method("_body"), [], [], body).set_lineno(lineno)

    def _body(self, caller: Any) -> str:
        return str(caller())


def _raise_exception(message: object) -> None:
    raise jinja2.exceptions.TemplateError(format(message))  # the template's own words, shown as they are


def _tojson(value: Any, ensure_ascii: bool = False, indent: int | None = None,
            separators: tuple[str, str] | None = None, sort_keys: bool = False) -> str:
    # not Jinja's own tojson, which escapes < > & ' for HTML: templates write JSON into a prompt
    return json.dumps(value, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


def _strftime_now(fmt: str) -> str:
    return datetime.now().strftime(fmt)


# the sandbox's own checks, called directly (not through super()) in the methods below, which run for every
# attribute, item, call and operator of a render
_sandbox_call = ImmutableSandboxedEnvironment.call
_sandbox_getattr = ImmutableSandboxedEnvironment.getattr
_sandbox_getitem = ImmutableSandboxedEnvironment.getitem


class _Env(ImmutableSandboxedEnvironment):
    intercepted_binops = frozenset({"*", "**", "+"})

    def call_binop(self, context: jinja2.runtime.Context, operator: str, left: Any, right: Any) -> Any:
        _tick()
        if operator == "**" and isinstance(right, (int, float)) and abs(right) > _MAX_EXPONENT:
            raise _LimitError("size")
        if operator == "*":
            for seq, n in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and len(seq) * n > MAX_OUTPUT_CHARS:
                    raise _LimitError("size")
        return _check_size(self.binop_table[operator](left, right))  # what the sandbox's call_binop does

    def call(self, context: jinja2.runtime.Context, obj: Any, /, *args: Any, **kwargs: Any) -> Any:
        _tick()
        if isinstance(obj, jinja2.runtime.LoopContext) and args:  # loop(children) in a recursive loop: guard it too
            args = (_Guarded(args[0]), *args[1:])
        return _check_size(_sandbox_call(self, context, obj, *args, **kwargs))

    def getattr(self, obj: Any, attribute: str) -> Any:
        _tick()
        return _sandbox_getattr(self, obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        _tick()
        return _sandbox_getitem(self, obj, argument)


def _check_template_size(source: str) -> None:
    if len(source.encode("utf-8", "surrogatepass")) > MAX_TEMPLATE_BYTES:
        raise _FailureError("large", limit=MAX_TEMPLATE_BYTES)


@lru_cache(maxsize=64)
def compile_template(source: str) -> jinja2.Template:
    """The compiled template (cached by its source); :class:`ChatTemplateError` when it does not compile."""
    _check_template_size(source)
    env = _Env(trim_blocks=True, lstrip_blocks=True, extensions=[_Generation, jinja2.ext.loopcontrols])
    env.filters["tojson"] = _tojson
    env.globals.update(raise_exception=_raise_exception, strftime_now=_strftime_now, dict=_DictMaker(),
                       namespace=_Namespace, range=_TimedRange)
    env.globals[_GUARD_NAME] = _Guarded
    try:
        return env.from_string(_guard_loops(env.parse(source)))
    except jinja2.exceptions.TemplateSyntaxError as exc:
        raise _FailureError("compile", reason=exc.message or str(exc), line=exc.lineno) from None
    except (jinja2.exceptions.TemplateError, RecursionError, MemoryError, ValueError) as exc:
        raise _FailureError("compile", reason=str(exc), line="?") from None


def render(source: str, messages: Sequence[Mapping[str, Any]], *, tools: Sequence[Mapping[str, Any]] | None = None,
           add_generation_prompt: bool = False, bos_token: str | None = None, eos_token: str | None = None,
           extra: Mapping[str, Any] | None = None, seconds: float = RENDER_SECONDS) -> str:
    """The prompt ``source`` makes of ``messages`` (what ``apply_chat_template(..., tokenize=False)`` returns).

    ``bos_token``/``eos_token`` are passed when given (as ``transformers`` passes the tokenizer's special
    tokens); ``extra`` adds template variables (``enable_thinking``, ``reasoning_effort``...). Raises
    :class:`ChatTemplateError` with the template's own message, a sandbox refusal, or a limit.

    >>> render("{% for m in messages %}<{{ m.role }}>{{ m.content }}{% endfor %}", [{"role": "user", "content": "hi"}])
    '<user>hi'
    """
    template = compile_template(source)
    context: dict[str, Any] = {"messages": [dict(m) for m in messages], "tools": list(tools) if tools is not None else None,
                               "documents": None, "add_generation_prompt": add_generation_prompt}
    if bos_token is not None:
        context["bos_token"] = bos_token
    if eos_token is not None:
        context["eos_token"] = eos_token
    context.update(extra or {})
    token = _deadline.set(time.monotonic() + seconds)
    out: list[str] = []
    size = 0
    try:
        for chunk in template.generate(**context):
            size += len(chunk)
            if size > MAX_OUTPUT_CHARS:
                raise _LimitError("size")
            out.append(chunk)
    except _LimitError as exc:
        if str(exc) == "time":
            raise _FailureError("time", seconds=seconds) from None
        raise _FailureError("size", limit=MAX_OUTPUT_CHARS) from None
    except jinja2.exceptions.SecurityError as exc:
        raise _FailureError("sandbox", reason=str(exc)) from None
    except jinja2.exceptions.TemplateError as exc:  # the template's own words, with no terminal escapes
        raise _FailureError("refused", reason=escape_controls(str(exc))) from None
    except RecursionError:
        raise _FailureError("recursion") from None
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError, OverflowError) as exc:
        raise _FailureError("failed", reason=type(exc).__name__ + ": " + str(exc)) from None
    finally:
        _deadline.reset(token)
    text = "".join(out)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:  # a "\ud800" in the template or in a value it prints: no text can hold it
        raise _FailureError("unicode", offset=exc.start) from None
    return text


def render_untrusted(source: str, messages: Sequence[Mapping[str, Any]], *,
                     tools: Sequence[Mapping[str, Any]] | None = None, add_generation_prompt: bool = False,
                     bos_token: str | None = None, eos_token: str | None = None,
                     extra: Mapping[str, Any] | None = None, seconds: float = RENDER_SECONDS) -> str:
    """:func:`render` for a template nobody vetted (an upload): the same text and errors, made in a child process.

    The child runs under an address-space limit of :data:`CHILD_MEMORY_MB` and a CPU limit, and is killed when it
    outlives ``seconds`` plus its start-up time, so a template that exhausts memory or time costs only its own
    render. It answers with the prompt, or with the kind and values of its error (never with a sentence of its
    own). Where the platform has no such limits (no ``resource`` module) the render runs in this process.
    """
    try:
        import resource  # noqa: F401 - POSIX only: the child sets its own limits with it
    except ImportError:  # pragma: no cover - not on the machines this runs on
        return render(source, messages, tools=tools, add_generation_prompt=add_generation_prompt, bos_token=bos_token,
                      eos_token=eos_token, extra=extra, seconds=seconds)
    _check_template_size(source)  # refused before any process starts
    job = {"source": source, "messages": [dict(m) for m in messages],
           "tools": list(tools) if tools is not None else None, "add_generation_prompt": add_generation_prompt,
           "bos_token": bos_token, "eos_token": eos_token, "extra": dict(extra or {}), "seconds": seconds}
    try:
        proc = subprocess.run([sys.executable, "-m", "core.pretrained.chat_render"], input=json.dumps(job).encode(),
                              capture_output=True, cwd=_ROOT, timeout=seconds + _CHILD_START_SECONDS, check=False,
                              env={**os.environ, "PYTHONPATH": str(_ROOT)})
    except subprocess.TimeoutExpired:
        raise _FailureError("time", seconds=seconds) from None
    except OSError as exc:
        raise _FailureError("child", reason=exc.strerror or type(exc).__name__) from None
    answer = _read_answer(proc.stdout)
    if answer is None:  # no answer: the limits ended the child, or it could not start
        if proc.returncode in (-9, -24):  # SIGKILL, SIGXCPU (the CPU limit)
            raise _FailureError("time", seconds=seconds)
        if b"MemoryError" in proc.stderr:
            raise _FailureError("memory", mb=CHILD_MEMORY_MB)
        last = proc.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [f"exit status {proc.returncode}"]
        raise _FailureError("child", reason=last[0][:200])
    if "text" in answer:
        return str(answer["text"])
    raise answer["error"]


def _read_answer(raw: bytes) -> dict[str, Any] | None:
    """The child's answer: ``{"text": ...}`` or ``{"error": _FailureError}``; None when it sent nothing sensible."""
    try:  # checked like any untrusted JSON: the child ran code nobody vetted
        data = read_json(raw, "the chat template's answer", max_bytes=6 * MAX_OUTPUT_CHARS + 4096)
    except LimitError:
        return None
    if not isinstance(data, dict):
        return None
    if isinstance(data.get("text"), str):
        return {"text": data["text"]}
    kind, values = data.get("kind"), data.get("values")
    if kind not in _ERRORS or not isinstance(values, dict) or not all(
            isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in values.values()):
        return None
    try:
        return {"error": _FailureError(kind, **values)}
    except (TypeError, ValueError, KeyError, IndexError):  # values that do not fit the kind's sentence
        return None


def _child_main() -> int:
    """``python -m core.pretrained.chat_render``: one render of the job on stdin, the answer on stdout."""
    import resource

    job = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    seconds = float(job["seconds"])

    def lower(which: int, value: int) -> None:  # never above a limit this process already has (raising one fails)
        try:
            hard = resource.getrlimit(which)[1]
            value = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):  # a platform that refuses this limit (macOS and RLIMIT_AS): the parent's
            pass                       # timeout still ends the child

    lower(resource.RLIMIT_AS, CHILD_MEMORY_MB * 1024 * 1024)
    lower(resource.RLIMIT_CPU, math.ceil(seconds) + 1)
    lower(resource.RLIMIT_FSIZE, 0)  # a render writes no file
    try:
        answer: dict[str, Any] = {"text": render(job["source"], job["messages"], tools=job["tools"],
                                                 add_generation_prompt=job["add_generation_prompt"],
                                                 bos_token=job["bos_token"], eos_token=job["eos_token"],
                                                 extra=job["extra"], seconds=seconds)}
    except _FailureError as exc:
        answer = {"kind": exc.kind, "values": {k: v if isinstance(v, (int, float, str)) and not isinstance(v, bool)
                                               else str(v) for k, v in exc.values.items()}}
    except MemoryError:
        answer = {"kind": "memory", "values": {"mb": CHILD_MEMORY_MB}}
    except Exception as exc:  # noqa: BLE001 - whatever else a template provokes ends as one line, not a traceback
        answer = {"kind": "failed", "values": {"reason": type(exc).__name__ + ": " + message_of(exc)[:500]}}
    sys.stdout.buffer.write(json.dumps(answer, ensure_ascii=False).encode("utf-8", "surrogatepass"))
    return 0


if __name__ == "__main__":
    sys.exit(_child_main())
