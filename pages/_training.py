"""Streamlit-side caching and rendering for the train / special-token pages (engine: core.analysis.recipes, core.analysis.evaluate).

One cache layer per result: the split per corpus, each trained tokenizer per
(corpus sha256, recipe, size, min_frequency), each metrics row per (corpus
sha256, tokenizer sha256). A rerun (the user changed a setting or left the
page) keeps everything already trained, so stopping midway loses nothing.
"""
from __future__ import annotations

import hashlib
import threading
from typing import Any, Callable, Sequence

import streamlit as st

from core.analysis import evaluate as E
from core.analysis import recipes as R
from core.analysis import roundtrip as RT
from core.assets import BUNDLED_CORPUS
from core.markdown import md_format
from core.render import visible_text
from pages._lang import _, localize
from pages._layout import esc

#: Longest corpus the page trains on (characters); larger ones are refused with this limit named.
MAX_TRAIN_CHARS = 2_000_000


@st.cache_data(show_spinner=False)
def bundled_corpus() -> str:
    return BUNDLED_CORPUS.read_text(encoding="utf-8")


def corpus_sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@st.cache_data(show_spinner=False, max_entries=8)
def split_cached(sha: str, _text: str, seed: int = E.SPLIT_SEED) -> E.Split:
    """The split of the corpus whose sha256 is ``sha`` (the text itself is not hashed again)."""
    return E.split_corpus(_text, seed=seed)


def bar_progress(bar, start: float, span: float, label: str) -> Callable[[int, int, str], None]:
    """A core progress callback drawing on ``bar`` (an ``st.progress``): ``done / total`` of this step maps to
    ``start .. start + span`` of the bar, and the text says what is being done. Call it from the script's
    thread only (see :func:`run_reporting`): core's ``what`` is a :class:`core.i18n.Message` (core does not
    know the session's language, and the trainer's thread has none), written here in the reader's language."""

    def report(done: int, total: int, what: str) -> None:
        frac = start + span * (min(done, total) / total if total else 1.0)
        bar.progress(min(max(frac, 0.0), 1.0), text=md_format("{label}: {what}…", label=label, what=localize(what)))

    return report


def run_reporting(work: Callable[[Callable[[int, int, str], None] | None], Any],
                  progress: Callable[[int, int, str], None] | None) -> Any:
    """``work(callback)`` with its progress drawn by ``progress`` from this (the script's) thread.

    subtle: the ``tokenizers`` trainers pull their input iterator, and so
    call the core callback, from a thread of their own, where Streamlit
    cannot draw; and a bar drawn while a ``st.cache_data`` function runs in
    this thread would be recorded into its cache entry. So the work (the
    cached call included) runs in a helper thread that knows the script's run
    context, its callback only records the latest numbers, and this thread
    draws them every 0.1 s.
    """
    if progress is None:
        return work(None)
    from streamlit.runtime.scriptrunner import add_script_run_ctx, get_script_run_ctx

    latest: list[tuple[int, int, str]] = []
    out: dict[str, Any] = {}

    def record(done: int, total: int, what: str) -> None:
        latest[:] = [(done, total, what)]

    def run() -> None:
        try:
            out["value"] = work(record)
        except BaseException as exc:
            out["error"] = exc

    thread = threading.Thread(target=run, name="tl-train", daemon=True)
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is not None:
        add_script_run_ctx(thread, ctx)
    thread.start()
    drawn = None
    while True:
        thread.join(0.1)
        if latest and latest[0] != drawn:
            drawn = latest[0]
            progress(*drawn)
        if not thread.is_alive():
            break
    if "error" in out:
        raise out["error"]
    return out["value"]


@st.cache_data(show_spinner=False, max_entries=256)
def train_cached(sha: str, recipe: str, size: int, min_frequency: int, seed: int, _lines: Sequence[str],
                 _progress: Callable[[int, int, str], None] | None = None) -> R.TrainedTokenizer:
    """One recipe at one size, trained on the training part of corpus ``sha``.

    ``_progress`` is core's callback; it is called from the trainer's thread, so it must not draw (wrap the call
    in :func:`run_reporting`, which hands in a recorder)."""
    return R.train(recipe, _lines, size, min_frequency=min_frequency, progress=_progress)


@st.cache_data(show_spinner=False, max_entries=16)
def baseline_cached(sha: str, name: str, seed: int, _lines: Sequence[str]) -> R.VocabBaseline:
    return R.train_baseline(name, _lines)


@st.cache_data(show_spinner=False, max_entries=256)
def evaluate_cached(sha: str, tok_key: str, seed: int, _tok, _heldout: Sequence[str],
                    _progress: Callable[[int, int, str], None] | None = None) -> E.Metrics:
    """Metrics of one tokenizer (identified by ``tok_key``) on the held-out part of corpus ``sha`` (``_progress``: a
    recorder, as for :func:`train_cached`)."""
    return E.evaluate(_tok, _heldout, progress=_progress)


@st.cache_data(show_spinner=False, max_entries=64)
def proof_cached(tok_sha: str, sha: str, seed: int, _saved: bytes, _heldout: Sequence[str]) -> E.SaveLoadProof:
    return E.save_load_proof(_saved, _heldout)


def tok_key(tok) -> str:
    """A cache key for a trained tokenizer or a baseline.

    subtle: the id (recipe and size asked) is part of the key, because two
    sizes can give byte-identical files (byte-gpt2 stuck at the same size).
    """
    if tok.trained_json is not None:
        return f"{tok.id}:{tok.sha256}"
    return f"baseline:{tok.id}"


def bundled_trained(recipe: str, size: int) -> R.TrainedTokenizer:
    """A recipe trained on the bundled corpus's training part (shared with the train page's cache)."""
    text = bundled_corpus()
    sha = corpus_sha(text)
    split = split_cached(sha, text)
    return train_cached(sha, recipe, size, R.DEFAULT_MIN_FREQUENCY, split.seed, split.train)


def diff_html(parts: Sequence[RT.DiffPart]) -> str:
    """Two lines, original and decoded, with the differing stretches highlighted (escaped, whitespace visible)."""
    orig, dec = [], []
    lost, changed, original, decoded = (esc(m) for m in (_("lost"), _("changed or added"), _("original"), _("decoded")))
    for p in parts:
        if p.op == "equal":
            orig.append(visible_text(p.original))
            dec.append(visible_text(p.decoded))
            continue
        if p.original:
            orig.append(f'<del class="tl-diff-del" title="{lost}">{visible_text(p.original)}</del>')
        if p.decoded:
            dec.append(f'<ins class="tl-diff-ins" title="{changed}">{visible_text(p.decoded)}</ins>')
    return (
        '<div class="tl-diff">'
        f'<div><span class="tl-diff-label">{original}</span> <span dir="auto">{"".join(orig)}</span></div>'
        f'<div><span class="tl-diff-label">{decoded}</span> <span dir="auto">{"".join(dec)}</span></div>'
        "</div>"
    )


DIFF_CSS = """
.tl-diff{font-size:1.05rem;line-height:1.9;border-left:3px solid #BBBBBB;padding:.2rem .7rem;margin:.3rem 0 .7rem 0}
.tl-diff-label{display:inline-block;min-width:5.5rem;color:#555;font-size:.8rem;text-transform:uppercase}
.tl-diff del.tl-diff-del{background:#FFE3C2;text-decoration:line-through;text-decoration-thickness:2px;
  outline:1px dashed #CC6677}
.tl-diff ins.tl-diff-ins{background:#CFE8FF;text-decoration:underline;text-decoration-thickness:2px;
  outline:1px solid #4477AA}
.tl-flag{font-weight:700}
"""
