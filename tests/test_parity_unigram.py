"""Our Unigram encoder (core.models.unigram.encode) against the libraries, on real loaded models.

- Hugging Face ``tokenizers``: a Unigram trained with ``UnigramTrainer``,
  run through every Metaspace option (prepend scheme, split), with and
  without byte fallback.
- SentencePiece: ``.model`` files trained here with
  ``SentencePieceTrainer`` (byte fallback, user-defined symbols), and the
  hand-built models (SentencePiece's own unit-test cases are ported in
  ``tests/test_parity_ported.py``).
"""
from __future__ import annotations

import io
import json

import pytest
from hypothesis import given, seed, settings
from hypothesis import strategies as st

from core.assets import sample_lines
from core.models import unigram as ug
from tests.helpers import examples

from .parity_refs import sp_proto
from .parity_text import texts

CORPUS = "assets/train/bn_shop_corpus.txt"


@pytest.fixture(scope="module")
def hf_model() -> ug.UnigramModel:
    return ug.train_unigram(sample_lines() + ["Hello world, 25 apples", "a b c abc ab"], vocab_size=400)


def _with(model: ug.UnigramModel, **options) -> ug.UnigramModel:
    """The same pieces as a tokenizer.json with other Metaspace / byte-fallback options (through the loader)."""
    tok = ug.library_tokenizer(model)
    data = json.loads(tok.to_str())
    data["pre_tokenizer"].update({k: v for k, v in options.items() if k != "byte_fallback"})
    if options.get("byte_fallback"):
        data["model"]["byte_fallback"] = True
        have = {p for p, _ in data["model"]["vocab"]}
        data["model"]["vocab"] += [[f"<0x{b:02X}>", -20.0] for b in range(256) if f"<0x{b:02X}>" not in have]
    return ug.load_tokenizer_json(json.dumps(data))


_LIBRARY: dict[int, object] = {}


def _lib_tokens(model: ug.UnigramModel, text: str) -> tuple[list[str], list[int]]:
    tok = _LIBRARY.get(id(model))
    if tok is None:
        tok = _LIBRARY[id(model)] = (model, ug.library_tokenizer(model))
    enc = tok[1].encode(text)
    return enc.tokens, enc.ids


def _ours(model: ug.UnigramModel, text: str) -> tuple[list[str], list[int | None]]:
    toks = ug.encode(text, model)
    return [p for p, _ in toks], [i for _, i in toks]


# ---------------------------------------------------------------- the known failure examples, tokenizers


def test_metaspace_two_spaces_keep_a_lone_space_piece(hf_model):
    assert _ours(hf_model, "a  b")[0] == _lib_tokens(hf_model, "a  b")[0]
    assert ug.Metaspace().words("a  b") == ["▁a", "▁", "▁b"]


@pytest.mark.parametrize("text", ["  ", "a ", "a  ", " a", "end.  Next", "", " ", "ঘর  ঘর "])
def test_metaspace_whitespace_equals_the_library(hf_model, text):
    assert _ours(hf_model, text) == _lib_tokens(hf_model, text)


def test_trailing_space_is_not_lost(hf_model):
    pieces, _ = _ours(hf_model, "ঘর ")
    assert pieces[-1] == "▁" and "".join(pieces).replace("▁", " ").strip(" ") == "ঘর"


@pytest.mark.parametrize("scheme", ["always", "first", "never"])
@pytest.mark.parametrize("split", [True, False])
def test_metaspace_options_equal_the_library(hf_model, scheme, split):
    model = _with(hf_model, prepend_scheme=scheme, split=split)
    assert model.metaspace == ug.Metaspace(prepend_scheme=scheme, split=split)
    for text in ["a  b", "  ", "ঘর ঘরের  বাজার ", " x", "বাজারঘরের"]:
        assert _ours(model, text) == _lib_tokens(model, text), (scheme, split, text)


def test_byte_fallback_in_a_tokenizers_model(hf_model):
    model = _with(hf_model, byte_fallback=True)
    for text in ["25 東京", "😀", "ঘর q"]:
        assert _ours(model, text) == _lib_tokens(model, text)


@seed(1201)
@settings(max_examples=examples(20), database=None)
@given(text=texts(), scheme=st.sampled_from(["always", "first", "never"]), split=st.booleans(),
       fallback=st.booleans())
def test_differential_tokenizers_unigram(hf_variants, text, scheme, split, fallback):
    model = hf_variants[(scheme, split, fallback)]
    assert _ours(model, text) == _lib_tokens(model, text)


@pytest.fixture(scope="module")
def hf_variants(hf_model):
    return {(sc, sp, fb): _with(hf_model, prepend_scheme=sc, split=sp, byte_fallback=fb)
            for sc in ("always", "first", "never") for sp in (True, False) for fb in (True, False)}


# ---------------------------------------------------------------- SentencePiece


def _train_sp(**options) -> bytes:
    import sentencepiece as spm

    lines = open(CORPUS, encoding="utf-8").read().splitlines()[:1500] + ["Hello world", "abcd ab cd"] * 5
    buf = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=iter(lines), model_writer=buf, model_type="unigram",
                                   vocab_size=800, hard_vocab_limit=False, minloglevel=2, num_threads=1,
                                   character_coverage=0.995, **options)
    return buf.getvalue()


@pytest.fixture(scope="module")
def sp_models() -> dict[str, bytes]:
    return {
        "byte_fallback": _train_sp(byte_fallback=True),
        "plain": _train_sp(),
        "user_defined": _train_sp(user_defined_symbols=["ab", "cd", "abcdabcd", "বাজার", "▁ঘর"]),
        "keep_spaces": _train_sp(remove_extra_whitespaces=False, byte_fallback=True),
    }


_SP: dict[bytes, object] = {}


def _sp(data: bytes):
    import sentencepiece as spm

    if data not in _SP:
        _SP[data] = spm.SentencePieceProcessor(model_proto=data)
    return _SP[data]


def _sp_tokens(data: bytes, text: str) -> tuple[list[str], list[int]]:
    sp = _sp(data)
    return sp.encode(text, out_type=str), sp.encode(text)


def test_sentencepiece_byte_fallback_25(sp_models):
    data = sp_models["byte_fallback"]
    model = ug.load_sentencepiece(data)
    assert _sp_tokens(data, "25")[0] == ["▁", "<0x32>", "<0x35>"]
    assert _ours(model, "25") == _sp_tokens(data, "25")


def test_sentencepiece_byte_fallback_on_800_lines(sp_models):
    from .zoo_textgen import generate

    data = sp_models["byte_fallback"]
    model = ug.load_sentencepiece(data)
    lines = generate(800, seed=1202)
    bad = [s for s in lines if _ours(model, s) != _sp_tokens(data, s)]
    assert not bad, f"{len(bad)} of 800 differ, first {bad[0]!r}"
    assert sum("<0x" in "".join(_sp_tokens(data, s)[0]) for s in lines) > 100  # byte fallback is exercised


def test_sentencepiece_user_defined_symbols_ababcdabcdcd(sp_models):
    data = sp_models["user_defined"]
    model = ug.load_sentencepiece(data)
    assert model.user_defined
    for text in ["ababcdabcdcd", "বাজারঘরের ঘর", "abcd"]:
        assert _ours(model, text) == _sp_tokens(data, text), text


def test_unknown_score_comes_from_the_normal_pieces():
    """A control piece with a very low score must not lower the unknown score (SentencePiece: normal pieces only)."""
    data = sp_proto([("a", -1.0), ("b", -1.5), ("ab", -9.0)], control={"<ctl>": -100.0})
    model = ug.load_sentencepiece(data)
    assert model.unk_score == pytest.approx(-19.0)
    for text in ["axb", "xxab", "ab"]:
        assert _ours(model, text) == _sp_tokens(data, text)


@seed(1203)
@settings(max_examples=examples(20), database=None)
@given(text=texts(), which=st.sampled_from(["byte_fallback", "plain", "user_defined", "keep_spaces"]))
def test_differential_sentencepiece_unigram(sp_loaded, text, which):
    data, model = sp_loaded[which]
    assert _ours(model, text) == _sp_tokens(data, text)


@pytest.fixture(scope="module")
def sp_loaded(sp_models):
    return {k: (v, ug.load_sentencepiece(v)) for k, v in sp_models.items()}
