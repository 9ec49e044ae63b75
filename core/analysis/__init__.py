"""Analyses over tokenizers: word inspector, pre-tokenizer comparison, evaluation, training recipes, tax, checkpoint report.

Each module turns engine results into data (and the report into HTML/Markdown) for the pages and the CLI.
May import every lower wing and ``core.render``; never ``core.cli``.
"""
