"""Downloads rerun nothing, and the checkpoint report reruns only itself (issue 35, item 1).

On Compare with eight tokenizers and a long text a script run takes tens of seconds: a download that reruns the
page greys it that long, and a report button that reruns the page draws its progress bar only after it.
"""
from __future__ import annotations

import ast
from pathlib import Path

from streamlit.proto.BackMsg_pb2 import BackMsg

PAGES = Path(__file__).resolve().parent.parent / "pages"


def test_every_download_button_asks_for_no_rerun() -> None:
    calls = []
    for path in sorted(PAGES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "download_button":
                on_click = [k.value for k in node.keywords if k.arg == "on_click"]
                ok = len(on_click) == 1 and isinstance(on_click[0], ast.Constant) and on_click[0].value == "ignore"
                calls.append((f"{path.name}:{node.lineno}", ok))
    assert len(calls) >= 7  # compare (2), the report (2), tax, normalization, train (2)
    assert [where for where, ok in calls if not ok] == []


def _reruns(sent: list[bytes]) -> list[str]:
    """The fragment id of each rerun the browser asked for ("" for a run of the whole page)."""
    out = []
    for payload in sent:
        msg = BackMsg()
        msg.ParseFromString(payload)
        if msg.WhichOneof("type") == "rerun_script":
            out.append(msg.rerun_script.fragment_id)
    return out


def _download_starts_no_run(app, sent: list[bytes], button: str, filename: str) -> None:
    """Click the download ``button``: the file ``filename`` comes, and no script run is asked for."""
    sent.clear()
    with app.page.expect_download() as got:
        app.page.get_by_role("button", name=button).click()
    assert got.value.suggested_filename == filename
    app.wait_rerun_if_any(1.0)  # a download must start no run: give one a second to show
    assert _reruns(sent) == []


def test_downloads_rerun_nothing_and_the_report_reruns_only_itself(app) -> None:
    sent: list[bytes] = []
    app.page.on("websocket", lambda ws: ws.on("framesent", lambda p: sent.append(p) if isinstance(p, bytes) else None))
    app.open("compare", "tok=cl100k_base,o200k_base&text=%E0%A6%AC%E0%A6%BE%E0%A6%9C%E0%A6%BE%E0%A6%B0")
    assert _reruns(sent) == [""]  # the page's first run
    _download_starts_no_run(app, sent, "Download CSV", "tokenizer-compare.csv")
    app.page.get_by_text("Checkpoint report (self-contained HTML + Markdown)").click()
    app.wait_idle()  # the expander is open and no run is going on when the button is pressed
    app.page.get_by_role("button", name="Make checkpoint report").click()
    # the report's fragment run ends with its downloads drawn: wait for them, then for the app to be idle
    try:
        app.page.get_by_role("button", name="Download HTML report").wait_for(timeout=120_000)
    finally:
        app.screenshot("downloads-report", full_page=True)
    app.wait_idle()
    runs = _reruns(sent)
    assert len(runs) == 1 and runs[0], runs  # one run, of the report's fragment alone
    _download_starts_no_run(app, sent, "Download HTML report", "tokenizer-report.html")
    app.assert_no_exception()


def test_a_keyboard_skips_the_chips_and_a_phone_wraps_them(app) -> None:
    """Every chip is a Tab stop: a skip link jumps to the table and the downloads. At 390 px a word drawn in byte
    chips (one group, wider than the screen) wraps inside itself instead of running off the right edge."""
    app.open("compare", "tok=cl100k_base,o200k_base&text=%E0%A6%AC%E0%A6%BE%E0%A6%9C%E0%A6%BE%E0%A6%B0%E0%A6%98%E0%A6%B0")
    skip = app.page.locator("a.tl-skip")
    assert skip.count() == 1
    skip.focus()
    app.page.keyboard.press("Enter")
    app.page.keyboard.press("Tab")
    # the next Tab stop is past every chip: after the table's anchor, not inside any token row
    after, in_chips = app.page.evaluate("""() => { const e = document.activeElement;
        const target = document.getElementById('tl-cmp-table');
        return [Boolean(target.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING),
                e.closest('.tl-tokens') !== null]; }""")
    assert after and not in_chips
    app.page.set_viewport_size({"width": 390, "height": 800})
    app.next_frame()
    spill = app.page.evaluate("""() => [...document.querySelectorAll('.tl-tokens')]
        .filter(t => t.scrollWidth > t.clientWidth + 1).map(t => [t.scrollWidth, t.clientWidth])""")
    assert spill == [], spill
    app.screenshot("compare-390-byte-groups")
