"""``python -m core train | evaluate | special-tokens | round-trip``: the train page's analyses as JSON.

- ``train --recipe NAME --vocab-size N [--corpus F] --out tokenizer.json``:
  split the corpus (by document, fixed seed), train on the training part,
  save, prove the save (re-save sha256 + ids), and report the held-out
  metrics row. Without ``--corpus`` the bundled Bangla corpus is used.
- ``evaluate --tokenizers A,B (--heldout F | --corpus F)``: the metrics
  table for saved ``tokenizer.json`` files and zoo ids on held-out text
  (``--heldout``: every non-empty line is a sentence; ``--corpus``: the
  held-out part of the same split ``train`` used). ``--baselines`` adds
  words/code-point rows (needs ``--corpus``).
- ``special-tokens --tokenizers A,B --text T``: does typed "[SEP]" or
  "<|endoftext|>" become a control id?
- ``round-trip --tokenizers A,B [--file F]``: the built-in hard cases (or
  the lines of F), pass/fail per tokenizer.

A tokenizer spec is a path to a ``tokenizer.json`` or anything
:func:`core.pretrained.zoo.resolve` accepts (a zoo id, ``hf:ORG/NAME``, ``file:PATH``).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Iterable, Iterator

from ..analysis import corpus as C
from ..analysis import evaluate as E
from ..analysis import injection, roundtrip, stream
from ..analysis import recipes as R
from ..assets import BUNDLED_CORPUS
from ..i18n import T_, localize
from ..text import limits
from ..tokens import FullTokenizer
from .common import CliError, Progress, add_stream_options, int_range, read_text_file, stream_setup, write_atomic

#: Largest vocabulary ``train`` asks a recipe for.
MAX_TRAIN_VOCAB = 1_000_000
#: Bytes of a bigger ``--heldout`` file that ``evaluate`` reads unless ``--all`` is given: whole chunks spread evenly
#: over the file (tens of thousands of sentences, figures stable to the second decimal), so that a 50 MB file
#: answers in seconds instead of a minute; the output says how much was read.
EVAL_SAMPLE_BYTES = 4 << 20


def spread_chunks(chunks: Iterable[stream.Chunk], size: int, budget: int) -> Iterator[stream.Chunk]:
    """Whole chunks of a ``size``-byte file, about ``budget`` bytes in all, spread evenly over it: a chunk is
    kept when it starts at or after the next of ``k`` evenly spaced byte targets (all chunks when the file fits).
    """
    if size <= budget:
        yield from chunks
        return
    k = max(1, budget // stream.CHUNK_BYTES)
    targets = [i * size // k for i in range(k)]
    for chunk in chunks:
        if not targets:
            return
        if chunk.byte_start >= targets[0]:
            while targets and chunk.byte_start >= targets[0]:
                targets.pop(0)
            yield chunk


def _bundled_text() -> str:
    """The bundled corpus (small: held in memory; a ``--corpus`` file is streamed, see :func:`_file_split`)."""
    return BUNDLED_CORPUS.read_text(encoding="utf-8")


class _PassProgress:
    """A progress bar per pass of a :class:`core.analysis.corpus.FileSplit` (a new bar when the pass changes)."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.what = ""
        self.bar: Progress | None = None

    def __call__(self, done: int, total: int, what: str) -> None:
        if what != self.what:
            self.close()
            self.what, self.bar = what, Progress(total, f"{self.label}: {what}")
        assert self.bar is not None
        self.bar.update(done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def _file_split(args: argparse.Namespace, label: str) -> tuple[C.FileSplit, _PassProgress]:
    progress = _PassProgress(label)
    fs = C.FileSplit(args.corpus, heldout_fraction=args.heldout_fraction, seed=args.seed, progress=progress)
    try:
        return fs.__enter__(), progress
    except limits.LimitError as exc:
        progress.close()
        raise CliError(str(exc)) from None
    except BaseException:
        progress.close()
        raise


def _split(args: argparse.Namespace, text: str) -> E.Split:
    return E.split_corpus(text, heldout_fraction=args.heldout_fraction, seed=args.seed)


def load_spec(spec: str) -> FullTokenizer:
    """A tokenizer from a spec: a ``tokenizer.json`` path, else a zoo spec."""
    return stream.open_spec(spec)


def _specs(value: str) -> list[str]:
    specs = [s.strip() for s in value.split(",") if s.strip()]
    if not specs:
        raise CliError("give at least one tokenizer in --tokenizers")
    return specs


# -- train ---------------------------------------------------------------------


def _train(args: argparse.Namespace) -> dict[str, Any]:
    out = Path(args.out)
    if not args.corpus:  # the bundled corpus: small, held in memory
        split = _split(args, _bundled_text())
        tok = R.train(args.recipe, split.train, args.vocab_size, min_frequency=args.min_frequency)
        write_atomic(out, tok.json)
        proof = E.save_load_proof(out.read_bytes(), split.heldout)  # the proof reads back what landed on disk
        metrics = E.evaluate(tok, split.heldout)
        summary = split.summary()
    else:  # a corpus file: streamed in passes (core.analysis.corpus), never held whole
        fs, progress = _file_split(args, "train")
        try:
            tok = R.train_iter(args.recipe, fs.iter_train, args.vocab_size, min_frequency=args.min_frequency,
                               length=fs.train_sentences, feed=lambda: fs.iter_train("training (4/4)"))
            progress.close()
            write_atomic(out, tok.json)
            proof = E.save_load_proof(out.read_bytes(), fs.iter_heldout())
            metrics = E.metrics_from(tok, C.heldout_tally(tok, fs.heldout_path))
            summary = fs.summary
        finally:
            progress.close()
            fs.close()
    return {
        "recipe": args.recipe,
        "corpus": args.corpus or str(BUNDLED_CORPUS.name),
        "out": str(out),
        "sha256": tok.sha256,
        "split": summary,
        "proof": _proof_json(proof),
        "metrics": metrics.to_json(),
    }


def _proof_json(p: E.SaveLoadProof) -> dict[str, Any]:
    return {
        "sha256_saved": p.sha256_first,
        "sha256_resaved": p.sha256_second,
        "byte_identical": p.sha256_first == p.sha256_second,
        "sentences": p.sentences,
        "ids_identical": p.ids_identical,
        "first_mismatch": p.first_mismatch,
    }


def _row_line(r: dict[str, Any]) -> str:
    req = "-" if r["vocab_requested"] is None else f"{r['vocab_requested']:,}"
    secs = "-" if r["train_seconds"] is None else f"{r['train_seconds']:.2f}"
    return (f"{r['tokenizer'][:44]:<44} {req:>7} {r['vocab_obtained']:>8,} {r['tokens_per_sentence']:>9.2f} "
            f"{r['unk_pct']:>6.2f} {r['round_trip_pct']:>7.2f} {r['cut_pct']:>6.2f} {r['bad_pct']:>6.2f} {secs:>7}")


_HEADER = (f"{'tokenizer':<44} {'asked':>7} {'obtained':>8} {'tok/sent':>9} {'UNK%':>6} {'round%':>7} "
           f"{'cut%':>6} {'bad%':>6} {'train s':>7}")


def _train_table(res: dict[str, Any]) -> str:
    m = res["metrics"]
    s = res["split"]
    p = res["proof"]
    lines = [
        f"saved {res['out']}  sha256 {res['sha256']}",
        f"split by {s['unit']} (seed {s['seed']}): {s['train_sentences']:,} training / "
        f"{s['heldout_sentences']:,} held-out sentences ({s['heldout_dropped_seen_in_training']} dropped: seen in training)",
        f"re-save identical: {p['byte_identical']}; ids identical on {p['sentences']:,} held-out sentences: {p['ids_identical']}",
        "",
        _HEADER,
        _row_line(m),
    ]
    if m["vocab_note"]:
        lines.append(f"  note: {m['vocab_note']}")
    for f in m["failures"][:3]:
        lines.append(f"  round-trip failure ({f['reason']}): {f['original']!r} -> {f['decoded']!r}")
    return "\n".join(lines)


# -- evaluate ------------------------------------------------------------------


def _evaluate(args: argparse.Namespace) -> dict[str, Any]:
    if bool(args.heldout) == bool(args.corpus):
        raise CliError("give exactly one of --heldout FILE or --corpus FILE")
    if args.baselines and not args.corpus:
        raise CliError("--baselines needs --corpus (baselines learn their vocabulary from its training part)")
    if not args.corpus:
        return _evaluate_streamed(args)
    specs = _specs(args.tokenizers)
    toks = [load_spec(s) for s in specs]  # here first: a bad tokenizer is one error line before the corpus is read
    fs, progress = _file_split(args, "evaluate")
    try:
        progress.close()
        workers = args.workers if stream.file_size(fs.heldout_path) > stream.CHUNK_BYTES else 1
        rows = []
        proofs = {}
        for spec, tok in zip(specs, toks):
            task = stream.LinesTask(stream.TokSpec(spec, trained=True), "evaluate", E.MAX_FAILURES, newline_only=True)
            total = E.EvalTally()
            for _, t in stream.run_shards(stream.lines_shard, task, stream.iter_chunks(fs.heldout_path, cut="line"),
                                          workers=workers, scheduler=args.scheduler):
                total = total.merged(t)
            rows.append(E.metrics_from(tok, total).to_json())
            if tok.trained_json is not None:
                proofs[spec] = _proof_json(E.save_load_proof(tok.trained_json.encode("utf-8"), fs.iter_heldout()))
        if args.baselines:
            for b in R.BASELINES:
                base = R.train_baseline(b, fs.iter_train("baseline " + b))
                progress.close()
                rows.append(E.metrics_from(base, C.heldout_tally(base, fs.heldout_path)).to_json())
        return {"heldout": {"sentences": fs.heldout_sentences, "split": fs.summary}, "rows": rows, "proofs": proofs}
    finally:
        progress.close()
        fs.close()


def _evaluate_streamed(args: argparse.Namespace) -> dict[str, Any]:
    """``evaluate --heldout F``: every non-empty line of F, read in chunks cut after line breaks."""
    specs = _specs(args.tokenizers)
    toks = [load_spec(s) for s in specs]  # here first: a bad tokenizer is one error line before any worker starts
    size, workers, scheduler = stream_setup(args.heldout, args)
    budget = size if args.all else EVAL_SAMPLE_BYTES
    rows = []
    proofs = {}
    sentences = read = 0
    for spec, tok in zip(specs, toks):
        progress = Progress(min(size, budget), f"evaluate {spec}")
        task = stream.LinesTask(stream.TokSpec(spec, trained=True), "evaluate", E.MAX_FAILURES)
        total = E.EvalTally()
        read = 0
        chunks = spread_chunks(stream.iter_chunks(args.heldout, cut="line"), size, budget)
        for chunk, t in stream.run_shards(stream.lines_shard, task, chunks, workers=workers, scheduler=scheduler):
            total = total.merged(t)
            read += chunk.nbytes
            progress.update(read)
        progress.close()
        if not total.sentences:
            raise CliError(f"{args.heldout} has no non-empty lines to evaluate on")
        sentences = total.sentences
        rows.append(E.metrics_from(tok, total).to_json())
        if tok.trained_json is not None and size <= limits.MAX_STEP_TEXT_BYTES:
            held = [ln for ln in read_text_file(args.heldout).splitlines() if ln.strip()]
            proofs[spec] = _proof_json(E.save_load_proof(tok.trained_json.encode("utf-8"), held))
    sampled = read < size
    if sampled:
        print(localize(T_("note: read {read:,} of the file's {size:,} bytes ({sentences:,} sentences, whole chunks "
                          "spread over the file); give --all to read all of it", read=read, size=size,
                          sentences=sentences)), file=sys.stderr)
    return {"heldout": {"sentences": sentences, "file": args.heldout, "bytes_read": read, "file_bytes": size,
                        "complete": not sampled}, "rows": rows, "proofs": proofs}


def _evaluate_table(res: dict[str, Any]) -> str:
    lines = [f"held-out sentences: {res['heldout']['sentences']:,}", _HEADER]
    lines += [_row_line(r) for r in res["rows"]]
    for r in res["rows"]:
        if r["vocab_note"]:
            lines.append(f"  {r['tokenizer']}: {r['vocab_note']}")
    for spec, p in res["proofs"].items():
        lines.append(f"  {spec}: re-save identical {p['byte_identical']}, ids identical {p['ids_identical']}")
    return "\n".join(lines)


# -- special tokens and round trip ---------------------------------------------------


def _special(args: argparse.Namespace) -> dict[str, Any]:
    out = []
    for spec in _specs(args.tokenizers):
        tok = load_spec(spec)
        for r in injection.injection_check(tok, args.text, name=spec):
            out.append({"tokenizer": spec, "mode": r.mode, "outcome": r.outcome, "risk": r.risk,
                        "controls": [list(c) for c in r.controls], "ids": list(r.ids), "detail": r.detail})
    return {"text": args.text, "results": out}


def _special_table(res: dict[str, Any]) -> str:
    lines = [f"text: {res['text']!r}"]
    for r in res["results"]:
        flag = "INJECTION RISK" if r["risk"] else ""
        lines.append(f"{r['tokenizer'][:28]:<28} {r['mode'][:30]:<30} {r['outcome']:<8} {flag:<15} {r['detail'][:80]}")
    return "\n".join(lines)


def _round_trip(args: argparse.Namespace) -> dict[str, Any]:
    if args.file:
        return _round_trip_streamed(args)
    out = {}
    for spec in _specs(args.tokenizers):
        results = roundtrip.round_trip_suite(load_spec(spec), list(roundtrip.HARD_CASES))
        out[spec] = {
            "passed": sum(r.ok for r in results),
            "cases": len(results),
            "results": [{"case": r.case, "ok": r.ok, "text": r.normalized, "decoded": r.decoded, "reason": r.reason}
                        for r in results],
        }
    return {"tokenizers": out}


def _round_trip_streamed(args: argparse.Namespace) -> dict[str, Any]:
    """``round-trip --file F``: every non-empty line is a case; ``results`` lists the first failures only."""
    specs = _specs(args.tokenizers)
    for spec in specs:
        load_spec(spec)  # here first: a bad tokenizer is one error line before any worker starts
    size, workers, scheduler = stream_setup(args.file, args)
    out = {}
    for spec in specs:
        progress = Progress(size, f"round-trip {spec}")
        task = stream.LinesTask(stream.TokSpec(spec, trained=True), "round-trip", stream.MAX_LISTED_FAILURES)
        total = stream.RoundTripTally()
        for chunk, t in stream.run_shards(stream.lines_shard, task, stream.iter_chunks(args.file, cut="line"),
                                          workers=workers, scheduler=scheduler):
            total = total.merged(t, stream.MAX_LISTED_FAILURES)
            progress.update(chunk.byte_start + chunk.nbytes)
        progress.close()
        if not total.cases:
            raise CliError(f"{args.file} has no non-empty lines")
        out[spec] = {"passed": total.passed, "cases": total.cases, "results": list(total.failures)}
    return {"tokenizers": out}


def _round_trip_table(res: dict[str, Any]) -> str:
    lines = []
    for spec, r in res["tokenizers"].items():
        lines.append(f"{spec}: {r['passed']}/{r['cases']} round-trip")
        lines += [f"  FAIL {x['case']}: {x['text']!r} -> {x['decoded']!r} ({x['reason']})" for x in r["results"] if not x["ok"]]
    return "\n".join(lines)


def _fraction(value: str) -> float:
    try:
        x = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number") from None
    if not 0 < x < 1:
        raise argparse.ArgumentTypeError(f"{value} must be between 0 and 1")
    return x


def _split_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=int, default=E.SPLIT_SEED, help=f"split seed (default {E.SPLIT_SEED})")
    p.add_argument("--heldout-fraction", type=_fraction, default=E.HELDOUT_FRACTION,
                   help=f"share of documents held out (default {E.HELDOUT_FRACTION})")


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``train``, ``evaluate``, ``special-tokens`` and ``round-trip`` to the CLI."""
    p = sub.add_parser("train", help="train a tokenizer recipe, save tokenizer.json, report held-out metrics")
    p.add_argument("--recipe", required=True, choices=list(R.RECIPES))
    p.add_argument("--vocab-size", type=int_range(1, MAX_TRAIN_VOCAB), required=True)
    p.add_argument("--corpus", help="UTF-8 text file, read in 1 MB chunks (default: the bundled Bangla corpus)")
    p.add_argument("--out", required=True, help="where to write tokenizer.json")
    p.add_argument("--min-frequency", type=int_range(1, 1_000_000_000), default=R.DEFAULT_MIN_FREQUENCY)
    _split_args(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_train, table=_train_table)

    p = sub.add_parser("evaluate", help="metrics table for tokenizers on held-out text")
    p.add_argument("--tokenizers", required=True, help="comma-separated: tokenizer.json paths or zoo ids")
    p.add_argument("--heldout", help="UTF-8 file: every non-empty line is a held-out sentence")
    p.add_argument("--corpus", help="UTF-8 corpus: evaluate on the held-out part of its split (streamed)")
    p.add_argument("--baselines", action="store_true", help="add words/code-point baselines (needs --corpus)")
    p.add_argument("--all", action="store_true", help=f"read all of a --heldout file bigger than "
                   f"{EVAL_SAMPLE_BYTES >> 20} MB (by default, that many bytes of whole chunks spread over it)")
    _split_args(p)
    add_stream_options(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_evaluate, table=_evaluate_table)

    p = sub.add_parser("special-tokens", help="does text spelling [SEP] or <|endoftext|> become a control id?")
    p.add_argument("--tokenizers", required=True, help="comma-separated: tokenizer.json paths or zoo ids")
    p.add_argument("--text", default="Hello [SEP] <|endoftext|> <s>")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_special, table=_special_table)

    p = sub.add_parser("round-trip", help="decode(encode(text)) == text over hard cases or a file's lines")
    p.add_argument("--tokenizers", required=True, help="comma-separated: tokenizer.json paths or zoo ids")
    p.add_argument("--file", help="UTF-8 file: every non-empty line is a case (streamed; lists the first "
                   f"{stream.MAX_LISTED_FAILURES} failures)")
    add_stream_options(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_round_trip, table=_round_trip_table)
