"""The key to the chips: a token, the three separator shapes, partial bytes, whitespace glyphs."""
from __future__ import annotations

import html

from ..i18n import DEFAULT_LANG, translator
from .chips import sep_html


def legend_html(lang: str = DEFAULT_LANG) -> str:
    """A one-line key to the chips and the three separator shapes, in ``lang``."""
    t = translator(lang)
    gettext = t.gettext
    # (babel on Python 3.11 does not look inside f-string fields: the messages are looked up first)
    tok, clean, in_letter, in_cp, part, ws = (html.escape(m) for m in (
        gettext("token"), gettext("clean boundary"), gettext("cut inside a letter (grapheme cluster)"), gettext("cut inside a code point"),
        gettext("bytes that are not a whole character"), gettext("space, tab, newline")))
    return (
        '<div class="tl-legend">'
        f'<span class="tl-tok tl-c0">{tok}</span>'
        f'{sep_html("clean", t)}<span class="tl-tok tl-c1">{tok}</span> {clean} &nbsp; '
        f'{sep_html("inside_grapheme", t)} {in_letter} &nbsp; '
        f'{sep_html("inside_codepoint", t)} {in_cp} &nbsp; '
        '<span class="tl-tok tl-c2"><span class="tl-hex" dir="ltr">E0 A6</span><span class="tl-part">…</span></span> '
        f'{part} &nbsp; '
        '<span class="tl-tok tl-c4" dir="ltr"><span class="tl-ws">·</span><span class="tl-ws">→</span>'
        f'<span class="tl-ws">↵</span></span> {ws}'
        "</div>"
    )
