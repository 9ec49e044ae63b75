"""Streamlit-side helpers every page uses (the engine lives in core/, not here).

- :func:`page_header` ``(title, why)``: CSS, title and the one-line explanation.
- :func:`sidebar_controls` (called once by ``app.py``): language, digits and the classroom toggle.
- :func:`_` / :func:`ngettext`: the session's translation functions (:mod:`core.i18n`);
  :func:`localize`: a message made in core (an error, a note) in the session's language;
  :func:`init_lang` (``app.py``, before the navigation) picks the language from the
  sidebar, ``?lang=`` or the browser; :func:`tr` is the session's translator.
- :func:`text_input` ``(key, default, ...)``: a text box + optional .txt upload,
  with the input limit (:data:`MAX_CHARS`) and clear errors for binary or
  non-UTF-8 files. Returns the text to analyse.
- :func:`qp_init` / :func:`qp_sync`: query-parameter state, so a link reopens
  the same view.
- :func:`bpe_trace`: BPE training, cached for the server's life.
- :func:`show_tokens` ``(html)``: put a :mod:`core.render` string on screen.
- :func:`sample` ``(name)``: bundled sample texts from ``assets/samples``.

The tokenizer selector is in ``pages/_selector.py``.

Pages import this module as ``from pages._shared import ...`` (the repo root
is on ``sys.path`` because ``app.py`` lives there).
"""
from __future__ import annotations

import html
import re
import string
import threading
from typing import Any, Callable

import streamlit as st

from core.assets import ASSETS
from core.i18n import (
    DEFAULT_LANG,
    LANGS,
    N_,
    NATIVE_DIGIT_LANGS,
    RTL_LANGS,
    RtlTemplate,
    Translator,
    activate,
    isolate,
    normalize_lang,
    translator,
)
from core.i18n import localize as _localize
from core.models.bpe import parse_word_table, train_bpe
from core.render import CSS as TOKEN_CSS
from core.markdown import Md, md_codes, md_escape, md_format  # noqa: F401 - re-exported to pages
from core.tokens import EncodingStats

#: Longest text the pages analyse (characters). Longer input is cut with a visible notice.
MAX_CHARS = 100_000
#: Largest upload accepted (bytes); Streamlit refuses bigger files itself.
MAX_UPLOAD_MB = 5
#: Texts up to this length are stored in the URL.
MAX_URL_TEXT = 300

# --------------------------------------------------------------------------
# Router handshake (see app.py): Streamlit runs pages/*.py directly as
# "legacy" pages on the very first script run of a server process when a
# pages/ folder exists. app.py marks its runs; a page run without the mark is
# sent back through the router.
# --------------------------------------------------------------------------
_router = threading.local()


def mark_router_run(active: bool) -> None:
    """Called by app.py around ``pg.run()``."""
    _router.active = active


def _ensure_router() -> None:
    if getattr(_router, "active", False):
        return
    # subtle: the legacy pages/ mode is chosen before app.py runs; st.navigation
    # turns it off for good, so one rerun lands every later run in the router.
    from streamlit.runtime.pages_manager import PagesManager

    PagesManager.uses_pages_directory = False
    st.rerun()


# --------------------------------------------------------------------------
# Samples and styling
# --------------------------------------------------------------------------


@st.cache_data(show_spinner=False, max_entries=32)
def sample(name: str) -> str:
    """A bundled sample text (``assets/samples/<name>.txt``), without the final newline."""
    return (ASSETS / "samples" / f"{name}.txt").read_text(encoding="utf-8").rstrip("\n")


#: Languages of the learning pages' own samples (stepper, WordPiece, Unigram, train):
#: Bangla is ``assets/algos/corpus_bn.txt``, the others ``assets/learn/<code>.txt``.
LEARN_LANGS = {"bn": N_("Bangla"), "hi": N_("Hindi"), "fa": N_("Persian"), "uz": N_("Uzbek")}
#: A word of each sample to encode / inspect first (it is not always in the vocabulary whole).
LEARN_WORDS = {"bn": "বাজারঘরের", "hi": "बाज़ारघर", "fa": "کتاب‌خانه", "uz": "bozorgʻhardan"}


@st.cache_data(show_spinner=False, max_entries=16)
def learn_lines(lang: str) -> list[str]:
    """The learning sample of ``lang`` (a :data:`LEARN_LANGS` code), one sentence per line."""
    path = ASSETS / "algos" / "corpus_bn.txt" if lang == "bn" else ASSETS / "learn" / f"{lang}.txt"
    return [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]


@st.cache_data(show_spinner=False)
def _app_css() -> str:
    return (ASSETS / "app.css").read_text(encoding="utf-8")


# --------------------------------------------------------------------------
# Interface language (core/i18n.py has the catalogs)
# --------------------------------------------------------------------------


def _browser_lang() -> str:
    """The browser's preferred language if it is one of ours (``st.context.locale``), else English."""
    try:
        return normalize_lang(st.context.locale)
    except Exception:  # noqa: BLE001 - no browser context (AppTest, older Streamlit)
        return DEFAULT_LANG


def init_lang() -> None:
    """Give the ``lang`` widget its value before anything is translated (``app.py`` calls this first):
    ``?lang=`` when valid (an invalid value means English, silently), else the browser's language."""
    raw = st.query_params.get("lang")
    default = _browser_lang() if raw is None else DEFAULT_LANG
    qp_init("lang", default, param="lang", cast=normalize_lang, choices=LANGS)
    if st.session_state.get("lang") not in LANGS:
        st.session_state["lang"] = DEFAULT_LANG
    activate(tr().lang, tr().digits)  # core text made during this run (tooltips, notes) follows the interface


def current_lang() -> str:
    """The session's interface language code."""
    lang = st.session_state.get("lang", DEFAULT_LANG)
    return lang if lang in LANGS else DEFAULT_LANG


def tr() -> Translator:
    """The session's :class:`core.i18n.Translator` (language and digit choice)."""
    lang = current_lang()
    digits = "native" if st.session_state.get("native_digits") and lang in NATIVE_DIGIT_LANGS else "western"
    return translator(lang, digits)


def _(message: str) -> str:
    """``message`` in the session's language."""
    return tr().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The plural form for ``n`` in the session's language."""
    return tr().ngettext(singular, plural, n)


def localize(value: object) -> str:
    """A sentence core made (a :class:`core.i18n.Message`, or an exception raised with one) in the session's
    language; anything else as ``str``. Every exception and core note a page shows goes through this
    (``tests/test_i18n.py`` checks the pages)."""
    return _localize(value, tr())


def num(n: float, decimals: int | None = None) -> str:
    """A number for reading on screen (locale grouping; native digits if chosen). Exports use plain numbers."""
    return tr().format_number(n, decimals=decimals)


def is_rtl() -> bool:
    """True when the interface language is written right to left."""
    return current_lang() in RTL_LANGS


#: With a right-to-left language the whole app is laid out right to left; code points, hex bytes, ids,
#: code and tokenizer names stay left to right in their own bidi islands; token lines keep the
#: direction core.render gives each of them.
RTL_CSS = """
.stApp, [data-testid="stSidebar"], [data-testid="stMain"], .stMainBlockContainer {direction: rtl}
.stMarkdown, .stCaption, h1, h2, h3, h4, h5, label, [data-testid="stAlert"], [data-testid="stExpander"] summary,
[data-testid="stSidebarNav"] span, .stMultiSelect, .stSelectbox, .tl-chart-title, .tl-chart-legend, .tl-legend,
.tl-reasons, .tl-verdict, table {text-align: right}
.tl-reasons ul {margin: .1rem 1rem .5rem 0 !important}
code, pre, .tl-hex, .tl-hexrun, .tl-ltr, [data-testid="stCode"], .tl-id {direction: ltr; unicode-bidi: isolate}
textarea, input {unicode-bidi: plaintext}
[data-testid="stSlider"] {direction: ltr}
"""


def ltr(text: object) -> str:
    """Escaped ``text`` in a left-to-right bidi island (ids, code points, Latin tokenizer names)."""
    return f'<bdi dir="ltr" class="tl-ltr">{esc(text)}</bdi>'


def classroom() -> bool:
    """True when the classroom (projector) display is on."""
    return bool(st.session_state.get("classroom", False))


def page_header(title: str, why: str) -> None:
    """Inject the styles, then the page title and its one-line explanation."""
    _ensure_router()
    css = TOKEN_CSS + _app_css()
    if classroom():
        css += CLASSROOM_CSS
    if is_rtl():
        css += RTL_CSS
    st.html(f"<style>{css}</style>")
    st.html(NAV_SCRIPT, unsafe_allow_javascript=True)
    st.title(md_format(title))
    if not classroom():  # on a projector the first screen is for the lesson, not the explanation
        st.caption(md_format(why))


#: In-app links (token chips ``a.tl-link``, example links ``a.tl-nav``): a click moves
#: the URL with ``history.pushState`` and lets Streamlit's own history handler
#: (``popstate``) run the target page in the same session, so pasted text,
#: uploaded tokenizers and classroom mode survive, the tab is the same one and
#: Back returns with one press. Ctrl/middle click still opens a new tab (the
#: link then carries ``classroom=1`` when classroom mode is on).
NAV_SCRIPT = """<script>
(() => {
  const w = window;
  if (w.__tlNav) return;
  w.__tlNav = true;
  const keepClassroom = (url) => {
    const here = new URLSearchParams(w.location.search);
    if (here.get("classroom") === "1") url.searchParams.set("classroom", "1");
    if (here.get("lang") && !url.searchParams.get("lang")) url.searchParams.set("lang", here.get("lang"));
    return url;
  };
  w.document.addEventListener("click", (ev) => {
    const a = ev.target.closest && ev.target.closest("a.tl-link, a.tl-nav");
    if (!a) return;
    const url = keepClassroom(new URL(a.getAttribute("href"), w.location.href));
    if (ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey || url.origin !== w.location.origin) {
      a.href = url.toString();
      return;
    }
    ev.preventDefault();
    w.history.pushState({}, "", url.toString());
    w.dispatchEvent(new PopStateEvent("popstate"));
  }, true);
})();
</script>"""

CLASSROOM_CSS = """
.stMainBlockContainer{padding-top:2.2rem !important;padding-bottom:2rem !important}
h1{font-size:2.2rem !important;padding-bottom:.2rem !important}
.tl-tokens{font-size:2.1rem !important;line-height:2.3}
.tl-words .tl-tokens,.tl-pairs .tl-tokens,.tl-enc-steps .tl-tokens,.tl-watch .tl-tokens{font-size:1.7rem !important;line-height:1.9}
.tl-legend{font-size:1.1rem}
.stMarkdown p, .stCaption, label p, [data-testid="stExpander"] summary p {font-size:1.25rem !important}
.stButton button p, .stButton button div{font-size:1.25rem !important;white-space:nowrap}
.stTextArea textarea, .stTextInput input, .stNumberInput input, [data-baseweb="select"] div{font-size:1.3rem !important}
.tl-watch{font-size:1.6rem !important}
.tl-words td,.tl-words th,.tl-pairs td,.tl-pairs th,.tl-algo-table td,.tl-algo-table th{font-size:1.3rem}
.tl-chart-title,.tl-chart-legend{font-size:1.2rem !important}
.tl-sep-g{width:1.1em !important}
.tl-sep-cp{width:1.4em !important}
"""


def classroom_requested() -> bool:
    """Classroom display wanted on this run (session state, else the URL), usable before the toggle exists
    (``app.py`` collapses the sidebar with it)."""
    if "classroom" in st.session_state:
        return bool(st.session_state["classroom"])
    return st.query_params.get("classroom") == "1"


def sidebar_controls() -> None:
    """Controls shown on every page (app.py calls this before running the page)."""
    if "classroom" not in st.session_state:
        st.session_state["classroom"] = st.query_params.get("classroom") == "1"
    st.sidebar.selectbox(_("Language"), list(LANGS), key="lang", format_func=LANGS.__getitem__,
                         help=_("The language of the interface. Tokenizer names, code points and ids stay as they are."))
    if current_lang() in NATIVE_DIGIT_LANGS:
        st.sidebar.toggle(_("Native digits"), key="native_digits",
                          help=_("Show numbers on screen in this language's digits. Exported tables keep 0-9."))
    st.sidebar.toggle(
        _("Classroom display"),
        key="classroom",
        help=_("Bigger token text and chips for a projector. On the BPE stepper, ← and → step back and forward."),
    )


# --------------------------------------------------------------------------
# Query parameters
# --------------------------------------------------------------------------


def qp_init(key: str, default: Any, *, param: str | None = None, cast: Callable[[str], Any] = str,
            choices: Any = None, lo: float | None = None, hi: float | None = None, step: int | None = None,
            max_len: int | None = None) -> None:
    """Give widget ``key`` its starting value: the URL's ``param`` if valid, else ``default``.

    Acts when the key has no value yet (first run of the page in this session),
    or once when the URL carries the parameter and is not the one this session
    last wrote (a chip or example link was followed, see :data:`NAV_SCRIPT`);
    otherwise the widget stays the source of truth.

    A URL value is never trusted (issue 16): one that does not cast or is not
    in ``choices`` is refused, a number outside ``lo``..``hi`` is clamped (and
    snapped to ``lo`` + a multiple of ``step``), text is cut to ``max_len``
    characters, and unknown items of a comma list are dropped; each time with
    a visible warning that names the parameter (see :func:`_url_value`).
    """
    raw = st.query_params.get(param or key)
    url = repr(sorted(st.query_params.to_dict().items()))
    used = st.session_state.setdefault("_qp_used", {})
    kept = st.session_state.setdefault("_qp_kept", {})
    st.session_state.setdefault("_qp_keys", set()).add(key)
    moved = _url_moved()
    if key in st.session_state and (raw is None or not moved or used.get(key) == url):
        return
    if key not in st.session_state and (raw is None or not moved):
        # a new widget while the URL is this session's own: the page's earlier value (kept when
        # another page ran) or the default; never a value the URL held for another widget
        st.session_state[key] = kept.get(key, default)
        return
    used[key] = url  # this URL has given its value once; later reruns keep the widget's
    value = default
    if raw is not None:
        value, note = _url_value(raw, default, cast, choices, lo, hi, step, max_len)
        if note:
            st.warning(md_format(_("Link parameter {param!c}: {note}"), param=f"{param or key}={raw[:60]}"
                                 + ("…" if len(raw) > 60 else ""), note=note), icon=":material/link_off:")
    st.session_state[key] = value


def _url_value(raw: str, default: Any, cast: Callable[[str], Any], choices: Any, lo: float | None,
               hi: float | None, step: int | None, max_len: int | None) -> tuple[Any, str]:
    """``(value, note)`` for one URL parameter: the value to use and, if the URL's was changed, why."""
    try:
        value = cast(raw)
    except (TypeError, ValueError, OverflowError):
        return default, md_format(_("not understood; using {default}."), default=default)
    if choices is not None and value not in choices:
        return default, md_format(_("not one of {choices}; using {default}."), choices=", ".join(map(str, choices)),
                                  default=default)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and (lo is not None or hi is not None):
        clamped = min(hi, value) if hi is not None else value
        clamped = max(lo, clamped) if lo is not None else clamped
        if step and lo is not None:
            clamped = min(hi if hi is not None else clamped, lo + round((clamped - lo) / step) * step)
        if clamped != value:
            return type(value)(clamped), md_format(_("outside {lo}..{hi}; using {value}."), lo=lo, hi=hi, value=clamped)
    if isinstance(value, str) and max_len is not None and len(value) > max_len:
        return value[:max_len], md_format(_("longer than {count} characters; using the first {count}."),
                                          count=num(max_len))
    if isinstance(value, list) and raw:  # an empty list is this app's own link to "nothing chosen"
        items = [item for item in raw.split(",") if item]
        if (not value or not items) and default:
            return default, md_format(_("no known item; using the default ({default})."),
                                      default=", ".join(map(str, default)))
        dropped = [item for item in items if item not in map(str, value)]
        if len(dropped) > 5:
            return value, md_format(ngettext("unknown {items} (and {count} more) left out.",
                                             "unknown {items} (and {count} more) left out.", len(dropped) - 5),
                                    items=", ".join(dropped[:5]), count=num(len(dropped) - 5))
        if dropped:
            return value, md_format(_("unknown {items} left out."), items=", ".join(dropped))
    return value, ""


def qp_hold(key: str) -> None:
    """The URL of this run gives widget ``key`` no value: the widget was just set by the user
    (a callback), and the URL may still be an older one this session wrote (the browser's
    address lags behind quick reruns)."""
    used = st.session_state.setdefault("_qp_used", {})
    used[key] = repr(sorted(st.query_params.to_dict().items()))


def _url_moved() -> bool:
    """True when the URL is not the one this session last wrote: the user followed a
    link (a token chip, an example) or edited the address, so the URL wins over the
    widgets' remembered values."""
    return st.query_params.to_dict() != st.session_state.get("_qp_synced")


def qp_sync(**values: Any) -> None:
    """Write the page's main settings to the URL (None removes a parameter)."""
    current = st.query_params.to_dict()
    wanted = {k: str(v) for k, v in values.items() if v is not None}
    if st.session_state.get("classroom"):
        wanted["classroom"] = "1"
    if current_lang() != DEFAULT_LANG:
        wanted["lang"] = current_lang()
    if current != wanted:
        st.query_params.from_dict(wanted)
    st.session_state["_qp_synced"] = wanted
    # Streamlit forgets a widget's value when another page runs; keep the URL-backed ones
    # (pasted text longer than the URL holds, chosen tokenizers) for the way back.
    kept = st.session_state.setdefault("_qp_kept", {})
    for key in st.session_state.get("_qp_keys", ()):
        if key in st.session_state:
            kept[key] = st.session_state[key]


def url_text(text: str) -> str | None:
    """The text for the URL, or None if it is too long to share that way."""
    return text if len(text) <= MAX_URL_TEXT else None


# --------------------------------------------------------------------------
# Text input: paste or upload, with limits
# --------------------------------------------------------------------------


def decode_upload(raw: bytes, name: str = "file") -> tuple[str | None, str | None]:
    """``(text, None)`` for a UTF-8 text file, else ``(None, reason)``."""
    if b"\x00" in raw[:65536]:
        return None, _("“{name}” looks like a binary file (it contains NUL bytes). Upload a UTF-8 .txt file.").format(
            name=name)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return None, _("“{name}” is not valid UTF-8 (byte {offset} is {byte}). Save it as UTF-8 and upload it again.").format(
            name=name, offset=num(exc.start), byte=f"0x{raw[exc.start]:02X}")
    return text, None


def limit_text(text: str, where: Any = st) -> str:
    """Cut ``text`` to :data:`MAX_CHARS` with a visible notice."""
    if len(text) > MAX_CHARS:
        where.warning(md_format(_(
            "Input limited: showing the first {limit} of {total} characters "
            "(the app analyses at most {limit} characters at once; use `python -m core` for more)."
        ), limit=num(MAX_CHARS), total=num(len(text))))
        return text[:MAX_CHARS]
    return text


def text_input(key: str, default: str, *, label: str | None = None, upload: bool = True, height: int = 140) -> str:
    """A text area (prefilled, URL-backed) plus an optional .txt upload; returns the text.

    An uploaded file, when valid, replaces the pasted text. Bad uploads show
    an error and the pasted text is used instead, so the page keeps working.

    The file's text is kept for the session (one file per box, at most the
    upload cap): Streamlit forgets an uploader when its page is left, so on
    coming back (sidebar, chip link, Back) the kept file is used again until
    the user removes it from the uploader, uploads another or presses "Forget".
    """
    qp_init(key, default, param="text")
    text = st.text_area(md_escape(label or _("Text")), key=key, height=height)
    if upload:
        up_key, kept_key, had_key = f"{key}_upload", f"{key}_upload_kept", f"{key}_upload_had"
        fresh = up_key not in st.session_state  # the uploader is new on this run: the page was left, or first visit
        had = st.session_state.get(had_key, False) and not fresh  # it held a file on the previous run
        up = st.file_uploader(
            _("…or upload a UTF-8 .txt file"), type=["txt", "text", "md", "csv", "tsv"], key=up_key,
            max_upload_size=MAX_UPLOAD_MB,
        )
        st.session_state[had_key] = up is not None
        if up is not None:
            decoded, err = decode_upload(up.getvalue(), up.name)
            if err:
                st.session_state.pop(kept_key, None)
                st.error(md_escape(err))
            else:
                st.session_state[kept_key] = (up.name, decoded or "")
                n = len(decoded or "")
                st.info(md_format(ngettext("Using the uploaded file “{name}” ({count} character).",
                                 "Using the uploaded file “{name}” ({count} characters).", n), name=up.name, count=num(n)))
                text = decoded or ""
        elif had:  # the user removed the file from the uploader
            st.session_state.pop(kept_key, None)
        elif kept_key in st.session_state:
            name, kept = st.session_state[kept_key]
            c1, c2 = st.columns([5, 1], vertical_alignment="center")
            c1.info(md_format(ngettext("Using the uploaded file “{name}” ({count} character), kept since you uploaded it.",
                             "Using the uploaded file “{name}” ({count} characters), kept since you uploaded it.",
                             len(kept)), name=name, count=num(len(kept))))
            if c2.button(_("Forget it"), key=f"{key}_upload_forget", help=_("Use the text box instead of this file.")):
                st.session_state.pop(kept_key, None)
                st.rerun()
            text = kept
    return limit_text(text)


# --------------------------------------------------------------------------
# BPE training (cached: a trace is computed once per server and never mutated)
# --------------------------------------------------------------------------


def bpe_trace(corpus: str, *, words: str | None = None, merges: int, unit: str, tie_break: str = "first-seen",
              pattern: str = "ws-attached") -> Any:
    """A :class:`core.models.bpe.BpeTrace` for a corpus (or a ``WORD:COUNT,...`` table in ``words``)."""
    with st.spinner(_("Training BPE…"), show_time=False):
        return _bpe_trace(corpus, words=words, merges=merges, unit=unit, tie_break=tie_break, pattern=pattern)


@st.cache_resource(show_spinner=False, max_entries=32)
def _bpe_trace(corpus: str, *, words: str | None, merges: int, unit: str, tie_break: str, pattern: str) -> Any:
    if words is not None:
        return train_bpe(parse_word_table(words), merges=merges, unit=unit, tie_break=tie_break, pattern=pattern)
    return train_bpe(corpus=corpus, merges=merges, unit=unit, tie_break=tie_break, pattern=pattern)


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------


def esc(text: object) -> str:
    """``text`` escaped for HTML (quotes too): every user string a page writes into HTML goes through this."""
    return html.escape(str(text), quote=True)


def show_tokens(html_text: str) -> None:
    """Put HTML from :mod:`core.render` on the page (styles come from :func:`page_header`)."""
    st.html(html_text)


def stats_line(s: EncodingStats) -> Md:
    """The counts shown under each rendered encoding, as one markdown line."""
    return md_format(ngettext(
        "**{count} token** · {per_word} tokens/word · {chars} chars/token · {bytes} bytes/token · "
        "cut% {cut} · bad% {bad}",
        "**{count} tokens** · {per_word} tokens/word · {chars} chars/token · {bytes} bytes/token · "
        "cut% {cut} · bad% {bad}", s.tokens,
    ), count=num(s.tokens), per_word=num(s.tokens_per_word, 2), chars=num(s.chars_per_token, 2),
             bytes=num(s.bytes_per_token, 2), cut=num(s.cut_pct, 1), bad=num(s.bad_pct, 1))
