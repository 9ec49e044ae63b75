"""The field's measures of a tokenizer on a language's text, beside the plain token count of :mod:`.tax`.

Per language (lines of text, each encoded on its own):

- words kept whole (Rust et al. 2021; Nayeem et al. 2025): the ``str.split()`` words encoded alone as one
  token or as more, and the same for ``" " + word`` (as the word appears inside a sentence);
- the pre-tokenizer floor (Velayuthan & Sarveswaran 2025): the pieces the tokenizer's own normalizer and
  pre-tokenizer make; each costs at least one token, so no vocabulary goes below it;
- the optimal count (Uzan et al. 2024): the fewest tokens of the same vocabulary (control tokens excluded)
  that spell each piece, a shortest path over the piece's bytes;
- Rényi efficiency (Zouhar et al. 2023) of the token ids' distribution, with ``alpha`` 2.5 and the
  tokenizer's whole vocabulary as the support, as ``tokenization-scorer`` computes it with
  ``power=2.5, vocab=vocab_size`` (its own defaults are alpha 3.0 and the ids seen).

Per tokenizer: :func:`gini` of the languages' token totals (Foroutan, Meister et al. 2026).

The pieces come from the adapter (:class:`core.pretrained.protocols.Pieces`); a tokenizer that cannot say
has ``None`` for the floor and the optimal count. This module does not load tokenizers.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

from ..pipeline.pretokenize import MAX_WORD_PARTS_LINE, word_parts
from ..pretrained.memo import per_tokenizer
from ..pretrained.protocols import Pieces
from ..tokens import IdCodec, count_tokens

if TYPE_CHECKING:  # pragma: no cover
    from .stream import Chunk, TaxTask

#: The Rényi order the issue fixes (Zouhar et al. 2023 found 2.5 to correlate best with BLEU).
RENYI_ALPHA = 2.5


@dataclass
class LanguageMeasures:
    """Summable counts for one tokenizer and one language (``+`` joins two shards of the same text)."""

    tokens: int = 0
    single_token_words: int = 0
    continued_words: int = 0
    single_token_words_space: int = 0
    continued_words_space: int = 0
    pretokenizer_pieces: int | None = 0
    optimal_tokens: int | None = 0
    normalized_lines: int | None = 0
    lines: int = 0
    id_counts: Counter[int] = field(default_factory=Counter)

    def __add__(self, o: "LanguageMeasures") -> "LanguageMeasures":
        def add(a: int | None, b: int | None) -> int | None:
            return None if a is None or b is None else a + b

        return LanguageMeasures(
            self.tokens + o.tokens, self.single_token_words + o.single_token_words, self.continued_words + o.continued_words,
            self.single_token_words_space + o.single_token_words_space, self.continued_words_space + o.continued_words_space,
            add(self.pretokenizer_pieces, o.pretokenizer_pieces), add(self.optimal_tokens, o.optimal_tokens),
            add(self.normalized_lines, o.normalized_lines), self.lines + o.lines, self.id_counts + o.id_counts,
        )

    def renyi(self, vocab: int, alpha: float = RENYI_ALPHA) -> float:
        """Rényi efficiency of :attr:`id_counts` over a vocabulary of ``vocab`` ids."""
        return renyi_efficiency(self.id_counts.values(), vocab, alpha)

    def to_json(self, vocab: int) -> dict[str, object]:
        """The keys of ``compare --json`` (``languages.<code>``, beside tokens, words, chars, bytes)."""
        return {
            "single_token_words": self.single_token_words, "continued_words": self.continued_words,
            "single_token_words_space": self.single_token_words_space, "continued_words_space": self.continued_words_space,
            "pretokenizer_pieces": self.pretokenizer_pieces, "optimal_tokens": self.optimal_tokens,
            "renyi_efficiency": round(self.renyi(vocab), 12) if self.id_counts and vocab > 1 else None,
        }


def renyi_efficiency(counts: Iterable[int], vocab: int, alpha: float = RENYI_ALPHA) -> float:
    """``1/(1-alpha) * log2(sum p_i^alpha) / log2(vocab)`` for the frequencies ``counts`` (Zouhar et al. 2023).

    >>> round(renyi_efficiency([1, 1, 1, 1], 4), 12)  # uniform over the whole vocabulary: efficiency 1
    1.0
    """
    c = [n for n in counts if n > 0]
    total = sum(c)
    if not total or vocab < 2:
        return 0.0
    if alpha == 1.0:
        return -sum(n / total * math.log2(n / total) for n in c) / math.log2(vocab)
    return 1 / (1 - alpha) * math.log2(sum((n / total) ** alpha for n in c)) / math.log2(vocab)


def gini(values: Sequence[float]) -> float:
    """The Gini coefficient ``sum_i sum_j |c_i - c_j| / (2 n^2 mean)``: 0 when every language costs the same.

    >>> gini([1, 1, 1]), gini([0, 0, 0, 4])
    (0.0, 0.75)
    """
    n = len(values)
    mean = sum(values) / n if n else 0.0
    if not n or not mean:
        return 0.0
    ordered = sorted(values)  # sum_i sum_j |c_i - c_j| = 2 sum_k (2k - n + 1) c_(k) over the sorted values
    return sum((2 * k - n + 1) * v for k, v in enumerate(ordered)) / (n * n * mean)


@dataclass(frozen=True)
class Speller:
    """A vocabulary's byte strings and, for each first byte, the length of the longest token that starts with it
    (``reach``: how far :func:`optimal_count` looks from a position), built in one pass over the vocabulary.

    ``crossing``: the tokens with a space right after another byte (``b"> </"``). A long piece (a whole line,
    where the tokenizer has no pre-tokenizer) is cut before each space that follows another byte unless one of
    them covers it: no other token can, so each part's fewest tokens add up to the piece's
    (:func:`optimal_pieces`). None: too many such tokens to look for (the piece is searched whole).
    """

    tokens: frozenset[bytes]
    reach: tuple[int, ...]
    crossing: tuple[bytes, ...] | None = ()

    @classmethod
    def of(cls, tokens: Iterable[bytes]) -> "Speller":
        """The speller of these token byte strings (empty ones left out).

        >>> Speller.of([b"ab", b"abc", b"b"]).reach[ord("a")], Speller.of([b"ab"]).reach[ord("b")]
        (3, 0)
        """
        toks = frozenset(b for b in tokens if b)
        reach = [0] * 256
        for t in toks:
            if len(t) > reach[t[0]]:
                reach[t[0]] = len(t)
        crossing = tuple(t for t in toks if _SPACE_AFTER_BYTE.search(t))
        return cls(toks, tuple(reach), crossing if len(crossing) <= MAX_CROSSING else None)


#: More tokens than this with a space inside and the pieces are not cut at spaces (:attr:`Speller.crossing`).
MAX_CROSSING = 64
#: Pieces shorter than this (bytes) are searched whole.
CUT_FROM = 48
_SPACE_AFTER_BYTE = re.compile(rb"[^ ] ")


def speller(tok: Pieces) -> Speller:
    """The tokenizer's :class:`Speller`, built once per tokenizer (:func:`core.pretrained.memo.per_tokenizer`)."""
    return per_tokenizer(tok, "speller", lambda: Speller.of(b for b in tok.spelling_vocab() if b))


def optimal_count(piece: bytes, sp: Speller) -> int:
    """The fewest vocabulary tokens whose bytes joined are ``piece`` (a shortest path over its positions).

    Where no token starts at a position (an unknown character without byte fallback), one step covers the
    whole UTF-8 character, as one unknown token does.

    >>> optimal_count(b"abcd", Speller.of([b"a", b"b", b"c", b"d", b"ab", b"bcd"]))
    2
    """
    n = len(piece)
    inf = n + 1
    best = [0] + [inf] * n
    toks, reach = sp.tokens, sp.reach
    for i in range(n):
        here = best[i]
        if here >= inf:
            continue
        step = here + 1
        matched = False
        for j in range(i + 1, min(n, i + reach[piece[i]]) + 1):
            if piece[i:j] in toks:
                matched = True
                if step < best[j]:
                    best[j] = step
        if not matched:
            j = i + 1
            while j < n and 0x80 <= piece[j] < 0xC0:
                j += 1
            if step < best[j]:
                best[j] = step
    return best[n]


def space_cuts(piece: bytes, sp: Speller) -> list[bytes]:
    """``piece`` cut before each space that follows another byte, where no token of the vocabulary can lie
    across the cut (:attr:`Speller.crossing`); the piece whole when the vocabulary has too many such tokens.

    >>> space_cuts(b"ab cd  e", Speller.of([]))
    [b'ab', b' cd', b'  e']
    >>> space_cuts(b"x> </y z", Speller.of([b"> </"]))
    [b'x> </y', b' z']
    """
    if sp.crossing is None:
        return [piece]
    cuts = [m.start() + 1 for m in _SPACE_AFTER_BYTE.finditer(piece)]
    if sp.crossing and cuts:
        covered: set[int] = set()
        for t in sp.crossing:
            at = piece.find(t)
            while at >= 0:
                covered.update(range(at + 1, at + len(t)))
                at = piece.find(t, at + 1)
        cuts = [c for c in cuts if c not in covered]
    bounds = [0, *cuts, len(piece)]
    return [piece[a:b] for a, b in zip(bounds, bounds[1:]) if b > a]


def optimal_pieces(counts: Mapping[bytes, int], sp: Speller) -> int:
    """``sum(n * optimal_count(piece))`` over ``counts`` (piece -> how often); long pieces are cut at spaces
    (:func:`space_cuts`) and each part is searched once, however often it repeats."""
    parts: Counter[bytes] = Counter()
    for p, n in counts.items():
        if len(p) < CUT_FROM:
            parts[p] += n
        else:
            for q in space_cuts(p, sp):
                parts[q] += n
    return sum(n * optimal_count(p, sp) for p, n in parts.items())


def _repeat(items: list, k: int) -> list:
    return items if k == 1 else items * k


def measure_lines(tok: IdCodec, lines: Sequence[str]) -> LanguageMeasures:
    """Every per-language measure of ``tok`` on ``lines`` (each line encoded on its own; a repeated line is
    measured once and counted as often as it occurs)."""
    out = LanguageMeasures(lines=len(lines))
    distinct = Counter(lines)
    # where the tokenizer cuts every line at its words' starts (Pieces.pieces_cut_at_words), a line's tokens are
    # its word parts' tokens: each distinct part is encoded once
    by_parts = isinstance(tok, Pieces) and tok.pieces_cut_at_words
    units = line_parts(lines) if by_parts else distinct
    all_ids: list[int] = []
    total = 0
    lengths: dict[str, int] = {}  # tokens of each unit: a word part " w" is also the word after a space
    if tok.ids_complete:
        encode = tok.encode_ids
        for line, k in units.items():
            ids = encode(line)
            lengths[line] = len(ids)
            total += k * len(ids)
            all_ids += _repeat(ids, k)
    else:  # a baseline's units may have no id: count its tokens, leave Rényi out
        total = sum(k * count_tokens(tok, [line]) for line, k in units.items())
    out.tokens, out.id_counts = total, Counter(all_ids)

    def length(s: str) -> int:
        n = lengths.get(s)
        return count_tokens(tok, [s]) if n is None else n

    words = Counter(" ".join(lines).split())  # the lines' str.split() words, each as often as it occurs
    for w, n in words.items():
        alone, spaced = length(w), length(" " + w)
        if alone == 1:
            out.single_token_words += n
        else:
            out.continued_words += n
        if spaced == 1:
            out.single_token_words_space += n
        else:
            out.continued_words_space += n
    out.pretokenizer_pieces, out.optimal_tokens = floor_and_optimal(tok, units)
    out.normalized_lines = normalized_lines(tok, distinct)
    return out


def line_parts(lines: Iterable[str]) -> Counter[str]:
    """The :func:`core.pipeline.pretokenize.word_parts` of every line, each as often as it occurs (one split of
    all the lines joined by line breaks, which cut too; a line with a line break of its own, or too long to be
    cut, goes alone)."""
    lines = list(lines)
    if any("\n" in line or len(line) > MAX_WORD_PARTS_LINE for line in lines):
        return Counter(p for line in lines for p in word_parts(line) if p)
    parts = Counter(word_parts("\n".join(lines), line_breaks=True))
    del parts[""]
    return parts


def floor_and_optimal(tok: object, lines: Mapping[str, int]) -> tuple[int | None, int | None]:
    """The pre-tokenizer's pieces of ``lines`` (line, or a word part of :func:`line_parts` where the tokenizer's
    pieces allow it, -> how often) summed (None without a pre-tokenizer) and the fewest tokens that spell them
    (None when the tokenizer cannot say what its pieces are)."""
    if not isinstance(tok, Pieces):
        return None, None
    counts: Counter[bytes] = Counter()
    floor = 0
    for line, k in lines.items():
        pieces = tok.pre_pieces(line)
        if pieces is None:
            return None, None
        floor += k * len(pieces)
        counts.update(_repeat(pieces, k))
    optimal = optimal_pieces(counts, speller(tok))
    return (floor if tok.pre_splits else None), optimal


def normalized_lines(tok: object, lines: Mapping[str, int]) -> int | None:
    """How many lines (line -> how often) the tokenizer's own normalizer changes (None when it has none)."""
    get = getattr(tok, "normalizer", None)
    info = get() if callable(get) else None
    if info is None:
        return None
    # a space spelled ``▁`` (Metaspace, SentencePiece) and the prefix space are the pre-tokenizer's, not changed letters
    return sum(k for line, k in lines.items() if info.normalize(line).replace("\u2581", " ").strip() != line.strip())


def text_measures(tok: IdCodec, text: str) -> dict[str, object]:
    """The measures of one text (its non-blank lines, each encoded on its own) with ``vocab_size``: the Compare
    table's extra columns, keyed as in ``compare --json``."""
    m = measure_lines(tok, [line for line in text.splitlines() if line.strip()])
    vocab = vocab_size(tok)
    return {**m.to_json(vocab), "vocab_size": vocab}


def vocab_size(tok: IdCodec) -> int:
    """Largest id + 1 (tiktoken's ``n_vocab``): the support of :func:`renyi_efficiency`."""
    return len(tok.spelling_vocab()) if isinstance(tok, Pieces) else tok.vocab_size


# ---------------------------------------------------------------------------
# ``compare --parallel``: one shard of TSV rows (core.analysis.stream)
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class TaxCounts:
    """Per tokenizer and language: the measures and (words, chars, bytes) over TSV rows (summable)."""

    cells: tuple[tuple[tuple[LanguageMeasures, int, int, int], ...], ...]  # [tokenizer][language]
    rows: int = 0

    def __add__(self, o: "TaxCounts") -> "TaxCounts":
        if not self.cells:
            return o
        if not o.cells:
            return self
        return TaxCounts(
            tuple(tuple((x[0] + y[0], x[1] + y[1], x[2] + y[2], x[3] + y[3]) for x, y in zip(tl, ol))
                  for tl, ol in zip(self.cells, o.cells)),
            self.rows + o.rows,
        )


def tax_shard(task: "TaxTask", chunk: "Chunk") -> TaxCounts:
    """Pure shard function of ``compare``: split the chunk's TSV rows, measure each column per tokenizer."""
    from .stream import load_spec, tsv_columns

    columns, rows = tsv_columns(task, chunk)
    return TaxCounts(tuple(measure_parallel(load_spec(spec), columns) for spec in task.toks), rows)


def measure_parallel(tok: IdCodec, columns: Sequence[Sequence[str]]) -> tuple[tuple[LanguageMeasures, int, int, int], ...]:
    """Each column's measures and (words, chars, bytes): one tokenizer's cells of :class:`TaxCounts`."""
    return tuple((measure_lines(tok, col), sum(len(s.split()) for s in col), sum(map(len, col)),
                  sum(len(s.encode("utf-8")) for s in col)) for col in columns)


def compare_json(tok: IdCodec, languages: Sequence[str], cells: Sequence[tuple[LanguageMeasures, int, int, int]]
                 ) -> dict[str, object]:
    """One tokenizer's ``compare --json`` object: ``languages``, ``premium``, ``vocab_size`` and ``gini``."""
    vocab = vocab_size(tok)
    en = cells[languages.index("en")][0].tokens
    return {
        "languages": {lang: {"tokens": m.tokens, "words": w, "chars": c, "bytes": b, **m.to_json(vocab)}
                      for lang, (m, w, c, b) in zip(languages, cells)},
        "premium": {lang: round(m.tokens / en, 4) if en else 0.0 for lang, (m, *_rest) in zip(languages, cells)},
        "vocab_size": vocab,
        "gini": round(gini([m.tokens for m, *_rest in cells]), 12),
    }
