"""The checkpoint shelf: cold loading, memory, and the compare page with 8 shelf tokenizers vs today's 4.

1. Cold load, each in a fresh process: the four pretrained tokenizers the
   compare page showed before the shelf (cl100k_base, o200k_base, llama3,
   tekken), then every pretrained entry (28 with the shelf). Wall and CPU
   seconds, resident memory added (RSS after minus before), and the ratio.
   Also the GGUF reader alone on Gemma 4's 262k-piece file.
2. The compare page (Streamlit AppTest, server side, in a fresh process per
   case) on 5,000 Bangla characters: first run (tokenizers loaded cold,
   result computed) and a rerun (loaded tokenizers kept by the engine), for
   the old four and for eight shelf tokenizers; RSS of the process after.
3. Token counts of every entry on the five-language sample (first row of
   ``assets/parallel.tsv``) and on the Bangla sentence the shelf was chosen on.

Run: ``python bench/shelf.py`` (needs ``python -m core zoo install`` first). Prints JSON.
"""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.analysis import tax
from core.pretrained import zoo

TODAY = ["cl100k_base", "o200k_base", "llama3", "tekken"]
EIGHT = ["gemma4", "o200k_base", "deepseek-v3", "qwen", "cl100k_base", "xlm-r", "command-r", "whisper"]
BN = "বাজারঘরের অর্ডার আগামীকাল বিকেলে রাজশাহী পৌঁছাবে।"

_RSS = """
def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
"""

_LOAD = _RSS + """
import sys, time, json
sys.path.insert(0, {root!r})
from core.pretrained import zoo
before = rss(); t0 = time.perf_counter(); c0 = time.process_time()
for tid in {ids!r}:
    zoo.load(tid)
print(json.dumps({{"wall_s": time.perf_counter() - t0, "cpu_s": time.process_time() - c0,
                  "rss_added_mb": (rss() - before) / 2**20}}))
"""

_PAGE = _RSS + """
import sys, time, json
sys.path.insert(0, {root!r})
from streamlit.testing.v1 import AppTest
src = open({root!r} + "/assets/train/bn_shop_corpus.txt", encoding="utf-8").read()
src = " ".join(src.split())
while len(src) < 5000:
    src += " " + src
text = src[:5000]
before = rss()
at = AppTest.from_file({root!r} + "/app.py", default_timeout=600)
at.switch_page("pages/compare.py")
at.session_state["cmp_tok"] = {ids!r}
at.session_state["cmp_text"] = text
t0 = time.perf_counter(); at.run(); first = time.perf_counter() - t0
assert not at.exception, [e.value for e in at.exception]
assert len(at.dataframe[0].value) == {n}
t0 = time.perf_counter(); at.run(); rerun = time.perf_counter() - t0
print(json.dumps({{"first_run_s": first, "rerun_s": rerun, "rss_added_mb": (rss() - before) / 2**20}}))
"""


def _child(code: str) -> dict:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _ratio(new: dict, old: dict) -> dict:
    return {k: round(new[k] / old[k], 2) for k in new if old.get(k)}


def cold_load() -> dict:
    today = _child(_LOAD.format(root=str(ROOT), ids=TODAY))
    everything = _child(_LOAD.format(root=str(ROOT), ids=list(zoo.PRETRAINED_IDS)))
    from core.pretrained import shelf
    from core.pretrained.gguf import read_metadata

    data = shelf.read_member(zoo.ENTRIES["gemma4"])
    t0 = time.perf_counter()
    read_metadata(data, prefix="tokenizer.ggml.")
    gguf_s = time.perf_counter() - t0
    return {"today_4": today, f"all_{len(zoo.PRETRAINED_IDS)}": everything, "ratio": _ratio(everything, today),
            "gguf_reader_gemma4_s": round(gguf_s, 3)}


def compare_page() -> dict:
    four = _child(_PAGE.format(root=str(ROOT), ids=TODAY, n=4))
    eight = _child(_PAGE.format(root=str(ROOT), ids=EIGHT, n=8))
    return {"today_4": four, "shelf_8": eight, "ratio": _ratio(eight, four), "shelf_8_ids": EIGHT}


def counts() -> dict:
    row = dict(zip(tax.load_bundled().languages, tax.load_bundled().rows[0]))
    out = {}
    for tid in zoo.ENTRIES:
        tok = zoo.load(tid)
        out[tid] = {"bn_sentence": len(tok.encode(BN).tokens), **{lang: len(tok.encode(s).tokens) for lang, s in row.items()}}
    return {"sentences": {"bn_sentence": BN, **row}, "tokens": out}


def main() -> None:
    result = {"entries": len(zoo.ENTRIES), "pretrained": len(zoo.PRETRAINED_IDS), "cold_load": cold_load(),
              "compare_page_5000_bn_chars": compare_page(), "counts": counts()}
    json.dump(result, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
