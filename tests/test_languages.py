"""A learning language is one row of ``core/languages.py``: the rows are true to their files, and a new row plus
one sample file is offered on every page (and by the CLI) that offers the others."""
from __future__ import annotations

import json

import pytest
from babel import Locale

from core import languages
from core.analysis import tax
from core.assets import ASSETS, BUNDLED_TSV, chat_samples
from core.cli import main
from core.i18n import LANGS, translator
from core.text.bidi import text_direction
from core.text.scripts import SCRIPTS, text_scripts
from tests.helpers import open_page, shown

ROWS = list(languages.LANGUAGES.values())
ALL_ROWS = [*ROWS, languages.ENGLISH]


# ---------------------------------------------------------------- the rows are true


@pytest.mark.parametrize("row", ALL_ROWS, ids=lambda r: r.code)
def test_row_files_exist_and_have_sentences(row):
    assert row.sample_path.is_file(), row.sample
    if row in ALL_ROWS:  # (a bundled row: the Train page names its file from the repository root)
        assert row.sample_name.startswith("assets/")
    assert row.sample_lines(), f"{row.sample} has no sentence"
    if row.text is not None:
        assert (ASSETS / row.text).is_file(), row.text
    assert row.example_text().strip()


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.code)
def test_example_word_occurs_in_its_sample(row):
    # case-insensitively: Uzbek's word starts its sample's first sentence with a capital
    assert row.word.casefold() in row.sample_path.read_text(encoding="utf-8").casefold()


@pytest.mark.parametrize("row", ALL_ROWS, ids=lambda r: r.code)
def test_script_and_direction_match_the_examples(row):
    assert row.script in SCRIPTS
    assert text_scripts(row.word) == (row.script,)
    assert text_scripts(row.sentence) == (row.script,)
    assert text_scripts(" ".join(row.sample_lines())) == (row.script,)
    assert text_direction(row.sentence) == text_direction(row.word) == row.direction


@pytest.mark.parametrize("row", ALL_ROWS, ids=lambda r: r.code)
def test_code_is_a_cldr_locale_and_the_name_is_translated(row):
    Locale.parse(row.code)  # the tax page's CLDR datasets take one column per code
    for lang in LANGS:
        if lang != "en":
            assert translator(lang).gettext(row.name) != row.name, (lang, row.name)


def test_table_constants_name_rows():
    assert languages.HOME in languages.LANGUAGES
    assert languages.default() == languages.codes()[0]
    assert languages.others() == [c for c in languages.codes() if c != languages.HOME]
    assert all(languages.get(c) for c in languages.MIXED[1])
    assert languages.ENGLISH.code not in languages.LANGUAGES
    assert tax.PETROV_CL100K == languages.references() == {"bn": 5.84, "hi": 4.79, "fa": 3.28, "uz": 2.17}


def test_bundled_data_names_only_table_languages():
    """The parallel sentences and the chat conversations are labelled through the table: every column is a row."""
    known = {languages.ENGLISH.code, *languages.LANGUAGES}
    assert set(tax.load_bundled().languages) <= known
    assert set(chat_samples()) <= known
    assert BUNDLED_TSV.is_file()


# ---------------------------------------------------------------- a new row is offered everywhere

TAMIL_LINES = [
    "சந்தையிலிருந்து உங்கள் ஆர்டர் நாளை மதியம் சென்னைக்கு வந்து சேரும்.",
    "இன்று கடையில் புதிய புத்தகங்களும் வண்ணத் துணிகளும் வந்துள்ளன.",
    "என் அம்மா தினமும் காலையில் சந்தைக்குச் சென்று காய்கறிகள் வாங்குகிறார்.",
    "இந்தப் பையின் விலை கடந்த வாரத்தை விடச் சற்று குறைவு.",
    "குழந்தைகள் பள்ளி முடிந்ததும் தோட்டத்தில் கால்பந்து விளையாடுகிறார்கள்.",
    "மழை பெய்ததால் சந்தையில் இன்று கூட்டம் குறைவாக இருந்தது.",
    "என் தம்பி புதிய மிதிவண்டி ஓட்டக் கற்றுக்கொள்கிறான்.",
    "நாளை காலை பேருந்து நிலையத்தில் உன்னைச் சந்திக்கிறேன்.",
]


@pytest.fixture
def tamil(tmp_path, monkeypatch):
    """A Tamil row added to the table, its sample a file outside the repository: nothing else is touched."""
    sample = tmp_path / "ta.txt"
    sample.write_text("\n".join(TAMIL_LINES) + "\n", encoding="utf-8")
    row = languages.LearningLanguage("ta", "Tamil", "Tamil", "ltr", str(sample), "சந்தையிலிருந்து", TAMIL_LINES[0])
    monkeypatch.setitem(languages.LANGUAGES, "ta", row)
    return row


def test_the_new_row_is_true(tamil):
    test_row_files_exist_and_have_sentences(tamil)
    test_example_word_occurs_in_its_sample(tamil)
    test_script_and_direction_match_the_examples(tamil)


def _options(widget) -> list[str]:
    return [str(o) for o in widget.options]


def test_wordpiece_and_unigram_offer_and_train_on_it(tamil):
    at = open_page("wordpiece")
    assert _options(at.selectbox(key="wp_lang")) == ["Bangla", "Hindi", "Persian", "Uzbek", "Tamil"]
    at.selectbox(key="wp_lang").set_value("ta").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.text_area(key="wp_text_ta").value == TAMIL_LINES[0]  # the text follows the sample
    assert at.query_params.get("sample") in ("ta", ["ta"])

    at = open_page("unigram", {"sample": "ta"})
    assert _options(at.selectbox(key="ug_lang")) == ["Bangla", "Hindi", "Persian", "Uzbek", "Tamil"]
    assert at.selectbox(key="ug_lang").value == "ta"
    assert at.text_input(key="ug_word_ta").value == tamil.word  # the lattice starts from the row's word


def test_stepper_offers_its_sample_and_its_word(tamil):
    at = open_page("stepper")
    labels = _options(at.radio(key="st_corpus"))
    assert labels[3:7] == ["Hindi sample", "Persian sample", "Uzbek sample", "Tamil sample"]
    at.radio(key="st_corpus").set_value("ta").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.text_input(key="st_new_ta").value == tamil.word


def test_train_page_offers_its_sample(tamil):
    at = open_page("train", {"corpus": "ta", "recipes": "bpe", "sizes": "300"}, timeout=240)
    assert "Tamil sample" in _options(at.radio(key="tr_source"))
    assert at.radio(key="tr_source").value == "ta"
    assert any(f"{len(TAMIL_LINES)} Tamil sentences" in shown(c.value) and f"({tamil.sample_name})" in shown(c.value)
               for c in at.caption)


def test_pretokenizers_page_offers_its_sentence(tamil):
    at = open_page("pretokenizers", {"example": "ta"})
    assert _options(at.selectbox(key="pt_example")) == ["Bangla", "Persian", "Tamil", "English",
                                                        "Bangla + Persian + English", "Your own text"]
    assert at.text_area(key="pt_text").value == TAMIL_LINES[0]


def test_tax_page_measures_it_on_the_cldr_names(tamil):
    at = open_page("tax", {"data": "countries", "tok": "bytes"})
    langs = set(at.dataframe[0].value["language"])
    assert {"en", "bn", "hi", "fa", "uz", "ta"} <= langs


def test_cli_sample_accepts_it(tamil, capsys):
    code = main(["wordpiece", "--vocab", "sample", "--sample", "ta", "--text", tamil.word, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    r = json.loads(out)
    assert "".join(t.removeprefix("##") for t in r["tokens"]) == tamil.word and "[UNK]" not in r["tokens"]
    code = main(["unigram", "--tokenizer", "sample", "--sample", "ta", "--text", tamil.word, "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert json.loads(out)["words"][0]["tokens"]


def test_cli_sample_refuses_a_code_without_a_row(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["wordpiece", "--vocab", "sample", "--sample", "ta", "--text", "x"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "unknown sample language 'ta'" in err and err.count("\n") == 1
