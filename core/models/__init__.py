"""The model stage: BPE (training and encoding, traced), WordPiece, Unigram and the three baselines.

Every step-by-step algorithm returns frozen dataclasses of steps; nothing prints.
Imports ``core.text``, ``core.pipeline`` and ``core.tokens`` only; never ``pretrained``, ``analysis`` or ``cli``.
"""
