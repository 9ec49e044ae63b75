"""The one tokenizer selector every page offers: baselines, BPE trained on the sample, the pretrained zoo.

The sources are listed directly below (:func:`tokenizer_options`): the
baselines and the pretrained entries are the zoo's (one definition each, in
:mod:`core.models.baselines` behind the zoo's ``baseline`` loader), the
sample BPEs are trained here. :func:`get_tokenizer` is the one way a page
gets a tokenizer (a session's, the zoo's registry, or a trained option kept
for the server's life) and :func:`encode_cached` is the one cached result layer.

The pretrained pages (compare, tax, inspector, replay, report) pick from the
whole shelf with :func:`pick_tokenizers`: grouped by vendor, with a search
box; an entry whose file is not installed is listed as such and
:func:`ready` turns it into a notice with the command that fixes it, never
an error. Tokenizers the user uploads or trains in this session join the
same list (:func:`add_session_tokenizer`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable

import streamlit as st

from core.i18n import N_
from core.markdown import Md, md_escape, md_format
from core.pretrained import zoo
from core.pretrained.adapter import PretrainedTokenizer
from core.pretrained.catalog import vendor_of
from core.pretrained.shelf import install_hint
from core.render import render_table
from core.text import limits
from core.tokens import EncodingStats, Tokenizer, table_stats, token_table
from pages._bpe import bpe_trace
from pages._lang import _, current_lang, num, tr
from pages._links import chip_links
from pages._samples import sample

#: Merges trained on the sample (it runs out of pairs before this on the bundled text).
MAX_SAMPLE_MERGES = 2000

#: The Compare page's first selection (also what a tokenizer sent there from another page joins).
COMPARE_DEFAULT = ["cl100k_base", "o200k_base", "llama3", "tekken", "mistral-spm-v1", "codepoints"]


@dataclass(frozen=True)
class TokenizerOption:
    """One entry in the tokenizer selector.

    ``load(size)`` returns a :class:`core.tokens.Tokenizer`; ``size`` is the
    number of merges / vocabulary size for families that are trained here
    (``sized=True``) and None otherwise. Pages go through :func:`get_tokenizer`:
    a zoo entry is kept by the zoo's registry, a trained option once per
    (id, size) per server with ``st.cache_resource``.
    """

    id: str
    label: str
    group: str
    load: Callable[[int | None], Tokenizer]
    sized: bool = False
    help: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def sample_corpus() -> str:
    """The bundled training text of the sample BPE: the Bangla shop text and its English translation."""
    return sample("shop_bn") + "\n" + sample("shop_en")


def _sample_bpe(unit: str) -> Callable[[int | None], Tokenizer]:
    # The trace is trained once up to MAX_SAMPLE_MERGES; a smaller size is the
    # same trace cut at that many merges, so moving the size slider never retrains.
    return lambda size: bpe_trace(sample_corpus(), merges=MAX_SAMPLE_MERGES, unit=unit).tokenizer(size)


def _pretrained(tokenizer_id: str) -> Callable[[int | None], Tokenizer]:
    return lambda _size: zoo.load(tokenizer_id)


@lru_cache(maxsize=1)
def _options() -> dict[str, TokenizerOption]:
    baselines = [
        # labels, groups and help are marked here and translated where they are shown (option_label)
        TokenizerOption("codepoints", N_("Code points"), N_("Baselines"), _pretrained("codepoints"),
                        help=N_("One token per Unicode code point: tiny vocabulary, long sequences.")),
        TokenizerOption("bytes", N_("UTF-8 bytes"), N_("Baselines"), _pretrained("bytes"),
                        help=N_("One token per byte: nothing is unknown; a Bangla letter is 3 tokens.")),
        TokenizerOption("words", N_("Whitespace words"), N_("Baselines"), _pretrained("words"),
                        help=N_("One token per word: short sequences, but every new word is unknown.")),
    ]
    trained_here = [
        TokenizerOption("bpe-sample-cp", N_("BPE, code points (trained on the shop sample)"), N_("Trained here"),
                        _sample_bpe("codepoint"), sized=True,
                        help=N_("Code-point BPE trained on the bundled Bangla + English shop text.")),
        TokenizerOption("bpe-sample-byte", N_("BPE, bytes (trained on the shop sample)"), N_("Trained here"),
                        _sample_bpe("byte"), sized=True,
                        help=N_("Byte-level BPE trained on the same text: early merges rebuild Bangla letters.")),
    ]
    # (no help text: the pages show a pretrained entry's algorithm, licence and source next to its tokens)
    pretrained = [TokenizerOption(e.id, e.name, vendor_of(e), _pretrained(e.id))
                  for e in zoo.ENTRIES.values() if not e.built_in]
    return {o.id: o for o in baselines + trained_here + pretrained}


def tokenizer_options() -> dict[str, TokenizerOption]:
    """Every option of the selector, by id, in display order."""
    return dict(_options())


def option_label(opt: TokenizerOption) -> str:
    """``Group · Label`` in the interface language (pretrained names are not translated)."""
    return f"{_(opt.group)} · {_(opt.label)}"


#: (option id, size) pairs of trained options this process has built once (kept by :func:`_trained_option`);
#: a zoo entry is asked of the zoo's registry instead.
_loaded: set[tuple[str, int | None]] = set()


def is_loaded(option_id: str, size: int | None = None) -> bool:
    """Whether the tokenizer is already in memory (using it now costs no load)."""
    if option_id in zoo.ENTRIES:
        return zoo.is_loaded(option_id)
    return (option_id, size) in _loaded


def get_tokenizer(tid: str, size: int | None = None, *, quiet: bool = False) -> Tokenizer:
    """The one way a page gets a tokenizer: the session's for ``tid`` (an upload, a Hub id, one trained on the
    Train page), else the zoo's (its registry keeps it: no second copy here), else a selector option trained
    here (``size`` merges or vocabulary, kept once per server).

    ``quiet``: no spinner, for a caller that already says what is loading (:class:`LoadProgress`).
    """
    tok = session_tokenizers().get(tid)
    if tok is not None:
        return tok
    if tid in zoo.ENTRIES or tid not in _options():  # an unknown id: the zoo's one-line ZooError
        if quiet or zoo.is_loaded(tid):
            return zoo.load(tid)
        with st.spinner(_("Loading {tokenizer} (first use only)…").format(tokenizer=tid)):
            return zoo.load(tid)
    if quiet:
        trained = _trained_option(tid, size)
    else:
        with st.spinner(_("Loading tokenizer…")):
            trained = _trained_option(tid, size)
    _loaded.add((tid, size))
    return trained


@st.cache_resource(show_spinner=False, max_entries=64)
def _trained_option(option_id: str, size: int | None = None) -> Tokenizer:
    return _options()[option_id].load(size)


def encode_cached(option_id: str, size: int | None, text: str, max_tokens: int) -> tuple[EncodingStats, str, str]:
    """``(stats, chips html, tokenizer name)`` for ``text``: the one cached result layer.

    Counts come from the columnar table (no record per token); :class:`~core.tokens.Token`
    records are built only for the ``max_tokens`` chips that are drawn. The interface
    language is part of the cache key (the chips' tooltips are written in it).
    """
    return _encode_cached(option_id, size, text, max_tokens, current_lang(), tr().digits)


@st.cache_data(show_spinner=False, max_entries=256)
def _encode_cached(option_id: str, size: int | None, text: str, max_tokens: int, lang: str,
                   digits: str) -> tuple[EncodingStats, str, str]:
    tok = get_tokenizer(option_id, size)
    table = token_table(tok, text)
    link = chip_links(text, [option_id] if option_id in zoo.ENTRIES else [])  # a chip opens the word inspector
    return table_stats(text, table), render_table(text, table, max_tokens=max_tokens, link=link, lang=lang,
                                                             digits=digits), tok.name


def byte_spans_cached(option_id: str, size: int | None, text: str) -> list[tuple[int, int]]:
    """Each token's UTF-8 byte span in ``text`` (for the differences view), from the same columns as
    :func:`encode_cached`."""
    return _byte_spans_cached(option_id, size, text)


@st.cache_data(show_spinner=False, max_entries=64)
def _byte_spans_cached(option_id: str, size: int | None, text: str) -> list[tuple[int, int]]:
    return token_table(get_tokenizer(option_id, size), text).byte_spans


# ---------------------------------------------------------------------------
# The shelf picker (pretrained pages)
# ---------------------------------------------------------------------------

#: Session state key of the tokenizers uploaded or trained in this session (id -> tokenizer).
SESSION_KEY = "session_tokenizers"
SESSION_GROUP = N_("This session (uploaded or trained)")


def session_tokenizers() -> dict[str, PretrainedTokenizer]:
    """Tokenizers the user added in this browser session, by id (uploads, Hub ids, trained on the Train page)."""
    return st.session_state.setdefault(SESSION_KEY, {})


def add_session_tokenizer(tok: PretrainedTokenizer, file_bytes: int = 0) -> None:
    """Make ``tok`` selectable on every pretrained page for the rest of the session.

    Counted against the session's budget (:func:`admit_session_tokenizer`);
    raises :class:`core.text.limits.LimitError` with the message to show
    when the session is full. ``file_bytes`` is the size of the file it came from.
    """
    cost = limits.estimate_tokenizer_bytes(file_bytes, tok.vocab_size)
    admit_session_tokenizer(cost, what=f"“{tok.name}”", replacing=tok.id)
    session_tokenizers()[tok.id] = tok
    _session_costs()[tok.id] = cost


# -- Session tokenizer budget (uploads and trained tokenizers per session are capped: memory is shared) ------
#: Session state key of the estimated memory of each session tokenizer (id -> bytes).
SESSION_COST_KEY = "session_tokenizer_bytes"


def _session_costs() -> dict[str, int]:
    costs: dict[str, int] = st.session_state.setdefault(SESSION_COST_KEY, {})
    for tid in list(costs):  # a tokenizer removed from the session frees its share
        if tid not in session_tokenizers():
            del costs[tid]
    return costs


def admit_session_tokenizer(cost: int, *, what: str = "this tokenizer", replacing: str | None = None) -> None:
    """The one budget check for session tokenizers: :class:`LimitError` if ``cost`` more bytes do not fit.

    Pages call it with :func:`core.text.limits.estimate_tokenizer_bytes` of
    the file's size *before* parsing an upload (so nothing is allocated for
    a file that cannot be kept), and :func:`add_session_tokenizer` calls it
    again with the loaded tokenizer's size. ``replacing`` is an id whose
    share is given back (the same file loaded again).
    """
    held = [c for tid, c in _session_costs().items() if tid != replacing]
    held += [0] * sum(1 for tid in session_tokenizers() if tid not in _session_costs() and tid != replacing)
    limits.check_session_budget(held, cost, what=what)


def forget_session_tokenizers() -> None:
    """Drop every uploaded or trained tokenizer of this session (frees its budget)."""
    session_tokenizers().clear()
    st.session_state[SESSION_COST_KEY] = {}


def _group(tid: str) -> str:
    if tid in session_tokenizers():
        return SESSION_GROUP
    return vendor_of(zoo.ENTRIES[tid])


def label(tid: str) -> str:
    """``Vendor · Name``, with ``(not installed)`` for a shelf entry whose file is missing."""
    tok = session_tokenizers().get(tid)
    if tok is not None:
        return f"{_(SESSION_GROUP)} · {tok.name}"
    e = zoo.ENTRIES[tid]
    return f"{_(vendor_of(e))} · {_(e.name)}" + ("" if zoo.is_available(e) else " " + _("(not installed)"))


def shelf_ids(*, only: Callable[[str], bool] | None = None) -> list[str]:
    """Zoo ids then session ids, grouped by vendor (groups in first-seen order, catalog order inside)."""
    ids = [*zoo.ENTRIES, *session_tokenizers()]
    if only is not None:
        ids = [i for i in ids if only(i)]
    order: dict[str, int] = {}
    for i in ids:
        order.setdefault(_group(i), len(order))
    return sorted(ids, key=lambda i: order[_group(i)])


def known(tid: str) -> bool:
    """A zoo id or a tokenizer of this session (for URL parameters)."""
    return tid in zoo.ENTRIES or tid in session_tokenizers()


def pick_tokenizers(label_text: str, key: str, *, only: Callable[[str], bool] | None = None,
                    container: Any = None, most: int | None = None) -> list[str]:
    """A search box and a multiselect over the whole shelf; returns the chosen ids.

    The search matches vendor, name, id and algorithm; chosen entries stay
    listed whatever the search, so searching never drops a selection. ``most`` caps how many can be chosen.
    """
    box = container if container is not None else st
    ids = shelf_ids(only=only)
    query = box.text_input(_("Search tokenizers"), key=f"{key}_search",
                           placeholder=_("vendor, name or algorithm: gemma, qwen, bert, unigram…"))
    chosen = [i for i in st.session_state.get(key, []) if i in ids]
    if query.strip():
        q = query.strip().lower()

        def hit(i: str) -> bool:
            e = zoo.ENTRIES.get(i)
            words = f"{label(i)} {i} {e.algorithm if e else ''}".lower()
            return all(w in words for w in q.split())

        ids = [i for i in ids if hit(i) or i in chosen]
    st.session_state[key] = chosen
    return box.multiselect(md_escape(label_text), ids, key=key, format_func=label, placeholder=_("Choose…"),
                           max_selections=most)


def pick_one(label_text: str, key: str, *, only: Callable[[str], bool] | None = None,
             extra: dict[str, str] | None = None, container: Any = None) -> str:
    """One tokenizer from the shelf (plus ``extra`` id -> label options first), with the same search box."""
    box = container if container is not None else st
    extra = extra or {}
    ids = list(extra) + shelf_ids(only=only)
    query = box.text_input(_("Search tokenizers"), key=f"{key}_search", placeholder=_("gemma, qwen, whisper…"))
    current = st.session_state.get(key)
    if query.strip():
        q = query.strip().lower()
        ids = [i for i in ids if all(w in f"{extra.get(i) or label(i)} {i}".lower() for w in q.split()) or i == current]
    if not ids:
        ids = [current] if current else list(extra)[:1]
    # labels made now, in this run: a session tokenizer's label reads the session, which a format function called
    # later (AppTest formats the value again outside the run) cannot
    names = {i: extra.get(i) or label(i) for i in ids}
    return box.selectbox(md_escape(label_text), ids, key=key, format_func=lambda i: names.get(i, str(i)))


class LoadProgress:
    """One slot, drawn where it is made, that says which tokenizer is loading and how far the page is
    ("Loading Gemma 4 (3 of 8)…" over a bar): a first use can take a second or more per tokenizer, and a
    page of several must not sit silent behind grey placeholders. Nothing is shown for a tokenizer already
    in memory; :meth:`done` clears the slot."""

    def __init__(self, total: int) -> None:
        self.total = max(total, 1)
        self.slot = st.empty()

    def step(self, index: int, name: str, *, loaded: bool) -> None:
        """Before the ``index``-th (0-based) tokenizer is used: announce it unless it is ``loaded``."""
        if loaded:
            return
        self.slot.progress(index / self.total, text=md_format(_("Loading {tokenizer} ({index} of {total})…"),
                                                              tokenizer=name, index=num(index + 1), total=num(self.total)))

    def done(self) -> None:
        self.slot.empty()


def ready(ids: list[str]) -> list[str]:
    """The ids whose files are present; for each missing one a notice with the command that installs it."""
    out = []
    for tid in ids:
        e = zoo.ENTRIES.get(tid)
        if e is not None and not zoo.is_available(e):
            st.info(md_format(_("**{tokenizer}** is not installed on this machine. Run `{command}` (or `python -m core zoo "
                      "install` for the whole shelf; needs the network once), then reload."), tokenizer=e.name, command=Md(install_hint(e))))  # our own command, shown in its code span
        else:
            out.append(tid)
    return out
