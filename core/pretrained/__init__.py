"""Pretrained tokenizers: the zoo declared as data (``catalog``), one adapter module per backend, loading and replay.

``adapter`` is the shared interface; ``tiktoken_adapter``, ``hf_adapter``, ``sentencepiece_adapter``,
``clip_adapter`` and ``baseline_adapter`` wrap the real engines; ``zoo`` finds, checks and loads files.
Imports ``text``, ``pipeline``, ``models`` and ``core.tokens``; never ``analysis`` or ``cli``.
"""
