"""Chat format against the vendors' own encoders: mistral-common for Mistral Nemo, openai-harmony for gpt-oss,
llama-models' ChatFormat for Llama 3.x (where Meta's code and the published template differ, the test says where)."""
from __future__ import annotations

import datetime
import gzip
from pathlib import Path

import pytest

from core.analysis import chat
from core.assets import chat_samples
from core.pretrained import zoo
from core.pretrained.chat_templates import get_template

SAMPLES = chat_samples()


def _ours(tid: str, messages, gen: bool) -> chat.ChatAnalysis:
    tmpl = get_template(tid)
    return chat.chat_analysis(tmpl, messages, add_generation_prompt=gen, tok=chat.load_template_tokenizer(tmpl))


@pytest.mark.parametrize("lang", list(SAMPLES))
def test_mistral_nemo_equals_mistral_common(lang):
    from mistral_common.protocol.instruct.messages import AssistantMessage, SystemMessage, UserMessage
    from mistral_common.protocol.instruct.request import ChatCompletionRequest
    from mistral_common.tokens.tokenizers.mistral import MistralTokenizer

    kinds = {"system": SystemMessage, "user": UserMessage, "assistant": AssistantMessage}
    ref = MistralTokenizer.from_file(str(zoo.entry_path(zoo.get_entry("tekken"))))
    conv = SAMPLES[lang]
    want = ref.encode_chat_completion(ChatCompletionRequest(
        messages=[kinds[m["role"]](content=m["content"]) for m in conv])).tokens
    assert _ours("mistral-nemo", conv, False).safe.ids == want


@pytest.fixture(scope="module")
def harmony(tmp_path_factory):
    import os

    # openai-harmony reads o200k_base from TIKTOKEN_ENCODINGS_BASE (else it downloads it): the shelf's file
    d: Path = tmp_path_factory.mktemp("harmony")
    (d / "o200k_base.tiktoken").write_bytes(gzip.decompress(zoo.entry_path(zoo.get_entry("o200k_base")).read_bytes()))
    old = os.environ.get("TIKTOKEN_ENCODINGS_BASE")
    os.environ["TIKTOKEN_ENCODINGS_BASE"] = str(d)
    from openai_harmony import HarmonyEncodingName, load_harmony_encoding

    yield load_harmony_encoding(HarmonyEncodingName.HARMONY_GPT_OSS)
    if old is None:
        os.environ.pop("TIKTOKEN_ENCODINGS_BASE", None)
    else:
        os.environ["TIKTOKEN_ENCODINGS_BASE"] = old


@pytest.mark.parametrize("lang", list(SAMPLES))
def test_gpt_oss_equals_openai_harmony(harmony, lang):
    from openai_harmony import Conversation, DeveloperContent, Message, Role, SystemContent

    conv = SAMPLES[lang]
    today = datetime.date.today().isoformat()
    msgs = [Message.from_role_and_content(Role.SYSTEM, SystemContent.new().with_conversation_start_date(today)),
            Message.from_role_and_content(Role.DEVELOPER, DeveloperContent.new().with_instructions(conv[0]["content"]))]
    for m in conv[1:]:
        msg = Message.from_role_and_content(Role.USER if m["role"] == "user" else Role.ASSISTANT, m["content"])
        msgs.append(msg.with_channel("final") if m["role"] == "assistant" else msg)
    want = list(harmony.render_conversation_for_completion(Conversation.from_messages(msgs), Role.ASSISTANT))
    ours = _ours("gpt-oss", conv, True)
    tok = zoo.load("o200k_harmony")
    # the same ids from the first user turn to the end (the generation prompt included)
    tail = tok.encode_ids(ours.text[ours.text.index("<|start|>user"):], allow_special=True)
    assert ours.safe.ids[-len(tail):] == tail == want[-len(tail):]
    # before it, one difference: the published template ends the developer instructions with a blank line,
    # openai-harmony does not
    assert tok.decode_ids(want) == ours.text.replace(conv[0]["content"] + "\n\n<|end|>", conv[0]["content"] + "<|end|>")
    assert ours.safe.ids != want


@pytest.mark.parametrize("lang", list(SAMPLES))
def test_llama_differs_from_meta_only_by_the_system_preamble(lang):
    from llama_models.datatypes import RawMessage
    from llama_models.llama3.chat_format import ChatFormat
    from llama_models.llama3.tokenizer import Tokenizer

    fmt = ChatFormat(Tokenizer(zoo.entry_path(zoo.get_entry("llama3"))))
    conv = SAMPLES[lang]
    want = fmt.encode_dialog_prompt([RawMessage(role=m["role"], content=m["content"]) for m in conv]).tokens
    for tid in ("llama-3.1", "llama-3.2", "llama-3.3"):
        ours = _ours(tid, conv, True)
        tok = zoo.load("llama3")
        # identical from the first user turn to the end (the generation prompt included)
        first_user = ours.text.index("<|start_header_id|>user")
        tail = tok.encode_ids(ours.text[first_user:], allow_special=True)
        assert ours.safe.ids[-len(tail):] == tail and want[-len(tail):] == tail, tid
        # the difference is the system turn: the template writes a knowledge-date preamble Meta's code does not
        preamble = ours.text[:first_user]
        assert "Cutting Knowledge Date: December 2023" in preamble
        assert "Cutting Knowledge Date" not in tok.decode_ids(want)
