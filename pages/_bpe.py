"""BPE training for the pages, cached for the server's life (a trace is computed once and never mutated)."""
from __future__ import annotations

from typing import Any

import streamlit as st

from core.models.bpe import parse_word_table, train_bpe
from pages._lang import _


def bpe_trace(corpus: str, *, words: str | None = None, merges: int, unit: str, tie_break: str = "first-seen",
              pattern: str = "ws-attached") -> Any:
    """A :class:`core.models.bpe.BpeTrace` for a corpus (or a ``WORD:COUNT,...`` table in ``words``)."""
    with st.spinner(_("Training BPE…"), show_time=False):
        return _bpe_trace(corpus, words=words, merges=merges, unit=unit, tie_break=tie_break, pattern=pattern)


@st.cache_resource(show_spinner=False, max_entries=32)
def _bpe_trace(corpus: str, *, words: str | None, merges: int, unit: str, tie_break: str, pattern: str) -> Any:
    if words is not None:
        return train_bpe(parse_word_table(words), merges=merges, unit=unit, tie_break=tie_break, pattern=pattern)
    return train_bpe(corpus=corpus, merges=merges, unit=unit, tie_break=tie_break, pattern=pattern)
