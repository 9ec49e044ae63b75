"""Columns and records agree: TokenTable figures and chips equal those built from Token records."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.models.baselines import ByteTokenizer, CodePointTokenizer, WordTokenizer
from core.models.bpe import train_bpe
from core.pretrained import zoo
from core.render import render_encoding, render_table
from core.tokens import stats, table_of, table_stats, token_table
from tests.helpers import examples

MIXED = st.text(
    alphabet=st.sampled_from(list("কষ্ক্ষাি\u09cd\u200c\u200dরাজশাহী নমস্তে سلام\u200cها oʻzbek 👨\u200d👩🏽🇧🇩 \n\t é\u0301각")),
    max_size=60,
)


@pytest.fixture(scope="module")
def tokenizers():
    trace = train_bpe(corpus="রাজশাহী বাজার বাজারঘর ঘরের hello hell shop shops", merges=30, unit="byte")
    return [CodePointTokenizer(), ByteTokenizer(), WordTokenizer(), trace.tokenizer(30), zoo.load("o200k_base"),
            zoo.load("mistral-spm-v1")]


@settings(max_examples=examples(1.5))
@given(text=MIXED)
def test_table_stats_equal_record_stats(tokenizers, text):
    for tok in tokenizers:
        enc = tok.encode(text)
        assert table_stats(text, token_table(tok, text)) == stats(enc), tok.name
        assert table_stats(text, table_of(enc)) == stats(enc), tok.name


@given(text=MIXED, limit=st.sampled_from([None, 1, 5, 40]))
def test_table_chips_equal_record_chips(tokenizers, text, limit):
    for tok in tokenizers:
        enc = tok.encode(text)
        table = token_table(tok, text)
        assert table.tokens() == enc.tokens, tok.name
        assert render_table(text, table, max_tokens=limit) == render_encoding(enc, max_tokens=limit), tok.name
