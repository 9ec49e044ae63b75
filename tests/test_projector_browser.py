"""The classroom display on a 1280x720 projector: what fits, what can be read from the back, what is drawn."""
from __future__ import annotations

from urllib.parse import urlparse

import pytest

from tests.conftest import app_pages, outside_requests

PROJECTOR = {"width": 1280, "height": 720}

#: Elements of the sidebar that are drawn inside the window (visible, with an area, on screen).
SIDEBAR_DRAWN_JS = """() => {
  const bar = document.querySelector('[data-testid="stSidebar"]');
  if (!bar) return [];
  const out = [];
  for (const el of bar.querySelectorAll('*')) {
    const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
    if (cs.visibility !== 'visible' || cs.display === 'none' || r.width < 1 || r.height < 1) continue;
    if (r.right <= 0 || r.left >= innerWidth || r.bottom <= 0 || r.top >= innerHeight) continue;
    if (!el.children.length && (el.textContent.trim() || el.tagName === 'svg' || el.tagName === 'HR'))
      out.push(el.tagName + ':' + el.textContent.trim().slice(0, 20) + '@' + Math.round(r.left));
  }
  return out;
}"""

#: Segmentation cells of the stepper's word table that need a scrollbar of their own.
SCROLLING_CELLS_JS = """() => [...document.querySelectorAll('.tl-seg tbody td:last-child')]
  .filter(td => td.scrollWidth > td.clientWidth + 1).length"""


def projector(app, query: str) -> None:
    app.page.set_viewport_size(PROJECTOR)
    app.open("stepper", query)


def test_a_folded_persian_sidebar_draws_nothing_over_the_page(app):
    projector(app, "classroom=1&lang=fa")
    app.wait_still('[data-testid="stSidebar"]')
    drawn = app.page.evaluate(SIDEBAR_DRAWN_JS)
    app.screenshot("projector-fa-sidebar-folded", full_page=False)
    assert drawn == [], drawn
    app.assert_no_exception()


def test_byte_level_rows_wrap_their_chips_instead_of_scrolling(app):
    for lang, corpus, name in (("en", "toy", "bn"), ("hi", "hi", "hi")):
        projector(app, f"classroom=1&lang={lang}&corpus={corpus}&unit=byte&merges=10&step=3")
        assert app.page.evaluate(SCROLLING_CELLS_JS) == 0
        # each chip whole: no chip is wider than its cell
        too_wide = app.page.evaluate("""() => [...document.querySelectorAll('.tl-seg tbody td:last-child')]
          .filter(td => [...td.querySelectorAll('.tl-tok')].some(t => t.getBoundingClientRect().right >
                         td.getBoundingClientRect().right + 1)).length""")
        assert too_wide == 0
        app.screenshot(f"projector-byte-rows-{name}", full_page=False)
    app.assert_no_exception()


def test_the_projector_stepper_reads_from_the_back(app):
    projector(app, "classroom=1")
    # chart tick labels: 11 px in the SVG, scaled by the drawn width over the SVG's own width
    scale = app.page.evaluate("""() => { const img = document.querySelector('.tl-chart-svg');
        return img.getBoundingClientRect().width / img.naturalWidth; }""")
    assert 11 * scale >= 13, scale
    # the step slider shares the buttons' row, so more word rows fit on the first screen
    slider = app.page.locator('.st-key-step [data-testid="stSlider"]').first.bounding_box()
    button = app.page.locator(".st-key-step_next button").first.bounding_box()
    assert abs(slider["y"] - button["y"]) < 40, (slider, button)
    assert app.page.get_by_text("Home and End").count() == 1
    app.screenshot("projector-stepper", full_page=False)
    # the Uzbek header fits its column
    projector(app, "classroom=1&lang=uz")
    overflow = app.page.evaluate("""() => [...document.querySelectorAll('.tl-seg th')]
        .filter(th => th.scrollWidth > th.clientWidth + 1).map(th => th.textContent)""")
    assert overflow == [], overflow
    app.screenshot("projector-stepper-uz", full_page=False)
    app.assert_no_exception()


#: Rows of the stepper's word table that start on the first screen (their top inside the window).
ROWS_ON_FIRST_SCREEN_JS = """() => [...document.querySelectorAll('.tl-seg tbody tr')]
  .filter(tr => { const r = tr.getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight; }).length"""


def test_the_projector_stepper_shows_half_the_word_table_on_the_first_screen(app):
    for lang in ("en", "bn"):
        projector(app, f"classroom=1&lang={lang}")
        app.page.wait_for_selector(".tl-seg tbody tr")
        rows = app.page.evaluate(ROWS_ON_FIRST_SCREEN_JS)
        app.screenshot(f"projector-stepper-first-screen-{lang}", full_page=False)
        # the default table has 8 words; 2 whole rows (and the top of a third) fit when the key hint had a row of its own
        assert rows >= 4, (lang, rows)
    app.assert_no_exception()


def test_a_trained_tokenizer_sent_to_compare_joins_the_selection(app):
    """It joins the selection the user made on Compare (kept while Train ran), not Compare's defaults."""
    app.open("train", "recipes=bpe&sizes=300")
    nav = app.page.locator('[data-testid="stSidebarNav"] a')
    nav.filter(has_text="Compare tokenizers").click()
    app.wait_rerun()
    app.page.locator(".st-key-cmp_tok input").first.click()
    app.page.keyboard.press("Backspace")  # the user drops the last default (code points)
    app.page.keyboard.press("Escape")
    app.wait_rerun()
    assert "Code points" not in app.page.locator(".st-key-cmp_tok").first.inner_text()
    nav.filter(has_text="Train & evaluate").click()
    app.wait_rerun()
    app.page.locator(".st-key-tr_to_selector button").first.click()
    app.wait_rerun()
    app.page.wait_for_selector("h1:has-text('Compare tokenizers')", timeout=60_000)
    app.wait_idle()
    chosen = app.page.locator(".st-key-cmp_tok").first.inner_text()
    assert "bpe-300" in chosen and "cl100k" in chosen and "Code points" not in chosen, chosen
    app.screenshot("train-to-compare", full_page=False)
    app.assert_no_exception()


#: ``[x of each step button's centre]`` of a keyed button row, in the order the page writes them.
ROW_JS = """(row) => [...document.querySelectorAll(`.st-key-${row} [data-testid="stButton"] button`)]
  .map(b => b.getBoundingClientRect()).filter(r => r.width > 0).map(r => r.left + r.width / 2)"""


def test_persian_step_controls_point_where_they_go_and_a_bangla_pair_keeps_its_order(app):
    """Right to left, the buttons stay in the slider's order (media controls are not mirrored): First, Previous,
    Next, Last from left to right, so ◀ points at First and ▶ at Last; a Bangla pair reads ◌া + র, not র + ◌া."""
    projector(app, "lang=fa&corpus=shop_bn&step=0")
    xs = app.page.evaluate(ROW_JS, "st_step_row")
    assert len(xs) == 4 and xs == sorted(xs), xs
    slider = app.page.locator('.st-key-step [data-testid="stSlider"]').first.bounding_box()
    thumb = app.page.evaluate("""() => document.querySelector('.st-key-step input[type="range"]')
        .parentElement.parentElement.getBoundingClientRect().left""")  # (the range input itself is 1 px, clipped)
    assert thumb < slider["x"] + slider["width"] / 2  # step 0 at the left end, under First
    chips = app.page.locator(".tl-watch .tl-pair .tl-tok")
    assert chips.count() == 2
    left, right = (chips.nth(k).bounding_box()["x"] for k in range(2))
    assert left < right and chips.nth(0).inner_text().startswith("\u25cc")  # ◌া (a vowel sign) drawn first, on the left
    app.screenshot("rtl-stepper-fa", full_page=False)
    app.open("replay", "lang=fa")
    xs = app.page.evaluate(ROW_JS, "rp_step_row")
    assert len(xs) == 4 and xs == sorted(xs), xs
    app.screenshot("rtl-replay-fa", full_page=False)
    # the pair table of byte chips with Uzbek headers stays inside its column (it spilled 46 px at step 4)
    app.open("stepper", "lang=uz&unit=byte&step=4")
    spill = app.page.evaluate("""() => { const t = document.querySelector('.tl-pairs');
        return t.getBoundingClientRect().right - t.closest('[data-testid="stColumn"]').getBoundingClientRect().right; }""")
    assert spill <= 1, spill
    app.assert_no_exception()


#: Everything drawn in the main area under 18 px: ``{"what@where size": "its text"}``. Text nodes (by their element's
#: computed size), text boxes and select boxes (their own size), and the canvas tables (the theme's 0.875rem, as
#: the grid draws it); icons (Material ligatures) and visually hidden helpers left out.
SMALL_TEXT_JS = """() => {
  const out = {};
  const main = document.querySelector('[data-testid="stMain"]');
  if (!main) return {error: 'no main'};
  const zoomOf = (el) => { let z = 1; for (let e = el; e; e = e.parentElement) { const v = parseFloat(getComputedStyle(e).zoom); if (v && v !== 1) z *= v; } return z; };
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const t = walker.currentNode; const text = t.textContent.trim(); if (!text) continue;
    const el = t.parentElement; const cs = getComputedStyle(el); const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || cs.visibility === 'hidden' || cs.display === 'none') continue;
    if (el.closest('style,script,noscript,[data-testid="stTooltipContent"],[data-testid="stIconMaterial"]')) continue;
    // clipped to nothing (visually hidden helpers)
    if (cs.clip === 'rect(0px, 0px, 0px, 0px)' || cs.clipPath === 'inset(50%)') continue;
    if (el.closest('[style*="clip: rect(0px"]')) continue;
    const px = parseFloat(cs.fontSize) * zoomOf(el);
    if (px < 18) {
      const cls = (el.className && el.className.baseVal === undefined ? el.className : '').toString().split(' ').filter(c => !c.startsWith('st-emotion') && !c.startsWith('e') ).slice(0,3).join('.');
      const tid = el.closest('[data-testid]') ? el.closest('[data-testid]').getAttribute('data-testid') : '';
      const key = `${el.tagName}.${cls}@${tid} ${px.toFixed(1)}`;
      if (!out[key]) out[key] = text.slice(0, 30);
    }
  }
  for (const el of main.querySelectorAll('input:not([type=range]):not([type=checkbox]):not([type=radio]):not([type=file]), textarea')) {
    const r = el.getBoundingClientRect(); const cs = getComputedStyle(el);
    if (r.width < 2 || r.height < 2 || !el.checkVisibility({visibilityProperty: true})) continue;
    const px = parseFloat(cs.fontSize) * zoomOf(el);
    if (px < 18) { const tid = el.closest('[data-testid]') ? el.closest('[data-testid]').getAttribute('data-testid') : ''; out[`INPUT ${el.tagName}@${tid} ${px.toFixed(1)}`] = el.value.slice(0, 30); }
  }
  const grids = [...main.querySelectorAll('[data-testid="stDataFrame"], [data-testid="stDataEditor"]')]
     .filter(g => g.checkVisibility({visibilityProperty: true}) && g.getBoundingClientRect().height > 0);
  const root = parseFloat(getComputedStyle(document.documentElement).fontSize);
  for (const g of grids) { const px = 0.875 * root * zoomOf(g); if (px < 18) out[`GRID ${px.toFixed(1)}`] = g.getAttribute('data-testid'); }
  return out;
}"""


#: The HTML tables (classroom mode) wider than the main column: their right-hand columns are off the projector.
WIDE_TABLES_JS = """() => {
  const main = document.querySelector('[data-testid="stMainBlockContainer"]').getBoundingClientRect();
  return [...document.querySelectorAll('[data-testid="stTable"] table')]
    .filter(t => t.getBoundingClientRect().width > main.width + 1)
    .map(t => `${Math.round(t.getBoundingClientRect().width)} px > ${Math.round(main.width)} px: ` + t.innerText.slice(0, 80));
}"""


@pytest.mark.parametrize("path,title", app_pages())
def test_every_page_renders_offline_and_classroom_text_is_at_least_18px(app, path, title):
    """Each page in a real browser, as a class sees it on a 1280x720 projector: its title, no exception, no dialog;
    offline (no request leaves 127.0.0.1, the favicon is local); and every body text, table, chip and control
    at least 18 px. (The default view of every page in the browser: tests/test_injection_browser.py.)"""
    outside = outside_requests(app.page)
    app.page.set_viewport_size(PROJECTOR)
    app.open("" if path == "home" else path, "classroom=1")  # open() waits until the page is quiet: its requests are made
    assert app.page.locator("h1").first.inner_text() == title
    app.assert_no_exception()
    assert app.dialogs == []
    assert outside == []
    icon = app.page.evaluate("() => { const l = document.querySelector('link[rel~=\"icon\"]'); return l ? l.href : ''; }")
    assert icon and urlparse(icon).hostname in ("127.0.0.1", None)
    small = app.page.evaluate(SMALL_TEXT_JS)
    app.screenshot(f"page-{path}")
    assert small == {}, small
    assert app.page.evaluate(WIDE_TABLES_JS) == [], "a table is cut on the right of the projector"


def test_the_stepper_settings_on_a_projector_are_18px_and_uncut(app):
    """The stepper's settings, folded on a projector: opened, at least 18 px and no choice cut off (in Uzbek,
    whose labels are long)."""
    app.page.set_viewport_size(PROJECTOR)
    app.open("stepper", "classroom=1&lang=uz")
    app.page.locator('[data-testid="stExpander"] summary').first.click()
    app.wait_still('[data-testid="stExpander"]')
    small = app.page.evaluate(SMALL_TEXT_JS)
    cut = app.page.evaluate("""() => [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stSelectbox"] input')]
        .filter(i => i.scrollWidth > i.clientWidth + 1).map(i => i.value)""")
    app.screenshot("projector-stepper-settings-uz", full_page=False)
    assert small == {}, small
    assert cut == [], cut
