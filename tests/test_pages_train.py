"""The Train & evaluate page: AppTest (defaults, small sizes, uploads, limits) and a real browser."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import REPO
from tests.helpers import displayed, open_page, shown

SMALL = {"sizes": "300,500", "recipes": "bpe,byte-gpt2,wordpiece,unigram"}


def open_train(query: dict[str, str] | None = None) -> AppTest:
    return open_page("train", query, timeout=240)


def html_bodies(at: AppTest) -> list[str]:
    return [h.proto.body for h in at.get("html")]


@pytest.fixture(scope="module")
def small() -> AppTest:
    return open_train(SMALL)


def asked(df):
    """The "Vocab asked" column as numbers (NaN where nothing was asked; the cells show "–")."""
    import pandas as pd

    return pd.to_numeric(df["Vocab asked"].astype(str).str.replace(",", ""), errors="coerce")


def chart_svg(body: str) -> str:
    """The SVG inside a pages/_charts.py figure (an <img> data URI)."""
    import base64
    import re

    return base64.b64decode(re.search(r'class="tl-chart-svg"[^>]*src="data:image/svg\+xml;base64,([^"]+)"', body)
                            .group(1)).decode("utf-8")


def test_defaults_train_every_recipe_at_default_sizes() -> None:
    at = open_train()
    df = at.dataframe[0].value
    assert len(df) == 5 * 3 + 3  # five recipes at 500 / 2,000 / 8,000, three baselines
    gpt2 = df[df["Tokenizer"].str.startswith("Byte-level BPE, GPT-2")]
    assert (gpt2["Vocab obtained"] < asked(gpt2) * 0.6).sum() == 2  # 2,000 and 8,000
    assert all("\\p{M}" in n for n in gpt2["Why obtained ≠ asked"].tolist()[1:])
    assert any("\\p{L} effect" in w.value for w in at.warning)
    split = next(m.value for m in at.markdown if m.value.startswith("**Split by document**"))
    assert "held-out sentences" in split and "dropped" in split
    charts = [chart_svg(h.proto.body) for h in at.get("html") if 'data-testid="tl-chart"' in h.proto.body]
    assert len(charts) >= 3  # tokens/sentence, cut%, Zipf (SVG images, pages/_charts.py)
    assert all(c.startswith("<svg") and ("<path" in c or "<circle" in c) for c in charts)


def test_small_sizes_table_and_round_trip(small: AppTest) -> None:
    df = small.dataframe[0].value
    assert set(asked(df).dropna()) == {300, 500}
    assert "–" in set(displayed(small.dataframe[0])["Vocab asked"])  # the baselines asked for nothing: a dash, not None
    # and in the cell itself: the grid draws an empty cell as "None" whatever the style's text says
    assert not df["Vocab asked"].isna().any()
    rt = dict(zip(df["Tokenizer"], df["Round trip %"]))
    assert rt["BPE (code points), 500"] == 100.0 and rt["Unigram (SentencePiece-style), 500"] == 100.0
    assert rt["WordPiece, 500"] < 100.0
    assert small.query_params["sizes"] in ("300,500", ["300,500"])
    # WordPiece failures are listed with a highlighted diff and a reason
    box = next(b for b in small.selectbox if b.key.startswith("tr_fail_tok"))  # keyed by what it lists
    box.set_value("wordpiece-500").run()
    caption = next(c.value for c in small.caption if "failures; lost text" in c.value)
    label = next(b for b in small.selectbox if b.key.startswith("tr_fail_tok")).format_func("wordpiece-500")
    assert label.split("— ")[1].split(" of")[0] in caption  # the box's count is the count of the failures shown
    bodies = [b for b in html_bodies(small) if "tl-diff" in b and "original" in b]
    assert bodies and any("punctuation" in b for b in bodies)
    assert any("<ins" in b for b in bodies)


def test_vocab_view_and_save_proof(small: AppTest) -> None:
    small.selectbox(key="tr_vocab_tok").set_value("unigram-500").run()
    assert not small.exception
    labels = [m.label for m in small.metric]
    assert any("Unused tokens" in lbl for lbl in labels)
    small.selectbox(key="tr_save_tok").set_value("wordpiece-300").run()
    proof = next(m.value for m in small.markdown if "Loaded back and saved again" in m.value)
    assert "same file, byte for byte" in proof and "is identical" in proof


def test_upload_tokenizer_json_ok_and_truncated(small: AppTest) -> None:
    from core.analysis import recipes as R
    from core.analysis.evaluate import split_corpus

    corpus = (REPO / "assets" / "train" / "bn_shop_corpus.txt").read_text(encoding="utf-8")
    tok = R.train("bpe", split_corpus(corpus).train, 300)  # same split and settings as the page
    data = tok.json.encode("utf-8")
    small.file_uploader(key="tr_load").upload("tokenizer.json", data, "application/json").run()
    assert not small.exception
    assert any("the same file as BPE (code points), 300" in shown(s.value) for s in small.success)
    assert any("byte-identical" in shown(m.value) for m in small.markdown)
    small.file_uploader(key="tr_load").upload("tokenizer.json", data[: len(data) // 3], "application/json").run()
    assert not small.exception
    assert any("truncated" in e.value for e in small.error)
    broken = json.loads(tok.json)
    broken["model"]["merges"].insert(0, ["nope", "nada"])
    small.file_uploader(key="tr_load").upload("bad.json", json.dumps(broken).encode(), "application/json").run()
    assert any("corrupted" in e.value for e in small.error)


def test_uploaded_corpus_limits_and_split_errors() -> None:
    at = open_train({**SMALL, "corpus": "upload"})
    assert any("Upload a corpus" in i.value for i in at.info)
    up = at.file_uploader(key="tr_upload")
    up.upload("big.txt", b"a" * 2_000_001, "text/plain").run()
    assert not at.exception
    assert any("at most 2,000,000" in e.value for e in at.error)
    at.file_uploader(key="tr_upload").upload("tiny.txt", "একটি লাইন\n".encode(), "text/plain").run()
    assert any("too small to split" in e.value for e in at.error)
    at.file_uploader(key="tr_upload").upload("latin1.txt", "café".encode("latin-1"), "text/plain").run()
    assert any("not valid UTF-8" in shown(e.value) for e in at.error)
    lines = "\n".join(f"নতুন বাক্য নম্বর {i} এখানে লেখা আছে।" for i in range(200))
    at.file_uploader(key="tr_upload").upload("lines.txt", lines.encode(), "text/plain").run()
    assert not at.exception
    split = next(m.value for m in at.markdown if m.value.startswith("**Split by"))
    assert split.startswith("**Split by line group**")


def test_no_recipe_gives_a_hint(small: AppTest) -> None:
    at = open_train(SMALL)
    at.multiselect(key="tr_recipes").set_value([])
    at.button[0].click()  # the form's submit button
    at.run()
    assert not at.exception
    assert any("at least one recipe" in i.value for i in at.info)


# -- real browser ------------------------------------------------------------------


def test_train_page_in_browser(app, tmp_path: Path) -> None:
    app.page.set_default_timeout(120_000)
    app.open("train", "sizes=300,500&recipes=bpe,byte-gpt2,byte-plain,wordpiece,unigram")
    app.wait_idle(timeout=180)
    app.assert_no_exception()
    app.page.wait_for_selector('[data-testid="stDataFrame"]')
    assert app.page.locator("text=The \\p{L} effect").count() == 0  # 300/500 are reachable: no warning yet
    assert app.page.locator(".tl-diff").count() > 0  # wordpiece failures are on the page
    app.screenshot("train_page")
    # load a truncated tokenizer.json: a clear rejection, no traceback
    bad = tmp_path / "tokenizer.json"
    bad.write_text('{"version": "1.0", "model": {"type": "BPE", "vocab": {"a"', encoding="utf-8")
    app.page.locator('[data-testid="stFileUploader"] input[type=file]').last.set_input_files(str(bad))
    app.page.wait_for_selector("text=is truncated", timeout=60_000)
    app.wait_idle()
    app.page.locator("text=is truncated").scroll_into_view_if_needed()
    app.assert_no_exception()
    app.screenshot("train_page_rejected_upload", full_page=False)


def test_train_page_gpt2_warning_in_browser(app) -> None:
    app.page.set_default_timeout(120_000)
    app.open("train", "sizes=500,2000&recipes=byte-gpt2,byte-plain")
    app.wait_idle(timeout=180)
    app.assert_no_exception()
    app.page.wait_for_selector("text=The \\p{L} effect")
    app.page.locator("text=The \\p{L} effect").scroll_into_view_if_needed()
    app.screenshot("train_page_gpt2_warning", full_page=False)


# -- Special tokens & round trip page ------------------------------------------------------


def open_special(query: dict[str, str] | None = None) -> AppTest:
    return open_page("special_tokens", query, timeout=240)


def test_special_tokens_defaults_flag_injection() -> None:
    at = open_special({"tok": "trained:bpe,trained:wordpiece,cl100k_base"})
    df = at.dataframe[0].value
    bpe = df[df["Tokenizer"].str.startswith("BPE (code points)")].set_index("Mode")
    assert bpe.loc["library default", "Outcome"].startswith("⚠")
    assert bpe.loc["library default", "Control ids made"] == "[SEP] → 3"
    assert bpe.loc["encode_special_tokens=True", "Outcome"] == "✓ stayed text"
    if any(df["Tokenizer"].str.startswith("cl100k")):
        cl = df[df["Tokenizer"].str.startswith("cl100k")].set_index("Mode")
        assert cl.loc["library default (encode)", "Outcome"].startswith("⛔")
        assert cl.loc['allowed_special="all"', "Control ids made"] == "<|endoftext|> → 100257"
        # a refused encode: no count (a dash in the cell, not the grid's "None") and why, in our words
        refused = cl.loc["library default (encode)"]
        assert refused["Tokens"] == "–" and refused["Detail"] == "refused: the text spells the control token <|endoftext|>"
    assert any("Injection risk" in w.value for w in at.warning)
    # padding: the shorter sentence is padded and masked
    pad = next(b for b in html_bodies(at) if "attention mask" in b)
    assert "[PAD]" in pad and "0 (pad)" in pad
    # round-trip matrix: byte-level pretrained passes the emoji case, code-point BPE does not
    matrix = at.dataframe[1].value
    assert matrix.loc["Emoji sequences"].iloc[0] == "✗ fail"
    assert matrix.loc["Bangla sentence"].iloc[0] == "✓ pass"


def test_special_tokens_plain_text_and_no_tokenizer() -> None:
    at = open_special({"tok": "trained:unigram", "text": "কোনো বিশেষ টোকেন নেই"})
    assert any("No control id" in s.value for s in at.success)
    at.multiselect(key="sp_tok").set_value([]).run()
    assert not at.exception
    assert any("at least one tokenizer" in i.value for i in at.info)


def test_special_tokens_uploaded_cases() -> None:
    at = open_special({"tok": "trained:byte-plain,trained:wordpiece"})
    at.file_uploader(key="sp_cases").upload("mine.txt", "এক  দুই\nতিন।\n".encode(), "text/plain").run()
    assert not at.exception
    matrix = at.dataframe[1].value
    assert "mine.txt: line 1" in matrix.index and "mine.txt: line 2" in matrix.index
    assert (matrix.iloc[:, 0] == "✓ pass").all()  # byte-plain is lossless on every case
    at.file_uploader(key="sp_cases").upload("bad.txt", b"\xff\xfe\x00\x01", "text/plain").run()
    assert not at.exception and at.error


def test_special_tokens_page_in_browser(app) -> None:
    app.page.set_default_timeout(120_000)
    app.open("special_tokens", "tok=trained:bpe,cl100k_base,mistral-spm-v1")
    app.wait_idle(timeout=180)
    app.assert_no_exception()
    app.page.wait_for_selector("text=Injection risk")
    app.screenshot("special_tokens_page")
