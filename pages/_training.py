"""Streamlit-side caching and rendering for the train / special-token pages (engine: core.analysis.recipes, core.analysis.evaluate).

One cache layer per result: the split per corpus, each trained tokenizer per
(corpus sha256, recipe, size, min_frequency), each metrics row per (corpus
sha256, tokenizer sha256). A rerun (the user changed a setting or left the
page) keeps everything already trained, so stopping midway loses nothing.
"""
from __future__ import annotations

import hashlib
from typing import Sequence

import streamlit as st

from core.analysis import evaluate as E
from core.analysis import recipes as R
from core.assets import BUNDLED_CORPUS
from core.render import visible_text
from pages._shared import _, esc

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


@st.cache_data(show_spinner=False, max_entries=256)
def train_cached(sha: str, recipe: str, size: int, min_frequency: int, seed: int, _lines: Sequence[str]) -> R.TrainedTokenizer:
    """One recipe at one size, trained on the training part of corpus ``sha``."""
    return R.train(recipe, _lines, size, min_frequency=min_frequency)


@st.cache_data(show_spinner=False, max_entries=16)
def baseline_cached(sha: str, name: str, seed: int, _lines: Sequence[str]) -> R.VocabBaseline:
    return R.train_baseline(name, _lines)


@st.cache_data(show_spinner=False, max_entries=256)
def evaluate_cached(sha: str, tok_key: str, seed: int, _tok, _heldout: Sequence[str]) -> E.Metrics:  # noqa: ANN001
    """Metrics of one tokenizer (identified by ``tok_key``) on the held-out part of corpus ``sha``."""
    return E.evaluate(_tok, _heldout)


@st.cache_data(show_spinner=False, max_entries=64)
def proof_cached(tok_sha: str, sha: str, seed: int, _saved: bytes, _heldout: Sequence[str]) -> E.SaveLoadProof:
    return E.save_load_proof(_saved, _heldout)


def tok_key(tok) -> str:  # noqa: ANN001
    """A cache key for a trained tokenizer or a baseline.

    subtle: the id (recipe and size asked) is part of the key, because two
    sizes can give byte-identical files (byte-gpt2 stuck at the same size).
    """
    if isinstance(tok, R.TrainedTokenizer):
        return f"{tok.id}:{tok.sha256}"
    return f"baseline:{tok.id}"


def bundled_trained(recipe: str, size: int) -> R.TrainedTokenizer:
    """A recipe trained on the bundled corpus's training part (shared with the train page's cache)."""
    text = bundled_corpus()
    sha = corpus_sha(text)
    split = split_cached(sha, text)
    return train_cached(sha, recipe, size, R.DEFAULT_MIN_FREQUENCY, split.seed, split.train)


def diff_html(parts: Sequence[E.DiffPart]) -> str:
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
