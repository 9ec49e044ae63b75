"""The checkpoint report's "why it costs what it costs": each tokenizer's premium taken apart, as HTML and Markdown.

The figures are :class:`core.analysis.tax_steps.Decomposition` records of the report's text against its English
version (each line encoded on its own, as on the Multilingual tax page). The HTML draws each tokenizer's steps
as a waterfall on its side, in multiples of English's tokens: a row per step, named, its bar floating from the
level before it to its own (a fall is drawn as well as a rise), its own hatch, and the level and the change in
figures (not colour alone), with the verdict sentence under it; the Markdown gives the same levels as a table. Both are self-contained.
"""
from __future__ import annotations

import html
from typing import Sequence

from ..i18n import Translator
from ..markdown import md_text
from ..tokens import IdCodec
from .measures import measure_lines
from .tax_steps import STEPS, Decomposition, decompose, verdict

#: Each step's fill (colour-blind-safe, with a hatch so colour is not the only cue).
_FILL = {
    "english": "#88CCEE",
    "pretokenizer": "repeating-linear-gradient(45deg,#DDCC77 0 4px,#fff 4px 6px)",
    "vocabulary": "repeating-linear-gradient(-45deg,#CC6677 0 4px,#fff 4px 6px)",
    "merges": "repeating-linear-gradient(90deg,#332288 0 3px,#fff 3px 5px)",
}


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _x(v: float | None) -> str:
    return "–" if v is None else f"{v:.2f}×"


def decompose_text(tok: IdCodec, text: str, english: str, *, label: str) -> Decomposition:
    """The premium of ``text`` over its English version taken apart, each non-blank line encoded on its own
    (``label`` names the text in the verdict)."""
    lines = [s for s in text.splitlines() if s.strip()]
    en_lines = [s for s in english.splitlines() if s.strip()]
    m, en = measure_lines(tok, lines), measure_lines(tok, en_lines)
    return decompose(tok.id, label, m, en, chars=sum(map(len, lines)), nbytes=sum(len(s.encode("utf-8")) for s in lines),
                     en_chars=sum(map(len, en_lines)), en_bytes=sum(len(s.encode("utf-8")) for s in en_lines))


def decomposition_html(decs: Sequence[Decomposition], tx: Translator) -> str:
    """The section as HTML: a bar of steps per tokenizer with its figures and verdict."""
    if not decs:
        return ""
    gettext = tx.gettext
    top = max(max(d.levels()) for d in decs) or 1.0
    out = ["<section><h2>" + _e(gettext("Why it costs what it costs")) + "</h2><p>"
           + _e(gettext("Each step in multiples of English's tokens: the pieces the pre-tokenizer makes (each costs at "
                        "least one token), the fewest tokens the vocabulary can spell them with, and the tokens the "
                        "merges really give.")) + "</p>"]
    for d in decs:
        rows = []
        for k, name in STEPS:  # a waterfall on its side: each step floats from the level before it to its own
            start, end = d.steps()[k]
            left, width = 100 * min(start, end) / top, max(100 * abs(end - start) / top, 0.4)
            change = "" if k == "english" else f" ({end - start:+.2f})"
            rows.append(f'<tr><td>{_e(gettext(name))}</td><td style="width:60%"><div style="position:relative;'
                        f'height:1.2em"><span style="position:absolute;left:{left:.2f}%;width:{width:.2f}%;top:0;'
                        f'bottom:0;background:{_FILL[k]};border:1px solid #333"></span></div></td>'
                        f'<td class="num">{_e(_x(end) + change)}</td></tr>')
        out.append(f'<div class="tl-steps" data-tokenizer="{_e(d.tokenizer)}"><h3>{_e(d.tokenizer)}</h3>'
                   f'<table dir="ltr" style="width:100%">{"".join(rows)}</table>'
                   f"<p>{_e(verdict(d, lang=tx.lang))}</p></div>")
    bpc = gettext("UTF-8 bytes per character: {language} {value}, English {english}.").format(
        language=decs[0].language, value=f"{decs[0].bytes_per_char:.2f}", english=f"{decs[0].en_bytes_per_char:.2f}")
    out.append(f"<p>{_e(bpc)}</p></section>")
    return "".join(out)


def decomposition_md(decs: Sequence[Decomposition], tx: Translator) -> list[str]:
    """The section as Markdown lines: the levels as a table, then each verdict."""
    if not decs:
        return []
    gettext = tx.gettext
    head = [gettext("tokenizer")] + [gettext(name) for _k, name in STEPS]
    out = ["## " + md_text(gettext("Why it costs what it costs")), "",
           "| " + " | ".join(md_text(h) for h in head) + " |", "|" + "|".join(" --- " for _ in head) + "|"]
    out += ["| " + " | ".join([md_text(d.tokenizer)] + [_x(v) for v in d.levels()]) + " |" for d in decs]
    out.append("")
    out += [f"- {md_text(verdict(d, lang=tx.lang))}" for d in decs]
    return out + [""]
