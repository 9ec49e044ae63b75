"""Tokenizer Lab's engine: plain Python, no Streamlit.

Modules, one idea each:
- ``units``: code points, UTF-8 bytes, grapheme clusters (Unicode 17.0.0).
- ``boundaries``: judge any segmentation's cuts (cut%, bad%).
- ``pretokenize``: named split regexes with offsets.
- ``tokens``: the shared Token/Encoding record and the baselines.
- ``bpe``: traced BPE training and encoding (code point or byte).
- ``cli``: ``python -m core`` with JSON output.
"""
from .units import UNICODE_VERSION

__all__ = ["UNICODE_VERSION"]
