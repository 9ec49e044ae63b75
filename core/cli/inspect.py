"""``python -m core inspect|report``: the word inspector and the checkpoint report from the command line.

- ``inspect --word W --tokenizers A,B [--translation T]``: the reasons per
  layer for each tokenizer (JSON with ``--json``, readable text otherwise).
  JSON: ``{"word", "codepoints": [...], "utf8", "clusters": [...],
  "tokenizers": [{"id", "tokens": [...], "verdict", "translation",
  "layers": [{"name", "reasons": [{"kind", "text", "evidence"}]}]}]}``.
- ``report --tokenizers A,B --file F [--parallel P] --out report.html
  [--md report.md] [--d-model 4096]``: writes the self-contained HTML report
  and its Markdown twin (default: ``--out`` with ``.md``); prints the
  summary as JSON. ``P`` is the English version of ``F`` (plain UTF-8 text).

Tokenizer specs are zoo ids, ``file:PATH`` or ``hf:ORG/NAME``
(:func:`core.pretrained.zoo.resolve`).
"""
from __future__ import annotations

import argparse
import hashlib
from pathlib import Path
from typing import Any

from ..analysis import stream
from ..analysis.inspect import InspectError, inspect_word
from ..analysis.report import (
    DEFAULT_D_MODEL,
    MAX_REPORT_CHARS,
    ReportError,
    WholeText,
    build_report,
    to_html,
    to_markdown,
    with_whole_text,
)
from ..i18n import _, localize
from ..pretrained import zoo
from ..render import piece_label
from .common import CliError, add_stream_options, int_range, run_streamed, stream_setup, write_atomic


def _tokenizers(spec: str, pattern: str) -> list:
    ids = [s.strip() for s in spec.split(",") if s.strip()]
    if not ids:
        raise CliError("give at least one tokenizer in --tokenizers")
    try:
        return [zoo.resolve(i, pattern=pattern) for i in ids]
    except zoo.ZooError as exc:
        raise CliError(str(exc)) from None


def _inspect(args: argparse.Namespace) -> dict[str, Any]:
    toks = _tokenizers(args.tokenizers, args.pattern)
    try:
        ins = inspect_word(args.word, toks, translation=args.translation, lang=args.lang)
    except InspectError as exc:
        raise CliError(str(exc)) from None
    f = ins.facts
    return {
        "word": f.text,
        "codepoints": [{"hex": c.hex, "name": c.name, "category": c.category, "utf8": c.utf8_hex} for c in f.codepoints],
        "utf8": f.utf8,
        "clusters": [c.text for c in f.clusters],
        "tokenizers": [
            {
                "id": v.tokenizer,
                "tokens": [piece_label(p) for p in v.pieces],
                "ids": v.encoding.ids,
                "verdict": v.verdict,
                "translation": v.translation_verdict or None,
                "layers": [
                    {"name": la.name, "reasons": [{"kind": r.kind, "text": localize(r.text), "evidence": list(r.evidence)}
                                                  for r in la.reasons]}
                    for la in v.layers
                ],
            }
            for v in ins.views
        ],
    }


def _inspect_table(result: dict[str, Any]) -> str:
    n_cp, n_bytes, n_letters = len(result["codepoints"]), len(result["utf8"].split()), len(result["clusters"])
    lines = [_("{word}: {codepoints} code points, {bytes} bytes, {letters} letters ({clusters})").format(
        word=result["word"], codepoints=n_cp, bytes=n_bytes, letters=n_letters, clusters=" ".join(result["clusters"]))]
    for t in result["tokenizers"]:
        lines += ["", f"== {t['id']}: {t['verdict']}", "   " + _("tokens: {tokens}").format(tokens=" | ".join(t["tokens"]))]
        if t["translation"]:
            lines.append(f"   {t['translation']}")
        for la in t["layers"]:
            lines.append(f"   [{la['name']}]")
            lines += [f"     - {r['text']}" for r in la["reasons"]]
    return "\n".join(lines)


def _whole_counts(path: str, specs: list[str], toks: list, args: argparse.Namespace) -> tuple[dict, str, str]:
    """Per tokenizer, :class:`~core.analysis.stream.TextCounts` of the whole file (streamed), its sha256 and first chunk."""
    size, workers, scheduler = stream_setup(path, args)
    digest = hashlib.sha256()
    keep: list[str] = []
    counts = {}
    for n, (given, tok) in enumerate(zip(specs, toks)):
        spec = stream.TokSpec(given, args.pattern)  # how a worker process finds this tokenizer again
        cut: stream.Cut = "text" if stream.can_cut_text(tok) else "none"
        chunks = stream.iter_chunks(path, cut=cut)
        if n == 0:  # the first pass also hashes the file and keeps its first chunk
            chunks = _hashing(chunks, digest, keep)
        total = run_streamed(stream.tokenize_shard, stream.TokenizeTask(spec), chunks, stream.TextCounts(), size=size,
                             label=f"report {tok.id}", workers=workers, scheduler=scheduler)
        counts[tok.id] = total
    return counts, digest.hexdigest(), keep[0] if keep else ""


def _hashing(chunks, digest, keep: list[str]):  # noqa: ANN001, ANN202 - chunk iterator, hashlib object
    for chunk in chunks:
        digest.update(chunk.text.encode("utf-8"))
        if not keep:
            keep.append(chunk.text)
        yield chunk


def _report(args: argparse.Namespace) -> dict[str, Any]:
    out = Path(args.out)
    if out.suffix.lower() not in (".html", ".htm"):
        raise CliError(f"--out must end in .html (got {args.out})")
    md = Path(args.md) if args.md else out.with_suffix(".md")
    toks = _tokenizers(args.tokenizers, args.pattern)
    specs = [s.strip() for s in args.tokenizers.split(",") if s.strip()]
    counts, sha, first = _whole_counts(args.file, specs, toks, args)
    english = eng_counts = None
    if args.parallel:
        eng_counts, _sha, english = _whole_counts(args.parallel, specs, toks, args)
    any_counts = next(iter(counts.values()))
    sample = first[:MAX_REPORT_CHARS]
    try:
        report = build_report(sample, toks, english=english, d_model=args.d_model, label=Path(args.file).name,
                              parallel_label=Path(args.parallel).name if args.parallel else None, lang=args.lang)
    except ReportError as exc:
        raise CliError(str(exc)) from None
    whole = WholeText(any_counts.chars, any_counts.words, any_counts.bytes, sha, counts,
                      {k: v.tokens for k, v in eng_counts.items()} if eng_counts else None)
    report = with_whole_text(report, whole, len(sample))
    write_atomic(out, to_html(report))
    write_atomic(md, to_markdown(report))
    return dict(report.to_json(), html=str(out), markdown=str(md))


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``inspect`` and ``report`` subcommands."""
    p = sub.add_parser("inspect", help="why a word splits the way it does, layer by layer, per tokenizer")
    p.add_argument("--word", required=True)
    p.add_argument("--tokenizers", default="cl100k_base,o200k_base", help="comma-separated ids (default: %(default)s)")
    p.add_argument("--translation", help="the word's English translation (same counts)")
    p.add_argument("--pattern", default="cl100k", help="split pattern for a file:*.tiktoken tokenizer")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_inspect, table=_inspect_table)

    r = sub.add_parser("report", help="self-contained HTML + Markdown checkpoint report for several tokenizers")
    r.add_argument("--tokenizers", required=True, help="comma-separated ids, file:PATH or hf:ORG/NAME")
    r.add_argument("--file", required=True, help="UTF-8 text to measure")
    r.add_argument("--parallel", help="the English version of --file (for the premium)")
    r.add_argument("--out", required=True, help="report.html")
    r.add_argument("--md", help="Markdown output (default: --out with .md)")
    r.add_argument("--d-model", type=int_range(1, 1_000_000), default=DEFAULT_D_MODEL, help="model width for embedding parameters")
    r.add_argument("--pattern", default="cl100k", help="split pattern for a file:*.tiktoken tokenizer")
    add_stream_options(r)
    r.set_defaults(func=_report, table=None)
