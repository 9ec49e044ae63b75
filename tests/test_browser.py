"""The app in a real browser: Debian's Chromium driven by playwright against `streamlit run`."""
from __future__ import annotations

import os
import shutil

from tests.conftest import REPO

XSS = ["<img src=x onerror=alert(1)>", "<script>alert(1)</script>"]
HOME_TEXT = 'textarea[aria-label="Text to tokenize"]'


def token_text(app) -> str:
    """All rendered token chips' text, with the space glyph turned back into spaces."""
    boxes = app.page.locator(".tl-tokens")
    return "\n".join(boxes.nth(i).inner_text() for i in range(boxes.count())).replace("·", " ")


def set_home_text(app, text: str) -> None:
    box = app.page.locator(HOME_TEXT)
    box.fill(text)
    box.press("Control+Enter")
    app.wait_rerun()


def test_html_payloads_show_as_literal_text(app):
    app.open()
    set_home_text(app, "\n".join(XSS))
    app.assert_no_exception()
    shown = token_text(app)
    for payload in XSS:
        assert payload in shown, payload
    assert app.page.locator('img[src="x"]').count() == 0
    scripts = app.page.evaluate("Array.from(document.scripts).map(s => s.textContent).join('\\n')")
    assert "alert(1)" not in scripts
    app.wait_idle()  # quiet for a while: an alert would have come by now
    assert app.dialogs == []
    app.screenshot("xss-literal")


def test_stepper_steps_forward_and_keyboard_works(app):
    app.open("stepper")
    for _ in range(3):
        app.page.locator(".st-key-step_next button").first.click()
        app.wait_rerun()
    watch = app.page.locator('[data-testid="tl-watch"], .tl-watch').first
    assert "Merge 3 of" in watch.inner_text()
    assert "step=3" in app.page.url
    app.screenshot("stepper-merge-3")
    # keyboard: → and ← press Next / Previous when no text box has focus
    app.page.locator("h1").first.click()
    app.page.keyboard.press("ArrowRight")
    app.wait_rerun()
    assert "Merge 4 of" in app.page.locator(".tl-watch").first.inner_text()
    app.page.keyboard.press("ArrowLeft")
    app.wait_rerun()
    assert "Merge 3 of" in app.page.locator(".tl-watch").first.inner_text()
    app.assert_no_exception()


def test_url_reopens_the_same_stepper_view(app):
    app.open("stepper", "corpus=toy&unit=byte&merges=5&step=2")
    assert "Merge 2 of 5" in app.page.locator(".tl-watch").first.inner_text()
    # byte mode: the first merge on Bangla joins E0 + A6, shown as hex with a partial marker
    assert "E0 A6" in app.page.locator(".tl-words").first.inner_text()
    app.screenshot("stepper-bytes")


def test_bad_uploads_give_a_clear_message(app, tmp_path):
    app.open()
    upload = app.page.locator('[data-testid="stFileUploaderDropzoneInput"]').first
    binary = tmp_path / "picture.txt"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    upload.set_input_files(str(binary))
    app.wait_rerun()
    assert "looks like a binary file" in app.page.locator('[data-testid="stAlert"]').first.inner_text()
    assert app.page.locator(".tl-tokens").count() > 0  # the pasted text is still analysed
    latin = tmp_path / "latin1.txt"
    latin.write_bytes("café crème".encode("latin-1"))
    upload.set_input_files(str(latin))
    app.wait_rerun()
    assert "is not valid UTF-8" in app.page.locator('[data-testid="stAlert"]').first.inner_text()
    app.assert_no_exception()
    assert app.page.locator(".tl-tokens").count() > 0


def test_huge_paste_is_limited_with_a_notice(app):
    """A 2 MB paste: the text is built inside the page (keeps the test log small)."""
    app.open()
    box = app.page.locator(HOME_TEXT)
    box.evaluate(
        """(el) => {
            const line = "বাজারঘরের অর্ডার আগামীকাল বিকেলে রাজশাহী পৌঁছাবে। Your order will reach Rajshahi. ";
            const text = line.repeat(Math.ceil(2000000 / line.length));
            const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value").set;
            setter.call(el, text);
            el.dispatchEvent(new Event("input", {bubbles: true}));
            el.focus();
        }"""
    )
    box.press("Control+Enter")
    app.wait_rerun(timeout=90)
    assert "Input limited" in app.page.locator('[data-testid="stAlert"]').first.inner_text()
    app.assert_no_exception()
    assert "Showing the first" in app.page.locator(".tl-note").first.inner_text()
    app.screenshot("huge-paste")


def test_persian_reads_right_to_left_and_classroom_enlarges(app):
    app.open()
    set_home_text(app, "سفارش شما فردا بعدازظهر به راجشاهی می‌رسد.")
    box = app.page.locator(".tl-tokens[dir]").nth(1)  # first box after the legend
    assert box.get_attribute("dir") == "rtl"
    chips = box.locator(".tl-tok")
    first, second = chips.nth(0).bounding_box(), chips.nth(1).bounding_box()
    assert first["x"] > second["x"]  # the first token sits to the right
    app.screenshot("persian-rtl")
    size_before = float(box.evaluate("el => parseFloat(getComputedStyle(el).fontSize)"))
    app.page.get_by_text("Classroom display").click()
    app.wait_rerun()
    box = app.page.locator(".tl-tokens[dir]").nth(1)
    size_after = float(box.evaluate("el => parseFloat(getComputedStyle(el).fontSize)"))
    assert size_after > size_before * 1.5
    app.screenshot("classroom")


def test_readme_screenshot(app, output_dir):
    """The README's picture: the home page with its sample. Written to test-output/;
    copied to assets/screenshot.png when TL_UPDATE_SCREENSHOT=1 (then commit it)."""
    app.page.set_viewport_size({"width": 1280, "height": 1250})
    app.open()
    app.assert_no_exception()
    path = app.screenshot("readme-screenshot", full_page=False)
    if os.environ.get("TL_UPDATE_SCREENSHOT") == "1":
        shutil.copyfile(path, REPO / "assets" / "screenshot.png")


def test_stepper_play_runs_to_the_end_and_stops(app):
    app.open("stepper", "corpus=toy&merges=3&step=0")
    app.page.locator(".st-key-st_play label").first.click()  # the Play toggle
    watch = app.page.locator(".tl-watch").first
    app.page.wait_for_function(
        "() => { const w = document.querySelector('.tl-watch'); return w && w.innerText.includes('Merge 3 of 3'); }",
        timeout=30_000,
    )
    app.wait_idle()
    assert "Merge 3 of 3" in watch.inner_text()
    assert app.page.locator(".st-key-st_play input").first.is_checked() is False  # play switched itself off
    app.assert_no_exception()


def test_stepper_trains_on_an_uploaded_file_and_rejects_binary(app, tmp_path):
    app.open("stepper", "corpus=upload&merges=5")
    upload = app.page.locator('[data-testid="stFileUploaderDropzoneInput"]').first
    bad = tmp_path / "x.txt"
    bad.write_bytes(b"\x00\x01\x02binary")
    upload.set_input_files(str(bad))
    app.wait_rerun()
    assert "binary" in app.page.locator('[data-testid="stAlert"]').first.inner_text()
    good = tmp_path / "shop.txt"
    good.write_text("ঘর ঘরের বাজার বাজারে বাজারের\n" * 3, encoding="utf-8")
    upload.set_input_files(str(good))
    app.wait_rerun()
    app.assert_no_exception()
    assert "Training on “shop.txt”" in app.page.locator("body").inner_text()
    assert app.page.locator(".tl-watch").count() == 1
