"""Every pretrained adapter against its reference library, on generated text (fixed hypothesis seeds).

For each zoo tokenizer: ids equal the library's; each token's bytes equal
the library's bytes for that id; offsets equal the library's (tiktoken's
``decode_with_offsets``, SentencePiece's piece ``begin``/``end``,
``tokenizers``' offsets). The references are the libraries the models ship
with (see ``tests/parity_refs.py``). Each test draws 2,000 texts.
"""
from __future__ import annotations

from functools import lru_cache

import pytest
from hypothesis import given, seed, settings

from core.assets import sample_lines
from core.pretrained import zoo
from tests.helpers import examples

from .parity_refs import encoder, library
from .parity_text import texts

TIKTOKEN_FAMILY = ["cl100k_base", "o200k_base", "llama3", "llama4", "tekken", "tekken_240718"]
SPECIALS_PARSED = {"cl100k_base", "o200k_base", "llama3", "llama4"}  # the libraries that can parse typed specials
SENTENCEPIECE = ["mistral-spm-v1", "mistral-spm-v3"]
#: Examples per differential property, as a multiple of the profile's (2,000 under ci).
N = 20


def _tiktoken_engine(tokenizer_id: str):
    lib = library(tokenizer_id)
    if tokenizer_id.startswith("llama"):
        return lib.model, 0
    if tokenizer_id.startswith("tekken"):
        return lib._model, lib.num_special_tokens
    return lib, 0


@lru_cache(maxsize=None)
def _setup(tokenizer_id: str, allow_special: bool):
    tok = zoo.load(tokenizer_id)
    engine, shift = _tiktoken_engine(tokenizer_id)
    specials = frozenset(v - shift for v in tok.specials.values())
    return tok, encoder(tokenizer_id, allow_special=allow_special), engine, shift, specials


def _check_tiktoken(tokenizer_id: str, text: str, allow_special: bool) -> None:
    tok, ref, engine, shift, specials = _setup(tokenizer_id, allow_special)
    expected = ref(text)
    enc = tok.encode(text, allow_special=allow_special)
    assert enc.ids == expected
    inner = [i - shift for i in expected]
    lib_bytes = [engine.decode_single_token_bytes(i) for i in inner]
    assert [t.data for t in enc.tokens] == lib_bytes
    if not any(i in specials for i in inner):  # tiktoken's offsets count special tokens' text too; skip those
        _, offsets = engine.decode_with_offsets(inner) if b"".join(lib_bytes).decode("utf-8", "ignore") else ("", [])
        if offsets:
            assert [t.start for t in enc.tokens] == offsets
    assert b"".join(t.data for t in enc.tokens) == text.encode("utf-8")


def _tiktoken_test(tokenizer_id: str, seed_value: int):
    @seed(seed_value)
    @settings(max_examples=examples(N), database=None)
    @given(text=texts())
    def check(text):
        _check_tiktoken(tokenizer_id, text, False)
        if tokenizer_id in SPECIALS_PARSED and "<|" in text:
            _check_tiktoken(tokenizer_id, text, True)

    return check


@pytest.mark.parametrize("tokenizer_id", TIKTOKEN_FAMILY)
def test_differential_tiktoken_family(tokenizer_id):
    zoo.load(tokenizer_id)
    _tiktoken_test(tokenizer_id, 1207 + TIKTOKEN_FAMILY.index(tokenizer_id))()


@pytest.mark.parametrize("tokenizer_id", sorted(SPECIALS_PARSED))
def test_typed_special_tokens_with_and_without_permission(tokenizer_id):
    text = "a<|endoftext|>b<|begin_of_text|>c<|image|><|eot|>"
    for allow in (False, True):
        _check_tiktoken(tokenizer_id, text, allow)


# ---------------------------------------------------------------- SentencePiece


def _check_sentencepiece(tokenizer_id: str, text: str) -> None:
    tok = zoo.load(tokenizer_id)
    sp = library(tokenizer_id)
    proto = sp.encode(text, return_type="proto")
    enc = tok.encode(text)
    assert enc.ids == [p.id for p in proto.pieces]
    for t, p in zip(enc.tokens, proto.pieces):
        if sp.is_byte(p.id):
            assert t.data == bytes((int(p.piece[3:5], 16),))
        elif p.id == sp.unk_id():
            assert t.data == p.surface.encode("utf-8")
        else:
            assert t.data == p.piece.replace("\u2581", " ").encode("utf-8")
    # offsets: SentencePiece gives byte pieces of one character an empty span and the last one the whole
    # character; ours split that span byte by byte. Everything else is the library's span.
    group_start: int | None = None
    ours_from = 0
    for k, (t, p) in enumerate(zip(enc.tokens, proto.pieces)):
        if sp.is_byte(p.id):
            if group_start is None:
                group_start, ours_from = p.begin, k
            if p.end > p.begin:  # the last byte of the character
                spans = [(x.byte_start, x.byte_end) for x in enc.tokens[ours_from : k + 1]]
                assert spans[0][0] == group_start and spans[-1][1] == p.end
                assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
                group_start = None
            continue
        group_start = None
        assert (t.byte_start, t.byte_end) == (p.begin, p.end)


@pytest.mark.parametrize("tokenizer_id", SENTENCEPIECE)
def test_differential_sentencepiece_adapter(tokenizer_id):
    zoo.load(tokenizer_id)

    @seed(1220 + SENTENCEPIECE.index(tokenizer_id))
    @settings(max_examples=examples(N), database=None)
    @given(text=texts())
    def check(text):
        _check_sentencepiece(tokenizer_id, text)

    check()


# ---------------------------------------------------------------- tokenizers (tokenizer.json)


def _trained_jsons() -> dict[str, str]:
    """Three tokenizer.json files trained here: byte-level BPE, BERT WordPiece, Metaspace Unigram."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

    lines = sample_lines() + ["Hello world, don't 1234 東京 کتاب‌خانه Oʻzbekiston 😀"]
    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    bpe.train_from_iterator(lines, trainers.BpeTrainer(vocab_size=600, show_progress=False,
                                                       initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    wpt = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    wpt.normalizer = normalizers.BertNormalizer(lowercase=False)
    wpt.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    wpt.decoder = decoders.WordPiece()
    wpt.train_from_iterator(lines, trainers.WordPieceTrainer(vocab_size=500, special_tokens=["[UNK]", "[SEP]"],
                                                             show_progress=False))
    uni = Tokenizer(models.Unigram())
    uni.pre_tokenizer = pre_tokenizers.Metaspace()
    uni.decoder = decoders.Metaspace()
    uni.train_from_iterator(lines, trainers.UnigramTrainer(vocab_size=400, special_tokens=["<unk>"],
                                                           unk_token="<unk>", show_progress=False))
    return {"bpe": bpe.to_str(), "wordpiece": wpt.to_str(), "unigram": uni.to_str()}


@pytest.fixture(scope="module")
def hf_pairs():
    from tokenizers import Tokenizer

    out = {}
    for name, js in _trained_jsons().items():
        ours = zoo.load_user_bytes(f"{name}.json", js.encode("utf-8"))
        lib = Tokenizer.from_str(js)
        lib.encode_special_tokens = True
        out[name] = (ours, lib)
    return out


@pytest.mark.parametrize("kind", ["bpe", "wordpiece", "unigram"])
def test_differential_tokenizers_adapter(hf_pairs, kind):
    ours, lib = hf_pairs[kind]

    @seed(1230 + ["bpe", "wordpiece", "unigram"].index(kind))
    @settings(max_examples=examples(N), database=None)
    @given(text=texts())
    def check(text):
        theirs = lib.encode(text, add_special_tokens=False)
        enc = ours.encode(text)
        assert enc.ids == theirs.ids
        if kind == "bpe":  # byte-level: our exact bytes spell the library's token strings
            from core.text.units import bytelevel_bytes

            b = bytelevel_bytes()
            assert [t.data for t in enc.tokens] == [bytes(b[c] for c in s) for s in theirs.tokens]
            assert [(t.start, t.end) for t in enc.tokens] == [tuple(o) for o in theirs.offsets]
        else:  # normalizers may change the text: the library's offsets are into the original, as ours are
            assert [(t.start, t.end) for t in enc.tokens] == [tuple(o) for o in theirs.offsets]

    check()
