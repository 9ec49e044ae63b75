"""Merge replay over the whole shelf: every BPE entry, each in its library's own order, equal to its ids.

The shelf must be installed (``python -m core zoo install``). Three engines
are replayed (:mod:`core.pretrained.replay`): tiktoken ranks tables,
``tokenizers`` BPE (tokenizer.json, the GGUF conversions, CLIP) and
SentencePiece BPE; every offered entry is checked on random multi-script
words against the real library.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.pretrained import zoo
from core.pretrained.catalog import ENTRIES
from core.pretrained.replay import ReplayError, offered, replay
from tests.helpers import examples

OFFERED = [i for i, e in ENTRIES.items() if offered(e)]

BN = "বাজারঘরের অর্ডার আগামীকাল বিকেলে রাজশাহী পৌঁছাবে।"
HI = "नमस्ते दुनिया, कल शाम ऑर्डर पहुँचेगा।"
FA = "سفارش فردا عصر به راجشاهی می‌رسد."
UZ = "Buyurtma ertaga kechqurun Rajshahiga yetib boradi. Oʻzbekiston gʻalaba"
EN = "The order will reach Rajshahi tomorrow evening. Tokenization isn't hard!"
EMOJI = "🙂👍🏽👩‍👩‍👧🇧🇩✨"
EXTRA = " \n\t  123 4567 '.,!?-\u200c\u200d\u00a0"
ALPHABET = sorted(set(BN + HI + FA + UZ + EN + EMOJI + EXTRA))
SOURCES = (BN, HI, FA, UZ, EN, EMOJI)


def seeded_words(n: int = 120, seed: int = 14) -> list[str]:
    """Random words and phrases: letters of the five languages and emoji mixed, slices of the samples, and a few
    arbitrary code points (outside every vocabulary: unknown-token and byte-fallback paths)."""
    rng = random.Random(seed)
    out = ["বাজারঘরের", "রাজশাহী", "नमस्ते", "می‌رسد", "Oʻzbekiston", "tokenization", "👩‍👩‍👧", "  spaces  ", "\n\nx"]
    while len(out) < n:
        r = rng.random()
        if r < 0.55:
            out.append("".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 25))))
        elif r < 0.85:
            src = rng.choice(SOURCES)
            a = rng.randrange(len(src))
            out.append(src[a : a + rng.randint(1, 40)])
        else:
            out.append("".join(chr(rng.choice([rng.randint(0x20, 0x2FFF), rng.randint(0xE000, 0x10FFFF)]))
                               for _ in range(rng.randint(1, 8))))
    return out


WORDS = seeded_words()


def test_every_bpe_of_the_shelf_is_offered_and_nothing_else():
    """The page's list (read from the catalog) is exactly the entries whose loaded model is a BPE."""
    for tid, e in ENTRIES.items():
        assert offered(e) == bool(zoo.load(tid).replayable), tid
    named = {"gemma4", "command-r", "deepseek-v3", "deepseek-llm", "deepseek-coder", "baichuan", "falcon", "starcoder",
             "gpt-neox", "aquila", "llama2", "claude-legacy", "clip", "qwen", "whisper", "r50k_base", "p50k_base",
             "cl100k_base", "o200k_base", "mistral-spm-v1"}
    assert named <= set(OFFERED)
    assert not {"xlm-r", "bert-bge", "j2", "codepoints", "bytes", "words"} & set(OFFERED)


@pytest.mark.parametrize("tokenizer_id", OFFERED)
def test_replay_equals_the_library_on_seeded_multiscript_words(tokenizer_id):
    tok = zoo.load(tokenizer_id)
    bad = []
    for w in WORDS:
        r = replay(tok, w)
        if r.final_ids != tok.encode_ids(w) or not r.matches_library:
            bad.append(w)
    assert not bad, f"{len(bad)} of {len(WORDS)} differ, first {bad[0]!r}"


_text = st.lists(st.one_of(st.sampled_from(ALPHABET), st.characters(blacklist_categories=("Cs",))),
                 min_size=1, max_size=30).map("".join)


@settings(max_examples=examples(0.25), suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(_text, min_size=len(OFFERED), max_size=len(OFFERED)))
def test_replay_equals_the_library_on_generated_words(words):
    for tid, w in zip(OFFERED, words):
        tok = zoo.load(tid)
        assert replay(tok, w).final_ids == tok.encode_ids(w), (tid, w)


def test_gemma4_replays_bangla_merge_by_merge_from_characters():
    tok = zoo.load("gemma4")
    r = replay(tok, "বাজারঘরের")
    assert r.method == "tokenizers" and r.matches_library
    steps = r.steps()
    assert len(steps) >= 3 and all(s.kind == "merge" for s in steps)
    # it starts from the characters (9 code points, 3 bytes each) and never loses a byte on the way
    assert [len(b) for b in r.initial] == [3] * 9
    assert all(b"".join(s.pieces) == "বাজারঘরের".encode() for s in steps)
    # each step joins two neighbours of the step before
    before = list(r.initial)
    for s in steps:
        after = list(s.pieces)
        assert len(after) == len(before) - 1 and s.left + s.right in after
        before = after
    assert tuple(before) == tuple(tok.token_bytes(i) for i in r.final_ids)


def test_sentencepiece_bpe_follows_scores_and_falls_back_to_bytes():
    tok = zoo.load("llama2")
    r = replay(tok, "hello রাজশাহী 𝄞")
    assert r.method == "sentencepiece" and r.matches_library
    merges = [s for s in r.steps() if s.kind == "merge"]
    assert merges and all(s.score is not None for s in merges)
    assert merges[0].score == max(s.score for s in merges)  # the best-scored pair of the start merges first
    assert r.steps()[-1].kind == "byte-fallback"  # 𝄞 is not a Llama 2 piece: four <0xXX> bytes
    assert r.pieces[0].final[-4:] == tuple(bytes((b,)) for b in "𝄞".encode())


def test_clip_replays_with_its_end_of_word_pieces():
    tok = zoo.load("clip")
    r = replay(tok, "Hello Tokenization")
    assert r.matches_library and len(r.pieces) == 2  # lowercased, split at the space, </w> on each last char


def test_added_tokens_are_matched_before_merging():
    """GPT-NeoX's whitespace runs are added tokens: the library takes them whole, so does the replay."""
    tok = zoo.load("gpt-neox")
    r = replay(tok, "a" + " " * 8 + "b")
    assert r.matches_library and any(p.finish == "added" for p in r.pieces)


@pytest.mark.parametrize("recipe", ["bpe", "byte-gpt2", "byte-plain"])
def test_bpe_trained_on_the_train_page_replays(recipe):
    from core.analysis.recipes import train

    trained = train(recipe, [BN, HI, FA, UZ, EN] * 3, 300)
    tok = zoo.load_user_bytes(f"{trained.id}.tokenizer.json", trained.json.encode(), kind="hf-json")
    assert tok.replayable
    for w in WORDS[:60]:
        assert replay(tok, w).matches_library, w


@pytest.mark.parametrize("tokenizer_id", ["xlm-r", "bert-bge", "j2"])
def test_unigram_and_wordpiece_are_refused_with_the_reason(tokenizer_id):
    with pytest.raises(ReplayError, match="is not BPE"):
        replay(zoo.load(tokenizer_id), "রাজশাহী")


def test_each_engine_says_its_own_merge_order():
    """The page captions a replay with the engine's own sentences (it does not switch on the engine)."""
    from core.i18n import localize, translator

    seen = {}
    for tid in ("o200k_base", "gemma4", "mistral-spm-v1"):
        r = replay(zoo.load(tid), "hello রাজশাহী")
        assert r.order and r.units, tid
        assert localize(r.order, translator("bn")) != str(r.order)  # a translated sentence, not the msgid
        assert r.scored == any(s.score is not None for s in r.steps())  # scores shown only where merges have them
        seen[r.method] = r.order
    assert len(set(seen.values())) == 3  # one sentence per engine
