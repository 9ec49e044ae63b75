"""The differences view: a :class:`core.text.disagree.Disagreement` as one row per tokenizer.

Every cut position not all tokenizers make is marked (``▼`` this one cuts, ``▽`` another does, ``✂`` inside a
character); :func:`diff_legend_html` is its key.
"""
from __future__ import annotations

import html
from bisect import bisect_left

from ..i18n import DEFAULT_LANG, N_, Translator, translator
from ..text.disagree import Cut, Disagreement
from ..text.scripts import joined_at
from ..text.units import cluster_bounds
from .glyphs import visible_text

#: How a row of the differences view marks a cut: every tokenizer makes it, this one makes it and some other does
#: not, or another makes it and this one does not. Shapes, not only colours: a thin bar, ▼, ▽.
_DIFF_GLYPHS = {"common": "", "own": "▼", "missed": "▽"}
_DIFF_TITLES = {
    "common": N_("every tokenizer cuts here"),
    "own": N_("this tokenizer cuts here; not every tokenizer does"),
    "missed": N_("this tokenizer does not cut here; another one does"),
}
_DIFF_INSIDE = N_("the cut is inside a character (a code point)")
#: Characters of the text the differences view draws (the figures count the whole text): a byte-level row of
#: Bangla has two or three marks per character.
DEFAULT_DIFF_CHARS = 600


def _diff_mark(cut: Cut, kind: str, text: str, t: Translator) -> str:
    gettext = t.gettext
    if cut.inside:
        size = len(text[cut.char].encode("utf-8"))
        where = gettext("inside character {n}, after byte {byte} of {bytes}").format(
            n=t.format_number(cut.char + 1), byte=t.format_number(cut.inner), bytes=t.format_number(size))
    else:
        where = gettext("before character {n}").format(n=t.format_number(cut.char + 1))
    title = html.escape(where, quote=True)  # what the mark means is in the legend (a page has thousands of marks)
    inside = " tl-dcut-in" if cut.inside else ""
    glyph = _DIFF_GLYPHS[kind] + ("✂" if cut.inside else "")
    return (f'<span class="tl-dcut tl-dcut-{kind}{inside}" data-kind="{kind}" data-char="{cut.char}" '
            f'data-inner="{cut.inner}" title="{title}">{glyph}</span>')


def diff_legend_html(lang: str = DEFAULT_LANG) -> str:
    """A one-line key to the marks of :func:`render_differences`, in ``lang``."""
    t = translator(lang)
    sample = Cut(0)
    common, own, missed, inside = (html.escape(t.gettext(m)) for m in (
        _DIFF_TITLES["common"], _DIFF_TITLES["own"], _DIFF_TITLES["missed"], _DIFF_INSIDE))
    marks = {k: _diff_mark(sample, k, "a", t) for k in _DIFF_GLYPHS}
    return (
        '<div class="tl-legend tl-diff-legend">'
        f'{marks["common"]} {common} &nbsp; {marks["own"]} {own} &nbsp; {marks["missed"]} {missed} &nbsp; '
        f'<span class="tl-dcut tl-dcut-own tl-dcut-in">✂</span> {inside}'
        "</div>"
    )


def render_differences(diff: Disagreement, *, max_chars: int | None = DEFAULT_DIFF_CHARS, legend: bool = True,
                       lang: str = DEFAULT_LANG, digits: str = "western") -> str:
    """HTML of ``diff``: one row per tokenizer, the text with every cut position any of them makes marked.

    On each row a cut every tokenizer makes is a thin bar; one this tokenizer makes and some other does not is
    ``▼`` (on a red bar); one another makes and this one does not is ``▽`` (``✂`` is added when the cut splits a
    character). A row breaks the text only where it cuts itself and between letters: a ``▽`` for a cut inside a
    letter (a grapheme cluster) is drawn after that letter, so the letters this tokenizer keeps whole stay
    shaped. ``max_chars`` caps the characters drawn (None: all); the rows' figures count the whole text.
    """
    t = translator(lang, digits)
    text = diff.text
    shown = len(text) if max_chars is None else min(len(text), max_chars)
    every = set(diff.common)
    bounds = cluster_bounds(text)
    out = [diff_legend_html(lang)] if legend else []
    out.append('<div class="tl-diff">')
    for row in diff.rows:
        # where this row breaks the text: before a character for its cut between characters, after it for its cut
        # inside one; a cut it misses at the end of the letter that holds it
        at: dict[int, list[tuple[Cut, str]]] = {}
        for cut in row.cuts:
            if cut.char < shown:
                at.setdefault(cut.char + 1 if cut.inside else cut.char, []).append(
                    (cut, "common" if cut in every else "own"))
        for cut in row.missed:
            if cut.char < shown:
                k = cut.char + 1 if cut.inside else cut.char
                at.setdefault(min(bounds[bisect_left(bounds, k)], shown), []).append((cut, "missed"))
        head = t.ngettext("{name}: {count} cut, {own} not made by every tokenizer",
                          "{name}: {count} cuts, {own} not made by every tokenizer", len(row.cuts)).format(
            name=row.name, count=t.format_number(len(row.cuts)), own=t.format_number(len(row.own)))
        parts = [f'<div class="tl-diff-row"><div class="tl-diff-name">{html.escape(head)}</div>'
                 '<div class="tl-tokens tl-diff-line" dir="auto">']
        start = 0
        zwj = ""  # a ZWJ on both sides of marks between two joined letters keeps their joined forms (بـ▽ـر)
        for k in sorted(at):
            joined = "\u200d" if joined_at(text, k) else ""
            parts.append(zwj + visible_text(text[start:k], mark_orphan=start > 0) + joined)
            parts.extend(_diff_mark(cut, kind, text, t) for cut, kind in sorted(at[k]))  # in text order
            start, zwj = k, joined
        parts.append(zwj + visible_text(text[start:shown], mark_orphan=start > 0))
        parts.append("</div></div>")
        out.append("".join(parts))
    out.append("</div>")
    if shown < len(text):
        out.append('<div class="tl-note">' + html.escape(t.gettext(
            "Showing the first {shown} of {total} characters; the figures count the whole text.").format(
            shown=t.format_number(shown), total=t.format_number(len(text)))) + "</div>")
    return "".join(out)
