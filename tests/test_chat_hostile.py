"""Chat format against hostile conversations and files (issue 37).

- Finding each turn's content in the prompt is linear: a template that drops or rewrites a role (Gemma 4 drops
  ``tool``, Qwen drops ``developer``) made the old search rescan every occurrence for every turn (past 60 s in the
  CLI, 200 s on the page); the search count is now at most four per turn, and the whole analysis runs under a
  deadline.
- A ``chat_template`` list whose ``name`` is a list or dict, tools JSON or messages with a lone surrogate, a
  template that prints one, terminal escapes from a template's ``raise_exception`` or from a message, and a
  5,000-digit integer each end in one clear sentence.
"""
from __future__ import annotations

import json
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.analysis import chat as CH
from core.pretrained.chat_render import ChatTemplateError, render, render_untrusted
from core.pretrained.chat_templates import get_template

HEAD = {"system": "<s>", "developer": "<d>", "user": "<u>", "assistant": "<a>", "tool": "<t>"}


def _render(messages: list[dict[str, str]], dropped: frozenset[str], rewritten: frozenset[str]) -> str:
    """A toy template: each turn as ``<role>content</>``; ``dropped`` roles left out, ``rewritten`` ones changed."""
    out = []
    for m in messages:
        if m["role"] in dropped:
            continue
        body = m["content"].upper() + "!" if m["role"] in rewritten else m["content"]
        out.append(f"{HEAD[m['role']]}{body}</>")
    return "".join(out)


@pytest.fixture()
def count_finds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = CH._find_from

    def counted(text: str, needle: str, start: int) -> int:
        calls.append(len(text) - start)
        return real(text, needle, start)

    monkeypatch.setattr(CH, "_find_from", counted)
    return calls


_turn = st.tuples(st.sampled_from(CH.ROLES), st.sampled_from(["z", "zz", "z" * 50, "hi", "<think>x</think>", " z ",
                                                              "a b"]))


@given(st.lists(_turn, min_size=1, max_size=120), st.frozensets(st.sampled_from(CH.ROLES), max_size=3),
       st.frozensets(st.sampled_from(CH.ROLES), max_size=2))
def test_turn_matching_is_linear_with_dropped_and_rewritten_roles(turns, dropped, rewritten) -> None:
    """At most four searches per turn, whatever the prompt repeats, and the spans are disjoint, in order, and each
    holds its turn's content."""
    calls: list[int] = []
    real = CH._find_from

    def counted(text: str, needle: str, start: int) -> int:
        calls.append(1)
        return real(text, needle, start)

    messages = [{"role": r, "content": c} for r, c in turns]
    text = _render(messages, dropped, rewritten)
    CH._find_from, saved = counted, CH._find_from
    try:
        spans = CH.locate_contents(text, messages)
    finally:
        CH._find_from = saved
    assert len(calls) <= 4 * len(messages)
    for (a, b, k), nxt in zip(spans, spans[1:] + [(len(text), len(text), -1)]):
        assert b <= nxt[0]
        assert text[a:b] in (messages[k]["content"], messages[k]["content"].strip())


@given(st.lists(_turn, min_size=1, max_size=60))
def test_every_turn_is_found_where_a_plain_template_put_it(turns) -> None:
    """Correct on normal chats: a template that keeps every turn as typed gets every turn, at its place."""
    messages = [{"role": r, "content": c} for r, c in turns]
    text, expected = "", []
    for k, m in enumerate(messages):
        text += HEAD[m["role"]]
        expected.append((len(text), len(text) + len(m["content"]), k))
        text += m["content"] + "</>"
    spans = CH.locate_contents(text, messages)
    assert spans == expected


def test_a_moved_system_prompt_is_still_found() -> None:
    """Mistral puts the system prompt into the last user turn: the second pass finds the turns before it."""
    messages = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"},
                {"role": "assistant", "content": "yo"}, {"role": "user", "content": "bye"}]
    text = "[INST] hi [/INST] yo</s>[INST] be brief\n\nbye [/INST]"
    assert [k for _a, _b, k in CH.locate_contents(text, messages)] == [1, 2, 0, 3]


def test_the_issue_chat_ends_quickly_with_gemma_4(count_finds: list[int]) -> None:
    """19 user turns of 10,000 "z" then 181 tool turns of "z": Gemma 4 drops tool turns (over 60 s before, when
    every message rescanned the prompt). The work is counted, not timed: a bounded number of searches, each over
    at most the prompt (bench/limits.py times it)."""
    messages = CH.parse_conversation([{"role": "user", "content": "z" * 10_000}] * 19
                                     + [{"role": "tool", "content": "z"}] * 181)
    result = CH.chat_analysis(get_template("gemma-4"), messages, tok=None)
    assert sum(t.found for t in result.turns) == 19
    prompt = len(result.text)
    assert len(count_finds) <= 4 * len(messages)
    assert sum(count_finds) <= 4 * len(messages) * prompt


def test_rescans_are_gone_on_a_long_repetitive_prompt(count_finds: list[int]) -> None:
    messages = [{"role": "user", "content": "z" * 10_000}] * 19 + [{"role": "tool", "content": "z"}] * 181
    text = _render(messages, frozenset({"tool"}), frozenset())
    spans = CH.locate_contents(text, messages)
    assert len(spans) == 19 and len(count_finds) <= 4 * len(messages)
    assert sum(count_finds) <= 4 * len(messages) * len(text)


def test_the_analysis_stops_at_its_deadline() -> None:
    messages = [{"role": "user", "content": "hi"}]
    with pytest.raises(CH.ChatTimeoutError, match="longer than"):
        CH.analyze_rendered("<u>hi</>", messages, None, deadline=time.monotonic() - 1)
    assert CH.analyze_rendered("<u>hi</>", messages, None).spans == ((3, 5, 0),)


@pytest.mark.parametrize("name", [["a"], {"a": 1}, 5])
def test_a_chat_template_list_with_a_strange_name_is_refused(name: object) -> None:
    cfg = {"chat_template": [{"name": name, "template": "{{ messages }}"}]}
    with pytest.raises(CH.ChatInputError, match="is not a string"):
        CH.template_from_upload("tokenizer_config.json", json.dumps(cfg).encode())
    ok = {"chat_template": [{"name": "tool_use", "template": "T"}, {"name": "default", "template": "D"}]}
    assert CH.template_from_upload("tokenizer_config.json", json.dumps(ok).encode()).source == "D"


def test_tools_or_messages_with_a_lone_surrogate_are_refused() -> None:
    with pytest.raises(CH.ChatInputError, match="lone surrogate"):
        CH.parse_tools('[{"type": "function", "function": {"name": "f\\ud800"}}]')
    with pytest.raises(CH.ChatInputError, match="lone surrogate"):
        CH.parse_tools('[{"\\udc00": 1}]')
    with pytest.raises(CH.ChatInputError, match="lone surrogate"):
        CH.parse_conversation([{"role": "user", "content": "hi", "name": "\ud800"}])
    assert CH.parse_tools('[{"type": "function", "function": {"name": "f"}}]')


@pytest.mark.parametrize("run", [render, render_untrusted])
def test_a_template_that_prints_a_lone_surrogate_says_so(run) -> None:
    with pytest.raises(ChatTemplateError, match="not valid Unicode"):
        run('{{ "ok \\ud800" }}', [{"role": "user", "content": "hi"}])


@pytest.mark.parametrize("run", [render, render_untrusted])
def test_terminal_escapes_in_a_templates_refusal_are_escaped(run) -> None:
    with pytest.raises(ChatTemplateError) as info:
        run('{{ raise_exception("\\x1b]0;pwned\\x07\\x1b[2J boom") }}', [{"role": "user", "content": "hi"}])
    text = str(info.value)
    assert "\x1b" not in text and "\x07" not in text and "\\x1b]0;pwned\\x07\\x1b[2J boom" in text


def test_the_cli_table_shows_escapes_in_the_prompt() -> None:
    from core.cli.chat import _table

    out = _table({"text": "hi \x1b]0;t\x07\x1b[2J\x9b\n\tok", "ids": None, "needs": "x"})
    assert "\x1b" not in out and "\x9b" not in out and "\\x1b]0;t\\x07\\x1b[2J\\x9b\n\tok" in out


def test_a_5000_digit_integer_in_json_is_one_clear_sentence() -> None:
    from core.text.limits import LimitError, read_json

    with pytest.raises(LimitError, match="a number in m.json has more than 4,300 digits"):
        read_json('[{"n": ' + "9" * 5000 + "}]", "m.json")
    assert read_json('{"n": ' + "9" * 4000 + "}", "m.json")["n"] > 0


# -- other bad input of issue 37 ---------------------------------------------------------------------------------


@pytest.mark.parametrize("change, message", [
    (lambda m: m["model"]["vocab"].__setitem__(1, ["a", float("nan")]), "score nan; scores must be finite"),
    (lambda m: m["model"]["vocab"].__setitem__(1, ["a", float("-inf")]), "score -inf; scores must be finite"),
    (lambda m: m["model"].__setitem__("unk_id", 0.5), "unk_id 0.5 is not a whole number"),
    (lambda m: m["model"].__setitem__("unk_id", True), "unk_id True is not a whole number"),
])
def test_unigram_refuses_a_nan_score_and_a_non_integer_unknown_id(change, message) -> None:
    from core.models.unigram import UnigramError, load_tokenizer_json

    model = {"model": {"type": "Unigram", "unk_id": 0, "vocab": [["<unk>", 0.0], ["a", -1.0], ["b", -2.0]]}}
    assert load_tokenizer_json(json.dumps(model)).unk_id == 0
    change(model)
    with pytest.raises(UnigramError, match=message):
        load_tokenizer_json(json.dumps(model))


def test_an_id_with_surrounding_whitespace_means_the_same_everywhere() -> None:
    """One resolver: `` bytes\\t`` names ``bytes`` for tokenize and replay as for inspect and special-tokens."""
    from core.pretrained import zoo

    assert zoo.resolve(" bytes\t").id == zoo.resolve("bytes").id


def test_an_output_in_a_missing_folder_is_refused(tmp_path) -> None:
    from core.cli.common import CliError, write_atomic

    with pytest.raises(CliError, match="the folder .*missing/deeper does not exist"):
        write_atomic(tmp_path / "missing" / "deeper" / "t.json", "{}")
    assert not (tmp_path / "missing").exists()
    write_atomic(tmp_path / "t.json", "{}")
    assert (tmp_path / "t.json").read_text() == "{}"
