"""Inside a vocabulary: look a token up, search, decode id lists, count tokens per script, find unreachable tokens.

Everything here asks the adapter (:class:`core.pretrained.adapter.PretrainedTokenizer`) through its public
questions (``token_bytes``, ``has_token``, ``decode_ids``, ``encode_ids``, ``id_to_token``, ``piece_score``,
``normalizer``, ``pre_tokenizer``, ``replay_source``...), so it serves every tokenizer of the shelf, those
uploaded and those trained here alike.

- :func:`vocab_table`: every id's exact bytes and text, built once per tokenizer (kept while the tokenizer lives).
- :func:`lookup`: one token described: bytes, text, scripts, control or not, merge rank and merge tree
  (BPE, from :func:`core.pretrained.replay.merge_tree`), score (Unigram), ``##`` (WordPiece).
- :func:`search`: ids whose text contains a string, matches a user regex (with the user-pattern timeout), or
  whose bytes contain a hex sequence.
- :func:`parse_ids` and :func:`decode`: a pasted id list to text and per-token bytes; unknown ids named, never
  raised; :func:`round_trip` encodes the text again and says why the list can differ.
- :func:`census`: tokens per Unicode script, mean length, longest tokens, partial characters per script.
- :func:`unreachable`: the usual first test for "glitch tokens": a token whose own text does not encode back to
  that one token (``encode(decode([id])) != [id]``), with the reason (partial character, pre-tokenizer cut,
  normalizer, merge order...); :func:`unused`: tokens a reference corpus never uses.

This package draws nothing: pages and the CLI render the records.

Modules (one idea each; import from here, the package re-exports them): :mod:`.table` (every id's bytes, kept with
:func:`core.pretrained.memo.per_tokenizer`), :mod:`.entry` (one token), :mod:`.query` (search), :mod:`.decoding` (id lists and the round
trip), :mod:`.script_census` (tokens per script), :mod:`.reachability` (unreachable and unused tokens).
"""
from __future__ import annotations

from .decoding import (
    MAX_DECODE_IDS,
    MAX_IDS_TEXT,
    ROUND_TRIP_REASONS,
    Decoded,
    RoundTrip,
    RoundTripReason,
    decode,
    parse_ids,
    round_trip,
)
from .entry import TokenInfo, lookup, model_kind, token_scripts, tree_json
from .query import MAX_QUERY_CHARS, SEARCH_MODES, SearchMode, SearchResult, parse_hex, search
from .reachability import (
    IN_CONTEXT,
    UNREACHABLE_REASONS,
    UnreachableReason,
    UnreachableReport,
    UnreachableToken,
    UnusedReport,
    unreachable,
    unused,
)
from .script_census import LONGEST_PER_SCRIPT, MAX_CENSUS, Census, ScriptRow, census
from .table import VocabError, VocabTable, check_id, vocab_table

__all__ = [
    "IN_CONTEXT", "LONGEST_PER_SCRIPT", "MAX_CENSUS", "MAX_DECODE_IDS", "MAX_IDS_TEXT", "MAX_QUERY_CHARS", "ROUND_TRIP_REASONS",
    "SEARCH_MODES", "UNREACHABLE_REASONS", "Census", "Decoded", "RoundTrip", "RoundTripReason", "ScriptRow",
    "SearchMode", "SearchResult", "TokenInfo", "UnreachableReason", "UnreachableReport", "UnreachableToken",
    "UnusedReport", "VocabError", "VocabTable", "census", "check_id", "decode", "lookup", "model_kind",
    "parse_hex", "parse_ids", "round_trip", "search", "token_scripts", "tree_json", "unreachable", "unused",
    "vocab_table",
]
