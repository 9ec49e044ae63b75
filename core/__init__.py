"""Tokenizer Lab's engine: plain Python, no Streamlit.

Modules, one idea each:
- ``units``: code points, UTF-8 bytes, grapheme clusters (Unicode 17.0.0).
- ``boundaries``: judge any segmentation's cuts (cut%, bad%).
- ``pretokenize``: named split regexes with offsets.
- ``tokens``: the shared Token/Encoding record and the baselines.
- ``bpe``: traced BPE training and encoding (code point or byte).
- ``wordpiece``, ``unigram``: the other two model families, traced.
- ``normalize``, ``pretok_compare``: the normalizer and pre-tokenizer stages.
- ``zoo``, ``adapters``, ``replay``, ``tax``: pretrained tokenizers (offline,
  sha256-checked), one adapter to ``Encoding``, merge replay, multilingual tax.
- ``recipes``, ``evaluate``: training with Hugging Face ``tokenizers`` and
  honest held-out metrics.
- ``inspect``, ``report``: the word inspector and the checkpoint report.
- ``render``: the one HTML token view (no Streamlit).
- ``cli`` and ``*_cli``: ``python -m core`` with JSON output.
"""
from .units import UNICODE_VERSION

__all__ = ["UNICODE_VERSION"]
