"""Shelf entries against their vendors' own code on text as people write it.

The generated texts of the other parity tests are built from NFC pieces, so a
vendor that normalizes first (Qwen's QwenTokenizer applies NFC) looked equal
to us on them. These texts are the forms real text comes in: the same word
spelt decomposed and precomposed, nukta letters typed as two code points,
two-part vowel signs typed as their halves, ZWJ/ZWNJ, no-break and other
spaces, compatibility characters, mixed scripts in one line, and whole
paragraphs, in the five languages of the app.
"""
from __future__ import annotations

import hashlib
import importlib
import re
import sys
import types
import unicodedata

import pytest

from core.pretrained import shelf, zoo
from core.pretrained.catalog import ENTRIES
from core.pretrained.locate import entry_path
from tests.helpers import load_vendor_module

#: Each form twice where it has two spellings: as typed (often not NFC) and its NFC.
FORMS = {
    "bn two-part vowel signs typed as halves": "ক\u09c7\u09be ক\u09c7\u09d7 বো বৌ",  # ো = ে + া, ৌ = ে + ৗ
    "bn nukta typed apart": "ড\u09bc ঢ\u09bc য\u09bc ড় ঢ় য়",
    "bn khanda ta and its old spelling": "ৎ ত\u09cd\u200d",
    "bn conjunct with ZWNJ and ZWJ": "ক্\u200cষ ক্\u200dষ ক্ষ র\u200d্য র‍্যাব",
    "bn sentence decomposed": unicodedata.normalize("NFD", "আপনার অর্ডার আগামীকাল বিকেলে রাজশাহী পৌঁছাবে।"),
    "hi nukta typed apart": "फ\u093cाइल क\u093cलम ज\u093cरूर फ़ाइल क़लम ज़रूर",
    "hi chandrabindu, visarga, ZWJ half forms": "हँसी दुःख क्\u200dष र\u200d्",
    "hi sentence decomposed": unicodedata.normalize("NFD", "क़ानून की ग़ज़ल पढ़ो, फ़िल्म देखो।"),
    "fa ZWNJ and Arabic forms": "می\u200cروم كتاب يك ي ك ى  ۱۲۳ ١٢٣",
    "fa hamza typed apart": "\u0627\u0654 \u0648\u0654 \u064a\u0654 أ ؤ ئ",
    "fa presentation forms": "ﻻ ﺑﺴﻢ ﷲ",
    "uz apostrophes": "Oʻzbekiston O‘zbekiston O'zbekiston Oʼzbekiston gʻalla",
    "uz cyrillic with combining breve": "У\u0306збекистон Ўзбекистон",
    "en accents decomposed": "cafe\u0301 café nai\u0308ve naïve Å \u212b",
    "spaces": "a\u00a0b\u2009c\u202fd\u3000e\u2002f\u200bg  h\t\ti",
    "compatibility characters": "ﬁle ① ½ ™ Ⅻ ｆｕｌｌ ㎏ ²",
    "mixed scripts in one line": "Order #১২৩ from ঢাকা → दिल्ली via تهران, Oʻzbekiston 😀‍🔥 ok",
    "paragraph": ("আমাদের দোকানে নতুন শাড়ি এসেছে।\n\nक्या आप कल आएँगे?\r\nفردا می‌آیم.\n"
                  "Ertaga keling.  The end.\n"),
}
TEXTS = [t for form in FORMS.values() for t in dict.fromkeys([form, unicodedata.normalize("NFC", form)])]


def test_the_forms_are_what_they_claim():
    joined = "".join(FORMS.values())
    assert not unicodedata.is_normalized("NFC", joined)
    for probe in ("\u09be", "\u09bc", "\u093c", "\u200c", "\u200d", "\u00a0", "\u3000", "ﬁ", "①", "\u0654", "ʻ", "\r\n"):
        assert probe in joined, probe


def _qwen(tmp):
    entry = ENTRIES["qwen"]
    pkg = tmp / "qwen_forms_vendor"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for name in ("qwen_tokenizer.py", "tokenizer_base.py"):
        (pkg / name).write_bytes(shelf.read_member(entry, f"dashscope/tokenizers/{name}"))
    (tmp / "qwen.tiktoken").write_bytes(shelf.read_member(entry))
    sys.path.insert(0, str(tmp))
    try:
        vendor = importlib.import_module("qwen_forms_vendor.qwen_tokenizer").QwenTokenizer(str(tmp / "qwen.tiktoken"))
    finally:
        sys.path.remove(str(tmp))
    return lambda s: vendor.encode(s, allowed_special=set(), disallowed_special=())


def _whisper(tmp):
    entry = ENTRIES["whisper"]
    (tmp / "assets").mkdir()
    (tmp / "assets" / "multilingual.tiktoken").write_bytes(shelf.read_member(entry))
    enc = load_vendor_module(tmp / "tokenizer.py", shelf.read_member(entry, "whisper/tokenizer.py")
                             ).get_encoding("multilingual")
    return lambda s: enc.encode(s, disallowed_special=())


def _tiktoken_registry(tmp, tid):
    import os

    import tiktoken

    url = f"https://openaipublic.blob.core.windows.net/encodings/{tid}.tiktoken"
    (tmp / hashlib.sha1(url.encode()).hexdigest()).write_bytes(shelf.read_member(ENTRIES[tid]))
    old = os.environ.get("TIKTOKEN_CACHE_DIR")
    os.environ["TIKTOKEN_CACHE_DIR"] = str(tmp)
    try:
        enc = tiktoken.get_encoding(tid)  # tiktoken's own pattern, specials and hash check
    finally:
        if old is None:
            os.environ.pop("TIKTOKEN_CACHE_DIR", None)
        else:
            os.environ["TIKTOKEN_CACHE_DIR"] = old
    return lambda s: enc.encode(s, disallowed_special=())


def _tokenizer_json(tid):
    import tokenizers

    ref = tokenizers.Tokenizer.from_str(shelf.read_member(ENTRIES[tid]).decode("utf-8"))
    ref.encode_special_tokens = True
    return lambda s: ref.encode(s, add_special_tokens=False).ids


def _clip(tmp):
    entry = ENTRIES["clip"]
    (tmp / "bpe_simple_vocab_16e6.txt.gz").write_bytes(entry_path(entry).read_bytes())  # its default, used at import
    torch = types.ModuleType("torch")
    torch.__getattr__ = lambda name: object  # only type hints and tensors use it; encode() does not
    mod = load_vendor_module(tmp / "tokenizer.py", shelf.read_member(entry, "open_clip/tokenizer.py"), {"torch": torch})
    return mod.SimpleTokenizer(bpe_path=str(entry_path(entry))).encode


def _package(tid):
    from tests.parity_refs import encoder

    return encoder(tid)


#: Every catalog entry whose vendor code is a package here -> how to build the vendor's ``encode``.
VENDORS = {
    "qwen": _qwen, "whisper": _whisper,
    "r50k_base": lambda tmp: _tiktoken_registry(tmp, "r50k_base"),
    "p50k_base": lambda tmp: _tiktoken_registry(tmp, "p50k_base"),
    "deepseek-v3": lambda tmp: _tokenizer_json("deepseek-v3"),
    "claude-legacy": lambda tmp: _tokenizer_json("claude-legacy"),
    "clip": _clip,
    **{tid: (lambda tmp, tid=tid: _package(tid)) for tid in ("cl100k_base", "o200k_base", "o200k_harmony", "llama3", "llama4", "tekken",
                                                               "tekken_240718", "mistral-spm-v1", "mistral-spm-v3")},
}


def _clip_mirrors(text: str) -> bool:
    """open_clip runs ftfy first; we mirror its quote uncurling, NFC and line breaks, not its other repairs
    (ligatures, full-width forms: said in the entry's note)."""
    import ftfy

    return {step[1] for step in ftfy.fix_and_explain(text).explanation} <= {"uncurl_quotes", "NFC", "fix_line_breaks"}


@pytest.mark.parametrize("tokenizer_id", sorted(VENDORS))
def test_ids_equal_the_vendors_code_on_real_world_forms(tokenizer_id, tmp_path):
    vendor = VENDORS[tokenizer_id](tmp_path)
    tok = zoo.load(tokenizer_id)
    texts = [t for t in TEXTS if tokenizer_id != "clip" or _clip_mirrors(t)]
    assert len(texts) >= 0.6 * len(TEXTS)
    bad = [t for t in texts if tok.encode_ids(t) != vendor(t)]
    assert not bad, f"{len(bad)} of {len(texts)} differ, first: {bad[0]!r}"
    # the chips lie on the text as typed: spans in order, inside it (a normalizer may drop whitespace at the end)
    for t in texts:
        spans = [(x.byte_start, x.byte_end) for x in tok.encode(t).tokens]
        assert all(a <= b for a, b in spans) and [b for _a, b in spans] == sorted(b for _a, b in spans), t
        assert all(b <= len(t.encode("utf-8")) for _a, b in spans), t


def test_qwen_normalizes_as_its_vendor_and_says_so():
    tok = zoo.load("qwen")
    decomposed, composed = "ক\u09c7\u09be", "কো"
    assert tok.encode_ids(decomposed) == tok.encode_ids(composed)
    assert tok.normalizer() is not None and tok.normalizer().normalize(decomposed) == composed
    enc = tok.encode(decomposed + "!")
    assert [(t.byte_start, t.byte_end) for t in enc.tokens][-1] == (9, 10)  # "!" is where it was typed


# ---------------------------------------------------------------------------
# The audit line of every entry says what the loaded tokenizer does
# ---------------------------------------------------------------------------

AUDITED = [k for k, e in ENTRIES.items() if not e.built_in]


def test_every_pretrained_entry_has_an_audit_line_naming_how_we_know():
    from core.pretrained.catalog import AUDITS

    assert set(AUDITS) == set(AUDITED)
    for tid in AUDITED:
        line = ENTRIES[tid].audit.line()
        assert line.startswith("Before the model: ") and "How we know: " in line, tid
    # the entries with vendor code in a package are checked here, and their lines say so
    assert {tid for tid in AUDITED if "test_shelf_real_forms.py" in ENTRIES[tid].audit.checked} == set(VENDORS)


def _ids(tok, text):
    return tok.encode_ids(text)


@pytest.mark.parametrize("tokenizer_id", AUDITED)
def test_the_audit_steps_are_what_the_tokenizer_does(tokenizer_id):
    """Each claim of the audit line, tried on the loaded entry: composed and decomposed spellings, compatibility
    forms, case, and a word at the start of the text; a claim that is wrong (or missing) fails here."""
    steps = set(ENTRIES[tokenizer_id].audit.steps)
    tok = zoo.load(tokenizer_id)
    decomposed = unicodedata.normalize("NFD", "café naïve কোন ড়")
    composes = bool(steps & {"nfc", "nfkc", "strip-mn"})
    assert (_ids(tok, decomposed) == _ids(tok, unicodedata.normalize("NFC", decomposed))) == composes
    assert (_ids(tok, "ﬁle ｆｕｌｌ") == _ids(tok, "file full")) == ("nfkc" in steps)
    assert (_ids(tok, "Word SALE") == _ids(tok, "word sale")) == ("lowercase" in steps)
    alone, after = _ids(tok, "hello"), _ids(tok, "x hello")
    if "prefix-space" in steps:
        assert after[-len(alone):] == alone  # the first word is cut as if a space stood before it
    elif not steps:
        assert after[-len(alone):] != alone


# ---------------------------------------------------------------------------
# Runtimes that read a shelf file otherwise
# ---------------------------------------------------------------------------


def _pieces(tok, text):
    return tuple(t.text for t in tok.encode(text).tokens)


def test_the_runtime_differences_are_said_with_examples_that_hold():
    from dataclasses import replace

    import regex

    from core.pretrained.catalog import RUNTIME_DIFFS

    assert set(RUNTIME_DIFFS) == {"gpt-neox", "bert-bge"}
    for tid, diff in RUNTIME_DIFFS.items():
        assert _pieces(zoo.load(tid), diff.example) == diff.model_pieces, tid
        assert diff.model_pieces != diff.runtime_pieces and "llama.cpp" in diff.line()
        # how it is known is said with it: the source read and when, the llama.cpp version that confirmed it, and
        # that no test runs llama.cpp
        assert diff.source.startswith("src/llama-vocab.cpp") and re.fullmatch(r"\d{4}-\d{2}-\d{2}", diff.established)
        assert re.fullmatch(r"llama-cpp-python [\d.]+ \(llama.cpp [0-9a-f]{7}\) on \d{4}-\d{2}-\d{2}", diff.confirmed)
        how = str(diff.how())
        assert all(x in how for x in (diff.source, diff.established, diff.confirmed, "no test runs it"))
    # gpt-neox: the file names no pre-tokenizer; llama.cpp then splits with its 'default' rules
    entry = ENTRIES["gpt-neox"]
    as_llama_cpp = zoo.load_entry(replace(entry, options={k: v for k, v in entry.options.items() if k != "pre"}))
    assert _pieces(as_llama_cpp, "Room 39") == RUNTIME_DIFFS["gpt-neox"].runtime_pieces
    # bert-bge: llama.cpp's WordPiece drops every \p{M} after NFD (its accent flag covers Mn, Mc and Me)
    diff = RUNTIME_DIFFS["bert-bge"]
    stripped = regex.sub(r"\p{M}", "", unicodedata.normalize("NFD", diff.example))
    assert _pieces(zoo.load("bert-bge"), stripped) == diff.runtime_pieces
    assert unicodedata.category("া") == "Mc" and "া" in diff.example


def test_every_entry_that_overrides_its_gguf_file_names_the_runtime():
    """An entry that reads its GGUF file otherwise than llama.cpp would (an override in its options) must say so."""
    overriding = {e.id for e in ENTRIES.values() if e.loader == "gguf" and "pre" in e.options}
    assert overriding <= {e.id for e in ENTRIES.values() if e.runtime is not None}


def test_cli_list_carries_the_audit_and_the_runtime(capsys):
    import json

    from core.cli import main

    assert main(["list", "--json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["qwen"]["audit"]["steps"] == ["nfc"] and "QwenTokenizer" in rows["qwen"]["audit"]["checked"]
    assert rows["gpt-neox"]["runtime_differs"]["runtime_pieces"] == ["Room", " ", "39"]
    assert rows["cl100k_base"]["runtime_differs"] is None and rows["codepoints"]["audit"] is None


def test_the_report_names_the_audit_and_the_runtime():
    from core.analysis.report import build_report, to_html, to_markdown

    r = build_report("Room 39 কথা", [zoo.load("gpt-neox"), zoo.load("o200k_base")], lang="en")
    neox, o200k = r.tokenizers
    assert "'Room' ' ' '39'" in neox.runtime and "How we know" in neox.audit
    assert not o200k.runtime and "tiktoken" in o200k.audit
    html = to_html(r)
    assert 'class="runtime"' in html and html.count('class="audit"') == 2
    assert "llama.cpp" in to_markdown(r) and r.to_json()["tokenizers"][0]["runtime_differs"] == neox.runtime
    bn = build_report("কথা", [zoo.load("bert-bge")], lang="bn")
    assert bn.tokenizers[0].runtime and bn.tokenizers[0].runtime != ENTRIES["bert-bge"].runtime.line()
