"""Tokenizer Lab's engine: plain Python, no Streamlit.

The wings follow the pipeline a text goes through; a wing imports only the
ones above it in this list (``tests/test_layout.py`` keeps the rule):

- ``text``: code points, UTF-8 bytes, grapheme clusters, boundary analysis
  (the Unicode truth, Unicode 17.0.0).
- ``pipeline``: normalizers and pre-tokenizer split patterns.
- ``tokens`` (module): the shared Token/Encoding/TokenTable record.
- ``render`` (module): the one HTML token view.
- ``models``: BPE (train + encode, traced), WordPiece, Unigram, baselines.
- ``pretrained``: the zoo catalog, one adapter per backend, loading, replay.
- ``analysis``: inspector, pre-tokenizer comparison, evaluation, training
  recipes, multilingual tax, checkpoint report.
- ``cli``: ``python -m core``, one module per group of subcommands.

``assets`` (module) names the bundled data files and imports nothing.
"""
from .text.units import UNICODE_VERSION

__all__ = ["UNICODE_VERSION"]
