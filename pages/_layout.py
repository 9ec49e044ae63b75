"""The page frame and what pages put on it: styles, title, token HTML, the counts line, HTML escaping.

- :func:`page_header` ``(title, why)``: styles (token view, app, classroom, right-to-left), title and the one-line
  explanation.
- :func:`show_tokens` ``(html)``: put a :mod:`core.render` string on screen; :func:`stats_line`: the counts under it.
- :func:`esc` / :func:`ltr`: user text into HTML (escaped; left-to-right islands for ids and code points).

Markdown escaping is :mod:`core.markdown`; the language is :mod:`pages._lang`.
"""
from __future__ import annotations

import html
from typing import Any

import pandas as pd
import streamlit as st

from core.assets import ASSETS
from core.i18n import N_
from core.markdown import Md, md_escape, md_format
from core.pretrained.catalog import ZooEntry
from core.render import CSS as TOKEN_CSS
from core.tokens import EncodingStats
from pages._controls import classroom
from pages._lang import is_rtl, localize, ngettext, num
from pages._router import NAV_SCRIPT, ensure_router


@st.cache_data(show_spinner=False)
def _app_css() -> str:
    return (ASSETS / "app.css").read_text(encoding="utf-8")


#: With a right-to-left language the whole app is laid out right to left; code points, hex bytes, ids,
#: code and tokenizer names stay left to right in their own bidi islands; token lines keep the
#: direction core.render gives each of them.
RTL_CSS = (ASSETS / "rtl.css").read_text(encoding="utf-8")

#: Classroom (projector) display: bigger token text, chips and labels.
CLASSROOM_CSS = (ASSETS / "classroom.css").read_text(encoding="utf-8")


#: What the two cut columns of a summary table mean (Home and Compare show it under their tables).
METRICS_NOTE = N_("cut%: share of the cuts between tokens that fall inside a letter (grapheme cluster). bad%: share of "
                  "tokens that are not valid UTF-8 on their own (only a piece of a character).")


def page_header(title: str, why: str) -> None:
    """Inject the styles, then the page title and its one-line explanation."""
    ensure_router()
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


def ltr(text: object) -> str:
    """Escaped ``text`` in a left-to-right bidi island (ids, code points, Latin tokenizer names)."""
    return f'<bdi dir="ltr" class="tl-ltr">{esc(text)}</bdi>'


def esc(text: object) -> str:
    """``text`` escaped for HTML (quotes too): every user string a page writes into HTML goes through this."""
    return html.escape(str(text), quote=True)


def _decimals(values: pd.Series) -> int:
    """The decimals a float column needs to show every value as rounded (at most 3): one figure per column."""
    need = 0
    for v in values.dropna():
        text = f"{float(v):.3f}".rstrip("0")
        need = max(need, len(text) - text.index(".") - 1)
    return need


def for_reader(df: pd.DataFrame) -> pd.io.formats.style.Styler:
    """``df`` for ``st.dataframe``: every number written for the reader (the language's grouping and decimal
    signs, native digits if chosen, one number of decimals per column) and an empty cell (a baseline has no
    training time, a refused mode no token count) as "–", not Streamlit's raw "None".

    The cells stay numbers underneath (only the shown text is formatted), so a click on a column header
    still sorts by value, not by the written digits; except in a column with an empty cell: the grid draws
    every empty cell as "None" whatever the style says, so such a column is written out as text."""
    df = df.copy()
    fmt = {}
    for col in df.columns:
        kind = df[col].dtype
        if pd.api.types.is_bool_dtype(kind) or not pd.api.types.is_numeric_dtype(kind):
            continue
        decimals = _decimals(df[col]) if pd.api.types.is_float_dtype(kind) else None
        if df[col].isna().any():
            df[col] = ["–" if pd.isna(v) else num(v, decimals=decimals) for v in df[col]]
        else:
            fmt[col] = lambda v, d=decimals: num(v, decimals=d)
    return df.style.format(fmt, na_rep="–")


#: Columns of one classroom table beside its key columns: a wider table is shown as several, each repeating the
#: keys, so that at 18 px on a 1280 px projector no column is cut off on the right.
CLASSROOM_COLUMNS = 6


def show_table_in(container: Any, data: Any, *, column_config: dict[str, Any] | None = None, hide_index: bool | None = None,
                  key_columns: int = 1, **kwargs: Any) -> None:
    """``container.dataframe(data, ...)``; in classroom mode an HTML table instead (``st.table``), whose text the
    projector styles can make large: the interactive grid draws on a canvas in the theme's small size. A classroom
    table wider than :data:`CLASSROOM_COLUMNS` columns beside its first ``key_columns`` is drawn as several tables
    one under the other, each with the key columns again.

    ``column_config`` maps a column to its shown name, a column config with a ``label``, or None (hidden)."""
    if not classroom():
        container.dataframe(data, column_config=column_config, hide_index=hide_index, **kwargs)
        return
    from pandas.io.formats.style import Styler

    df = data.data if isinstance(data, Styler) else data
    df = pd.DataFrame(df).copy()
    for col in df.columns:  # numbers as the reader reads them (what for_reader shows), an empty cell as "–"
        kind = df[col].dtype
        if pd.api.types.is_bool_dtype(kind):
            df[col] = ["✓" if v else "" for v in df[col]]
        elif pd.api.types.is_numeric_dtype(kind):
            decimals = _decimals(df[col]) if pd.api.types.is_float_dtype(kind) else None
            df[col] = ["–" if pd.isna(v) else num(v, decimals=decimals) for v in df[col]]
    names: dict[str, str] = {}
    for col, cfg in (column_config or {}).items():
        if cfg is None:
            df = df.drop(columns=[col], errors="ignore")
        elif isinstance(cfg, str):
            names[col] = cfg
        elif isinstance(cfg, dict) and cfg.get("label"):
            names[col] = str(cfg["label"])
    long = len(df) > 15  # a long table scrolls inside its box, as the grid does
    df = df.rename(columns=names)
    keys, rest = list(df.columns[:key_columns]), list(df.columns[key_columns:])
    for k in range(0, max(len(rest), 1), CLASSROOM_COLUMNS):
        container.table(df[keys + rest[k : k + CLASSROOM_COLUMNS]], hide_index=bool(hide_index),
                        height=560 if long else "content")


def show_table(data: Any, **kwargs: Any) -> None:
    """:func:`show_table_in` the page itself."""
    show_table_in(st, data, **kwargs)


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


def show_entry_audit(entry: ZooEntry) -> None:
    """Under a tokenizer's heading: what its vendor's encode does before the model (and how we know), and, where
    a known runtime cuts the entry's file otherwise than the model's own tokenizer, that runtime with an example."""
    if entry.audit is not None:
        st.caption(md_escape(localize(entry.audit.line())))
    if entry.runtime is not None:
        st.warning(md_escape(localize(entry.runtime.line()) + " " + localize(entry.runtime.how())),
                   icon=":material/memory:")
