"""In real Chromium: a tokenizer.json whose Split regex panics in Rust ends in a message,
the page is not left "Running…", and the next rerun works."""
from __future__ import annotations

from tests.app_hostile import BACKTRACK_TEXT, split_regex_tokenizer_json


def test_a_panicking_upload_shows_a_message_and_the_page_goes_on(app, tmp_path):
    path = tmp_path / "tokenizer.json"
    path.write_bytes(split_regex_tokenizer_json())
    app.open("compare", f"tok=bytes&text={'a' * 40}b")
    assert BACKTRACK_TEXT  # the text the regex backtracks on is in the URL above
    app.page.get_by_text("Add your own tokenizer").first.click()
    app.page.locator('[data-testid="stFileUploaderDropzoneInput"]').nth(1).set_input_files(str(path))
    app.wait_rerun()  # raises if the page is still running (the old code's dead script thread)
    alerts = app.page.locator('[data-testid="stAlert"]')
    texts = [alerts.nth(i).inner_text() for i in range(alerts.count())]
    assert any("backtracks too much" in t for t in texts), texts
    app.assert_no_exception()
    assert app.page.locator('[data-testid="stDataFrame"]').count() > 0  # the table of the other tokenizer
    app.screenshot("untrusted-panic-upload")
    # the next rerun works: harmless text, and the uploaded tokenizer now encodes it
    box = app.page.locator('textarea[aria-label="Text to compare"]')
    box.fill("hello")
    box.press("Control+Enter")
    app.wait_rerun()
    app.assert_no_exception()
    alerts = app.page.locator('[data-testid="stAlert"]')
    assert not any("backtracks" in alerts.nth(i).inner_text() for i in range(alerts.count()))
    assert app.page.get_by_text("tokenizer.json", exact=False).count() > 0
