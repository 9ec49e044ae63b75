"""``python -m core list|tokenize|replay|compare|differences``: the zoo from the command line.

JSON shapes (with ``--json``; a readable table otherwise):

- ``list``: ``[{"id", "name", "algorithm", "vocab_size", "source", "sha256", "available"}]``
- ``tokenize``: ``{"tokenizer", "count", "tokens": [{"id", "text", "hex", "start", "end",
  "valid_utf8"}], "boundaries": {"total", "inside_grapheme", "inside_codepoint"}}``
- ``replay``: ``{"steps": [{"rank", "pieces_hex": [...]}], "final_ids": [...]}``
- ``compare``: ``{"<tokenizer>": {"languages": {"<lang>": {"tokens", "words", "chars",
  "bytes"}}, "premium": {"<lang>": float}}}``; ``--csv`` prints a table instead.
- ``differences``: ``{"chars", "positions", "common", "common_cuts": [[char, inner]], "differing":
  [[char, inner]], "agreement", "rows": [{"name", "cuts", "not_shared": [...], "missed": [...]}]}``:
  where the tokenizers' cuts of one text part ways (Compare's differences view). A cut ``[char, inner]``
  is before character ``char`` (``inner`` 0) or inside it, after ``inner`` of its UTF-8 bytes.

Text that spells a control token is encoded as plain text; a warning goes to stderr.
"""
from __future__ import annotations

import argparse
import csv
import io
import sys
from typing import Any

from ..analysis import format_tax, measures, stream, tax
from ..assets import BUNDLED_TSV
from ..pretrained import zoo
from ..pretrained.adapter import PretrainedTokenizer
from ..pretrained.locate import is_available
from ..pretrained.replay import offered, replay
from ..text import limits
from ..text.disagree import disagreement
from ..text.units import utf8_hex
from .common import (
    CliError,
    Progress,
    add_stream_options,
    decode_utf8,
    run_streamed,
    stream_setup,
    streamed_summary,
    text_arg,
)


def _list(args: argparse.Namespace) -> list[dict[str, Any]]:
    return [
        {
            "id": e.id,
            "name": e.name,
            "algorithm": e.algorithm,
            "vocab_size": e.vocab_size,
            "source": e.source,
            "sha256": e.sha256,
            "available": is_available(e),
            # what the vendor's encode does before the model, how we know, and where a runtime cuts otherwise
            "audit": {"steps": list(e.audit.steps), "before_model": e.audit.before, "checked": e.audit.checked}
            if e.audit else None,
            "runtime_differs": {"runtime": e.runtime.runtime, "why": e.runtime.why, "example": e.runtime.example,
                                "model": list(e.runtime.model_pieces), "runtime_pieces": list(e.runtime.runtime_pieces)}
            if e.runtime else None,
        }
        for e in zoo.ENTRIES.values()
    ]


def _list_table(rows: list[dict[str, Any]]) -> str:
    lines = [f"{'id':<16} {'vocab':>8}  {'algorithm':<36} {'ok':<3} source"]
    for r in rows:
        ok = "yes" if r["available"] else "NO"
        lines.append(f"{r['id']:<16} {r['vocab_size']:>8}  {r['algorithm']:<36} {ok:<3} {r['source']}")
    return "\n".join(lines)


def _tokenizer(args: argparse.Namespace) -> PretrainedTokenizer:
    return zoo.resolve(args.tokenizer, pattern=getattr(args, "pattern", "cl100k"))


def _warn_specials(tok: PretrainedTokenizer, text: str) -> None:
    for hit in tok.special_hits(text):
        print(
            f"warning: {hit.text!r} at {hit.start}-{hit.end} spells control token {hit.id} of {tok.id}; "
            "encoded as plain text",
            file=sys.stderr,
        )


def _tokenize(args: argparse.Namespace) -> Any:
    if args.summary or args.jsonl:
        if not args.file:
            raise CliError("--summary and --jsonl read a --file")
        return _tokenize_streamed(args)
    text = text_arg(args)
    tok = _tokenizer(args)
    _warn_specials(tok, text)
    enc = tok.encode(text)
    rep = enc.report
    return {
        "tokenizer": tok.id,
        "count": len(enc.tokens),
        "tokens": [
            {
                "id": t.id,
                "text": t.text,
                "hex": utf8_hex(t.data),
                "start": t.start,
                "end": t.end,
                "valid_utf8": ok,
            }
            for t, ok in zip(enc.tokens, rep.valid_utf8)
        ],
        "boundaries": {"total": rep.total, "inside_grapheme": rep.inside_grapheme, "inside_codepoint": rep.inside_codepoint},
    }


def _tokenize_streamed(args: argparse.Namespace) -> Any:
    """``tokenize --file F --summary|--jsonl``: the file in chunks cut where the tokens cannot change."""
    spec = stream.TokSpec(args.tokenizer, args.pattern)
    tok = stream.load_spec(spec)  # here first: a bad tokenizer is one error line before any worker starts
    cut: stream.Cut = "text" if stream.can_cut_text(tok) else "none"
    size, workers, scheduler = stream_setup(args.file, args)
    total = run_streamed(stream.tokenize_shard, stream.TokenizeTask(spec, jsonl=args.jsonl),
                         stream.iter_chunks(args.file, cut=cut), stream.TextCounts(), size=size,
                         label=f"tokenize {tok.id}", workers=workers, scheduler=scheduler)
    if total.special_text:
        print(f"warning: {total.special_text:,} places in {args.file} spell control tokens of {tok.id}; "
              "encoded as plain text", file=sys.stderr)
    summary = {"tokenizer": tok.id, "file": args.file, **total.to_json()}
    return streamed_summary(summary, bool(args.jsonl))


def _tokenize_table(result: dict[str, Any]) -> str:
    b = result["boundaries"]
    if "tokens" not in result or not isinstance(result["tokens"], list):
        return (f"{result['tokenizer']}: {result['tokens']:,} tokens, {result['words']:,} words, "
                f"{result['tokens_per_word']:.3f} tokens/word, {result['bytes_per_token']:.3f} bytes/token; "
                f"{b['inside_grapheme']:,} of {b['total']:,} boundaries inside a grapheme cluster "
                f"({b['inside_codepoint']:,} inside a code point)")
    lines = [
        f"{result['tokenizer']}: {result['count']} tokens; {b['inside_grapheme']} of {b['total']} boundaries "
        f"inside a grapheme cluster ({b['inside_codepoint']} inside a code point)"
    ]
    for t in result["tokens"]:
        flag = "" if t["valid_utf8"] else "  (partial UTF-8)"
        lines.append(f"{t['id']!s:>8} {t['start']:>5}-{t['end']:<5} {t['text']!r:<16} {t['hex']}{flag}")
    return "\n".join(lines)


def _replay(args: argparse.Namespace) -> dict[str, Any]:
    tok = _tokenizer(args)
    if not tok.replayable:
        raise CliError(f"{tok.id} is not BPE ({tok.entry.algorithm}), so it merges no pairs; replay works for: "
                       + ", ".join(i for i, e in zoo.ENTRIES.items() if offered(e)))
    r = replay(tok, text_arg(args))
    if not r.matches_library:  # never expected; say so loudly rather than print a wrong replay
        raise CliError(f"replay of {tok.id} disagrees with the library: {r.final_ids} vs {list(r.library_ids)}")
    return {
        "steps": [{"rank": s.rank, "pieces_hex": [utf8_hex(p) for p in s.pieces]} for s in r.steps()],
        "final_ids": r.final_ids,
        # where tiktoken's engine (older Unicode tables) cuts otherwise than Unicode 17.0: the model saw those cuts
        "notes": [{"piece": k, "offset": n.offset, "message": n.message} for k, n in r.piece_notes()],
    }


def _replay_table(result: dict[str, Any]) -> str:
    lines = [f"{len(result['steps'])} merges; final ids {result['final_ids']}"]
    for n, s in enumerate(result["steps"], 1):
        lines.append(f"{n:>3}. rank {s['rank']:>7}: " + " | ".join(s["pieces_hex"]))
    lines += [f"note at piece {n['piece'] + 1}: {n['message']}" for n in result.get("notes", [])]
    return "\n".join(lines)


def _tsv_header(path: str, label: str) -> tuple[tuple[str, ...], int, int]:
    """(languages, bytes up to and including the header line, lines before the rows) of a TSV file."""
    with limits.open_regular(path, "TSV file") as fh:
        consumed = lines = 0
        while True:
            line = fh.readline(limits.MAX_STEP_TEXT_BYTES + 1)
            if not line:
                raise tax.ParallelError(f"{label} is empty")
            if len(line) > limits.MAX_STEP_TEXT_BYTES:
                raise tax.ParallelError(f"{label}: the header row is longer than {limits.MAX_STEP_TEXT_BYTES:,} bytes")
            consumed += len(line)
            lines += 1
            text = decode_utf8(line, path)
            if text.strip():
                return tax.parse_header(text.rstrip("\n"), label), consumed, lines


def _compare(args: argparse.Namespace) -> dict[str, Any]:
    if getattr(args, "csv", False):
        args.table = compare_csv  # the CLI prints args.table(result) after this returns
    path = args.parallel or str(BUNDLED_TSV)
    label = args.parallel or "bundled sentences (assets/parallel.tsv)"
    ids = [t.strip() for t in args.tokenizers.split(",") if t.strip()]
    if not ids:
        raise CliError("give at least one tokenizer id to --tokenizers")
    size, workers, scheduler = stream_setup(path, args)
    languages, skip, header_lines = _tsv_header(path, label)
    specs = tuple(stream.TokSpec(t) for t in ids)
    toks = [stream.load_spec(s) for s in specs]  # here first: a bad id is one error line before any worker starts
    task = stream.TaxTask(specs, languages, label, header_lines)
    progress = Progress(size, "compare")
    total = measures.TaxCounts(())
    done = skip
    for chunk, counts in stream.run_shards(measures.tax_shard, task, stream.iter_chunks(path, cut="line", skip_bytes=skip),
                                           workers=workers, scheduler=scheduler):
        total = total + counts
        done += chunk.nbytes
        progress.update(done)
    progress.close()
    if not total.rows:
        raise CliError(f"{label} has a header but no rows")
    out: dict[str, Any] = {tok.id: measures.compare_json(tok, languages, cells) for tok, cells in zip(toks, total.cells)}
    return out


#: The per-language measures of :mod:`core.analysis.measures`, in the CSV's column order.
MEASURE_KEYS = ("single_token_words", "continued_words", "single_token_words_space", "continued_words_space",
                "pretokenizer_pieces", "optimal_tokens", "renyi_efficiency")


def compare_csv(result: dict[str, Any]) -> str:
    """The compare result as CSV: one row per tokenizer and language."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["tokenizer", "language", "tokens", "words", "chars", "bytes", "tokens_per_word", "premium", *MEASURE_KEYS,
                "vocab_size", "gini"])
    for tid, res in result.items():
        for lang, c in res["languages"].items():
            tpw = c["tokens"] / c["words"] if c["words"] else 0.0
            w.writerow([tid, lang, c["tokens"], c["words"], c["chars"], c["bytes"], f"{tpw:.3f}", f"{res['premium'][lang]:.3f}",
                        *("" if c[k] is None else c[k] for k in MEASURE_KEYS), res["vocab_size"], res["gini"]])
    return buf.getvalue().rstrip("\n")


def _compare_table(result: dict[str, Any]) -> str:
    langs = list(next(iter(result.values()))["languages"]) if result else []
    lines = [f"{'premium vs en':<16}" + "".join(f"{lang:>8}" for lang in langs)]
    for tid, res in result.items():
        lines.append(f"{tid:<16}" + "".join(f"{res['premium'][lang]:>8.2f}" for lang in langs))
    return "\n".join(lines)


def _format_tax(args: argparse.Namespace) -> dict[str, Any]:
    ids = list(dict.fromkeys(t.strip() for t in args.tokenizers.split(",") if t.strip()))
    if not ids:
        raise CliError("give at least one tokenizer id to --tokenizers")
    if args.file:
        data = limits.read_regular(args.file, max_bytes=format_tax.MAX_BYTES, what="records file")
        sets = {"upload": format_tax.parse_records(data, args.file)}
    else:
        sets = format_tax.bundled_records()
    toks = [zoo.resolve(t) for t in ids]  # every id checked before any encoding
    return {tok.id: format_tax.measure(tok, sets).to_json() for tok in toks}


def _format_tax_table(result: dict[str, Any]) -> str:
    lines = [f"{'tokens':<16}" + "".join(f"{f:>14}" for f in format_tax.FORMATS) + f"{'escaped/utf8':>14}"]
    for tid, res in result.items():
        worst = max(res["escape_premium"].items(), key=lambda kv: kv[1])
        lines.append(f"{tid:<16}" + "".join(f"{res['formats'][f]['tokens']:>14,}" for f in format_tax.FORMATS)
                     + f"{worst[1]:>10.2f}x {worst[0]}")
    return "\n".join(lines)


def _differences(args: argparse.Namespace) -> dict[str, Any]:
    ids = list(dict.fromkeys(t.strip() for t in args.tokenizers.split(",") if t.strip()))
    if len(ids) < 2:
        raise CliError("give at least two tokenizer ids to --tokenizers: the differences are between their cuts")
    text = text_arg(args)
    toks = [zoo.resolve(t, pattern=args.pattern) for t in ids]  # every id checked before any encoding
    for tok in toks:
        _warn_specials(tok, text)
    d = disagreement(text, [(tok.id, tok.encode(text).byte_spans) for tok in toks])
    args.table = lambda result: _differences_table(result, text)  # the readable table also marks the text
    return {**d.to_json(), "common_cuts": d.common_json()}


#: Characters of the text the readable table shows with its cuts marked.
_MARKED_CHARS = 300


def _differences_table(result: dict[str, Any], text: str = "") -> str:
    lines = [f"{100 * result['agreement']:.1f}% agreement: {result['common']} of {result['positions']} cut positions "
             f"are made by every tokenizer, {len(result['differing'])} by some only"]
    width = max(len(r["name"]) for r in result["rows"])
    if text:  # "|" where every tokenizer cuts, "¦" where some do; "*" after a character cut inside
        common = {tuple(c) for c in result["common_cuts"] if c[0] < _MARKED_CHARS}  # only those marked below
        differing = {tuple(c) for c in result["differing"] if c[0] < _MARKED_CHARS}
        cut_inside = {c[0] for c in common | differing if c[1]}
        marked = []
        for i, ch in enumerate(text[:_MARKED_CHARS]):
            marked.append("|" if (i, 0) in common else "¦" if (i, 0) in differing else "")
            marked.append(ch + ("*" if i in cut_inside else ""))
        lines.append("  " + "".join(marked) + ("…" if len(text) > _MARKED_CHARS else ""))
        lines.append("  (| every tokenizer cuts here, ¦ only some do, * a cut inside the character before it)")
    for r in result["rows"]:
        lines.append(f"  {r['name']:<{width}}  {r['cuts']:>6,} cuts  {len(r['not_shared']):>5,} not shared by all  "
                     f"{len(r['missed']):>5,} made by others only")
    return "\n".join(lines)


def _text_source(p: argparse.ArgumentParser) -> None:
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--text", help="the text")
    src.add_argument("--file", help="a UTF-8 text file")


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``list``, ``tokenize``, ``replay``, ``compare``, ``format-tax`` and ``differences`` to the CLI."""
    spec_help = "a zoo id (see `list`), hf:ORG/NAME (needs network) or file:PATH (tokenizer.json, .tiktoken, .model)"
    p = sub.add_parser("list", help="pretrained tokenizers available offline")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_list, table=_list_table)

    p = sub.add_parser("tokenize", help="tokens of a text with ids, bytes, spans and boundary counts")
    p.add_argument("--tokenizer", required=True, help=spec_help)
    p.add_argument("--pattern", default="cl100k", help="split pattern for a .tiktoken file: cl100k, o200k, llama3 or a regex")
    _text_source(p)
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--summary", action="store_true", help="stream --file: the counts only")
    mode.add_argument("--jsonl", action="store_true", help="stream --file: one JSON line per token, then the summary")
    add_stream_options(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_tokenize, table=_tokenize_table)

    p = sub.add_parser("replay", help="every BPE merge applied to a word, in the library's own order (rank or score)")
    p.add_argument("--tokenizer", required=True, help=spec_help)
    p.add_argument("--pattern", default="cl100k", help="split pattern for a .tiktoken file")
    _text_source(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_replay, table=_replay_table)

    p = sub.add_parser("compare", help="multilingual tax: tokens per language and premium vs English")
    p.add_argument("--tokenizers", required=True, help="comma-separated tokenizer ids")
    p.add_argument("--parallel", help="TSV with a header row of language codes incl. en (default: bundled sample)")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print JSON")
    fmt.add_argument("--csv", action="store_true", help="print CSV")
    add_stream_options(p)
    p.set_defaults(func=_compare, table=_compare_table)

    p = sub.add_parser("format-tax", help="the same records as escaped JSON, UTF-8 JSON, CSV and YAML: tokens of each")
    p.add_argument("--tokenizers", required=True, help="comma-separated tokenizer ids")
    p.add_argument("--file", help="a JSON list of objects (default: the bundled sentences as records, per language)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_format_tax, table=_format_tax_table)

    p = sub.add_parser("differences", help="where several tokenizers' cuts of one text agree and where they part ways")
    p.add_argument("--tokenizers", required=True, help="comma-separated tokenizers, at least two (" + spec_help + ")")
    p.add_argument("--pattern", default="cl100k", help="split pattern for a .tiktoken file")
    _text_source(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_differences, table=_differences_table)
