"""Work is not lost when the interface language changes (issue 35, item 2), in real Chromium.

The turn editor is a canvas grid and a select box shows the label the browser was last sent: only a browser
shows what the reader sees after a switch.
"""
from __future__ import annotations

from core.i18n import LANGS, translator

EDIT = "Changed turn here"


def _switch_language(app, lang: str) -> None:
    app.page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').first.click()
    app.page.get_by_role("option", name=LANGS[lang]).click()
    app.wait_rerun()


def _prompt(app) -> str:
    return app.page.locator(".tl-chat").first.inner_text()


def _shown(app, key: str) -> str:
    """The label a select box shows for its value."""
    return app.page.locator(f".st-key-{key} input").first.input_value()


def test_edited_turns_and_select_boxes_survive_a_language_switch_and_a_page_change(app) -> None:
    app.open("chat_format", "sample=en&tpl=llama-3.2")
    grid = app.page.locator('[data-testid="stDataFrame"]').first.bounding_box()
    # the second turn's message (header row and rows 35 px high; the message column on the right)
    app.page.mouse.dblclick(grid["x"] + grid["width"] * 0.6, grid["y"] + 35 + 35 + 17)
    app.page.locator("textarea.gdg-input").fill(EDIT)
    app.page.keyboard.press("Enter")
    app.wait_rerun()
    assert EDIT in _prompt(app)

    _switch_language(app, "hi")
    hi = translator("hi")
    assert EDIT in _prompt(app)  # the edited turn is still there
    assert _shown(app, "chat_sample") == hi.gettext("English")  # re-labelled, not "English" until a reload
    app.screenshot("language-switch-chat-hi", full_page=False)

    # to another page and back: the turns the reader left, not the sample again
    app.page.locator('[data-testid="stSidebarNav"] a', has_text=hi.gettext("BPE stepper")).click()
    app.wait_rerun()
    _switch_language(app, "bn")
    bn = translator("bn")
    assert _shown(app, "st_unit") == bn.gettext("Code points")
    assert _shown(app, "st_tie") == bn.gettext("First seen in the corpus (textbook, minbpe)")
    app.screenshot("language-switch-stepper-bn", full_page=False)
    app.page.locator('[data-testid="stSidebarNav"] a', has_text=bn.gettext("Chat format")).click()
    app.wait_rerun()
    assert EDIT in _prompt(app)
    assert _shown(app, "chat_sample") == bn.gettext("English")
    app.assert_no_exception()
