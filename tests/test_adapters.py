"""The adapter: exact bytes, spans right on multi-byte text, special text never a control id."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.pretrained import zoo
from core.pretrained.adapter import TextError, align_byte_spans
from core.pretrained.zoo import ENTRIES

from .zoo_textgen import generate

ALL_IDS = [i for i, e in ENTRIES.items() if e.shelf is None]  # shelf entries: tests/test_shelf.py
SPECIAL_TEXT = "a <|endoftext|> b [SEP] c [INST] d <s> e <|begin_of_text|> f [CLS]"


def test_half_letter_token_maps_to_that_letter():
    tok = zoo.load("cl100k_base")
    text = "রাজশাহী"
    enc = tok.encode(text)
    assert len(enc.tokens) == 9  # o200k_base's published count for this text
    raw = text.encode("utf-8")
    pos = 0
    for t in enc.tokens:
        assert (t.byte_start, t.byte_end) == (pos, pos + len(t.data))
        assert raw[t.byte_start : t.byte_end] == t.data
        # the code point span covers every character the bytes touch
        assert t.start < t.end and text[t.start : t.end].encode("utf-8").find(t.data) >= 0
        pos = t.byte_end
    # "া" + the first two bytes of "জ", then the last byte of "জ" alone: both map to জ's span
    assert [(t.data, t.start, t.end) for t in enc.tokens[1:3]] == [("া".encode() + b"\xe0\xa6", 1, 3), (b"\x9c", 2, 3)]
    assert tok.token_text(enc.tokens[2].id) == "\ufffd"
    assert tok.decode(enc.tokens) == text
    assert enc.report.inside_codepoint > 0 and enc.report.bad_pct > 0


def test_o200k_keeps_rajshahi_in_three_tokens():
    enc = zoo.load("o200k_base").encode("রাজশাহী")
    assert [t.text for t in enc.tokens] == ["রাজ", "শ", "াহী"]
    assert [(t.start, t.end) for t in enc.tokens] == [(0, 3), (3, 4), (4, 7)]


@pytest.mark.parametrize("tokenizer_id", ALL_IDS)
def test_special_text_is_plain_text_by_default(tokenizer_id):
    tok = zoo.load(tokenizer_id)
    enc = tok.encode(SPECIAL_TEXT)
    assert not any(t.special for t in enc.tokens)
    assert not set(enc.ids) & tok.special_ids
    assert tok.decode(enc.tokens).strip() == SPECIAL_TEXT.strip()


@pytest.mark.parametrize("tokenizer_id,spelled", [
    ("cl100k_base", "<|endoftext|>"), ("o200k_base", "<|endoftext|>"), ("llama3", "<|begin_of_text|>"),
    ("llama4", "<|begin_of_text|>"), ("tekken", "[INST]"), ("tekken", "<s>"), ("mistral-spm-v3", "[INST]"),
])  # fmt: skip
def test_special_text_is_flagged(tokenizer_id, spelled):
    tok = zoo.load(tokenizer_id)
    hits = tok.special_hits(SPECIAL_TEXT)
    hit = next(h for h in hits if h.text == spelled)
    assert SPECIAL_TEXT[hit.start : hit.end] == spelled and hit.id in tok.special_ids


@pytest.mark.parametrize("tokenizer_id,spelled", [("cl100k_base", "<|endoftext|>"), ("llama3", "<|begin_of_text|>"), ("tekken", "[INST]")])
def test_allow_special_makes_the_control_token_and_marks_it(tokenizer_id, spelled):
    tok = zoo.load(tokenizer_id)
    enc = tok.encode(SPECIAL_TEXT, allow_special=True)
    specials = [t for t in enc.tokens if t.special]
    hit = next(t for t in specials if t.data == spelled.encode())
    assert SPECIAL_TEXT[hit.start : hit.end] == spelled and hit.id == tok.specials[spelled]


@pytest.mark.parametrize("tokenizer_id", ALL_IDS)
def test_table_matches_encoding_and_report(tokenizer_id):
    tok = zoo.load(tokenizer_id)
    for text in generate(120, seed=7):
        enc = tok.encode(text)
        tab = tok.table(text)
        assert len(tab) == len(enc.tokens)
        assert tab.data == [t.data for t in enc.tokens]
        assert tab.start.tolist() == [t.start for t in enc.tokens]
        assert tab.end.tolist() == [t.end for t in enc.tokens]
        assert tab.byte_start.tolist() == [t.byte_start for t in enc.tokens]
        assert tab.valid_utf8.tolist() == list(enc.report.valid_utf8) or tokenizer_id.startswith("mistral-spm")
        assert tab.inside_grapheme == enc.report.inside_grapheme, text
        assert tab.inside_codepoint == enc.report.inside_codepoint, text


@pytest.mark.parametrize("tokenizer_id", ALL_IDS)
def test_round_trip_and_spans_on_varied_text(tokenizer_id):
    tok = zoo.load(tokenizer_id)
    for text in generate(150, seed=11):
        enc = tok.encode(text)
        spans = [(t.byte_start, t.byte_end) for t in enc.tokens]
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), text  # in order, no overlap
        assert all(0 <= t.start <= t.end <= len(text) for t in enc.tokens)
        if not tokenizer_id.startswith("mistral-spm"):
            assert b"".join(t.data for t in enc.tokens) == text.encode("utf-8")
        assert tok.round_trip_ok(text, enc) or tokenizer_id.startswith("mistral-spm"), text


def test_sentencepiece_spaces_map_back_to_input():
    tok = zoo.load("mistral-spm-v1")
    text = "Hi there  🫠"
    enc = tok.encode(text)
    first = enc.tokens[0]
    assert first.data == b" Hi" and text[first.start : first.end] == "Hi"  # dummy-prefix ▁ maps to nothing
    there = next(t for t in enc.tokens if t.data == b" there")
    assert text[there.start : there.end] == " there"
    # 🫠 has no piece: four byte-fallback tokens, each one byte of the emoji
    emoji = [t for t in enc.tokens if len(t.data) == 1 and t.data[0] >= 0x80]
    assert b"".join(t.data for t in emoji) == "🫠".encode() and len(emoji) == 4
    assert [(t.byte_end - t.byte_start) for t in emoji] == [1, 1, 1, 1]
    assert all(text[t.start : t.end] == "🫠" for t in emoji)
    assert tok.decode(enc.tokens) == text


def test_align_byte_spans_splits_shared_spans():
    raw = "a😀".encode()
    data = [b"a", b"\xf0", b"\x9f", b"\x98", b"\x80"]
    spans = [(0, 1), (1, 1), (1, 1), (1, 1), (1, 5)]
    assert align_byte_spans(raw, spans, data) == [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)]
    same = [(0, 1), (1, 5), (1, 5), (1, 5), (1, 5)]
    assert align_byte_spans(raw, same, data) == [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)]
    # when the bytes do not add up, the library's spans are kept
    assert align_byte_spans(raw, same, [b"a", b"x", b"y", b"z", b"w"]) == same


def test_lone_surrogate_is_a_clear_error():
    with pytest.raises(TextError, match="lone surrogate U\\+DCFF"):
        zoo.load("cl100k_base").encode("ab\udcff")


def test_unknown_token_count_and_decode_per_token():
    tok = zoo.load("llama3")
    enc = tok.encode("কি")
    assert tok.unknown_count(enc) == 0
    assert "".join(tok.token_text(t.id) for t in enc.tokens) != "কি"  # halves decode to U+FFFD alone
    assert tok.decode_ids(enc.ids) == "কি"


# -- Hugging Face tokenizer.json -------------------------------------------------


def _bytelevel_bpe_json() -> str:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    t = Tokenizer(models.BPE())
    t.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    t.decoder = decoders.ByteLevel()
    corpus = ["বাজারঘরের অর্ডার আগামীকাল বিকেলে রাজশাহী পৌঁছাবে।", "Your order will reach Rajshahi tomorrow."] * 20
    t.train_from_iterator(corpus, trainers.BpeTrainer(
        vocab_size=320, special_tokens=["<|endoftext|>"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False
    ))
    return t.to_str()


def _bert_like_json() -> str:
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers

    vocab = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "ঘর": 4, "দাম": 5, "##ের": 6, "##ি": 7, "a": 8, "[": 9, "]": 10, "SE": 11, "##P": 12}
    t = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]"))
    t.normalizer = normalizers.NFC()
    t.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    t.decoder = decoders.WordPiece()
    t.add_special_tokens(["[CLS]", "[SEP]", "[PAD]", "[UNK]"])
    return t.to_str()


def test_hf_bytelevel_bpe_exact_bytes_and_spans():
    js = _bytelevel_bpe_json()
    tok = zoo.load_user_bytes("tokenizer.json", js.encode())
    import tokenizers

    ref = tokenizers.Tokenizer.from_str(js)
    for text in ["রাজশাহী পৌঁছাবে", "Your order 😀 কি", "<|endoftext|> x"]:
        enc = tok.encode(text)
        assert enc.ids == ref.encode(text, add_special_tokens=False).ids or "<|endoftext|>" in text
        assert b"".join(t.data for t in enc.tokens) == text.encode("utf-8")
        assert [t.byte_end - t.byte_start for t in enc.tokens] == [len(t.data) for t in enc.tokens]
        assert tok.decode(enc.tokens) == text
    eot = tok.specials["<|endoftext|>"]
    assert eot not in tok.encode_ids("<|endoftext|> x")
    assert tok.special_hits("<|endoftext|> x")[0].id == eot
    assert tok.encode_ids("<|endoftext|> x", allow_special=True)[0] == eot


def test_hf_wordpiece_sep_in_text_and_unknowns():
    tok = zoo.load_user_bytes("bert.json", _bert_like_json().encode())
    enc = tok.encode("ঘরের [SEP] দামি ঘরেই")
    assert 3 not in enc.ids and not any(t.special for t in enc.tokens)
    assert [h.text for h in tok.special_hits("x [SEP]")] == ["[SEP]"]
    assert tok.unknown_count(enc) == 1  # ঘরেই -> [UNK], the whole word
    first = enc.tokens[:2]
    assert [t.data for t in first] == ["ঘর".encode(), "ের".encode()]  # "##" is not part of the text
    assert [(t.start, t.end) for t in first] == [(0, 2), (2, 4)]
    unsafe = tok.encode("ঘরের [SEP]", allow_special=True)
    assert unsafe.tokens[-1].special and unsafe.tokens[-1].id == 3
    assert not tok.round_trip_ok("ঘরেই")  # [UNK] loses the word, and we say so


def test_table_columns_are_numpy():
    tab = zoo.load("o200k_base").table("রাজশাহী x")
    assert isinstance(tab.ids, np.ndarray) and tab.ids.tolist() == zoo.load("o200k_base").encode_ids("রাজশাহী x")


def test_fast_cluster_check_passes_the_unicode_break_test():
    """The vectorised cut check agrees with every line of GraphemeBreakTest-17.0.0."""
    from core.text.units import inside_cluster
    from tests.helpers import grapheme_break_cases

    cases = grapheme_break_cases()
    for raw, text, breaks in cases:
        got = inside_cluster(text, np.arange(1, len(text)))
        assert got.tolist() == [not b for b in breaks[1:-1]], raw
    assert len(cases) > 700


def test_fast_cluster_check_matches_regex_on_random_text():
    import random

    import regex

    from core.text.units import inside_cluster

    rng = random.Random(5)
    alphabet = "কষ্ক্ষা\u09cd\u200d\u200c👨👩🏽\ufe0f🇧🇩\r\na \u0301각ᄀ\u1161\u11a8\u0e33\u0600xি"
    for _ in range(500):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(2, 30)))
        starts = {m.start() for m in regex.finditer(r"\X", text)}
        got = inside_cluster(text, np.arange(1, len(text)))
        assert got.tolist() == [p not in starts for p in range(1, len(text))], text


NAMES = ["<|a|>", "<|ab|>", "<|a", "a", "ab", "abc", "[INST]", "[/INST]", "<s>", "</s>", "<bos>", "<｜end▁of▁sentence｜>",
         *(f"<|reserved_{n}|>" for n in range(0, 1200, 7))]


@given(st.lists(st.one_of(st.sampled_from(NAMES), st.text(alphabet="<|>[]/abcINSTs_reved0127｜▁ ", max_size=8)),
                max_size=12))
def test_the_special_pattern_finds_what_a_longest_first_alternation_finds(parts):
    # the prefix tree must cut exactly where the flat alternation (names sorted longest first) cuts
    import re

    from core.pretrained.adapter import special_pattern

    text = "".join(parts)
    flat = re.compile("|".join(map(re.escape, sorted(NAMES, key=len, reverse=True))))
    want = [(m.start(), m.group()) for m in flat.finditer(text)]
    assert [(m.start(), m.group()) for m in special_pattern(NAMES).finditer(text)] == want


@pytest.mark.parametrize("bad", [-1, -100256, 10**12])
def test_tiktoken_lenient_decode_drops_an_id_outside_the_table(bad):
    """A negative id must not count from the end of the table (that would be another token's bytes)."""
    tok = zoo.load("cl100k_base")
    assert tok.decode_ids([bad, 5, bad]) == tok.decode_ids([5])
