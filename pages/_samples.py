"""The bundled sample texts pages start from (``assets/samples``, the learning samples), cached for the server's life.

The learning languages themselves (codes, names, sample files, example words) are one table,
:data:`core.languages.LANGUAGES`; pages list them from there.
"""
from __future__ import annotations

import streamlit as st

from core import languages
from core.assets import ASSETS


@st.cache_data(show_spinner=False, max_entries=32)
def sample(name: str) -> str:
    """A bundled sample text (``assets/samples/<name>.txt``), without the final newline."""
    return (ASSETS / "samples" / f"{name}.txt").read_text(encoding="utf-8").rstrip("\n")


@st.cache_data(show_spinner=False, max_entries=16)
def learn_lines(lang: str) -> list[str]:
    """The learning sample of ``lang`` (a :data:`core.languages.LANGUAGES` code), one sentence per line."""
    return languages.LANGUAGES[lang].sample_lines()


def language_name(code: str) -> str:
    """The English name (msgid) of a learning language or English: pages show it through ``_()``."""
    return languages.get(code).name
