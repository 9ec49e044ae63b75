"""Every key press and click on the stepper lands, in order, however fast (real Chromium)."""
from __future__ import annotations


def _merge_shown(app) -> str:
    return app.page.locator(".tl-watch").first.inner_text()


def _settle(app) -> None:
    app.wait_rerun(settle=1.0)


def test_five_arrow_presses_100ms_apart_right_after_opening_reach_merge_5(app):
    app.open("stepper", "corpus=toy&merges=10")
    assert "Start" in _merge_shown(app)
    for _ in range(5):  # no click first: the very first press after the page is idle counts
        app.page.keyboard.press("ArrowRight")
        app.page.wait_for_timeout(100)
    _settle(app)
    assert "Merge 5 of 10" in _merge_shown(app), _merge_shown(app)
    for _ in range(3):
        app.page.keyboard.press("ArrowLeft")
        app.page.wait_for_timeout(100)
    _settle(app)
    assert "Merge 2 of 10" in _merge_shown(app), _merge_shown(app)
    assert "step=2" in app.page.url
    app.assert_no_exception()


def test_five_fast_next_clicks_reach_merge_5(app):
    app.open("stepper", "corpus=shop_bn&merges=300")  # a bigger page: each rerun takes a while
    button = app.page.locator(".st-key-step_next button").first
    for _ in range(5):  # faster than a rerun reports back
        button.click(delay=0, no_wait_after=True)
    _settle(app)
    assert _merge_shown(app).startswith("Merge 5 of "), _merge_shown(app)
    n = int(_merge_shown(app).split(" of ")[1].split(":")[0])
    app.page.locator(".st-key-step_last button").first.click(delay=0, no_wait_after=True)
    app.page.wait_for_timeout(40)
    app.page.locator(".st-key-step_prev button").first.click(delay=0, no_wait_after=True)
    _settle(app)
    assert _merge_shown(app).startswith(f"Merge {n - 1} of {n}:"), _merge_shown(app)
    app.assert_no_exception()


def test_arrow_keys_do_not_step_while_typing(app):
    app.open("stepper", "corpus=toy&merges=10&step=3")
    box = app.page.locator(".stTextInput input").last  # "Text to encode"
    box.click()
    box.press("ArrowLeft")
    box.press("ArrowRight")
    app.wait_rerun_if_any(1.0)  # the keys only move the caret: no run is expected (one would step, and fail below)
    assert "Merge 3 of 10" in _merge_shown(app), _merge_shown(app)
