"""What the pages tell a reader, seen in a real browser at 1440x900 (each view is also saved as a screenshot)."""
from __future__ import annotations

import pytest

DESKTOP = {"width": 1440, "height": 900}


@pytest.fixture
def desk(app):
    app.page.set_viewport_size(DESKTOP)
    return app


def test_home_summary_table_and_legend(desk):
    desk.open("", "tok=codepoints,bytes,words")
    assert desk.page.locator('[data-testid="stDataFrame"]').count() == 1
    assert desk.page.get_by_text("bad%: share of tokens").count() == 1
    desk.screenshot("details-home-summary", full_page=False)


def test_pretokenizers_count_the_zwnj_cut(desk):
    desk.open("pretokenizers", "text=%D9%85%DB%8C%E2%80%8C%D8%AE%D9%88%D8%A7%D9%87%D9%85&patterns=gpt2,whitespace")
    row = desk.page.locator('[data-testid="pt-summary"] tr', has_text="gpt2").first.inner_text()
    assert "\t1\t" in row, row
    assert desk.page.locator('.st-key-pt_example input[value="Your own text"]').count() == 1
    desk.screenshot("details-pretokenizers-zwnj", full_page=False)


def test_wordpiece_sign_after_the_hashes(desk):
    desk.open("wordpiece", "vocab=typed&text=%E0%A6%98%E0%A6%B0%E0%A7%87%E0%A6%B0")
    assert desk.page.get_by_text("##◌ের").count() >= 1
    desk.screenshot("details-wordpiece-hash", full_page=False)


def test_replay_ascii_merge_as_text(desk):
    desk.open("replay", "tok=cl100k_base&text=zbek")
    line = desk.page.locator('[data-testid="stMarkdownContainer"]', has_text="joins").first.inner_text()
    assert "7A" not in line and "→" in line, line
    desk.screenshot("details-replay-ascii", full_page=False)


#: Tables (HTML and Streamlit's) wider than the main column that are not inside a box scrolling on its own.
UNBOXED_WIDE_TABLES_JS = """() => {
  const main = document.querySelector('[data-testid="stMainBlockContainer"]').getBoundingClientRect();
  return [...document.querySelectorAll('table')].filter(t => {
    const r = t.getBoundingClientRect();
    if (r.width < 1 || r.right <= main.right + 1) return false;
    const box = t.closest('.tl-scroll, [data-testid="stDataFrame"]');
    return !box || box.getBoundingClientRect().right > main.right + 1;
  }).length;
}"""


def test_special_tokens_wide_padding_table_scrolls_as_a_whole(app):
    app.page.set_viewport_size({"width": 1280, "height": 720})
    app.open("special_tokens", "")
    field = app.page.locator(".st-key-sp_s2 input").first
    field.fill("আপনার অর্ডার আগামীকাল বিকেলে রাজশাহী পৌঁছাবে। " * 5)
    field.press("Enter")
    app.wait_rerun()
    box = app.page.locator('[data-testid="sp-padding"]').first
    box.scroll_into_view_if_needed()
    widths = box.evaluate("b => [b.scrollWidth, b.clientWidth]")
    assert widths[0] > widths[1], widths  # wider than the page: it scrolls inside its box ...
    assert app.page.evaluate(UNBOXED_WIDE_TABLES_JS) == 0  # ... and nothing else spills past the column
    assert app.page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    app.screenshot("details-special-tokens-padding-wide", full_page=False)
    app.assert_no_exception()


#: The rows of a Streamlit table as its accessible grid lists them (the raw values, in the order shown).
GRID_ROWS_JS = """g => [...g.querySelectorAll('[role=row]')].slice(1)
  .map(r => [...r.querySelectorAll('[role=gridcell]')].map(c => c.textContent))"""


def test_compare_table_in_uzbek_sorts_its_numbers_by_value(app):
    app.page.set_viewport_size({"width": 1280, "height": 720})
    app.open("compare", "lang=uz&tok=codepoints,words&text=x")
    area = app.page.locator("textarea").first
    area.fill("ab " * 400)  # 1,200 code points, 401 words: "1 200" comes before "401" as text
    area.press("Control+Enter")
    app.wait_rerun()
    grid = app.page.locator('[data-testid="stDataFrame"]').first
    grid.scroll_into_view_if_needed()
    assert [r[1] for r in grid.evaluate(GRID_ROWS_JS)] == ["1200", "401"]
    box = grid.bounding_box()
    app.page.mouse.click(box["x"] + 185, box["y"] + 18)  # the header of the tokens column (after the names)
    app.page.wait_for_function("""() => { const rows = [...document.querySelectorAll('[data-testid="stDataFrame"] [role=row]')];
        return rows.length > 2 && rows[1].textContent.includes('401'); }""", timeout=10_000)
    assert [r[1] for r in grid.evaluate(GRID_ROWS_JS)] == ["401", "1200"]  # by value, not by the written "1 200"
    app.screenshot("details-compare-uz-sorted", full_page=False)  # cells read "1 200", "1,000" (Uzbek)
    app.assert_no_exception()
