"""Small charts as inline SVG (no Streamlit import, no JavaScript, no network).

Each chart is an ``<img>`` of an SVG data URI: Streamlit's ``st.html`` sanitizer
drops inline ``<svg>``, and an image also keeps the chart's own fonts and sizes.

Why not plotly: in a fresh browser a plotly chart makes Streamlit fetch and
run a 4.7 MB script before anything is drawn, which kept the stepper, train
and tax pages grey for seconds (``bench/browser_speed.py``). These charts are
a few kilobytes of SVG drawn with the page. Every series has its own dash or
marker shape besides its colour (not colour alone), the chart's ``alt`` text
names what it shows, and every label goes through :func:`pages._layout.esc`.

- :func:`line_chart` ``(series, ...)``: lines and/or markers, optional second
  y axis, log axes, a vertical marker line (the stepper's current step).
- :func:`bar_chart` ``(categories, series, ...)``: grouped bars with an
  optional reference line (English = 1).
- :func:`lattice_chart` ``(chars, arcs, ...)``: a word's characters on a line,
  each piece an arc from its start to its end (the Unigram lattice).

Labels are also made safe for XML (the SVG is parsed as XML: a control
character in a label would blank the whole image), see :func:`_label`.
"""
from __future__ import annotations

import base64
import math
import re
from dataclasses import dataclass
from typing import Sequence

from core.i18n import N_
from core.render import char_label
from pages._lang import _
from pages._layout import esc

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _label(text: object) -> str:
    """``text`` for an SVG label: escaped, and characters XML cannot carry (C0 controls,
    lone surrogates) shown as U+FFFD instead of blanking the image."""
    return esc(_NOT_XML.sub("\ufffd", str(text)))

#: Paul Tol's "bright" scheme (colour-blind safe on white).
COLOURS = ("#4477AA", "#EE6677", "#228833", "#CCBB44", "#66CCEE", "#AA3377", "#BBBBBB")
DASHES = ("", "6 4", "2 3", "8 3 2 3", "1 4", "10 4")
SHAPES = ("circle", "square", "diamond", "triangle", "cross", "circle-open")


@dataclass(frozen=True)
class Series:
    """One line / marker series. ``axis``: "y" (left) or "y2" (right); ``mode``:
    "lines", "markers" or "lines+markers"; ``hover``: one tooltip line per point."""

    name: str
    xs: Sequence[float]
    ys: Sequence[float | None]
    colour: str = COLOURS[0]
    dash: str = ""
    shape: str = "circle"
    axis: str = "y"
    mode: str = "lines"
    hover: Sequence[str] | None = None


def _above(lo: float) -> float:
    """A value clearly above ``lo``: ``lo + 1``, or more where 1 is below a float's step (``1e23 + 1 == 1e23``)."""
    return lo + max(1.0, 1e6 * math.ulp(lo))


def _nice_ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    if hi <= lo:
        hi = _above(lo)
    raw = (hi - lo) / n
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first, last = math.floor(lo / step + 1e-9), math.ceil(hi / step - 1e-9)  # the ticks cover [lo, hi]
    return [round(k * step, 10) for k in range(first, last + 1)]


def _log_ticks(lo: float, hi: float) -> list[float]:
    a, b = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    return [10.0 ** k for k in range(a, b + 1)]


def _fmt(v: float) -> str:
    if abs(v) >= 1000 and float(v).is_integer():
        return f"{int(v):,}"
    return f"{v:g}"


class _Axis:
    def __init__(self, values: Sequence[float], lo_px: float, hi_px: float, log: bool = False,
                 zero: bool = False) -> None:
        vals = [v for v in values if v is not None and (v > 0 or not log)]
        lo, hi = (min(vals), max(vals)) if vals else (0.0, 1.0)
        if zero and not log:
            lo = min(lo, 0.0)
        self.log = log
        self.ticks = _log_ticks(lo, hi) if log else _nice_ticks(lo, hi)
        self.lo, self.hi = self.ticks[0], self.ticks[-1]
        if self.hi <= self.lo:
            self.hi = _above(self.lo)
        self.lo_px, self.hi_px = lo_px, hi_px

    def __call__(self, v: float) -> float:
        if self.log:
            f = (math.log10(v) - math.log10(self.lo)) / (math.log10(self.hi) - math.log10(self.lo))
        else:
            f = (v - self.lo) / (self.hi - self.lo)
        return self.lo_px + f * (self.hi_px - self.lo_px)


def _marker(shape: str, x: float, y: float, colour: str, size: float = 4.5) -> str:
    s = size
    if shape == "square":
        return f'<rect x="{x - s:.1f}" y="{y - s:.1f}" width="{2 * s:.1f}" height="{2 * s:.1f}" fill="{colour}"/>'
    if shape == "diamond":
        return f'<path d="M{x:.1f} {y - s * 1.3:.1f}L{x + s * 1.3:.1f} {y:.1f}L{x:.1f} {y + s * 1.3:.1f}L{x - s * 1.3:.1f} {y:.1f}Z" fill="{colour}"/>'
    if shape == "triangle":
        return f'<path d="M{x:.1f} {y - s * 1.3:.1f}L{x + s * 1.2:.1f} {y + s:.1f}L{x - s * 1.2:.1f} {y + s:.1f}Z" fill="{colour}"/>'
    if shape == "cross":
        return (f'<path d="M{x - s:.1f} {y - s:.1f}L{x + s:.1f} {y + s:.1f}M{x - s:.1f} {y + s:.1f}L{x + s:.1f} {y - s:.1f}" '
                f'stroke="{colour}" stroke-width="2.2"/>')
    if shape == "circle-open":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{s:.1f}" fill="#fff" stroke="{colour}" stroke-width="2"/>'
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{s:.1f}" fill="{colour}"/>'


_SVG_STYLE = ("<style>.tl-chart-tick{font:11px 'Noto Sans',sans-serif;fill:#444}"
              ".tl-chart-axis{font:12px 'Noto Sans',sans-serif;fill:#222}</style>")


def _img(svg: str, alt: str, cls: str, width: int | None = None, height: int | None = None) -> str:
    """An SVG string as an ``<img>`` data URI (``svg`` starts with ``<svg``)."""
    svg = svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    size = (f' width="{width}"' if width else "") + (f' height="{height}"' if height else "")
    return f'<img class="{cls}" alt="{esc(alt)}"{size} src="data:image/svg+xml;base64,{data}">'


def _legend(series: Sequence[Series]) -> str:
    items = []
    for s in series:
        line = (f'<line x1="0" y1="8" x2="26" y2="8" stroke="{s.colour}" stroke-width="2.5" '
                f'stroke-dasharray="{s.dash}"/>') if "lines" in s.mode else ""
        mark = _marker(s.shape, 13, 8, s.colour, 4) if "markers" in s.mode else ""
        key = _img(f'<svg width="28" height="16" viewBox="0 0 28 16">{line}{mark}</svg>', "", "tl-chart-keyimg", 28, 16)
        items.append(f'<span class="tl-chart-key">{key}{esc(s.name)}</span>')
    return f'<div class="tl-chart-legend">{"".join(items)}</div>'


def _frame(title: str, svg: str, legend: str, label: str) -> str:
    cap = f'<figcaption class="tl-chart-title">{esc(title)}</figcaption>' if title else ""
    return (f'<figure class="tl-chart" data-testid="tl-chart">{cap}'
            f'{_img(svg, label or title, "tl-chart-svg")}{legend}</figure>')


def line_chart(series: Sequence[Series], *, title: str = "", x_title: str = "", y_title: str = "",
               y2_title: str = "", log_x: bool = False, log_y: bool = False, marker_x: float | None = None,
               marker_label: str = "", width: int = 640, height: int = 300) -> str:
    """An SVG line/marker chart (HTML string) for ``st.html``."""
    left, right, top, bottom = 64, (64 if any(s.axis == "y2" for s in series) else 16), 12, 44
    xs = [x for s in series for x in s.xs]
    ax = _Axis(xs, left, width - right, log_x)
    ay = _Axis([y for s in series if s.axis == "y" for y in s.ys], height - bottom, top, log_y)
    ay2 = _Axis([y for s in series if s.axis == "y2" for y in s.ys], height - bottom, top, log_y) \
        if any(s.axis == "y2" for s in series) else None
    out = [f'<svg viewBox="0 0 {width} {height}" width="{width}" height="{height}">{_SVG_STYLE}']
    for t in ay.ticks:
        y = ay(t)
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y:.1f}" y2="{y:.1f}" stroke="#e4e4e4"/>'
                   f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end" class="tl-chart-tick">{_fmt(t)}</text>')
    if ay2 is not None:
        for t in ay2.ticks:
            out.append(f'<text x="{width - right + 6}" y="{ay2(t) + 4:.1f}" class="tl-chart-tick">{_fmt(t)}</text>')
    for t in ax.ticks:
        x = ax(t)
        out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{height - bottom}" y2="{height - bottom + 4}" stroke="#777"/>'
                   f'<text x="{x:.1f}" y="{height - bottom + 17}" text-anchor="middle" class="tl-chart-tick">{_fmt(t)}</text>')
    out.append(f'<line x1="{left}" x2="{width - right}" y1="{height - bottom}" y2="{height - bottom}" stroke="#777"/>')
    if x_title:
        out.append(f'<text x="{(left + width - right) / 2:.0f}" y="{height - 6}" text-anchor="middle" '
                   f'class="tl-chart-axis">{esc(x_title)}</text>')
    if y_title:
        out.append(f'<text transform="translate(14 {(top + height - bottom) / 2:.0f}) rotate(-90)" text-anchor="middle" '
                   f'class="tl-chart-axis">{esc(y_title)}</text>')
    if y2_title:
        out.append(f'<text transform="translate({width - 10} {(top + height - bottom) / 2:.0f}) rotate(90)" '
                   f'text-anchor="middle" class="tl-chart-axis">{esc(y2_title)}</text>')
    for s in series:
        yax = ay2 if s.axis == "y2" and ay2 is not None else ay
        pts = [(ax(x), yax(y), k) for k, (x, y) in enumerate(zip(s.xs, s.ys))
               if y is not None and (not log_y or y > 0) and (not log_x or x > 0)]
        if "lines" in s.mode and len(pts) > 1:
            d = "M" + "L".join(f"{x:.1f} {y:.1f}" for x, y, _ in pts)
            out.append(f'<path d="{d}" fill="none" stroke="{s.colour}" stroke-width="2.5" stroke-dasharray="{s.dash}"/>')
        if "markers" in s.mode:
            for x, y, k in pts:
                tip = s.hover[k] if s.hover else f"{s.name}: {_fmt(s.xs[k])}, {_fmt(s.ys[k])}"  # type: ignore[arg-type]
                out.append(f"<g>{_marker(s.shape, x, y, s.colour, 3.5 if len(pts) > 200 else 4.5)}"
                           f"<title>{esc(tip)}</title></g>")
    if marker_x is not None:
        x = ax(marker_x)
        out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top}" y2="{height - bottom}" stroke="#222" stroke-width="2" '
                   f'stroke-dasharray="3 3"/><text x="{x + 4:.1f}" y="{top + 12}" class="tl-chart-tick">'
                   f"{esc(marker_label)}</text>")
    out.append("</svg>")
    return _frame(title, "".join(out), _legend(series), title or y_title)


def bar_chart(categories: Sequence[str], series: Sequence[tuple[str, Sequence[float]]], *, title: str = "",
              y_title: str = "", ref: float | None = None, ref_label: str = "", width: int = 720,
              height: int = 320, base: Sequence[Sequence[float]] | None = None) -> str:
    """Grouped bars: one group per category, one bar per series (colour plus hatch pattern per series).
    ``base[k][g]``: where series ``k``'s bar in group ``g`` starts (a waterfall's floating steps; 0 without)."""
    # the reference line's label sits in a margin right of the bars, never on one
    left, right, top, bottom = 56, 12 + (round(len(ref_label) * 6.5) + 8 if ref is not None and ref_label else 0), 14, 48
    values = [v for _, vs in series for v in vs] + ([ref] if ref is not None else []) + [v for b in base or [] for v in b]
    ay = _Axis(values, height - bottom, top, zero=True)
    group_w = (width - left - right) / max(1, len(categories))
    bar_w = group_w * 0.8 / max(1, len(series))
    patterns = []
    for k, _series in enumerate(series):
        c = COLOURS[k % len(COLOURS)]
        lines = "" if k == 0 else (f'<path d="M0 6L6 0" stroke="#fff" stroke-width="{1 + k % 3}"/>' if k % 2
                                   else '<circle cx="3" cy="3" r="1.2" fill="#fff"/>')
        patterns.append(f'<pattern id="tlp{k}" width="6" height="6" patternUnits="userSpaceOnUse">'
                        f'<rect width="6" height="6" fill="{c}"/>{lines}</pattern>')
    out = [f'<svg viewBox="0 0 {width} {height}" width="{width}" height="{height}">{_SVG_STYLE}'
           f"<defs>{''.join(patterns)}</defs>"]
    for t in ay.ticks:
        y = ay(t)
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y:.1f}" y2="{y:.1f}" stroke="#e4e4e4"/>'
                   f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end" class="tl-chart-tick">{_fmt(t)}</text>')
    for g, cat in enumerate(categories):
        gx = left + g * group_w + group_w * 0.1
        for k, (name, vs) in enumerate(series):
            v = vs[g]
            b = base[k][g] if base else 0.0
            y0, y1 = ay(b), ay(v)
            out.append(f'<rect x="{gx + k * bar_w:.1f}" y="{min(y0, y1):.1f}" width="{bar_w * 0.92:.1f}" '
                       f'height="{max(abs(y0 - y1), 1):.1f}" fill="url(#tlp{k})" stroke="#333" stroke-width=".5">'
                       f"<title>{esc(name)} · {esc(cat)}: {v:.2f}{f' ({v - b:+.2f})' if base else ''}</title></rect>"
                       + (f'<text x="{gx + (k + .46) * bar_w:.1f}" y="{min(y0, y1) - 3 if v >= b else max(y0, y1) + 11:.1f}" '
                          f'text-anchor="middle" class="tl-chart-tick">{v:.2f}</text>' if base else ""))
        out.append(f'<text x="{left + (g + .5) * group_w:.1f}" y="{height - bottom + 17}" text-anchor="middle" '
                   f'class="tl-chart-tick">{esc(cat)}</text>')
    out.append(f'<line x1="{left}" x2="{width - right}" y1="{ay(0):.1f}" y2="{ay(0):.1f}" stroke="#777"/>')
    if ref is not None:
        y = ay(ref)
        out.append(f'<line x1="{left}" x2="{width - right}" y1="{y:.1f}" y2="{y:.1f}" stroke="#222" '
                   f'stroke-dasharray="4 3"/><text x="{width - right + 6}" y="{y + 4:.1f}" '
                   f'class="tl-chart-tick">{esc(ref_label)}</text>')
    if y_title:
        out.append(f'<text transform="translate(14 {(top + height - bottom) / 2:.0f}) rotate(-90)" text-anchor="middle" '
                   f'class="tl-chart-axis">{esc(y_title)}</text>')
    out.append("</svg>")
    keys = "".join(
        '<span class="tl-chart-key">' + _img(f'<svg width="18" height="14" viewBox="0 0 18 14"><defs>{patterns[k]}</defs>'
                                             f'<rect width="18" height="14" fill="url(#tlp{k})" stroke="#333" '
                                             f'stroke-width=".5"/></svg>', "", "tl-chart-keyimg", 18, 14)
        + f"{esc(name)}</span>"
        for k, (name, _) in enumerate(series))
    return _frame(title, "".join(out), f'<div class="tl-chart-legend">{keys}</div>', title or y_title)


@dataclass(frozen=True)
class Arc:
    """One lattice arc over characters ``[start, end)``. ``kind``: "other", "unk" or
    "best" (its style); ``label`` / ``sub`` are drawn above the arc when labels are on."""

    start: int
    end: int
    label: str
    sub: str = ""
    kind: str = "other"


#: kind -> (legend name, colour, stroke width, dash): Paul Tol vibrant orange for the best path,
#: red dotted for unknown characters, light grey for the other pieces (dash and width differ too).
ARC_STYLES = {
    "other": (N_("other pieces"), "#BBBBBB", 1.5, ""),
    "unk": (N_("unknown"), "#CC3311", 1.8, "2 3"),
    "best": (N_("best path"), "#EE7733", 5.0, ""),
}


def arc_rise(arc: Arc) -> float:
    """Height of an arc in character widths: longer pieces rise higher, and neighbours
    starting at different positions are staggered so their labels do not sit on each other."""
    return 0.35 + 0.45 * (arc.end - arc.start) + 0.08 * (arc.start % 3)


def lattice_chart(chars: Sequence[str], arcs: Sequence[Arc], *, labels: bool = True, title: str = "",
                  alt: str = "", x_title: str = "position (characters)", rtl: bool = False) -> str:
    """A lattice as an SVG image: ``chars`` along the bottom (one cell each, in position
    order: left to right, or right to left when ``rtl``, for a Persian word), each arc a half
    ellipse from its start to its end. Unlabelled "other" arcs are drawn when ``labels`` is
    off; "best" arcs are always labelled.

    Wider than the page (long words): the image keeps its size and scrolls sideways.
    """
    n = max(1, len(chars))
    cell = 44 if n <= 30 else 24
    left, right, bottom = 24, 24, 70
    width = left + right + n * cell
    rise_max = max((arc_rise(a) for a in arcs), default=1.0) + 0.45
    plot_h = 380 if n <= 30 else 280
    top = 18
    height = top + plot_h + bottom
    base = top + plot_h
    per = plot_h / rise_max

    def px(pos: float) -> float:
        return left + ((n - pos) if rtl else pos) * cell

    out = [f'<svg viewBox="0 0 {width} {height}" width="{width}" height="{height}">{_SVG_STYLE}'
           "<style>.tl-lat-ch{font:20px 'Noto Sans','Noto Sans Bengali','Noto Sans Arabic',sans-serif;fill:#111}"
           ".tl-lat-best{font:600 15px 'Noto Sans','Noto Sans Bengali','Noto Sans Arabic',sans-serif;fill:#222}"
           ".tl-lat-lab{font:11px 'Noto Sans','Noto Sans Bengali','Noto Sans Arabic',sans-serif;fill:#666}"
           f".tl-lat-fmt{{font:{10 if cell > 30 else 7}px 'Noto Sans',sans-serif;fill:#555}}</style>"]
    step = 1 if n <= 40 else max(1, n // 20)
    for k in range(0, n + 1):
        x = px(k)
        out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top}" y2="{base}" stroke="#f0f0f0"/>')
        if k % step == 0:
            out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{base + 34}" y2="{base + 39}" stroke="#777"/>'
                       f'<text x="{x:.1f}" y="{base + 51}" text-anchor="middle" class="tl-chart-tick">{k}</text>')
    out.append(f'<line x1="{px(0):.1f}" x2="{px(n):.1f}" y1="{base}" y2="{base}" stroke="#777"/>')
    for k, ch in enumerate(chars):  # each character alone, in position order (the lattice's own order)
        shown = char_label(ch) if len(ch) == 1 else ch
        # an invisible character (ZWNJ inside a Persian word, a space) gets its name or glyph, small and grey
        cls = "tl-lat-ch" if shown == ch else "tl-lat-fmt"
        out.append(f'<text x="{px(k + .5):.1f}" y="{base + 26}" text-anchor="middle" class="{cls}">'
                   f"{_label(shown)}</text>")
    out.append(f'<text x="{(px(0) + px(n)) / 2:.0f}" y="{height - 4}" text-anchor="middle" class="tl-chart-axis">'
               f"{_label(x_title)}</text>")
    order = {"other": 0, "unk": 1, "best": 2}
    drawn = sorted(arcs, key=lambda a: order.get(a.kind, 0))
    for a in drawn:
        _name, colour, w, dash = ARC_STYLES.get(a.kind, ARC_STYLES["other"])
        x0, x1 = sorted((px(a.start), px(a.end)))
        ry = arc_rise(a) * per
        out.append(f'<path d="M{x0:.1f} {base}A{(x1 - x0) / 2:.1f} {ry:.1f} 0 0 1 {x1:.1f} {base}" fill="none" '
                   f'stroke="{colour}" stroke-width="{w}" stroke-dasharray="{dash}"/>')
    for a in drawn:
        if not (labels or a.kind == "best"):
            continue
        x, y = px((a.start + a.end) / 2), base - arc_rise(a) * per - 4
        cls = "tl-lat-best" if a.kind == "best" else "tl-lat-lab"
        sub = (f'<tspan x="{x:.1f}" dy="1.15em">{_label(a.sub)}</tspan>' if a.sub else "")
        dy = -14 if a.sub else 0
        out.append(f'<text x="{x:.1f}" y="{y + dy:.1f}" text-anchor="middle" class="{cls}">'
                   f'<tspan x="{x:.1f}" unicode-bidi="plaintext">{_label(a.label)}</tspan>{sub}</text>')
    out.append("</svg>")
    kinds = [k for k in ("other", "unk", "best") if any(a.kind == k for a in arcs)]
    legend = _legend([Series(_(ARC_STYLES[k][0]), [], [], ARC_STYLES[k][1], dash=ARC_STYLES[k][3])
                      for k in kinds])
    cap = f'<figcaption class="tl-chart-title">{esc(title)}</figcaption>' if title else ""
    wide = " tl-chart-scroll" if n > 30 else ""
    return (f'<figure class="tl-chart tl-chart-lattice{wide}" data-testid="tl-chart">{cap}'
            f'{_img("".join(out), alt or title, "tl-chart-svg", width, height)}{legend}</figure>')
