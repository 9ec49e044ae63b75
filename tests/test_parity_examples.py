"""Each parity failure once found, as a named test against the reference library.

The libraries are what the models run (tiktoken, llama-models,
mistral-common, tokenizers, sentencepiece): each test checks our engine
against one of them on the example that showed it.
"""
from __future__ import annotations

import pytest

from core.pipeline.pattern import regex_pieces
from core.pretrained import zoo
from core.pretrained.replay import replay

from .helpers import shown
from .parity_refs import encoder, special_table

TIKTOKEN_ZOO = ["cl100k_base", "o200k_base", "llama3", "llama4", "tekken", "tekken_240718"]


# ---------------------------------------------------------------- special-token tables


@pytest.mark.parametrize("tokenizer_id", [i for i in zoo.PRETRAINED_IDS if zoo.ENTRIES[i].shelf is None])
def test_special_token_table_equals_the_librarys(tokenizer_id):  # shelf entries: tests/test_shelf.py, against their vendors
    assert zoo.load(tokenizer_id).specials == special_table(tokenizer_id)


def test_llama3_image_token_is_recognised_and_flagged():
    tok = zoo.load("llama3")
    ref = encoder("llama3", allow_special=True)
    text = "look: <|image|> and <|python_tag|>"
    assert tok.encode_ids(text, allow_special=True) == ref(text)
    assert tok.specials["<|image|>"] == 128256 - 256 + 11
    hits = tok.special_hits(text)
    assert [h.text for h in hits] == ["<|image|>", "<|python_tag|>"]
    # typed as text by default: encoded as plain text, as the library does without allowed_special
    assert tok.encode_ids(text) == encoder("llama3")(text)
    assert tok.specials["<|image|>"] not in tok.encode_ids(text)


# ---------------------------------------------------------------- long runs


@pytest.mark.parametrize("tokenizer_id", ["llama3", "llama4"])
@pytest.mark.parametrize("text", [" " * 30_000, "a" * 60_001 + " " * 25_000 + "b", "x " * 5 + "\n" * 50_000 + "y",
                                  # whitespace as str.isspace has it: ideographic space, NEL, the C0 separators
                                  "\u3000" * 25_001 + "\x1c\x85" * 13_000 + "z" * 25_001 + "\u0bcd" * 3 + " k" * 9],
                         ids=["30k-spaces", "long-letters-and-spaces", "newlines", "unicode-whitespace"])
def test_llama_long_runs_are_chunked_like_the_library(tokenizer_id, text):
    ids = zoo.load(tokenizer_id).encode_ids(text)
    assert ids == encoder(tokenizer_id)(text)
    table = zoo.load(tokenizer_id).table(text)
    assert table.ids.tolist() == ids


def test_llama3_30000_spaces_is_236_tokens():
    assert len(zoo.load("llama3").encode_ids(" " * 30_000)) == len(encoder("llama3")(" " * 30_000)) == 236


# ---------------------------------------------------------------- Unicode 17 letters


UNICODE17 = ["\U00016ea5'U", "a\U00010940b", "\U00010940'S \U00016ea5x", "x\U00016ea5\U00016ea5 'll"]


def test_unicode17_letters_cut_differently_somewhere():
    """The examples do exercise the difference (else the replay test could not fail)."""
    tok = zoo.load("cl100k_base")
    for text in UNICODE17:
        assert [(p.start, p.end) for p in regex_pieces(text, tok.pattern)] != [
            (p.start, p.end) for p in replay(tok, text).pieces], text


@pytest.mark.parametrize("tokenizer_id", TIKTOKEN_ZOO)
@pytest.mark.parametrize("text", UNICODE17)
def test_replay_follows_the_engine_on_unicode17_letters(tokenizer_id, text):
    tok = zoo.load(tokenizer_id)
    r = replay(tok, text)
    assert tok.encode_ids(text) == encoder(tokenizer_id)(text)
    assert r.matches_library and r.final_ids == encoder(tokenizer_id)(text)
    unicode17 = [(p.start, p.end) for p in regex_pieces(text, tok.pattern)]
    engine = [(p.start, p.end) for p in r.pieces]
    assert bool(r.notes) == (unicode17 != engine), "the view says where Unicode 17.0 would cut otherwise"
    for _, note in r.piece_notes():
        assert note.char in text and "newer than" in note.reason and f"U+{ord(note.char):04X}" in note.reason


def test_replay_cli_no_longer_disagrees(capsys):
    from core.cli import main

    for tokenizer_id in TIKTOKEN_ZOO:
        assert main(["replay", "--tokenizer", tokenizer_id, "--text", "\U00016ea5'U", "--json"]) in (0, None)
    capsys.readouterr()


def test_pretokenizers_page_data_follows_the_engine():
    from core.analysis import pretok_compare as pc

    results, _ = pc.compare("\U00016ea5'U", ["cl100k", "o200k", "llama3", "gpt2"])
    for r in results:
        assert [p.text for p in r.pieces] == ["\U00016ea5'", "U"], r.name
        assert len(r.engine_notes) == 1 and r.engine_notes[0].offset == 0
        assert "the model splits it as" in r.engine_notes[0].message


# ---------------------------------------------------------------- the views say so at the token


def _open(path: str, query: dict[str, str]):
    from tests.test_pages_inspect import open_page

    return open_page(path, query)


def test_replay_page_notes_the_unicode17_letter_at_its_piece():
    at = _open("replay", {"tok": "cl100k_base", "text": "\U00016ea5'U"})
    notes = [shown(w.value) for w in at.warning if "U+16EA5" in shown(w.value)]
    assert notes and "At piece 1" in notes[0] and "newer than" in notes[0]
    assert any("identical" in m.value for m in at.markdown)


def test_pretokenizers_page_notes_the_unicode17_letter():
    at = _open("pretokenizers", {"text": "\U00016ea5'U", "patterns": "cl100k,o200k,whitespace"})
    notes = [shown(w.value) for w in at.warning if "U+16EA5" in shown(w.value)]
    assert len(notes) == 2 and all("At character 1" in n and "the model splits it as" in n for n in notes)


def test_inspector_says_where_the_engine_cuts_otherwise():
    from core.analysis.inspect import explain

    view = explain(zoo.load("cl100k_base"), "\U00016ea5'U")
    pre = next(layer for layer in view.layers if layer.name == "pre-tokenizer")
    assert any(r.kind == "engine" and "U+16EA5" in r.text for r in pre.reasons)


def test_replay_cli_json_carries_the_notes(capsys):
    import json

    from core.cli import main

    main(["replay", "--tokenizer", "llama3", "--text", "a\U00010940b", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert out["notes"] and "U+10940" in out["notes"][0]["message"]
    assert out["final_ids"] == encoder("llama3")("a\U00010940b")


def test_pretokenize_cli_json_carries_the_notes(capsys):
    import json

    from core.cli import main

    main(["pretokenize", "--pattern", "o200k", "--text", "\U00016ea5'U", "--json"])
    out = json.loads(capsys.readouterr().out)["patterns"][0]
    assert [p["text"] for p in out["pieces"]] == ["\U00016ea5'", "U"]
    assert out["engine_notes"][0]["offset"] == 0
