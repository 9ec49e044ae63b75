"""The multilingual tax page's decomposition in Chromium: the waterfall per tokenizer and the verdicts, in
English on a wide screen and in Persian (right to left, Persian digits) on a 1280x720 projector."""
from __future__ import annotations

from tests.test_projector_browser import PROJECTOR

QUERY = "tok=cl100k_base,o200k_base,gemma4&focus=bn"


def _chart(app):
    return app.page.locator('figure.tl-chart:has(figcaption:text-matches("step by step|گام به گام"))')


def test_bangla_decomposition_for_cl100k_o200k_gemma4(app):
    app.open("tax", QUERY)
    app.assert_no_exception()
    chart = _chart(app)
    assert chart.count() == 1
    chart.scroll_into_view_if_needed()
    text = app.page.locator('[data-testid="stMain"]').inner_text()
    # one verdict per tokenizer, naming the step that costs most
    for tid in ("cl100k_base", "o200k_base", "gemma4"):
        assert f"For Bangla, {tid}'s" in text
    assert "cl100k_base's vocabulary costs most" in text
    app.screenshot("tax-decomposition-bn")
    chart.screenshot(path=str(app.output_dir / "tax-decomposition-bn-chart.png"))
    # the classroom projector, in Persian
    app.page.set_viewport_size(PROJECTOR)
    app.open("tax", QUERY + "&lang=fa")
    app.assert_no_exception()
    chart = _chart(app)
    assert chart.count() == 1
    chart.scroll_into_view_if_needed()
    app.screenshot("tax-decomposition-bn-projector-fa", full_page=False)
    verdicts = app.page.locator('[data-testid="stMain"] li').all_inner_texts()
    assert any("cl100k_base" in v and "واژگان" in v for v in verdicts), verdicts
