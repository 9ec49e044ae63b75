"""The Vocabulary page in Chromium: a Bangla search drawn as chips, the script census, Persian right to left."""
from __future__ import annotations

from urllib.parse import quote


def test_bangla_search_and_census_in_chromium(app):
    app.open("vocabulary", "tok=o200k_base&query=" + quote("রাজ"))
    app.page.locator(".tl-tokens").first.wait_for(timeout=120_000)
    app.wait_idle()
    app.assert_no_exception()
    assert app.page.get_by_text("tokens match").count() >= 1
    app.screenshot("vocabulary-bangla-search", full_page=False)
    app.page.get_by_role("tab", name="Script census").click()
    app.wait_idle()
    app.page.locator("img[alt], svg").first.wait_for(timeout=60_000)
    app.assert_no_exception()
    app.screenshot("vocabulary-census", full_page=True)


def test_persian_reads_right_to_left(app):
    app.open("vocabulary", "tok=o200k_base&lang=fa&query=" + quote("راج"))
    app.page.locator(".tl-tokens").first.wait_for(timeout=120_000)
    app.wait_idle()
    app.assert_no_exception()
    direction = app.page.evaluate("getComputedStyle(document.querySelector('h1')).direction")
    assert direction == "rtl"
    app.screenshot("vocabulary-persian", full_page=False)


def test_streamed_decode_keeps_bangla_left_to_right_on_a_persian_page(app):
    """The line of tokens printed alone opens with U+FFFD (no direction of its own): on a Persian page it must
    still read left to right, as its Bangla letters do, and the streamer's line is the decoded text."""
    app.open("vocabulary", "tok=cl100k_base&lang=fa")
    app.page.get_by_role("tab").nth(1).click()
    app.wait_rerun()  # the tab is kept in the URL: a click reruns the page, and a box filled during that run is redrawn
    app.page.locator("textarea").last.fill("11372, 228, 11372, 106, 62456")
    app.page.keyboard.press("Control+Enter")
    app.wait_rerun()
    app.assert_no_exception()
    lines = app.page.locator('[dir="auto"][style*="pre-wrap"]')
    lines.first.wait_for(timeout=60_000)
    assert lines.nth(0).inner_text() == "\ufffd" * 4 + "ি" and lines.nth(1).inner_text() == "আমি"
    assert lines.nth(0).evaluate("e => getComputedStyle(e).direction") == "ltr"
    app.screenshot("vocabulary-stream-persian", full_page=False)
