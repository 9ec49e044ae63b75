"""Word inspector and checkpoint report in the app: AppTest, then a real browser (screenshots in test-output/)."""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, quote, urlparse

import pytest
from streamlit.testing.v1 import AppTest

from core.analysis import measures
from core.analysis.report import build_report
from core.pretrained import zoo
from core.pretrained.adapter import summarize
from tests import helpers

SENTENCE = "বাজারঘরের অর্ডার আগামীকাল বিকেলে রাজশাহী পৌঁছাবে।"
WORDS = {  # language -> (word, English)
    "bn": ("রাজশাহী", "Rajshahi"),
    "hi": ("नमस्ते", "hello"),
    "fa": ("می‌رسد", "arrives"),
    "uz": ("Oʻzbekiston", "Uzbekistan"),
}


def open_page(path: str, query: dict[str, str]) -> AppTest:
    return helpers.open_page(path, query, timeout=120)


def verdicts(at: AppTest) -> dict[str, str]:
    out = {}
    for h in at.get("html"):
        m = re.match(r'<div class="tl-verdict" data-tokenizer="([^"]+)">(.*?)(<br>|</div>)', h.proto.body)
        if m:
            out[m.group(1)] = m.group(2)
    return out


def test_inspector_rajshahi_from_the_url():
    at = open_page("inspector", {"word": "রাজশাহী", "tok": "cl100k_base,o200k_base", "en": "Rajshahi"})
    v = verdicts(at)
    assert v["cl100k_base"].startswith("9 tokens:") and v["o200k_base"].startswith("3 tokens:")
    bodies = " ".join(h.proto.body for h in at.get("html"))
    assert "split before U+09BE BENGALI VOWEL SIGN AA" in bodies and "\\p{L}++ does not match a vowel sign" in bodies
    assert 'data-kind="inside-codepoint"' in bodies and "costs 2.25x its translation" in bodies.replace("&#x27;", "'")
    assert at.dataframe[0].value["code point"].tolist()[:2] == ["U+09B0", "U+09BE"]


@pytest.mark.parametrize("lang", list(WORDS))
def test_inspector_four_languages(lang):
    word, en = WORDS[lang]
    at = open_page("inspector", {"word": word, "en": en})
    v = verdicts(at)
    assert set(v) >= {"cl100k_base", "o200k_base"}
    for tid, text in v.items():
        assert text.split(":")[0] == f"{len(zoo.load(tid).encode(word).tokens)} tokens" or text.startswith("1 token")


def test_inspector_bad_input_is_a_message():
    at = open_page("inspector", {"word": "ক" * 300})  # a link's word is cut to the box's 200, with a warning
    assert any("word=" in w.value and "first 200" in w.value for w in at.warning)
    at = open_page("inspector", {"word": ""})
    assert at.info


def test_compare_table_equals_the_report():
    ids = ["cl100k_base", "o200k_base", "mistral-spm-v1"]
    at = open_page("compare", {"tok": ",".join(ids), "text": SENTENCE})
    shown = at.dataframe[0].value.to_dict("records")
    assert [r.pop("name") for r in shown] == [zoo.load(i).name for i in ids]  # names on screen, beside the ids
    table = shown
    report = build_report(SENTENCE, [zoo.load(i) for i in ids])
    # the report's row is the page's row (the summary and the field's measures) plus its own extra columns
    assert [{k: t.row[k] for k in row if k != "vocab_size"} for t, row in zip(report.tokenizers, table)] == [
        {k: v for k, v in row.items() if k != "vocab_size"} for row in table]
    assert table == [{**summarize(zoo.load(i), zoo.load(i).encode(SENTENCE)).as_row(),
                      **measures.text_measures(zoo.load(i), SENTENCE)} for i in ids]
    assert {"single_token_words", "pretokenizer_pieces", "optimal_tokens", "renyi_efficiency"} <= set(table[0])
    at.button(key="cmp_report_go").click().run()
    assert not at.exception
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Download HTML report" in labels and "Download Markdown report" in labels


def test_home_chips_open_the_inspector():
    at = helpers.open_page("home", {"text": "রাজশাহী পৌঁছাবে"}, timeout=120, check=False)
    assert not at.exception
    hrefs = set(re.findall(r'href="(inspector\?[^"]*)"', " ".join(h.proto.body for h in at.get("html"))))
    words = {parse_qs(urlparse(h.replace("&amp;", "&")).query)["word"][0] for h in hrefs}
    assert words == {"রাজশাহী", "পৌঁছাবে"}


def chip_words(bodies: list[str]) -> list[list[str]]:
    """For each chip row (``tl-tokens`` div) in these HTML bodies, the inspector words its chips open."""
    rows = []
    for body in bodies:
        for row in re.findall(r'<div class="tl-tokens".*?</div>', body, flags=re.S):
            hrefs = re.findall(r'<a class="tl-link" href="(inspector\?[^"]*)" target="_self">', row)
            rows.append([parse_qs(urlparse(h.replace("&amp;", "&")).query)["word"][0] for h in hrefs])
    return rows


def test_stepper_chips_open_the_inspector():
    # the word table: every chip of a word's row opens that word
    at = open_page("stepper", {"merges": "3"})
    bodies = [h.proto.body for h in at.get("html")]
    words_table = next(b for b in bodies if 'class="tl-words' in b)
    rows = chip_words([words_table])
    toy = {w.split(":")[0] for w in at.text_input(key="st_words").value.split(",")}
    assert len(rows) == len(toy) and all(len(set(r)) == 1 and len(r) > 1 for r in rows)
    assert {r[0] for r in rows} == toy
    # new text on the Bangla shop corpus with GPT-2's \p{L}+ split: a word is cut apart at its vowel signs,
    # yet every chip of the encode steps and of the result opens the whole word it came from
    at = open_page("stepper", {"corpus": "shop_bn", "pattern": "gpt2", "unit": "byte", "merges": "40"})
    at.text_input(key="st_new_shop_bn").set_value("রাজশাহী ঘর").run()  # 7 pre-tokenized pieces (the box is per corpus)
    assert not at.exception
    bodies = [h.proto.body for h in at.get("html")]
    encode_rows = [r for b in bodies if "tl-enc-steps" in b for r in chip_words([b])]
    assert len(encode_rows) > 4 and all(r for r in encode_rows)
    assert {w for r in encode_rows for w in r} == {"রাজশাহী", "ঘর"}
    final = chip_words([b for b in bodies if b.startswith('<div class="tl-tokens"')])[-1]
    assert set(final) == {"রাজশাহী", "ঘর"} and final.count("রাজশাহী") >= 6


def test_pretokenizer_wordpiece_unigram_and_replay_chips_open_the_inspector():
    at = open_page("pretokenizers", {"example": "bn", "patterns": "gpt2,whitespace"})
    rows = chip_words([h.proto.body for h in at.get("html")])
    words = {"বাজারঘরের", "অর্ডার", "আগামীকাল", "বিকেলে", "রাজশাহী", "পৌঁছাবে"}
    # GPT-2 cuts words at vowel signs, yet each part opens the whole word ("ে।" and \S+'s "পৌঁছাবে।" open পৌঁছাবে)
    assert len(rows) == 2 and set(rows[0]) == set(rows[1]) == words
    assert rows[0].count("রাজশাহী") > 1 and rows[1].count("রাজশাহী") == 1

    at = open_page("wordpiece", {"text": "ঘরের দামি"})
    assert [r for r in chip_words([h.proto.body for h in at.get("html")]) if r] == [["ঘরের", "ঘরের", "দামি", "দামি"]]

    at = open_page("unigram", {"word": "বাজারঘরের"})
    rows = [r for r in chip_words([h.proto.body for h in at.get("html")]) if r]
    assert len(rows) == 1 and set(rows[0]) == {"বাজারঘরের"}

    at = open_page("replay", {"tok": "cl100k_base", "text": "রাজশাহী"})
    body = " ".join(h.proto.body for h in at.get("html"))
    assert [r for r in chip_words([body]) if r] == [["রাজশাহী"] * 9]
    assert "&amp;tok=cl100k_base" in body


# ---------------------------------------------------------------------------
# Real browser
# ---------------------------------------------------------------------------


def test_click_a_chip_on_compare_opens_the_inspector(app):
    app.open("compare", f"tok=cl100k_base,o200k_base&text={quote(SENTENCE)}")
    app.assert_no_exception()
    o200k_row = app.page.locator(".tl-tokens").nth(1)
    chip = o200k_row.locator("a.tl-link", has_text="রাজ").first
    chip.click()
    app.page.wait_for_url(re.compile(r"/inspector\?"), timeout=30_000)
    app.page.wait_for_selector("h1", timeout=30_000)
    app.page.wait_for_function("document.querySelectorAll('.tl-verdict').length === 2", timeout=60_000)
    app.wait_idle()
    app.assert_no_exception()
    q = parse_qs(urlparse(app.page.url).query)
    assert q["word"] == ["রাজশাহী"]
    assert app.page.locator("h1").first.inner_text().strip() == "Word inspector"
    assert app.page.locator('input[aria-label="Word (or a short text)"]').input_value() == "রাজশাহী"
    v = app.page.locator(".tl-verdict")
    assert v.nth(0).inner_text().startswith("9 tokens") and v.nth(1).inner_text().startswith("3 tokens")
    assert app.page.get_by_text(re.compile(r"split before U\+09BE BENGALI VOWEL SIGN AA")).count() >= 1
    app.screenshot("inspect-bangla-from-chip")


def test_click_a_chip_on_the_bpe_stepper_opens_the_inspector(app):
    app.open("stepper", "corpus=shop_bn&unit=byte&merges=40")
    app.page.get_by_text(re.compile(r"^Round trip")).first.wait_for(timeout=60_000)  # the encode panel is drawn
    app.wait_idle()
    app.assert_no_exception()
    # a chip in the "Encode new text" result (the default word বাজারঘর), cut into several byte-level pieces
    result = app.page.locator(".tl-tokens").last
    links = result.locator("a.tl-link")
    assert links.count() > 1
    for i in range(links.count()):
        assert links.nth(i).get_attribute("target") in (None, "_self")  # st.html's sanitizer may drop it: same tab
        assert parse_qs(urlparse(links.nth(i).get_attribute("href")).query)["word"] == ["বাজারঘর"]
    # long byte-level words stay in their column (they scroll inside the cell, not under the pair counts)
    table = app.page.locator("table.tl-seg").first.bounding_box()
    counts = app.page.get_by_text(re.compile(r"^Pair counts before merge")).first.bounding_box()
    assert table["x"] + table["width"] <= counts["x"]
    app.screenshot("stepper-chips-linked")
    pages_before = len(app.page.context.pages)
    links.nth(1).click()
    app.page.wait_for_url(re.compile(r"/inspector\?"), timeout=30_000)
    app.page.wait_for_selector("h1", timeout=30_000)
    app.wait_idle()
    app.assert_no_exception()
    assert len(app.page.context.pages) == pages_before  # the same tab
    assert parse_qs(urlparse(app.page.url).query)["word"] == ["বাজারঘর"]
    assert app.page.locator("h1").first.inner_text().strip() == "Word inspector"
    assert app.page.locator('input[aria-label="Word (or a short text)"]').input_value() == "বাজারঘর"
    app.screenshot("inspect-from-stepper-chip")


@pytest.mark.parametrize("lang", ["fa", "uz", "hi"])
def test_inspector_in_the_browser(app, lang):
    word, en = WORDS[lang]
    app.open("inspector", f"word={quote(word)}&en={quote(en)}&tok=cl100k_base,o200k_base,mistral-spm-v1")
    app.page.wait_for_function("document.querySelectorAll('.tl-verdict').length === 3", timeout=60_000)
    app.wait_idle()
    app.assert_no_exception()
    rows = app.page.locator(".tl-tokens")
    assert rows.count() == 3
    if lang == "fa":
        assert rows.first.get_attribute("dir") == "rtl"
    assert app.page.locator(".tl-verdict").count() == 3
    app.screenshot(f"inspect-{lang}")


def test_report_downloads_and_opens_offline(app, output_dir: Path, browser):
    ids = "cl100k_base,o200k_base,mistral-spm-v1"
    app.open("compare", f"tok={ids}&text={quote(SENTENCE)}")
    app.page.wait_for_function("document.querySelectorAll('.tl-tokens:not(.tl-diff-line)').length === 3", timeout=60_000)
    app.wait_idle()
    app.assert_no_exception()
    page_counts = [int(re.search(r"([\d,]+) tokens", t).group(1).replace(",", ""))
                   for t in app.page.locator('[data-testid="stMarkdownContainer"]', has_text="tokens/word").all_inner_texts()]
    app.page.get_by_text("Checkpoint report (self-contained HTML + Markdown)").click()
    make = app.page.get_by_role("button", name="Make checkpoint report")
    make.wait_for(state="visible")
    app.wait_idle()  # subtle: under load a click that lands while a rerun is still drawing can be lost
    make.click()
    app.wait_idle()
    app.assert_no_exception()
    download = app.page.get_by_role("button", name="Download HTML report")
    download.wait_for(state="visible", timeout=90_000)
    with app.page.expect_download() as dl:
        download.click()
    path = output_dir / "checkpoint-report.html"
    dl.value.save_as(str(path))

    context = browser.new_context(viewport={"width": 1300, "height": 900})
    try:
        tab = context.new_page()
        requests: list[str] = []
        tab.on("request", lambda r: requests.append(r.url))
        tab.goto(path.as_uri())
        tab.wait_for_load_state("networkidle")
        assert requests and all(u.startswith(("file:", "data:")) for u in requests), requests
        cells = tab.locator("table").first.locator("tbody tr")
        report_counts = [int(cells.nth(i).locator("td").nth(1).inner_text().replace(",", "")) for i in range(cells.count())]
        assert report_counts == page_counts  # the figures the compare page shows
        assert tab.locator(".tl-tokens").count() == 3
        tab.screenshot(path=str(output_dir / "checkpoint-report.png"), full_page=True)
    finally:
        context.close()
