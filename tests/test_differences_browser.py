"""The differences view in Chromium: Gemma 4 and cl100k on a Bangla sentence, the marks drawn as shapes."""
from __future__ import annotations

from urllib.parse import quote

SENTENCE = "আমি বাজারে যাচ্ছি, তুমি কি আসবে?"


def test_compare_differences_in_chromium(app):
    app.open("compare", "tok=gemma4,cl100k_base&text=" + quote(SENTENCE))
    app.page.locator(".tl-diff").first.wait_for(timeout=120_000)
    app.wait_idle()
    app.assert_no_exception()
    view = app.page.locator(".tl-diff").first
    view.scroll_into_view_if_needed()
    rows = view.locator(".tl-diff-row")
    assert rows.count() == 2
    # every mark has a width on screen (a bar or a glyph), so none relies on colour alone
    marks = app.page.locator(".tl-diff .tl-dcut-own, .tl-diff .tl-dcut-missed")
    assert marks.count() > 0
    box = marks.first.bounding_box()
    assert box is not None and box["width"] > 4 and box["height"] > 8
    assert "▼" in rows.nth(1).inner_text() and "▽" in rows.nth(0).inner_text()
    app.screenshot("compare-differences", full_page=True)


def test_home_differences_in_persian(app):
    app.open("", "lang=fa&tok=codepoints,words&text=" + quote("سلام دنیا، کتاب‌ها"))
    app.page.locator(".tl-diff").first.wait_for(timeout=120_000)
    app.wait_idle()
    app.assert_no_exception()
    direction = app.page.evaluate("getComputedStyle(document.querySelector('.tl-diff-line')).direction")
    assert direction == "rtl"
    app.page.locator(".tl-diff").first.scroll_into_view_if_needed()
    app.screenshot("home-differences-persian", full_page=False)
