"""``python -m core bpe-train``: the traced BPE trainer from the command line."""
from __future__ import annotations

import argparse
from typing import Any

from ..models.bpe import (
    MAX_TRACE_WORDS,
    TIE_BREAKS,
    UNITS,
    BpeTrace,
    parse_word_table,
    train_bpe,
    word_counts,
    word_counts_stream,
)
from ..pipeline.pretokenize import resolve_pattern
from ..text.units import utf8_hex
from .common import CliError, Progress, int_range, read_text_file

#: Most merges a traced run records (every step is kept in the trace).
MAX_MERGES = 100_000


def _text(piece: bytes) -> str:
    """A piece as text; bytes that are not valid UTF-8 show as U+FFFD."""
    return piece.decode("utf-8", errors="replace")


def trace_to_json(trace: BpeTrace) -> dict[str, Any]:
    """The stable JSON shape of a training trace."""
    return {
        "unit": trace.unit,
        "tie_break": trace.tie_break,
        "pattern": trace.pattern,
        "initial": {"total_tokens": trace.initial_total_tokens, "vocab_size": trace.initial_vocab_size},
        "steps": [
            {
                "step": s.step,
                "left": _text(s.left),
                "right": _text(s.right),
                "merged": _text(s.merged),
                "left_hex": utf8_hex(s.left),
                "right_hex": utf8_hex(s.right),
                "count": s.count,
                "total_tokens": s.total_tokens,
                "vocab_size": s.vocab_size,
                "top_pairs": [
                    {"left": _text(p.left), "right": _text(p.right), "count": p.count} for p in s.top_pairs
                ],
            }
            for s in trace.steps
        ],
    }


def _corpus_words(path: str, pattern: str) -> dict[str, int]:
    """Pre-token counts of a corpus file: streamed in chunks for a named pattern, whole for a custom regex."""
    from ..analysis import stream

    pat = resolve_pattern(pattern)
    if pat.name == "custom":  # a user regex may look past any cut: the file is pre-tokenized whole
        return word_counts(read_text_file(path), pat)
    progress = Progress(stream.file_size(path), "bpe-train: counting words")

    def texts():  # noqa: ANN202
        for chunk in stream.iter_chunks(path, cut="line"):
            yield chunk.text
            progress.update(chunk.byte_start + chunk.nbytes)

    try:
        return word_counts_stream(texts(), pat)
    finally:
        progress.close()


def _bpe_train(args: argparse.Namespace) -> dict[str, Any]:
    if args.words is not None:
        if args.pattern is not None:
            raise CliError("--pattern applies to --corpus; --words are used as given (encoding splits with ws-attached)")
        table = parse_word_table(args.words)
        pattern = "ws-attached"
    else:
        pattern = args.pattern or "ws-attached"
        table = _corpus_words(args.corpus, pattern)
    trace = train_bpe(table, merges=args.merges, unit=args.unit, tie_break=args.tie_break, pattern=pattern,
                      top_k=args.top_k, min_frequency=args.min_frequency)
    result = trace_to_json(trace)
    if args.encode is not None:
        tok = trace.tokenizer()
        enc = tok.encode(args.encode)
        result["encoded"] = {
            "tokens": [t.text for t in enc.tokens],
            "hex": [utf8_hex(t.data) for t in enc.tokens],
            "ids": enc.ids,
            "decoded": tok.decode(enc.tokens),
            "round_trip": tok.decode(enc.tokens) == args.encode,
        }
    return result


def _bpe_table(result: dict[str, Any]) -> str:
    init = result["initial"]
    lines = [
        f"BPE ({result['unit']}, tie-break {result['tie_break']}, pattern {result['pattern']})",
        f"start: {init['total_tokens']} tokens, vocabulary {init['vocab_size']}",
        f"{'step':>5}  {'pair':<28} {'count':>7} {'tokens':>8} {'vocab':>6}",
    ]
    for s in result["steps"]:
        pair = f"{s['left']} + {s['right']}"
        if "\ufffd" in pair:
            pair = f"{s['left_hex']} + {s['right_hex']}"
        lines.append(f"{s['step']:>5}  {pair:<28} {s['count']:>7} {s['total_tokens']:>8} {s['vocab_size']:>6}")
    if "encoded" in result:
        enc = result["encoded"]
        shown = [h if "\ufffd" in t else t for t, h in zip(enc["tokens"], enc["hex"])]
        lines.append(f"encoded: {' | '.join(shown)}  ({len(enc['tokens'])} tokens, round trip {'ok' if enc['round_trip'] else 'FAILED'})")
    return "\n".join(lines)


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``bpe-train`` to the CLI."""
    p = sub.add_parser("bpe-train", help="train BPE with a full step trace")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--words", help='word table, e.g. "কার:4,জার:2"')
    src.add_argument("--corpus", help="UTF-8 text file (read in 1 MB chunks; at most "
                     f"{MAX_TRACE_WORDS:,} distinct words)")
    p.add_argument("--merges", type=int_range(0, MAX_MERGES), required=True, help="number of merges K (>= 0)")
    p.add_argument("--unit", choices=UNITS, default="codepoint")
    p.add_argument("--tie-break", choices=TIE_BREAKS, default="first-seen")
    p.add_argument("--pattern", help="pre-tokenizer name or a regex (with --corpus; default ws-attached)")
    p.add_argument("--min-frequency", type=int_range(1, 1_000_000_000), default=1,
                   help="stop when the best pair occurs fewer times than this (default 1: merge while any pair is left)")
    p.add_argument("--top-k", type=int_range(1, 1000), default=5, help="candidate pairs recorded per step")
    p.add_argument("--encode", help="text to encode with the learned merges")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_bpe_train, table=_bpe_table)
