"""The stages before the model: normalizers and pre-tokenizer split patterns, each runnable alone.

Holds ``normalize`` (NFC/NFKC/BERT/custom rules, with alignment) and ``pretokenize`` (named split regexes with offsets).
Imports only ``core.text``; never a model, a pretrained file, an analysis or the CLI.
"""
