"""BPE training and encoding: worked examples, Hugging Face parity, round trips."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer, models, pre_tokenizers, trainers

from core.models.bpe import (
    BpeInputError,
    StreamDecoder,
    decode,
    encode_trace,
    parse_word_table,
    tiktoken_rank_of,
    train_bpe,
    word_counts,
)
from tests.helpers import examples

BANGLA_TABLE = "কার:4,জার:2,বাকি:3,বাজার:5,বাজারে:2,বাজারের:3,ঘর:4,ঘরের:3"
ENGLISH = {"low": 5, "lower": 2, "newest": 6, "widest": 3}


def _pairs(trace) -> list[tuple[str, str]]:
    return [(s.left.decode(), s.right.decode()) for s in trace.steps]


# --- worked examples from PRODUCT.md ------------------------------------------


def test_eight_bangla_words() -> None:
    t = train_bpe(parse_word_table(BANGLA_TABLE), merges=4)
    assert (t.initial_total_tokens, t.initial_vocab_size) == (108, 8)
    assert _pairs(t) == [("া", "র"), ("ব", "া"), ("জ", "ার"), ("বা", "জার")]
    assert [s.count for s in t.steps[:3]] == [16, 13, 12]
    assert [s.total_tokens for s in t.steps[:3]] == [92, 79, 67]
    assert [s.vocab_size for s in t.steps] == [9, 10, 11, 12]
    # the pair counts table: the merged pair is the best candidate, listed first
    assert (t.steps[0].top_pairs[0].count, t.steps[0].top_pairs[1].count) == (16, 13)
    assert [p.decode() for p in t.segment("বাজারঘর", 3)] == ["বা", "জার", "ঘ", "র"]


def test_english_low_lower_newest_widest() -> None:
    t = train_bpe(ENGLISH, merges=5)
    assert _pairs(t) == [("e", "s"), ("es", "t"), ("l", "o"), ("lo", "w"), ("n", "e")]
    assert [[p.decode() for p in t.segment(w)] for w in ENGLISH] == [
        ["low"],
        ["low", "e", "r"],
        ["ne", "w", "est"],
        ["w", "i", "d", "est"],
    ]


def test_byte_unit_rebuilds_bangla_letters_first() -> None:
    t = train_bpe(corpus="বাজারঘরের অর্ডার আগামীকাল বিকেলে রাজশাহী পৌঁছাবে।", merges=1, unit="byte")
    assert (t.steps[0].left, t.steps[0].right) == (b"\xe0", b"\xa6")
    assert t.initial_vocab_size == 256
    trace = encode_trace("রাজ", t)
    assert trace.initial[:3] == (b"\xe0", b"\xa6", b"\xb0")
    assert trace.steps[0].pieces_after[:2] == (b"\xe0\xa6", b"\xb0")


def test_encode_trace_steps_in_learned_order() -> None:
    t = train_bpe(parse_word_table(BANGLA_TABLE), merges=3)
    steps = encode_trace("বাজারঘর", t).steps
    assert [s.rank for s in steps] == [0, 1, 2]
    assert [[p.decode() for p in s.pieces_after] for s in steps][-1] == ["বা", "জার", "ঘ", "র"]


def test_tokenizer_ids_and_unknown_pieces() -> None:
    t = train_bpe(parse_word_table(BANGLA_TABLE), merges=3)
    enc = t.tokenizer().encode("বাজারঘর")
    assert [tok.text for tok in enc.tokens] == ["বা", "জার", "ঘ", "র"]
    assert all(i is not None for i in enc.ids)
    enc = t.tokenizer().encode("ক x")
    assert enc.ids[1:] == [None, None]  # ' ' and 'x' were never seen
    assert t.tokenizer().decode(enc.tokens) == "ক x"


def test_lowest_rank_mode_matches_tiktoken_loop() -> None:
    ranks = {b"ab": 0, b"bc": 1, b"abc": 2}
    steps = encode_trace("abcbc", tiktoken_rank_of(ranks)).steps
    assert [s.rank for s in steps] == [0, 1, 2]
    assert steps[-1].pieces_after == (b"abc", b"bc")


def test_stream_decoder_buffers_partial_utf8() -> None:
    d = StreamDecoder()
    out = [d.feed(p) for p in (b"\xe0", b"\xa6\xb0\xe0\xa6", b"\xbe")]
    assert out == ["", "র", "া"]
    assert decode([b"\xe0\xa6"]) == "\ufffd"


def test_first_seen_breaks_ties_by_corpus_order() -> None:
    # every pair occurs once: corpus order decides
    assert _pairs(train_bpe({"xy": 1, "ab": 1}, merges=2)) == [("x", "y"), ("a", "b")]
    assert _pairs(train_bpe({"xy": 1, "ab": 1}, merges=2, tie_break="hf")) == [("a", "b"), ("x", "y")]


def test_stops_when_nothing_left_to_merge() -> None:
    t = train_bpe({"ab": 2}, merges=10)
    assert len(t.steps) == 1 and t.steps[0].total_tokens == 2


@pytest.mark.parametrize(
    "kwargs",
    [
        {"words": {}, "merges": 1},
        {"words": {"a": 1}, "merges": -1},
        {"words": {"a": 1}, "merges": 1, "unit": "word"},
        {"words": {"a": 1}, "merges": 1, "tie_break": "random"},
        {"corpus": "   ", "merges": 1, "pattern": "whitespace"},
    ],
)
def test_bad_training_input(kwargs) -> None:
    words = kwargs.pop("words", None)
    with pytest.raises(BpeInputError):
        train_bpe(words, **kwargs)


@pytest.mark.parametrize("spec", ["", "a", "a:0", "a:x", ":3", "a:-2"])
def test_bad_word_tables(spec: str) -> None:
    with pytest.raises(BpeInputError):
        parse_word_table(spec)


@pytest.mark.parametrize("spec", ["x:99999999999999999999999", "x:1000000000001", "x:600000000000,x:600000000000"])
def test_a_word_count_beyond_a_trillion_is_refused_with_the_limit(spec: str) -> None:
    with pytest.raises(BpeInputError, match="at most 1,000,000,000,000"):
        parse_word_table(spec)
    assert parse_word_table("x:1000000000000") == {"x": 10**12}


# --- parity with Hugging Face BpeTrainer --------------------------------------


def _bytelevel_char() -> dict[int, str]:
    """GPT-2's byte -> printable character table (stated independently of core)."""
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAC + 1)) + list(range(0xAE, 0xFF + 1))
    table = {b: chr(b) for b in keep}
    n = 0
    for b in range(256):
        if b not in table:
            table[b] = chr(256 + n)
            n += 1
    return table


def _hf_merges(words: dict[str, int], merges: int, *, byte: bool = False) -> list[tuple[str, str]]:
    tok = Tokenizer(models.BPE())
    if byte:
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
        alphabet = pre_tokenizers.ByteLevel.alphabet()
        base = 256
    else:
        tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
        alphabet = []
        base = len({ch for w in words for ch in w})
    trainer = trainers.BpeTrainer(
        vocab_size=base + merges, show_progress=False, special_tokens=[], initial_alphabet=alphabet, min_frequency=0
    )
    tok.train_from_iterator((w for w, f in words.items() for _ in range(f)), trainer=trainer)
    got = json.loads(tok.to_str())["model"]["merges"]
    return [tuple(m) if isinstance(m, list) else tuple(m.split(" ")) for m in got]


def _ours_as_hf(trace, byte: bool) -> list[tuple[str, str]]:
    if not byte:
        return _pairs(trace)
    table = _bytelevel_char()
    return [("".join(table[b] for b in s.left), "".join(table[b] for b in s.right)) for s in trace.steps]


def _random_table(rng: random.Random, letters: str) -> dict[str, int]:
    words = {}
    for _ in range(rng.randint(1, 12)):
        w = "".join(rng.choice(letters) for _ in range(rng.randint(1, 7)))
        words[w] = rng.randint(1, 4)
    return words


@pytest.mark.parametrize("byte", [False, True], ids=["codepoint", "byte"])
def test_hf_tie_break_equals_bpetrainer_on_random_tied_corpora(byte: bool) -> None:
    rng = random.Random(1234)
    for _ in range(150):
        words = _random_table(rng, rng.choice(["abc", "abcd", "কারজবািে", "aকb"]))
        k = rng.randint(1, 15)
        ours = train_bpe(words, merges=k, unit="byte" if byte else "codepoint", tie_break="hf")
        theirs = _hf_merges(words, k, byte=byte)
        assert _ours_as_hf(ours, byte) == theirs[: len(ours.steps)], words


@pytest.mark.parametrize("byte", [False, True], ids=["codepoint", "byte"])
def test_hf_tie_break_equals_bpetrainer_on_real_text(byte: bool) -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "assets" / "corpus" / "bazarghar.txt").read_text("utf-8")
    text += " Your order from Bazarghar will reach Rajshahi tomorrow afternoon. The lower the newest widest."
    words = word_counts(text, "whitespace")
    ours = train_bpe(words, merges=300, unit="byte" if byte else "codepoint", tie_break="hf")
    assert len(ours.steps) == 300
    assert _ours_as_hf(ours, byte) == _hf_merges(words, 300, byte=byte)[:300]


# --- properties ----------------------------------------------------------------

TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)


@settings(max_examples=examples(0.6))
@given(corpus=TEXT, text=TEXT, unit=st.sampled_from(["codepoint", "byte"]), k=st.integers(0, 30))
def test_round_trip(corpus: str, text: str, unit: str, k: int) -> None:
    if not corpus.strip():
        corpus = "a"
    t = train_bpe(corpus=corpus, merges=k, unit=unit)
    tok = t.tokenizer()
    enc = tok.encode(text)
    assert tok.decode(enc.tokens) == text
    assert b"".join(x.data for x in enc.tokens) == text.encode()
    # training counts stay consistent with the segmentation it produced
    last = t.steps[-1].total_tokens if t.steps else t.initial_total_tokens
    assert last == sum(len(t.segment(w)) * f for w, f in t.words)


@settings(max_examples=examples(0.4))
@given(corpus=TEXT, unit=st.sampled_from(["codepoint", "byte"]), rule=st.sampled_from(["first-seen", "hf"]))
def test_incremental_counts_equal_a_full_recount(corpus: str, unit: str, rule: str) -> None:
    corpus = corpus or "ab"
    t = train_bpe(corpus=corpus, merges=12, unit=unit, tie_break=rule)
    for s in t.steps:
        counts: dict[tuple[bytes, bytes], int] = {}
        for w, f in t.words:
            pieces = t.segment(w, s.step - 1)
            for p in zip(pieces, pieces[1:]):
                counts[p] = counts.get(p, 0) + f
        assert s.count == max(counts.values())
        assert counts[(s.left, s.right)] == s.count
        assert all(counts[(p.left, p.right)] == p.count for p in s.top_pairs)
