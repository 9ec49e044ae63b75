"""Interface languages: gettext catalogs through babel, plural forms, locale numbers.

The sources are ``assets/locale/<lang>/LC_MESSAGES/tokenizer_lab.po`` (one per
language in :data:`LANGS`, English is the source language and has none). They
are compiled to ``.mo`` in memory on first use (``babel.messages.pofile`` +
``babel.messages.mofile``), cached per language, so a fresh clone needs no
build step and no ``.mo`` file is committed.

Core code that writes sentences people read takes a ``lang`` argument
(default ``"en"``) and does::

    t = translator(lang)
    t.gettext("{count} of {total} tokens").format(count=..., total=...)
    t.ngettext("{count} token", "{count} tokens", n)

Core never reads an ambient language (:func:`current`, :func:`use_lang`, :func:`activate` and this module's
:func:`_` / :func:`ngettext` are for the CLI's outer edge, which sets ``--lang`` up, and for modules not yet
converted): with ``lang`` in the signature, every cache built on a function is keyed on the language
(``tests/test_no_ambient_lang.py``).

Only whole sentences with named placeholders are translated, never glued
fragments; JSON keys never change. ``N_`` marks a string for extraction where
it is translated later (tables of titles).

Core code that writes a sentence *before* anyone knows who will read it (an
error raised while loading a file, a note kept on a loaded vocabulary, a
progress line sent from a trainer's thread) makes a :class:`Message` with
``T_(template, **values)`` or ``Tn_(singular, plural, n, **values)``: it is
the English sentence as a ``str`` (what the CLI prints, what ``str(exc)`` and
JSON hold), and a page shows it in the reader's language with
:func:`localize`.

Update the template and the catalogs after changing messages::

    python -m core.i18n extract     # writes assets/locale/tokenizer_lab.pot
    python -m core.i18n update      # merges it into every .po (new entries empty)
    python -m core.i18n check       # lists untranslated / fuzzy / mismatched entries
"""
from __future__ import annotations

import gettext as _gettext
import string
import sys
import unicodedata
from contextlib import contextmanager
from contextvars import ContextVar
from copy import copy
from dataclasses import dataclass, field
from functools import lru_cache
from io import BytesIO
from pathlib import Path
from typing import Iterator

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po
from babel.numbers import format_decimal

from .assets import ASSETS, REPO

#: Interface languages, each named in its own script (the sidebar shows these names).
LANGS: dict[str, str] = {"en": "English", "bn": "বাংলা", "hi": "हिन्दी", "fa": "فارسی", "uz": "Oʻzbekcha"}
DEFAULT_LANG = "en"
RTL_LANGS = frozenset({"fa"})
#: Languages whose own digits can be shown instead of Western ones (a sidebar option): CLDR numbering
#: system and its zero (babel formats the separators; the digits are mapped here).
NATIVE_DIGITS = {"bn": ("beng", 0x09E6), "fa": ("arabext", 0x06F0)}
NATIVE_DIGIT_LANGS = frozenset(NATIVE_DIGITS)
DOMAIN = "tokenizer_lab"
LOCALE_DIR = ASSETS / "locale"
#: Extraction keywords: ``_``/``gettext``/``N_``/``T_`` take one message, ``ngettext``/``Tn_`` singular and plural.
KEYWORDS = {"_": None, "gettext": None, "N_": None, "T_": None, "ngettext": (1, 2), "Tn_": (1, 2)}
#: Where messages are extracted from (relative to the repo root).
SOURCES = (("app.py", "python"), ("pages/**.py", "python"), ("core/**.py", "python"))


def N_(message: str) -> str:  # noqa: N802 - the gettext convention
    """Mark ``message`` for extraction without translating it now."""
    return message


def po_path(lang: str) -> Path:
    """The catalog source of ``lang``."""
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def normalize_lang(value: object) -> str:
    """``value`` if it names an interface language (``"bn"``, ``"bn-BD"``, ``"fa_IR"``), else :data:`DEFAULT_LANG`."""
    if not isinstance(value, str):
        return DEFAULT_LANG
    code = value.strip().replace("_", "-").split("-")[0].lower()
    return code if code in LANGS else DEFAULT_LANG


#: Unicode bidi isolates (UAX #9): FSI ... PDI keeps a value's own direction inside a sentence.
FSI, PDI = "\u2068", "\u2069"


def _has_rtl(text: str) -> bool:
    return any(unicodedata.bidirectional(c) in ("R", "AL") for c in text)


def isolate(value: object) -> str:
    """``value`` between FSI and PDI when it holds no right-to-left letter (hex bytes, code point names, regex
    fragments, Latin or Bangla text), so a right-to-left sentence cannot reorder it."""
    text = str(value)
    return text if not text.strip() or _has_rtl(text) else FSI + text + PDI


class RtlTemplate(str):
    """A translated message of a right-to-left language: :meth:`format` isolates each left-to-right value
    (``"E0 A6 | 9C"`` keeps its order inside a Persian sentence). Left-to-right languages get plain ``str``."""

    def format(self, *args: object, **kwargs: object) -> str:
        return str.format(self, *(isolate(a) if isinstance(a, str) else a for a in args),
                          **{k: isolate(v) if isinstance(v, str) else v for k, v in kwargs.items()})


@lru_cache(maxsize=16)  # one entry per interface language
def _translations(lang: str) -> _gettext.NullTranslations:
    """The compiled catalog of ``lang`` (English: the messages themselves)."""
    path = po_path(lang)
    if lang == DEFAULT_LANG or not path.exists():
        return _gettext.NullTranslations()
    with path.open("rb") as fh:
        catalog = read_po(fh, locale=lang, domain=DOMAIN)
    buf = BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return _gettext.GNUTranslations(buf)


@dataclass(frozen=True)
class Translator:
    """Messages and numbers for one interface language.

    >>> t = translator("bn")
    >>> t.format_number(1234567), t.format_number(1234567, digits="native")
    ('12,34,567', '১২,৩৪,৫৬৭')
    >>> translator("en").ngettext("{count} token", "{count} tokens", 2).format(count=2)
    '2 tokens'
    """

    lang: str
    digits: str = "western"
    _t: _gettext.NullTranslations = field(default_factory=_gettext.NullTranslations, compare=False, repr=False)

    @property
    def rtl(self) -> bool:
        """True for a right-to-left language."""
        return self.lang in RTL_LANGS

    def gettext(self, message: str) -> str:
        """``message`` in this language (the English text when the catalog has none). A :class:`Message` is
        written again from its template (so ``_(entry.algorithm)`` serves a marked description and a
        trained recipe's ``T_("trained here ({recipe})", ...)`` alike)."""
        if isinstance(message, Message):
            return message.translated(self)
        out = self._t.gettext(message)
        return RtlTemplate(out) if self.rtl else out

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of ``singular``/``plural`` for ``n`` under this language's plural rule."""
        out = self._t.ngettext(singular, plural, n)
        return RtlTemplate(out) if self.rtl else out

    def format_number(self, n: float, digits: str | None = None, decimals: int | None = None) -> str:
        """``n`` with this locale's grouping; ``digits="native"`` uses Bangla/Persian digits
        (Western digits otherwise, and always in exported data)."""
        native = (digits or self.digits) == "native"
        system, zero = NATIVE_DIGITS.get(self.lang, ("latn", 0x30)) if native else ("latn", 0x30)
        if decimals is None:
            out = format_decimal(n, locale=self.lang, numbering_system=system)
        else:
            pattern = copy(Locale.parse(self.lang).decimal_formats[None])  # the locale's grouping, fixed decimals
            pattern.frac_prec = (decimals, decimals)
            out = pattern.apply(n, Locale.parse(self.lang), numbering_system=system)
        return out if zero == 0x30 else out.translate({0x30 + d: zero + d for d in range(10)})

    def native(self, text: str) -> str:
        """``text`` with 0-9 as this language's own digits when they were asked for (else unchanged)."""
        if self.digits != "native" or self.lang not in NATIVE_DIGITS:
            return text
        zero = NATIVE_DIGITS[self.lang][1]
        return text.translate({0x30 + d: zero + d for d in range(10)})


@lru_cache(maxsize=64)  # (language, digits) pairs; bounded, since ``lang`` may come from a URL
def translator(lang: str = DEFAULT_LANG, digits: str = "western") -> Translator:
    """The :class:`Translator` of ``lang`` (unknown codes fall back to English)."""
    lang = normalize_lang(lang)
    return Translator(lang, digits, _translations(lang))


_current: ContextVar[Translator] = ContextVar("tokenizer_lab_lang", default=Translator(DEFAULT_LANG))  # noqa: B039 - never mutated


@contextmanager
def use_lang(lang: str = DEFAULT_LANG, digits: str = "western") -> Iterator[Translator]:
    """Within the block, :func:`_` and :func:`ngettext` of this module speak ``lang`` (per thread/task).

    For the CLI's outer edge (``--lang``) only: a core function takes ``lang`` and passes a translator down
    instead, so its result (and any cache of it) depends on its arguments alone.
    """
    token = _current.set(translator(lang, digits))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def activate(lang: str = DEFAULT_LANG, digits: str = "western") -> None:
    """Make ``lang`` the current language of this thread/task until changed (the app calls this at the start
    of every script run for the core modules that still read it; see :func:`use_lang`)."""
    _current.set(translator(lang, digits))


def current() -> Translator:
    """The translator set by the innermost :func:`use_lang` (English outside any)."""
    return _current.get()


def _(message: str) -> str:
    """``message`` in the language of the innermost :func:`use_lang`."""
    return _current.get().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The plural form for ``n`` in the language of the innermost :func:`use_lang`."""
    return _current.get().ngettext(singular, plural, n)


# ---------------------------------------------------------------------------
# Messages made in core, shown later (and elsewhere) in the reader's language
# ---------------------------------------------------------------------------


class Verbatim(str):
    """A value a :class:`Message` writes exactly as given: no native digits, no bidi isolate. For figures a
    sentence has always shown as plain text (the normalization warnings' counts), so making the sentence a
    Message does not change what it shows."""


class _ValueFormatter(string.Formatter):
    """Fills a template's fields for one :class:`Translator`: a nested :class:`Message` in that language, whole
    numbers in its digits (``{n:,}`` with its grouping), and for a right-to-left language every value that holds
    no right-to-left letter in a bidi isolate (as :class:`RtlTemplate` does)."""

    def __init__(self, t: Translator) -> None:
        self.t = t

    def format_field(self, value: object, format_spec: str) -> str:
        if isinstance(value, Verbatim):
            return format(str(value), format_spec)
        english = self.t.lang == DEFAULT_LANG
        if isinstance(value, Message):
            text = value.translated(self.t)
        elif isinstance(value, int) and not isinstance(value, bool) and format_spec in ("", ","):
            text = format(value, format_spec) if english else (
                self.t.format_number(value) if format_spec else self.t.native(str(value)))
        else:
            text = format(value, format_spec)
            text = text if english or not isinstance(value, float) else self.t.native(text)
        return isolate(text) if self.t.rtl else text


class Message(str):
    """A sentence core writes for people: the English text (this ``str``) plus the template and values it came from.

    Why: core raises errors and keeps notes long before, and far from, the page that shows them (often in a
    thread that has no session language), and the CLI must keep printing English. So core never translates
    such a sentence itself: the message *is* its English text wherever a string is used (``str(exc)``, ``==``,
    JSON, the CLI's one-line error), and :meth:`translated` writes it again from the same template in any
    language, so a page shows it in the reader's language and no sentence is glued from translated fragments.

    Make one with :func:`T_` / :func:`Tn_` (extraction keywords, so the template reaches the catalogs). Values
    may be messages themselves (translated with the sentence) or whole numbers (written in the language's
    digits; ``{n:,}`` groups them). Operations that build a new string (``+``, slicing) give a plain ``str``:
    keep a message whole until it is shown.

    >>> m = Tn_("{count} duplicate entry was dropped", "{count} duplicate entries were dropped", 2, count=2)
    >>> str(m), m == "2 duplicate entries were dropped"
    ('2 duplicate entries were dropped', True)
    >>> m.translated(translator("bn", "native"))
    '২টি পুনরাবৃত্ত এন্ট্রি বাদ দেওয়া হয়েছে'
    """

    template: str
    plural: str | None
    n: int | None
    values: dict[str, object]

    def __new__(cls, template: str, plural: str | None = None, n: int | None = None,
                values: dict[str, object] | None = None) -> "Message":
        values = dict(values or {})
        english = _ValueFormatter(translator(DEFAULT_LANG)).vformat(
            template if plural is None or n == 1 else plural, (), values)
        self = super().__new__(cls, english)
        self.template, self.plural, self.n, self.values = template, plural, n, values
        return self

    def __reduce__(self):  # noqa: ANN204 - pickled by st.cache_data with its template, not just its text
        return Message, (self.template, self.plural, self.n, self.values)

    def translated(self, t: Translator | None = None) -> str:
        """The sentence in ``t``'s language (default: the current one, see :func:`use_lang` / :func:`activate`)."""
        t = t or current()
        text = t._t.gettext(self.template) if self.plural is None else t._t.ngettext(  # noqa: SLF001 - Translator is defined above
            self.template, self.plural, self.n or 0)
        return _ValueFormatter(t).vformat(text, (), self.values)


def T_(template: str, /, **values: object) -> Message:  # noqa: N802 - a gettext-style marker
    """A :class:`Message`: ``template`` with its named ``values``, English now, translatable where it is shown."""
    return Message(template, None, None, values)


def Tn_(singular: str, plural: str, n: int, /, **values: object) -> Message:  # noqa: N802
    """A :class:`Message` with plural forms: the form for ``n`` under each language's plural rule."""
    return Message(singular, plural, n, values)


def message_of(exc: BaseException) -> str:
    """The message an exception was raised with: its :class:`Message` when it has one (so re-raising it as another
    error keeps it translatable), else ``str(exc)``."""
    if len(exc.args) == 1 and isinstance(exc.args[0], Message):
        return exc.args[0]
    return str(exc)


def localize(value: object, t: Translator | None = None) -> str:
    """``value`` for a reader of ``t``'s language (default: the current one): a :class:`Message` (or an exception
    raised with one) translated, anything else as ``str``.

    >>> localize(ValueError(T_("{name} is empty", name="x.txt")), translator("hi"))
    'x.txt ख़ाली है'
    """
    if isinstance(value, BaseException):
        value = message_of(value)
    return value.translated(t) if isinstance(value, Message) else str(value)


#: Quotation marks around a quoted word in each language's sentences (CLDR): Persian uses guillemets, which
#: are mirrored in right-to-left text, so they open on the right; English “ ” are not mirrored and would
#: stand backwards around a word in a Persian sentence.
QUOTES: dict[str, tuple[str, str]] = {"fa": ("«", "»")}


def quote(text: str, lang: str | None = None) -> str:
    """``text`` in the quotation marks of ``lang`` (default: the current language).

    >>> quote("রাজ", "en"), quote("রাজ", "fa")
    ('“রাজ”', '«রাজ»')
    """
    start, end = QUOTES.get(normalize_lang(lang) if lang else current().lang, ("“", "”"))
    return start + text + end


def native_digits_to_western(text: str) -> str:
    """Bangla, Devanagari and Persian/Arabic digits in ``text`` as 0-9 (for comparing numbers)."""
    table = {}
    for zero in (0x09E6, 0x0966, 0x06F0, 0x0660):
        for d in range(10):
            table[zero + d] = str(d)
    table[0x066B] = "."  # Arabic decimal separator
    table[0x066C] = ","  # Arabic thousands separator
    return text.translate(table)


# ---------------------------------------------------------------------------
# Catalog maintenance
# ---------------------------------------------------------------------------


def extract(root: Path = REPO) -> Catalog:
    """Every message used in ``app.py``, ``pages/`` and ``core/`` (babel's Python extractor)."""
    catalog = Catalog(domain=DOMAIN, project="Tokenizer Lab", charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
            root, method_map=[(p, m) for p, m in SOURCES], keywords=KEYWORDS,
            comment_tags=("TRANSLATORS:",), strip_comment_tags=True):
        if filename.startswith(("tests", "bench")):
            continue
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a format string (``{{`` escapes excluded)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def plural_count(lang: str) -> int:
    """How many plural forms ``lang`` has in gettext (from babel's CLDR data)."""
    return Catalog(locale=Locale.parse(lang)).num_plurals


def problems(lang: str, template: Catalog | None = None) -> list[str]:
    """What is wrong with the catalog of ``lang``: missing, empty or fuzzy entries, placeholders
    that differ from the source's, plural form counts that differ from the language's."""
    template = template or extract()
    with po_path(lang).open("rb") as fh:
        cat = read_po(fh, locale=lang)
    out = []
    want_plurals = plural_count(lang)
    if cat.num_plurals != want_plurals:
        out.append(f"{lang}: Plural-Forms has {cat.num_plurals} forms, {lang} has {want_plurals}")
    for msg in template:
        if not msg.id:
            continue
        mid = msg.id
        got = cat.get(mid)
        key = mid if isinstance(mid, str) else mid[0]
        if got is None:
            out.append(f"{lang}: missing {key!r}")
            continue
        if got.fuzzy:
            out.append(f"{lang}: fuzzy {key!r}")
        strs = got.string if isinstance(got.string, (list, tuple)) else [got.string]
        ids = mid if isinstance(mid, (list, tuple)) else [mid]
        if isinstance(mid, (list, tuple)) and len(strs) != cat.num_plurals:
            out.append(f"{lang}: {key!r} has {len(strs)} plural forms, expected {cat.num_plurals}")
        if not all(s and s.strip() for s in strs):
            out.append(f"{lang}: untranslated {key!r}")
            continue
        want = set().union(*(placeholders(i) for i in ids))
        for s in strs:
            try:
                have = placeholders(s or "")  # (not empty: checked above)
            except ValueError as exc:
                out.append(f"{lang}: bad format string in {key!r}: {exc}")
                continue
            # a singular form may drop {count} ("one token"), but never add or rename a field
            if have - want or (not isinstance(mid, (list, tuple)) and have != want):
                out.append(f"{lang}: placeholders {sorted(have)} != {sorted(want)} in {key!r}")
    return out


def _write_template(cat: Catalog) -> Path:
    path = LOCALE_DIR / f"{DOMAIN}.pot"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as fh:
        write_po(fh, cat, width=120, omit_header=False, sort_output=False, include_lineno=False)
    return path


def update() -> None:
    """Merge the freshly extracted template into every language's catalog (new entries empty)."""
    template = extract()
    _write_template(template)
    for lang in LANGS:
        if lang == DEFAULT_LANG:
            continue
        path = po_path(lang)
        if path.exists():
            with path.open("rb") as fh:
                cat = read_po(fh, locale=lang)
            cat.update(template, no_fuzzy_matching=True)
            cat.obsolete.clear()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            cat = Catalog(locale=lang, domain=DOMAIN, project="Tokenizer Lab", charset="utf-8",
                          copyright_holder="Tokenizer Lab contributors")
            cat.update(template, no_fuzzy_matching=True)
        cat.fuzzy = False
        cat.last_translator = cat.language_team = f"Tokenizer Lab <{LANGS[lang]}>"
        with path.open("wb") as fh:
            write_po(fh, cat, width=120, include_lineno=False, ignore_obsolete=True)


def main(argv: list[str] | None = None) -> int:
    """``python -m core.i18n extract|update|check``."""
    args = sys.argv[1:] if argv is None else argv
    cmd = args[0] if args else "check"
    if cmd == "extract":
        print(_write_template(extract()))
    elif cmd == "update":
        update()
    elif cmd == "check":
        template = extract()
        bad = [p for lang in LANGS if lang != DEFAULT_LANG for p in problems(lang, template)]
        print("\n".join(bad) or "all catalogs complete")
        return 1 if bad else 0
    else:
        print(f"error: unknown command {cmd!r} (extract, update, check)", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
