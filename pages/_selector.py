"""The one tokenizer selector every page offers: baselines, BPE trained on the sample, the pretrained zoo.

The sources are listed directly below (:func:`tokenizer_options`), each a
plain import; :func:`load_tokenizer` keeps loaded tokenizers for the
server's life and :func:`encode_cached` is the one cached result layer.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable

import streamlit as st

from core.analysis.inspect import chip_links
from core.models.baselines import ByteTokenizer, CodePointTokenizer, WordTokenizer
from core.pretrained import zoo
from core.render import render_table
from core.tokens import EncodingStats, Tokenizer, table_stats, token_table
from pages._shared import bpe_trace, sample

#: Merges trained on the sample (it runs out of pairs before this on the bundled text).
MAX_SAMPLE_MERGES = 2000


@dataclass(frozen=True)
class TokenizerOption:
    """One entry in the tokenizer selector.

    ``load(size)`` returns a :class:`core.tokens.Tokenizer`; ``size`` is the
    number of merges / vocabulary size for families that are trained here
    (``sized=True``) and None otherwise. ``load`` is called at most once per
    (id, size) per server: results are kept with ``st.cache_resource``.
    """

    id: str
    label: str
    group: str
    load: Callable[[int | None], Tokenizer]
    sized: bool = False
    help: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def sample_corpus() -> str:
    """The bundled training text of the sample BPE: the Bangla shop text and its English translation."""
    return sample("shop_bn") + "\n" + sample("shop_en")


def _sample_bpe(unit: str) -> Callable[[int | None], Tokenizer]:
    # The trace is trained once up to MAX_SAMPLE_MERGES; a smaller size is the
    # same trace cut at that many merges, so moving the size slider never retrains.
    return lambda size: bpe_trace(sample_corpus(), merges=MAX_SAMPLE_MERGES, unit=unit).tokenizer(size)


def _pretrained(tokenizer_id: str) -> Callable[[int | None], Tokenizer]:
    return lambda _size: zoo.load(tokenizer_id)


@lru_cache(maxsize=1)
def _options() -> dict[str, TokenizerOption]:
    baselines = [
        TokenizerOption("codepoints", "Code points", "Baselines", lambda _s: CodePointTokenizer(),
                        help="One token per Unicode code point: tiny vocabulary, long sequences."),
        TokenizerOption("bytes", "UTF-8 bytes", "Baselines", lambda _s: ByteTokenizer(),
                        help="One token per byte: nothing is unknown; a Bangla letter is 3 tokens."),
        TokenizerOption("words", "Whitespace words", "Baselines", lambda _s: WordTokenizer(),
                        help="One token per word: short sequences, but every new word is unknown."),
    ]
    trained_here = [
        TokenizerOption("bpe-sample-cp", "BPE, code points (trained on the shop sample)", "Trained here",
                        _sample_bpe("codepoint"), sized=True,
                        help="Code-point BPE trained on the bundled Bangla + English shop text."),
        TokenizerOption("bpe-sample-byte", "BPE, bytes (trained on the shop sample)", "Trained here",
                        _sample_bpe("byte"), sized=True,
                        help="Byte-level BPE trained on the same text: early merges rebuild Bangla letters."),
    ]
    pretrained = [
        TokenizerOption(
            e.id, e.name, "Pretrained", _pretrained(e.id),
            help=f"{e.algorithm}, vocabulary {e.vocab_size:,}; {e.licence}; loaded offline from {e.source} (sha256 checked).",
        )
        for e in zoo.ENTRIES.values()
        if e.loader != "baseline"
    ]  # fmt: skip
    return {o.id: o for o in baselines + trained_here + pretrained}


def tokenizer_options() -> dict[str, TokenizerOption]:
    """Every option of the selector, by id, in display order."""
    return dict(_options())


@st.cache_resource(show_spinner="Loading tokenizer…")
def load_tokenizer(option_id: str, size: int | None = None) -> Tokenizer:
    """The tokenizer for an option (kept for the server's life, never mutated)."""
    return _options()[option_id].load(size)


@st.cache_data(show_spinner=False, max_entries=256)
def encode_cached(option_id: str, size: int | None, text: str, max_tokens: int) -> tuple[EncodingStats, str, str]:
    """``(stats, chips html, tokenizer name)`` for ``text``: the one cached result layer.

    Counts come from the columnar table (no record per token); :class:`~core.tokens.Token`
    records are built only for the ``max_tokens`` chips that are drawn.
    """
    tok = load_tokenizer(option_id, size)
    table = token_table(tok, text)
    link = chip_links(text, [option_id] if option_id in zoo.ENTRIES else [])  # a chip opens the word inspector
    return table_stats(text, table), render_table(text, table, max_tokens=max_tokens, link=link), tok.name
