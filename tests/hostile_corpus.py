"""The hostile-input corpus: bad and big files, and the CLI calls that must refuse them.

:func:`make` writes every bad kind into a directory (nothing is committed in
bulk: a 200 MB file is sparse, the 50 MB text is generated) and returns the
cases: a name and the ``python -m core`` arguments. Every case must end in
exit status 2 with one line on stderr and no traceback, within the time and
memory limits ``tests/test_hostile.py`` sets on the child process.

Run it alone to see each case's outcome: ``python tests/hostile_corpus.py``
(``--json`` for machine-readable results: what ``tests/test_hostile.py`` reads).
The kinds: 50 MB files, ``/dev/zero``, FIFOs, deep
JSON, huge ids, empty WordPiece vocabularies, bad ``.tiktoken`` files,
``file:/dev/zero``, bad numbers, a backtracking ``--pattern``,
``report --out /dev/full.html``).
"""
from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Case:
    name: str
    argv: tuple[str, ...]


#: Size of the big text file (50 MB: bigger than any limit of the CLI).
BIG_BYTES = 50 * 1024 * 1024


def _b64(b: bytes) -> str:
    return base64.b64encode(b).decode()


def _bytes_ranks() -> list[str]:
    return [f"{_b64(bytes([i]))} {i}" for i in range(256)]


def make_files(d: Path) -> dict[str, Path]:
    """Write every bad file kind into ``d``; returns kind -> path."""
    d.mkdir(parents=True, exist_ok=True)
    f: dict[str, Path] = {}

    def put(name: str, data: bytes | str) -> None:
        p = d / name
        p.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
        f[name] = p

    line = ("বাজারঘরের অর্ডার আজ পৌঁছাবে। Your order arrives today. सामान आज पहुँचेगा।\n").encode("utf-8")
    with open(d / "big.txt", "wb") as fh:
        block = line * (1024 * 1024 // len(line) + 1)
        written = 0
        while written < BIG_BYTES:
            fh.write(block)
            written += len(block)
    f["big.txt"] = d / "big.txt"
    with open(d / "sparse.bin", "wb") as fh:  # 200 MB of NUL bytes that take no disk space
        fh.truncate(200 * 1024 * 1024)
    f["sparse.bin"] = d / "sparse.bin"
    fifo = d / "fifo"
    os.mkfifo(fifo)
    f["fifo"] = fifo
    (d / "dir").mkdir()
    f["dir"] = d / "dir"
    put("nul.txt", b"abc\x00def\n")
    put("latin1.txt", "café\n".encode("latin-1"))
    put("aaaa.txt", "a" * 100_000 + "b")
    deep = "[" * 100_000 + "]" * 100_000
    put("deep.json", '{"model": {"type": "BPE", "vocab": ' + deep + "}}")
    put("deep_plain.json", deep)
    base = {"version": "1.0", "truncation": None, "padding": None, "added_tokens": [], "normalizer": None,
            "pre_tokenizer": {"type": "Whitespace"}, "post_processor": None, "decoder": None}
    put("hugeid.json", json.dumps({**base, "model": {"type": "WordLevel", "vocab": {"[UNK]": 0, "a": 4_000_000_000},
                                                     "unk_token": "[UNK]"}}))
    put("sparseid.json", json.dumps({**base, "model": {"type": "WordLevel", "vocab": {"[UNK]": 0, "a": 50_000_000},
                                                       "unk_token": "[UNK]"}}))
    put("dupid.json", json.dumps({**base, "model": {"type": "WordLevel", "vocab": {"[UNK]": 0, "a": 1, "b": 1},
                                                    "unk_token": "[UNK]"}}))
    put("emptywp.json", json.dumps({**base, "model": {"type": "WordPiece", "vocab": {}, "unk_token": "[UNK]",
                                                      "continuing_subword_prefix": "##",
                                                      "max_input_chars_per_word": 100}}))
    put("empty_vocab.txt", "\n\n")
    put("dup.tiktoken", "\n".join(_bytes_ranks() + [f"{_b64(b'ab')} 5"]) + "\n")
    put("bigrank.tiktoken", "\n".join(_bytes_ranks() + [f"{_b64(b'ab')} {2**32 - 2}"]) + "\n")
    put("one.tiktoken", f"{_b64(b'a')} 0\n")
    put("empty.tiktoken", b"")
    put("ok.tiktoken", "\n".join(_bytes_ranks() + [f"{_b64(b'aa')} 256"]) + "\n")
    put("ragged_ok.tsv", "en\tbn\n" + "house of the shop\tবাজারঘরের অর্ডার\n" * 200_000)
    put("ragged.tsv", "en\tbn\n" + "house\tঘর\n" * 50_000 + "one cell only\n")
    with open(d / "noline.txt", "wb") as fh:  # 20 MB without a line break: no safe place to cut
        fh.write(("বাজার " * 1024).encode("utf-8") * 1400)
    f["noline.txt"] = d / "noline.txt"
    with open(d / "late_nul.txt", "wb") as fh:  # valid text, then a NUL byte after 1.5 MB (in the second chunk)
        fh.write(line * (3 * 512 * 1024 // len(line)) + b"\x00tail\n")
    f["late_nul.txt"] = d / "late_nul.txt"
    with open(d / "five.txt", "wb") as fh:  # a 5 MB corpus the streaming commands must answer
        fh.write(line * (5 * 1024 * 1024 // len(line)))
    f["five.txt"] = d / "five.txt"
    put("lines200k.txt", "".join(("ab\n", "the\n", "ঘর\n", "x1\n")[i % 4] for i in range(200_000)))
    put("doc.txt", "বাজারঘরের অর্ডার আজ পৌঁছাবে।\n")
    # Chat format: conversations, tool lists and templates that must be refused with one line.
    put("chat_ok.json", json.dumps([{"role": "user", "content": "বাজারঘরের অর্ডার"}], ensure_ascii=False))
    put("chat_notlist.json", json.dumps({"role": "user", "content": "x"}))
    put("chat_badrole.json", json.dumps([{"role": "root", "content": "x"}]))
    put("chat_nocontent.json", json.dumps([{"role": "user", "content": [1, 2]}]))
    put("chat_many.json", json.dumps([{"role": "user", "content": "x"}] * 100_000))
    put("chat_huge.json", json.dumps([{"role": "user", "content": "ঘর " * 300_000}], ensure_ascii=False))
    put("tmpl_loop.jinja", "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}")
    put("tmpl_output.jinja", "{% for i in range(100000) %}{{ messages[0].content * 50 }}{% endfor %}")
    put("tmpl_double.jinja", "{% set ns = namespace(s='ab') %}{% for i in range(64) %}{% set ns.s = ns.s + ns.s %}"
                             "{% endfor %}{{ ns.s }}")
    put("tmpl_escape.jinja", "{{ ''.__class__.__mro__[1].__subclasses__() }}")
    put("tmpl_raise.jinja", "{{ raise_exception('no system turn, please\nsecond line') }}")
    put("tmpl_syntax.jinja", "{% for m in messages %}{{ m.content }")
    put("tmpl_huge.jinja", "{# " + "x" * 300_000 + " #}")
    put("tmpl_power.jinja", "{{ 9 ** 99999999 }}")
    put("tmpl_strloop.jinja", "{% set s = 'x' * 100000 %}{% for a in s %}{% for b in s %}{% endfor %}{% endfor %}")
    put("tmpl_center.jinja", "{{ messages[0].content | center(8000000000) }}")
    put("tmpl_nested.jinja", "{% set a = [messages] %}" + "{% set a = [a, a] %}" * 60 + "{{ a }}")
    put("cfg_notemplate.json", json.dumps({"bos_token": "<s>", "chat_template": 5}))
    put("cfg_deep.json", '{"chat_template": ' + "[" * 100_000 + "]" * 100_000 + "}")
    put("tools_notlist.json", json.dumps({"name": "f"}))
    # issue 37: the exception box, a traceback, terminal escapes, unclear words
    put("cfg_listname.json", json.dumps({"chat_template": [{"name": ["default"], "template": "x"}]}))
    put("cfg_dictname.json", json.dumps({"chat_template": [{"name": {"a": 1}, "template": "x"}]}))
    put("tools_surrogate.json", '[{"type": "function", "function": {"name": "f\\ud800", "description": "x"}}]')
    put("chat_surrogate_name.json", '[{"role": "user", "content": "hi", "name": "\\udc00"}]')
    put("chat_bigint.json", '[{"role": "user", "content": "hi", "n": ' + "9" * 5000 + "}]")
    put("tmpl_surrogate.jinja", '{{ "ok \\ud800" }}')
    put("tmpl_escape_seq.jinja", '{{ raise_exception("\\x1b]0;pwned\\x07\\x1b[2J boom") }}')
    unigram = {"model": {"type": "Unigram", "unk_id": 0, "vocab": [["<unk>", 0.0], ["a", -1.0], ["b", -2.0]]}}
    for name, where, value in (("nan", ("vocab", 1), ["a", float("nan")]), ("inf", ("vocab", 1), ["a", float("inf")]),
                               ("unkfloat", ("unk_id",), 0.5)):
        model = json.loads(json.dumps(unigram))
        if len(where) == 2:
            model["model"]["vocab"][where[1]] = value
        else:
            model["model"]["unk_id"] = value
        put(f"unigram_{name}.json", json.dumps(model))
    # turn matching: templates that drop or rewrite a role (the 19 x 10,000 "z" then 181 tool turns)
    put("chat_dropped.json", json.dumps([{"role": "user", "content": "z" * 10_000}] * 19
                                        + [{"role": "tool", "content": "z"}] * 181))
    put("chat_developer.json", json.dumps([{"role": "user", "content": "z" * 1000}] * 20
                                          + [{"role": "developer", "content": "z"}] * 180))
    put("tmpl_drop_tool.jinja", "{% for m in messages %}{% if m.role != 'tool' %}<{{ m.role }}>{{ m.content }}"
                                "{% endif %}{% endfor %}")
    put("tmpl_rewrite_dev.jinja", "{% for m in messages %}<{{ m.role }}>{% if m.role == 'developer' %}"
                                  "{{ m.content | upper }}{% else %}{{ m.content }}{% endif %}{% endfor %}")
    return f


#: Counted repeats that multiply when the ``regex`` module compiles them (gigabytes before issue 37), and neighbours.
REGEX_BOMBS = ("(?:(?:(?:a{100}){100}){100}){100}", "(?:(?:a{100}){100}){1000}", "(?:\\w{1000}){1000}",
               "(" * 1000 + "a" + ")" * 1000)


def answers(d: Path) -> list[Case]:
    """Big input the streaming commands must answer (exit 0, nothing on stderr) within the same limits.

    Call after :func:`make` (it uses the files written there).
    """
    five = str(d / "five.txt")
    return [
        Case("tokenize --summary 5 MB, 2 workers", ("tokenize", "--tokenizer", "cl100k_base", "--file", five,
                                                     "--summary", "--workers", "2")),
        Case("bpe-train --corpus 50 MB (streamed word counts)", ("bpe-train", "--corpus", str(d / "big.txt"),
                                                                 "--merges", "10")),
        Case("graphemes --summary 5 MB", ("graphemes", "--file", five, "--summary", "--workers", "1")),
        Case("compare --parallel 5 MB (one column)", ("compare", "--tokenizers", "o200k_base", "--parallel",
                                                      str(d / "ragged_ok.tsv"), "--workers", "1")),
        # issue 37: a template that drops or rewrites a role made the turn matching rescan for minutes
        Case("chat template drops 181 tool turns", ("chat", "--template-file", str(d / "tmpl_drop_tool.jinja"),
                                                    "--messages", str(d / "chat_dropped.json"), "--json")),
        Case("chat template rewrites 180 developer turns", ("chat", "--template-file", str(d / "tmpl_rewrite_dev.jinja"),
                                                            "--messages", str(d / "chat_developer.json"), "--json")),
        # issue 37: a minute on 50 MB; now an even spread of whole chunks, with a note that says how much was read
        Case("evaluate --heldout 50 MB (a spread of it)", ("evaluate", "--tokenizers", "cl100k_base", "--heldout",
                                                           str(d / "big.txt"), "--workers", "1", "--json")),
        # issue 34: a 5 MB file cut into 512-token chunks snapped to whole letters, in blocks
        Case("chunk --file 5 MB --snap grapheme", ("chunk", "--tokenizer", "cl100k_base", "--file", five, "--size", "512",
                                                   "--overlap", "64", "--snap", "grapheme", "--json")),
        # issue 37: 33 s on 200,000 short lines (a million Cut objects compared one by one)
        Case("differences on 200,000 lines", ("differences", "--tokenizers", "cl100k_base,o200k_base", "--file",
                                              str(d / "lines200k.txt"), "--json")),
    ]


def make(d: Path) -> list[Case]:
    """The files and every case over them."""
    f = {k: str(v) for k, v in make_files(d).items()}
    bad_text = ["sparse.bin", "fifo", "dir", "nul.txt", "latin1.txt"]
    devices = ["/dev/zero", f["fifo"], f["dir"], f["sparse.bin"]]
    bad_tok = ["deep.json", "deep_plain.json", "hugeid.json", "sparseid.json", "dupid.json", "emptywp.json",
               "dup.tiktoken", "bigrank.tiktoken", "one.tiktoken", "empty.tiktoken", "sparse.bin", "fifo", "dir"]
    cases: list[Case] = []

    def add(name: str, *argv: str) -> None:
        cases.append(Case(name, tuple(argv)))

    doc = f["doc.txt"]
    for toks in ("bytes", "bytes,no-such-id", ",,,", "bytes,file:/dev/zero", "x" * 5000):
        add(f"differences tokenizers={toks[:20]}", "differences", "--tokenizers", toks, "--text", "বাজার")
    # the shelf installer: ids that are not shelf entries are refused before anything is fetched
    for bad_id in ("no-such-id", "../../etc/passwd", "file:/dev/zero", "cl100k_base", "x" * 5000):
        add(f"zoo install id={bad_id[:20]}", "zoo", "install", bad_id)
    for k in bad_text + ["/dev/zero"]:
        p = f.get(k, k)
        add(f"graphemes file={k}", "graphemes", "--file", p)
        add(f"tokenize file={k}", "tokenize", "--tokenizer", "cl100k_base", "--file", p)
        add(f"compare parallel={k}", "compare", "--tokenizers", "bytes", "--parallel", p)
        add(f"differences file={k}", "differences", "--tokenizers", "bytes,codepoints", "--file", p)
        add(f"evaluate heldout={k}", "evaluate", "--tokenizers", "bytes", "--heldout", p)
        add(f"round-trip file={k}", "round-trip", "--tokenizers", "bytes", "--file", p)
        add(f"report file={k}", "report", "--tokenizers", "bytes", "--file", p, "--out", str(d / "r.html"))
        add(f"bpe-train corpus={k}", "bpe-train", "--corpus", p, "--merges", "5")
        add(f"wordpiece file={k}", "wordpiece", "--vocab", "sample", "--file", p)
        add(f"unigram file={k}", "unigram", "--tokenizer", "sample", "--file", p)
        add(f"normalize file={k}", "normalize", "--form", "NFC", "--file", p)
        add(f"pretokenize file={k}", "pretokenize", "--pattern", "gpt2", "--file", p)
        add(f"replay file={k}", "replay", "--tokenizer", "cl100k_base", "--file", p)
        add(f"train corpus={k}", "train", "--recipe", "bpe", "--vocab-size", "300", "--corpus", p,
            "--out", str(d / "t.json"))
    # Streaming forms over bad files, and files that cannot be cut.
    for k in bad_text + ["/dev/zero", "noline.txt", "late_nul.txt"]:
        p = f.get(k, k)
        add(f"graphemes --summary file={k}", "graphemes", "--file", p, "--summary")
        add(f"tokenize --jsonl file={k}", "tokenize", "--tokenizer", "cl100k_base", "--file", p, "--jsonl")
    add("tokenize --summary with a tokenizer.json path", "tokenize", "--tokenizer", f["hugeid.json"], "--file", doc,
        "--summary")
    add("compare ragged TSV", "compare", "--tokenizers", "bytes", "--parallel", f["ragged.tsv"])
    # the format tax's records: too big, nested too deep, not UTF-8, not a list of objects, not a file
    for k in ("big.txt", "deep.json", "latin1.txt", "doc.txt", "sparse.bin", "fifo", "/dev/zero"):
        add(f"format-tax file={k}", "format-tax", "--tokenizers", "bytes", "--file", f.get(k, k))
    add("format-tax tokenizers=,,,", "format-tax", "--tokenizers", ",,,")
    add("compare no en column", "compare", "--tokenizers", "bytes", "--parallel", f["doc.txt"])
    add("tokenize sentencepiece big file", "tokenize", "--tokenizer", "mistral-spm-v1", "--file", f["big.txt"],
        "--summary")
    # The 50 MB file: step-by-step commands refuse it; whole-document output asks for --jsonl / --summary.
    big = f["big.txt"]
    add("graphemes big document", "graphemes", "--file", big, "--json")
    add("tokenize big document", "tokenize", "--tokenizer", "cl100k_base", "--file", big, "--json")
    add("wordpiece big", "wordpiece", "--vocab", "sample", "--file", big)
    add("unigram big", "unigram", "--tokenizer", "sample", "--file", big)
    add("normalize big", "normalize", "--form", "NFKC", "--file", big)
    add("pretokenize big", "pretokenize", "--pattern", "gpt2", "--file", big)
    add("replay big", "replay", "--tokenizer", "cl100k_base", "--file", big)
    add("train big", "train", "--recipe", "bpe", "--vocab-size", "300", "--corpus", big, "--out", str(d / "t.json"))
    # Tokenizer files.
    for k in bad_tok:
        spec = "file:" + f[k]
        add(f"tokenize tokenizer={k}", "tokenize", "--tokenizer", spec, "--file", doc)
        add(f"compare tokenizer={k}", "compare", "--tokenizers", spec)
        add(f"evaluate tokenizer={k}", "evaluate", "--tokenizers", f[k] if k.endswith(".json") else spec, "--heldout", doc)
        add(f"special-tokens tokenizer={k}", "special-tokens", "--tokenizers", spec)
        add(f"inspect tokenizer={k}", "inspect", "--word", "ঘর", "--tokenizers", spec)
        add(f"wordpiece vocab={k}", "wordpiece", "--vocab", f[k], "--text", "ঘর")
        add(f"unigram tokenizer={k}", "unigram", "--tokenizer", f[k], "--text", "ঘর")
    add("wordpiece vocab=empty_vocab.txt", "wordpiece", "--vocab", f["empty_vocab.txt"], "--text", "ঘর")
    for dev in devices:
        add(f"tokenize tokenizer=file:{dev}", "tokenize", "--tokenizer", "file:" + dev, "--text", "a")
        add(f"wordpiece vocab={dev}", "wordpiece", "--vocab", dev, "--text", "a")
    # Numbers.
    for n in ("0", "-5", "1000000000"):
        add(f"unigram vocab-size {n}", "unigram", "--tokenizer", "sample", "--vocab-size", n, "--text", "ঘর")
        add(f"wordpiece vocab-size {n}", "wordpiece", "--vocab", "sample", "--vocab-size", n, "--text", "ঘর")
        add(f"train vocab-size {n}", "train", "--recipe", "bpe", "--vocab-size", n, "--out", str(d / "t.json"))
    add("bpe-train top-k -1", "bpe-train", "--words", "ab:2,abc:1", "--merges", "2", "--top-k", "-1")
    add("bpe-train merges -1", "bpe-train", "--words", "ab:2,abc:1", "--merges", "-1")
    add("bpe-train merges huge", "bpe-train", "--words", "ab:2,abc:1", "--merges", "1000000000000")
    add("unigram top 0", "unigram", "--tokenizer", "sample", "--top", "0", "--text", "ঘর")
    add("unigram top huge", "unigram", "--tokenizer", "sample", "--top", "100000000", "--text", "ঘর")
    add("compare workers 0", "compare", "--tokenizers", "bytes", "--workers", "0")
    add("tokenize workers -1", "tokenize", "--tokenizer", "bytes", "--file", doc, "--summary", "--workers", "-1")
    add("report d-model 0", "report", "--tokenizers", "bytes", "--file", doc, "--d-model", "0",
        "--out", str(d / "r.html"))
    # Chunks (issue 34): sizes and overlaps out of range, bad files, more chunks than a run makes, an uncuttable big file.
    for n in ("0", "-5", str(10**12), "9" * 400, "x"):
        add(f"chunk size {n[:12]}", "chunk", "--tokenizer", "cl100k_base", "--text", "বাজার", "--size", n)
    for size, overlap in (("4", "4"), ("4", "9"), ("4", "-1"), ("1000000", "1000000")):
        add(f"chunk overlap {overlap} >= size {size}", "chunk", "--tokenizer", "cl100k_base", "--text", "বাজার",
            "--size", size, "--overlap", overlap)
    for k in bad_text + ["/dev/zero", "noline.txt", "late_nul.txt", "missing.txt"]:
        add(f"chunk file={k}", "chunk", "--tokenizer", "cl100k_base", "--file", f.get(k, str(d / k)), "--size", "8",
            "--json")
    add("chunk tokenizer=file:/dev/zero", "chunk", "--tokenizer", "file:/dev/zero", "--text", "ab", "--size", "8")
    add("chunk more chunks than a run makes", "chunk", "--tokenizer", "cl100k_base", "--file", f["five.txt"], "--size",
        "2", "--overlap", "1", "--jsonl")
    add("chunk sentencepiece big file", "chunk", "--tokenizer", "mistral-spm-v1", "--file", f["big.txt"], "--size", "512")
    # Patterns that backtrack.
    add("pretokenize backtracking pattern", "pretokenize", "--pattern", "(a|aa)+$", "--file", f["aaaa.txt"])
    add("bpe-train backtracking pattern", "bpe-train", "--corpus", f["aaaa.txt"], "--merges", "2",
        "--pattern", "(a|aa)+$")
    add("tokenize tiktoken backtracking pattern", "tokenize", "--tokenizer", "file:" + f["ok.tiktoken"],
        "--pattern", "(a|aa)+(?=b)$", "--file", f["aaaa.txt"], "--summary")
    # Chat format: bad conversations, tool lists and hostile templates.
    ok = f["chat_ok.json"]
    for k in bad_text + ["/dev/zero", "big.txt", "deep_plain.json", "chat_notlist.json", "chat_badrole.json",
                         "chat_nocontent.json", "chat_many.json", "chat_huge.json"]:
        add(f"chat messages={k}", "chat", "--template", "llama-3.2", "--messages", f.get(k, k), "--json")
    for k in ["tmpl_loop.jinja", "tmpl_output.jinja", "tmpl_double.jinja", "tmpl_escape.jinja", "tmpl_raise.jinja",
              "tmpl_syntax.jinja", "tmpl_huge.jinja", "tmpl_power.jinja", "tmpl_strloop.jinja", "tmpl_center.jinja",
              "tmpl_nested.jinja", "cfg_notemplate.json", "cfg_deep.json",
              "deep.json", "big.txt", "sparse.bin", "fifo", "dir", "latin1.txt", "/dev/zero"]:
        add(f"chat template-file={k}", "chat", "--template-file", f.get(k, k), "--messages", ok, "--json")
    for k in ["tools_notlist.json", "deep_plain.json", "big.txt", "/dev/zero", "nul.txt"]:
        add(f"chat tools={k}", "chat", "--template", "qwen-2.5", "--messages", ok, "--tools", f.get(k, k))
    add("chat no template", "chat", "--messages", ok)
    add("chat unknown template", "chat", "--template", "../../etc/passwd", "--messages", ok)
    add("chat template-file with unknown tokenizer", "chat", "--template-file", f["tmpl_raise.jinja"], "--tokenizer",
        "file:/dev/zero", "--messages", ok)
    # Token ids and vocabulary queries: garbage, negative and huge ids, huge id lists, catastrophic regexes.
    many = d / "many_ids.txt"
    many.write_text(" ".join(["7"] * 60_000))
    for k in bad_text + ["/dev/zero", "big.txt"]:
        add(f"decode ids-file={k}", "decode", "--tokenizer", "cl100k_base", "--ids-file", f.get(k, k))
    add("decode ids-file more than the limit", "decode", "--tokenizer", "cl100k_base", "--ids-file", str(many))
    for ids in ("1,abc", "1e400", "9" * 5000, "[1, 2", "0x10", "--"):
        add(f"decode ids={ids[:12]}", "decode", "--tokenizer", "o200k_base", "--ids", ids)
    for n in ("-5", "1000000000", "100256", "9" * 400):
        add(f"vocab id {n[:12]}", "vocab", "--tokenizer", "cl100k_base", "--id", n)
    add("vocab backtracking regex", "vocab", "--tokenizer", "cl100k_base", "--mode", "regex", "--search",
        r"(?:\S|\S\S|\s)*(?:\S|\s)*\x00")
    add("vocab invalid regex", "vocab", "--tokenizer", "cl100k_base", "--mode", "regex", "--search", "(")
    add("vocab bad hex", "vocab", "--tokenizer", "cl100k_base", "--mode", "bytes", "--search", "zz")
    add("vocab huge query", "vocab", "--tokenizer", "cl100k_base", "--search", "a" * 100_000)
    add("vocab page-size 0", "vocab", "--tokenizer", "cl100k_base", "--search", "a", "--page-size", "0")
    add("vocab tokenizer=file:/dev/zero", "vocab", "--tokenizer", "file:/dev/zero", "--census")
    add("vocab tokenizer=hugeid.json", "vocab", "--tokenizer", "file:" + f["hugeid.json"], "--census")
    add("vocab unused corpus=/dev/zero", "vocab", "--tokenizer", "cl100k_base", "--unused", "--corpus", "/dev/zero")
    add("vocab unused corpus=big", "vocab", "--tokenizer", "cl100k_base", "--unused", "--corpus", big)
    # Output that cannot be written.
    add("report out /dev/full.html", "report", "--tokenizers", "bytes", "--file", doc, "--out", "/dev/full.html")
    add("train out /dev/full", "train", "--recipe", "bpe", "--vocab-size", "300", "--out", "/dev/full")
    add("report out in missing dir", "report", "--tokenizers", "bytes", "--file", doc,
        "--out", str(d / "nul.txt" / "r.html"))
    # issue 37: regex compile bombs in every --pattern and the vocabulary search
    tk = "file:" + f["ok.tiktoken"]
    for bomb in REGEX_BOMBS:
        b = bomb[:24]
        add(f"vocab regex bomb {b}", "vocab", "--tokenizer", "cl100k_base", "--mode", "regex", "--search", bomb)
        add(f"tokenize tiktoken pattern bomb {b}", "tokenize", "--tokenizer", tk, "--pattern", bomb, "--text", "hi")
        add(f"vocab tiktoken pattern bomb {b}", "vocab", "--tokenizer", tk, "--pattern", bomb, "--census")
        add(f"decode tiktoken pattern bomb {b}", "decode", "--tokenizer", tk, "--pattern", bomb, "--ids", "1")
        add(f"differences tiktoken pattern bomb {b}", "differences", "--tokenizers", f"bytes,{tk}", "--pattern", bomb,
            "--text", "hi")
        add(f"inspect pattern bomb {b}", "inspect", "--word", "hi", "--tokenizers", tk, "--pattern", bomb)
        add(f"pretokenize pattern bomb {b}", "pretokenize", "--pattern", bomb, "--text", "hi")
        add(f"bpe-train pattern bomb {b}", "bpe-train", "--corpus", doc, "--merges", "2", "--pattern", bomb)
    # issue 37: the inspector ran a user pattern with no time limit; odd patterns gave 0 tokens silently
    add("inspect tiktoken backtracking pattern", "inspect", "--word", "a" * 150 + "b", "--tokenizers", tk,
        "--pattern", "(a|aa)+$|\\w+|\\s+")
    for odd in ("a{1,2", "(?P<n>a)(?P<n>b)", "(?<=a+)b"):
        add(f"tokenize tiktoken pattern {odd}", "tokenize", "--tokenizer", tk, "--pattern", odd, "--text", "hello")
        add(f"inspect tiktoken pattern {odd}", "inspect", "--word", "hello", "--tokenizers", tk, "--pattern", odd)
    # issue 37: chat's exception box, traceback, escapes and unclear words
    for k in ("cfg_listname.json", "cfg_dictname.json", "tmpl_surrogate.jinja", "tmpl_escape_seq.jinja"):
        add(f"chat template-file={k}", "chat", "--template-file", f[k], "--messages", ok)
    for t in ("mistral-small-3.2", "granite-3.3", "kimi-k2", "glm-4.6", "qwen-2.5"):
        add(f"chat tools=tools_surrogate.json template={t}", "chat", "--template", t, "--messages", ok, "--tools",
            f["tools_surrogate.json"])
    for k in ("chat_surrogate_name.json", "chat_bigint.json"):
        add(f"chat messages={k}", "chat", "--template", "granite-3.3", "--messages", f[k])
    for k in ("unigram_nan.json", "unigram_inf.json", "unigram_unkfloat.json"):
        add(f"unigram tokenizer={k}", "unigram", "--tokenizer", f[k], "--text", "ab")
    add("train out in a missing folder", "train", "--recipe", "bpe", "--vocab-size", "300",
        "--out", str(d / "missing" / "deeper" / "t.json"))
    add("report out in a missing root folder", "report", "--tokenizers", "bytes", "--file", doc,
        "--out", "/no-such-folder-issue37/r.html")
    return cases


#: Limits on each case's process: address space (bytes) and CPU seconds (RLIMIT_AS, RLIMIT_CPU).
MEMORY_LIMIT = 2 * 1024**3
CPU_LIMIT_S = 20
#: Wall-clock guard: a case blocked without using CPU (e.g. reading a FIFO) is killed after this.
WALL_GUARD_S = 60.0


@dataclass(frozen=True)
class Outcome:
    name: str
    status: int | None  # exit status; None when killed by a signal
    signal: int | None
    stdout: str
    stderr: str


def run_case(case: Case, workdir: Path) -> Outcome:
    """Run ``python -m core ARGV`` in a forked child with RLIMIT_AS / RLIMIT_CPU set, stdin at /dev/null.

    The child is forked from this process after ``core.cli`` is imported,
    so a case costs only its own work; it runs :func:`core.cli.main`
    exactly as ``python -m core`` does (``core/__main__.py``).
    """
    import resource
    import signal
    import sys
    import time

    from core.cli import main

    out_p, err_p = workdir / "case.out", workdir / "case.err"
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: limits, redirections, the CLI, then exit without cleanup handlers
        code = 1
        try:
            resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
            resource.setrlimit(resource.RLIMIT_CPU, (CPU_LIMIT_S, CPU_LIMIT_S))
            for fd, path, flags in ((0, os.devnull, os.O_RDONLY), (1, out_p, os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                                    (2, err_p, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
                new = os.open(path, flags, 0o644)
                os.dup2(new, fd)
                os.close(new)
            try:
                code = main(list(case.argv))
            except SystemExit as exc:  # argparse
                code = exc.code if isinstance(exc.code, int) else 2
            except BaseException:  # what the real entry point would print: a traceback
                import traceback

                traceback.print_exc()
                code = 1
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(code if isinstance(code, int) else 1)
    deadline = time.monotonic() + WALL_GUARD_S
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
            break
        time.sleep(0.01)
    sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
    read = lambda p: p.read_text(encoding="utf-8", errors="replace") if p.exists() else ""
    return Outcome(case.name, code, sig, read(out_p), read(err_p))


def verdict(o: Outcome) -> str:
    """'' when the outcome is what every hostile case must give, else what is wrong."""
    lines = o.stderr.strip().splitlines()
    if o.signal is not None:
        return f"killed by signal {o.signal} (time or memory limit)"
    if o.status != 2:
        return f"exit status {o.status}"
    if "Traceback" in o.stderr or "panicked" in o.stderr:
        return "traceback on stderr"
    if len(lines) != 1 or not lines[0].startswith("error: "):
        return f"{len(lines)} lines on stderr"
    return ""


def answer_verdict(o: Outcome) -> str:
    """'' when a big-input case answered: exit 0, JSON or a table on stdout, nothing on stderr."""
    if o.signal is not None:
        return f"killed by signal {o.signal} (time or memory limit)"
    said = [ln for ln in o.stderr.strip().splitlines() if not ln.startswith("note: ")]  # a note says what was done
    if o.status != 0 or said or not o.stdout.strip():
        return f"exit status {o.status}, stderr {o.stderr.strip()[-200:]!r}"
    return ""


if __name__ == "__main__":  # a look at every case: python tests/hostile_corpus.py [--json] [--shard K/N]
    import sys
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    as_json = "--json" in sys.argv
    # --shard K/N: only the cases whose index is K modulo N (tests/test_hostile.py runs N shards side by side)
    shard, shards = (map(int, sys.argv[sys.argv.index("--shard") + 1].split("/")) if "--shard" in sys.argv
                     else (0, 1))
    results = []
    from core.pretrained import zoo

    # the cases fork from this process: the tokenizers most of them name are loaded once here, so each child
    # costs its own work (the input handling under test), not a fresh load of cl100k (about a third of the run)
    for common in ("cl100k_base", "o200k_base"):
        zoo.load(common)
    with tempfile.TemporaryDirectory() as tmp:
        files = Path(tmp) / "files"
        cases = [(c, verdict) for c in make(files)] + [(c, answer_verdict) for c in answers(files)]
        for index in range(shard, len(cases), shards):
            case, judge = cases[index]
            o = run_case(case, Path(tmp))
            bad = judge(o)
            if as_json:
                results.append({"index": index, "of": len(cases), "name": o.name, "argv": list(case.argv), "verdict": bad, "status": o.status,
                                "signal": o.signal, "stderr": o.stderr[-2000:], "answer": judge is answer_verdict})
            else:
                line = (o.stderr.strip().splitlines() or [""])[-1]
                print(f"{'BAD ' + bad if bad else 'ok'}: {o.name}: {line[:160]}", flush=True)
    if as_json:
        print(json.dumps(results, ensure_ascii=False))
