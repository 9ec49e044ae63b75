"""In a real browser (Chromium via tests/conftest.py): mixed scripts drawn in
their own directions, state kept across chip links, nothing fetched from the network,
unknown tokens shown as unknown, classroom display at 1280x720, no stale boxes."""
from __future__ import annotations

from urllib.parse import quote

import pytest

BN = "বাজারঘরের অর্ডার আগামীকাল বিকেলে"
FA = "سفارش شما فردا به راجشاهی می‌رسد"
EN = "Your order will reach Rajshahi tomorrow"


def line_chips(app, box_index: int = 0) -> list[list[tuple[str, float]]]:
    """Per drawn line of one token view: (chip text without glyphs, x of its centre) in DOM (logical) order."""
    return app.page.locator(".tl-tokens").nth(box_index).evaluate(
        """(box) => Array.from(box.querySelectorAll('.tl-line')).map(line =>
             Array.from(line.querySelectorAll('.tl-tok')).map(c => {
               const r = c.getBoundingClientRect();
               return [c.innerText.replace(/[·↵]/g, '').replace(/‹ZWNJ›/g, '\u200c').trim(), r.x + r.width / 2];
             }))"""
    )


def order_on_screen(chips: list[tuple[str, float]], words: list[str]) -> list[str]:
    """``words`` sorted by where their chip is drawn, left to right."""
    xs = {t: x for t, x in chips}
    return sorted(words, key=lambda w: xs[w])


@pytest.mark.parametrize("lines", [[BN, FA, EN], [FA, EN, BN]], ids=["bangla-first", "persian-first"])
def test_mixed_lines_each_read_in_their_own_direction(app, lines):
    app.open("", "tok=words&text=" + quote("\n".join(lines)))
    drawn = line_chips(app, 0)  # box 0 is the legend
    assert len(drawn) == 3
    for words_line, chips in zip(lines, drawn):
        words = words_line.split(" ")
        assert [t for t, _ in chips] == words
        expected = list(reversed(words)) if words_line is FA else words
        assert order_on_screen(chips, words) == expected, words_line
    app.screenshot(f"mixed-scripts-{lines[0][:3]}")


def test_english_inside_persian_keeps_its_order(app):
    text = "سفارش Your order will reach شما"
    app.open("", "tok=words&text=" + quote(text))
    (chips,) = line_chips(app, 0)
    xs = dict(chips)
    assert xs["سفارش"] > xs["شما"]  # the line reads right to left
    assert xs["Your"] < xs["order"] < xs["will"] < xs["reach"]  # the English run left to right inside it
    assert xs["سفارش"] > xs["reach"] and xs["Your"] > xs["شما"]


def test_persian_byte_chips_point_to_their_neighbour(app):
    app.open("", "tok=bytes&text=" + quote("سلام"))
    box = app.page.locator(".tl-tokens").nth(0)
    assert box.get_attribute("dir") == "rtl"
    geo = box.evaluate(
        """(box) => Array.from(box.querySelectorAll('.tl-tok')).map(c => {
             const hex = c.querySelector('.tl-hex'), mark = c.querySelector('.tl-part');
             const r = c.getBoundingClientRect();
             return {x: r.x, hex: hex.getBoundingClientRect().x, mark: mark ? mark.getBoundingClientRect().x : null,
                     cont: mark ? mark.dataset.cont : null};
           })"""
    )
    first, second = geo[0], geo[1]  # D8 (lead byte) and B3 (its continuation)
    assert first["x"] > second["x"]  # right to left
    assert first["cont"] == "after" and first["mark"] < first["hex"]  # … points left, at B3
    assert second["cont"] == "before" and second["mark"] > second["hex"]  # … points right, at D8
    box.screenshot(path=str(app.output_dir / "persian-byte-chips.png"))


def test_chip_link_keeps_text_classroom_and_uploaded_tokenizer(app, tmp_path):
    from core.cli import main
    from tests.conftest import REPO

    tok = tmp_path / "mytok.json"
    assert main(["train", "--recipe", "bpe", "--vocab-size", "300", "--corpus",
                 str(REPO / "assets/train/bn_shop_corpus.txt"), "--out", str(tok)]) == 0
    app.open("compare")
    app.page.get_by_text("Add your own tokenizer").click()
    app.page.locator('[data-testid="stFileUploaderDropzoneInput"]').nth(1).set_input_files(str(tok))
    app.wait_rerun()
    # the uploaded tokenizer is selected at once
    assert "user:mytok.json" in app.page.url or "mytok.json" in app.page.locator('[data-testid="stMultiSelect"]').first.inner_text()
    long_text = ("আমার বাজার নতুন দোকান। " * 20).strip()  # over 300 characters: not carried in the URL
    box = app.page.locator('textarea[aria-label="Text to compare"]')
    box.fill(long_text)
    box.press("Control+Enter")
    app.wait_rerun()
    app.page.locator('[data-testid="stSidebar"]').get_by_text("Classroom display").click()
    app.wait_rerun()
    pages_before = app.page.evaluate("() => performance.getEntriesByType('navigation').length + ':' + performance.timeOrigin")
    hist = app.page.evaluate("() => history.length")
    app.page.locator("a.tl-link").nth(1).click()
    app.wait_rerun()
    assert app.page.locator("h1").first.inner_text() == "Word inspector"
    assert len(app.page.context.pages) == 1  # same tab
    same_document = app.page.evaluate("() => performance.getEntriesByType('navigation').length + ':' + performance.timeOrigin")
    assert same_document == pages_before  # no reload: the same document and session
    assert "classroom=1" in app.page.url
    assert app.page.locator('[data-testid="stSidebar"] input[type="checkbox"]').first.is_checked()
    assert app.page.evaluate("() => history.length") == hist + 1
    app.page.go_back()  # one press goes back to the comparison
    app.wait_rerun()
    assert app.page.locator("h1").first.inner_text() == "Compare tokenizers"
    assert app.page.locator('textarea[aria-label="Text to compare"]').input_value() == long_text
    assert "mytok.json" in app.page.locator('[data-testid="stMultiSelect"]').first.inner_text()
    app.assert_no_exception()


def test_try_links_stay_in_the_same_tab(app):
    app.open("inspector")
    hist = app.page.evaluate("() => history.length")
    link = app.page.locator("a.tl-nav", has_text="می‌رسد")
    assert link.get_attribute("target") != "_blank"
    link.click()
    app.wait_rerun()
    assert len(app.page.context.pages) == 1
    assert app.page.locator('input[aria-label^="Word"]').input_value() == "می‌رسد"
    assert app.page.evaluate("() => history.length") == hist + 1
    app.page.go_back()
    app.wait_rerun()
    assert app.page.locator('input[aria-label^="Word"]').input_value() == "রাজশাহী"


# No request leaves 127.0.0.1 on any page, and the favicon is local: test_projector_browser.py::test_every_page_renders_offline_and_classroom_text_is_at_least_18px.


def test_unigram_unknown_is_drawn_as_unknown(app):
    app.open("unigram", "word=" + quote("বাজার✦ঘর"))
    unk = app.page.locator(".tl-tokens .tl-tok.tl-unk")
    assert unk.count() == 1
    assert "UNK" in unk.first.inner_text() and "UNKNOWN" in unk.first.get_attribute("title")
    assert app.page.locator(".tl-tokens .tl-tok:not(.tl-unk)").count() >= 2
    app.page.locator(".tl-tokens").first.screenshot(path=str(app.output_dir / "unigram-unk.png"))


def test_classroom_stepper_fits_a_projector(app):
    """1280x720, classroom on: sidebar folded, step buttons, the current merge and the word table
    on the first screen, no label cut off."""
    app.page.set_viewport_size({"width": 1280, "height": 720})
    app.open("stepper", "classroom=1&corpus=toy&merges=10&step=3")
    app.page.wait_for_selector(".st-key-step_next button")
    app.page.wait_for_selector(".tl-words tbody tr")
    app.wait_still('[data-testid="stSidebar"]')  # the sidebar folds with an animation
    app.assert_no_exception()
    geo = app.page.evaluate(
        """() => {
          const r = (el) => el ? el.getBoundingClientRect() : null;
          const buttons = Array.from(document.querySelectorAll('.stButton button'));
          const labels = Array.from(document.querySelectorAll('.stButton button p, [data-testid="stWidgetLabel"] p'));
          const rows = document.querySelectorAll('.tl-words tbody tr');
          const sidebar = document.querySelector('[data-testid="stSidebar"]');
          return {
            buttons: buttons.map(b => ({text: b.innerText, bottom: r(b).bottom})),
            cut: labels.filter(p => p.offsetParent && p.scrollWidth > p.clientWidth + 1).map(p => p.innerText),
            ellipsis: labels.filter(p => p.offsetParent && p.innerText.includes('…')).map(p => p.innerText),
            watch: r(document.querySelector('.tl-watch')).bottom,
            firstRow: rows.length ? r(rows[0]).bottom : 9999,
            sidebarRight: sidebar ? r(sidebar).right : 0,
            mainLeft: r(document.querySelector('[data-testid="stMainBlockContainer"]')).left,
            font: parseFloat(getComputedStyle(document.querySelector('.tl-watch')).fontSize),
          };
        }"""
    )
    texts = [b["text"] for b in geo["buttons"]]
    assert any("Previous" in t for t in texts) and any("Next" in t for t in texts), texts
    assert all(b["bottom"] <= 720 for b in geo["buttons"])
    assert geo["watch"] <= 720 and geo["firstRow"] <= 720, geo
    assert geo["cut"] == [] and geo["ellipsis"] == [], geo
    assert geo["sidebarRight"] <= 1 and geo["mainLeft"] < 200, geo  # sidebar folded away
    assert geo["font"] >= 24
    app.page.screenshot(path=str(app.output_dir / "classroom-stepper-1280x720.png"))


def test_stepper_colour_by_token_gives_a_token_one_colour(app):
    app.open("stepper", "corpus=toy&merges=10&step=3")
    colours = app.page.evaluate(
        """() => { const m = {};
          for (const c of document.querySelectorAll('.tl-words .tl-tok')) {
            const k = c.innerText; const col = getComputedStyle(c).backgroundColor;
            (m[k] = m[k] || new Set()).add(col); }
          return Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v.size])); }"""
    )
    assert colours and max(colours.values()) == 1, colours  # each token text drawn in one colour everywhere
    assert sum(1 for v in colours.values()) >= 4


def test_wordpiece_word_box_follows_new_text(app):
    """Paste new text: the "Word" box names a word of the new text, the one the steps below explain."""
    app.open("wordpiece", "vocab=typed")
    box = app.page.locator('textarea[aria-label="Text to encode"]')
    # the same number of words: an old box would keep "3." and show the new text's third word (the page opens on
    # the first text below, so the loop starts with the second: each fill is new text, and must start a run)
    assert box.input_value() == "ঘরের দামি ঘরেই"
    for text, first_unk in (("দামি ঘরেই ঘরের", "ঘরেই"), ("ঘরের দামি ঘরেই", "ঘরেই"), ("দাম বাজার", "বাজার")):
        box.fill(text)
        box.press("Control+Enter")
        app.wait_rerun()
        shown = " | ".join(app.page.locator('[data-testid="stSelectbox"]').evaluate_all("els => els.map(e => e.textContent + ' ' + Array.from(e.querySelectorAll('input')).map(i => i.value).join(' '))"))
        position = text.split(" ").index(first_unk) + 1
        assert f"{position}. {first_unk}" in shown, shown  # the new text's first unknown word is picked
        explained = app.page.locator('[data-testid="wp-steps"]').first.evaluate(
            "el => el.closest('[data-testid=\"stVerticalBlock\"]').innerText")
        assert f"remaining {first_unk}" in explained.replace("\n", " ")
    app.assert_no_exception()


@pytest.mark.parametrize("page,query,expect", [
    ("stepper", "corpus=fa&merges=5", "کتاب"),
    ("wordpiece", "vocab=trained&sample=hi", "बाज़ार"),
    ("unigram", "model=trained&sample=uz", "bozor"),
])
def test_learning_pages_have_their_own_samples(app, page, query, expect):
    app.open(page, query)
    app.assert_no_exception()
    body = app.page.locator('[data-testid="stMain"]').inner_text()
    assert expect in body
    assert app.page.locator(".tl-tokens .tl-tok.tl-unk").count() == 0  # the sample's own words are known


def _failure_box_and_caption(app) -> tuple[str, str]:
    """The round-trip box as drawn (the option its input shows) and the caption of the failures listed under it."""
    shown = app.page.locator('[data-testid="stSelectbox"] input[role="combobox"]').evaluate_all(
        "els => els.map(e => e.value).filter(v => v.includes('sentences fail'))")
    caption = app.page.locator('[data-testid="stCaptionContainer"]').filter(has_text="failures; lost text").first
    return shown[0], caption.inner_text()


def test_train_round_trip_box_count_belongs_to_the_failures_shown(app):
    """Pick a tokenizer in the round-trip box, then train on another corpus: the count the box
    shows is the count of the failures listed under it (the same tokenizer ids, other counts)."""
    import re

    app.page.set_default_timeout(120_000)
    app.open("train", "corpus=bundled&sizes=300,500&recipes=wordpiece")
    app.wait_idle(timeout=180)
    combo = app.page.locator('input[role="combobox"][aria-label="Tokenizer"]').first  # the round-trip box
    option = app.page.get_by_role("option").filter(has_text="seen ≥ 2×").first  # not the first option
    for _ in range(5):  # on a loaded machine the first click can land while the box is still being drawn
        combo.click()
        try:
            option.wait_for(timeout=5_000)
            break
        except Exception:
            app.page.keyboard.press("Escape")
            app.wait_idle()
    option.click()
    app.wait_rerun(timeout=180)
    for corpus in ("Persian sample", "Hindi sample"):
        app.page.get_by_text(corpus, exact=True).click()
        app.wait_rerun(timeout=180)
        app.assert_no_exception()
        shown, caption = _failure_box_and_caption(app)
        count = re.search(r"— ([\d,]+) of", shown).group(1)
        assert re.search(rf"of {count} failures", caption), (corpus, shown, caption)
    app.screenshot("train-round-trip-box", full_page=True)


def test_home_uploaded_file_is_kept_for_the_session(app, tmp_path):
    """A text file uploaded on the home page is still the text after leaving the page and after a chip link."""
    from urllib.parse import unquote

    path = tmp_path / "lesson.txt"
    path.write_text("ফাইলের লেখা zebrafile\n" + "আমার বাজার নতুন দোকান। " * 20, encoding="utf-8")  # too long for the URL

    def tokens_text() -> str:
        return app.page.locator(".tl-tokens").first.inner_text()

    def uses_file() -> bool:
        return "zebrafile" in tokens_text() and "lesson.txt" in app.page.inner_text("body")

    app.open("", "tok=words")
    app.page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(str(path))
    app.wait_rerun()
    assert uses_file()
    sidebar = app.page.locator('[data-testid="stSidebarNav"]')
    sidebar.get_by_text("Compare tokenizers").click()
    app.wait_rerun()
    sidebar.get_by_text("Paste and see").click()
    app.wait_rerun()
    assert app.page.locator("h1").first.inner_text() == "Paste and see"
    assert uses_file(), tokens_text()
    link = app.page.locator(".tl-tokens").first.locator("a.tl-link").last
    link.click()
    app.wait_rerun()
    assert app.page.locator("h1").first.inner_text() == "Word inspector", unquote(app.page.url)
    app.page.go_back()
    app.wait_rerun()
    assert uses_file(), tokens_text()
    app.page.locator('[data-testid="stSidebar"]').get_by_text("Classroom display").click()  # any other rerun
    app.wait_rerun()
    assert uses_file(), tokens_text()
    # "Forget it" goes back to the text box
    app.page.get_by_role("button", name="Forget it").click()
    app.wait_rerun()
    assert "zebrafile" not in tokens_text() and "lesson.txt" not in app.page.inner_text("body")
    app.assert_no_exception()


def test_zwnj_label_inside_a_persian_word_reads_as_written(app):
    """A ‹ZWNJ› label inside "می‌رسد": its guillemets open and close the name (‹ left of ZWNJ, › right),
    and the word's two halves stay on their sides (می to the right of the label, رسد to its left)."""
    app.open("", "tok=words&text=" + quote("شما می‌رسد"))
    chip = app.page.locator(".tl-tokens").first.locator(".tl-tok", has=app.page.locator(".tl-fmt"))
    geo = chip.evaluate(
        """c => { const f = c.querySelector('.tl-fmt'), t = f.firstChild;
             const at = k => { const r = document.createRange(); r.setStart(t, k); r.setEnd(t, k + 1);
                               return r.getBoundingClientRect().x; };
             const n = t.textContent.length;
             const side = s => { const w = document.createTreeWalker(c, NodeFilter.SHOW_TEXT); let x;
               while ((x = w.nextNode())) { const k = x.textContent.indexOf(s);
                 if (k >= 0) { const r = document.createRange(); r.setStart(x, k); r.setEnd(x, k + s.length);
                               return r.getBoundingClientRect().x; } } return null; };
             return {text: t.textContent, open: at(0), name: at(1), close: at(n - 1), label: f.getBoundingClientRect().x,
                     mi: side('می'), rest: side('رسد')}; }""")
    assert geo["text"] == "‹ZWNJ›"
    assert geo["open"] < geo["name"] < geo["close"], geo  # ‹ZWNJ› reads left to right, not ‹ZWNJ‹
    assert geo["rest"] < geo["label"] < geo["mi"], geo  # رسد ‹ZWNJ› می on screen: the word reads right to left
    chip.screenshot(path=str(app.output_dir / "zwnj-label-persian.png"))
