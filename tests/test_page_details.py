"""What pages say must be true: marks, colours, counts and messages a reader takes at their word."""
from __future__ import annotations

import re

from tests.helpers import displayed, open_page, shown


def html_bodies(at) -> list[str]:
    return [h.proto.body for h in at.get("html")]


def chip_classes(fragment: str) -> list[str]:
    """The palette class of each token chip in an HTML fragment, in order."""
    return re.findall(r'class="tl-tok (tl-c\d+)', fragment)


def test_stepper_start_marks_the_pair_merged_next_not_merged():
    at = open_page("stepper", {"step": "0"})
    pairs = next(b for b in html_bodies(at) if 'data-testid="tl-pairs"' in b)
    assert "✓ merged" not in pairs
    assert "merged next" in pairs
    at = open_page("stepper", {"step": "1"})
    pairs = next(b for b in html_bodies(at) if 'data-testid="tl-pairs"' in b)
    assert "✓ merged" in pairs


def test_stepper_encode_keeps_the_colour_by_token_promise():
    # বাজারঘর before any merge: ব া জ া র ঘ র, the two া and the two র are the same tokens
    at = open_page("stepper", {"step": "0"})
    start = next(b for b in html_bodies(at) if "tl-enc-steps" in b)
    classes = chip_classes(start)
    assert len(classes) == 7, classes
    assert classes[1] == classes[3] and classes[4] == classes[6], classes


def test_report_input_line_names_the_uploaded_file_and_the_cut():
    text = "বাজার ঘর " * 13_000  # 117,000 characters: more than the pages analyse
    at = open_page("compare", {"tok": "codepoints"}, {"cmp_text_upload_kept": ("corpus.txt", text)})
    at.button(key="cmp_report_go").click().run()
    assert not at.exception
    markdown = shown(at.session_state["cmp_report"][2])
    head = next(line for line in markdown.splitlines() if "input:" in line)
    assert "corpus.txt" in head
    assert "117,000 characters, first 100,000 analysed" in head


def test_pretokenizers_count_the_zwnj_cut_they_draw():
    at = open_page("pretokenizers", {"text": "می\u200cخواهم", "patterns": "gpt2,whitespace"})
    table = next(b for b in html_bodies(at) if 'data-testid="pt-summary"' in b)
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table)
    gpt2 = next(r for r in rows if "<b>gpt2</b>" in r)
    assert re.findall(r"<td[^>]*>(.*?)</td>", gpt2)[2].endswith(">1</span>"), gpt2
    assert any("ZWNJ" in w.value for w in at.warning)


def test_a_utf16_upload_is_named_utf16_not_binary():
    from pages._text_input import decode_upload

    for raw in ("বাজার ঘর".encode("utf-16"), "hello world".encode("utf-16-le")):
        text, err = decode_upload(raw, "notes.txt")
        assert text is None and "UTF-16" in err and "binary" not in err, err


def test_the_tokenizer_uploader_advertises_the_limit_the_loader_applies():
    from core.text.limits import MAX_TOKENIZER_FILE_BYTES

    at = open_page("compare", {"tok": "codepoints"})
    sizes = {u.proto.max_upload_size_mb for u in at.get("file_uploader")}
    assert MAX_TOKENIZER_FILE_BYTES // 2**20 in sizes and 200 not in sizes, sizes


def test_a_text_too_long_for_the_link_says_so():
    text = "বাজারঘর " * 50  # 400 characters: the address keeps at most 300
    at = open_page("home", {"text": text})
    assert not any(k == "text" for k in at.query_params)
    assert any("link does not carry it" in c.value for c in at.caption)
    at = open_page("home", {"text": "বাজারঘর"})
    assert not any("link does not carry it" in c.value for c in at.caption)


HINDI = "मैं कल बाज़ार जाऊँगा और किताबें ख़रीदूँगा।"


def test_pretokenizers_with_your_own_text_stop_speaking_of_bangla():
    at = open_page("pretokenizers", {"text": HINDI})
    assert at.selectbox(key="pt_example").value == "own"
    # the \p{L} box speaks of marks in any script (Bangla is one example of three), not of "Bangla vowel signs"
    assert not any("Bangla vowel signs" in i.value for i in at.info)
    assert any("Hindi" in shown(i.value) for i in at.info)
    assert at.text_area(key="pt_text").value == HINDI
    # the examples themselves still load
    at.selectbox(key="pt_example").set_value("fa").run()
    assert at.text_area(key="pt_text").value.startswith(open_example("persian.txt")[:10])


def open_example(name: str) -> str:
    from tests.helpers import REPO

    return (REPO / "assets" / "algos" / name).read_text(encoding="utf-8")


def test_normalization_with_your_own_text_drops_the_bangla_example_label():
    at = open_page("normalization", {"text": "Oʻzbekiston maʼno"})
    assert at.selectbox(key="norm_example").value == "own"
    at = open_page("normalization")
    assert at.selectbox(key="norm_example").value == "trap"


def test_training_on_hindi_does_not_speak_of_bangla_words():
    at = open_page("train", {"corpus": "hi", "recipes": "byte-gpt2", "sizes": "2000"}, timeout=240)
    said = [w.value for w in at.warning] + [i.value for i in at.info] + [str(v) for v in
                                                                          at.dataframe[0].value.get("Why obtained ≠ asked", [])]
    assert any("\\p{L} effect" in s for s in said), said
    assert not any("Bangla" in s for s in said), said


def test_persian_stepper_points_its_arrows_and_columns_the_right_way():
    at = open_page("stepper", {"lang": "fa", "step": "1"})
    watch = next(b for b in html_bodies(at) if "tl-watch" in b)
    assert "←" in watch and "→" not in watch  # read right to left, the merge points at its result
    pairs = next(b for b in html_bodies(at) if 'data-testid="tl-pairs"' in b)
    assert 'dir="ltr"' in pairs  # a Bangla pair keeps its left piece on the left


def test_persian_file_extensions_are_isolated_left_to_right():
    from babel.messages.pofile import read_po

    from tests.helpers import REPO

    with open(REPO / "assets/locale/fa/LC_MESSAGES/tokenizer_lab.po", "rb") as f:
        catalog = read_po(f)
    bare = re.compile(r"(?<![\w/\u2066])\.(txt|tiktoken|model|json|md|tsv)\b")
    found = []
    for m in catalog:
        for s in (m.string if isinstance(m.string, (list, tuple)) else [m.string]):
            if s and bare.search(s):
                found.append(s)
    assert not found, found[:5]
    assert any("\u2066.txt\u2069" in (m.string or "") for m in catalog if m.id == "Upload a .txt")


def test_wordpiece_token_line_keeps_a_vowel_sign_off_the_hash():
    at = open_page("wordpiece", {"vocab": "typed", "text": "ঘরের"})
    line = next(m.value for m in at.markdown if "tokens:**" in m.value or "token:**" in m.value)
    assert "##◌ের" in line and "`##ের`" not in line, line


def _replay_lines(text: str) -> list[str]:
    """Every step line of the merge replay of ``text`` with cl100k_base, from the end back to step 1."""
    at = open_page("replay", {"tok": "cl100k_base", "text": text})
    lines = []
    for _k in range(40):
        line = next((m.value for m in at.markdown if "**:" in m.value and "→" in m.value), None)
        if line is None:
            break
        lines.append(line)
        at.button[1].click().run()  # ◀ Back
    return lines


def test_replay_shows_ascii_merges_as_text_and_a_zwnj_by_name():
    lines = _replay_lines("zbek")
    assert lines and not any("7A" in line for line in lines), lines
    lines = _replay_lines("می\u200cخواهم")
    zwnj = [line for line in lines if "E2 80 8C" in line or "‹ZWNJ›" in line]
    assert any("‹ZWNJ›" in line for line in zwnj), zwnj
    assert not any("→ “”" in line for line in lines), lines


def test_uzbek_rule_changes_name_both_code_points():
    at = open_page("normalization", {"example": "uzbek"})
    line = next(shown(c.value) for c in at.caption if "U+02BB" in shown(c.value) or "U+02BC" in shown(c.value))
    assert "U+02BB" in line and ("U+2018" in line or "U+0027" in line or "U+2019" in line or "U+0060" in line), line


def test_recipe_names_and_placeholders_are_translated():
    at = open_page("train", {"lang": "hi", "recipes": "bpe", "sizes": "300"}, timeout=240)
    box = at.multiselect(key="tr_recipes")
    assert "BPE (code points)" not in box.options and len(box.options) == 5, box.options
    assert box.proto.placeholder and box.proto.placeholder != "Choose an option"
    at = open_page("special_tokens", {"lang": "bn"})
    labels = at.multiselect(key="sp_tok").options
    assert not any("Byte-level BPE, GPT-2 regex" in o for o in labels), labels


def test_rule_builder_padding_and_shelf_names_are_translated():
    from core.i18n import translator

    for lang in ("bn", "hi", "fa", "uz"):
        t = translator(lang).gettext
        assert t("attention mask") != "attention mask", lang
        assert t("XLM-R vocabulary (nomic-embed-text-v2-moe)") != "XLM-R vocabulary (nomic-embed-text-v2-moe)", lang
        assert t("pattern") != "pattern" and t("Choose…") != "Choose…", lang


def test_home_sums_up_many_tokenizers_in_one_sortable_table_with_a_legend():
    at = open_page("home", {"tok": "codepoints,bytes,words"})
    table = at.dataframe[0].value
    assert len(table) == 3 and {"tokens", "cut%", "bad%"} <= set(table.columns)
    assert any("cut%" in c.value and "bad%" in c.value for c in at.caption)


def test_compare_table_shows_names_and_explains_its_columns():
    at = open_page("compare", {"tok": "cl100k_base,codepoints"})
    table = at.dataframe[0].value
    assert "cl100k_base" not in list(table["name"]) and len(table["name"]) == 2
    assert list(table["tokenizer"]) == ["cl100k_base", "codepoints"]  # kept, hidden, for links and scripts
    assert any("cut%" in c.value and "bad%" in c.value for c in at.caption)


def test_no_raw_none_in_the_special_tokens_table():
    at = open_page("special_tokens", {"tok": "cl100k_base"})
    for df in at.dataframe:
        cells = displayed(df)
        assert not cells.isna().any().any() and not cells.isin(["None", "nan", "<NA>"]).any().any(), cells


def _uz_number(value, decimals=None) -> str:
    from core.i18n import translator

    return translator("uz").format_number(value, decimals=decimals)


def test_compare_table_writes_numbers_for_the_reader_and_sorts_them_as_numbers():
    import pandas as pd

    text = "বাজার ঘর " * 250  # 2,250 characters: token counts in the thousands
    at = open_page("compare", {"tok": "cl100k_base,codepoints", "lang": "uz"},
                   {"cmp_text_upload_kept": ("corpus.txt", text)})
    table = at.dataframe[0]
    data, cells = table.value, displayed(table)
    # the data stays numeric (a click on a header sorts by value) ...
    assert pd.api.types.is_integer_dtype(data["tokens"]) and pd.api.types.is_float_dtype(data["bytes/token"])
    # ... and the cells read as Uzbek writes numbers: a space between thousands, a decimal comma
    assert list(cells["tokens"]) == [_uz_number(v) for v in data["tokens"]]
    assert cells["tokens"].iloc[1] == _uz_number(2250) and cells["tokens"].iloc[1] != "2250"
    assert all("," in c and "." not in c for c in cells["bytes/token"]), list(cells["bytes/token"])


def test_train_table_writes_numbers_for_the_reader():
    at = open_page("train", {"lang": "uz", "recipes": "bpe", "sizes": "1000"}, timeout=240)
    table = at.dataframe[0]
    data, cells = table.value, displayed(table)
    trained = data.index[data["Vocab asked"].notna()][0]
    assert cells.loc[trained, "Vocab asked"] == _uz_number(1000)
    per_sentence = cells.loc[trained, "Tokens / sentence"]  # a decimal comma in Uzbek
    assert "." not in per_sentence and float(per_sentence.replace(",", ".")) == data.loc[trained, "Tokens / sentence"]
    assert "–" in set(cells["Train s"]) | set(cells["Vocab asked"])  # baselines: no size asked, shown as a dash


def test_the_text_uploader_says_how_much_of_a_file_is_analysed():
    at = open_page("compare", {"tok": "codepoints"})
    helps = [u.proto.help for u in at.get("file_uploader")]
    assert any("100,000 characters are analysed" in shown(h) for h in helps), helps


def test_replay_counts_one_piece_in_the_singular():
    at = open_page("replay", {"tok": "cl100k_base", "text": "hello"})
    said = [m.value for m in at.markdown]
    assert any("· 1 piece" in m for m in said), said
    assert not any("1 pieces" in m for m in said), said


def test_the_uzbek_rule_notes_are_shown_in_the_reader_language():
    from core.i18n import LANGS, translator
    from core.pipeline.normalize import UZBEK_RULES

    for lang in LANGS:
        if lang != "en":
            assert all(translator(lang).gettext(r.note) != r.note for r in UZBEK_RULES), lang
    at = open_page("normalization", {"lang": "fa"})
    notes = list(at.data_editor[0].value["note"])
    assert notes == [translator("fa").gettext(r.note) for r in UZBEK_RULES], notes
