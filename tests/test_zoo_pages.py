"""The compare, replay and multilingual-tax pages through Streamlit's AppTest."""
from __future__ import annotations

from tests.helpers import open_page, shown


def test_compare_defaults_six_tokenizers_with_table():
    at = open_page("compare")
    chosen = at.multiselect(key="cmp_tok").value
    assert len(chosen) == 6
    stats = [m.value for m in at.markdown if "tokens/word" in m.value]
    assert len(stats) == 6 and all("round trip" in s for s in stats)
    df = at.dataframe[0].value
    assert list(df["tokenizer"]) == chosen
    assert {"tokens", "tokens/word", "chars/token", "bytes/token", "cut%", "bad%", "unknown", "round-trip ok"} <= set(df.columns)
    # cl100k cuts Bangla code points, o200k does not
    row = df.set_index("tokenizer")
    assert row.loc["cl100k_base", "bad%"] > 0 and row.loc["o200k_base", "tokens"] < row.loc["cl100k_base", "tokens"]


def test_compare_url_keeps_selection_and_flags_special_text():
    at = open_page("compare", {"tok": "o200k_base,tekken,nonsense", "text": "hi <|endoftext|> [INST]"})
    assert at.multiselect(key="cmp_tok").value == ["o200k_base", "tekken"]
    warnings = [shown(w.value) for w in at.warning]
    assert any("<|endoftext|>" in w for w in warnings) and any("[INST]" in w for w in warnings)
    at.toggle(key="cmp_unsafe").set_value(True).run()
    assert any("prompt-injection" in e.value for e in at.error)


def test_compare_empty_selection_and_text():
    at = open_page("compare")
    at.multiselect(key="cmp_tok").set_value([]).run()
    assert not at.exception and any("Choose at least one" in i.value for i in at.info)
    at.text_area(key="cmp_text").input("").run()
    assert not at.exception


def test_replay_rajshahi_steps_and_matches_library():
    at = open_page("replay", {"tok": "o200k_base", "text": "রাজশাহী"})
    final = next(m.value for m in at.markdown if m.value.startswith("**Final:**"))
    assert "3 tokens" in final and "identical" in final
    n = at.slider[0].max
    assert n > 3
    at.button[0].click().run()  # Start
    assert any("Step 0 of" in m.value for m in at.markdown)
    at.button[2].click().run()  # Next
    step1 = next(m.value for m in at.markdown if m.value.startswith("**Step 1 of"))
    assert "merge rank" in step1 and "E0" in step1
    at.selectbox(key="rp_tok").set_value("cl100k_base").run()
    final = next(m.value for m in at.markdown if m.value.startswith("**Final:**"))
    assert "9 tokens" in final and "identical" in final


def test_tax_page_bundled_cldr_and_bad_upload():
    at = open_page("tax")
    df = at.dataframe[0].value
    cl = df[(df["tokenizer"] == "cl100k_base")].set_index("language")
    assert cl.loc["en", "premium vs en"] == 1.0 and cl.loc["bn", "premium vs en"] > 3
    from tests.test_pages_train import chart_svg

    body = next(h.proto.body for h in at.get("html") if 'data-testid="tl-chart"' in h.proto.body)
    assert "cl100k_base" in body  # the legend
    assert "<rect" in chart_svg(body) and "English = 1" in chart_svg(body)
    at.radio(key="tax_data").set_value("countries").run()
    assert not at.exception and any("not sentences" in w.value for w in at.warning)
    at.number_input(key="tax_dmodel").set_value(4096).run()
    at.number_input(key="tax_vocab").set_value(32000).run()
    assert any("131,072,000 parameters" in m.value for m in at.markdown)


def test_replay_bpe_trained_in_the_app():
    at = open_page("replay", {"tok": "bpe-sample-byte", "text": "বাজারঘর"})
    final = next(m.value for m in at.markdown if m.value.startswith("**Final:**"))
    assert "identical" in final
    assert at.slider[0].max > 3


def test_pretrained_tokenizers_join_the_shared_selector():
    at = open_page("home", {"tok": "o200k_base,bytes"}, check=False)
    assert not at.exception
    assert at.multiselect(key="home_tok").value == ["o200k_base", "bytes"]
    assert sum("tokens/word" in m.value for m in at.markdown) == 2
