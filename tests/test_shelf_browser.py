"""The shelf in a real browser: the compare page with the spread of Bangla costs (screenshot in test-output/)."""
from __future__ import annotations

from urllib.parse import quote

BN = "বাজারঘরের অর্ডার আগামীকাল বিকেলে রাজশাহী পৌঁছাবে।"
SPREAD = "gemma4,o200k_base,deepseek-v3,qwen,cl100k_base"


def test_compare_shows_the_spread_on_the_bangla_sentence(app):
    app.open("compare", f"tok={SPREAD}&text={quote(BN)}")
    app.page.wait_for_function("document.querySelectorAll('.tl-tokens').length >= 5", timeout=180_000)
    app.wait_idle()
    app.assert_no_exception()
    headings = [h.inner_text() for h in app.page.locator("h4").all()]
    assert [h for h in headings if h != "Table"][:5] == [
        "Gemma 4", "o200k_base (GPT-4o)", "DeepSeek-V3", "Qwen (Qwen 1/2/2.5)", "cl100k_base (GPT-4, GPT-3.5)"]
    stats = app.page.locator("p", has_text="tokens/word").all_inner_texts()
    counts = [int(s.split(" tokens")[0].split()[-1].replace(",", "")) for s in stats[:5]]
    assert counts == [9, 18, 24, 54, 61]
    # the selector lists the shelf grouped by vendor, with a search box
    assert app.page.get_by_text("Google · Gemma 4").count() >= 1
    assert app.page.get_by_label("Search tokenizers").count() == 1
    app.screenshot("shelf-compare-spread")
