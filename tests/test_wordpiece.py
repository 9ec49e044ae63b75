"""WordPiece: PRODUCT.md examples, equality with tokenizers' WordPiece, bad vocabularies, textbook scores."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.assets import sample_lines
from core.models import wordpiece as wp
from tests.helpers import REPO, examples

PRODUCT_VOCAB = ["ঘর", "দাম", "##ের", "##ে", "##র", "##ি"]


@pytest.fixture(scope="module")
def trained() -> wp.WordPieceVocab:
    return wp.train_wordpiece(sample_lines(), vocab_size=300)


@pytest.mark.parametrize(
    "word, pieces",
    [("ঘরের", ("ঘর", "##ের")), ("দামি", ("দাম", "##ি")), ("ঘরেই", ("[UNK]",)), ("ঘর", ("ঘর",)), ("ঘরে", ("ঘর", "##ে"))],
)
def test_product_examples(word, pieces):
    v = wp.vocab_from_tokens(PRODUCT_VOCAB)
    assert wp.encode_word(word, v).pieces == pieces


def test_unk_trace_shows_every_candidate_and_the_failing_remainder():
    v = wp.vocab_from_tokens(PRODUCT_VOCAB)
    t = wp.encode_word("ঘরেই", v)
    assert t.unk and not t.too_long
    first, second, last = t.steps
    # step 1: longest first, no ## at the word start
    assert [c.piece for c in first.candidates] == ["ঘরেই", "ঘরে", "ঘর"]
    assert first.match == "ঘর"
    assert [c.piece for c in second.candidates] == ["##েই", "##ে"]
    assert last.remaining == "ই" and last.match is None
    assert [c.piece for c in last.candidates] == ["##ই"]
    assert "WHOLE word" in t.reason


def test_encode_text_uses_bert_pre_tokenizer_offsets():
    v = wp.vocab_from_tokens(PRODUCT_VOCAB)
    tr = wp.encode("ঘরের, দামি ঘরেই", v)
    assert [(w.word, w.start, w.end) for w in tr.words] == [("ঘরের", 0, 4), (",", 4, 5), ("দামি", 6, 10), ("ঘরেই", 11, 15)]
    assert tr.pieces == ["ঘর", "##ের", "[UNK]", "দাম", "##ি", "[UNK]"]


def _held_out_words(lines: list[str], n: int, seed: int = 5) -> list[str]:
    """Words the trainer never saw: random strings over the corpus alphabet plus some Latin letters."""
    rng = random.Random(seed)
    seen = {w for ln in lines for w, _, _ in wp.split_words(ln)}
    alphabet = sorted({c for ln in lines for c in ln if c.isalpha() or not c.isspace()} | set("abcdeklmnoprstuw"))
    out: list[str] = []
    while len(out) < n:
        w = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 14)))
        if w not in seen and " " not in w:
            out.append(w)
    return out


def test_matches_tokenizers_wordpiece_on_1000_held_out_words(trained):
    lib = wp.library_tokenizer(trained)
    words = _held_out_words(sample_lines(), 1000)
    mismatches = []
    unk = 0
    for w in words:
        ours = wp.encode(w, trained)
        theirs = lib.encode(w)
        unk += "[UNK]" in ours.pieces
        if ours.pieces != theirs.tokens or ours.ids != theirs.ids:
            mismatches.append((w, ours.pieces, theirs.tokens))
    assert not mismatches, mismatches[:5]
    # the sample must exercise both outcomes, or the comparison proves little
    assert 50 < unk < 950


def test_matches_library_on_real_sentences_and_too_long_words(trained):
    lib = wp.library_tokenizer(trained)
    texts = [(REPO / "assets/algos/english.txt").read_text(encoding="utf-8"), "ক" * 150 + " ঘর"]
    for text in texts:
        assert wp.encode(text, trained).pieces == lib.encode(text).tokens
    tr = wp.encode("ক" * 150, trained)
    assert tr.words[0].too_long and tr.pieces == ["[UNK]"] and "limit" in tr.words[0].reason


@settings(max_examples=examples(1.5))
@given(
    vocab=st.lists(st.text(alphabet="abcdé", min_size=1, max_size=4), min_size=1, max_size=25),
    cont=st.lists(st.text(alphabet="abcdé", min_size=1, max_size=3), max_size=15),
    word=st.text(alphabet="abcdé", min_size=1, max_size=12),
)
def test_property_same_as_library_for_any_vocab(vocab, cont, word):
    v = wp.vocab_from_tokens(vocab + ["##" + c for c in cont])
    assert wp.encode(word, v).pieces == wp.library_tokenizer(v).encode(word).tokens


@given(word=st.text(alphabet="ঘরদামেিই", min_size=1, max_size=10))
def test_property_pieces_rebuild_the_word(word):
    v = wp.vocab_from_tokens(PRODUCT_VOCAB)
    t = wp.encode_word(word, v)
    if not t.unk:
        assert "".join(p.removeprefix("##") for p in t.pieces) == word
        assert all(p.startswith("##") == (i > 0) for i, p in enumerate(t.pieces))


# ---------------------------------------------------------------- loading and bad input


def test_load_tokenizer_json_and_vocab_txt_round_trip(trained):
    again = wp.load_vocab_bytes(trained.tokenizer_json.encode(), "tokenizer.json")
    assert dict(again.vocab) == dict(trained.vocab)
    txt = "\n".join(sorted(trained.vocab, key=trained.vocab.get)).encode()
    from_txt = wp.load_vocab_bytes(txt, "vocab.txt")
    assert dict(from_txt.vocab) == dict(trained.vocab)


def _bpe_json() -> str:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(["low lower newest widest"], trainers.BpeTrainer(vocab_size=30, show_progress=False))
    return tok.to_str()


@pytest.mark.parametrize(
    "data, name, expected",
    [
        (None, "tokenizer.json", "holds a BPE model, not WordPiece"),
        (json.dumps({"model": {"type": "Unigram", "vocab": [["a", -1.0]], "unk_id": 0}}), "t.json", "holds a Unigram model, not WordPiece"),
        ("", "vocab.txt", "is empty"),
        ("\n\n  \n", "vocab.txt", "is empty"),
        ("#version: 0.2\nl o\nlo w\ne s\n", "merges.txt", "BPE merges file"),
        ("▁a\t-1.5\n▁b\t-2.25\nc\t-3.0\n", "sp.vocab", "SentencePiece .vocab"),
        ("IQ== 0\nIg== 1\nIw== 2\n", "cl100k.tiktoken", "tiktoken ranks file"),
        ("{not json", "tokenizer.json", "not valid JSON"),
        (json.dumps([1, 2]), "x.json", "not a tokenizer.json"),
        (json.dumps({"model": {"type": "WordPiece", "vocab": {}, "unk_token": "[UNK]"}}), "t.json", "is empty"),
        (json.dumps({"model": {"type": "WordPiece", "vocab": {"a": 0}, "unk_token": "[UNK]"}}), "t.json", "not in the vocabulary"),
    ],
)
def test_bad_vocabularies_are_named(data, name, expected):
    raw = (_bpe_json() if data is None else data).encode()
    with pytest.raises(wp.VocabError, match=expected.replace(".", r"\.")):
        wp.load_vocab_bytes(raw, name)


def test_binary_and_empty_typed_input():
    with pytest.raises(wp.VocabError, match="binary"):
        wp.load_vocab_bytes(b"\x0a\x05\x00\x01\x02", "tokenizer.model")
    with pytest.raises(wp.VocabError, match="empty"):
        wp.parse_typed_vocab(" , \n ")
    with pytest.raises(wp.VocabError, match="only the unknown token"):
        wp.parse_typed_vocab("[UNK]")


def test_typed_vocab_adds_unk_and_notes():
    v = wp.parse_typed_vocab("ঘর, দাম ##ের\n##ে ঘর")
    assert v.vocab["[UNK]"] == 0 and len(v) == 5
    assert any("added" in n for n in v.notes) and any("duplicate" in n for n in v.notes)
    v2 = wp.parse_typed_vocab("ঘর দাম")
    assert any("##" in n for n in v2.notes)


# ---------------------------------------------------------------- textbook score vs BPE counts

ENGLISH = {"low": 5, "lower": 2, "newest": 6, "widest": 3}


def test_bpe_counts_give_the_textbook_english_merges():
    steps = wp.score_merges(ENGLISH, 5, criterion="bpe")
    assert [s.chosen.merged for s in steps] == ["##es", "##est", "lo", "low", "ne"]
    assert steps[0].chosen.pair_count == 9


def test_wordpiece_score_formula_and_difference():
    steps = wp.score_merges(ENGLISH, 3, criterion="wordpiece")
    first = steps[0]
    c = first.chosen
    assert c.score == pytest.approx(c.pair_count / (c.left_count * c.right_count))
    # every pair's score is at most the chosen one
    assert first.by_score == c and first.by_count.merged == "##es"
    # the score prefers a rare-but-always-together pair over the most frequent one
    assert first.differ and c.merged != "##es"
    assert c.pair_count < first.by_count.pair_count


def test_bad_criterion():
    with pytest.raises(ValueError, match="criterion"):
        wp.score_merges(ENGLISH, 1, criterion="count")
