"""The Chat format page through AppTest: what the tables and warnings say (issue 35)."""
from __future__ import annotations

import html
import json

from core.pretrained import gguf, zoo
from core.pretrained.chat_templates import TEMPLATES
from core.pretrained.locate import entry_path
from tests.helpers import open_page, shown

#: A tool whose keys are not in alphabetical order ("type" before "function", "name" before "description").
TOOL = [{"type": "function", "function": {"name": "get_price", "description": "Price of an item",
                                           "parameters": {"type": "object", "required": ["item"],
                                                          "properties": {"item": {"type": "string"}}}}}]


def _prompts(at) -> str:
    return html.unescape("\n".join(h.proto.body for h in at.get("html")))


def test_tool_definitions_keep_the_users_key_order():
    at = open_page("chat_format", {"sample": "en", "tpl": "llama-3.2", "gen": "1"},
                   state={"chat_tools": json.dumps(TOOL)})
    prompt = _prompts(at)
    # Llama 3.2 writes each tool with tojson(indent=4), as transformers does: json.dumps in the order given
    assert json.dumps(TOOL[0], indent=4) in prompt
    assert json.dumps(TOOL[0], indent=4, sort_keys=True) not in prompt


def test_the_injection_warning_names_the_token_and_the_turn_in_plain_words():
    at = open_page("chat_format", {"sample": "inj", "tpl": "llama-3.2", "gen": "1"})
    [warning] = [shown(w.value) for w in at.warning]
    assert "Turn 2 (user)" in warning and "<|eot_id|>" in warning and "<|start_header_id|>" in warning
    assert "apply_chat_template" not in warning and "parsed everywhere" not in warning


def test_no_raw_none_without_the_tokenizer_and_gemma_4_has_its_context_window():
    at = open_page("chat_format", {"sample": "en", "tpl": "phi-3.5,gemma-4", "gen": "1"})
    table = at.dataframe[1].value  # (the first is the turn editor)
    cells = [str(v) for v in table.to_numpy().ravel()]
    assert not [c for c in cells if c in ("None", "nan", "<NA>", "")], cells
    # the window the model's own file states (llama.cpp's Gemma 4 vocabulary carries the model's metadata)
    entry = zoo.ENTRIES["gemma4"]
    meta = gguf.read_metadata(entry_path(entry).read_bytes())
    assert TEMPLATES["gemma-4"].context == meta["gemma4.context_length"]
    gemma = table[table.iloc[:, 0].str.startswith("Google")].iloc[0]
    assert gemma.iloc[5] == f"{meta['gemma4.context_length']:,}"


def test_the_turn_editor_and_the_selector_speak_the_interface_language():
    at = open_page("chat_format", {"sample": "hi", "tpl": "phi-3.5", "lang": "hi"})
    editor = json.loads(at.dataframe[0].proto.columns)
    role = editor["role"]
    # a new row is a user turn with an empty message: no grid "None" / "Select…" / "Please fill out this cell."
    assert role["default"] == "user" and editor["content"]["default"] == ""
    labels = {o["value"]: o["label"] for o in role["type_config"]["options"]}
    assert labels["user"] == "उपयोगकर्ता" and labels["assistant"] == "सहायक"  # the catalog's words
    [templates] = [m for m in at.multiselect if m.key == "chat_tpl"]
    assert templates.proto.placeholder == "चुनें…"
