"""Where segmentations disagree: cut positions in characters, the cuts all share, the agreement figure, the view."""
from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from core.models.baselines import ByteTokenizer, CodePointTokenizer, WordTokenizer
from core.render import render_differences
from core.text.disagree import Cut, cuts_from_byte_spans, disagreement

TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)


@st.composite
def segmentation(draw, data: bytes) -> list[tuple[int, int]]:
    """Random byte spans laid end to end over ``data`` (cuts anywhere, inside characters too)."""
    cuts = sorted(draw(st.sets(st.integers(1, len(data) - 1), max_size=len(data))) if len(data) > 1 else set())
    edges = [0, *cuts, len(data)] if data else []
    return list(zip(edges, edges[1:]))


def test_a_cut_between_characters_and_a_cut_inside_one() -> None:
    # "রাজ": র া জ, 3 bytes each. Bytes 0-6 | 6-9 cut before জ; 0-2 | 2-9 cut inside র after 2 of its bytes
    assert cuts_from_byte_spans("রাজ", [(0, 6), (6, 9)]) == (Cut(2),)
    assert cuts_from_byte_spans("রাজ", [(0, 2), (2, 9)]) == (Cut(0, 2),)
    assert Cut(0, 2).inside and not Cut(2).inside
    # a dropped space (WordPiece): cuts on both sides of it
    assert cuts_from_byte_spans("ab cd", [(0, 2), (3, 5)]) == (Cut(2), Cut(3))


def test_agreement_on_a_worked_example() -> None:
    text = "বাজার ok"
    d = disagreement(text, [
        ("code points", CodePointTokenizer().encode(text).byte_spans),
        ("words", WordTokenizer().encode(text).byte_spans),
        ("bytes", ByteTokenizer().encode(text).byte_spans),
    ])
    words = set(d.rows[1].cuts)
    assert set(d.common) == words  # every cut the word tokenizer makes, the finer two make as well
    assert d.rows[1].own == ()
    assert all(c.inside for c in d.rows[2].own if c not in set(d.rows[0].cuts))
    assert d.positions == len(d.rows[2].cuts)  # bytes cut everywhere anyone cuts
    assert d.agreement == len(words) / d.positions
    assert d.to_json()["common"] == len(words)


def test_no_tokenizer_or_no_cut_is_full_agreement() -> None:
    assert disagreement("abc", []).agreement == 1.0
    assert disagreement("abc", [("a", [(0, 3)]), ("b", [(0, 3)])]).agreement == 1.0


@given(st.data(), TEXT, st.integers(1, 4))
def test_common_and_differing_partition_every_cut(data, text: str, n: int) -> None:
    raw = text.encode("utf-8")
    segs = [(f"t{k}", data.draw(segmentation(raw))) for k in range(n)]
    d = disagreement(text, segs)
    every = set(d.common)
    assert every.isdisjoint(d.differing)
    union = set().union(*(set(r.cuts) for r in d.rows))
    assert every | set(d.differing) == union
    assert 0.0 <= d.agreement <= 1.0
    for row in d.rows:
        assert every <= set(row.cuts)
        assert set(row.own) == set(row.cuts) - every
        # each differing cut is on this row either as its own cut or as one it misses
        assert set(row.own) | set(row.missed) == set(d.differing)
        assert set(row.own).isdisjoint(row.missed)
    if n == 1:
        assert d.differing == () and d.agreement == 1.0
    # the order of the rows changes nothing
    r = disagreement(text, segs[::-1])
    assert (r.common, r.differing, r.agreement) == (d.common, d.differing, d.agreement)


@given(st.data(), TEXT)
def test_cut_positions_point_at_the_bytes_cut(data, text: str) -> None:
    raw = text.encode("utf-8")
    spans = data.draw(segmentation(raw))
    cuts = cuts_from_byte_spans(text, spans)
    assert list(cuts) == sorted(cuts)
    offsets = [len(text[:i].encode("utf-8")) for i in range(len(text) + 1)]
    assert [offsets[c.char] + c.inner for c in cuts] == [s for s, _ in spans[1:]]
    for c in cuts:
        assert 0 <= c.inner < len(text[c.char].encode("utf-8"))
        assert c.inside == (raw[offsets[c.char] + c.inner] & 0xC0 == 0x80)  # the byte after the cut continues a character


@given(st.data(), TEXT)
def test_the_view_marks_each_differing_cut_on_every_row(data, text: str) -> None:
    raw = text.encode("utf-8")
    segs = [("a<b>", data.draw(segmentation(raw))), ("c&d", data.draw(segmentation(raw)))]
    d = disagreement(text, segs)
    out = render_differences(d, max_chars=None, legend=False)
    assert "<b>" not in out and "a&lt;b&gt;" in out and "c&amp;d" in out
    rows = out.split('class="tl-diff-row"')[1:]
    assert len(rows) == 2
    for row, cuts in zip(rows, d.rows):
        kinds = re.findall(r'data-kind="(\w+)" data-char="(\d+)" data-inner="(\d+)"', row)
        marked = {(Cut(int(c), int(k)), kind) for kind, c, k in kinds}
        assert marked == ({(c, "common") for c in d.common} | {(c, "own") for c in cuts.own}
                          | {(c, "missed") for c in cuts.missed})
        # a mark is a shape, not only a colour: ▼ where this row cuts and not all do, ▽ where it does not
        assert row.count("▼") == len(cuts.own) and row.count("▽") == len(cuts.missed)


def test_the_view_keeps_the_text_whole_between_the_marks() -> None:
    text = "কি a"
    d = disagreement(text, [("cp", [(0, 3), (3, 6), (6, 7), (7, 8)]), ("byte", [(0, 1), (1, 6), (6, 8)])])
    line = render_differences(d, legend=False).split('dir="auto">')[1].split("</div>")[0]
    visible = re.sub(r"<[^>]+>", "", line)
    # the code-point row: ▼ before ি where it cuts alone (the vowel sign after a cut drawn on ◌), then ▽✂ for the
    # byte row's cut inside ক, drawn after the letter কি; the shared cut before the space a bare bar, ▼ before "a"
    assert visible == "ক▼◌ি▽✂·▼a"
    # the byte row: its own cut inside ক (▼✂), the code-point row's cut between ক and ি after the letter (▽)
    line = render_differences(d, legend=False).split('dir="auto">')[2].split("</div>")[0]
    assert re.sub(r"<[^>]+>", "", line) == "ক▼✂◌ি▽·▽a"
    # a row that cuts nowhere inside a letter keeps it whole: কি is one run on a word row
    d = disagreement(text, [("word", [(0, 6), (6, 8)]), ("cp", [(0, 3), (3, 6), (6, 7), (7, 8)])])
    line = render_differences(d, legend=False).split('dir="auto">')[1].split("</div>")[0]
    assert re.sub(r"<[^>]+>", "", line) == "কি▽·▽a"


def test_the_view_draws_a_visible_limit_and_speaks_persian() -> None:
    text = "ab " * 1000
    d = disagreement(text, [("w", WordTokenizer().encode(text).byte_spans), ("c", CodePointTokenizer().encode(text).byte_spans)])
    out = render_differences(d, max_chars=100)
    assert "Showing the first 100 of 3,000 characters" in out
    assert 'data-char="150"' not in out
    fa = render_differences(d, max_chars=100, lang="fa")
    assert "Showing the first" not in fa


def test_marks_between_joined_persian_letters_keep_their_joined_forms() -> None:
    """A mark between ب and ر (joined in بروم) has a ZWJ on each side, so both keep their joined shapes; between ر
    and و (ر never joins the letter after it) there is none. The text itself is unchanged once they are removed."""
    text = "بروم"
    d = disagreement(text, [("letters", [(0, 2), (2, 4), (4, 6), (6, 8)]), ("word", [(0, 8)])])
    line = render_differences(d, legend=False).split('dir="auto">', 1)[1]
    plain = re.sub(r"<[^>]+>[^<]*</span>", "|", line.split("</div>", 1)[0])
    assert plain == "ب\u200d|\u200dر|و|م"
    assert plain.replace("\u200d", "").replace("|", "") == text
