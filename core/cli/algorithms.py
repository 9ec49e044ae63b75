"""CLI subcommands for the other algorithms and stages.

- ``wordpiece --vocab FILE|sample --text T``: greedy longest-match steps per word.
- ``unigram --tokenizer FILE|sample --text T``: lattice, best path, top 5 per word.
- ``normalize --form NFC|NFD|NFKC|NFKD|bert-uncased|...|uzbek --text T``: diff and warnings.
- ``pretokenize --pattern NAME|all --text T``: pieces and mark splits.

``sample`` trains on a learning language's bundled sample (``--sample CODE``, a
:data:`core.languages.LANGUAGES` code; default the table's first, Bangla) with the
real ``tokenizers`` trainers. Every command prints JSON with ``--json`` and a short table otherwise.
"""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, Iterable

from .. import languages
from ..analysis import pretok_compare
from ..i18n import localize
from ..models import unigram, wordpiece
from ..pipeline import normalize as norm
from ..text import limits
from ..text.units import CodePointInfo
from .common import CliError, int_range, read_file_bytes, text_arg

#: Largest vocabulary trained on the bundled sample (``--vocab sample`` / ``--tokenizer sample``).
MAX_SAMPLE_VOCAB = 100_000


def _read_bytes(path: str) -> bytes:
    """A tokenizer file's bytes: regular, within the size limit, and (if JSON) not nested too deep."""
    data = read_file_bytes(path, max_bytes=limits.MAX_TOKENIZER_FILE_BYTES, what="tokenizer file")
    if data.lstrip()[:1] in (b"{", b"["):
        try:
            limits.check_json_bytes(data, path)
        except limits.LimitError as exc:
            raise CliError(str(exc)) from None
    return data


def sample_language(value: str) -> str:
    """An argparse ``type=`` for ``--sample``: a learning language's code (read from the table when parsed)."""
    if value not in languages.LANGUAGES:
        raise argparse.ArgumentTypeError(f"unknown sample language {value!r} (choose from {', '.join(languages.codes())})")
    return value


def _sample_lines(code: str | None) -> list[str]:
    """The learning sample of ``code`` (default: the table's first language), one sentence per line."""
    return languages.LANGUAGES[code or languages.default()].sample_lines()


def _sample_arg(p: argparse.ArgumentParser, flag: str) -> None:
    p.add_argument("--sample", type=sample_language, metavar="CODE",
                   help=f"the learning language whose bundled sample {flag} sample trains on "
                        "(a code of core/languages.py; default: the first, bn)")


def _source(p: argparse.ArgumentParser) -> None:
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--text", help="the input text")
    src.add_argument("--file", help="a UTF-8 text file to read instead")
    p.add_argument("--json", action="store_true", help="print JSON")


# ---------------------------------------------------------------- wordpiece


def _wordpiece(args: argparse.Namespace) -> dict[str, Any]:
    text = text_arg(args)
    try:
        if args.vocab == "sample":
            vocab = wordpiece.train_wordpiece(_sample_lines(args.sample), vocab_size=args.vocab_size)
        else:
            vocab = wordpiece.load_vocab_bytes(_read_bytes(args.vocab), Path(args.vocab).name)
    except wordpiece.VocabError as exc:
        raise CliError(str(exc)) from None
    tr = wordpiece.encode(text, vocab)
    return {
        "vocab": {"source": vocab.source, "size": len(vocab), "unk_token": vocab.unk_token, "prefix": vocab.prefix,
                  "notes": list(vocab.notes)},
        "tokens": tr.pieces,
        "ids": tr.ids,
        "words": [
            {
                "word": w.word, "start": w.start, "end": w.end, "pieces": list(w.pieces), "ids": list(w.ids),
                "unk": w.unk, "too_long": w.too_long, "reason": w.reason,
                "steps": [
                    {"position": s.position, "remaining": s.remaining, "match": s.match,
                     "tried": [c.piece for c in s.candidates]}
                    for s in w.steps
                ],
            }
            for w in tr.words
        ],
    }


def _wordpiece_table(r: dict[str, Any]) -> str:
    lines = [f"vocab: {r['vocab']['source']} ({r['vocab']['size']} entries)"]
    for w in r["words"]:
        lines.append(f"{w['word']}: {' '.join(w['pieces'])}" + (f"   [{w['reason']}]" if w["unk"] else ""))
        for s in w["steps"]:
            lines.append(f"    at {s['position']}: tried {len(s['tried'])}, match {s['match'] or '-'}")
    return "\n".join(lines)


# ---------------------------------------------------------------- unigram


def load_unigram(spec: str, *, vocab_size: int = 400, sample: str | None = None) -> unigram.UnigramModel:
    """``sample`` (trained on the bundled sample of learning language ``sample``, default the first) or a
    tokenizer.json / .model path."""
    if spec == "sample":
        return unigram.train_unigram(_sample_lines(sample), vocab_size=vocab_size)
    zoo_model = _from_zoo(spec)
    if zoo_model is not None:
        return zoo_model
    if not Path(spec).exists():
        raise CliError(f"{spec!r} is neither 'sample', a pretrained id, nor an existing tokenizer.json / "
                       "SentencePiece .model file")
    try:
        return unigram.load_bytes(_read_bytes(spec), Path(spec).name)
    except unigram.UnigramError as exc:
        raise CliError(str(exc)) from None


def _from_zoo(spec: str) -> unigram.UnigramModel | None:
    """A pretrained zoo id: SentencePiece files are checked for type; the others are named as not Unigram."""
    try:
        from ..pretrained import zoo
    except ImportError:  # pragma: no cover - the zoo is optional here
        return None
    entry = zoo.ENTRIES.get(spec)
    if entry is None:
        return None
    if "SentencePiece" not in entry.algorithm:
        raise CliError(f"{spec} is a {entry.algorithm} tokenizer, not Unigram")
    try:
        data = zoo.read_checked(entry)
        return unigram.load_sentencepiece(data, source=f"{spec} ({entry.source})")
    except (zoo.ZooError, unigram.UnigramError) as exc:
        raise CliError(str(exc)) from None


def _edge(e: unigram.Edge) -> dict[str, Any]:
    return {"start": e.start, "end": e.end, "piece": e.piece, "id": e.id, "logprob": e.score, "unk": e.unk}


def _unigram(args: argparse.Namespace) -> dict[str, Any]:
    text = text_arg(args)
    model = load_unigram(args.tokenizer, vocab_size=args.vocab_size, sample=args.sample)
    try:
        lats = unigram.encode_words(text, model, k=args.top)
    except unigram.UnigramError as exc:
        raise CliError(str(exc)) from None
    return {
        "model": {"source": model.source, "kind": model.kind, "size": len(model), "unk_id": model.unk_id,
                  "notes": list(model.notes)},
        "tokens": [t for lat in lats for t, _ in lat.tokens],
        "ids": [i for lat in lats for _, i in lat.tokens],
        "words": [
            {
                "word": lat.word,
                "notice": lat.notice,
                "lattice": [_edge(e) for e in lat.edges],
                "best": {"pieces": list(lat.best.pieces), "score": lat.best.score},
                "top": [{"pieces": list(s.pieces), "score": s.score} for s in lat.top],
                "tokens": [t for t, _ in lat.tokens],
            }
            for lat in lats
        ],
    }


def _unigram_table(r: dict[str, Any]) -> str:
    lines = [f"model: {r['model']['source']} ({r['model']['size']} pieces)"]
    for w in r["words"]:
        lines.append(f"{w['word']}: {len(w['lattice'])} lattice edges" + (f"  ({w['notice']})" if w["notice"] else ""))
        for k, s in enumerate(w["top"], 1):
            lines.append(f"  {k}. {s['score']:9.3f}  {' '.join(s['pieces'])}")
    return "\n".join(lines)


# ---------------------------------------------------------------- normalize


def _normalize(args: argparse.Namespace) -> dict[str, Any]:
    text = text_arg(args)
    if args.form == "uzbek":
        res = norm.apply_rules(text, norm.UZBEK_RULES)
        extra = {"normalizer_json": norm.rules_json(norm.UZBEK_RULES)}
    else:
        res = norm.normalize(text, args.form)
        extra = {}

    def cps(cs: Iterable[CodePointInfo]) -> list[dict[str, str]]:
        return [{"char": c.char, "hex": c.hex, "name": c.name, "category": c.category} for c in cs]

    return {
        "form": args.form,
        "before": res.before,
        "after": res.after,
        "changed": res.before != res.after,
        "notice": localize(res.notice),
        "warnings": [{"kind": w.kind, "message": localize(w.message), "examples": list(w.examples)} for w in res.warnings],
        "changes": [
            {"start": c.start, "end": c.end, "before": c.before, "after": c.after,
             "codepoints": [{"op": r.op, "before": cps(r.before), "after": cps(r.after)} for r in c.rows]}
            for c in res.clusters if c.changed
        ],
        **extra,
    }


def _normalize_table(r: dict[str, Any]) -> str:
    lines = [f"{r['form']}: {r['after']}"]
    for c in r["changes"]:
        lines.append(f"  {c['start']}: {c['before']!r} -> {c['after']!r}")
    for w in r["warnings"]:
        lines.append(f"! {w['message']}")
    return "\n".join(lines)


# ---------------------------------------------------------------- pretokenize


def _pretokenize(args: argparse.Namespace) -> dict[str, Any]:
    text = text_arg(args)
    which = pretok_compare.DEFAULT_ORDER if args.pattern == "all" else [args.pattern]
    if args.pattern != "all" and args.pattern not in pretok_compare.names():
        raise CliError(f"unknown pattern {args.pattern!r}; choose one of: all, {', '.join(pretok_compare.names())}")
    results, notice = pretok_compare.compare(text, which)
    return {
        "notice": localize(notice),
        "why": pretok_compare.WHY,
        "patterns": [
            {
                "name": r.name,
                "description": r.description,
                "pieces": [{"text": p.text, "start": p.start, "end": p.end} for p in r.pieces],
                "mark_splits": [{"offset": m.offset, "base": m.base, "mark": m.mark, "label": m.label}
                                for m in r.mark_splits],
                # where the model's regex engine (older tables) cuts otherwise than Unicode 17.0 (the model saw them)
                "engine_notes": [{"offset": n.offset, "message": n.message} for n in r.engine_notes],
            }
            for r in results
        ],
    }


def _pretokenize_table(r: dict[str, Any]) -> str:
    lines = []
    for p in r["patterns"]:
        lines.append(f"{p['name']:<12} {len(p['pieces']):>4} pieces, {len(p['mark_splits'])} mark splits: "
                     + " | ".join(x["text"] for x in p["pieces"][:40]))
    return "\n".join(lines)


# ---------------------------------------------------------------- registration


def register(sub: argparse._SubParsersAction) -> None:
    """Add the four subcommands to ``python -m core``."""
    p = sub.add_parser("wordpiece", help="WordPiece greedy longest-match, step by step")
    p.add_argument("--vocab", required=True, help="tokenizer.json or vocab.txt, or 'sample' to train on the bundled corpus")
    p.add_argument("--vocab-size", type=int_range(1, MAX_SAMPLE_VOCAB), default=300, help="vocabulary size when --vocab sample")
    _sample_arg(p, "--vocab")
    _source(p)
    p.set_defaults(func=_wordpiece, table=_wordpiece_table)

    p = sub.add_parser("unigram", help="Unigram lattice, Viterbi best path and top segmentations")
    p.add_argument("--tokenizer", required=True,
                   help="Unigram tokenizer.json or SentencePiece .model, or 'sample' to train on the bundled corpus")
    p.add_argument("--vocab-size", type=int_range(2, MAX_SAMPLE_VOCAB), default=400, help="vocabulary size when --tokenizer sample")
    _sample_arg(p, "--tokenizer")
    p.add_argument("--top", type=int_range(1, 100), default=5, help="how many best segmentations to list")
    _source(p)
    p.set_defaults(func=_unigram, table=_unigram_table)

    p = sub.add_parser("normalize", help="what a normalizer changes, per code point, with warnings")
    p.add_argument("--form", required=True, choices=list(norm.FORMS) + ["uzbek"],
                   help="normalization form, BERT setting, or 'uzbek' apostrophe rules")
    _source(p)
    p.set_defaults(func=_normalize, table=_normalize_table)

    p = sub.add_parser("pretokenize", help="pieces a pre-tokenizer makes, with mark splits flagged")
    p.add_argument("--pattern", required=True, help=f"one of: all, {', '.join(pretok_compare.names())}")
    _source(p)
    p.set_defaults(func=_pretokenize, table=_pretokenize_table)
