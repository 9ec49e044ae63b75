"""The learning languages: one row each, read by every page and the CLI.

A learning language is a language the course's own samples are written in
(the WordPiece, Unigram, BPE stepper and Train pages train on its sample,
the tax page and the vocabulary census report its premium, the
Pre-tokenizers page may offer its sentence). Its row says everything a page
needs: the code (also the sample's URL parameter value and the tax column),
the English name (an ``N_`` msgid, shown translated), the script and
direction, the sample file, an example word and sentence, and the published
reference figure. Adding a language is one row in :data:`LANGUAGES` plus its
sample file (and, for the translated name, one catalog entry per interface
language).

English is the comparison baseline (the tax premium is over English), not a
learning language: it is the single constant :data:`ENGLISH`.

Imports only :mod:`core.assets` and :mod:`core.i18n` (rank 0), so every wing may read it.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from .assets import ASSETS, REPO
from .i18n import N_


@dataclass(frozen=True)
class LearningLanguage:
    """One learning language.

    ``sample`` and ``text`` are paths under ``assets/`` (an absolute path is taken as it is).
    """

    #: Language code (BCP 47 / CLDR), the value of the pages' ``sample`` URL parameter and the tax TSV column.
    code: str
    #: English name, an ``N_`` msgid: pages show ``_(name)``.
    name: str
    #: Unicode ``Script`` value of its letters, as :func:`core.text.scripts.script_of` names it (the census row).
    script: str
    #: Writing direction of its text.
    direction: Literal["ltr", "rtl"]
    #: The learning sample, one sentence per line (the WordPiece, Unigram, stepper and Train pages train on it).
    sample: str
    #: A word of the sample to encode or inspect first (the Unigram lattice, the stepper's new word).
    word: str
    #: An example sentence (the Pre-tokenizers page's example and its mixed example).
    sentence: str
    #: A longer example text the Pre-tokenizers page shows instead of the sentence (None: the sentence).
    text: str | None = None
    #: Offered as an example on the Pre-tokenizers page (its sentence shows what split patterns do to its script).
    pretokenizers: bool = True
    #: Published token premium over English of cl100k_base (Petrov et al. 2023, FLORES-200); None if none.
    reference: float | None = None

    @property
    def sample_path(self) -> Path:
        """The sample file."""
        return ASSETS / self.sample

    @property
    def sample_name(self) -> str:
        """The sample file as a reader finds it: from the repository root (``assets/learn/hi.txt``)."""
        path = self.sample_path
        return path.relative_to(REPO).as_posix() if path.is_relative_to(REPO) else str(path)

    def sample_lines(self) -> list[str]:
        """The sample's sentences (blank lines dropped)."""
        return [ln for ln in self.sample_path.read_text(encoding="utf-8").splitlines() if ln.strip()]

    def example_text(self) -> str:
        """The Pre-tokenizers page's example: the ``text`` file without its final newline, else the sentence."""
        if self.text is None:
            return self.sentence
        return (ASSETS / self.text).read_text(encoding="utf-8").rstrip("\n")


#: The learning languages, in the order pages list them (the first is every page's default).
LANGUAGES: dict[str, LearningLanguage] = {row.code: row for row in (
    LearningLanguage("bn", N_("Bangla"), "Bengali", "ltr", "algos/corpus_bn.txt", "বাজারঘরের",
                     "বাজারঘরের অর্ডার আগামীকাল বিকেলে রাজশাহী পৌঁছাবে।", reference=5.84),
    LearningLanguage("hi", N_("Hindi"), "Devanagari", "ltr", "learn/hi.txt", "बाज़ारघर",
                     "बाज़ारघर से आपका ऑर्डर कल दोपहर तक लखनऊ पहुँच जाएगा।", pretokenizers=False, reference=4.79),
    LearningLanguage("fa", N_("Persian"), "Arabic", "rtl", "learn/fa.txt", "کتاب‌خانه",
                     "سفارش شما از بازارگهر فردا بعدازظهر به راجشاهی می‌رسد.", text="algos/persian.txt",
                     reference=3.28),
    LearningLanguage("uz", N_("Uzbek"), "Latin", "ltr", "learn/uz.txt", "bozorgʻhardan",
                     "Bozorgʻhardan buyurtmangiz ertaga tushdan keyin Samarqandga yetib boradi.", pretokenizers=False,
                     reference=2.17),
)}

#: The comparison baseline (the tax premium is over English); its sample is the English shop text.
ENGLISH = LearningLanguage("en", N_("English"), "Latin", "ltr", "samples/shop_en.txt", "Bazargharer",
                           "Your order from Bazarghar will reach Rajshahi tomorrow afternoon. It's 1234 km!")

#: The project's own language. Its bundled texts are larger than a learning sample, so the stepper starts from
#: its shop text (``assets/samples/shop_bn.txt``, with the English translation) and the Train page from its
#: training corpus (:data:`core.assets.BUNDLED_CORPUS`): those pages list them first and then offer the
#: *other* languages' samples (:func:`others`).
HOME = "bn"
#: The stepper's first word to encode on the home language's texts (two words of its toy table joined).
HOME_WORD = "বাজারঘর"
#: The Pre-tokenizers page's mixed example: its label and the codes whose sentences it joins, one per line.
MIXED = (N_("Bangla + Persian + English"), (HOME, "fa", ENGLISH.code))


def codes() -> list[str]:
    """The learning languages' codes, in table order (the choices of every ``sample`` parameter)."""
    return list(LANGUAGES)


def default() -> str:
    """The code every page starts from: the table's first row."""
    return next(iter(LANGUAGES))


def get(code: str) -> LearningLanguage:
    """The row of ``code``; ``ENGLISH`` for ``en``. ``KeyError`` for a code the table does not have."""
    return ENGLISH if code == ENGLISH.code else LANGUAGES[code]


def others() -> list[str]:
    """The learning languages other than :data:`HOME`, in table order (their samples follow the home corpora)."""
    return [c for c in LANGUAGES if c != HOME]


def references() -> dict[str, float]:
    """The published cl100k_base premiums over English, by code, in table order."""
    return {c: row.reference for c, row in LANGUAGES.items() if row.reference is not None}
