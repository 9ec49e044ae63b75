"""The shared token view (core/render/): safety, markers, hex, tooltips."""
from __future__ import annotations

import re
from html.parser import HTMLParser

from hypothesis import given, settings
from hypothesis import strategies as st

from core.models.baselines import ByteTokenizer, CodePointTokenizer, WordTokenizer
from core.render import (
    CSS,
    PALETTE,
    encoding_from_pieces,
    legend_html,
    piece_parts,
    render_encoding,
    render_pieces,
    standalone_page,
    visible_text,
)
from core.text.bidi import text_direction
from core.tokens import Encoding, tokens_from_char_spans
from tests.helpers import examples

ALLOWED_TAGS = {"div", "span", "br"}
ALLOWED_ATTRS = {"class", "dir", "title", "data-kind"}


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def parse(html_text: str) -> _Collector:
    c = _Collector()
    c.feed(html_text)
    c.close()
    return c


def chips(html_text: str) -> list[dict[str, str | None]]:
    return [a for t, a in parse(html_text).tags if t == "span" and "tl-tok" in (a.get("class") or "").split()]


def seps(html_text: str) -> list[str]:
    return [a["data-kind"] for t, a in parse(html_text).tags if t == "span" and a.get("data-kind")]


XSS = ['<img src=x onerror=alert(1)>', "<script>alert(1)</script>", '" onmouseover="alert(1)', "</div><b>x</b>"]


def test_user_text_is_escaped_in_chips_and_titles():
    for payload in XSS:
        for tok in (CodePointTokenizer(), ByteTokenizer(), WordTokenizer()):
            out = render_encoding(tok.encode(payload))
            parsed = parse(out)
            assert {t for t, _ in parsed.tags} <= ALLOWED_TAGS, (payload, tok.id)
            for _, attrs in parsed.tags:
                assert set(attrs) <= ALLOWED_ATTRS
    out = render_encoding(WordTokenizer().encode(XSS[0]))
    assert "&lt;img" in out and "<img" not in out


@settings(max_examples=examples(1.5))
@given(st.text(max_size=40))
def test_any_text_renders_only_our_markup(text):
    for tok in (CodePointTokenizer(), ByteTokenizer(), WordTokenizer()):
        enc = tok.encode(text)
        out = render_encoding(enc)
        parsed = parse(out)
        assert {t for t, _ in parsed.tags} <= ALLOWED_TAGS
        assert len(chips(out)) == len(enc.tokens)
        # one separator per inner boundary, matching the engine's judgement
        assert seps(out) == [b.kind for b in enc.report.boundaries]


def test_separator_kinds_for_bangla():
    # code points: কি = ক + ি, the cut is inside the cluster
    out = render_encoding(CodePointTokenizer().encode("কি"))
    assert seps(out) == ["inside_grapheme"]
    # bytes: every cut in one Bangla letter is inside a code point
    out = render_encoding(ByteTokenizer().encode("ক"))
    assert seps(out) == ["inside_codepoint", "inside_codepoint"]
    out = render_encoding(WordTokenizer().encode("ঘর বাজার"))
    assert seps(out) == ["clean"]


def test_cluster_group_shows_the_whole_letter_shaped_once():
    out = render_encoding(CodePointTokenizer().encode("কি ঘর"))
    # the cut cluster is drawn whole under its chips; clean words are not grouped
    assert re.search(r'class="tl-grp-read"[^>]*>কি<', out)
    # ঘ and র are two clusters, so only কি is grouped
    assert out.count('class="tl-grp"') == 1


def test_orphan_vowel_sign_gets_dotted_circle():
    out = render_encoding(CodePointTokenizer().encode("কি"))
    assert "◌" in out
    assert "◌" not in render_encoding(WordTokenizer().encode("কি"))


def test_invalid_utf8_pieces_show_hex_with_partial_markers():
    out = render_pieces([b"\xe0\xa6", b"\xb0"])
    assert "E0 A6" in out and ">B0<" in out
    assert "\ufffd" not in out and "�" not in out
    parts = piece_parts(b"\xb0\xe0\xa6\xbe\xe0\xa6")
    assert [(p.is_hex, p.cont_before, p.cont_after) for p in parts] == [
        (True, True, False),
        (False, False, False),
        (True, False, True),
    ]
    # রাজ in bytes: 9 chips, each a hex fragment
    enc = ByteTokenizer().encode("রাজ")
    out = render_encoding(enc)
    assert len(chips(out)) == 9
    for h in "E0 A6 B0 E0 A6 BE E0 A6 9C".split():
        assert f">{h}<" in out


def test_pieces_that_never_join_to_utf8_still_render():
    out = render_pieces([b"\xff", b"\xfe\x80"])
    assert len(chips(out)) == 2 and "FF" in out and "FE 80" in out


def test_tooltip_has_id_hex_and_codepoint_names():
    out = render_encoding(CodePointTokenizer().encode("র"))
    title = chips(out)[0]["title"]
    assert "id 2480" in title
    assert "E0 A6 B0" in title
    assert "U+09B0 BENGALI LETTER RA" in title
    # a half letter: the tooltip says so and names what it touches
    out = render_encoding(ByteTokenizer().encode("র"))
    title = chips(out)[0]["title"]
    assert "not valid UTF-8" in title and "U+09B0 BENGALI LETTER RA" in title


def test_whitespace_glyphs_and_format_chars():
    assert visible_text(" \t\n") == '<span class="tl-ws">·</span><span class="tl-ws">→</span><span class="tl-ws">↵</span>'
    assert "‹ZWJ›" in visible_text("\u200d")
    out = render_encoding(CodePointTokenizer().encode("a\nb"))
    assert out.count('<div class="tl-line"') == 2  # a newline token ends its line


def test_palette_cycles_so_neighbours_differ():
    out = render_encoding(CodePointTokenizer().encode("abcdefghij"))
    classes = [re.search(r"tl-c(\d)", c["class"]).group(1) for c in chips(out)]
    assert all(a != b for a, b in zip(classes, classes[1:]))
    assert len(PALETTE) == 8 and all(f"tl-c{i}" in CSS for i in range(8))


def test_direction():
    assert text_direction("سلام دنیا") == "rtl"
    assert text_direction("বাজার") == "ltr"
    assert 'dir="rtl"' in render_encoding(WordTokenizer().encode("سلام دنیا"))
    assert 'dir="ltr"' in render_encoding(WordTokenizer().encode("সালাম"))


def test_max_tokens_caps_chips_with_a_note():
    enc = CodePointTokenizer().encode("ক" * 50)
    out = render_encoding(enc, max_tokens=10)
    assert len(chips(out)) == 10
    assert "Showing the first 10 of 50 tokens" in out


def test_empty_and_special_tokens():
    out = render_encoding(CodePointTokenizer().encode(""))
    assert "no tokens" in out
    enc = Encoding("[SEP]", tuple(t.__class__(**{**t.__dict__, "special": True}) for t in tokens_from_char_spans("[SEP]", [(0, 5)], [102])))
    out = render_encoding(enc)
    assert "tl-special" in out and "SPECIAL" in chips(out)[0]["title"]


def test_encoding_from_pieces_and_page_wrapper():
    enc = encoding_from_pieces([b"\xe0\xa6", b"\xb0"])
    assert enc is not None and enc.text == "র" and enc.report.inside_codepoint == 1
    assert encoding_from_pieces([b"\xe0"]) is None
    page = standalone_page(legend_html(), "x")
    assert page.startswith("<!doctype html>") and CSS in page


def test_render_pieces_links_are_escaped_url_encoded_and_same_tab():
    from urllib.parse import parse_qs, urlparse

    from pages._links import chip_links, piece_links

    def hrefs(out: str) -> list[str]:
        return [h.replace("&amp;", "&") for h in re.findall(r'<a class="tl-link" href="([^"]*)" target="_self">', out)]

    # a word and a punctuation run from user text: the href is URL-encoded, no raw markup reaches the HTML
    text = 'রাজ<"&>'
    pieces = [t.encode("utf-8") for t in ("রা", "জ", '<"&>')]
    out = render_pieces(pieces, link=chip_links(text, ["cl100k_base"]))
    assert '<"' not in out and '"&' not in out
    got = hrefs(out)
    assert len(got) == 3 and all(h.startswith("inspector?word=") for h in got)
    assert got[0] == got[1] == "inspector?word=%E0%A6%B0%E0%A6%BE%E0%A6%9C&tok=cl100k_base"
    assert parse_qs(urlparse(got[2]).query)["word"] == ['<"&>']
    assert got[2] == "inspector?word=%3C%22%26%3E&tok=cl100k_base"
    # whatever the link function returns is escaped inside the attribute
    out = render_pieces([b"ab"], link=lambda t: 'x"><script>')
    assert 'href="x&quot;&gt;&lt;script&gt;"' in out and "<script>" not in out
    # without a link: no anchors, and the memoised output is unchanged
    assert "<a " not in render_pieces(pieces) and render_pieces(pieces) == render_pieces(pieces)
    # pieces that are not valid UTF-8 as a whole still get links, found by byte offset
    bad = [b"\xe0\xa6", b"\xb0x"]
    out = render_pieces(bad, link=lambda t: f"inspector?word={t.byte_start}")
    assert hrefs(out) == ["inspector?word=0", "inspector?word=2"]
    # a pre-tokenizer dropped the space: each piece still opens the word of the text it came from
    text = "ঘর দাম"
    dropped = ["ঘর".encode(), "দাম".encode()]
    out = render_pieces(dropped, link=piece_links(text, dropped, [(0, 2), (3, 6)]))
    assert [parse_qs(urlparse(h).query)["word"][0] for h in hrefs(out)] == ["ঘর", "দাম"]
    # an offset: tokens are positioned in one part of the text
    out = render_pieces(["দা".encode(), "ম".encode()], link=chip_links(text, offset=3))
    assert [parse_qs(urlparse(h).query)["word"][0] for h in hrefs(out)] == ["দাম", "দাম"]


def _lines(out: str) -> list[tuple[str, str]]:
    """(dir, inner html) of each line of a token view (lines hold no nested div)."""
    return re.findall(r'<div class="tl-line" dir="(ltr|rtl)">(.*?)</div>', re.sub(r' title="[^"]*"', "", out))


def _runs(inner: str) -> list[tuple[str, str]]:
    """(dir, visible text) of each isolated run (``span.tl-run``, outermost) in a line."""
    from html.parser import HTMLParser

    class Runs(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.depth, self.run_depth, self.found = 0, None, []

        def handle_starttag(self, tag, attrs):
            if tag != "span":
                return
            self.depth += 1
            a = dict(attrs)
            if self.run_depth is None and a.get("class") == "tl-run":
                self.run_depth = self.depth
                self.found.append([a["dir"], ""])

        def handle_endtag(self, tag):
            if tag != "span":
                return
            if self.run_depth == self.depth:
                self.run_depth = None
            self.depth -= 1

        def handle_data(self, data):
            if self.run_depth is not None:
                self.found[-1][1] += data

    p = Runs()
    p.feed(inner)
    return [tuple(r) for r in p.found]


def test_each_line_gets_its_own_direction():
    """Direction per line (paragraph), from that line's first strong character."""
    text = "বাজারঘরের অর্ডার\nسفارش شما فردا\nYour order tomorrow"
    lines = _lines(render_encoding(WordTokenizer().encode(text)))
    assert [d for d, _ in lines] == ["ltr", "rtl", "ltr"]
    persian_first = "سفارش شما\nYour order will reach Rajshahi\nবাজারঘরের অর্ডার"
    assert [d for d, _ in _lines(render_encoding(WordTokenizer().encode(persian_first)))] == ["rtl", "ltr", "ltr"]


def test_a_run_of_the_other_direction_is_isolated_in_its_own_order():
    (d, inner), = _lines(render_encoding(WordTokenizer().encode("سفارش Your order 42 شما")))
    assert d == "rtl"
    # the English words and the number after them are one left-to-right run, in their order
    assert _runs(inner) == [("ltr", "·Your·order·42")]
    (d2, inner2), = _lines(render_encoding(WordTokenizer().encode("Your سفارش شما order")))
    assert d2 == "ltr" and _runs(inner2) == [("rtl", "·سفارش·شما")]


def test_rtl_byte_chips_point_the_continuation_mark_at_the_neighbour():
    """In Persian the next token is on the left: a code point that continues there has its … on the left."""
    out = render_encoding(ByteTokenizer().encode("س"))  # D8 B3
    first, second = re.findall(r'<span class="tl-hexrun" dir="ltr">(.*?)</span></span>', out)
    assert first.startswith('<span class="tl-part" data-cont="after">…')  # … left of D8
    assert second.endswith('<span class="tl-part" data-cont="before">…')  # … right of B3
    ltr = render_encoding(ByteTokenizer().encode("র"))
    marks = re.findall(r'<span class="tl-hexrun" dir="ltr">(.*?)</span></span>', ltr)
    assert marks[0].endswith('data-cont="after">…')  # Bangla: the next token is on the right


def test_unknown_tokens_and_colour_by_token():
    out = render_pieces([b"ab", b"c", b"ab"], ids=[5, 0, 5], unknown=[0], colour_by="token")
    classes = [c["class"] for c in chips(out)]
    assert "tl-unk" in classes[1] and "tl-unk" not in classes[0]
    assert "UNK" in out and "UNKNOWN" in chips(out)[1]["title"]
    colour = [re.search(r"tl-c(\d)", c).group(1) for c in classes]
    assert colour[0] == colour[2]  # the same token, the same colour


def test_one_dotted_circle_for_a_mark_after_hex_bytes():
    """A chip "…9C" + "ার" (the tail of জ, then া র): the browser shapes the mark alone and draws its own dotted
    circle there (seen on a screenshot as "…9C◌◌ার"), so the chip adds none; a chip that starts with the mark gets
    ours, in the same text run as the mark."""
    from core.render import chip_inner

    after_hex = chip_inner(b"\x9c" + "ার".encode())
    assert "9C" in after_hex and "◌" not in after_hex
    assert chip_inner("ার".encode()).startswith("◌া")


def test_a_boundary_bar_is_glued_to_the_token_after_it():
    """A line never ends, or starts, with a lone bar: each separator and the chip it precedes are one unbreakable
    unit (Hindi rows at 390 px showed a bar alone on its own line)."""
    text = "नमस्ते दुनिया"
    html = render_encoding(CodePointTokenizer().encode(text))
    units = re.findall(r'<span class="tl-u"><span class="tl-sep[^"]*"[^>]*>[^<]*</span><span class="tl-(?:tok|grp)', html)
    separators = re.findall(r'<span class="tl-sep', html)
    assert separators and len(units) == len(separators)
