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
call, attribute or item lookup and every 256 steps of ``range`` checks a
deadline (:data:`RENDER_SECONDS`); ``*``, ``**`` and ``+`` refuse results
over :data:`MAX_OUTPUT_CHARS`; the output is counted as it is made. A
template that raises, breaks a rule or a limit ends in a
:class:`ChatTemplateError` whose text is the template's own message inside a
translated frame. This module tokenizes nothing.
"""
from __future__ import annotations

import json
import time
from contextvars import ContextVar
from datetime import datetime
from functools import lru_cache
from typing import Any, Mapping, Sequence

import jinja2
import jinja2.ext
import jinja2.nodes
import jinja2.utils
from jinja2.sandbox import ImmutableSandboxedEnvironment, safe_range

from ..i18n import T_

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


class ChatTemplateError(ValueError):
    """A template that does not compile, raises, breaks a sandbox rule or exceeds a limit."""


class _LimitError(Exception):
    """Raised inside a render when a limit is crossed (turned into a :class:`ChatTemplateError`)."""


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
        return _check_size(_sandbox_call(self, context, obj, *args, **kwargs))

    def getattr(self, obj: Any, attribute: str) -> Any:
        _tick()
        return _sandbox_getattr(self, obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        _tick()
        return _sandbox_getitem(self, obj, argument)


@lru_cache(maxsize=64)
def compile_template(source: str) -> jinja2.Template:
    """The compiled template (cached by its source); :class:`ChatTemplateError` when it does not compile."""
    if len(source.encode("utf-8", "surrogatepass")) > MAX_TEMPLATE_BYTES:
        raise ChatTemplateError(T_("the chat template is larger than {limit:,} bytes", limit=MAX_TEMPLATE_BYTES))
    env = _Env(trim_blocks=True, lstrip_blocks=True, extensions=[_Generation, jinja2.ext.loopcontrols])
    env.filters["tojson"] = _tojson
    env.globals.update(raise_exception=_raise_exception, strftime_now=_strftime_now, dict=_DictMaker(),
                       namespace=_Namespace, range=_TimedRange)
    try:
        return env.from_string(source)
    except jinja2.exceptions.TemplateSyntaxError as exc:
        raise ChatTemplateError(T_("the chat template does not compile: {reason} (line {line})",
                                   reason=exc.message or str(exc), line=exc.lineno)) from None
    except (jinja2.exceptions.TemplateError, RecursionError, MemoryError, ValueError) as exc:
        raise ChatTemplateError(T_("the chat template does not compile: {reason} (line {line})", reason=str(exc),
                                   line="?")) from None


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
            raise ChatTemplateError(T_("the chat template ran longer than {seconds} s and was stopped",
                                       seconds=seconds)) from None
        raise ChatTemplateError(T_("the chat template made more than {limit:,} characters and was stopped",
                                   limit=MAX_OUTPUT_CHARS)) from None
    except jinja2.exceptions.SecurityError as exc:
        raise ChatTemplateError(T_("the chat template tried something the sandbox forbids: {reason}",
                                   reason=str(exc))) from None
    except jinja2.exceptions.TemplateError as exc:
        raise ChatTemplateError(T_("the chat template refused this conversation: {reason}", reason=str(exc))) from None
    except RecursionError:
        raise ChatTemplateError(T_("the chat template recursed too deeply")) from None
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError, OverflowError) as exc:
        reason = type(exc).__name__ + ": " + str(exc)
        raise ChatTemplateError(T_("the chat template failed: {reason}", reason=reason)) from None
    finally:
        _deadline.reset(token)
    return "".join(out)
