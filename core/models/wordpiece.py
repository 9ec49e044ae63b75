"""WordPiece, traced: greedy longest-match-first encoding, step by step.

Encoding a word: from the current position try the longest remaining
substring first (with ``##`` in front when it is inside the word), then one
character shorter, and so on, until a vocabulary entry matches; take it and
continue after it. If some remainder matches nothing, the WHOLE word becomes
the unknown token (not just the unmatched part). Words longer than
``max_input_chars_per_word`` become the unknown token without any search,
exactly as Hugging Face ``tokenizers`` does.

Vocabularies come from a ``tokenizers`` WordPiece ``tokenizer.json``, a
BERT-style ``vocab.txt``, a typed list, or :func:`train_wordpiece` (the real
``WordPieceTrainer``). :func:`score_merges` trains a few merges by hand with
the textbook WordPiece score ``count(ab) / (count(a) * count(b))`` next to
plain BPE pair counts on the same corpus.

This module does not normalize text and does not implement the trainer
itself: training goes through ``tokenizers``.
"""
from __future__ import annotations

import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

from ..i18n import T_, Message, Tn_, message_of
from ..text import limits
from ..text.errors import UserError
from ..text.native import fence

if TYPE_CHECKING:  # pragma: no cover
    from tokenizers import Tokenizer

#: Hugging Face's defaults for a WordPiece model.
DEFAULT_UNK = "[UNK]"
DEFAULT_PREFIX = "##"
DEFAULT_MAX_CHARS = 100


class VocabError(UserError):
    """A vocabulary that cannot be used as WordPiece (message says what was found).

    Its message, like the vocabulary's ``notes`` and a word's ``reason``, is a :class:`core.i18n.Message`:
    English as a string (the CLI), shown in the reader's language by the pages.
    """


@dataclass(frozen=True)
class WordPieceVocab:
    """A WordPiece vocabulary: token -> id plus the model's settings.

    ``notes`` are plain-language remarks found while loading (for example
    "[UNK] was missing and was added"), as :class:`core.i18n.Message`.
    """

    vocab: Mapping[str, int]
    unk_token: str = DEFAULT_UNK
    prefix: str = DEFAULT_PREFIX
    max_input_chars_per_word: int = DEFAULT_MAX_CHARS
    source: str = "typed"
    notes: tuple[Message, ...] = ()
    tokenizer_json: str | None = field(default=None, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.vocab)

    @property
    def max_piece_chars(self) -> int:
        """Length in characters of the longest entry (prefix excluded)."""
        longest = 0
        for tok in self.vocab:
            n = len(tok) - len(self.prefix) if tok.startswith(self.prefix) else len(tok)
            longest = max(longest, n)
        return longest


# ---------------------------------------------------------------- loading


#: The source name of a typed list of pieces.
TYPED_LIST = T_("the typed list")


def _empty(source: str, unk: str) -> VocabError:
    return VocabError(T_("the vocabulary from {source} is empty: it needs at least {unk} and some pieces",
                         source=source, unk=repr(unk)))


def _no_prefix_note(prefix: str) -> Message:
    return T_("no entry starts with {prefix}: only whole words or word starts can match", prefix=repr(prefix))


def _check(vocab: dict[str, int], unk: str, source: str) -> None:
    if not vocab:
        raise _empty(source, unk)
    if not any(tok != unk for tok in vocab):
        raise VocabError(T_("the vocabulary from {source} holds only the unknown token {unk}", source=source,
                            unk=repr(unk)))


def vocab_from_tokens(tokens: Iterable[str], *, unk_token: str = DEFAULT_UNK, prefix: str = DEFAULT_PREFIX,
                      source: str = TYPED_LIST) -> WordPieceVocab:
    """A vocabulary from a list of pieces (ids in list order; duplicates dropped).

    The unknown token is added at the front if the list lacks it.

    >>> v = vocab_from_tokens(["ঘর", "##ের"])
    >>> sorted(v.vocab.items(), key=lambda kv: kv[1])
    [('[UNK]', 0), ('ঘর', 1), ('##ের', 2)]
    """
    notes: list[Message] = []
    clean = [t for t in (t.strip() for t in tokens) if t]
    if not clean:
        raise VocabError(T_("the vocabulary from {source} is empty: type or upload some pieces", source=source))
    vocab: dict[str, int] = {}
    if unk_token not in clean:
        vocab[unk_token] = 0
        notes.append(T_("{unk} was not in the list and was added as id {id}", unk=unk_token, id="0"))
    dups = 0
    for tok in clean:
        if tok in vocab:
            dups += 1
            continue
        vocab[tok] = len(vocab)
    if dups:
        notes.append(Tn_("{count} duplicate entry was dropped", "{count} duplicate entries were dropped", dups,
                         count=dups))
    _check(vocab, unk_token, source)
    if not any(t.startswith(prefix) for t in vocab):
        notes.append(_no_prefix_note(prefix))
    return WordPieceVocab(vocab, unk_token, prefix, DEFAULT_MAX_CHARS, source, tuple(notes))


def parse_typed_vocab(text: str, **kw: str) -> WordPieceVocab:
    """A vocabulary typed by hand: pieces separated by commas, spaces or lines."""
    import re

    return vocab_from_tokens([t for t in re.split(r"[,\s]+", text) if t], **kw)


def _describe_vocab_lines(lines: Sequence[str]) -> Message | None:
    """Name the format of a vocab file that is not a WordPiece vocab.txt, or None."""
    sample = [ln for ln in lines[:200] if ln]
    if not sample:
        return None
    if sum(1 for ln in sample if len(ln.split(" ")) == 2 and ln.split(" ")[1].isdigit()) > 0.8 * len(sample):
        return T_("a tiktoken ranks file (base64 token and rank per line)")
    if sample[0].startswith("#version") or sum(1 for ln in sample if len(ln.split(" ")) == 2) > 0.8 * len(sample):
        return T_("a BPE merges file (pairs of pieces per line)")
    if sum(1 for ln in sample if "\t" in ln and _is_float(ln.rsplit("\t", 1)[-1])) > 0.8 * len(sample):
        return T_("a SentencePiece .vocab file (piece<TAB>score per line, a Unigram or BPE model)")
    return None


def _looks_json(text: str) -> bool:
    """True for a JSON object, or a JSON array (a vocab.txt may start with "[PAD]", so parse to be sure)."""
    head = text.lstrip()
    if head.startswith("{"):
        return True
    if head.startswith("["):
        try:
            limits.read_json(head, "")
        except limits.JsonSyntaxError:
            return False
        except limits.LimitError:  # JSON, but too big or too deep: the JSON loader says so
            return True
        return True
    return False


def _is_float(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True


def load_vocab_txt(text: str, *, source: str = "vocab.txt", unk_token: str = DEFAULT_UNK) -> WordPieceVocab:
    """A BERT-style ``vocab.txt``: one piece per line, id = line number."""
    stripped = text.lstrip("\ufeff")
    if _looks_json(stripped):
        return load_tokenizer_json(stripped, source=source)
    lines = stripped.splitlines()
    if not any(ln.strip() for ln in lines):
        raise _empty(source, unk_token)
    found = _describe_vocab_lines(lines)
    if found:
        raise VocabError(T_("{source} is not a WordPiece vocabulary: it looks like {found}", source=source,
                            found=found))
    vocab: dict[str, int] = {}
    notes: list[Message] = []
    for i, ln in enumerate(lines):
        tok = ln.rstrip("\r\n")
        if tok and tok not in vocab:
            vocab[tok] = i
    if unk_token not in vocab:
        vocab[unk_token] = max(vocab.values(), default=-1) + 1
        notes.append(T_("{unk} was not in the file and was added as id {id}", unk=unk_token, id=str(vocab[unk_token])))
    _check(vocab, unk_token, source)
    if not any(t.startswith(DEFAULT_PREFIX) for t in vocab):
        notes.append(_no_prefix_note(DEFAULT_PREFIX))
    return WordPieceVocab(vocab, unk_token, DEFAULT_PREFIX, DEFAULT_MAX_CHARS, source, tuple(notes))


def load_tokenizer_json(text: str, *, source: str = "tokenizer.json") -> WordPieceVocab:
    """The WordPiece model inside a Hugging Face ``tokenizer.json``.

    Raises :class:`VocabError` naming the model type when it is not WordPiece.
    """
    try:
        data = limits.read_json(text, source)
    except limits.JsonSyntaxError as exc:
        raise VocabError(T_("{source} is not valid JSON ({reason} at line {line})", source=source, reason=exc.reason,
                            line=exc.lineno)) from None
    except limits.LimitError as exc:
        raise VocabError(message_of(exc)) from None
    if not isinstance(data, dict):
        raise VocabError(T_("{source} is JSON but not a tokenizer.json (top level is a {type})", source=source,
                            type=type(data).__name__))
    model = data.get("model") if isinstance(data.get("model"), dict) else None
    if model is None:
        raise VocabError(T_("{source} has no 'model' section: it is not a Hugging Face tokenizer.json", source=source))
    mtype = model.get("type") or ("BPE" if "merges" in model else "Unigram" if isinstance(model.get("vocab"), list) else None)
    if mtype != "WordPiece":
        raise VocabError(T_("{source} holds a {model} model, not WordPiece", source=source,
                            model=str(mtype) if mtype else T_("unknown")))
    vocab = model.get("vocab")
    if not isinstance(vocab, dict):
        raise VocabError(T_("{source}: the WordPiece vocab is not a token -> id map", source=source))
    unk = model.get("unk_token") or DEFAULT_UNK
    notes: list[Message] = []
    _check(vocab, unk, source)
    if unk not in vocab:
        raise VocabError(T_("{source}: the unknown token {unk} is not in the vocabulary", source=source,
                            unk=repr(unk)))
    return WordPieceVocab(
        dict(vocab),
        unk,
        model.get("continuing_subword_prefix") or DEFAULT_PREFIX,
        int(model.get("max_input_chars_per_word") or DEFAULT_MAX_CHARS),
        source,
        tuple(notes),
        tokenizer_json=text,
    )


def load_vocab_bytes(data: bytes, filename: str) -> WordPieceVocab:
    """An uploaded file: ``tokenizer.json`` or ``vocab.txt`` (decided by content)."""
    if not data:
        raise VocabError(T_("{name} is empty", name=filename))
    if b"\x00" in data[:4096]:
        raise VocabError(T_("{name} is a binary file (maybe a SentencePiece .model), not a WordPiece vocabulary",
                            name=filename))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise VocabError(T_("{name} is not UTF-8 text (byte {offset})", name=filename, offset=exc.start)) from None
    if _looks_json(text.lstrip("\ufeff")):
        try:
            limits.parse_tokenizer_json(text.lstrip("\ufeff").encode("utf-8"), filename)
        except limits.LimitError as exc:
            raise VocabError(message_of(exc)) from None
        return load_tokenizer_json(text.lstrip("\ufeff"), source=filename)
    return load_vocab_txt(text, source=filename)


# ---------------------------------------------------------------- encoding


@dataclass(frozen=True)
class Candidate:
    """One vocabulary lookup: ``piece`` (with ``##`` if inside the word) covering word chars ``[start, end)``."""

    piece: str
    start: int
    end: int
    found: bool


@dataclass(frozen=True)
class MatchStep:
    """One greedy step: what was left, every candidate tried, and the match (None = failure)."""

    position: int
    remaining: str
    candidates: tuple[Candidate, ...]
    match: str | None


@dataclass(frozen=True)
class WordTrace:
    """How one word was encoded. ``start``/``end`` are code point offsets into the encoded text."""

    word: str
    start: int
    end: int
    steps: tuple[MatchStep, ...]
    pieces: tuple[str, ...]
    ids: tuple[int, ...]
    unk: bool
    too_long: bool = False

    @property
    def reason(self) -> str:
        """Why the word is [UNK], in plain words ('' if it is not); a :class:`core.i18n.Message`."""
        if self.too_long:
            return T_("longer than the limit: the whole word is the unknown token without any search")
        if self.unk:
            last = self.steps[-1]
            return T_("nothing in the vocabulary matches the rest {rest} (at character {position}), so the WHOLE word "
                      "becomes the unknown token", rest=repr(last.remaining), position=last.position)
        return ""


@dataclass(frozen=True)
class WordPieceTrace:
    """The stepped encoding of a text: one :class:`WordTrace` per pre-tokenized word."""

    text: str
    words: tuple[WordTrace, ...]

    @property
    def pieces(self) -> list[str]:
        return [p for w in self.words for p in w.pieces]

    @property
    def ids(self) -> list[int]:
        return [i for w in self.words for i in w.ids]


def encode_word(word: str, vocab: WordPieceVocab, *, start: int = 0, trace: bool = True) -> WordTrace:
    """Greedy longest-match-first on one word.

    >>> v = vocab_from_tokens(["ঘর", "দাম", "##ের", "##ে", "##র", "##ি"])
    >>> encode_word("ঘরের", v).pieces
    ('ঘর', '##ের')
    >>> encode_word("ঘরেই", v).pieces
    ('[UNK]',)
    """
    unk_id = vocab.vocab.get(vocab.unk_token)
    unk_ids = () if unk_id is None else (unk_id,)
    n = len(word)
    if n > vocab.max_input_chars_per_word:
        return WordTrace(word, start, start + n, (), (vocab.unk_token,), unk_ids, True, True)
    steps: list[MatchStep] = []
    pieces: list[str] = []
    ids: list[int] = []
    pos = 0
    while pos < n:
        tried: list[Candidate] = []
        match: str | None = None
        end = n
        while end > pos:
            sub = word[pos:end]
            piece = vocab.prefix + sub if pos > 0 else sub
            found = piece in vocab.vocab
            if trace:
                tried.append(Candidate(piece, pos, end, found))
            if found:
                match = piece
                break
            end -= 1
        steps.append(MatchStep(pos, word[pos:], tuple(tried), match))
        if match is None:
            return WordTrace(word, start, start + n, tuple(steps), (vocab.unk_token,), unk_ids, True)
        pieces.append(match)
        ids.append(vocab.vocab[match])
        pos = end
    return WordTrace(word, start, start + n, tuple(steps), tuple(pieces), tuple(ids), False)


@fence(T_("BERT pre-tokenization"))
def display_piece(piece: str, prefix: str = DEFAULT_PREFIX) -> str:
    """``piece`` as shown in a line of text: a dotted circle between the prefix and a combining mark that follows
    it, so ``##ें`` is drawn ``##◌ें`` and the sign does not sit on the last ``#``. Data keeps the real piece.

    >>> display_piece("##ें"), display_piece("##র"), display_piece("##er"), display_piece("ঘর")
    ('##◌ें', '##র', '##er', 'ঘর')
    """
    rest = piece[len(prefix):] if prefix and piece.startswith(prefix) else None
    if rest and unicodedata.category(rest[0]).startswith("M"):
        return prefix + "\u25cc" + rest
    return piece


def split_words(text: str) -> list[tuple[str, int, int]]:
    """BERT pre-tokenization (whitespace, then punctuation apart) via ``tokenizers``.

    Returns ``(word, start, end)`` with code point offsets.
    """
    from tokenizers.pre_tokenizers import BertPreTokenizer

    return [(w, s, e) for w, (s, e) in BertPreTokenizer().pre_tokenize_str(text)]


def encode(text: str, vocab: WordPieceVocab, *, trace: bool = True) -> WordPieceTrace:
    """Pre-tokenize ``text`` like BERT and encode each word with :func:`encode_word`.

    The text is used as given: no normalizer runs here.
    """
    words = tuple(encode_word(w, vocab, start=s, trace=trace) for w, s, _ in split_words(text))
    return WordPieceTrace(text, words)


# ---------------------------------------------------------------- training (real library)


@fence(T_("WordPiece training"))
def train_wordpiece(lines: Iterable[str], *, vocab_size: int = 300, min_frequency: int = 1,
                    unk_token: str = DEFAULT_UNK) -> WordPieceVocab:
    """Train with Hugging Face's ``WordPieceTrainer`` (BERT pre-tokenizer, no normalizer).

    Note: the trainer chooses merges by BPE pair counts, not by the textbook
    WordPiece score (see :func:`score_merges`).
    """
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tok = Tokenizer(models.WordPiece(unk_token=unk_token))
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    trainer = trainers.WordPieceTrainer(vocab_size=vocab_size, min_frequency=min_frequency,
                                        special_tokens=[unk_token], show_progress=False)
    tok.train_from_iterator(list(lines), trainer=trainer)
    return load_tokenizer_json(tok.to_str(), source=f"WordPieceTrainer (vocab_size={vocab_size})")


def library_tokenizer(vocab: WordPieceVocab) -> Tokenizer:
    """The same vocabulary as a real ``tokenizers`` WordPiece tokenizer (BERT pre-tokenizer, no normalizer)."""
    from tokenizers import Tokenizer, models, pre_tokenizers

    tok = Tokenizer(models.WordPiece(dict(vocab.vocab), unk_token=vocab.unk_token,
                                     max_input_chars_per_word=vocab.max_input_chars_per_word))
    # subtle: the prefix is a model attribute, not a constructor argument in every release.
    tok.model.continuing_subword_prefix = vocab.prefix
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    return tok


# ---------------------------------------------------------------- textbook score vs BPE counts


@dataclass(frozen=True)
class PairScore:
    """A candidate merge with both criteria."""

    left: str
    right: str
    pair_count: int
    left_count: int
    right_count: int

    @property
    def merged(self) -> str:
        return self.left + self.right.removeprefix(DEFAULT_PREFIX)

    @property
    def score(self) -> float:
        """Textbook WordPiece: count(ab) / (count(a) * count(b))."""
        return self.pair_count / (self.left_count * self.right_count)


@dataclass(frozen=True)
class ScoreStep:
    """One merge of a run, with what the other criterion would pick in the same state."""

    number: int
    chosen: PairScore
    by_score: PairScore
    by_count: PairScore
    vocab_size: int
    segmentations: tuple[tuple[str, tuple[str, ...]], ...]

    @property
    def differ(self) -> bool:
        return (self.by_score.left, self.by_score.right) != (self.by_count.left, self.by_count.right)


def word_counts(lines: Iterable[str]) -> Counter[str]:
    """Word frequencies after BERT pre-tokenization, punctuation dropped."""
    import unicodedata

    c: Counter[str] = Counter()
    for line in lines:
        for w, _, _ in split_words(line):
            if not all(unicodedata.category(ch).startswith("P") for ch in w):
                c[w] += 1
    return c


def score_merges(counts: Mapping[str, int], steps: int = 10, *, criterion: str = "wordpiece") -> tuple[ScoreStep, ...]:
    """Train ``steps`` merges by hand, choosing by ``criterion`` ("wordpiece" score or "bpe" count).

    Words start as characters, non-initial ones with ``##``. Each step also
    records what the other criterion would choose in the same state. Ties go
    to the pair seen first in corpus order.

    >>> s = score_merges({"low": 5, "lower": 2, "newest": 6, "widest": 3}, 1, criterion="bpe")
    >>> s[0].chosen.merged
    '##es'
    """
    if criterion not in ("wordpiece", "bpe"):
        raise ValueError(f"criterion must be 'wordpiece' or 'bpe', got {criterion!r}")
    words = {w: [w[0]] + [DEFAULT_PREFIX + ch for ch in w[1:]] for w in counts if w}
    alphabet = {s for segs in words.values() for s in segs}
    out: list[ScoreStep] = []
    for number in range(1, steps + 1):
        sym: Counter[str] = Counter()
        pairs: dict[tuple[str, str], int] = {}
        for w, segs in words.items():
            f = counts[w]
            for s in segs:
                sym[s] += f
            for a, b in zip(segs, segs[1:]):
                pairs[(a, b)] = pairs.get((a, b), 0) + f
        if not pairs:
            break
        scored = [PairScore(a, b, c, sym[a], sym[b]) for (a, b), c in pairs.items()]
        # max() keeps the first of equal keys: first seen in corpus order wins ties.
        by_score = max(scored, key=lambda p: p.score)
        by_count = max(scored, key=lambda p: p.pair_count)
        chosen = by_score if criterion == "wordpiece" else by_count
        for w, segs in words.items():
            words[w] = _merge(segs, chosen.left, chosen.right, chosen.merged)
        alphabet.add(chosen.merged)
        out.append(ScoreStep(number, chosen, by_score, by_count, len(alphabet),
                             tuple((w, tuple(s)) for w, s in words.items())))
    return tuple(out)


def _merge(segs: list[str], a: str, b: str, ab: str) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(segs):
        if i + 1 < len(segs) and segs[i] == a and segs[i + 1] == b:
            out.append(ab)
            i += 2
        else:
            out.append(segs[i])
            i += 1
    return out
