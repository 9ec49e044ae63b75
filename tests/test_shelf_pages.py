"""The shelf in the pages (AppTest): grouped selector with search, 'not installed' notices, session tokenizers."""
from __future__ import annotations

from streamlit.testing.v1 import AppTest

from core.pretrained import zoo
from tests.conftest import REPO

APP = str(REPO / "app.py")


def open_page(path: str, query: dict[str, str] | None = None, state: dict | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=300)
    at.switch_page(f"pages/{path}.py")
    for k, v in (query or {}).items():
        at.query_params[k] = v
    for k, v in (state or {}).items():
        at.session_state[k] = v
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_tax_default_shows_the_spread_and_the_selector_is_grouped():
    at = open_page("tax")
    box = at.multiselect(key="tax_tok")
    assert box.value == ["gemma4", "o200k_base", "deepseek-v3", "qwen", "cl100k_base"]
    labels = list(box.options)  # AppTest gives the formatted labels
    assert "Google · Gemma 4" in labels and "Alibaba · Qwen (Qwen 1/2/2.5)" in labels
    vendors = [lab.split(" · ")[0] for lab in labels]
    assert vendors == sorted(vendors, key=vendors.index)  # each vendor's entries are together
    assert len(box.options) == len(zoo.ENTRIES)
    at.text_input(key="tax_tok_search").input("deepseek").run()
    opts = set(at.multiselect(key="tax_tok").options)
    found = {"DeepSeek · DeepSeek LLM", "DeepSeek · DeepSeek Coder", "DeepSeek · DeepSeek-V3"}
    chosen = {"Google · Gemma 4", "OpenAI · o200k_base (GPT-4o)", "Alibaba · Qwen (Qwen 1/2/2.5)",
              "OpenAI · cl100k_base (GPT-4, GPT-3.5)"}
    assert opts == found | chosen  # the matches, and the chosen ones stay


def test_a_missing_shelf_file_is_a_notice_with_the_command(tmp_path, monkeypatch):
    monkeypatch.setenv("TOKENIZER_LAB_SHELF", str(tmp_path / "empty"))
    at = open_page("compare", {"tok": "gemma4,o200k_base", "text": "রাজশাহী"})
    assert not at.error
    notes = [i.value for i in at.info]
    assert any("Gemma 4" in n and "python -m core zoo install gemma4" in n for n in notes)
    box = at.multiselect(key="cmp_tok")
    assert "Google · Gemma 4 (not installed)" in box.options
    assert list(at.dataframe[0].value["tokenizer"]) == ["o200k_base"]


def test_a_session_tokenizer_joins_the_compare_selector():
    import base64

    # a byte-level ranks table: every single byte (the loader refuses less, issue 13), then "ab"
    ranks = [bytes((b,)) for b in range(256)] + [b"ab"]
    data = b"".join(base64.b64encode(t) + b" %d\n" % r for r, t in enumerate(ranks))
    mine = zoo.load_user_bytes("mine.tiktoken", data, pattern="cl100k")
    at = open_page("compare", {"text": "ab ba"}, {"session_tokenizers": {mine.id: mine},
                                                  "cmp_tok": [mine.id, "gemma4"]})
    box = at.multiselect(key="cmp_tok")
    assert "This session (uploaded or trained) · mine.tiktoken" in box.options
    assert list(at.dataframe[0].value["tokenizer"]) == [mine.id, "gemma4"]


def test_home_page_lists_the_shelf_by_vendor_and_a_missing_entry_is_a_notice(tmp_path, monkeypatch):
    monkeypatch.setenv("TOKENIZER_LAB_SHELF", str(tmp_path / "empty"))
    at = AppTest.from_file(APP, default_timeout=300)
    at.query_params["tok"] = "gemma4,codepoints"
    at.run()
    assert not at.exception and not at.error
    assert "Google · Gemma 4" in at.multiselect(key="home_tok").options
    assert any("python -m core zoo install gemma4" in i.value for i in at.info)
