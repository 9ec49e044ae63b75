"""Test cases of the reference libraries' own public test suites, ported as data and run on our engine.

Each block names its source file (repository, path, test). Inputs and
expected outputs are copied as data; the code that checks them is ours.
A case that does not apply to what we implement, or where we differ on
purpose, is kept and marked with the reason (``skip`` when it cannot apply,
``xfail(strict=True)`` when we deliberately behave otherwise, so a change
of behaviour is noticed). ``PORTED`` counts the cases per source suite.
"""
from __future__ import annotations

import pytest

from core.models import unigram as ug
from core.models.bpe import train_bpe
from core.pretrained import zoo
from core.pretrained.adapter import TextError

from .parity_refs import sp_proto, tiktoken_encoding

# ============================================================================ minbpe
# Source: karpathy/minbpe, tests/test_tokenizer.py

MINBPE_STRINGS = [
    "",  # empty string
    "?",  # single character
    "hello world!!!? (안녕하세요!) lol123 😉",  # fun small string
]
#: minbpe's long case reads tests/taylorswift.txt (a 185 KB Wikipedia article), which this repository does not carry;
#: the long document here is the first 20,000 characters of the bundled Bangla shop corpus (many lines, digits,
#: punctuation, two scripts): the same property on a long text that is carried.
LONG_DOCUMENT = "FILE:assets/train/bn_shop_corpus.txt"


def _text(text: str) -> str:
    if text == LONG_DOCUMENT:
        from core.assets import ASSETS

        return (ASSETS / "train" / "bn_shop_corpus.txt").read_text(encoding="utf-8")[:20_000]
    return text
MINBPE_SPECIALS = """
<|endoftext|>Hello world this is one document
<|endoftext|>And this is another document
<|endoftext|><|fim_prefix|>And this one has<|fim_suffix|> tokens.<|fim_middle|> FIM
<|endoftext|>Last document!!! 👋<|endofprompt|>
""".strip()
MINBPE_SPECIAL_TOKENS = {"<|endoftext|>": 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259,
                         "<|fim_suffix|>": 100260, "<|endofprompt|>": 100276}
MINBPE_LLAMA_TEXT = """
<|endoftext|>The llama (/ˈlɑːmə/; Spanish pronunciation: [ˈʎama] or [ˈʝama]) (Lama glama) is a domesticated South American camelid, widely used as a meat and pack animal by Andean cultures since the pre-Columbian era.
Llamas are social animals and live with others as a herd. Their wool is soft and contains only a small amount of lanolin.[2] Llamas can learn simple tasks after a few repetitions. When using a pack, they can carry about 25 to 30% of their body weight for 8 to 13 km (5–8 miles).[3] The name llama (in the past also spelled "lama" or "glama") was adopted by European settlers from native Peruvians.[4]
The ancestors of llamas are thought to have originated from the Great Plains of North America about 40 million years ago, and subsequently migrated to South America about three million years ago during the Great American Interchange. By the end of the last ice age (10,000–12,000 years ago), camelids were extinct in North America.[3] As of 2007, there were over seven million llamas and alpacas in South America and over 158,000 llamas and 100,000 alpacas, descended from progenitors imported late in the 20th century, in the United States and Canada.[5]
<|fim_prefix|>In Aymara mythology, llamas are important beings. The Heavenly Llama is said to drink water from the ocean and urinates as it rains.[6] According to Aymara eschatology,<|fim_suffix|> where they come from at the end of time.[6]<|fim_middle|> llamas will return to the water springs and ponds<|endofprompt|>
""".strip()
#: minbpe's tokenizer classes and ours: Basic = byte BPE on the whole text, Regex = byte BPE after the GPT-4 split,
#: GPT4 = the real cl100k_base.
MINBPE_FACTORIES = ["basic", "regex", "gpt4"]


def _minbpe_tokenizer(kind: str, text: str):
    if kind == "gpt4":
        return zoo.load("cl100k_base")
    pattern = "none" if kind == "basic" else "cl100k"
    return train_bpe(corpus=text or "a", merges=20, unit="byte", pattern=pattern).tokenizer()


@pytest.mark.parametrize("kind", MINBPE_FACTORIES)
@pytest.mark.parametrize("text", [*MINBPE_STRINGS, LONG_DOCUMENT])
def test_minbpe_encode_decode_identity(kind, text):
    text = _text(text)
    tok = _minbpe_tokenizer(kind, text)
    assert tok.decode(tok.encode(text).tokens) == text


@pytest.mark.parametrize("text", [*MINBPE_STRINGS, LONG_DOCUMENT])
def test_minbpe_gpt4_tiktoken_equality(text):
    text = _text(text)
    assert zoo.load("cl100k_base").encode_ids(text) == tiktoken_encoding("cl100k_base").encode(text)


def test_minbpe_gpt4_tiktoken_equality_special_tokens():
    tok = zoo.load("cl100k_base")
    assert {k: tok.specials[k] for k in MINBPE_SPECIAL_TOKENS} == MINBPE_SPECIAL_TOKENS
    ids = tiktoken_encoding("cl100k_base").encode(MINBPE_SPECIALS, allowed_special="all")
    assert tok.encode_ids(MINBPE_SPECIALS, allow_special=True) == ids


@pytest.mark.parametrize("pattern", ["none", "cl100k"], ids=["basic", "regex"])
def test_minbpe_wikipedia_example(pattern):
    """aaabdaaabac, 3 merges -> XdXac with Z=aa (256), Y=ab (257), X=ZY (258)."""
    text = "aaabdaaabac"
    trace = train_bpe(corpus=text, merges=3, unit="byte", pattern=pattern)
    tok = trace.tokenizer()
    enc = tok.encode(text)
    assert [t.data for t in enc.tokens] == [b"aaab", b"d", b"aaab", b"a", b"c"]  # XdXac
    # minbpe's docstring names Y = ab, but its first-seen tie-break (as ours) takes Z a first; either way X = aaab
    assert [s.left + s.right for s in trace.steps] == [b"aa", b"aaa", b"aaab"]
    assert [trace.vocab[p] for p in (b"aa", b"aaa", b"aaab")] == [256, 257, 258]
    assert enc.ids[0] == enc.ids[2] == 258
    assert tok.decode(enc.tokens) == text


@pytest.mark.xfail(strict=True, reason="single bytes get Hugging Face BpeTrainer's ids (the 256 bytes in ByteLevel "
                   "character order, PRODUCT.md's tie-break rule), not minbpe's id = byte value; merges are 256, 257, 258 "
                   "in both")
def test_minbpe_wikipedia_example_byte_ids():
    tok = train_bpe(corpus="aaabdaaabac", merges=3, unit="byte", pattern="none").tokenizer()
    assert tok.encode("aaabdaaabac").ids == [258, 100, 258, 97, 99]


@pytest.mark.parametrize("with_specials", [False, True], ids=["no-specials", "specials"])
def test_minbpe_save_load_encode_decode(with_specials):
    """The encode/decode part of test_save_load: 64 merges on the llama text, decode(encode(x)) == x.

    With special tokens registered minbpe makes control ids of them; our traced trainer has no special
    tokens, so they stay plain text, checked to round-trip all the same.
    """
    trace = train_bpe(corpus=MINBPE_LLAMA_TEXT, merges=64, unit="byte", pattern="cl100k")
    tok = trace.tokenizer()
    enc = tok.encode(MINBPE_LLAMA_TEXT)
    assert tok.decode(enc.tokens) == MINBPE_LLAMA_TEXT and len(trace.steps) == 64
    if with_specials:
        assert not any(t.special for t in enc.tokens)
        assert {k for k in MINBPE_SPECIAL_TOKENS if k in MINBPE_LLAMA_TEXT} == set(MINBPE_SPECIAL_TOKENS)


def test_minbpe_save_load_files(tmp_path):
    """The file part of test_save_load: our traced trainer has no file format of its own (minbpe's .model/.vocab);
    a trained tokenizer is saved as tokenizer.json by the recipes. So minbpe's steps run on a byte-level recipe:
    train to 256 + 64 on the llama text, encode, save to a file, load it back, and the loaded one decodes the saved
    ids to the text and encodes the text to the same ids."""
    from core.analysis import recipes as R

    text = MINBPE_LLAMA_TEXT
    tok = R.train("byte-plain", text.splitlines(), 256 + 64)
    ids = tok.encode_ids(text)
    assert tok.decode_ids(ids) == text
    path = tmp_path / "test_tokenizer_tmp.json"
    path.write_text(tok.json, encoding="utf-8")
    loaded = R.load_json_bytes(path.read_bytes(), name=path.name)
    assert loaded.decode_ids(ids) == text
    assert loaded.encode_ids(text) == ids
    assert loaded.sha256 == tok.sha256


# ============================================================================ tiktoken
# Source: openai/tiktoken, tests/test_encoding.py, tests/test_offsets.py, tests/test_simple_public.py


TIKTOKEN_IDS = [
    # (encoding, text, allow_special, expected ids)
    ("cl100k_base", "hello world", False, [15339, 1917]),  # test_simple
    ("cl100k_base", "hello <|endoftext|>", True, [15339, 220, 100257]),  # test_simple
    ("cl100k_base", "rer", False, [38149]),  # test_simple_regex
    ("cl100k_base", "'rer", False, [2351, 81]),
    ("cl100k_base", "today\n ", False, [31213, 198, 220]),
    ("cl100k_base", "today\n \n", False, [31213, 27907]),
    ("cl100k_base", "today\n  \n", False, [31213, 14211]),
    ("cl100k_base", " \x850", False, [220, 126, 227, 15]),  # test_basic_encode
    ("cl100k_base", "", False, []),  # test_encode_empty (r50k_base there; the same for cl100k)
    ("cl100k_base", "👍", False, [9468, 239, 235]),  # test_encode_surrogate_pairs
]
TIKTOKEN_GPT2_ONLY = [
    # test_simple / test_simple_repeated: gpt2's ids
    ("hello world", [31373, 995]), ("hello <|endoftext|>", [31373, 220, 50256]), ("0", [15]), ("00", [405]),
    ("000", [830]), ("0000", [2388]), ("00000", [20483]), ("000000", [10535]), ("0000000", [24598]),
    ("00000000", [8269]), ("000000000", [10535, 830]), ("0000000000", [8269, 405]), ("00000000000", [8269, 830]),
    ("000000000000", [8269, 2388]), ("0000000000000", [8269, 20483]), ("00000000000000", [8269, 10535]),
    ("000000000000000", [8269, 24598]), ("0000000000000000", [25645]), ("00000000000000000", [8269, 10535, 830]),
]  # fmt: skip
TIKTOKEN_ROUNDTRIP = ["hello", "hello ", "hello  ", " hello", " hello ", " hello  ", "hello world", "请考试我的软件！12345"]
TIKTOKEN_OFFSETS = [
    # test_basic_offsets: (text, allow_special, offsets)
    ("hello world", False, [0, 5]),
    ("hello world<|endoftext|> green cow", True, [0, 5, 11, 24, 30]),
    ("我非常渴望与人工智能一起工作", False, [0, 1, 2, 3, 3, 4, 4, 5, 6, 7, 8, 8, 9, 10, 11, 12, 13]),
    ("நடிகர் சூர்யா", False, [0, 0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 8, 8, 9, 9, 10, 11, 12, 12]),
    (" Ġ除", False, [0, 1]),
]


@pytest.mark.parametrize("name,text,allow,expected", TIKTOKEN_IDS, ids=[repr(c[1]) for c in TIKTOKEN_IDS])
def test_tiktoken_ids(name, text, allow, expected):
    tok = zoo.load(name)
    assert tok.encode_ids(text, allow_special=allow) == expected
    assert tok.encode(text, allow_special=allow).ids == expected


@pytest.mark.parametrize("text,expected", TIKTOKEN_GPT2_ONLY, ids=[c[0][:12] for c in TIKTOKEN_GPT2_ONLY])
def test_tiktoken_gpt2_ids(text, expected):
    """tiktoken's gpt2 cases run on the shelf's r50k_base (GPT-2's ranks and pattern, from openai-whisper's gpt2.tiktoken)."""
    tok = zoo.load("r50k_base")
    assert tok.encode_ids(text, allow_special=True) == expected
    assert tok.encode(text, allow_special=True).ids == expected


@pytest.mark.xfail(strict=True, raises=TextError, reason="we refuse a lone surrogate with a clear error (the CLI "
                   "and pages show it) instead of replacing it silently as tiktoken does")
@pytest.mark.parametrize("text", ["\ud83d\udc4d", "\ud83d"], ids=["surrogate-pair", "lone-surrogate"])
def test_tiktoken_surrogates(text):
    tok = zoo.load("cl100k_base")
    assert tok.encode(text).ids == tiktoken_encoding("cl100k_base").encode(text)


def test_tiktoken_large_repeated():
    text = "x" * 1_000_000
    assert zoo.load("o200k_base").encode_ids(text) == tiktoken_encoding("o200k_base").encode(text)


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
@pytest.mark.parametrize("c", ["^", "0", "a", "'s", " ", "\n"])
def test_tiktoken_catastrophically_repetitive(name, c):
    tok = zoo.load(name)
    ref = tiktoken_encoding(name)
    for big in (c * 10_000, " " + c * 10_000, " " + c * 10_000 + "\n"):
        enc = tok.encode(big)
        assert tok.decode(enc.tokens) == big and enc.ids == ref.encode(big)


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
@pytest.mark.parametrize("value", TIKTOKEN_ROUNDTRIP)
def test_tiktoken_basic_roundtrip(name, value):
    tok = zoo.load(name)
    assert tok.decode(tok.encode(value).tokens) == value


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_tiktoken_single_token_bytes(name):
    """test_simple / test_single_token_roundtrip: every id's bytes, as tiktoken has them (first 10,000 ids)."""
    tok, ref = zoo.load(name), tiktoken_encoding(name)
    for i in range(10_000):
        assert tok.token_bytes(i) == ref.decode_single_token_bytes(i)


def test_tiktoken_special_token():
    """test_special_token: typed specials stay text unless allowed (tiktoken's disallowed_special=() mode)."""
    tok = zoo.load("cl100k_base")
    eot, fip, fim = (tok.specials[k] for k in ("<|endoftext|>", "<|fim_prefix|>", "<|fim_middle|>"))
    text = "<|endoftext|> hello <|fim_prefix|> there <|fim_middle|>"
    plain = tok.encode_ids(text)
    assert not {eot, fip, fim} & set(plain)
    assert {eot, fip, fim} <= set(tok.encode_ids(text, allow_special=True))


@pytest.mark.xfail(strict=True, reason="tiktoken's default refuses typed special tokens with ValueError; we encode "
                   "them as text and flag them (special_hits), which is what the pages demonstrate")
def test_tiktoken_special_token_default_raises():
    with pytest.raises(ValueError):
        zoo.load("cl100k_base").encode_ids("<|endoftext|> hello <|fim_prefix|>")


def test_tiktoken_special_token_subsets():
    """tiktoken's test also allows a subset ({'<|fim_prefix|>'}); our adapters allow all control tokens or none, so
    the two ends are compared with tiktoken itself: all (``allowed_special="all"``) and none (each typed control
    token encoded as text, ``disallowed_special=()``)."""
    text = "<|endoftext|> hello <|fim_prefix|>"
    tok, ref = zoo.load("cl100k_base"), tiktoken_encoding("cl100k_base")
    assert tok.encode_ids(text, allow_special=True) == ref.encode(text, allowed_special="all")
    assert tok.encode_ids(text, allow_special=False) == ref.encode(text, disallowed_special=())
    assert ref.encode(text, allowed_special="all") != ref.encode(text, disallowed_special=())


@pytest.mark.parametrize("text,allow,offsets", TIKTOKEN_OFFSETS, ids=[c[0][:8] for c in TIKTOKEN_OFFSETS])
def test_tiktoken_basic_offsets(text, allow, offsets):
    enc = zoo.load("cl100k_base").encode(text, allow_special=allow)
    assert [t.start for t in enc.tokens] == offsets


# ============================================================================ tokenizers (Python bindings)
# Source: huggingface/tokenizers, bindings/python/tests/bindings/test_tokenizer.py (test_unigram_byte_fallback),
# bindings/python/tests/implementations/test_sentencepiece.py (TestSentencePieceUnigram),
# bindings/python/tests/bindings/test_trainers.py (TestUnigram.test_train_with_special_tokens)

HF_BYTE_FALLBACK_VOCAB = [("<unk>", 0.0), ("A", -0.03), ("sen", -0.02), ("te", -0.03), ("n", -0.04), ("ce", -0.05),
                          ("<0xF0>", -0.06), ("<0x9F>", -0.06), ("<0xA4>", -0.06), ("<0x97>", -0.06), (" ", -0.4)]
HF_BYTE_FALLBACK_CASES = [
    (False, [1, 10, 2, 3, 4, 5, 10, 0], ["A", " ", "sen", "te", "n", "ce", " ", "🤗"]),
    (True, [1, 10, 2, 3, 4, 5, 10, 6, 7, 8, 9], ["A", " ", "sen", "te", "n", "ce", " ", "<0xF0>", "<0x9F>", "<0xA4>",
                                                "<0x97>"]),
]
HF_SP_UNIGRAM_LINES = ["A first sentence", "Another sentence", "And a last one"]
HF_ZEN = """
[CLS] The Zen of Python, by Tim Peters [SEP]
[CLS] Beautiful is better than ugly. [SEP]
[CLS] Explicit is better than implicit. [SEP]
[CLS] Simple is better than complex. [SEP]
[CLS] Complex is better than complicated. [SEP]
[CLS] Flat is better than nested. [SEP]
[CLS] Sparse is better than dense. [SEP]
[CLS] Readability counts. [SEP]
[CLS] Special cases aren't special enough to break the rules. [SEP]
[CLS] Although practicality beats purity. [SEP]
[CLS] Errors should never pass silently. [SEP]
[CLS] Unless explicitly silenced. [SEP]
[CLS] In the face of ambiguity, refuse the temptation to guess. [SEP]
[CLS] There should be one-- and preferably only one --obvious way to do it. [SEP]
[CLS] Although that way may not be obvious at first unless you're Dutch. [SEP]
[CLS] Now is better than never. [SEP]
[CLS] Although never is often better than *right* now. [SEP]
[CLS] If the implementation is hard to explain, it's a bad idea. [SEP]
[CLS] If the implementation is easy to explain, it may be a good idea. [SEP]
[CLS] Namespaces are one honking great idea -- let's do more of those! [SEP]
"""


@pytest.mark.parametrize("fallback,ids,tokens", HF_BYTE_FALLBACK_CASES, ids=["no-fallback", "byte-fallback"])
def test_tokenizers_unigram_byte_fallback(fallback, ids, tokens):
    # that test's Tokenizer has no pre-tokenizer: the whole text is one lattice, spaces as they are
    model = ug.UnigramModel(tuple(HF_BYTE_FALLBACK_VOCAB), 0, fallback, metaspace=None)
    got = ug.encode("A sentence 🤗", model)
    assert [i for _, i in got] == ids and [p for p, _ in got] == tokens


def _sp_unigram_json(**train) -> str:
    from tokenizers import SentencePieceUnigramTokenizer

    tok = SentencePieceUnigramTokenizer()
    tok.train_from_iterator(HF_SP_UNIGRAM_LINES, show_progress=False, **train)
    return tok.to_str()


def test_tokenizers_sentencepiece_unigram_train():
    model = ug.load_tokenizer_json(_sp_unigram_json())
    assert [p for p, _ in ug.encode("A sentence", model)] == ["▁A", "▁", "s", "en", "t", "en", "c", "e"]
    with pytest.raises(ug.UnigramError):  # "Encountered an unknown token but `unk_id` is missing"
        ug.encode("A sentence 🤗", model)


@pytest.mark.parametrize("train", [{}, {"vocab_size": 100}], ids=["default-size", "vocab-100"])
def test_tokenizers_sentencepiece_unigram_with_unk(train):
    model = ug.load_tokenizer_json(_sp_unigram_json(special_tokens=["<unk>"], unk_token="<unk>", **train))
    got = ug.encode("A sentence 🤗", model)
    assert got[-1][1] == 0
    assert [p for p, _ in got] == ["▁A", "▁", "s", "en", "t", "en", "c", "e", "▁", "🤗"]


def test_tokenizers_unigram_train_with_special_tokens(tmp_path):
    """The model's part of that case: the text between [CLS] and [SEP] (added tokens are split off first)."""
    from tokenizers import Tokenizer, models, trainers

    path = tmp_path / "zen.txt"
    path.write_text(HF_ZEN, encoding="utf-8")
    tok = Tokenizer(models.Unigram())
    tok.train([str(path)], trainer=trainers.UnigramTrainer(show_progress=False, special_tokens=["[PAD]", "[SEP]",
                                                           "[CLS]"], unk_token="[UNK]"))
    model = ug.load_tokenizer_json(tok.to_str())
    assert model.metaspace is None  # no pre-tokenizer in that tokenizer
    assert [p for p, _ in ug.encode(" This is a test ", model)] == [" T", "h", "i", "s", " is ", "a", " ", "te", "s",
                                                                     "t "]


def test_tokenizers_sentencepiece_bpe():
    """test_sentencepiece.py (TestSentencePieceBPE.test_train_from_iterator): a SentencePieceBPETokenizer trained on
    three sentences encodes "A sentence" as ["▁A", "▁sentence"]. The library trains it; the tokenizer.json it writes
    is loaded through our adapter (a Hugging Face BPE model runs in the library; our own BPE encoder runs only
    merges traced here), which must give the suite's tokens."""
    from tokenizers import SentencePieceBPETokenizer

    hf = SentencePieceBPETokenizer()
    hf.train_from_iterator(["A first sentence", "Another sentence", "And a last one"], show_progress=False)
    tok = zoo.load_user_bytes("tokenizer.json", hf.to_str().encode("utf-8"))
    ids = tok.encode_ids("A sentence")
    assert [hf.id_to_token(i) for i in ids] == ["▁A", "▁sentence"]  # the suite's expected tokens
    assert [t.text for t in tok.encode("A sentence").tokens] == [" A", " sentence"]  # our tokens: what ▁ stands for


# ============================================================================ SentencePiece
# Source: google/sentencepiece, src/unigram_model_test.cc (EncodeTest, EncodeWithUnusedTest, PopulateNodesTest,
# PopulateNodesWithUnusedTest, PopulateNodesAllUnknownsTest, ModelNBestTest). Model::Encode's pieces are before
# unknowns are joined, so they are compared with our Viterbi path; the processor's own output is compared too.

SP_ENCODE_PIECES = [("ab", 0.0), ("cd", -0.1), ("abc", -0.2), ("a", -0.3), ("b", -0.4), ("c", -0.5), ("ABC", -0.5),
                    ("abcdabcd", -0.5), ("q", -0.5), ("r", -0.5), ("qr", -0.5)]
SP_ENCODE_USER = {"ABC", "abcdabcd", "q", "r"}
SP_ENCODE_CASES = [
    ("abc", ["abc"]),
    ("AB", ["A", "B"]),
    ("abcd", ["ab", "cd"]),
    ("abcc", ["abc", "c"]),
    ("xabcabaabcdd", ["x", "abc", "ab", "a", "ab", "cd", "d"]),
    ("xyz東京", ["x", "y", "z", "東", "京"]),
    ("ABC", ["ABC"]),
    ("abABCcd", ["ab", "ABC", "cd"]),
    ("ababcdabcdcd", ["ab", "abcdabcd", "cd"]),  # middle "abcdabcd" is user defined
    ("abqrcd", ["ab", "q", "r", "cd"]),
]
SP_UNUSED_PIECES = [("abcd", 10.0), ("abc", 5.0), ("ab", 2.0), ("cd", 1.0), ("a", 0.0), ("b", 0.0), ("c", 0.0),
                    ("d", 0.0)]
SP_UNUSED_CASES = [  # (unused pieces, Encode("abcd"))
    (set(), ["abcd"]),
    ({"abcd"}, ["abc", "d"]),
    ({"abcd", "ab"}, ["abc", "d"]),
    ({"abcd", "abc"}, ["ab", "cd"]),
]


def _sp_check(data: bytes, text: str, expected: list[str]) -> None:
    import sentencepiece as spm

    model = ug.load_sentencepiece(data)
    assert list(ug.viterbi(text, model).pieces) == expected
    sp = spm.SentencePieceProcessor(model_proto=data)
    assert [(p, i) for p, i in ug.encode(text, model)] == list(zip(sp.encode(text, out_type=str), sp.encode(text)))


@pytest.mark.parametrize("text,expected", SP_ENCODE_CASES, ids=[c[0] for c in SP_ENCODE_CASES])
def test_sentencepiece_encode_test(text, expected):
    _sp_check(sp_proto(SP_ENCODE_PIECES, SP_ENCODE_USER), text, expected)


@pytest.mark.parametrize("unused,expected", SP_UNUSED_CASES, ids=["none", "abcd", "abcd+ab", "abcd+abc"])
def test_sentencepiece_encode_with_unused(unused, expected):
    _sp_check(sp_proto(SP_UNUSED_PIECES, unused=unused), "abcd", expected)


@pytest.mark.parametrize("unused", [False, True], ids=["all", "with-unused"])
def test_sentencepiece_populate_nodes(unused):
    pieces = [("a", 0.1), ("b", 0.2), ("ab", 0.3), ("bc", 0.4)]
    model = ug.load_sentencepiece(sp_proto(pieces, unused={"ab", "bc"} if unused else ()))
    by_start: dict[int, list[ug.Edge]] = {}
    for e in ug.edges_of("abc", model):
        by_start.setdefault(e.start, []).append(e)
    if unused:
        assert [[e.id for e in by_start[k]] for k in range(3)] == [[3], [4], [0]]
    else:
        assert [[e.id for e in by_start[k]] for k in range(3)] == [[3, 5], [4, 6], [0]]
        assert [e.score for e in by_start[0] + by_start[1]] == pytest.approx([0.1, 0.3, 0.2, 0.4], abs=0.001)


def test_sentencepiece_populate_nodes_all_unknowns():
    model = ug.load_sentencepiece(sp_proto([("x", 0.0)]))
    edges = ug.edges_of("abc", model)
    assert [(e.start, e.id) for e in edges] == [(0, 0), (1, 0), (2, 0)]


def test_sentencepiece_model_nbest():
    model = ug.load_sentencepiece(sp_proto([("a", 0.0), ("b", 0.0), ("c", 0.0), ("ab", 2.0), ("bc", 5.0),
                                            ("abc", 10.0)]))
    empty = ug.top_k("", model, 10)
    assert len(empty) == 1 and empty[0].edges == () and empty[0].score == 0.0
    assert len(ug.top_k("abc", model, 10)) == 4


#: Ported cases per source suite (each parametrised case once; skip / xfail ones included, with their reasons).
PORTED = {
    "minbpe (tests/test_tokenizer.py)": 3 * 4 + 4 + 1 + 2 + 1 + 2 + 1,
    "tiktoken (tests/test_encoding.py, test_offsets.py, test_simple_public.py)":
        len(TIKTOKEN_IDS) + len(TIKTOKEN_GPT2_ONLY) + 2 + 1 + 2 * 6 + 2 * len(TIKTOKEN_ROUNDTRIP) + 2 + 1 + 1 + 1
        + len(TIKTOKEN_OFFSETS),
    "tokenizers (bindings/python/tests)": len(HF_BYTE_FALLBACK_CASES) + 1 + 2 + 1 + 1,
    "sentencepiece (src/unigram_model_test.cc)": len(SP_ENCODE_CASES) + len(SP_UNUSED_CASES) + 2 + 1 + 1,
}


def test_ported_case_counts_match_the_collected_tests(request):
    """The counts above are the parametrised cases of this file (so the report's numbers are the suite's)."""
    items = [i for i in request.session.items if i.fspath == request.node.fspath and i.name != request.node.name]
    if len(items) < 5:  # run alone with -k: nothing to compare
        pytest.skip("run the whole file to compare counts")
    assert sum(PORTED.values()) == len(items)
