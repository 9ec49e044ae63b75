"""The bundled sample texts pages start from (``assets/samples``, ``assets/learn``), cached for the server's life."""
from __future__ import annotations

import streamlit as st

from core.assets import ASSETS
from core.i18n import N_


@st.cache_data(show_spinner=False, max_entries=32)
def sample(name: str) -> str:
    """A bundled sample text (``assets/samples/<name>.txt``), without the final newline."""
    return (ASSETS / "samples" / f"{name}.txt").read_text(encoding="utf-8").rstrip("\n")


#: Languages of the learning pages' own samples (stepper, WordPiece, Unigram, train):
#: Bangla is ``assets/algos/corpus_bn.txt``, the others ``assets/learn/<code>.txt``.
LEARN_LANGS = {"bn": N_("Bangla"), "hi": N_("Hindi"), "fa": N_("Persian"), "uz": N_("Uzbek")}
#: A word of each sample to encode / inspect first (it is not always in the vocabulary whole).
LEARN_WORDS = {"bn": "বাজারঘরের", "hi": "बाज़ारघर", "fa": "کتاب‌خانه", "uz": "bozorgʻhardan"}


@st.cache_data(show_spinner=False, max_entries=16)
def learn_lines(lang: str) -> list[str]:
    """The learning sample of ``lang`` (a :data:`LEARN_LANGS` code), one sentence per line."""
    path = ASSETS / "algos" / "corpus_bn.txt" if lang == "bn" else ASSETS / "learn" / f"{lang}.txt"
    return [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
