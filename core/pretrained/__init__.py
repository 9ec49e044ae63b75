"""Pretrained tokenizers: the zoo declared as data (``catalog``), one adapter module per backend, loading and replay.

``adapter`` is the shared interface and the loader registry; ``tiktoken_adapter``, ``hf_adapter``,
``sentencepiece_adapter``, ``clip_adapter`` and ``baseline_adapter`` wrap the real engines and register the catalog
loaders they serve (``gguf_adapter`` registers the GGUF one); ``zoo`` finds every ``*_adapter`` module, checks files
and loads them. Imports ``text``, ``pipeline``, ``models`` and ``core.tokens``; never ``analysis`` or ``cli``.
"""
