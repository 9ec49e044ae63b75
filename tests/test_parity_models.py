"""Our algorithms against Hugging Face ``tokenizers`` on generated input (fixed hypothesis seeds).

- The traced BPE trainer (``tie_break="hf"``, with ``min_frequency``)
  against ``BpeTrainer``: the same merge list, code points and bytes.
- Our BPE encoder (the trace's merges applied in learned order) against a
  ``tokenizers`` BPE model holding the same merges: pieces, ids, offsets.
- Our WordPiece encoder against ``tokenizers``' WordPiece: pieces, ids, offsets.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import given, seed, settings
from hypothesis import strategies as st
from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers

from core.assets import sample_lines
from core.models import wordpiece as wp
from core.models.bpe import train_bpe, word_counts
from core.text.units import bytelevel_bytes
from tests.helpers import examples

from .parity_text import FRAGMENTS, texts

_B2U = {b: u for u, b in bytelevel_bytes().items()}  # byte -> GPT-2's printable character


def _as_bytelevel(piece: bytes) -> str:
    return "".join(_B2U[b] for b in piece)


def _hf_merges(words: dict[str, int], merges: int, *, byte: bool, min_frequency: int) -> list[tuple[str, str]]:
    tok = Tokenizer(models.BPE())
    if byte:
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
        alphabet, base = pre_tokenizers.ByteLevel.alphabet(), 256
    else:
        tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
        alphabet, base = [], len({ch for w in words for ch in w})
    trainer = trainers.BpeTrainer(vocab_size=base + merges, show_progress=False, special_tokens=[],
                                  initial_alphabet=alphabet, min_frequency=min_frequency)
    tok.train_from_iterator((w for w, f in words.items() for _ in range(f)), trainer=trainer)
    return [tuple(m) if isinstance(m, list) else tuple(m.split(" ")) for m in json.loads(tok.to_str())["model"]["merges"]]


def _ours_as_hf(trace, byte: bool) -> list[tuple[str, str]]:
    if byte:
        return [(_as_bytelevel(s.left), _as_bytelevel(s.right)) for s in trace.steps]
    return [(s.left.decode(), s.right.decode()) for s in trace.steps]


_WORD_PIECES = sorted({w for k in ("bangla", "hindi", "persian", "uzbek", "arabic", "cjk", "ascii")
                       for w in FRAGMENTS[k] if w.strip() == w and w})
_word = st.one_of(st.sampled_from(_WORD_PIECES), st.text(alphabet="abcকারজ", min_size=1, max_size=6),
                  st.text(st.characters(codec="utf-8", exclude_categories=("Zs", "Zl", "Zp", "Cc")),
                          min_size=1, max_size=3))
_tables = st.dictionaries(_word.filter(lambda w: not any(c.isspace() for c in w)), st.integers(1, 5),
                          min_size=1, max_size=10)


def test_min_frequency_stops_where_bpetrainer_stops():
    words = {"কার": 4, "জার": 2, "বাকি": 3, "বাজার": 5, "বাজারে": 2, "বাজারের": 3, "ঘর": 4, "ঘরের": 3}
    for mf in (0, 1, 5, 12, 13, 16, 17):
        ours = train_bpe(words, merges=20, tie_break="hf", min_frequency=mf)
        assert _ours_as_hf(ours, False) == _hf_merges(words, 20, byte=False, min_frequency=mf), mf
        assert all(s.count >= mf for s in ours.steps) and ours.min_frequency == mf
    assert len(train_bpe(words, merges=20, tie_break="hf", min_frequency=17).steps) == 0  # best pair: 16
    assert len(train_bpe(words, merges=20, tie_break="hf", min_frequency=16).steps) == 1


@seed(1204)
@settings(max_examples=examples(20), database=None)
@given(words=_tables, merges=st.integers(0, 25), byte=st.booleans(), min_frequency=st.integers(0, 8))
def test_differential_bpe_trainer_merges(words, merges, byte, min_frequency):
    ours = train_bpe(words, merges=merges, unit="byte" if byte else "codepoint", tie_break="hf",
                     min_frequency=min_frequency)
    theirs = _hf_merges(words, merges, byte=byte, min_frequency=min_frequency)
    assert _ours_as_hf(ours, byte) == theirs[: len(ours.steps)]
    if len(ours.steps) < merges:  # we stopped: the library has nothing more either
        assert len(theirs) == len(ours.steps)


# ---------------------------------------------------------------- BPE encoding


@pytest.fixture(scope="module")
def byte_bpe():
    """Our byte-level BPE trained on the sample corpus, and the same merges as a ``tokenizers`` BPE."""
    text = "\n".join(sample_lines()) + " Hello world, don't 1234 東京 نمی‌خواهم Oʻzbekiston"
    trace = train_bpe(word_counts(text, "ws-attached"), merges=400, unit="byte", tie_break="hf",
                      pattern="ws-attached")
    vocab = {_as_bytelevel(p): i for p, i in trace.vocab.items()}
    merges = [(_as_bytelevel(s.left), _as_bytelevel(s.right)) for s in trace.steps]
    lib = Tokenizer(models.BPE(vocab, merges))
    lib.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(r"\s*\S+|\s+"), behavior="isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])
    lib.decoder = decoders.ByteLevel()
    return trace, trace.tokenizer(), lib


@seed(1205)
@settings(max_examples=examples(20), database=None)
@given(text=texts())
def test_differential_bpe_encoder(byte_bpe, text):
    _, ours, lib = byte_bpe
    enc = ours.encode(text)
    theirs = lib.encode(text)
    assert [_as_bytelevel(t.data) for t in enc.tokens] == theirs.tokens
    assert enc.ids == theirs.ids
    # offsets: tokenizers gives code point offsets of the characters each byte-level token touches
    assert [(t.start, t.end) for t in enc.tokens] == [tuple(o) for o in theirs.offsets]


# ---------------------------------------------------------------- WordPiece


@pytest.fixture(scope="module")
def wordpiece_pair():
    vocab = wp.train_wordpiece(sample_lines() + ["Hello world don't 1234 東京 کتاب‌خانه Oʻzbekiston"], vocab_size=500)
    return vocab, wp.library_tokenizer(vocab)


@seed(1206)
@settings(max_examples=examples(20), database=None)
@given(text=texts())
def test_differential_wordpiece_encoder(wordpiece_pair, text):
    vocab, lib = wordpiece_pair
    ours = wp.encode(text, vocab, trace=False)
    theirs = lib.encode(text)
    assert ours.pieces == theirs.tokens and ours.ids == theirs.ids
    # every piece's offsets: a word's pieces split its span; [UNK] covers the whole word
    offsets = []
    for w in ours.words:
        if w.unk:
            offsets.append((w.start, w.end))
            continue
        pos = w.start
        for p in w.pieces:
            n = len(p) - (len(vocab.prefix) if p.startswith(vocab.prefix) and pos > w.start else 0)
            offsets.append((pos, pos + n))
            pos += n
    assert offsets == [tuple(o) for o in theirs.offsets]


# ---------------------------------------------------------------- trainers whose result is deterministic


def test_wordpiece_and_unigram_trainers_give_the_librarys_vocabulary():
    """Our train_wordpiece / train_unigram run the library's trainers: the vocabularies are the library's own
    where the library is deterministic (Unigram: the pieces, scores up to float noise; WordPiece: size and alphabet)."""
    from core.models import unigram as ug

    lines = sample_lines()
    ours = wp.train_wordpiece(lines, vocab_size=300)
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.train_from_iterator(lines, trainer=trainers.WordPieceTrainer(vocab_size=300, special_tokens=["[UNK]"],
                                                                     show_progress=False))
    theirs = tok.get_vocab()
    # WordPieceTrainer breaks count ties in hash order, so two library runs differ too: its vocabulary is not
    # deterministic beyond the size and the alphabet (every single character, with and without ##)
    assert len(ours.vocab) == len(theirs)
    alphabet = {p for p in theirs if len(p.removeprefix("##")) == 1}
    assert {p for p in ours.vocab if len(p.removeprefix("##")) == 1} == alphabet
    uni = ug.train_unigram(lines, vocab_size=300)
    tok = Tokenizer(models.Unigram())
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    tok.train_from_iterator(lines, trainer=trainers.UnigramTrainer(vocab_size=300, special_tokens=["<unk>"],
                                                                   unk_token="<unk>", show_progress=False))
    lib = dict(json.loads(tok.to_str())["model"]["vocab"])
    # UnigramTrainer sums in parallel threads: two library runs agree on the pieces, scores within 1e-3 (as two library runs do)
    ours_scores = dict(uni.pieces)
    assert set(ours_scores) == set(lib)
    assert [ours_scores[p] for p in sorted(lib)] == pytest.approx([lib[p] for p in sorted(lib)], abs=1e-3)
