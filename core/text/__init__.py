"""The Unicode truth: code points, UTF-8 bytes, grapheme clusters (UAX #29) and boundary analysis.

Holds ``units`` (what a tokenizer can cut) and ``boundaries`` (judging the cuts it made).
Imports nothing else of ``core``: every other wing builds on it.
"""
