"""``python -m core vocab|decode``: inside a vocabulary from the command line.

JSON shapes (with ``--json``; a readable table otherwise):

- ``vocab --tokenizer T --id N``: ``{"id", "bytes" (hex), "text", "piece", "valid_utf8", "scripts", "special",
  "byte_piece", "continuation", "score", "model", "merge_rank", "merge_tree"}``.
- ``vocab --tokenizer T --search Q [--mode text|regex|bytes|id] [--page P] [--page-size S]``:
  ``{"tokenizer", "mode", "query", "total", "page", "page_size", "tokens": [{"id", "bytes", "text"}]}``.
- ``vocab --tokenizer T --census``: ``{"tokenizer", "tokens", "special", "scripts": {script: count},
  "partial": {script: count}, "partial_unknown", "mean_chars", "longest"}``.
- ``vocab --tokenizer T --unreachable [--limit N]``: ``{"tokenizer", "checked", "count", "unreachable",
  "by_reason", "by_script", "tokens": [{"id", "reason", "got", "script"}]}``.
- ``vocab --tokenizer T --unused [--corpus FILE] [--limit N]``: ``{"tokenizer", "corpus", "corpus_tokens",
  "used", "unused_count", "unused_by_script", "unused": [...]}`` (default corpus: the bundled sentences).
- ``decode --tokenizer T --ids "1,2,3" | --ids-file F``: ``{"tokenizer", "text", "tokens": [{"id", "bytes",
  "known"}], "unknown": [...], "round_trip": {"ids", "same", "reason", "why", "first_difference"}}``; with
  ``--stream`` also ``"stream": {"naive_text", "text", "broken", "waits", "steps": [{"index", "id", "bytes",
  "alone", "printed", "held", "broken"}]}``: the ids as a chat streams them, each token printed alone against a
  streamer that holds back a character's unfinished bytes.

Tokenizer specs are zoo ids, ``file:PATH`` or ``hf:ORG/NAME`` (:func:`core.pretrained.zoo.resolve`).
"""
from __future__ import annotations

import argparse
from typing import Any

from ..analysis import vocab as V
from ..analysis.tax import load_bundled
from ..analysis.token_stream import token_stream
from ..pretrained import zoo
from ..pretrained.adapter import PretrainedTokenizer
from ..text.units import utf8_hex
from .common import CliError, int_range, read_text_file


def _tokenizer(args: argparse.Namespace) -> PretrainedTokenizer:
    try:
        return zoo.resolve(args.tokenizer, pattern=args.pattern)
    except zoo.ZooError as exc:
        raise CliError(str(exc)) from None


def _vocab(args: argparse.Namespace) -> dict[str, Any]:
    tok = _tokenizer(args)
    try:
        if args.id is not None:
            return V.lookup(tok, args.id).to_json()
        if args.census:
            return V.census(tok).to_json()
        if args.unreachable:
            return V.unreachable(tok).to_json(args.limit)
        if args.unused:
            if args.corpus:
                texts = read_text_file(args.corpus).splitlines()
                corpus = args.corpus
            else:
                texts = [cell for row in load_bundled().rows for cell in row]
                corpus = "bundled sentences (assets/parallel.tsv)"
            return V.unused(tok, texts, corpus).to_json(args.limit)
        query = args.search if args.search is not None else ""
        result = V.search(tok, query, args.mode)
    except V.VocabError as exc:
        raise CliError(str(exc)) from None
    table = V.vocab_table(tok)
    ids = result.page(args.page, args.page_size)
    return {
        "tokenizer": tok.id, "mode": result.mode, "query": result.query, "total": len(result.ids),
        "page": min(args.page, max(0, (len(result.ids) - 1) // args.page_size)), "page_size": args.page_size,
        "tokens": [{"id": i, "bytes": utf8_hex(table.data[i] or b""), "text": table.texts[i]} for i in ids],
    }


def _vocab_table(result: dict[str, Any]) -> str:
    if "merge_tree" in result:
        lines = [f"{result['id']}: {result['text']!r}  bytes {result['bytes']}  scripts {', '.join(result['scripts']) or '-'}"
                 f"  {result['model']}" + ("  control token" if result["special"] else "")]
        if result["merge_rank"] is not None:
            lines.append(f"merge rank {result['merge_rank']}")
        if result["score"] is not None:
            lines.append(f"score {result['score']:.4f}")
        if result["continuation"]:
            lines.append("word-internal (##) piece")
        return "\n".join(lines)
    if "scripts" in result:
        lines = [f"{result['tokenizer']}: {result['tokens']:,} tokens ({result['special']} control tokens left out)"]
        partial = result["partial"]
        for name, n in result["scripts"].items():
            extra = f"  + {partial[name]:,} partial" if partial.get(name) else ""
            lines.append(f"{name:<20} {n:>8,}  mean {result['mean_chars'][name]:.2f} chars{extra}")
        return "\n".join(lines)
    if "by_reason" in result:
        lines = [f"{result['tokenizer']}: {result['count']:,} of {result['checked']:,} tokens fail "
                 f"encode(decode([id])) == [id] ({result['unreachable']:,} not reachable in any context)"]
        lines += [f"{reason:<16} {n:>8,}" for reason, n in result["by_reason"].items()]
        return "\n".join(lines)
    if "unused_count" in result:
        return (f"{result['tokenizer']}: {result['unused_count']:,} tokens never used on {result['corpus']} "
                f"({result['corpus_tokens']:,} tokens, {result['used']:,} distinct)\n"
                + "\n".join(f"{name:<20} {n:>8,}" for name, n in result["unused_by_script"].items()))
    lines = [f"{result['tokenizer']}: {result['total']:,} tokens match (page {result['page']})"]
    lines += [f"{t['id']:>8} {t['text']!r:<24} {t['bytes']}" for t in result["tokens"]]
    return "\n".join(lines)


def _decode(args: argparse.Namespace) -> dict[str, Any]:
    tok = _tokenizer(args)
    raw = args.ids if args.ids is not None else read_text_file(args.ids_file, max_bytes=V.MAX_IDS_TEXT, hint="")
    try:
        decoded = V.decode(tok, V.parse_ids(raw))
    except V.VocabError as exc:
        raise CliError(str(exc)) from None
    out = dict(decoded.to_json(), round_trip=V.round_trip(tok, decoded).to_json())
    if args.stream:
        out["stream"] = token_stream(decoded).to_json()
    return out


def _decode_table(result: dict[str, Any]) -> str:
    rt = result["round_trip"]
    lines = [result["text"]]
    if result["unknown"]:
        lines.append("not tokens of " + result["tokenizer"] + ": " + ", ".join(map(str, result["unknown"])))
    lines.append(("round trip: same ids" if rt["same"] else f"round trip: other ids from position "
                  f"{rt['first_difference']}: {rt['why']}"))
    if "stream" in result:
        s = result["stream"]
        lines.append(f"streamed: {s['broken']} of {len(s['steps'])} tokens show U+FFFD printed alone; "
                     f"a buffering streamer waits at {s['waits']}")
        for step in s["steps"]:
            held = f"  (holds {step['held']})" if step["held"] else ""
            lines.append(f"  {step['id']:>8}  {step['bytes']:<24} alone {step['alone']!r:<10} prints "
                         f"{step['printed']!r}{held}")
    return "\n".join(lines)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``vocab`` and ``decode`` subcommands."""
    p = sub.add_parser("vocab", help="look up a token id, search a vocabulary, count tokens per script, "
                                     "find unreachable or unused tokens")
    p.add_argument("--tokenizer", required=True, help="zoo id, file:PATH or hf:ORG/NAME")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--id", type=int, help="describe this token id")
    what.add_argument("--search", help="list the tokens that match (see --mode); empty lists them all")
    what.add_argument("--census", action="store_true", help="tokens per Unicode script")
    what.add_argument("--unreachable", action="store_true",
                      help="tokens whose own text does not encode back to them (encode(decode([id])) != [id])")
    what.add_argument("--unused", action="store_true", help="tokens a corpus never uses (--corpus, default: bundled)")
    p.add_argument("--mode", choices=V.SEARCH_MODES, default="text", help="what --search matches (default: %(default)s)")
    p.add_argument("--page", type=int_range(0, 10_000_000), default=0, help="page of the search results (from 0)")
    p.add_argument("--page-size", type=int_range(1, 10_000), default=50, help="results per page (default: %(default)s)")
    p.add_argument("--limit", type=int_range(0, 10_000_000), default=None, help="list at most this many tokens")
    p.add_argument("--corpus", help="UTF-8 text for --unused (one document per line)")
    p.add_argument("--pattern", default="cl100k", help="split pattern for a file:*.tiktoken tokenizer")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_vocab, table=_vocab_table)

    d = sub.add_parser("decode", help="decode a list of token ids (unknown ids named) and encode the text again")
    d.add_argument("--tokenizer", required=True, help="zoo id, file:PATH or hf:ORG/NAME")
    src = d.add_mutually_exclusive_group(required=True)
    src.add_argument("--ids", help='ids separated by commas or spaces, or a JSON list: "1,2,3"')
    src.add_argument("--ids-file", help="a file of ids in the same forms")
    d.add_argument("--pattern", default="cl100k", help="split pattern for a file:*.tiktoken tokenizer")
    d.add_argument("--stream", action="store_true",
                   help="also replay the ids as a chat streams them: each token printed alone (U+FFFD for part of "
                        "a character) against a streamer that holds unfinished bytes back")
    d.add_argument("--json", action="store_true", help="print JSON")
    d.set_defaults(func=_decode, table=_decode_table)
