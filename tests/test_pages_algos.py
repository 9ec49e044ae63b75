"""The WordPiece, Unigram, normalization and pre-tokenizer pages: AppTest and a real browser."""
from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests import helpers
from tests.helpers import shown


def open_page(name: str) -> AppTest:
    return helpers.open_page(name, timeout=120, check=False)


def no_exception(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def texts(elements) -> str:
    return "\n".join(shown(e.value) for e in elements)


# ---------------------------------------------------------------- AppTest


# Each of these pages renders with its defaults, no exception and a title: test_app.py::test_page_renders_with_defaults.


def test_wordpiece_typed_example_and_bad_vocab():
    at = open_page("wordpiece")
    no_exception(at)
    assert "[UNK]" not in texts(at.markdown).split("tokens:**", 1)[1].split("\n", 1)[0]  # default: a trained vocabulary
    at.radio(key="wp_source").set_value("typed").run()
    md = texts(at.markdown)
    assert "`ঘর` `##◌ের` `দাম` `##◌ি` `[UNK]`" in md  # a sign after ## gets its dotted circle
    assert "[UNK]" in texts(at.error)  # the stepped word is ঘরেই: whole word unknown
    at.text_area(key="wp_typed").set_value(" , ").run()
    no_exception(at)
    assert "empty" in texts(at.error)


def test_wordpiece_trained_vocab():
    at = open_page("wordpiece")
    at.radio(key="wp_source").set_value("trained").run()
    no_exception(at)
    assert "WordPieceTrainer" in texts(at.caption) or any("entries" in str(c.value) for c in at.caption)
    at.text_area(key="wp_text_bn").set_value("ক" * 150 + " ঘর").run()
    no_exception(at)
    assert "150 characters" in texts(at.error)


def test_wordpiece_link_sets_the_scoring_corpus():
    at = helpers.open_page("wordpiece", {"wp_corpus": "sample"}, timeout=120, check=False)
    no_exception(at)
    assert at.radio(key="wp_corpus").value == "sample"
    assert at.query_params.get("wp_corpus") in ("sample", ["sample"])  # and the page's own links carry it
    at.radio(key="wp_corpus").set_value("english").run()
    assert at.query_params.get("wp_corpus") in ("english", ["english"])


def test_unigram_long_word_is_limited_with_notice():
    at = open_page("unigram")
    no_exception(at)
    at.text_input(key="ug_word_bn").set_value("বাজার" * 80).run()
    no_exception(at)
    assert "limited to the first 200" in texts(at.warning)


def test_normalization_trap_and_forms():
    at = open_page("normalization")
    no_exception(at)
    assert "lost a combining mark" in texts(at.error)
    for form in ["NFC", "NFD", "NFKC", "NFKD"]:
        at.radio(key="norm_form").set_value(form).run()
        no_exception(at)
    at.selectbox(key="norm_example").set_value("nfkc").run()
    at.radio(key="norm_form").set_value("NFKC").run()
    no_exception(at)
    assert "Compatibility mapping" in texts(at.warning)


def test_normalization_rules_count_tokens():
    at = open_page("normalization")
    at.text_area(key="norm_rule_text").set_value("O'zbekiston san'at").run()
    no_exception(at)
    assert at.selectbox(key="norm_tok").value == "cl100k_base"  # the pretrained zoo is in the selector
    assert "tokens before →" in texts(at.markdown)
    at.selectbox(key="norm_tok").set_value("bytes").run()
    assert "**UTF-8 bytes**: 18 tokens before → **20 after** the rules." in texts(at.markdown)


def test_pretokenizers_examples():
    at = open_page("pretokenizers")
    no_exception(at)
    assert "separates a combining mark" in texts(at.warning)
    at.selectbox(key="pt_example").set_value("fa").run()
    no_exception(at)
    at.multiselect(key="pt_patterns").set_value([]).run()
    no_exception(at)
    assert "Choose at least one" in texts(at.info)


# ---------------------------------------------------------------- real browser


def _has_persian(s: str) -> bool:
    return any("\u0600" <= ch <= "\u06ff" for ch in s)


def test_browser_normalization_persian_reads_right_to_left(app):
    app.open("normalization", "example=persian&form=NFKC")
    app.page.wait_for_selector('.tl-algo-big[dir="rtl"]', timeout=30_000)
    app.assert_no_exception()
    boxes = app.page.locator('.tl-algo-big[dir="rtl"]')
    assert boxes.count() >= 2 and _has_persian(boxes.first.inner_text())
    assert boxes.first.evaluate("e => getComputedStyle(e).direction") == "rtl"
    assert "NON-JOINER" in app.page.locator('[data-testid="stAlert"]').all_inner_texts().__str__()
    app.screenshot("algos-normalization-persian")


@pytest.mark.parametrize("lines", [["Your order will reach", "سفارش شما فردا به راجشاهی", "বাজার ঘরের অর্ডার"],
                                   ["سفارش شما فردا به راجشاهی", "Your order will reach"]],
                         ids=["english-first", "persian-first"])
def test_browser_big_text_each_line_in_its_own_direction(app, lines):
    """pages/_algos.big_text: every line has its own direction in the page (its computed
    ``direction``, what a screen reader or a copy as HTML gets), and reads in that order."""
    from urllib.parse import quote

    app.open("normalization", "text=" + quote("\n".join(lines)))
    box = app.page.locator(".tl-algo-big").first
    box.wait_for(timeout=30_000)
    app.assert_no_exception()
    words = box.evaluate("""b => { const out = []; const w = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
      let n; while ((n = w.nextNode())) { const t = n.textContent; const re = /\\S+/g; let m;
        while ((m = re.exec(t))) { const r = document.createRange(); r.setStart(n, m.index);
          r.setEnd(n, m.index + m[0].length); const q = r.getBoundingClientRect();
          out.push([m[0], q.x, getComputedStyle(n.parentElement).direction]); } } return out; }""")
    at = {w: (x, d) for w, x, d in words}
    for line in lines:
        ws = line.split(" ")
        rtl = _has_persian(line)
        assert {at[w][1] for w in ws} == {"rtl" if rtl else "ltr"}, (line, [at[w] for w in ws])
        xs = [at[w][0] for w in ws]
        assert xs == (sorted(xs, reverse=True) if rtl else sorted(xs)), line
    box.screenshot(path=str(app.output_dir / f"algos-big-text-{'fa' if _has_persian(lines[0]) else 'en'}-first.png"))


def test_browser_normalization_bert_trap_table(app):
    app.open("normalization")
    app.page.wait_for_selector('[data-testid="norm-table"]', timeout=30_000)
    app.assert_no_exception()
    table = app.page.locator('[data-testid="norm-table"]')
    assert table.count() == 1
    assert table.inner_text().count("REMOVED") == 4
    app.screenshot("algos-normalization-trap")


def test_browser_pretokenizers_persian_right_to_left(app):
    app.open("pretokenizers", "example=fa")
    app.page.wait_for_selector('.tl-tokens[dir="rtl"]', timeout=30_000)
    app.assert_no_exception()
    rtl = app.page.locator('.tl-tokens[dir="rtl"]')
    assert rtl.count() >= 8 and _has_persian(rtl.first.inner_text())
    # Chips flow right to left: the first chip sits to the right of the second.
    chips = rtl.first.locator(".tl-tok")
    assert chips.nth(0).bounding_box()["x"] > chips.nth(1).bounding_box()["x"]
    assert "ARABIC DAMMA" in app.page.inner_text("body")
    app.screenshot("algos-pretokenizers-persian")


def test_browser_wordpiece_rejects_bpe_tokenizer_json(app, tmp_path):
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(["low lower newest widest"], trainers.BpeTrainer(vocab_size=30, show_progress=False))
    path = tmp_path / "tokenizer.json"
    path.write_text(tok.to_str(), encoding="utf-8")
    app.open("wordpiece", "vocab=upload")
    app.page.locator('input[type="file"]').first.set_input_files(str(path))
    app.page.get_by_text("holds a BPE model, not WordPiece").first.wait_for(timeout=30_000)
    app.assert_no_exception()
    assert "holds a BPE model, not WordPiece" in app.page.inner_text("body")
    app.screenshot("algos-wordpiece-bad-upload")


def test_browser_wordpiece_steps(app):
    app.open("wordpiece", "vocab=typed")  # the textbook vocabulary (the default is a trained one)
    app.page.wait_for_selector('[data-testid="wp-steps"]', timeout=30_000)
    app.assert_no_exception()
    steps = app.page.locator('[data-testid="wp-steps"]')
    assert steps.count() == 3 and "not in vocabulary" in steps.last.inner_text()
    app.screenshot("algos-wordpiece")


def test_browser_unigram_lattice_and_bad_model(app):
    import mistral_common

    app.open("unigram")
    app.page.wait_for_selector('[data-testid="ug-top"]', timeout=30_000)
    app.page.wait_for_selector(".tl-chart-lattice img.tl-chart-svg", timeout=30_000)
    app.assert_no_exception()
    lattice = app.page.locator(".tl-chart-lattice img.tl-chart-svg")
    assert lattice.count() == 1 and app.page.locator(".js-plotly-plot").count() == 0  # SVG image, no plotly
    assert lattice.evaluate("i => i.complete && i.naturalWidth > 0")  # the SVG parsed and drew
    assert lattice.bounding_box()["width"] > 300
    assert app.page.locator('[data-testid="ug-top"] tr').count() == 6  # header + top 5
    app.screenshot("algos-unigram")
    app.open("unigram", "model=upload")
    model = Path(mistral_common.__file__).parent / "data" / "tokenizer.model.v1"
    app.page.locator('input[type="file"]').first.set_input_files(str(model))
    app.page.get_by_text("SentencePiece BPE model, not Unigram").first.wait_for(timeout=30_000)
    app.assert_no_exception()
    assert "SentencePiece BPE model, not Unigram" in app.page.inner_text("body")


@pytest.mark.parametrize("path", ["wordpiece", "normalization", "pretokenizers"])
def test_browser_html_in_user_text_stays_text(app, path):
    from urllib.parse import quote

    payload = "<img src=x onerror=alert(1)> ক্ষ"
    app.open(path, "text=" + quote(payload))
    shown = app.page.locator(".tl-tokens, .tl-algo-big")
    shown.first.wait_for(timeout=30_000)
    app.assert_no_exception()
    rendered = " ".join(shown.all_inner_texts())
    assert "onerror" in rendered and "<img" in rendered  # drawn as text
    assert app.page.locator('img[src="x"]').count() == 0
    app.wait_idle()  # quiet for a while: an alert would have come by now
    assert app.dialogs == []
