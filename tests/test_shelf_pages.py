"""The shelf in the pages (AppTest): grouped selector with search, 'not installed' notices, session tokenizers."""
from __future__ import annotations

from streamlit.testing.v1 import AppTest

from core.pretrained import zoo
from tests.helpers import open_page as _open_page
from tests.helpers import shown


def open_page(path: str, query: dict[str, str] | None = None, state: dict | None = None) -> AppTest:
    return _open_page(path, query, state, timeout=300)


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

    # a byte-level ranks table: every single byte (the loader refuses less), then "ab"
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
    at = _open_page("home", {"tok": "gemma4,codepoints"}, timeout=300, check=False)
    assert not at.exception and not at.error
    assert "Google · Gemma 4" in at.multiselect(key="home_tok").options
    assert any("python -m core zoo install gemma4" in i.value for i in at.info)


# ---------------------------------------------------------------------------
# Merge replay over the shelf, and session tokenizers on every pretrained page
# ---------------------------------------------------------------------------

SESSION = "This session (uploaded or trained) · "


def final_line(at: AppTest) -> str:
    return next(shown(m.value) for m in at.markdown if m.value.startswith("**Final:**"))


def test_replay_page_gemma4_on_a_bangla_word():
    at = open_page("replay", {"tok": "gemma4", "text": "বাজারঘরের"})
    assert not at.error
    tok = zoo.load("gemma4")
    ids = tok.encode_ids("বাজারঘরের")
    final = final_line(at)
    assert f"{len(ids)} tokens {ids}" in final and "identical" in final
    n = int(at.slider[0].max)
    assert n >= 3
    at.button[0].click().run()  # Start
    assert any(shown(m.value).startswith(f"**Step 0 of {n}**: 9 starting symbols") for m in at.markdown)
    at.button[2].click().run()  # Next
    step1 = next(shown(m.value) for m in at.markdown if m.value.startswith("**Step 1 of"))
    assert "merge rank" in step1 and "`া` + `র`" in step1  # whole characters are written as text, not hex
    options = list(at.selectbox(key="rp_tok").options)
    for label in ("Google · Gemma 4", "DeepSeek · DeepSeek-V3", "Cohere · Cohere Command-R", "Meta · Llama 2",
                  "OpenAI · CLIP (open_clip, OpenAI ViT)"):
        assert label in options, (label, options)
    assert not any("XLM-R" in o or "BERT" in o or "Jurassic" in o for o in options)
    why = next(shown(c.value) for c in at.caption if c.value.startswith("Not offered here"))
    assert "XLM-R" in why and "WordPiece" in why and "Unigram" in why


def test_replay_page_sentencepiece_shows_scores():
    at = open_page("replay", {"tok": "llama2", "text": "hello"})
    assert "identical" in final_line(at)
    at.button[0].click().run()
    at.button[2].click().run()
    step1 = next(shown(m.value) for m in at.markdown if m.value.startswith("**Step 1 of"))
    assert "score" in step1


def _trained(recipe: str = "byte-plain"):
    """A tokenizer trained as the Train page trains it, joined to the session as the page joins it."""
    from core.analysis.recipes import train
    from tests.test_replay_shelf import BN, EN, FA, HI, UZ

    t = train(recipe, [BN, HI, FA, UZ, EN] * 3, 300)
    return zoo.load_user_bytes(f"{t.id}.tokenizer.json", t.json.encode(), kind="hf-json")


def test_a_trained_tokenizer_works_on_the_tax_page():
    mine = _trained()
    at = open_page("tax", state={"session_tokenizers": {mine.id: mine}, "tax_tok": [mine.id, "gemma4"]})
    assert not at.error
    assert SESSION + mine.name in at.multiselect(key="tax_tok").options
    df = at.dataframe[0].value
    assert list(dict.fromkeys(df["tokenizer"])) == [mine.id, "gemma4"]
    from core.analysis import tax

    bn = df[(df["tokenizer"] == mine.id) & (df["language"] == "bn")]
    assert int(bn["tokens"].iloc[0]) == tax.measure(mine, tax.load_bundled()).languages["bn"].tokens
    emb = next(d.value for d in at.dataframe if "embedding parameters" in d.value.columns)
    assert mine.name in list(emb["tokenizer"])


def test_a_trained_tokenizer_works_in_the_word_inspector():
    mine = _trained()
    at = open_page("inspector", {"word": "রাজশাহী"}, {"session_tokenizers": {mine.id: mine}, "in_tok": [mine.id, "gemma4"]})
    assert not at.error
    assert SESSION + mine.name in at.multiselect(key="in_tok").options
    bodies = [h.proto.body for h in at.get("html")]
    assert any(f'data-tokenizer="{mine.id}"' in b for b in bodies)
    assert any(shown(m.value) == f"#### {mine.name}" for m in at.markdown)


def test_a_trained_bpe_is_replayed_and_a_trained_unigram_is_not_offered():
    mine, uni = _trained("byte-plain"), _trained("unigram")
    at = open_page("replay", {"text": "রাজশাহী"},
                   {"session_tokenizers": {mine.id: mine, uni.id: uni}, "rp_tok": mine.id})
    assert not at.error
    options = list(at.selectbox(key="rp_tok").options)
    assert SESSION + mine.name in options and SESSION + uni.name not in options
    ids = mine.encode_ids("রাজশাহী")
    assert f"{ids}" in final_line(at) and "identical" in final_line(at)


def test_an_uploaded_tokenizer_goes_into_the_checkpoint_report():
    mine = _trained()
    at = open_page("compare", {"text": "রাজশাহী পৌঁছাবে"},
                   {"session_tokenizers": {mine.id: mine}, "cmp_tok": [mine.id, "gemma4"]})
    at.button(key="cmp_report_go").click().run()
    assert not at.exception
    _digest, html_report, md_report, err = at.session_state["cmp_report"]
    assert not err and mine.name in md_report and "Gemma 4" in md_report and mine.name in html_report



def test_compare_and_inspector_show_the_audit_and_where_llama_cpp_cuts_otherwise():
    at = open_page("compare", {"tok": "gpt-neox,o200k_base", "text": "Room 39"})
    warnings = [shown(w.value) for w in at.warning]
    assert any("llama.cpp" in w and "'Room' ' ' '39'" in w for w in warnings), warnings
    # and how that is known: read in llama.cpp's source on a date, confirmed by running a named llama.cpp
    assert any("'Room' ' ' '39'" in w and "How this is known" in w and "src/llama-vocab.cpp" in w
               and "confirmed by running llama-cpp-python" in w for w in warnings), warnings
    captions = [c.value for c in at.caption]
    assert sum("Before the model" in c for c in captions) == 2
    at = open_page("inspector", {"tok": "bert-bge,cl100k_base", "word": "কথা"})
    assert any("llama.cpp" in shown(w.value) and "'ক' 'থ'" in shown(w.value) for w in at.warning)
    assert sum("Before the model" in c.value for c in at.caption) == 2
