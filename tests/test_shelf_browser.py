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


def test_replay_gemma4_on_a_bangla_word(app):
    app.open("replay", "tok=gemma4&text=" + quote("বাজারঘরের"))
    app.page.locator("p", has_text="Final:").first.wait_for(timeout=180_000)
    app.assert_no_exception()
    final = app.page.locator("p", has_text="Final:").first.inner_text()
    assert "2 tokens" in final and "identical" in final
    app.page.get_by_role("button", name="⏮ Start").click()
    app.wait_rerun()
    app.page.get_by_role("button", name="Next ▶").click()
    app.wait_rerun()
    assert app.page.get_by_text("Step 1 of").count() == 1
    app.screenshot("shelf-replay-gemma4-step1", full_page=False)
    app.page.get_by_role("button", name="End ⏭").click()
    app.wait_rerun()
    app.assert_no_exception()
    app.screenshot("shelf-replay-gemma4")


def test_train_then_the_tax_page_in_one_session(app):
    """Train a byte-level BPE, send it to the selectors, then pick it on the tax page next to the spread."""
    app.open("train", "sizes=300&recipes=byte-plain")
    button = app.page.get_by_role("button", name="Compare it with the shelf (Gemma 4, Qwen, …)")
    button.wait_for(timeout=180_000)
    button.click()
    app.wait_rerun(timeout=180)
    app.page.wait_for_function("location.pathname.endsWith('/compare')", timeout=60_000)
    app.assert_no_exception()
    app.page.locator('[data-testid="stSidebarNav"] a', has_text="Multilingual tax").click()  # same session
    app.wait_rerun(timeout=180)
    app.page.get_by_label("Search tokenizers").fill("session")
    app.page.get_by_label("Search tokenizers").press("Enter")
    app.wait_rerun(timeout=180)
    app.page.locator('[data-testid="stMultiSelect"]').first.locator("input").click()
    app.page.get_by_role("option", name="This session (uploaded or trained) · byte-plain-300.tokenizer.json").click()
    app.page.keyboard.press("Escape")
    app.wait_rerun(timeout=180)
    app.assert_no_exception()
    chart = app.page.locator('[data-testid="tl-chart"]').first
    chart.wait_for(timeout=60_000)
    assert "byte-plain-300" in chart.inner_html()
    app.screenshot("shelf-tax-session-trained")


def test_compare_names_llama_cpp_where_it_cuts_otherwise_in_persian_and_bangla(app):
    """The runtime warning and the audit line, right to left in Persian and shaped in Bangla (screenshots)."""
    for lang, name in (("fa", "توکن‌ساز"), ("bn", "টোকেনাইজার")):
        app.open("compare", f"tok=bert-bge,gpt-neox&text={quote('কথা Room 39')}&lang={lang}")
        app.page.wait_for_function("document.querySelectorAll('.tl-tokens').length >= 2", timeout=180_000)
        app.wait_idle()
        app.assert_no_exception()
        alerts = app.page.locator('[data-testid="stAlert"]', has_text="llama.cpp").all_inner_texts()
        assert len(alerts) == 2 and all(name in a for a in alerts), alerts
        assert any("'ক' 'থ'" in a for a in alerts) and any("'Room' ' ' '39'" in a for a in alerts)
        app.screenshot(f"shelf-compare-runtime-{lang}")
