"""Multilingual tax: parallel text parsing, premiums, CLDR names, embedding sizes."""
from __future__ import annotations

import unicodedata

import pytest

from core.analysis import tax
from core.pretrained import zoo


def test_bundled_sample_is_a_few_dozen_rows_in_five_languages():
    p = tax.load_bundled()
    assert p.languages == ("en", "bn", "hi", "fa", "uz") and 30 <= len(p.rows) <= 60
    uz = " ".join(p.column("uz"))
    assert "ʻ" in uz and "ʼ" in uz and "'" not in uz and "‘" not in uz  # proper Uzbek letters
    fa = " ".join(p.column("fa"))
    assert "\u200c" in fa and "ي" not in fa and "ك" not in fa  # Persian ye/kaf, half-spaces
    for row in p.rows:
        assert all(cell and unicodedata.is_normalized("NFC", cell) for cell in row)


def test_premium_is_relative_to_english_and_matches_the_literature_ordering():
    res = tax.measure(zoo.load("cl100k_base"), tax.load_bundled())
    assert res.premium["en"] == 1.0
    assert res.languages["bn"].tokens == sum(len(zoo.load("cl100k_base").encode_ids(s)) for s in tax.load_bundled().column("bn"))
    # Petrov et al. order for cl100k_base: bn > hi > fa > uz > en, within 25% of the published figures
    assert res.premium["bn"] > res.premium["hi"] > res.premium["fa"] > res.premium["uz"] > 1
    for lang, ref in tax.PETROV_CL100K.items():
        assert abs(res.premium[lang] - ref) / ref < 0.25, (lang, res.premium[lang])


def test_o200k_lowers_the_bangla_tax():
    p = tax.load_bundled()
    assert tax.measure(zoo.load("o200k_base"), p).premium["bn"] < tax.measure(zoo.load("cl100k_base"), p).premium["bn"] / 2


def test_words_chars_bytes_are_counted():
    p = tax.parse_tsv("en\tbn\nhello world\tহ্যালো দুনিয়া\n")
    c = tax.measure(zoo.load("codepoints"), p).languages
    assert (c["en"].words, c["en"].chars, c["en"].bytes, c["en"].tokens) == (2, 11, 11, 11)
    assert c["bn"].chars == len("হ্যালো দুনিয়া") and c["bn"].bytes == len("হ্যালো দুনিয়া".encode())


@pytest.mark.parametrize(
    "text,match",
    [
        ("", "empty"),
        ("bn\tfa\nক\tب\n", "no 'en' column"),
        ("en\tbn\na\n", "line 2 has 1 cells"),
        ("en\ten\na\tb\n", "repeated"),
        ("en\tbn\n", "no rows"),
    ],
)
def test_bad_tsv_is_a_clear_error(text, match):
    with pytest.raises(tax.ParallelError, match=match):
        tax.parse_tsv(text)


def test_tsv_tolerates_bom_crlf_and_blank_lines():
    p = tax.parse_tsv("\ufeffen\tuz\r\n\r\nbook\tkitob\r\n")
    assert p.rows == (("book", "kitob"),)


def test_cldr_names_are_parallel_names():
    p = tax.cldr_names()
    assert p.kind == "names" and len(p.rows) > 200
    row = dict(zip(p.languages, next(r for r in p.rows if r[0] == "Bangladesh")))
    assert row["bn"] == "বাংলাদেশ" and row["fa"] == "بنگلادش"
    langs = tax.cldr_names(what="languages")
    assert any(r[0] == "Bangla" and r[1] == "বাংলা" for r in langs.rows)


def test_embedding_params():
    assert tax.embedding_params(128_000, 4096) == 524_288_000
    assert tax.embedding_params(32_000, 4096) == 131_072_000
    with pytest.raises(ValueError):
        tax.embedding_params(10, 0)
