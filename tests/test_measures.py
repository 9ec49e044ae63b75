"""The field's measures (core.analysis.measures) against their reference code: tokenization-scorer's Rényi
efficiency, tiktoken's encode_ordinary and split pattern, tokenizers' pre_tokenize_str, SentencePiece's own
pieces, a brute-force search for the optimal count, and the Gini formula on hand-computed vectors."""
from __future__ import annotations

import contextlib
import io
import json
from functools import lru_cache

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from core.analysis import measures, tax
from core.cli import main
from core.pretrained import zoo
from tests.helpers import examples

#: One backend each: tiktoken (cl100k, o200k), tokenizers byte-level BPE with NFKC (claude-legacy),
#: SentencePiece BPE with byte fallback (mistral-spm-v1). Gemma 4 (tokenizers on ▁-spaced text) runs the same
#: code as claude-legacy and costs seconds more to load; the page's browser test draws it.
IDS = ("cl100k_base", "o200k_base", "claude-legacy", "mistral-spm-v1")


@lru_cache(maxsize=None)
def bundled() -> tax.ParallelText:
    return tax.load_bundled()


@lru_cache(maxsize=None)
def measured(tid: str, lang: str) -> measures.LanguageMeasures:
    return measures.measure_lines(zoo.load(tid), bundled().column(lang))


LANGS = ("en", "bn", "hi", "fa", "uz")


@pytest.mark.parametrize("tid", ("cl100k_base", "claude-legacy", "mistral-spm-v1"))
def test_renyi_equals_tokenization_scorer(tid):
    import tokenization_scorer

    tok = zoo.load(tid)
    vocab = measures.vocab_size(tok)
    for lang in ("en", "bn", "fa"):
        lines = [" ".join(map(str, tok.encode_ids(s))) for s in bundled().column(lang)]
        with contextlib.redirect_stderr(io.StringIO()):  # it prints the vocabulary size and a progress bar
            ref = tokenization_scorer.score(lines, metric="renyi", power=2.5, vocab=vocab)
        assert abs(measured(tid, lang).renyi(vocab) - ref) < 1e-9, (tid, lang)


def test_vocab_size_is_largest_id_plus_one():
    assert measures.vocab_size(zoo.load("cl100k_base")) == zoo.load("cl100k_base").engine.n_vocab == 100277
    assert measures.vocab_size(zoo.load("o200k_base")) == zoo.load("o200k_base").engine.n_vocab


@pytest.mark.parametrize("tid", ("cl100k_base", "o200k_base"))
def test_words_and_pieces_equal_tiktoken(tid):
    enc = zoo.load(tid).engine  # the tiktoken.Encoding itself
    pat = regex.compile(enc._pat_str)
    for lang in LANGS:
        col = bundled().column(lang)
        words = [w for s in col for w in s.split()]
        m = measured(tid, lang)
        assert m.single_token_words == sum(len(enc.encode_ordinary(w)) == 1 for w in words)
        assert m.continued_words == sum(len(enc.encode_ordinary(w)) > 1 for w in words)
        assert m.single_token_words_space == sum(len(enc.encode_ordinary(" " + w)) == 1 for w in words)
        assert m.continued_words_space == len(words) - m.single_token_words_space
        assert m.pretokenizer_pieces == sum(len(pat.findall(s)) for s in col)
        assert m.tokens == sum(len(enc.encode_ordinary(s)) for s in col)


@pytest.mark.parametrize("tid", ("claude-legacy",))
def test_pieces_equal_tokenizers_pre_tokenize_str(tid):
    import tokenizers

    ref = tokenizers.Tokenizer.from_str(zoo.load(tid).tokenizer_json)
    for lang in LANGS:
        col = bundled().column(lang)
        n = sum(len(ref.pre_tokenizer.pre_tokenize_str(ref.normalizer.normalize_str(s))) for s in col)
        assert measured(tid, lang).pretokenizer_pieces == n
        assert measured(tid, lang).tokens == sum(len(ref.encode(s, add_special_tokens=False).ids) for s in col)


def test_pieces_equal_sentencepiece_words():
    import sentencepiece as spm

    sp = spm.SentencePieceProcessor(model_proto=zoo.load("mistral-spm-v1").model_proto())
    for lang in LANGS:
        col = bundled().column(lang)
        # SentencePiece's own cut: every piece starting with ▁ opens a new word
        ref = sum(sum(p.startswith("\u2581") or k == 0 for k, p in enumerate(sp.encode(s, out_type=str))) for s in col)
        assert measured("mistral-spm-v1", lang).pretokenizer_pieces == ref


@pytest.mark.parametrize("tid", IDS)
def test_optimal_never_above_tokens_and_never_below_the_floor(tid):
    for lang in LANGS:
        m = measured(tid, lang)
        assert m.optimal_tokens is not None and m.optimal_tokens <= m.tokens
        assert m.pretokenizer_pieces is not None and m.pretokenizer_pieces <= m.optimal_tokens


def brute_force(piece: bytes, vocab: frozenset[bytes]) -> int:
    """Every segmentation of ``piece`` into vocabulary tokens, the shortest (unknown bytes: none here)."""
    @lru_cache(maxsize=None)
    def go(i: int) -> float:
        if i == len(piece):
            return 0
        return min((1 + go(j) for j in range(i + 1, len(piece) + 1) if piece[i:j] in vocab), default=float("inf"))

    return int(go(0))


PIECE = st.text(st.sampled_from("abcthe ইংরেজিবাংলাকার্ডহিন্দीफ़ارسیğʻ"), min_size=1, max_size=6)


@pytest.mark.parametrize("tid", ("cl100k_base", "mistral-spm-v1"))
def test_optimal_equals_brute_force_on_short_pieces(tid):
    tok = zoo.load(tid)
    sp = measures.speller(tok)

    @settings(max_examples=examples(1), deadline=None)
    @given(PIECE)
    def check(s):
        piece = s.encode("utf-8")
        assert measures.optimal_count(piece, sp) == brute_force(piece, sp.tokens)
        if tid == "cl100k_base":  # tiktoken adds nothing to the text, so its tokens are one spelling among all
            assert measures.optimal_count(piece, sp) <= len(tok.encode_ids(s))

    check()


@pytest.mark.parametrize(("values", "expected"), [
    ([5, 5, 5, 5], 0.0),
    ([0, 0, 0, 4], 0.75),  # sum |ci-cj| = 2*3*4 = 24; 2 n^2 mean = 2*16*1 = 32
    ([1, 2, 3, 4], 0.25),  # sum |ci-cj| = 2*(1+2+3+1+2+1) = 20; 2*16*2.5 = 80
    ([3, 1], 0.25),  # 2*2 / (2*4*2)
])
def test_gini_on_known_vectors(values, expected):
    assert measures.gini(values) == pytest.approx(expected, abs=1e-12)
    # the double sum as written in the definition
    n, mean = len(values), sum(values) / len(values)
    assert measures.gini(values) == pytest.approx(sum(abs(a - b) for a in values for b in values) / (2 * n * n * mean))


def test_compare_json_has_the_measures(tmp_path, capsys):
    tsv = tmp_path / "p.tsv"
    tsv.write_text("en\tbn\nThe house is red\tবাড়িটা লাল\nMy house\tআমার বাড়ি\n", encoding="utf-8")
    assert main(["compare", "--tokenizers", "cl100k_base,bert-bge", "--parallel", str(tsv), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    cl, bn = res["cl100k_base"], res["cl100k_base"]["languages"]["bn"]
    assert (bn["words"], bn["single_token_words"] + bn["continued_words"]) == (4, 4)
    assert isinstance(bn["pretokenizer_pieces"], int) and bn["optimal_tokens"] <= bn["tokens"]
    toks = [c["tokens"] for c in cl["languages"].values()]
    assert cl["gini"] == pytest.approx(measures.gini(toks)) and cl["vocab_size"] == 100277
    # WordPiece pieces are not spelled by bytes alone: no floor, no optimal count
    assert res["bert-bge"]["languages"]["bn"]["optimal_tokens"] is None
    assert res["bert-bge"]["languages"]["bn"]["pretokenizer_pieces"] is None


def test_the_bangla_premium_taken_apart_for_cl100k():
    from core.analysis import tax_steps

    col_bn, col_en = bundled().column("bn"), bundled().column("en")
    bn, en = measured("cl100k_base", "bn"), measured("cl100k_base", "en")
    d = tax_steps.decompose("cl100k_base", "bn", bn, en, chars=sum(map(len, col_bn)),
                            nbytes=sum(len(s.encode()) for s in col_bn), en_chars=sum(map(len, col_en)),
                            en_bytes=sum(len(s.encode()) for s in col_en))
    steps = d.steps()
    # each step starts where the one before ended, and the last ends at the premium
    assert steps["english"] == (0.0, 1.0) and steps["merges"][1] == pytest.approx(bn.tokens / en.tokens)
    assert [steps[k][0] for k in ("pretokenizer", "vocabulary", "merges")] == [steps[k][1] for k in ("english", "pretokenizer", "vocabulary")]
    # cl100k's \p{L}+ cuts vowel signs off: the split alone costs about twice English's tokens, and greedy merging
    # adds (almost) nothing: the vocabulary is the biggest step
    assert 1.5 < d.floor < 2.5 and d.biggest() == "vocabulary" and d.premium - d.optimal < 0.05
    assert 2.5 < d.bytes_per_char < 3 and d.en_bytes_per_char == 1.0  # Bangla letters are 3 UTF-8 bytes, marks too
    assert "vocabulary costs most" in tax_steps.verdict(d)
    fa = tax_steps.verdict(d, lang="fa", digits="native")
    assert "واژگان" in fa and "۵" in fa  # Persian sentence, Persian digits


#: Every shelf entry whose pieces are cut at word starts (Pieces.pieces_cut_at_words), by backend.
WORD_CUT = ("cl100k_base", "o200k_base", "llama3", "r50k_base", "qwen")


@pytest.mark.parametrize("tid", WORD_CUT)
def test_a_lines_tokens_and_pieces_are_its_word_parts_laid_end_to_end(tid):
    """The shortcut of measure_lines (each distinct word part encoded once) against the vendor's encode of the
    whole line, on random text in every script with odd spaces."""
    from core.pipeline.pretokenize import word_parts
    from tests.parity_text import ALL_FRAGMENTS, texts

    tok = zoo.load(tid)
    assert tok.pieces_cut_at_words
    spaced = st.lists(st.one_of(texts(4), st.sampled_from(ALL_FRAGMENTS)), max_size=8).map(" ".join)

    @settings(max_examples=examples(2), deadline=None)
    @given(st.one_of(spaced, texts()))
    def check(line):
        parts = word_parts(line)
        assert "".join(parts) == line
        assert [i for p in parts for i in tok.encode_ids(p)] == tok.encode_ids(line)
        assert [q for p in parts for q in tok.pre_pieces(p)] == tok.pre_pieces(line)

    check()


def test_entries_whose_split_can_span_a_word_start_are_not_cut():
    # Gemma 4 has no pre-tokenizer (a token may hold "> </"); SentencePiece searches the whole line
    assert not any(zoo.load(t).pieces_cut_at_words for t in ("gemma4", "mistral-spm-v1", "xlm-r"))


def test_measures_by_word_parts_equal_measures_by_whole_lines(monkeypatch):
    tok = zoo.load("o200k_base")
    lines = [s for lang in LANGS for s in bundled().column(lang)] + ["a  b.  c\u00a0 d ", "  ", "x\ty z"]
    fast = measures.measure_lines(tok, lines)
    monkeypatch.setattr(tok, "pieces_cut_at_words", False)  # the instance: a cached_property lives there
    slow = measures.measure_lines(tok, lines)
    assert fast == slow
