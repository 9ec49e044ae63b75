"""Chat format speed: a 20-turn conversation in five languages through 8 templates, ours against the libraries alone.

For each template that has a shelf tokenizer, the same conversation (a system turn, then 19 user / assistant
turns taken in turn from the bundled samples in en, bn, hi, fa, uz) with the generation prompt:

- ours: :func:`core.analysis.chat.chat_ids` (sandboxed render with limits, content located, the prompt encoded
  with content as text); and, for information, the whole :func:`core.analysis.chat.chat_analysis` (token
  records with offsets, both tokenizations, per-turn counts: what the page draws);
- libraries: ``transformers``' ``apply_chat_template(tokenize=False)`` (a ``PreTrainedTokenizerFast`` carrying
  the template), then the backend's ``encode_ids(text, allow_special=True)``.

Cold: the first call after both sides' template caches are cleared (compile included). Warm: per call, the
median of ``--repeat`` samples taken in turn (ours, the libraries', the analysis, ours...: on a shared machine the
load changes between samples, not between sides), each sample a batch of calls lasting about 5 ms. Process CPU
seconds; the goal is ours at most 1.5x the libraries warm, for every template: each row says ``ok`` or ``OVER``,
and the last line names the templates over it.

Run: ``python bench/chat.py`` (``--repeat 5`` for a quick look).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.analysis import chat
from core.assets import chat_samples
from core.pretrained import chat_render
from core.pretrained.chat_templates import get_template, read_template

#: Ours over the libraries, warm, for every template (not only the median).
GOAL = 1.5
TEMPLATES = ("llama-3.1", "llama-3.2", "qwen-2.5", "qwen-3", "deepseek-v3.1", "gemma-4", "gpt-oss", "mistral-nemo")


def conversation(turns: int = 20) -> list[dict[str, str]]:
    """A system turn, then user / assistant turns cycling through the five languages' samples."""
    samples = chat_samples()
    langs = list(samples)
    out = [samples["en"][0]]
    for k in range(1, turns):
        conv = samples[langs[k % len(langs)]]
        role = "user" if k % 2 else "assistant"
        out.append({"role": role, "content": conv[1 if role == "user" else 2]["content"]})
    return out


def cpu(fn) -> float:
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def warm(fns: tuple[Callable[[], None], ...], repeat: int, at_least: float = 0.005) -> list[float]:
    """Per call CPU seconds of each function, the median of ``repeat`` samples taken in turn (ours, the libraries',
    ours...), so a load that comes and goes on a shared machine weighs on all sides alike; a sample runs a function
    as many times as it takes the slowest one ``at_least`` seconds (one call is a fraction of a millisecond)."""
    n = max(1, round(at_least / max(max(cpu(f) for f in fns), 1e-6)))

    def batch(fn: Callable[[], None]) -> float:
        return cpu(lambda: [fn() for _ in range(n)]) / n

    samples: list[list[float]] = [[] for _ in fns]
    for _ in range(repeat):
        for row, fn in zip(samples, fns):
            row.append(batch(fn))
    return [statistics.median(row) for row in samples]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--templates", default=",".join(TEMPLATES), help="comma-separated template ids (default: the 8)")
    args = ap.parse_args()
    chosen = [t for t in args.templates.split(",") if t]
    from tokenizers import Tokenizer, models
    from transformers import PreTrainedTokenizerFast
    from transformers.utils import chat_template_utils

    messages = conversation()
    print(f"{len(messages)} turns, {sum(len(m['content']) for m in messages)} characters; CPU seconds per call, "
          f"warm = median of {args.repeat} interleaved samples")
    print(f"{'template':<16} {'tokens':>7} {'ours cold':>10} {'lib cold':>10} {'ratio':>6} {'ours warm':>10} "
          f"{'lib warm':>10} {'ratio':>6} {'goal':>5} {'analysis':>10} {'ratio':>6}")
    ratios: list[float] = []
    full: list[float] = []
    for tid in chosen:
        tmpl = get_template(tid)
        tok = chat.load_template_tokenizer(tmpl)
        assert tok is not None
        kw = {k: v for k, v in (("bos_token", tmpl.bos_token), ("eos_token", tmpl.eos_token)) if v is not None}
        ref = PreTrainedTokenizerFast(tokenizer_object=Tokenizer(models.WordLevel({"[UNK]": 0}, unk_token="[UNK]")),
                                      chat_template=read_template(tmpl), **kw)

        def ours() -> None:
            chat.chat_ids(tmpl, messages, tok, add_generation_prompt=True)

        def analysis() -> None:
            chat.chat_analysis(tmpl, messages, add_generation_prompt=True, tok=tok)

        def lib() -> None:
            text = ref.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
            tok.encode_ids(text, allow_special=True)

        chat_render.compile_template.cache_clear()
        chat_template_utils._compile_jinja_template.cache_clear()
        ours_cold, lib_cold = cpu(ours), cpu(lib)
        ours_warm, lib_warm, full_warm = warm((ours, lib, analysis), args.repeat)
        res = chat.chat_analysis(tmpl, messages, add_generation_prompt=True, tok=tok)
        assert res.safe is not None and res.safe.ids == chat.chat_ids(tmpl, messages, tok, add_generation_prompt=True)
        ratios.append(ours_warm / lib_warm)
        full.append(full_warm / lib_warm)
        print(f"{tid:<16} {res.total:>7} {ours_cold:>10.4f} {lib_cold:>10.4f} {ours_cold / lib_cold:>6.2f} "
              f"{ours_warm:>10.4f} {lib_warm:>10.4f} {ours_warm / lib_warm:>6.2f} "
              f"{'ok' if ours_warm / lib_warm <= GOAL else 'OVER':>5} {full_warm:>10.4f} {full_warm / lib_warm:>6.2f}")
    over = [t for t, r in zip(chosen, ratios) if r > GOAL]
    print(f"warm ratio (ids): median {statistics.median(ratios):.2f}, max {max(ratios):.2f} "
          f"({chosen[ratios.index(max(ratios))]}); goal <= {GOAL} for every template: "
          f"{'met' if not over else 'not met (' + ', '.join(over) + ')'}; "
          f"whole analysis: median {statistics.median(full):.2f}, max {max(full):.2f}")


if __name__ == "__main__":
    main()
