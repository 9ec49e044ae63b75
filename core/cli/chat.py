"""``python -m core chat``: a conversation through a chat template, as the model's tokens.

JSON shapes (with ``--json``; a readable summary otherwise):

- ``chat --list``: ``[{"id", "name", "family", "tokenizer", "file", "archive", "sha256", "licence",
  "bos_token", "eos_token", "context", "needs", "note", "installed"}]``
- ``chat --template ID --messages FILE.json [--generation-prompt] [--tools FILE.json]``:
  ``{"template", "tokenizer", "needs", "text", "bos_token", "eos_token", "ids", "ids_specials_parsed",
  "tokens", "overhead_tokens", "overhead_share", "context", "context_share", "content_spans",
  "turns": [{"index", "role", "content_tokens", "overhead_tokens", "total", "found"}],
  "injection": [{"turn", "spelling", "id", "start", "end"}]}``. ``ids`` encode the messages' content as
  text (control tokens only where the template writes them); ``ids_specials_parsed`` parse special
  tokens in the whole prompt, as ``transformers``' ``apply_chat_template(tokenize=True)`` does.
  ``--template-file`` takes a ``tokenizer_config.json`` or ``.jinja`` instead (rendered only, with
  ``--tokenizer ID`` to count its tokens), rendered in a child process with a memory and a time limit.

A template that refuses the conversation, a bad messages file or a missing template is one
``error:`` line and exit status 2.
"""
from __future__ import annotations

import argparse
from typing import Any

from ..analysis import chat
from ..pretrained.chat_render import render_untrusted
from ..pretrained.chat_templates import TEMPLATES, get_template
from ..text.limits import JsonSyntaxError, escape_controls, read_json
from .common import CliError, decode_utf8, read_file_bytes


def _list(_args: argparse.Namespace) -> list[dict[str, Any]]:
    return [t.as_dict() for t in TEMPLATES.values()]


def _list_table(rows: list[dict[str, Any]]) -> str:
    lines = [f"{'id':<20} {'tokenizer':<14} {'family':<12} file"]
    for r in rows:
        lines.append(f"{r['id']:<20} {r['tokenizer'] or '-':<14} {r['family']:<12} {r['file']}")
    return "\n".join(lines)


def _read_json(path: str, what: str, max_bytes: int) -> Any:
    raw = read_file_bytes(path, max_bytes=max_bytes, what=what)
    text = decode_utf8(raw, path)
    try:
        return read_json(text, path, max_bytes=max_bytes)
    except JsonSyntaxError as exc:
        raise CliError(f"{path} is not valid JSON: {exc.reason[:120]}") from None


def _chat(args: argparse.Namespace) -> Any:
    if args.list:
        return _list(args)
    if not args.messages or not (args.template or args.template_file):
        raise CliError("give --list, or --template ID (or --template-file FILE) and --messages FILE.json")
    messages = chat.parse_conversation(_read_json(args.messages, "messages file", 4 * chat.MAX_CHAT_CHARS))
    tools = None
    if args.tools:
        raw = read_file_bytes(args.tools, max_bytes=chat.MAX_TOOLS_BYTES, what="tools file")
        tools = chat.parse_tools(decode_utf8(raw, args.tools))
    if args.template_file:
        data = read_file_bytes(args.template_file, max_bytes=chat.MAX_TEMPLATE_FILE_BYTES, what="template file")
        up = chat.template_from_upload(args.template_file, data)
        text = render_untrusted(up.source, messages, tools=tools, add_generation_prompt=args.generation_prompt,
                                bos_token=up.bos_token, eos_token=up.eos_token)
        tok = None
        if args.tokenizer:
            from ..pretrained import zoo

            tok = zoo.resolve(args.tokenizer)
        return chat.analyze_rendered(text, messages, tok, template=args.template_file, bos_token=up.bos_token,
                                     eos_token=up.eos_token).as_dict()
    tmpl = get_template(args.template)
    tok = chat.load_template_tokenizer(tmpl)
    return chat.chat_analysis(tmpl, messages, add_generation_prompt=args.generation_prompt, tools=tools,
                              tok=tok).as_dict()


def _table(result: Any) -> str:
    """The readable summary; the prompt's control characters (terminal escapes a message or a template wrote) are
    shown as escapes such as ``\\x1b``."""
    if isinstance(result, list):
        return _list_table(result)
    lines = [escape_controls(result["text"]), ""]
    if result["ids"] is None:
        lines.append(f"no tokenizer on the shelf for this template ({result['needs']})")
        return "\n".join(lines)
    lines.append(f"{result['tokens']} tokens, {result['overhead_tokens']} template overhead "
                 f"({100 * result['overhead_share']:.1f}%)")
    for t in result["turns"]:
        label = t["role"] if t["index"] is not None else "(after the last turn)"
        lines.append(f"  {label:<22} content {t['content_tokens']:>6}  overhead {t['overhead_tokens']:>5}  "
                     f"total {t['total']:>6}{'' if t['found'] else '  (content not found verbatim)'}")
    for i in result["injection"]:
        lines.append(f"  ! message {i['turn']} spells {i['spelling']} (id {i['id']}): a control token when special "
                     "tokens are parsed everywhere")
    return "\n".join(lines)


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``chat`` to the CLI."""
    p = sub.add_parser("chat", help="a conversation through a model's chat template: prompt, ids, overhead, injection")
    p.add_argument("--list", action="store_true", help="list the bundled chat templates")
    p.add_argument("--template", choices=list(TEMPLATES), metavar="ID", help="a bundled template (see --list)")
    p.add_argument("--template-file", metavar="FILE", help="a tokenizer_config.json or .jinja file instead")
    p.add_argument("--tokenizer", metavar="ID", help="with --template-file: the tokenizer to count with")
    p.add_argument("--messages", metavar="FILE.json", help='a JSON list of {"role": ..., "content": ...}')
    p.add_argument("--tools", metavar="FILE.json", help="tool definitions (a JSON list of objects)")
    p.add_argument("--generation-prompt", action="store_true", help="add the generation prompt (add_generation_prompt)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_chat, table=_table)
