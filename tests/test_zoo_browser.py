"""Compare, replay and tax pages in a real browser (Chromium via playwright); screenshots in test-output/."""
from __future__ import annotations

from urllib.parse import quote

BANGLA_PARAGRAPH = (
    "বাজারঘরের অর্ডার আগামীকাল বিকেলে রাজশাহী পৌঁছাবে। প্যাকেটটি খুলে দেখুন, কোনো সমস্যা হলে আমাদের জানান। "
    "ক্ষমা করবেন, শাড়ি আর ব্যাগ আলাদা আসবে।"
)
SIX = "cl100k_base,o200k_base,llama3,tekken,mistral-spm-v1,codepoints"


def test_compare_six_tokenizers_on_bangla(app):
    app.open("compare", f"tok={SIX}&text={quote(BANGLA_PARAGRAPH)}")
    app.page.wait_for_function("document.querySelectorAll('.tl-tokens').length >= 6", timeout=60_000)
    app.wait_idle()
    app.assert_no_exception()
    rows = app.page.locator(".tl-tokens:not(.tl-diff-line)")  # the chip rows (the differences view draws its own)
    assert rows.count() == 6
    assert app.page.locator(".tl-diff-line").count() == 6  # and the differences view has a row per tokenizer
    # o200k keeps রাজশাহী in three tokens; cl100k cuts inside code points (hex chips)
    assert "E0" in rows.nth(0).inner_text()
    assert app.page.locator('[data-testid="stDataFrame"]').count() >= 1
    assert app.page.get_by_text("Download CSV").count() == 1
    app.screenshot("zoo-compare-bangla")


def test_replay_steps_through_rajshahi(app):
    app.open("replay", "tok=cl100k_base&text=" + quote("রাজশাহী"))
    app.assert_no_exception()
    assert "9 tokens" in app.page.locator("p", has_text="Final:").first.inner_text()
    app.page.get_by_role("button", name="⏮ Start").click()
    app.wait_idle()
    assert app.page.get_by_text("Step 0 of").count() == 1
    app.screenshot("zoo-replay-step0", full_page=False)
    for _ in range(3):
        app.page.get_by_role("button", name="Next ▶").click()
        app.wait_idle()
    assert app.page.get_by_text("Step 3 of").count() == 1
    app.screenshot("zoo-replay-step3", full_page=False)
    app.page.get_by_role("button", name="End ⏭").click()
    app.wait_idle()
    app.assert_no_exception()
    app.open("replay", "tok=o200k_base&text=" + quote("রাজশাহী"))
    assert "3 tokens" in app.page.locator("p", has_text="Final:").first.inner_text()
    assert "identical" in app.page.locator("p", has_text="Final:").first.inner_text()
    app.screenshot("zoo-replay-o200k", full_page=False)


def test_tax_page_chart(app):
    app.open("tax")
    app.assert_no_exception()
    chart = app.page.locator('[data-testid="tl-chart"] img.tl-chart-svg')  # an SVG image (pages/_charts.py)
    chart.first.wait_for()
    assert chart.first.evaluate("img => img.complete && img.naturalWidth > 0")
    app.screenshot("zoo-tax")


def test_compare_persian_reads_right_to_left(app):
    text = "سفارش شما فردا بعدازظهر به راجشاهی می‌رسد."
    app.open("compare", f"tok=o200k_base,cl100k_base&text={quote(text)}")
    app.page.wait_for_function("document.querySelectorAll('.tl-tokens').length >= 2", timeout=60_000)
    app.wait_idle()
    app.assert_no_exception()
    rows = app.page.locator(".tl-tokens:not(.tl-diff-line)")  # the chip rows (the differences view draws its own)
    assert rows.count() == 2 and rows.first.get_attribute("dir") == "rtl"
    rows.first.screenshot(path=str(app.output_dir / "zoo-compare-persian.png"))
