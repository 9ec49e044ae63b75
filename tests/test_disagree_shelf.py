"""Where Gemma 4 and cl100k part ways on a Bangla sentence (the differences view's worked example)."""
from __future__ import annotations

from core.pretrained import zoo
from core.render import render_differences
from core.text.disagree import Cut, disagreement

SENTENCE = "আমি বাজারে যাচ্ছি, তুমি কি আসবে?"


def test_gemma4_and_cl100k_part_ways_on_bangla() -> None:
    gemma, cl100k = zoo.load("gemma4"), zoo.load("cl100k_base")
    d = disagreement(SENTENCE, [("Gemma 4", gemma.encode(SENTENCE).byte_spans),
                                ("cl100k", cl100k.encode(SENTENCE).byte_spans)])
    g, c = d.rows
    # cl100k's byte-level merges cut inside Bangla letters; Gemma 4 has whole Bangla tokens and cuts between letters
    assert any(cut.inside for cut in c.own)
    assert not any(cut.inside for cut in g.cuts)
    assert len(c.cuts) > len(g.cuts)
    # both start a new token at every space: those cuts are common to both
    spaces = [Cut(i) for i, ch in enumerate(SENTENCE) if ch == " "]
    assert set(spaces) <= set(d.common)
    assert 0 < d.agreement < 0.5
    assert d.agreement == len(d.common) / (len(d.common) + len(d.differing))
    html = render_differences(d, lang="bn")
    assert html.count('class="tl-diff-row"') == 2 and "▼" in html and "▽" in html
