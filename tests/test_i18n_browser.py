"""Interface languages in a real browser: Bangla shaped, Persian right to left with hex bytes and
ids left to right. Screenshots go to test-output/i18n-<page>-<lang>.png (looked at by hand)."""
from __future__ import annotations

import pytest

from core.i18n import translator

PAGES = [("home", "", "Paste and see"), ("stepper", "stepper", "BPE stepper"),
         ("inspector", "inspector", "Word inspector")]


def _direction(app, selector: str) -> str:
    return app.page.evaluate(
        "(sel) => { const e = document.querySelector(sel); return e ? getComputedStyle(e).direction : null; }", selector)


@pytest.mark.parametrize("lang", ["bn", "fa"])
@pytest.mark.parametrize("name,path,title", PAGES)
def test_page_in_language_screenshot(app, name, path, title, lang):
    app.open(path, f"lang={lang}")
    app.assert_no_exception()
    assert app.page.locator("h1").first.inner_text() == translator(lang).gettext(title)
    assert translator(lang).gettext(title) in app.nav_links()  # the sidebar navigation is translated too
    if name == "stepper":  # a merge step shows chips, pair counts and the chart
        app.page.locator('[data-testid="stBaseButton-secondary"]').nth(2).click()
        app.wait_rerun()
    app.screenshot(f"i18n-{name}-{lang}")
    app.screenshot(f"i18n-{name}-{lang}-top", full_page=False)  # the first screen at full resolution
    main = _direction(app, '[data-testid="stMain"]')
    side = _direction(app, '[data-testid="stSidebar"]')
    if lang == "fa":
        assert main == "rtl" and side == "rtl"
        hexes = app.page.locator(".tl-hex")
        if hexes.count():  # hex bytes inside the right-to-left page still read left to right
            assert _direction(app, ".tl-tokens .tl-hex") == "ltr"
    else:
        assert main == "ltr" and side == "ltr"


def test_persian_inspector_keeps_ids_hex_and_latin_chips_left_to_right(app):
    app.open("inspector", "lang=fa&word=" + "Rajshahi%20রাজশাহী&tok=cl100k_base")
    app.assert_no_exception()
    assert _direction(app, ".stMainBlockContainer") == "rtl"
    # a chip of left-to-right text sits in a line whose own direction is ltr
    assert app.page.evaluate("""() => {
        const line = document.querySelector('.tl-tokens .tl-line');
        return line && getComputedStyle(line).direction; }""") == "ltr"
    assert _direction(app, ".tl-tokens .tl-hex") == "ltr"
    # the language survives following an in-app link (kept in the URL)
    assert "lang=fa" in app.page.url


def test_persian_inspector_quotes_and_evidence_read_right(app):
    """A quoted Bangla word in a Persian sentence sits in « » (mirrored, so they open on the right) around
    its own left-to-right island, never in curly quotes that stand backwards; the evidence lines are Persian
    sentences, each right to left, with hex bytes and ranks in left-to-right islands."""
    app.open("inspector", "lang=fa&word=" + "রাজশাহী&tok=o200k_base")
    app.assert_no_exception()
    reasons = app.page.locator(".tl-reasons").first
    text = reasons.inner_text()
    assert "«" in text and "“" not in text and "”" not in text
    # the word between the guillemets is its own left-to-right island inside the right-to-left line
    assert app.page.evaluate("""() => [...document.querySelectorAll('.tl-reasons li bdi')].some(b =>
        b.textContent === 'রাজশাহী' && (b.previousSibling || {}).textContent?.endsWith('«')
        && getComputedStyle(b).direction === 'ltr')""")
    assert app.page.evaluate("() => getComputedStyle(document.querySelector('.tl-reasons li')).direction") == "rtl"
    merges = app.page.locator('.tl-reasons li[data-kind="merge"] details summary').first
    merges.click()
    line = app.page.locator('.tl-reasons li[data-kind="merge"] details[open] .tl-ev').first
    assert line.evaluate("e => getComputedStyle(e).direction") == "rtl"  # a Persian evidence line
    assert line.locator("bdi").first.evaluate("e => getComputedStyle(e).direction") == "ltr"  # its hex stays ltr
    reasons.scroll_into_view_if_needed()
    reasons.screenshot(path=str(app.output_dir / "i18n-inspector-fa-reasons.png"))


def test_browser_language_is_the_first_default(browser, streamlit_server):
    """A browser that prefers Bangla opens the app in Bangla; ?lang= still wins over it."""
    for query, want in (("", "bn"), ("?lang=hi", "hi")):
        page = browser.new_page(locale="bn-BD")
        try:
            page.goto(f"{streamlit_server}/{query}")
            page.wait_for_selector("h1", timeout=30_000)
            page.wait_for_function(
                "(t) => document.querySelector('h1') && document.querySelector('h1').innerText.includes(t)",
                arg=translator(want).gettext("Paste and see"), timeout=30_000)
        finally:
            page.close()
