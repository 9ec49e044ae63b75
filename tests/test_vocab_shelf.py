"""Inside the vocabulary (core.analysis.vocab, core.text.scripts, replay.merge_tree), checked against the libraries.

The unreachable-token list is checked with each library called directly (tiktoken's ``Encoding``, a fresh
``tokenizers.Tokenizer`` from the file, a ``SentencePieceProcessor`` from the model proto): every token reported
fails ``encode(decode([id])) == [id]``, and a sample of the others passes it. The census is checked against a
per-token count written with ``regex``'s ``\\p{sc=...}``; merge trees against the merge list and the replay.
"""
from __future__ import annotations

import random

import pytest
import regex

from core.analysis import vocab as V
from core.pretrained import zoo
from core.pretrained.replay import merge_tree, replay
from core.text import limits
from core.text.scripts import MIXED, census_name, partial_scripts, script_of, text_scripts

SAMPLE = 400


def _tiktoken_library(tok):
    enc = tok.engine  # the real tiktoken.Encoding the adapter runs
    return (lambda text: enc.encode(text, disallowed_special=())), enc.decode


def _tokenizers_library(tok):
    import tokenizers

    lib = tokenizers.Tokenizer.from_str(tok.tokenizer_json)  # library defaults, not the adapter's settings
    return (lambda text: lib.encode(text, add_special_tokens=False).ids), \
        (lambda ids: lib.decode(ids, skip_special_tokens=False))


def _sentencepiece_library(tok):
    import sentencepiece as spm

    sp = spm.SentencePieceProcessor()
    sp.LoadFromSerializedProto(tok.model_proto())
    return sp.encode, sp.decode


LIBRARIES = {
    "cl100k_base": _tiktoken_library,
    "o200k_base": _tiktoken_library,
    "deepseek-coder": _tokenizers_library,
    "bert-bge": _tokenizers_library,
    "mistral-spm-v1": _sentencepiece_library,
}


@pytest.mark.parametrize("tid", list(LIBRARIES))
def test_unreachable_tokens_fail_the_library_round_trip_and_a_sample_of_the_others_pass(tid):
    tok = zoo.load(tid)
    encode, decode = LIBRARIES[tid](tok)
    report = V.unreachable(tok)
    reported = {t.id for t in report.tokens}
    assert report.checked > 0.9 * (tok.vocab_size - len(tok.special_ids) - 50)
    for t in report.tokens:
        assert encode(decode([t.id])) != [t.id], (tid, t)
        assert t.reason in V.UNREACHABLE_REASONS
    table = V.vocab_table(tok)
    others = [i for i in range(tok.vocab_size) if i not in reported and i not in tok.special_ids
              and table.data[i] is not None]
    for i in random.Random(7).sample(others, min(SAMPLE, len(others))):
        assert encode(decode([i])) == [i], (tid, i)


def test_unreachable_reasons_name_the_stage():
    o200k = V.unreachable(zoo.load("o200k_base"))
    reasons = {t.reason for t in o200k.tokens}
    assert reasons <= {"partial", "pretokenizer"}  # tiktoken looks a whole piece up: nothing else can fail
    assert "partial" in reasons and o200k.by_script()
    bert = V.unreachable(zoo.load("bert-bge"))
    assert bert.by_reason().get("word-internal", 0) > 1000  # the ## pieces
    tok = zoo.load("bert-bge")
    assert all(tok.is_continuation(t.id) for t in bert.tokens if t.reason == "word-internal")


@pytest.mark.parametrize("tid", ["cl100k_base", "bert-bge", "mistral-spm-v1"])
def test_census_equals_a_per_token_count_with_regex_scripts(tid):
    tok = zoo.load(tid)
    table = V.vocab_table(tok)
    census = V.census(tok)
    bengali = regex.compile(r"\p{sc=Bengali}")
    latin = regex.compile(r"\p{sc=Latin}")
    letters = regex.compile(r"[^\p{sc=Common}\p{sc=Inherited}]")
    want_bn = want_latin = 0
    for i, d in enumerate(table.data):
        if d is None or i in tok.special_ids or not table.valid[i]:
            continue
        text = d.decode("utf-8")
        own = letters.findall(text)
        if own and all(bengali.match(c) for c in own):
            want_bn += 1
        if own and all(latin.match(c) for c in own):
            want_latin += 1
    assert census.scripts.get("Bengali", 0) == want_bn
    assert census.scripts["Latin"] == want_latin
    whole = sum(r.tokens for r in census.rows)
    partial = sum(r.partial for r in census.rows) + census.partial_unknown
    assert whole + partial == census.tokens
    row = census.row("Latin")
    assert row is not None and len(row.longest) == V.LONGEST_PER_SCRIPT
    lengths = [len(table.texts[i]) for i in row.longest]
    assert lengths == sorted(lengths, reverse=True)
    assert lengths[0] == max(len(table.texts[i]) for i in range(table.size) if table.data[i] is not None
                             and table.valid[i] and i not in tok.special_ids and text_scripts(table.texts[i]) == ("Latin",))


def test_byte_level_census_counts_partial_bengali_tokens():
    census = V.census(zoo.load("o200k_base"))
    assert census.row("Bengali").partial > 0
    assert census.scripts["Bengali"] > 1000


def test_scripts_of_characters_and_partial_bytes():
    assert script_of("ক") == "Bengali" and script_of("ی") == "Arabic" and script_of("ж") == "Cyrillic"
    assert text_scripts("ab\u200c") == ("Latin",)
    assert text_scripts("aক") == ("Bengali", "Latin")
    assert partial_scripts("ক".encode()[:2]) == ("Bengali",)
    assert partial_scripts(b"\xa6\x95") == ()
    assert MIXED == "mixed"


@pytest.mark.parametrize("tid", ["o200k_base", "deepseek-coder", "mistral-spm-v1"])
def test_merge_trees_join_to_the_token_and_agree_with_the_replay(tid):
    tok = zoo.load(tid)
    table = V.vocab_table(tok)
    rng = random.Random(3)
    candidates = [i for i in range(tok.vocab_size) if table.data[i] is not None and table.valid[i]
                  and len(table.data[i]) > 2 and i not in tok.special_ids]
    checked = 0
    for i in rng.sample(candidates, 150):
        tree = merge_tree(tok, i)
        assert tree is not None and tree.data == table.data[i]
        assert b"".join(tree.leaves) == tree.data

        def walk(node):
            if node.left is None:
                return
            assert node.left.data + node.right.data == node.data
            if node.left.rank is not None and node.left.left is not None:
                # a part is made before the whole (SentencePiece: by score, so its id is no order)
                assert tid == "mistral-spm-v1" or node.left.rank < node.rank
            walk(node.left)
            walk(node.right)

        walk(tree)
        text = tok.decode_ids([i])  # SentencePiece: "▁Device" decodes to "Device" (the encoder adds the ▁ back)
        if tok.encode_ids(text) != [i] or tree.left is None:
            continue
        r = replay(tok, text)
        assert r.matches_library
        piece = r.pieces[-1]
        if piece.trace.final == (tree.data,) and piece.trace.steps:
            last = piece.trace.steps[-1]
            assert (last.left, last.right) == (tree.left.data, tree.right.data), (tid, i)
            checked += 1
    assert checked > 20


def test_hf_merge_tree_ranks_are_the_files_merge_list():
    import json

    tok = zoo.load("deepseek-coder")
    merges = json.loads(tok.tokenizer_json)["model"]["merges"]
    for i in (500, 5000, 20000):
        tree = merge_tree(tok, i)
        pair = merges[tree.rank]
        a, b = pair if isinstance(pair, list) else pair.split(" ", 1)
        assert (tok.token_to_id(a), tok.token_to_id(b)) == (tree.left.id, tree.right.id)


def test_lookup_names_bytes_text_and_model_facts():
    o200k = zoo.load("o200k_base")
    info = V.lookup(o200k, o200k.encode_ids("hello")[0])
    assert info.text == "hello" and info.hex == "68 65 6C 6C 6F" and info.model == "BPE" and info.merge_rank == info.id
    assert V.lookup(zoo.load("xlm-r"), 5000).score is not None
    bert = zoo.load("bert-bge")
    assert V.lookup(bert, bert.token_to_id("##ing")).continuation
    special = V.lookup(o200k, next(iter(o200k.special_ids)))
    assert special.special and special.tree is None
    with pytest.raises(V.VocabError, match="outside the vocabulary"):
        V.lookup(o200k, -1)
    cl100k = zoo.load("cl100k_base")
    with pytest.raises(V.VocabError, match="names no token"):
        V.lookup(cl100k, 100256)


def test_search_by_text_regex_bytes_and_id():
    tok = zoo.load("cl100k_base")
    table = V.vocab_table(tok)
    assert list(V.search(tok, "ing").ids) == [i for i, t in enumerate(table.texts) if "ing" in t]
    got = V.search(tok, r"^ing$", "regex").ids
    assert [table.texts[i] for i in got] == ["ing"]
    got = V.search(tok, "E0 A6", "bytes").ids
    assert got and all(b"\xe0\xa6" in table.data[i] for i in got)
    assert list(V.search(tok, "100", "id").ids) == [100]
    assert list(V.search(tok, "100256", "id").ids) == []
    everything = V.search(tok, "")
    assert len(everything.ids) == table.tokens
    last = (len(everything.ids) - 1) // 50 * 50
    assert list(everything.page(10**9, 50)) == list(everything.ids[last:])  # clamped to the last page
    with pytest.raises(V.VocabError, match="invalid regex"):
        V.search(tok, "(", "regex")
    with pytest.raises(V.VocabError, match="not hex"):
        V.search(tok, "zz", "bytes")
    with pytest.raises(V.VocabError, match="limit"):
        V.search(tok, "a" * (V.MAX_QUERY_CHARS + 1))


def test_a_catastrophic_regex_gives_up_with_a_message():
    tok = zoo.load("cl100k_base")
    with pytest.raises(limits.LimitError, match="catastrophic"):
        V.search(tok, r"(?:\S|\S\S|\s)*(?:\S|\s)*\x00", "regex")


def test_parse_ids_accepts_lists_and_refuses_garbage():
    assert V.parse_ids("1,2 3\n4") == [1, 2, 3, 4]
    assert V.parse_ids("[5, -6]") == [5, -6]
    assert V.parse_ids("") == []
    with pytest.raises(V.VocabError, match="item 2"):
        V.parse_ids("1, abc")
    with pytest.raises(V.VocabError, match="whole number"):
        V.parse_ids("1e400")
    with pytest.raises(V.VocabError, match="JSON list"):
        V.parse_ids("[1, 2")
    with pytest.raises(V.VocabError, match="at most"):
        V.parse_ids("1 " * (V.MAX_DECODE_IDS + 1))


def test_decode_names_unknown_ids_and_explains_the_round_trip():
    tok = zoo.load("o200k_base")
    d = V.decode(tok, [*tok.encode_ids("hi"), -5, 10**12, tok.vocab_size])
    assert d.text == "hi" and [d.ids[k] for k in d.unknown] == [-5, 10**12, tok.vocab_size]
    assert V.round_trip(tok, d).reason == "unknown"
    letters = [tok.encode_ids(c)[0] for c in "hello"]
    d = V.decode(tok, letters)
    rt = V.round_trip(tok, d)
    assert d.text == "hello" and not rt.same and rt.reason == "non-canonical" and rt.first_difference == 0
    raw = "ক".encode()
    first_byte = next(i for i in range(tok.vocab_size) if tok.has_token(i) and tok.token_bytes(i) == raw[:1])
    d = V.decode(tok, [first_byte])
    assert "\ufffd" in d.text and V.round_trip(tok, d).reason == "partial"
    same = V.decode(tok, tok.encode_ids("রাজশাহী"))
    assert V.round_trip(tok, same).same
    empty = V.decode(tok, [])
    assert empty.text == "" and list(empty.ids) == [] and list(empty.unknown) == []
    assert V.round_trip(tok, empty).same
    with pytest.raises(V.VocabError):
        V.decode(tok, [1] * (V.MAX_DECODE_IDS + 1))


def test_decode_checks_every_id_in_one_pass_as_the_id_by_id_check_does():
    import numpy as np

    tok = zoo.load("cl100k_base")
    ids = tok.encode_ids("রাজশাহী hello")
    hole = 100256  # between the last rank and the control tokens
    assert not tok.has_token(hole)
    for bad, where in [([hole], 1), ([-1], 0), ([10**30], 2), ([tok.vocab_size], 3)]:
        listed = ids[:where] + bad + ids[where:]
        d = V.decode(tok, listed)
        assert [d.ids[k] for k in d.unknown] == bad and d.text == "রাজশাহী hello"
    assert V.decode(tok, [np.int64(i) for i in ids]).text == "রাজশাহী hello"
    for bad in ([1.0], ["1"], [None]):
        with pytest.raises(V.VocabError, match="whole numbers"):
            V.decode(tok, ids + bad)
    assert V.decode(tok, ids).unknown == ()


@pytest.mark.parametrize("tid", ["cl100k_base", "o200k_base", "xlm-r", "gemma4"])
def test_a_checked_decode_succeeds_only_when_every_id_is_a_token(tid):
    tok = zoo.load(tid)
    ids = tok.encode_ids("রাজশাহী hello")
    got = tok.decode_checked(ids)
    if got is None:  # this library decodes unknown ids silently: the vocabulary table checks them instead
        assert tok.family not in ("tiktoken", "sentencepiece")
        return
    assert got == tok.decode_ids(ids)
    table = V.vocab_table(tok)
    holes = sorted(table.holes)[:3]
    for bad in [-1, tok.vocab_size, 10**12, *holes]:
        with pytest.raises(ValueError):
            tok.decode_checked([*ids, bad])
        d = V.decode(tok, [*ids, bad])
        assert d.unknown == (len(ids),) and d.text == got
    with pytest.raises(ValueError):
        tok.decode_checked([*ids, 2.0])


def test_unused_on_the_bundled_corpus():
    from core.analysis.tax import load_bundled

    tok = zoo.load("cl100k_base")
    texts = [c for row in load_bundled().rows for c in row]
    rep = V.unused(tok, texts, "bundled")
    assert rep.used + len(rep.unused) == V.vocab_table(tok).tokens - len(tok.special_ids)
    used = {i for t in texts for i in tok.encode_ids(t)}
    assert not used & set(rep.unused) and rep.used == len(used)
    # the count per script is each unused token's own script (a partial character: the script it is part of)
    by_script: dict[str, int] = {}
    for i in rep.unused:
        name = census_name(V.token_scripts(tok.token_bytes(i)))
        by_script[name] = by_script.get(name, 0) + 1
    assert rep.by_script == by_script and sum(by_script.values()) == len(rep.unused)


def _cli_json(capsys, *argv):
    import json

    from core.cli import main

    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_cli_vocab_and_decode_give_the_keys_the_pages_and_scripts_read(capsys):
    tok = zoo.load("o200k_base")
    hello = tok.encode_ids("hello")[0]
    got = _cli_json(capsys, "vocab", "--tokenizer", "o200k_base", "--id", str(hello), "--json")
    assert (got["id"], got["bytes"], got["text"]) == (hello, "68 65 6C 6C 6F", "hello")
    assert got["merge_tree"]["left"]["text"] + got["merge_tree"]["right"]["text"] == "hello"
    census = _cli_json(capsys, "vocab", "--tokenizer", "o200k_base", "--census", "--json")
    assert census["scripts"] == V.census(tok).scripts and census["scripts"]["Bengali"] > 0
    ids = tok.encode_ids("রাজশাহী")
    out = _cli_json(capsys, "decode", "--tokenizer", "o200k_base", "--ids", ",".join(map(str, ids)), "--json")
    assert out["text"] == "রাজশাহী" and [t["id"] for t in out["tokens"]] == ids
    assert "".join(t["bytes"].replace(" ", "") for t in out["tokens"]) == "রাজশাহী".encode().hex().upper()
    assert out["round_trip"]["same"]
    found = _cli_json(capsys, "vocab", "--tokenizer", "o200k_base", "--search", "রাজ", "--json")
    assert found["total"] == len(V.search(tok, "রাজ").ids) and all("রাজ" in t["text"] for t in found["tokens"])


def test_cli_refuses_bad_ids_with_one_line(capsys):
    from core.cli import main

    assert main(["decode", "--tokenizer", "o200k_base", "--ids", "1, x"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and err.count("\n") == 1
    assert main(["vocab", "--tokenizer", "o200k_base", "--id", "-1"]) == 2
    assert "outside the vocabulary" in capsys.readouterr().err


def test_reserved_placeholders_have_their_own_reason_and_both_tests_count_one_total():
    """Gemma 4 keeps 6,000-odd ``<unusedN>`` slots that no merge builds: not "an earlier merge shadows it"."""
    import re

    from core.analysis.tax import load_bundled

    tok = zoo.load("gemma4")
    report = V.unreachable(tok)
    table = V.vocab_table(tok)
    # by hand: every vocabulary entry spelled <unusedN>
    placeholders = {i for i, d in enumerate(table.data) if d and re.fullmatch(rb"<unused\d+>", d)}
    failing = {t.id: t.reason for t in report.tokens}
    assert placeholders and placeholders <= set(failing)
    assert {failing[i] for i in placeholders} == {"reserved"}
    assert report.reserved == sum(r == "reserved" for r in failing.values()) >= len(placeholders)
    assert report.strict == sum(not t.in_context for t in report.tokens) - report.reserved
    # one total on the page: the tokens checked for reachability are the tokens counted as used or unused
    rep = V.unused(tok, [c for row in load_bundled().rows for c in row], "bundled")
    assert rep.total == report.checked == rep.used + len(rep.unused)


def test_the_round_trip_note_names_a_control_token_encoded_as_text():
    import inspect
    import re

    from tiktoken_ext import openai_public

    # the library's own id for <|endoftext|>, read from its cl100k declaration (offline: no ranks download)
    eot = int(re.search(r"ENDOFTEXT: (\d+)", inspect.getsource(openai_public.cl100k_base)).group(1))
    tok = zoo.load("cl100k_base")
    trip = V.round_trip(tok, V.decode(tok, [*tok.encode_ids("hi"), eot]))
    assert trip.reason == "special" and trip.controls == (("<|endoftext|>", eot),)
    assert f"<|endoftext|> ({eot})" in str(trip.message)
    assert eot not in trip.ids  # encoded again, the spelling is plain text
