"""The multilingual tax: what the same meaning costs in tokens, per language.

Input is parallel text: rows of translations, one column per language code,
with an ``en`` column as the reference. For each tokenizer and language we
count tokens (each row encoded on its own, as a model would see separate
documents), words, characters and bytes; the *premium* of a language is
its token count divided by English's on the same rows (Petrov et al. 2023).

Two bundled datasets: ``assets/parallel.tsv`` (sentences written for this
project) and CLDR names from ``babel`` (country and language names in each
language; names, not sentences, so premiums are not comparable with the
sentence figures). Also :func:`embedding_params`, the vocabulary-size side
of the trade-off.

This module does not load tokenizers; callers pass adapters.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Sequence

from .. import languages, tokens
from ..assets import BUNDLED_TSV
from ..i18n import T_
from ..text.errors import UserError
from ..tokens import IdCodec

#: Published reference (Petrov et al. 2023, FLORES-200, cl100k_base): premium vs English, from the learning
#: languages' rows (:func:`core.languages.references`; read when the module is imported).
PETROV_CL100K = languages.references()

#: Largest parallel file accepted (rows), so an upload cannot stall a page.
MAX_ROWS = 5000


class ParallelError(UserError):
    """A parallel text that cannot be used (no header, no ``en`` column, ragged rows)."""


@dataclass(frozen=True)
class ParallelText:
    """Rows of translations; ``languages[i]`` names column ``i``."""

    languages: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    label: str
    kind: Literal["sentences", "names"] = "sentences"

    def column(self, lang: str) -> list[str]:
        i = self.languages.index(lang)
        return [r[i] for r in self.rows]


def parse_tsv(text: str, *, label: str = T_("uploaded TSV")) -> ParallelText:
    """Parse a TSV whose header row holds language codes (one must be ``en``).

    Blank lines are skipped; every other row must have one cell per language.

    >>> parse_tsv("en\\tbn\\nhouse\\tঘর\\n").column("bn")
    ['ঘর']
    """
    lines = [ln.rstrip("\r") for ln in text.lstrip("\ufeff").split("\n")]
    numbered = [(n, ln) for n, ln in enumerate(lines, 1) if ln.strip()]
    if not numbered:
        raise ParallelError(T_("{name} is empty", name=label))
    header = parse_header(numbered[0][1], label)
    rows = []
    for n, ln in numbered[1:]:
        cells = tuple(c.strip() for c in ln.split("\t"))
        if len(cells) != len(header):
            raise ParallelError(T_("{label}: line {line} has {count} cells, the header has {header}", label=label, line=n,
                                   count=len(cells), header=len(header)))
        rows.append(cells)
    if not rows:
        raise ParallelError(T_("{label} has a header but no rows", label=label))
    if len(rows) > MAX_ROWS:
        raise ParallelError(T_("{label} has {count:,} rows; the limit is {limit:,}", label=label, count=len(rows),
                               limit=MAX_ROWS))
    return ParallelText(header, tuple(rows), label)


def parse_header(line: str, label: str) -> tuple[str, ...]:
    """The language codes of a TSV header row (one must be ``en``; none empty or repeated)."""
    header = tuple(c.strip() for c in line.lstrip("\ufeff").rstrip("\r").split("\t"))
    if "en" not in header:
        raise ParallelError(T_("{label}: the header row {header} has no 'en' column (needed as the reference)",
                               label=label, header=str(list(header))))
    if len(set(header)) != len(header) or any(not c for c in header):
        raise ParallelError(T_("{label}: header row has empty or repeated language codes: {header}", label=label,
                               header=str(list(header))))
    return header


def load_bundled() -> ParallelText:
    """The project's own 36 sentences in en/bn/hi/fa/uz."""
    return parse_tsv(BUNDLED_TSV.read_text(encoding="utf-8"), label=T_("bundled sentences (assets/parallel.tsv)"))


def cldr_names(
    languages: Sequence[str] | None = None, what: Literal["territories", "languages"] = "territories"
) -> ParallelText:
    """Country (or language) names in each language, from CLDR via ``babel``.

    ``languages`` defaults to English and every learning language (:data:`core.languages.LANGUAGES`).

    Only codes that every requested locale names are kept; numeric region
    groups ("001" World) are left out. Names, not sentences.
    """
    from babel import Locale

    if languages is None:
        languages = default_languages()
    try:
        locales = [Locale.parse(lang) for lang in languages]
    except (ValueError, TypeError) as exc:
        raise ParallelError(T_("CLDR has no locale for one of {languages}: {reason}", languages=str(list(languages)),
                               reason=str(exc))) from None
    tables = [getattr(loc, what) for loc in locales]
    codes = sorted(set.intersection(*(set(t) for t in tables)))
    codes = [c for c in codes if not c.isdigit() and "_" not in c]
    rows = tuple(tuple(t[c] for t in tables) for c in codes)
    label = T_("CLDR country names (babel)") if what == "territories" else T_("CLDR language names (babel)")
    return ParallelText(tuple(languages), rows, label, "names")


def default_languages() -> tuple[str, ...]:
    """English (the reference column) and the learning languages, in table order."""
    return (languages.ENGLISH.code, *languages.LANGUAGES)


@dataclass(frozen=True)
class LanguageCost:
    """Totals for one language over all rows."""

    tokens: int
    words: int
    chars: int
    bytes: int

    @property
    def tokens_per_word(self) -> float:
        return self.tokens / self.words if self.words else 0.0

    @property
    def chars_per_token(self) -> float:
        return self.chars / self.tokens if self.tokens else 0.0

    @property
    def bytes_per_token(self) -> float:
        return self.bytes / self.tokens if self.tokens else 0.0


@dataclass(frozen=True)
class TaxResult:
    """One tokenizer on one parallel text."""

    tokenizer: str
    languages: dict[str, LanguageCost]
    premium: dict[str, float]


def count_tokens(tok: IdCodec, texts: Sequence[str]) -> int:
    """Tokens of each text encoded on its own (as separate documents), summed; control-token spellings count as text."""
    return tokens.count_tokens(tok, texts)


def measure(tok: IdCodec, parallel: ParallelText) -> TaxResult:
    """Token counts per language and the premium relative to English."""
    costs: dict[str, LanguageCost] = {}
    for lang in parallel.languages:
        col = parallel.column(lang)
        costs[lang] = LanguageCost(
            tokens=count_tokens(tok, col),
            words=sum(len(s.split()) for s in col),
            chars=sum(len(s) for s in col),
            bytes=sum(len(s.encode("utf-8")) for s in col),
        )
    en = costs["en"].tokens
    premium = {lang: (c.tokens / en if en else 0.0) for lang, c in costs.items()}
    return TaxResult(tok.id, costs, premium)


def embedding_params(vocab_size: int, d_model: int) -> int:
    """Parameters in the input embedding: one ``d_model`` vector per token.

    >>> embedding_params(128_000, 4096)
    524288000
    """
    if vocab_size < 0 or d_model <= 0:
        raise ValueError("vocabulary size must be >= 0 and d_model > 0")
    return vocab_size * d_model
