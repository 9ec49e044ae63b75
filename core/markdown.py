"""Markdown that shows user text literally: the one home of Markdown escaping (no Streamlit here).

- :func:`md_text` ``(value)``: any value as Markdown text that renders as exactly its text.
- :func:`md_code` ``(value)``: a value as a code span.
- :class:`Md`, :func:`md_escape`, :func:`md_format`, :func:`md_codes`: what pages hand to Streamlit's
  Markdown-rendering calls (``st.markdown``, ``st.caption``, labels, ``help=``); ``tests/test_md_sinks.py``
  checks that every such argument in the pages comes from here (or is a literal).

This module does not escape HTML (pages use ``esc``) and does not translate: a template arrives translated.
"""
from __future__ import annotations

import re
import string
from typing import Any

from .i18n import RtlTemplate, isolate

#: ASCII punctuation Markdown could read as syntax. Beyond CommonMark's: ``:`` and ``@`` (GFM and
#: Streamlit turn bare ``http://…``, ``www.…`` and ``a@b.c`` into live links; Streamlit reads
#: ``:red[…]`` and ``:material/…:``) and ``$`` (Streamlit renders ``$…$`` as KaTeX math).
_MD_PUNCT = re.compile(r"([\\`*_{}\[\]()#+\-.!|~\"':@$])")


def md_text(value: object) -> str:
    """``value`` as Markdown that renders as exactly its text, even with raw HTML enabled.

    HTML's ``& < >`` become character references and every ASCII punctuation
    character that Markdown could read as syntax is backslash-escaped
    (CommonMark allows both everywhere in text); line breaks become spaces.

    >>> md_text("![x](http://h/x.png) <img src=x>")
    '\\\\!\\\\[x\\\\]\\\\(http\\\\://h/x\\\\.png\\\\) &lt;img src=x&gt;'
    """
    text = str(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_PUNCT.sub(r"\\\1", text).replace("\r", " ").replace("\n", " ")


def md_code(value: object) -> str:
    """``value`` as a Markdown code span (shown literally): fenced with one more backtick than it contains."""
    text = str(value).replace("\r", " ").replace("\n", " ")
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or (text.startswith(" ") and text.endswith(" ") and text.strip()) else ""
    return f"{fence}{pad}{text}{pad}{fence}"


class Md(str):
    """Markdown that is safe to render as is: the result of :func:`md_escape` / :func:`md_format`.

    :func:`md_format` inserts an ``Md`` value without escaping it again, so safe pieces compose.
    """


def md_escape(value: object) -> Md:
    """``value`` as Markdown that shows exactly its text (no link, image, HTML or emphasis).

    Every user string on its way to ``st.markdown``, ``st.caption``, ``st.error`` & co.,
    a widget label or ``help=`` goes through this or :func:`md_format`
    (``tests/test_md_sinks.py`` checks the pages).
    """
    return value if isinstance(value, Md) else Md(_md_user(value))


#: Streamlit turns bare URLs and e-mail addresses in rendered text into live links (after Markdown's
#: escapes are read), so escaping alone cannot stop them: a WORD JOINER (U+2060, invisible) after the
#: scheme's colon, after ``www`` and before ``@`` breaks the match and the text still reads the same.
_BARE_LINK = re.compile(r"(\\:)(?=//)|(?i:(www))(?=\\\.)|(?=\\@)")


def _md_user(value: object) -> str:
    """One user value as Markdown text: escaped (:func:`md_text`) and never a live link."""
    return _BARE_LINK.sub(lambda m: (m.group(1) or m.group(2) or "") + "\u2060", md_text(value))


_FORMATTER = string.Formatter()


def md_format(template: str, **values: Any) -> Md:
    """A trusted Markdown ``template`` (a literal, or a translated literal) with each ``{name}`` filled
    with its value shown literally.

    ``{name:spec}`` formats as ``str.format`` does, then escapes; ``{name!c}`` shows the value as a
    code span; an :class:`Md` value (from this function or :func:`md_escape`) is inserted as is.
    With no values the template is returned unchanged (a trusted Markdown string held in a variable,
    e.g. a page's explanation).

    >>> md_format("**{n:,}** tokens in {name} · id {tok!c}", n=1200, name="*x*", tok="a`b")
    '**1,200** tokens in \\\\*x\\\\* · id ``a`b``'
    """
    if not values:
        return Md(template)
    out: list[str] = []
    for literal, field, spec, conversion in _FORMATTER.parse(template):
        out.append(literal)
        if field is None:
            continue
        value, _used = _FORMATTER.get_field(field, (), values)
        if isinstance(value, Md) and not spec and conversion is None:
            out.append(value)
            continue
        if conversion == "r":
            value = repr(value)
        elif conversion == "s":
            value = str(value)
        text = format(value, spec or "")
        piece = md_code(text) if conversion == "c" else _md_user(text)
        # a right-to-left sentence (Persian) keeps each left-to-right value in its own bidi island (core.i18n)
        out.append(isolate(piece) if isinstance(template, RtlTemplate) else piece)
    return Md("".join(out))


def md_codes(values: Any, sep: str = " ") -> Md:
    """Each of ``values`` as a code span (shown literally), joined by ``sep``."""
    return Md(sep.join(md_code(v) for v in values))
