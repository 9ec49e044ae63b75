"""Unigram: our Viterbi == tokenizers' Unigram and SentencePiece; top-k exact; bad input; length limit."""
from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.assets import sample_lines
from core.models import unigram as ug
from tests.helpers import examples


@pytest.fixture(scope="module")
def trained() -> ug.UnigramModel:
    return ug.train_unigram(sample_lines(), vocab_size=400)


def _words(n: int, seed: int = 11) -> list[str]:
    lines = sample_lines()
    rng = random.Random(seed)
    alphabet = sorted({c for ln in lines for c in ln if not c.isspace()} | set("xyzqé"))
    corpus_words = sorted({w for ln in lines for w in ln.split()})
    out = []
    while len(out) < n:
        if rng.random() < 0.3:  # a corpus word with a random change
            w = list(rng.choice(corpus_words))
            w.insert(rng.randrange(len(w) + 1), rng.choice(alphabet))
            out.append("".join(w))
        else:
            out.append("".join(rng.choice(alphabet) for _ in range(rng.randint(1, 15))))
    return out


def test_viterbi_equals_tokenizers_unigram_on_1000_words(trained):
    lib = ug.library_tokenizer(trained)
    mismatches, with_unk, multi = [], 0, 0
    for w in _words(1000):
        lat = ug.lattice(w, trained)
        enc = lib.encode(w)
        ours = [t for t, _ in lat.tokens], [i for _, i in lat.tokens]
        if ours != (enc.tokens, enc.ids):
            mismatches.append((w, ours[0], enc.tokens))
        with_unk += any(e.unk for e in lat.best.edges)
        multi += len(lat.tokens) > 2
    assert not mismatches, mismatches[:5]
    assert 20 < with_unk < 980 and multi > 300  # both paths of the code are exercised


def test_library_tokenizer_json_round_trip(trained):
    from tokenizers import Tokenizer

    tok = ug.library_tokenizer(trained)
    again = ug.load_bytes(tok.to_str().encode(), "tokenizer.json")
    assert again.pieces == trained.pieces and again.unk_id == trained.unk_id
    assert isinstance(Tokenizer.from_str(tok.to_str()), Tokenizer)


@settings(max_examples=examples(1.5))
@given(
    pieces=st.dictionaries(st.text(alphabet="abc▁", min_size=1, max_size=4),
                           st.floats(min_value=-20, max_value=-0.01, allow_nan=False), min_size=1, max_size=25),
    word=st.text(alphabet="abcd", min_size=1, max_size=12),
)
def test_property_same_as_library_for_any_pieces(pieces, word):
    model = ug.UnigramModel((("<unk>", 0.0),) + tuple(pieces.items()), 0)
    lat = ug.lattice(word, model)
    enc = ug.library_tokenizer(model).encode(word)
    assert [t for t, _ in lat.tokens] == enc.tokens
    assert "".join(lat.best.pieces) == lat.word


def _all_paths(word: str, edges: list[ug.Edge]) -> list[float]:
    by_start: dict[int, list[ug.Edge]] = {}
    for e in edges:
        by_start.setdefault(e.start, []).append(e)
    scores: list[float] = []

    def walk(pos: int, acc: float) -> None:
        if pos == len(word):
            scores.append(acc)
            return
        for e in by_start.get(pos, []):
            walk(e.end, acc + e.score)

    walk(0, 0.0)
    return sorted(scores, reverse=True)


@given(
    pieces=st.dictionaries(st.text(alphabet="ab▁", min_size=1, max_size=3),
                           st.floats(min_value=-9, max_value=-0.1, allow_nan=False), min_size=1, max_size=12),
    word=st.text(alphabet="abc", min_size=1, max_size=7),
    k=st.integers(min_value=1, max_value=6),
)
def test_property_top_k_is_the_k_best_of_all_paths(pieces, word, k):
    model = ug.UnigramModel((("<unk>", 0.0),) + tuple(pieces.items()), 0)
    lat = ug.lattice(word, model, k=k)
    brute = _all_paths(lat.word, list(lat.edges))
    assert [s.score for s in lat.top] == pytest.approx(brute[:k])
    assert len({s.edges for s in lat.top}) == len(lat.top)


def test_tokenizer_json_notes_other_stages():
    text = json.dumps({"normalizer": {"type": "Precompiled"}, "pre_tokenizer": {"type": "Metaspace"},
                       "model": {"type": "Unigram", "vocab": [["<unk>", 0.0], ["a", -1.0]], "unk_id": 0}})
    m = ug.load_tokenizer_json(text)
    assert len(m.notes) == 1 and "normalizer (Precompiled)" in m.notes[0]


@pytest.mark.parametrize("word", ["বাজারঘরের", "ঘরের", "প্যাকেট", "রাজশাহী"])
def test_top_k_equals_brute_force(trained, word):
    lat = ug.lattice(word, trained, k=5)
    brute = _all_paths(lat.word, list(lat.edges))
    assert [s.score for s in lat.top] == pytest.approx(brute[:5])
    assert lat.best.score == pytest.approx(brute[0])
    assert lat.top[0] == lat.best
    for s in lat.top:
        assert s.score == pytest.approx(sum(e.score for e in s.edges))
        assert "".join(s.pieces) == lat.word


def test_lattice_contains_every_matching_piece(trained):
    lat = ug.lattice("বাজার", trained)
    expected = {(i, j) for i in range(len(lat.word)) for j in range(i + 1, len(lat.word) + 1)
                if trained.id_of(lat.word[i:j]) is not None}
    assert {(e.start, e.end) for e in lat.edges if not e.unk} == expected
    assert all(e.score == trained.pieces[e.id][1] for e in lat.edges if not e.unk)


def test_unknown_characters_fuse_and_score(trained):
    lat = ug.lattice("ঘরqqq", trained)
    assert ("qqq", trained.unk_id) in lat.tokens
    unk = [e for e in lat.edges if e.unk]
    assert len(unk) == 3 and all(e.score == trained.min_score - 10 for e in unk)


def test_long_word_is_limited_with_notice(trained):
    lat = ug.lattice("ক" * 500, trained)
    assert lat.truncated and len(lat.word) == ug.MAX_WORD_CHARS and "limited to the first 200" in lat.notice
    short = ug.lattice("ঘর", trained)
    assert not short.truncated and short.notice == ""


# ---------------------------------------------------------------- SentencePiece .model


def _sp_model(model_type: str) -> bytes:
    import sentencepiece as spm

    buf = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=iter(sample_lines()), model_writer=buf, vocab_size=300,
                                   model_type=model_type, normalization_rule_name="identity",
                                   hard_vocab_limit=False, minloglevel=2)
    return buf.getvalue()


def test_sentencepiece_unigram_model_matches_sentencepiece():
    import sentencepiece as spm

    data = _sp_model("unigram")
    model = ug.load_bytes(data, "bn.model")
    assert model.kind == "sentencepiece"
    sp = spm.SentencePieceProcessor(model_proto=data)
    words = sorted({w for ln in sample_lines() for w in ln.split()}) + _words(200, seed=3)
    bad = [w for w in words if [t for t, _ in ug.lattice(w, model).tokens] != sp.encode(w, out_type=str)]
    assert not bad, bad[:5]


def test_sentencepiece_bpe_model_is_refused_by_name():
    with pytest.raises(ug.UnigramError, match="SentencePiece BPE model, not Unigram"):
        ug.load_bytes(_sp_model("bpe"), "bpe.model")


def test_installed_mistral_model_is_bpe_and_named():
    import mistral_common

    path = Path(mistral_common.__file__).parent / "data" / "tokenizer.model.v1"
    with pytest.raises(ug.UnigramError, match="BPE model, not Unigram"):
        ug.load_bytes(path.read_bytes(), path.name)


@pytest.mark.parametrize(
    "data, expected",
    [
        (b"", "is empty"),
        (json.dumps({"model": {"type": "WordPiece", "vocab": {"a": 0}, "unk_token": "[UNK]"}}).encode(), "WordPiece model, not Unigram"),
        (json.dumps({"model": {"type": "BPE", "vocab": {"a": 0}, "merges": []}}).encode(), "BPE model, not Unigram"),
        (json.dumps({"model": {"type": "Unigram", "vocab": [], "unk_id": None}}).encode(), "empty"),
        (json.dumps({"model": {"type": "Unigram", "vocab": [["a", -1.0]], "unk_id": 5}}).encode(), "outside"),
        (b"[UNK]\n##a\n", "not a tokenizer.json"),
        (b"\x08\x01garbage\x00\xff\xff", "not a SentencePiece model"),
    ],
)
def test_bad_unigram_files(data, expected):
    with pytest.raises(ug.UnigramError, match=expected):
        ug.load_bytes(data, "upload.json" if data[:1] in (b"{", b"[") else "upload.model" if b"\x00" in data else "upload.txt")


def test_no_unk_piece_is_a_clear_error():
    model = ug.UnigramModel((("a", -1.0),), None)
    assert ug.lattice("a", model, add_prefix_space=False).tokens == (("a", 0),)
    with pytest.raises(ug.UnigramError, match="no unknown piece"):
        ug.lattice("ab", model, add_prefix_space=False)
