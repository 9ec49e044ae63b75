"""The format tax: the same records as escaped JSON, UTF-8 JSON, CSV and YAML, and what each costs in tokens.

``json.dumps`` writes every non-ASCII character as a ``\\uXXXX`` escape by default (``ensure_ascii=True``):
six ASCII bytes per Bangla letter, which a tokenizer cuts into several tokens each, where the letter
itself in UTF-8 (``ensure_ascii=False``) is often part of one token. We serialize the same records four
ways and count each tokenizer's tokens; the *escape premium* is escaped JSON's tokens over UTF-8 JSON's.

Records are a JSON list of objects (an upload) or the bundled sample: the rows of ``assets/parallel.tsv``
as ``{"id", "language", "text"}`` records, one set per language. This module does not load tokenizers.
"""
from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..i18n import T_
from ..text import limits
from ..text.errors import UserError
from ..tokens import IdCodec, count_tokens

#: The serializations, in table order (English keys of the JSON output).
FORMATS: tuple[str, ...] = ("json_escaped", "json_utf8", "csv", "yaml")

#: Largest records file (bytes), deepest nesting and most records accepted.
MAX_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 8
MAX_RECORDS = 5000


class RecordsError(UserError):
    """A records file that cannot be used (not UTF-8, not JSON, not a list of objects, too big or too deep)."""


def parse_records(data: bytes, where: str) -> list[dict[str, Any]]:
    """A JSON list of objects, checked before it is parsed (size, depth) and after (shape, count)."""
    if len(data) > MAX_BYTES:
        raise RecordsError(T_("{where} is {size:,} bytes; a records file may have at most {limit:,}", where=where,
                              size=len(data), limit=MAX_BYTES))
    depth = limits.json_depth(data)
    if depth > MAX_DEPTH:
        raise RecordsError(T_("{where} nests {depth:,} levels deep; records may nest at most {limit}", where=where,
                              depth=depth, limit=MAX_DEPTH))
    records = limits.read_json(data, where, max_bytes=MAX_BYTES, max_depth=MAX_DEPTH)  # not UTF-8, not JSON: one line
    if not isinstance(records, list) or not records or not all(isinstance(r, dict) for r in records):
        raise RecordsError(T_("{where} is not a JSON list of objects (records)", where=where))
    if len(records) > MAX_RECORDS:
        raise RecordsError(T_("{where} has {count:,} records; the limit is {limit:,}", where=where, count=len(records),
                              limit=MAX_RECORDS))
    return records


def bundled_records() -> dict[str, list[dict[str, Any]]]:
    """The bundled sample: each language's sentences of ``assets/parallel.tsv`` as records."""
    from .tax import load_bundled

    par = load_bundled()
    return {lang: [{"id": k + 1, "language": lang, "text": s} for k, s in enumerate(par.column(lang))]
            for lang in par.languages}


def _cell(v: object) -> str:
    return v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)


def render(records: Sequence[Mapping[str, Any]], fmt: str) -> str:
    """``records`` written as ``fmt`` (one of :data:`FORMATS`), as a developer's code would write them.

    >>> render([{"a": "ক"}], "json_escaped"), render([{"a": "ক"}], "json_utf8")
    ('[{"a": "\\\\u0995"}]', '[{"a": "ক"}]')
    """
    if fmt == "json_escaped":
        return json.dumps(list(records))
    if fmt == "json_utf8":
        return json.dumps(list(records), ensure_ascii=False)
    if fmt == "csv":
        keys = list(dict.fromkeys(k for r in records for k in r))
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(keys)
        for r in records:
            w.writerow(["" if k not in r else _cell(r[k]) for k in keys])
        return buf.getvalue()
    if fmt == "yaml":
        import yaml

        return str(yaml.safe_dump(list(records), allow_unicode=True, sort_keys=False))
    raise ValueError(f"unknown format {fmt!r}")


@dataclass(frozen=True)
class FormatTax:
    """One tokenizer's tokens per format and record set (a language of the sample, or ``upload``)."""

    tokenizer: str
    tokens: dict[str, dict[str, int]]  # format -> set -> tokens

    def premium(self, key: str) -> float:
        """Escaped JSON's tokens over UTF-8 JSON's for one record set."""
        utf8 = self.tokens["json_utf8"][key]
        return self.tokens["json_escaped"][key] / utf8 if utf8 else 0.0

    def to_json(self) -> dict[str, object]:
        """``formats.<name>.tokens`` (all sets) and ``.sets``, and the escape premium per set."""
        sets = list(next(iter(self.tokens.values())))
        return {"formats": {f: {"tokens": sum(by.values()), "sets": dict(by)} for f, by in self.tokens.items()},
                "escape_premium": {k: round(self.premium(k), 4) for k in sets}}


def measure(tok: IdCodec, sets: Mapping[str, Sequence[Mapping[str, Any]]]) -> FormatTax:
    """Tokens of each record set in each format, for ``tok`` (each serialization encoded as one text)."""
    return FormatTax(tok.id, {f: {k: count_tokens(tok, [render(recs, f)]) for k, recs in sets.items()} for f in FORMATS})
