"""The premium taken apart: why a language costs what it costs, step by step, in multiples of English's tokens.

From the measures of :mod:`.measures` for one tokenizer, one language and English on the same rows:

1. English's tokens (1.0, the reference);
2. the pre-tokenizer floor: the pieces the tokenizer's own normalizer and split make of the language's text,
   over English's tokens (each piece costs at least one token: Velayuthan & Sarveswaran 2025);
3. the vocabulary: the fewest tokens of the same vocabulary that spell those pieces (Uzan et al. 2024);
4. the merge order: the tokens the model really sees (the premium, Petrov et al. 2023).

Each step is the rise from the level before it, so the steps add up to the premium; beside them the
script's UTF-8 cost (bytes per character) and how many lines the tokenizer's normalizer changes. The chart
and the one-sentence verdict are drawn from this record; this module computes, the page draws.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import languages
from ..i18n import N_, translator
from .measures import LanguageMeasures

#: The steps in order, with the names the chart's legend and the table show (translated by the page).
STEPS: tuple[tuple[str, str], ...] = (
    ("english", N_("English's tokens")),
    ("pretokenizer", N_("pre-tokenizer floor")),
    ("vocabulary", N_("vocabulary (fewest tokens)")),
    ("merges", N_("merge order (real tokens)")),
)


#: One-line definition and source of each column (the header's tooltip; the README has the same lines).
HELP = {
    "tokens": N_("Tokens of each row encoded on its own, summed."),
    "premium vs en": N_("The language's tokens divided by English's on the same rows (Petrov et al. 2023)."),
    "single_token_words": N_("Words (split at spaces) encoded alone as exactly one token (Rust et al. 2021; Nayeem et al. 2025)."),
    "continued_words": N_("Words encoded alone as two tokens or more (Rust et al. 2021)."),
    "single_token_words_space": N_("Words with a space before them, as inside a sentence, that are exactly one token (Nayeem et al. "
                                   "2025)."),
    "continued_words_space": N_("Words with a space before them that are two tokens or more."),
    "pretokenizer_pieces": N_("Pieces the tokenizer's own normalizer and pre-tokenizer make: each costs at least one token, so no "
                              "vocabulary goes below this floor (Velayuthan & Sarveswaran 2025). Empty: no pre-tokenizer."),
    "optimal_tokens": N_("The fewest tokens of the same vocabulary that spell each piece, a shortest path (Uzan et al. 2024). "
                         "Empty: not computable."),
    "renyi_efficiency": N_("Rényi efficiency, alpha 2.5, of the token distribution over the whole vocabulary, as "
                           "tokenization-scorer computes it with power=2.5 and vocab=vocab_size; its defaults (alpha 3, the ids "
                           "seen) give other numbers (Zouhar et al. 2023)."),
    "vocab_size": N_("The largest token id + 1 (tiktoken's n_vocab)."),
    "gini": N_("Gini coefficient of the languages' token totals: 0 when every language costs the same (Foroutan, Meister et al. 2026)."),
}


#: Headers for the reader (the CSV keeps the keys).
HEADERS = {
    "single_token_words": N_("single-token words"), "continued_words": N_("continued words"),
    "single_token_words_space": N_("single-token words after a space"), "continued_words_space": N_("continued words after a space"),
    "pretokenizer_pieces": N_("pre-tokenizer pieces"), "optimal_tokens": N_("fewest tokens"),
    "renyi_efficiency": N_("Rényi efficiency"), "vocab_size": N_("vocabulary size"), "gini": N_("Gini"),
    "bytes_per_char": N_("bytes per character"), "en_bytes_per_char": N_("English bytes per character"),
    "floor_vs_en": N_("pre-tokenizer floor vs en"), "optimal_vs_en": N_("fewest tokens vs en"), "premium": N_("premium vs en"),
    "normalized_lines": N_("lines the normalizer changes"), "lines": N_("lines"),
}


@dataclass(frozen=True)
class Decomposition:
    """One tokenizer on one language, as levels in multiples of English's tokens (None: not computable)."""

    tokenizer: str
    language: str
    bytes_per_char: float
    en_bytes_per_char: float
    floor: float | None  # pre-tokenizer pieces / English tokens
    optimal: float | None  # fewest tokens / English tokens
    premium: float  # tokens / English tokens
    normalized_lines: int | None
    lines: int

    def levels(self) -> tuple[float, float, float, float]:
        """The running total after each of :data:`STEPS` (a missing level stays at the one before)."""
        floor = self.floor if self.floor is not None else 1.0
        optimal = self.optimal if self.optimal is not None else floor
        return 1.0, floor, optimal, self.premium

    def steps(self) -> dict[str, tuple[float, float]]:
        """Each step's (start, end) level: the bar a waterfall chart draws."""
        lv = self.levels()
        return {key: ((0.0 if i == 0 else lv[i - 1]), lv[i]) for i, (key, _name) in enumerate(STEPS)}

    def biggest(self) -> str | None:
        """The step that adds most to the premium (None when the language costs no more than English)."""
        rises = {k: end - start for k, (start, end) in self.steps().items() if k != "english"}
        if self.premium <= 1.0 or max(rises.values()) <= 0:
            return None
        return max(rises, key=lambda k: rises[k])

    def to_json(self) -> dict[str, object]:
        """English keys, plain numbers (the CSV/JSON downloads and the report)."""
        return {"tokenizer": self.tokenizer, "language": self.language, "bytes_per_char": round(self.bytes_per_char, 4),
                "en_bytes_per_char": round(self.en_bytes_per_char, 4),
                "floor_vs_en": None if self.floor is None else round(self.floor, 4),
                "optimal_vs_en": None if self.optimal is None else round(self.optimal, 4),
                "premium": round(self.premium, 4), "normalized_lines": self.normalized_lines, "lines": self.lines}


def decompose(tokenizer: str, language: str, m: LanguageMeasures, en: LanguageMeasures, *, chars: int, nbytes: int,
              en_chars: int, en_bytes: int) -> Decomposition:
    """The steps of ``language``'s premium for ``tokenizer`` (``m``) against English (``en``) on the same rows."""
    base = en.tokens or 1

    def ratio(n: int | None) -> float | None:
        return None if n is None else n / base

    return Decomposition(
        tokenizer, language, nbytes / chars if chars else 0.0, en_bytes / en_chars if en_chars else 0.0,
        ratio(m.pretokenizer_pieces), ratio(m.optimal_tokens), m.tokens / base, m.normalized_lines, m.lines,
    )


def verdict(d: Decomposition, *, lang: str = "en", digits: str = "western") -> str:
    """One sentence, in ``lang``, naming the step that costs most for ``d``'s language (its first letter a capital
    where the script has them: the language may be a label such as "this text")."""
    s = _verdict(d, lang=lang, digits=digits)
    row = languages.LANGUAGES.get(d.language)
    name = translator(lang, digits).gettext(row.name) if row is not None else d.language
    return name[:1].upper() + s[1:] if s.startswith(name) else s


def _verdict(d: Decomposition, *, lang: str = "en", digits: str = "western") -> str:
    """One sentence, in ``lang``, naming the step that costs most for ``d``'s language."""
    t = translator(lang, digits)
    row = languages.LANGUAGES.get(d.language)
    name = t.gettext(row.name) if row is not None else d.language

    def x(v: float | None) -> str:
        return t.format_number(v or 0.0, decimals=2)

    values = dict(language=name, tokenizer=d.tokenizer, premium=x(d.premium), floor=x(d.floor), optimal=x(d.optimal),
                  merges=x(d.premium - (d.optimal if d.optimal is not None else d.premium)))
    step = d.biggest()
    if step is None:
        return t.gettext("{language} costs {tokenizer} no more than English ({premium}× its tokens).").format(**values)
    if step == "pretokenizer":
        return t.gettext("For {language}, {tokenizer}'s pre-tokenizer costs most: its pieces alone are {floor}× English's "
                         "tokens, of a premium of {premium}×.").format(**values)
    if step == "vocabulary" and d.floor is None:
        return t.gettext("For {language}, {tokenizer}'s vocabulary costs most: even the fewest tokens it can spell the "
                         "text with are {optimal}× English's tokens; the merge order adds {merges}× more, for a premium "
                         "of {premium}×.").format(**values)
    if step == "vocabulary":
        return t.gettext("For {language}, {tokenizer}'s vocabulary costs most: even the fewest tokens it can spell the "
                         "pieces with are {optimal}× English's tokens (the pieces alone {floor}×); the merge order adds "
                         "{merges}× more, for a premium of {premium}×.").format(**values)
    return t.gettext("For {language}, {tokenizer}'s merge order costs most: the same vocabulary could spell the text "
                     "in {optimal}× English's tokens, but the merges give {premium}×.").format(**values)
