"""Training recipes: five real tokenizers trained with Hugging Face ``tokenizers``, plus baselines.

Each :class:`Recipe` is declared as data (name, pipeline, what to expect) and
builds a fresh ``tokenizers.Tokenizer`` and its trainer:

- ``bpe``: code-point BPE, NFC, Metaspace (``▁`` marks a space), [UNK] for
  characters never seen in training.
- ``byte-gpt2``: byte-level BPE behind the GPT-2 split regex. On Bangla the
  regex's ``\\p{L}+`` stops at every vowel sign and virama (``\\p{M}``), so
  words are cut into tiny pieces that no merge can cross: the vocabulary
  gets stuck far below the target.
- ``byte-plain``: byte-level BPE behind a whitespace-attached split
  (``\\s*\\S+|\\s+``) and ByteLevel without its regex: lossless.
- ``wordpiece``: NFC, BERT pre-tokenizer, ``##`` continuation pieces. Not
  lossless: whitespace is dropped, punctuation gets its own spaces back.
- ``unigram``: SentencePiece-style Unigram, NFC, Metaspace.

All use the special tokens [UNK] [PAD] [CLS] [SEP]. Baselines for the same
table (words seen at least once, words seen at least twice, code points) are
:class:`VocabBaseline`.

Trained tokenizers are :class:`TrainedTokenizer` records: the canonical
``tokenizer.json`` text plus what was asked and what came out (picklable, so
pages can cache them). They encode through :class:`core.pretrained.hf_adapter.HFTokenizer`
(exact bytes and spans for every token).

This module does not split corpora or compute metrics (see
:mod:`core.analysis.evaluate`), and never touches the network.
"""
from __future__ import annotations

import hashlib
import re
import time
import unicodedata
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable, Iterable, Literal, Sequence

from ..i18n import N_, T_, Message, message_of, quote, translator
from ..text import limits
from ..text.errors import UserError
from ..text.native import fence
from ..tokens import CodecDefaults, Encoding, SpecialProbe, Token, TokenTable
from .piece_stats import PieceStats, piece_stats  # noqa: F401 - re-exported
from .trained_baselines import BASELINES, RecipeError, VocabBaseline, train_baseline  # noqa: F401 - re-exported

#: Special tokens every recipe reserves (ids 0-3, in this order).
SPECIAL_TOKENS: tuple[str, ...] = ("[UNK]", "[PAD]", "[CLS]", "[SEP]")
UNK = "[UNK]"
#: Vocabulary sizes offered by default.
DEFAULT_SIZES: tuple[int, ...] = (500, 2000, 8000)
DEFAULT_MIN_FREQUENCY = 2
#: Smallest and largest vocabulary a user may ask for.
MIN_VOCAB, MAX_VOCAB = 100, 200_000

#: The GPT-2 split regex as ``tokenizers``' ByteLevel pre-tokenizer runs it (use_regex=True).
GPT2_REGEX = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"
#: Whitespace stays on the following word; the byte-plain recipe splits with this.
WS_ATTACHED_REGEX = r"\s*\S+|\s+"


@dataclass(frozen=True)
class Recipe:
    """One training recipe, declared as data.

    ``lossless`` says whether decode(encode(norm(s))) == norm(s) is expected
    for text whose characters were all seen in training; ``note`` is shown
    next to the recipe's row. ``deterministic`` says whether the same corpus
    and settings give the same ``tokenizer.json`` in every process (see
    :data:`NOT_DETERMINISTIC_WHY`).
    """

    name: str
    label: str
    model: Literal["BPE", "WordPiece", "Unigram"]
    normalizer: str
    pre_tokenizer: str
    lossless: bool
    note: str
    byte_level: bool = False
    deterministic: bool = True

    def note_in(self, text: str, lang: str = "en") -> str:
        """``note`` in ``lang``; a note with an example (``{word}`` returns as ``{decoded}``) takes a word of
        ``text``, the training text, so a Hindi corpus gets a Hindi example.

        >>> RECIPES["wordpiece"].note_in("आपका ऑर्डर पहुँच जाएगा। ठीक", "hi").count("“जाएगा।”")
        1
        """
        note = translator(lang).gettext(self.note)
        if "{word}" not in self.note:
            return note
        word, decoded = detached_punctuation(text)
        return note.format(word=quote(word, lang), decoded=quote(decoded, lang))

    def build(self, vocab_size: int, min_frequency: int = DEFAULT_MIN_FREQUENCY):  # noqa: ANN201 - (Tokenizer, Trainer)
        """A fresh untrained ``tokenizers.Tokenizer`` and its trainer."""
        from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

        common: dict[str, Any] = dict(vocab_size=vocab_size, special_tokens=list(SPECIAL_TOKENS), show_progress=False)
        if self.name == "bpe":
            tok = Tokenizer(models.BPE(unk_token=UNK))
            tok.normalizer = normalizers.NFC()
            tok.pre_tokenizer = pre_tokenizers.Metaspace()
            tok.decoder = decoders.Metaspace()
            return tok, trainers.BpeTrainer(min_frequency=min_frequency, **common)
        if self.name in ("byte-gpt2", "byte-plain"):
            tok = Tokenizer(models.BPE())
            if self.name == "byte-gpt2":
                tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
            else:
                tok.pre_tokenizer = pre_tokenizers.Sequence(
                    [
                        pre_tokenizers.Split(Regex(WS_ATTACHED_REGEX), behavior="isolated"),
                        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
                    ]
                )
            tok.decoder = decoders.ByteLevel()
            return tok, trainers.BpeTrainer(
                min_frequency=min_frequency, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), **common
            )
        if self.name == "wordpiece":
            tok = Tokenizer(models.WordPiece(unk_token=UNK))
            tok.normalizer = normalizers.NFC()
            tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
            tok.decoder = decoders.WordPiece()
            return tok, trainers.WordPieceTrainer(min_frequency=min_frequency, **common)
        if self.name == "unigram":
            tok = Tokenizer(models.Unigram())
            tok.normalizer = normalizers.NFC()
            tok.pre_tokenizer = pre_tokenizers.Metaspace()
            tok.decoder = decoders.Metaspace()
            # Unigram has no min_frequency: it prunes by likelihood instead.
            return tok, trainers.UnigramTrainer(unk_token=UNK, **common)
        raise RecipeError(T_("recipe {name} has no builder", name=repr(self.name)))  # pragma: no cover - RECIPES is closed


#: Why the WordPiece and Unigram recipes are not reproducible across processes (said on screen, so a second run
#: differing is not taken for a bug): checked by
#: training the same corpus in fresh processes (tests/test_train_determinism.py).
NOT_DETERMINISTIC_WHY = N_(
    "The tokenizers library keeps the corpus's words in a hash map whose order is randomised per process "
    "(Rust's RandomState; PYTHONHASHSEED and RAYON_NUM_THREADS=1 do not change it). WordPiece numbers its "
    "##-continuation letters in that order and breaks ties between equally frequent merges by those numbers, "
    "so a new process can pick different merges; Unigram sums its EM statistics in that order, so the scores "
    "differ in the 4th decimal and near-equal pieces swap places. Within one server process the result is "
    "cached and stays the same; the BPE recipes give the same file in every process."
)

RECIPES: dict[str, Recipe] = {
    r.name: r
    for r in (
        Recipe("bpe", N_("BPE (code points)"), "BPE", "NFC", "Metaspace (▁ = space)", True,
               N_("Code-point BPE: characters never seen in training become [UNK]; Metaspace's decoder drops one "
               "leading space.")),
        Recipe("byte-gpt2", N_("Byte-level BPE, GPT-2 regex"), "BPE", "none", "ByteLevel + GPT-2 regex", True,
               N_("The GPT-2 regex splits letters (\\p{L}+) from vowel signs, viramas and other combining marks "
               "(\\p{M}), so a word that has them arrives as tiny pieces; merges cannot cross those cuts and the "
               "vocabulary stops far below the target. o200k-style patterns add \\p{M} to the letter class to avoid this."),
               byte_level=True),
        Recipe("byte-plain", N_("Byte-level BPE, whitespace split"), "BPE", "none",
               "Split \\s*\\S+ + ByteLevel (no regex)", True,
               N_("Byte-level BPE whose only split is at whitespace: nothing is ever unknown and decoding is exact."),
               byte_level=True),
        Recipe("wordpiece", N_("WordPiece"), "WordPiece", "NFC", "BERT (whitespace + punctuation)", False,
               N_("Not lossless: the BERT pre-tokenizer drops whitespace and splits off punctuation, and the "
               "decoder joins pieces with single spaces (so {word} returns as {decoded}); a word whose "
               "remainder cannot be matched becomes [UNK] as a whole. (HF's WordPieceTrainer trains with BPE counts.)"),
               deterministic=False),
        Recipe("unigram", N_("Unigram (SentencePiece-style)"), "Unigram", "NFC", "Metaspace (▁ = space)", True,
               N_("Unigram starts from many candidate pieces and prunes by likelihood; on a small corpus fewer "
               "pieces survive than asked for. Unseen characters become [UNK]; Metaspace's decoder drops one "
               "leading space."), deterministic=False),
    )
}  # fmt: skip


def detached_punctuation(text: str) -> tuple[str, str]:
    """The first word of ``text`` that ends in one punctuation mark after letters, and the same word as a
    WordPiece decoder gives it back (the mark split off and joined with a space); ``word.`` if none.

    >>> detached_punctuation("সে আসবে। ঠিক"), detached_punctuation("می‌رسد.")
    (('আসবে।', 'আসবে ।'), ('می\u200cرسد.', 'می\u200cرسد .'))
    """
    for match in re.finditer(r"\S+", text):
        w = match.group()
        if (len(w) > 1 and unicodedata.category(w[-1]).startswith("P")
                and all(unicodedata.category(c)[0] in "LM" or c in "\u200c\u200d" for c in w[:-1])):
            return w, f"{w[:-1]} {w[-1]}"
    return "word.", "word ."


def get_recipe(name: str) -> Recipe:
    """The recipe called ``name``; :class:`RecipeError` naming the known ones otherwise."""
    try:
        return RECIPES[name]
    except KeyError:
        raise RecipeError(T_("unknown recipe {name}; known: {known}", name=repr(name), known=", ".join(RECIPES))) from None


def check_vocab_size(size: int) -> int:
    """``size`` if it is a sensible vocabulary size, else :class:`RecipeError`."""
    if not MIN_VOCAB <= size <= MAX_VOCAB:
        raise RecipeError(T_("vocabulary size {size:,} is outside {low:,}..{high:,}", size=size, low=MIN_VOCAB,
                             high=MAX_VOCAB))
    return size


def canonical_json(tok) -> str:  # noqa: ANN001 - tokenizers.Tokenizer
    """The ``tokenizer.json`` text of ``tok`` (pretty, exactly as ``Tokenizer.save`` writes it)."""
    return tok.to_str(pretty=True)


def stable_json(tok) -> str:  # noqa: ANN001 - tokenizers.Tokenizer
    """The ``tokenizer.json`` text we save: a fixed point of save -> load -> save.

    subtle: straight after training, Unigram scores are written with digits
    that do not survive a load bit-for-bit (the library's JSON float parser
    is not exactly rounding), so the first re-save differs in the last digit
    of a few scores. One load cycle reaches the fixed point; we save that,
    so the file a user downloads re-saves byte-identically.
    """
    from tokenizers import Tokenizer

    text = canonical_json(tok)
    for _attempt in range(3):
        again = canonical_json(Tokenizer.from_str(text))
        if again == text:
            break
        text = again
    return text


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------
# Trained tokenizers
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TrainedTokenizer(CodecDefaults):
    """A tokenizer trained (or loaded) here: its ``tokenizer.json`` and how it came to be.

    ``vocab_note`` says why the obtained vocabulary differs from the one
    requested (empty when they agree or nothing was requested).
    """

    id: str
    name: str
    recipe: str | None
    json: str
    vocab_requested: int | None
    vocab_obtained: int
    min_frequency: int | None
    train_seconds: float | None
    vocab_note: str = ""
    #: ``vocab_note`` as message templates and values (:func:`render_note` writes it in any interface language).
    note_parts: tuple = ()

    @property
    def sha256(self) -> str:
        """Fingerprint of the saved ``tokenizer.json``."""
        return sha256_text(self.json)

    @property
    def vocab_size(self) -> int:
        return self.vocab_obtained

    @cached_property
    def adapter(self):  # noqa: ANN201 - core.pretrained.hf_adapter.HFTokenizer
        """The shared adapter (exact bytes and spans per token; text spelling [SEP] stays text)."""
        from ..pretrained.catalog import SPECIALS_AS_TEXT, ZooEntry
        from ..pretrained.hf_adapter import HFTokenizer

        algorithm = T_("trained here ({recipe})", recipe=self.recipe) if self.recipe else T_("trained here (loaded)")
        entry = ZooEntry(self.id, self.name, algorithm, self.vocab_obtained, "hf-json", None, None, self.sha256,
                         T_("trained here"), SPECIALS_AS_TEXT)
        return HFTokenizer(entry, self.json)

    @cached_property
    def hf(self):  # noqa: ANN201 - tokenizers.Tokenizer
        """A ``tokenizers.Tokenizer`` built from :attr:`json` (library defaults, not the safe adapter)."""
        from tokenizers import Tokenizer

        return Tokenizer.from_str(self.json)

    def normalize(self, text: str) -> str:
        """The tokenizer's normalizer applied to ``text`` (identity without one)."""
        norm = self.hf.normalizer
        return norm.normalize_str(text) if norm is not None else text

    def encode(self, text: str) -> Encoding:
        return self.adapter.encode(text)

    def decode(self, tokens: Sequence[Token]) -> str:
        return self.adapter.decode(tokens)

    # the id paths and columns of the adapter it runs (core.tokens.IdCodec)
    ids_complete = True

    @property
    def unk_id(self) -> int | None:  # type: ignore[override]
        return self.adapter.unk_id

    def encode_ids(self, text: str) -> list[int]:
        return self.adapter.encode_ids(text)

    def decode_ids(self, ids: Sequence[int]) -> str:
        return self.adapter.decode_ids(ids)

    def count_tokens(self, texts: Sequence[str]) -> int:
        return self.adapter.count_tokens(texts)

    def table(self, text: str) -> TokenTable:
        return self.adapter.table(text)

    def special_hits(self, text: str) -> Sequence[object]:
        return self.adapter.special_hits(text)

    def unknown_count(self, enc: Encoding) -> int:
        return self.adapter.unknown_count(enc)

    def token_text(self, token_id: int) -> str:
        return self.adapter.token_text(token_id)

    @cached_property
    def special_ids(self) -> frozenset[int]:
        """Ids of the added tokens marked special (all reserved entries, [UNK] included)."""
        return frozenset(i for i, a in self.hf.get_added_tokens_decoder().items() if a.special)

    @property
    def trained_json(self) -> str:  # type: ignore[override]  # (the default is the class attribute None)
        """Trained here: the ``tokenizer.json`` (see :class:`core.tokens.Tokenizer`)."""
        return self.json

    def special_probes(self) -> list[SpecialProbe]:
        """``tokenizers``' own two modes on this file (what an app loading it with the library gets)."""
        from ..pretrained.hf_adapter import hf_probes

        return hf_probes(self.hf)


@fence(T_("training"))
def train(
    recipe: str,
    lines: Sequence[str],
    vocab_size: int,
    *,
    min_frequency: int = DEFAULT_MIN_FREQUENCY,
    explain: bool = True,
    progress: Callable[[int, int, str], None] | None = None,
) -> TrainedTokenizer:
    """Train ``recipe`` on ``lines`` (one sentence or paragraph each) to ``vocab_size``.

    ``train_seconds`` is the wall time of the library's training call
    alone. With ``explain`` a note says why the vocabulary obtained differs
    from the one requested (see :func:`vocab_note`). ``progress(done, total,
    what)`` is called with the lines fed to the trainer so far (plain numbers; ``what`` is a
    :class:`core.i18n.Message`, which the page draws in its reader's language).
    """
    texts = [ln for ln in lines if ln.strip()]
    total = len(texts)
    if not texts:
        get_recipe(recipe)
        check_vocab_size(vocab_size)
        raise RecipeError(T_("the training text is empty"))

    def feed() -> Iterable[str]:
        for k, ln in enumerate(texts, 1):
            yield ln
            if progress is not None and (k % 1000 == 0 or k == total):
                progress(k, total, T_("training {recipe}: {done:,} of {total:,} lines", recipe=recipe, done=k,
                                      total=total))

    return train_iter(recipe, lambda: iter(texts), vocab_size, min_frequency=min_frequency, explain=explain,
                      length=total, feed=feed)


def train_iter(
    recipe: str,
    lines: Callable[[], Iterable[str]],
    vocab_size: int,
    *,
    min_frequency: int = DEFAULT_MIN_FREQUENCY,
    explain: bool = True,
    length: int | None = None,
    feed: Callable[[], Iterable[str]] | None = None,
) -> TrainedTokenizer:
    """Train ``recipe`` on the lines ``lines()`` yields, without holding them: the trainer reads an iterator.

    ``lines`` is called once for training (``feed`` instead, when given: the
    same lines, e.g. with progress reports) and once more when the vocabulary
    note needs the pre-tokenized pieces. Blank lines are skipped. The library
    keeps every distinct word it sees (see :mod:`core.analysis.corpus` for
    the bound on that).
    """
    r = get_recipe(recipe)
    check_vocab_size(vocab_size)
    if min_frequency < 1:
        raise RecipeError(T_("min_frequency must be at least 1 (got {value})", value=str(min_frequency)))
    source = feed if feed is not None else lines
    fed = 0

    def texts() -> Iterable[str]:
        nonlocal fed
        for ln in source():
            if ln.strip():
                fed += 1
                yield ln

    tok, trainer = r.build(vocab_size, min_frequency)
    t0 = time.perf_counter()
    try:
        tok.train_from_iterator(texts(), trainer=trainer, length=length)
    except Exception as exc:  # noqa: BLE001 - the Rust trainers raise plain exceptions; say which recipe failed, in one line
        raise RecipeError(T_("{recipe} could not be trained on this text ({reason})", recipe=r.label,
                             reason=(str(exc).splitlines() or [type(exc).__name__])[0][:160])) from None
    seconds = time.perf_counter() - t0
    if not fed:
        raise RecipeError(T_("the training text is empty"))
    obtained = tok.get_vocab_size(with_added_tokens=True)
    note_parts = vocab_note_parts(r, tok, (ln for ln in lines() if ln.strip()), vocab_size, obtained,
                                  min_frequency) if explain else ()
    note = render_note(note_parts)
    return TrainedTokenizer(
        id=f"{r.name}-{vocab_size}",
        name=T_("{recipe}, {size:,}", recipe=Message(r.label), size=vocab_size),  # translated where shown
        recipe=r.name,
        json=stable_json(tok),
        vocab_requested=vocab_size,
        vocab_obtained=obtained,
        min_frequency=min_frequency,
        train_seconds=seconds,
        vocab_note=note,
        note_parts=note_parts,
    )


# ---------------------------------------------------------------------------
# Why the vocabulary obtained differs from the one requested
# ---------------------------------------------------------------------------


def vocab_note_parts(recipe: Recipe, tok, lines: Iterable[str], requested: int, obtained: int,  # noqa: ANN001
                     min_frequency: int) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """Why ``obtained`` differs from ``requested``, as (message template, values) pairs: :func:`render_note`
    writes them in any interface language (the numbers are read off the training run)."""
    if obtained == requested:
        return ()

    def part(template: str, **values: object) -> tuple[str, tuple[tuple[str, str], ...]]:
        return template, tuple((k, str(v)) for k, v in values.items())

    if obtained > requested:
        return (part(N_("Above the target: the {specials} special tokens plus the initial alphabet already take "
                        "{obtained} entries."), specials=len(SPECIAL_TOKENS), obtained=f"{obtained:,}"),)
    if recipe.model == "Unigram":
        return (part(N_("Stopped at {obtained} of {requested}: Unigram keeps only pieces that survive its EM pruning "
                        "with enough probability, and this corpus offers fewer."),
                     obtained=f"{obtained:,}", requested=f"{requested:,}"),)
    st = piece_stats(tok, lines, byte_level=recipe.byte_level, wordpiece=recipe.model == "WordPiece",
                     specials=len(SPECIAL_TOKENS))
    parts = [part(N_("Stopped at {obtained} of {requested}: no pair is left that occurs at least {min_frequency}× "
                     "within the {pieces} distinct pieces the pre-tokenizer leaves (tokens never span pieces)."),
                  obtained=f"{obtained:,}", requested=f"{requested:,}", min_frequency=min_frequency,
                  pieces=f"{st.distinct_pieces:,}")]
    if st.merge_ceiling < requested:
        parts.append(part(N_("Even with every pair merged, at most {ceiling} tokens are possible."),
                          ceiling=f"{st.merge_ceiling:,}"))
    if recipe.name == "byte-gpt2":
        parts.append(part(N_("The GPT-2 regex (\\p{{L}}+) stops at every vowel sign and virama (\\p{{M}}): it cuts "
                             "{cut}% of the words into pieces ({per_word} per word, {chars} characters each on "
                             "average), so no merge can rebuild those words whole."),
                          cut=f"{st.words_cut_pct:.0f}", per_word=f"{st.pieces_per_word:.1f}",
                          chars=f"{st.mean_chars:.1f}"))
    return tuple(parts)


def render_note(parts: Sequence[tuple[str, Sequence[tuple[str, str]]]], lang: str = "en") -> str:
    """The sentences of :func:`vocab_note_parts` in ``lang`` (English by default), joined by spaces."""
    t = translator(lang)
    return " ".join(t.gettext(template).format(**dict(values)) for template, values in parts)


def vocab_note(recipe: Recipe, tok, lines: Iterable[str], requested: int, obtained: int,  # noqa: ANN001
               min_frequency: int) -> str:
    """One or two sentences on why ``obtained`` differs from ``requested`` ("" when equal), in English."""
    return render_note(vocab_note_parts(recipe, tok, lines, requested, obtained, min_frequency))


# ---------------------------------------------------------------------------
# Loading a saved tokenizer.json (upload) with clear errors
# ---------------------------------------------------------------------------


class LoadError(UserError):
    """A ``tokenizer.json`` that cannot be used (not UTF-8, truncated, corrupted)."""


@fence(T_("loading the tokenizer.json"))
def load_json_bytes(data: bytes, *, name: str = "tokenizer.json") -> TrainedTokenizer:
    """A :class:`TrainedTokenizer` from saved bytes, or :class:`LoadError` saying what is wrong.

    The text is kept exactly as given, so its sha256 is the file's.
    """
    from tokenizers import Tokenizer

    if not data.strip():
        raise LoadError(T_("{name} is empty", name=name))
    try:
        limits.check_json_bytes(data, name)  # before decoding: the size and depth limits come first
    except limits.LimitError as exc:
        raise LoadError(message_of(exc)) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.reason == "unexpected end of data":  # cut inside a multi-byte character
            raise LoadError(T_("{name} is truncated: it ends inside a character (after {count:,} bytes)", name=name,
                               count=len(data))) from None
        raise LoadError(T_("{where} is not UTF-8 text (byte {offset:,}), so it is not a tokenizer.json", where=name,
                           offset=exc.start)) from None
    try:
        cfg = limits.read_json(text, name)
    except limits.JsonSyntaxError as exc:
        if exc.truncated:
            raise LoadError(T_("{name} is truncated: the JSON ends early (after {count:,} bytes)", name=name,
                               count=len(data))) from None
        raise LoadError(message_of(exc)) from None
    except limits.LimitError as exc:
        raise LoadError(message_of(exc)) from None
    if not isinstance(cfg, dict) or not isinstance(cfg.get("model"), dict):
        raise LoadError(T_("{where} is JSON but not a tokenizer.json (no \"model\" section)", where=name))
    try:
        limits.parse_tokenizer_json(data, name)
    except limits.LimitError as exc:
        raise LoadError(message_of(exc)) from None
    try:
        tok = Tokenizer.from_str(text)
    except Exception as exc:  # noqa: BLE001 - tokenizers raises plain Exception for bad configs
        msg = str(exc).splitlines()[0][:160] if str(exc) else type(exc).__name__
        raise LoadError(T_("{name} is corrupted: the tokenizers library rejects it ({reason})", name=name,
                           reason=msg)) from None
    model = cfg["model"].get("type") or "?"
    return TrainedTokenizer(
        id=f"file:{name}",
        name=f"{name} ({model})",
        recipe=None,
        json=text,
        vocab_requested=None,
        vocab_obtained=tok.get_vocab_size(with_added_tokens=True),
        min_frequency=None,
        train_seconds=None,
    )


def train_all(
    lines: Sequence[str],
    recipes: Sequence[str],
    sizes: Sequence[int],
    *,
    min_frequency: int = DEFAULT_MIN_FREQUENCY,
    baselines: Sequence[str] = tuple(BASELINES),
    progress: Callable[[int, int, str], None] | None = None,
) -> list:
    """Every recipe at every size, then the baselines; ``progress(done, total, label)`` between runs."""
    jobs: list[tuple[str, int | None]] = [(r, s) for r in recipes for s in sizes] + [(b, None) for b in baselines]
    out = []
    for k, (name, size) in enumerate(jobs):
        if progress is not None:
            progress(k, len(jobs), name if size is None else f"{name} {size:,}")
        out.append(train_baseline(name, lines) if size is None else train(name, lines, size, min_frequency=min_frequency))
    if progress is not None:
        progress(len(jobs), len(jobs), "done")
    return out
