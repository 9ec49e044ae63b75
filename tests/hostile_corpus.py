"""The hostile-input corpus: bad and big files, and the CLI calls that must refuse them.

:func:`make` writes every bad kind into a directory (nothing is committed in
bulk: a 200 MB file is sparse, the 50 MB text is generated) and returns the
cases: a name and the ``python -m core`` arguments. Every case must end in
exit status 2 with one line on stderr and no traceback, within the time and
memory limits ``tests/test_hostile.py`` sets on the child process.

Run it alone to see each case's outcome: ``python tests/hostile_corpus.py``.
The kinds follow issue 13's list (50 MB files, ``/dev/zero``, FIFOs, deep
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


#: Size of the big text file (the issue's 50 MB).
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
    put("longword.txt", "অ" * 300_000)
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
    put("doc.txt", "বাজারঘরের অর্ডার আজ পৌঁছাবে।\n")
    return f


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
    for k in bad_text + ["/dev/zero"]:
        p = f.get(k, k)
        add(f"graphemes file={k}", "graphemes", "--file", p)
        add(f"tokenize file={k}", "tokenize", "--tokenizer", "cl100k_base", "--file", p)
        add(f"compare parallel={k}", "compare", "--tokenizers", "bytes", "--parallel", p)
        add(f"evaluate heldout={k}", "evaluate", "--tokenizers", "bytes", "--heldout", p)
        add(f"round-trip file={k}", "round-trip", "--tokenizers", "bytes", "--file", p)
        add(f"report file={k}", "report", "--tokenizers", "bytes", "--file", p, "--out", str(d / "r.html"))
        add(f"bpe-train corpus={k}", "bpe-train", "--corpus", p, "--merges", "5")
        add(f"wordpiece file={k}", "wordpiece", "--vocab", "sample", "--file", p)
        add(f"unigram file={k}", "unigram", "--tokenizer", "sample", "--file", p)
        add(f"normalize file={k}", "normalize", "--form", "nfc", "--file", p)
        add(f"pretokenize file={k}", "pretokenize", "--pattern", "gpt2", "--file", p)
        add(f"replay file={k}", "replay", "--tokenizer", "cl100k_base", "--file", p)
        add(f"train corpus={k}", "train", "--recipe", "bpe", "--vocab-size", "300", "--corpus", p,
            "--out", str(d / "t.json"))
    # The 50 MB file: step-by-step commands refuse it; whole-document output asks for --jsonl / --summary.
    big = f["big.txt"]
    add("graphemes big document", "graphemes", "--file", big, "--json")
    add("tokenize big document", "tokenize", "--tokenizer", "cl100k_base", "--file", big, "--json")
    add("bpe-train big", "bpe-train", "--corpus", big, "--merges", "10")
    add("wordpiece big", "wordpiece", "--vocab", "sample", "--file", big)
    add("unigram big", "unigram", "--tokenizer", "sample", "--file", big)
    add("normalize big", "normalize", "--form", "nfkc", "--file", big)
    add("pretokenize big", "pretokenize", "--pattern", "gpt2", "--file", big)
    add("replay big", "replay", "--tokenizer", "cl100k_base", "--file", big)
    add("train big", "train", "--recipe", "bpe", "--vocab-size", "300", "--corpus", big, "--out", str(d / "t.json"))
    # Long words.
    add("wordpiece long word", "wordpiece", "--vocab", "sample", "--file", f["longword.txt"])
    add("unigram long word", "unigram", "--tokenizer", "sample", "--file", f["longword.txt"])
    # Tokenizer files.
    for k in bad_tok:
        spec = "file:" + f[k]
        add(f"tokenize tokenizer={k}", "tokenize", "--tokenizer", spec, "--file", doc)
        add(f"compare tokenizer={k}", "compare", "--tokenizers", spec)
        add(f"evaluate tokenizer={k}", "evaluate", "--tokenizers", f[k], "--heldout", doc)
        add(f"special-tokens tokenizer={k}", "special-tokens", "--tokenizers", spec)
        add(f"inspect tokenizer={k}", "inspect", "--word", "ঘর", "--tokenizers", spec)
        add(f"wordpiece vocab={k}", "wordpiece", "--vocab", f[k], "--text", "ঘর")
        add(f"unigram tokenizer={k}", "unigram", "--tokenizer", "file:" + f[k], "--text", "ঘর")
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
    # Patterns that backtrack.
    add("pretokenize backtracking pattern", "pretokenize", "--pattern", "(a|aa)+$", "--file", f["aaaa.txt"])
    add("bpe-train backtracking pattern", "bpe-train", "--corpus", f["aaaa.txt"], "--merges", "2",
        "--pattern", "(a|aa)+$")
    add("tokenize tiktoken backtracking pattern", "tokenize", "--tokenizer", "file:" + f["ok.tiktoken"],
        "--pattern", "(a|aa)+(?=b)$", "--file", f["aaaa.txt"], "--summary")
    # Output that cannot be written.
    add("report out /dev/full.html", "report", "--tokenizers", "bytes", "--file", doc, "--out", "/dev/full.html")
    add("train out /dev/full", "train", "--recipe", "bpe", "--vocab-size", "300", "--out", "/dev/full")
    add("report out in missing dir", "report", "--tokenizers", "bytes", "--file", doc,
        "--out", str(d / "nul.txt" / "r.html"))
    return cases


if __name__ == "__main__":  # pragma: no cover - a manual look at every case
    import subprocess
    import sys
    import tempfile
    import time

    with tempfile.TemporaryDirectory() as tmp:
        for case in make(Path(tmp)):
            t0 = time.monotonic()
            try:
                p = subprocess.run([sys.executable, "-m", "core", *case.argv], capture_output=True, text=True,
                                   timeout=float(os.environ.get("HOSTILE_TIMEOUT", "30")), stdin=subprocess.DEVNULL)
                err = p.stderr.strip().splitlines()
                status = p.returncode
            except subprocess.TimeoutExpired:
                err, status = ["TIMEOUT"], "T"
            ok = status == 2 and len(err) == 1 and "Traceback" not in p.stderr
            print(f"{'ok ' if ok else 'BAD'} {status} {time.monotonic() - t0:5.1f}s {case.name}: "
                  f"{(err[-1] if err else '')[:150]}", flush=True)
