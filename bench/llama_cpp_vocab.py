"""The shelf's GGUF entries against llama.cpp itself, on text in every script: an opt-in check, not a test.

llama.cpp is not a dependency of this app (it is a C++ build), so no test runs it. This script does, where the
``llama-cpp-python`` binding is importable (``--site DIR`` adds a folder it was installed into with
``pip install --target DIR llama-cpp-python``): for every shelf entry read from a ``ggml-vocab-*.gguf`` file it
loads the same file in llama.cpp (``Llama(model_path, vocab_only=True)``) and compares ``tokenize(text,
add_bos=False, special=False)`` with the entry's ``encode_ids(text)`` on:

- the parallel sentences in English, Bangla, Hindi, Persian and Uzbek (``assets/parallel.tsv``), and the
  learning languages' example sentences;
- llama.cpp's own multi-script test inputs shipped beside the files (``ggml-vocab-*.gguf.inp``: Khmer, Chinese,
  emoji, spaces, code, ...);
- the examples of ``RUNTIME_DIFFS`` (where this app follows the model's own tokenizer instead of llama.cpp: those
  are expected to differ, exactly as the entry says).

It prints, per entry, the texts compared, those that agree, and the first differences; and the llama-cpp-python
version (its vendored llama.cpp). Run: ``python bench/llama_cpp_vocab.py [--site DIR] [--entries xlm-r,aquila]``.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core import languages
from core.assets import ASSETS
from core.pretrained import zoo
from core.pretrained.catalog import RUNTIME_DIFFS


def texts(inp_files: list[Path]) -> list[str]:
    out: list[str] = []
    rows = (ASSETS / "parallel.tsv").read_text(encoding="utf-8").splitlines()[1:]
    out += [cell for row in rows[:6] for cell in row.split("\t") if cell.strip()]
    out += [lang.sentence for lang in languages.LANGUAGES.values()]
    for f in inp_files:
        out += [t for t in f.read_text(encoding="utf-8").split("\n__ggml_vocab_test__\n") if t]
    out += ["Room 39", "কথা", "Привет мир", "Γειά σου", "你好，世界", "こんにちは", "안녕하세요", "สวัสดีครับ"]
    return list(dict.fromkeys(out))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--site", help="a folder llama-cpp-python was installed into (pip install --target)")
    ap.add_argument("--entries", help="comma-separated entry ids (default: every GGUF entry)")
    args = ap.parse_args()
    if args.site:
        sys.path.insert(0, args.site)
    import llama_cpp
    from llama_cpp import Llama

    gguf = [e for e in zoo.ENTRIES.values() if e.loader == "gguf" and zoo.is_available(e)]
    if args.entries:
        gguf = [e for e in gguf if e.id in args.entries.split(",")]
    inp = sorted(Path(zoo.entry_path(gguf[0])).parent.glob("*.gguf.inp"))
    cases = texts(inp)
    print(f"llama-cpp-python {llama_cpp.__version__}; {len(cases)} texts")
    for e in gguf:
        ref = Llama(model_path=str(zoo.entry_path(e)), vocab_only=True, verbose=False)
        tok = zoo.load(e.id)
        diff = RUNTIME_DIFFS.get(e.id)
        same, first = 0, []
        for text in cases:
            want = ref.tokenize(text.encode("utf-8"), add_bos=False, special=False)
            got = tok.encode_ids(text)
            if got == want:
                same += 1
            elif len(first) < 3:
                first.append((text[:40], got[:12], want[:12]))
        line = f"{e.id:<16} {same:>4}/{len(cases)} agree"
        if diff is not None:
            want = ref.tokenize(diff.example.encode("utf-8"), add_bos=False, special=False)
            pieces = tuple(ref.detokenize([i]).decode("utf-8", errors="replace") for i in want)
            line += f"; RUNTIME_DIFFS example {diff.example!r}: llama.cpp {pieces}, said {diff.runtime_pieces}"
        print(line)
        for text, got, want in first:
            print(f"    {text!r}: ours {got} llama.cpp {want}")


if __name__ == "__main__":
    main()
