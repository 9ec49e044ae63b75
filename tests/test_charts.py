"""pages/_charts.py: the SVG images parse as XML and keep every label as text."""
from __future__ import annotations

import base64
import re
import xml.etree.ElementTree as ET

from pages._charts import Arc, Series, lattice_chart, line_chart

NS = "{http://www.w3.org/2000/svg}"


def svg_of(html: str) -> ET.Element:
    data = re.search(r'class="tl-chart-svg"[^>]*src="data:image/svg\+xml;base64,([^"]+)"', html).group(1)
    return ET.fromstring(base64.b64decode(data).decode("utf-8"))  # an image that is not XML draws nothing


def test_lattice_labels_stay_text_even_with_markup_and_control_characters() -> None:
    hostile = "<img src=x onerror=alert(1)>&\x01"
    html = lattice_chart(["a", "\x00", "<"], [Arc(0, 2, hostile, "-1.00", "best"), Arc(1, 3, "x</text>", "-2", "unk"),
                                             Arc(0, 1, "a", "-3")], alt=hostile)
    root = svg_of(html)
    texts = ["".join(t.itertext()) for t in root.iter(NS + "text")]
    assert any("<img src=x onerror=alert(1)>&\ufffd" in t for t in texts)  # the markup is text, the control char visible
    assert any("x</text>" in t for t in texts) and "<" in texts and "U+0000" in texts  # a control character cell is named
    assert len(root.findall(f".//{NS}path")) == 3  # one arc per piece
    assert "<img src=x" not in html.split("src=\"data:")[0]  # the alt text is escaped too


def test_lattice_long_word_labels_only_the_best_path_and_scrolls() -> None:
    chars = list("ক" * 60)
    arcs = [Arc(i, i + 1, f"p{i}", "-1", "best" if i < 3 else "other") for i in range(60)]
    html = lattice_chart(chars, arcs, labels=False)
    labels = {"".join(t.itertext()).replace("-1", "") for t in svg_of(html).iter(NS + "text")}
    assert {"p0", "p1", "p2"} <= labels and "p10" not in labels
    assert "tl-chart-scroll" in html
    assert "tl-chart-scroll" not in lattice_chart(chars[:10], arcs[:10])


def test_bar_chart_reference_label_sits_beside_the_bars_not_on_them() -> None:
    from pages._charts import bar_chart

    root = svg_of(bar_chart(["en", "bn", "uz"], [("a", [1.0, 4.0, 1.8]), ("b", [1.0, 5.0, 2.1])], ref=1.0,
                            ref_label="English = 1"))
    label = next(t for t in root.iter(NS + "text") if "".join(t.itertext()) == "English = 1")
    bars_end = max(float(r.get("x")) + float(r.get("width")) for r in root.iter(NS + "rect") if r.get("x"))
    est = len("English = 1") * 6.5  # 11px sans-serif, about 6.5px a character
    start = float(label.get("x")) - (est if label.get("text-anchor") == "end" else 0)
    assert start > bars_end  # its left edge is right of every bar (it sat on the last group's bars before)
    assert start + est <= float(root.get("width"))  # and inside the image


def test_lattice_right_to_left_word_starts_on_the_right() -> None:
    chars = list("سلام")
    arcs = [Arc(0, 2, "سل", "-1", "best"), Arc(2, 4, "ام", "-1", "best")]
    for rtl in (False, True):
        root = svg_of(lattice_chart(chars, arcs, rtl=rtl))
        xs = {"".join(t.itertext()): float(t.get("x")) for t in root.iter(NS + "text") if t.get("class") == "tl-lat-ch"}
        assert (xs["س"] > xs["م"]) is rtl  # the first character on the right for a Persian word
        assert all(" 0 0 1 " in p.get("d") for p in root.iter(NS + "path"))  # every arc bows upwards


def test_an_invisible_character_gets_a_visible_cell():
    """ZWNJ inside a Persian word is named in its lattice cell, not drawn as an empty one."""
    word = "می\u200cخواهم"
    root = svg_of(lattice_chart(list(word), [Arc(0, len(word), word, "-9.0", "best")], rtl=True))
    cells = [t.text for t in root.iter() if t.tag.endswith("text") and t.get("class") in ("tl-lat-ch", "tl-lat-fmt")]
    assert cells == ["م", "ی", "ZWNJ", "خ", "و", "ا", "ه", "م"]


def test_a_line_chart_of_huge_equal_values_draws_instead_of_dividing_by_zero():
    # 1e23 + 1 == 1e23 in floats: an axis that widened a flat range by 1 stayed flat
    for values in ([1e23, 1e23], [1e23], [0.0, 0.0], [5.0]):
        xs = list(range(len(values)))
        html = line_chart([Series("a", xs, values, "#000"), Series("b", xs, values, "#111", axis="y2")])
        root = svg_of(html)
        assert root.tag.endswith("svg") and "nan" not in html.lower()
