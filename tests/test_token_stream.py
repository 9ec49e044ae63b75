"""A chat's streamed answer: each token printed alone against a streamer that holds unfinished bytes back."""
from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from core.analysis.token_stream import REPLACEMENT, token_stream
from core.analysis.vocab import decode
from core.cli import main
from core.pretrained import zoo
from core.text.boundaries import is_valid_utf8
from tests.helpers import examples

TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60)


@settings(max_examples=examples(20), deadline=None)  # 2,000 texts in CI, as the differential tests
@given(TEXT)
def test_the_streamer_prints_the_text_once_and_never_half_a_character(text: str) -> None:
    tok = zoo.load("cl100k_base")
    s = token_stream(decode(tok, tok.encode_ids(text)))
    assert s.text == text == "".join(step.printed for step in s.steps) and s.tail == ""
    for step in s.steps:
        assert REPLACEMENT not in step.printed or REPLACEMENT in text
        assert step.alone == step.data.decode("utf-8", errors="replace")
        assert len(step.held) < 4 and (not step.held or step.held[0] >= 0xC0)  # the start of one character
    # a token prints U+FFFD alone exactly when its bytes are not whole characters
    assert s.broken == sum(1 for step in s.steps if not is_valid_utf8(step.data))


def test_ids_that_end_inside_a_character_leave_a_tail_and_unknown_ids_are_skipped() -> None:
    tok = zoo.load("cl100k_base")
    ids = tok.encode_ids("আ")  # E0 A6 + 86
    s = token_stream(decode(tok, [ids[0], -5]))
    assert [step.id for step in s.steps] == [ids[0]] and s.tail == REPLACEMENT and s.text == REPLACEMENT
    assert s.waits == 1 and s.steps[0].held == b"\xe0\xa6"


def test_whole_letter_tokens_stream_as_they_decode() -> None:
    tok = zoo.load("gemma4")
    s = token_stream(decode(tok, tok.encode_ids("আমি বাজারে যাব")))
    assert s.broken == 0 and s.waits == 0 and s.naive_text == s.text


def test_cli_decode_stream(capsys) -> None:
    tok = zoo.load("cl100k_base")
    ids = ",".join(map(str, tok.encode_ids("আমি")))
    assert main(["decode", "--tokenizer", "cl100k_base", "--ids", ids, "--stream", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    stream = out["stream"]
    assert stream["text"] == out["text"] == "আমি" and stream["broken"] == 4 and stream["waits"] == 2
    assert [s["printed"] for s in stream["steps"]] == ["", "আ", "", "ম", "ি"]
    assert stream["steps"][0]["held"] == "E0 A6" and stream["steps"][0]["broken"]
