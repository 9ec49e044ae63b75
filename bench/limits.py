"""How long the guards take to say no: the times the tests used to assert, measured here instead.

The tests check that each guard fires for the right reason (the limit named in its message, the compiler never
reached, a bounded number of searches, no network attempt); this bench says how long that takes on this machine:

- a runaway template loop stopped by its 0.3 s limit (in process) and a hostile template in the child process
  (1 s limit);
- a regex compile bomb refused (``compile_user_regex``) and the vocabulary search refusing one;
- the issue's chat (19 user turns of 10,000 "z", 181 tool turns) analysed with Gemma 4's template;
- the Hub loader refusing offline (``HF_HUB_OFFLINE``) and giving up on a resolver that never answers.

Wall seconds, the best and the worst of ``--repeat`` runs, against the bound the tests once asserted.

Run: ``python bench/limits.py`` (``--repeat 1`` for a quick look).
"""
from __future__ import annotations

import argparse
import os
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.analysis import chat as CH
from core.pretrained import zoo
from core.pretrained.catalog import ZooError
from core.pretrained.chat_render import ChatTemplateError, render, render_untrusted
from core.pretrained.chat_templates import get_template
from core.text.limits import LimitError
from core.text.safe_regex import RegexTooLargeError, compile_user_regex

USER = [{"role": "user", "content": "বাজার"}]
BOMB = "(?:(?:(?:a{100}){100}){100}){100}"


def expect(exc: type[BaseException], fn: Callable[[], object]) -> Callable[[], None]:
    def run() -> None:
        try:
            fn()
        except exc:
            return
        raise AssertionError(f"{exc.__name__} not raised")
    return run


def runaway() -> None:
    render("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}", USER, seconds=0.3)


def hostile() -> None:
    render_untrusted("{% set a = ['xy'] %}" + "{% set a = [a, a] %}" * 60 + "{{ a }}", USER, seconds=1.0)


def vocab_search() -> None:
    from core.analysis import vocab as V

    V.search(zoo.load("bytes"), BOMB, "regex")


def issue_chat() -> None:
    messages = CH.parse_conversation([{"role": "user", "content": "z" * 10_000}] * 19
                                     + [{"role": "tool", "content": "z"}] * 181)
    CH.chat_analysis(get_template("gemma-4"), messages, tok=None)


def hub_offline() -> None:
    os.environ["HF_HUB_OFFLINE"] = "1"
    try:
        zoo.load_hub("xlm-roberta-base")
    finally:
        del os.environ["HF_HUB_OFFLINE"]


def hub_slow_resolver() -> None:
    release = threading.Event()
    real = socket.getaddrinfo

    def slow(*args: object, **kwargs: object) -> None:
        release.wait(30)
        raise OSError("too late")

    socket.getaddrinfo = slow  # type: ignore[assignment]
    try:
        zoo.load_hub("xlm-roberta-base", timeout=0.5)
    finally:
        release.set()
        socket.getaddrinfo = real


#: name, what runs, the bound a test once asserted (seconds)
CASES: tuple[tuple[str, Callable[[], None], float], ...] = (
    ("template loop, 0.3 s limit", expect(ChatTemplateError, runaway), 5),
    ("hostile template, child", expect(ChatTemplateError, hostile), 10),
    ("regex bomb refused", expect(RegexTooLargeError, lambda: compile_user_regex(BOMB)), 0.5),
    ("vocabulary search bomb", expect(LimitError, vocab_search), 1),
    ("issue chat, Gemma 4", issue_chat, 5),
    ("Hub offline refusal", expect(ZooError, hub_offline), 2),
    ("Hub, resolver hangs", expect(ZooError, hub_slow_resolver), 5),
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.setdefault("HF_HOME", tmp)  # an empty Hub cache: the loaders must go to the network or refuse
        print(f"{'guard':<28} {'best s':>8} {'worst s':>8} {'bound s':>8}")
        for name, fn, bound in CASES:
            times = []
            for _ in range(args.repeat):
                t0 = time.perf_counter()
                fn()
                times.append(time.perf_counter() - t0)
            flag = "" if max(times) < bound else "  OVER"
            print(f"{name:<28} {min(times):>8.3f} {max(times):>8.3f} {bound:>8.1f}{flag}")


if __name__ == "__main__":
    main()
