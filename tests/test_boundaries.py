"""Boundary analysis: clean cuts, cuts inside clusters, cuts inside code points."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from core.models.baselines import ByteTokenizer, CodePointTokenizer, WordTokenizer
from core.text.boundaries import analyze


def test_kinds_on_raj() -> None:
    # রা | জ : clean; র | া : inside the cluster রা; E0 A6 | B0 : inside a code point
    r = analyze("রাজ", [(0, 6), (6, 9)])
    assert [b.kind for b in r.boundaries] == ["clean"]
    r = analyze("রাজ", [(0, 3), (3, 9)])
    assert [b.kind for b in r.boundaries] == ["inside_grapheme"]
    r = analyze("রাজ", [(0, 2), (2, 9)])
    assert [b.kind for b in r.boundaries] == ["inside_codepoint"]
    assert r.valid_utf8 == (False, False)
    assert r.cut_pct == 100.0 and r.bad_pct == 100.0


def test_metrics_count_codepoint_cuts_as_grapheme_cuts() -> None:
    r = ByteTokenizer().encode("রা ok").report
    # bytes: 6 for রা, then ' ', 'o', 'k' -> 9 tokens, 8 boundaries
    assert r.total == 8
    assert r.inside_codepoint == 4  # inside র and inside া
    assert r.inside_grapheme == 5  # those 4 plus the cut between র and া
    assert r.bad_tokens == 6
    assert round(r.cut_pct, 3) == round(500 / 8, 3)


def test_empty_and_single_token() -> None:
    assert analyze("", []).cut_pct == 0.0
    assert analyze("abc", [(0, 3)]).total == 0


@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_byte_tokens_of_ascii_never_cut_a_codepoint(text: str) -> None:
    r = ByteTokenizer().encode(text).report
    assert r.inside_codepoint == 0 and r.bad_tokens == 0


@given(st.text())
def test_codepoint_tokens_never_cut_a_codepoint_and_are_valid(text: str) -> None:
    r = CodePointTokenizer().encode(text).report
    assert r.inside_codepoint == 0
    assert r.bad_tokens == 0


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",))))
def test_word_tokens_cut_only_at_whitespace(text: str) -> None:
    enc = WordTokenizer().encode(text)
    assert "".join(t.text for t in enc.tokens) == text
    for t in enc.tokens[1:]:
        assert text[t.start].isspace() or t.start == 0


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",))), st.data())
def test_metrics_are_bounded_and_consistent(text: str, data: st.DataObject) -> None:
    n = len(text.encode())
    cuts = sorted(set(data.draw(st.lists(st.integers(0, n)))) - {0, n}) if n else []
    edges = [0, *cuts, n] if n else []
    spans = list(zip(edges, edges[1:]))
    r = analyze(text, spans)
    assert r.total == max(len(spans) - 1, 0)
    assert r.inside_codepoint <= r.inside_grapheme <= r.total
    assert 0.0 <= r.cut_pct <= 100.0 and 0.0 <= r.bad_pct <= 100.0
    # a cut inside a code point makes both neighbours invalid UTF-8
    for b in r.boundaries:
        if b.kind == "inside_codepoint":
            assert not r.valid_utf8[b.index - 1] and not r.valid_utf8[b.index]
