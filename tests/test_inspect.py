"""core.analysis.inspect: reasons per layer, computed from the engine (changing the input changes them)."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.analysis.inspect import (
    MAX_EVIDENCE,
    InspectError,
    explain,
    inspect_word,
    mark_kind,
    pretokenizer_reasons,
    word_at,
)
from core.models.bpe import tiktoken_rank_of
from core.pipeline.pattern import regex_pieces, split_alternatives
from core.pipeline.pretokenize import PATTERNS, pretokenize
from core.pretrained import zoo
from core.pretrained.replay import replay, split_pieces
from pages._links import chip_links
from tests.helpers import examples

WORD = "রাজশাহী"


@pytest.fixture(scope="module")
def cl100k():
    return zoo.load("cl100k_base")


@pytest.fixture(scope="module")
def o200k():
    return zoo.load("o200k_base")


def test_rajshahi_cl100k_nine_pieces_with_bytes_ending_inside_letters(cl100k):
    v = explain(cl100k, WORD)
    assert v.counts.tokens == 9 and len(v.pieces) == 9
    inside = v.reasons("inside-codepoint")
    assert inside, "byte pieces that end inside a letter are named"
    # each such reason names a real code point of the word and the split bytes
    for r in inside:
        cp = re.search(r"U\+([0-9A-F]{4})", r.text).group(1)
        assert chr(int(cp, 16)) in WORD
        assert "of its 3 bytes" in r.text
    assert len(inside) == v.counts.inside_codepoint == v.encoding.report.inside_codepoint
    assert v.verdict.startswith("9 tokens:")
    assert f"{v.encoding.report.inside_grapheme} of 8 boundaries fall inside letters" in v.verdict
    assert "byte prefix E0 A6" in v.verdict


def test_rajshahi_o200k_three_pieces_kept_whole_by_regex(o200k):
    v = explain(o200k, WORD)
    assert v.counts.tokens == 3
    assert [t.text for t in v.encoding.tokens] == ["রাজ", "শ", "াহী"]
    assert v.reasons("whole") and not v.reasons("mark-split")
    assert "\\p{M}" in v.reasons("whole")[0].text  # the alternative that matched includes marks
    assert not v.reasons("inside-codepoint")


@pytest.mark.parametrize("tid, atom", [("cl100k_base", "\\p{L}++"), ("llama3", "\\p{L}+")])
def test_letter_regex_names_the_vowel_sign_split(tid, atom):
    v = explain(zoo.load(tid), WORD)
    splits = v.reasons("mark-split")
    assert len(splits) == 3
    first = splits[0].text
    assert first.startswith("split before U+09BE BENGALI VOWEL SIGN AA")
    assert f"because {atom} does not match a vowel sign (\\p{{M}}" in first
    assert "3 marks" in v.verdict


def test_changing_the_input_changes_the_reasons(cl100k):
    """Reasons are computed: another word names other code points, another script other classes."""
    a = explain(cl100k, WORD)
    b = explain(cl100k, "কিনি")  # vowel sign I (U+09BF), not AA
    c = explain(cl100k, "hello")
    ta = " ".join(r.text for r in a.reasons("mark-split"))
    tb = " ".join(r.text for r in b.reasons("mark-split"))
    assert "U+09BE" in ta and "U+09BF" not in ta
    assert "U+09BF" in tb and "U+09BE" not in tb
    assert not c.reasons("mark-split") and c.reasons("whole")
    assert a.verdict != b.verdict != c.verdict
    assert c.counts.tokens == 1 and c.verdict.startswith("1 token:")


def test_virama_split_in_hindi_is_named():
    _parts, reasons = pretokenizer_reasons("नमस्ते", PATTERNS["gpt2"].regex)
    marks = [r for r in reasons if r.kind == "mark-split"]
    assert any("U+094D DEVANAGARI SIGN VIRAMA" in r.text and "virama" in r.text for r in marks)
    assert all("\\p{L}+ does not match" in r.text for r in marks)


def test_merge_reasons_equal_the_replay(cl100k):
    v = explain(cl100k, WORD)
    rep = replay(cl100k, WORD)
    ranks = [int(m) for r in v.reasons("merge") for e in r.evidence for m in re.findall(r"^rank (\d+)", e)]
    assert ranks == [s.rank for p in rep.pieces for s in p.trace.steps]
    rank_of = tiktoken_rank_of(cl100k.ranks)
    for p in rep.pieces:  # every adjacent pair of final pieces in a piece has no merge, and is reported
        for a, b in zip(p.final, p.final[1:]):
            assert rank_of(a, b) is None
    assert len(v.reasons("no-merge")) == sum(len(p.final) - 1 for p in rep.pieces)


def test_split_alternatives():
    assert split_alternatives(r"a|(?:b|c)|[|]|\||d") == ["a", "(?:b|c)", "[|]", r"\|", "d"]
    assert split_alternatives(r"[^\]|]x|y") == [r"[^\]|]x", "y"]


@pytest.mark.parametrize("name", [n for n, p in PATTERNS.items() if p.regex])
def test_regex_pieces_equal_pretokenize(name):
    text = "বাজারঘরের অর্ডার 12345 রাজশাহী পৌঁছাবে। It's 3.14 — don't!\n\n  नमस्ते سلام Oʻzbekiston"
    assert [(p.text, p.start, p.end) for p in regex_pieces(text, PATTERNS[name].regex)] == [
        (s.text, s.start, s.end) for s in pretokenize(text, name)
    ]


@settings(max_examples=examples(0.6))
@given(st.text(alphabet="রাজশহীকিনে্য় abc'\n12345.।", max_size=30))
def test_regex_pieces_are_the_pieces_tiktoken_encodes_alone(text):
    """Our two readers of the split pattern agree, and tiktoken itself confirms the pieces: it never lets a token
    cross a piece's edge, and encoding each piece alone gives its ids for the whole text."""
    from tests.parity_refs import tiktoken_encoding

    tok = zoo.load("cl100k_base")
    pieces = [(p.text, p.start, p.end) for p in regex_pieces(text, tok.pattern)]
    assert pieces == split_pieces(tok, text)
    ref = tiktoken_encoding("cl100k_base")
    ids = ref.encode_ordinary(text)
    assert [i for piece, _, _ in pieces for i in ref.encode_ordinary(piece)] == ids
    edges, at = {0}, 0
    for i in ids:
        at += len(ref.decode_single_token_bytes(i))
        edges.add(at)
    assert {len(text[:end].encode("utf-8")) for _, _, end in pieces} <= edges


def test_mark_kind_reads_unicode_names():
    assert mark_kind("\u09be") == "vowel sign"
    assert mark_kind("\u094d").startswith("virama")
    assert mark_kind("\u0901") == "nasal/aspiration sign"
    assert mark_kind("1") == "digit"


def test_sentencepiece_and_baseline_views():
    v = explain(zoo.load("mistral-spm-v1"), WORD)
    assert v.layer("pre-tokenizer").reasons[0].kind == "metaspace"
    assert v.reasons("no-merge")  # adjacent pieces with no joined piece in the vocabulary
    cp = explain(zoo.load("codepoints"), WORD)
    assert cp.counts.tokens == 7 and cp.reasons("baseline")


def _user_json(tok) -> object:
    return zoo.load_user_bytes("user.json", tok.to_str().encode("utf-8"))


def test_wordpiece_trace_and_bert_mark_stripping():
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers

    t = Tokenizer(models.WordPiece({"[UNK]": 0, "ঘর": 1, "দাম": 2, "##ের": 3, "##ে": 4, "##র": 5, "##ি": 6, "খশ": 7},
                                   unk_token="[UNK]"))
    t.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    t.normalizer = normalizers.BertNormalizer(lowercase=True)  # strip_accents unset: strips Mn marks
    tok = _user_json(t)
    v = explain(tok, "ঘরের")
    assert v.reasons("longest-match")[0].text.endswith("ঘর ##ের.")
    unk = explain(tok, "ঘরেই")
    assert "WHOLE word" in unk.reasons("unk")[0].text and "'ই'" in unk.reasons("unk")[0].text
    trap = explain(tok, "খুশি")
    assert trap.reasons("marks-removed"), "uncased BERT deletes the vowel sign U"
    assert "“খশি”" in trap.reasons("changed")[0].text
    # the model saw the normalized word: খশ + ##ি
    assert trap.reasons("longest-match")[0].text.endswith("খশ ##ি.")


def test_unigram_best_path_and_runner_up():
    from tokenizers import Tokenizer, models, pre_tokenizers

    pieces = [("<unk>", 0.0), ("▁", -2.0), ("▁বা", -3.0), ("জার", -3.5), ("বাজার", -6.0), ("বা", -4.0),
              ("জ", -4.0), ("া", -4.0), ("র", -4.0), ("ব", -4.0)]
    t = Tokenizer(models.Unigram(pieces, unk_id=0))
    t.pre_tokenizer = pre_tokenizers.Metaspace()
    v = explain(_user_json(t), "বাজার")
    text = v.reasons("viterbi")[0].text
    assert "best path ▁বা | জার (log-probability -6.50)" in text
    assert "runner-up ▁ | বাজার (-8.00, 1.50 lower)" in text


def test_translation_counts_and_inspection(cl100k, o200k):
    ins = inspect_word(WORD, [cl100k, o200k], translation="Rajshahi")
    assert [c.char for c in ins.facts.codepoints] == list(WORD)
    assert ins.facts.utf8.startswith("E0 A6 B0 E0 A6 BE")
    assert [c.text for c in ins.facts.clusters] == ["রা", "জ", "শা", "হী"]
    cl, o2 = ins.views
    assert cl.translation.tokens == len(cl100k.encode_ids("Rajshahi"))
    assert f"{cl.counts.tokens / cl.translation.tokens:.2f}x" in cl.translation_verdict


@pytest.mark.parametrize("bad", ["", "   ", "ক" * 201])
def test_bad_input_is_a_clear_error(cl100k, bad):
    with pytest.raises(InspectError):
        explain(cl100k, bad)


def test_word_at_and_chip_links(o200k):
    text = "বাজারঘরের অর্ডার রাজশাহী পৌঁছাবে। سلام"
    assert word_at(text, text.index("রাজ") + 2) == "রাজশাহী"
    assert word_at(text, text.index(" ")) is None
    assert word_at(text, text.index("।")) == "।"
    enc = o200k.encode(text)
    link = chip_links(text, ["cl100k_base", "o200k_base"])
    hrefs = [link(t) for t in enc.tokens]
    assert all(h is None or h.startswith("inspector?word=") for h in hrefs)
    from urllib.parse import parse_qs, urlparse

    q = parse_qs(urlparse(next(h for h, t in zip(hrefs, enc.tokens) if "রাজ" in t.text)).query)
    assert q == {"word": ["রাজশাহী"], "tok": ["cl100k_base,o200k_base"]}


def test_render_link_makes_chips_links(o200k):
    from core.render import render_encoding

    enc = o200k.encode("রাজশাহী <b>")
    html = render_encoding(enc, link=chip_links(enc.text))
    assert html.count('<a class="tl-link" href="inspector?word=') == len(enc.tokens) - 0 - sum(
        t.text.isspace() for t in enc.tokens
    )
    assert "<b>" not in html  # still escaped
    assert '<a class="tl-link"' not in render_encoding(enc)  # off by default


def test_sentencepiece_unigram_best_path_is_the_encoding():
    import io

    import sentencepiece as spm

    from core.analysis.tax import load_bundled

    lines = [r[1] for r in load_bundled().rows] * 5  # the bundled Bangla sentences
    buf = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=iter(lines), model_writer=buf, vocab_size=100, model_type="unigram",
                                   character_coverage=1.0, hard_vocab_limit=False, minloglevel=2)
    tok = zoo.load_user_bytes("unigram.model", buf.getvalue())
    assert tok.unigram_model() is not None and zoo.load("mistral-spm-v1").unigram_model() is None  # BPE model
    for word in ("রাজশাহী", "বাজার"):
        v = explain(tok, word)
        (r,) = v.reasons("viterbi")
        best = r.text.split("best path ")[1].split(" (")[0].split(" | ")
        pieces = [tok._sp.id_to_piece(i) for i in v.encoding.ids]
        assert best == pieces
        assert "runner-up" in r.text or "no other segmentation" in r.text


@settings(max_examples=examples(2))
@given(st.text(alphabet="রাজশহীকি্ ।,.ab\u200c\n", min_size=1, max_size=40).flatmap(
    lambda t: st.tuples(st.just(t), st.integers(min_value=0, max_value=len(t) - 1))))
def test_word_at_returns_the_run_around_the_index(text_and_index):
    text, i = text_and_index  # every example has an index inside its text (none returns early)
    w = word_at(text, i)
    if text[i].isspace():
        assert w is None
        return
    assert w and text[i] in w and not any(c.isspace() for c in w)
    # it is the maximal run in the text that covers position i
    starts = [k for k in range(max(0, i - len(w) + 1), i + 1) if text.startswith(w, k)]
    assert starts


@settings(max_examples=examples(2))
@given(st.text(alphabet="রাজশহীকি্ ।,.ab\u200c\n!?", max_size=60))
def test_chip_word_index_agrees_with_word_at(text):
    from core.analysis.inspect import WordIndex

    index = WordIndex(text)
    assert [index.word_at(i) for i in range(len(text))] == [word_at(text, i) for i in range(len(text))]


def _shown(data: bytes) -> str:
    try:
        return "“" + data.decode("utf-8") + "”"
    except UnicodeDecodeError:
        return " ".join(f"{b:02X}" for b in data)


def _model_layer(view):
    return next(layer for layer in view.layers if layer.name == "model")


@pytest.mark.parametrize("tid,word", [("gemma4", WORD), ("deepseek-v3", WORD), ("clip", "lowering"),
                                      ("mistral-spm-v1", "hello world"), ("llama2", "bazaar"), ("gemma4", "বাজারঘরের")])
def test_merges_are_explained_for_every_bpe_not_only_tiktoken(tid, word):
    """``tokenizers`` and SentencePiece BPEs get their merges in the inspector, from the replay engine: one
    evidence line per merge (up to the cap), in the library's own order, ending in the library's tokens; the
    pieces left apart are told from their bytes (never the byte-level alphabet's mojibake, ``à¦°``)."""
    tok = zoo.load(tid)
    view = explain(tok, word)
    model = _model_layer(view)
    rep = replay(tok, word)
    assert rep.matches_library
    merges = [r for r in model.reasons if r.kind == "merge"]
    stepped = [p for p in rep.pieces if p.trace.steps]
    assert len(merges) == len(stepped) > 0
    for reason, piece in zip(merges, stepped):
        assert len(reason.evidence) == min(len(piece.trace.steps), MAX_EVIDENCE)
        order = "score" if piece.scores else "rank"
        assert all(line.startswith(order + " ") for line in reason.evidence)
        assert reason.text.endswith(" | ".join(_shown(b) for b in piece.final) + ".")
    text = " ".join(r.text + " ".join(r.evidence) for r in model.reasons)
    assert "à¦" not in text and "Ġ" not in text


def test_the_merge_explanation_follows_the_word(o200k):
    """Not a fixed sentence: a different word gives different merges on the same tokenizer."""
    tok = zoo.load("gemma4")
    a = [r.text for r in _model_layer(explain(tok, "রাজশাহী")).reasons if r.kind == "merge"]
    b = [r.text for r in _model_layer(explain(tok, "ঢাকা")).reasons if r.kind == "merge"]
    assert a and b and a != b
