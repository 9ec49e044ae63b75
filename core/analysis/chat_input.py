"""Chat input: a conversation, a tool list or an uploaded template file read and checked before anything renders.

Every refusal is a :class:`ChatInputError` with a one-line reason (a user error: the CLI exits 2, the page says it).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..i18n import T_
from ..text import limits
from ..text.errors import UserError

#: Roles a turn may have (``developer`` is gpt-oss's and OpenAI's name for a second system turn).
ROLES = ("system", "developer", "user", "assistant", "tool")
#: Most turns in one conversation, and most characters in all of them.
MAX_TURNS = 200
MAX_CHAT_CHARS = 200_000
#: Largest uploaded ``tokenizer_config.json`` or ``.jinja`` file.
MAX_TEMPLATE_FILE_BYTES = 4 * 1024 * 1024
#: Largest tool definitions JSON.
MAX_TOOLS_BYTES = 64 * 1024



class ChatInputError(UserError):
    """A conversation, tool list or template file that cannot be used (one-line reason)."""




def parse_conversation(value: Any) -> list[dict[str, Any]]:
    """The conversation as a list of ``{"role", "content"}`` dicts (other keys kept), checked.

    >>> parse_conversation([{"role": "user", "content": "hi"}])
    [{'role': 'user', 'content': 'hi'}]
    """
    if not isinstance(value, list):
        raise ChatInputError(T_("a conversation is a JSON list of messages, each {shape}",
                                shape='{"role": ..., "content": ...}'))
    if not value:
        raise ChatInputError(T_("the conversation is empty"))
    if len(value) > MAX_TURNS:
        raise ChatInputError(T_("the conversation has {count:,} messages; the limit is {limit}", count=len(value),
                                limit=MAX_TURNS))
    out: list[dict[str, Any]] = []
    total = 0
    for k, msg in enumerate(value, 1):
        if not isinstance(msg, dict):
            raise ChatInputError(T_("message {n} is not an object with a role and a content", n=k))
        role, content = msg.get("role"), msg.get("content")
        if role not in ROLES:
            raise ChatInputError(T_("message {n} has role {role}; roles are {roles}", n=k, role=repr(role)[:40],
                                    roles=", ".join(ROLES)))
        if not isinstance(content, str):
            raise ChatInputError(T_("message {n} has no text content (content must be a string)", n=k))
        limits.check_size(content, max_bytes=4 * MAX_CHAT_CHARS, what=T_("message {n}", n=k))
        if not _is_unicode(msg):
            raise ChatInputError(T_("message {n} contains a lone surrogate (not valid Unicode text)", n=k))
        total += len(content)
        out.append(dict(msg))
    if total > MAX_CHAT_CHARS:
        raise ChatInputError(T_("the conversation has {count:,} characters; the limit is {limit:,}", count=total,
                                limit=MAX_CHAT_CHARS))
    return out


def parse_tools(text: str) -> list[dict[str, Any]] | None:
    """Tool definitions from JSON text (a list of objects, the OpenAI / transformers shape); None when empty."""
    if not text.strip():
        return None
    raw = text.encode("utf-8", "surrogatepass")
    try:
        value = limits.read_json(raw, T_("the tool definitions"), max_bytes=MAX_TOOLS_BYTES)
    except limits.JsonSyntaxError as exc:
        raise ChatInputError(T_("the tool definitions are not valid JSON: {reason}", reason=exc.reason[:120])) from None
    except limits.LimitError as exc:
        raise ChatInputError(str(exc)) from None
    if not isinstance(value, list) or not all(isinstance(t, dict) for t in value):
        raise ChatInputError(T_("tool definitions are a JSON list of objects"))
    if not _is_unicode(value):  # a "\ud800" escape: JSON allows it, no text can hold it
        raise ChatInputError(T_("the tool definitions contain a lone surrogate (not valid Unicode text)"))
    return value


def _is_unicode(value: object) -> bool:
    """Whether every string in ``value`` (a parsed JSON value, keys included) is valid Unicode (no lone surrogate).

    >>> _is_unicode({"a": ["b", 1]}), _is_unicode({"a": "\\ud800"})
    (True, False)
    """
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    except (TypeError, ValueError):  # not JSON data (a caller's own objects): nothing to say about its text
        return True
    return True


@dataclass(frozen=True)
class UploadedTemplate:
    """A chat template read from a user's file, with the special tokens its config names."""

    name: str
    source: str
    bos_token: str | None
    eos_token: str | None


def _token_string(value: object) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and isinstance(value.get("content"), str):
        return str(value["content"])
    return None


def template_from_upload(name: str, data: bytes) -> UploadedTemplate:
    """The template of an uploaded ``tokenizer_config.json`` (its ``chat_template``) or ``.jinja`` file.

    Checked like an uploaded tokenizer: size, JSON depth, UTF-8; a config with several named templates
    gives its ``default`` one (else the first).
    """
    try:
        limits.check_size(data, max_bytes=MAX_TEMPLATE_FILE_BYTES, what=T_("template file “{name}”", name=name))
        if not data:
            raise ChatInputError(T_("{name} is empty", name=name))
        text = data.decode("utf-8")
    except limits.LimitError as exc:
        raise ChatInputError(str(exc)) from None
    except UnicodeDecodeError as exc:
        raise ChatInputError(T_("{name} is not valid UTF-8 (byte {offset})", name=name, offset=exc.start)) from None
    if not name.lower().endswith(".json"):
        return UploadedTemplate(name, text, None, None)
    try:
        cfg = limits.read_json(data, name, max_bytes=MAX_TEMPLATE_FILE_BYTES)
    except limits.JsonSyntaxError as exc:
        raise ChatInputError(T_("{name} is not valid JSON: {reason}", name=name, reason=exc.reason[:120])) from None
    except limits.LimitError as exc:
        raise ChatInputError(str(exc)) from None
    tmpl = cfg.get("chat_template") if isinstance(cfg, dict) else None
    if isinstance(tmpl, list):
        entries = [t for t in tmpl if isinstance(t, dict)]
        bad = next((k for k, t in enumerate(entries, 1) if not isinstance(t.get("name"), (str, type(None)))), None)
        if bad is not None:
            raise ChatInputError(T_("{name}: the name of chat_template entry {n} is not a string", name=name, n=bad))
        named = {t.get("name"): t.get("template") for t in entries}
        tmpl = named.get("default", next(iter(named.values()), None))
    if not isinstance(tmpl, str) or not tmpl:
        raise ChatInputError(T_("{name} has no chat_template", name=name))
    assert isinstance(cfg, dict)
    return UploadedTemplate(name, tmpl, _token_string(cfg.get("bos_token")), _token_string(cfg.get("eos_token")))
