"""The multilingual tax page's measure columns (with their definitions) and its decomposition section."""
from __future__ import annotations

import hashlib
from typing import Callable, Iterable, Sequence

import pandas as pd
import streamlit as st

from core import languages
from core.analysis import format_tax, tax_steps
from core.analysis.tax_steps import HEADERS, HELP
from core.i18n import N_
from core.markdown import md_escape, md_format
from core.text.errors import UserError
from pages._charts import bar_chart
from pages._lang import _, lang_args, localize, num
from pages._layout import show_table

#: The field's measures (core.analysis.measures), as ``compare --json`` names them, in table order.
MEASURES = ("single_token_words", "continued_words", "single_token_words_space", "continued_words_space",
            "pretokenizer_pieces", "optimal_tokens", "renyi_efficiency")

def tax_columns(columns: Iterable[str]) -> dict[str, object]:
    """Translated headers, with the definition as the tooltip where the column has one."""
    return {c: _column(c) for c in columns}


def _column(c: str) -> object:
    if c in HELP:
        return st.column_config.Column(_(HEADERS.get(c, c)), help=md_escape(_(HELP[c])))
    return st.column_config.Column(_(HEADERS.get(c, c)))


def decomposition(results: Sequence[tuple[str, dict[str, tax_steps.Decomposition]]], langs: Sequence[str]) -> None:
    """The premium taken apart for one language: a waterfall per tokenizer, the verdicts, the table."""
    if not langs or not results:
        return
    st.markdown(_("#### Why it costs what it costs"))
    st.caption(_("Each step in multiples of English's tokens: the pieces the pre-tokenizer makes (each costs at least one token), the fewest tokens the vocabulary can spell them with, and the tokens the merges really give."))
    if st.session_state.get("tax_focus") not in langs:  # its URL parameter is read at the top (pages/tax.py)
        st.session_state["tax_focus"] = "bn" if "bn" in langs else langs[0]
    focus = st.selectbox(_("Language to take apart"), list(langs), key="tax_focus", format_func=_lang_name)
    rows = [(tid, steps[focus]) for tid, steps in results if focus in steps]
    names = [tid for tid, _d in rows]
    series, base = [], []
    for key, label in tax_steps.STEPS:
        series.append((_(label), [d.steps()[key][1] for _t, d in rows]))
        base.append([d.steps()[key][0] for _t, d in rows])
    st.html(bar_chart(names, series, base=base, ref=1.0, ref_label=_("English = 1"), y_title=_("× English's tokens"),
                      title=_("{language}: from English's tokens to the premium, step by step").format(language=_lang_name(focus))))
    for _tid, d in rows:
        st.markdown(md_format("- {verdict}", verdict=tax_steps.verdict(d, **lang_args())))
    d0 = rows[0][1]
    st.caption(md_format(_("UTF-8 bytes per character: {language} {value}, English {english}."),
                         language=_lang_name(focus), value=num(d0.bytes_per_char, 2), english=num(d0.en_bytes_per_char, 2)))
    notes = [(tid, d.normalized_lines) for tid, d in rows if d.normalized_lines]
    for tid, n in notes:
        st.caption(md_format(_("{tokenizer}'s normalizer changes {count} of {total} lines before the model sees them."),
                             tokenizer=tid, count=num(n), total=num(rows[0][1].lines)))
    df = pd.DataFrame([d.to_json() for _t, d in rows])
    show_table(df, hide_index=True, width="stretch", column_config=tax_columns(df.columns), key_columns=2)
    st.download_button(_("Download CSV"), df.to_csv(index=False), "tax-decomposition.csv", "text/csv", key="tax_steps_csv",
                       on_click="ignore")


def _lang_name(code: str) -> str:
    row = languages.LANGUAGES.get(code)
    return _(row.name) if row is not None else code


@st.cache_data(show_spinner=False, max_entries=32)
def _format_tax(tid: str, digest: str, key: str, _tok: object, _sets: dict) -> format_tax.FormatTax:
    # key: the record sets' name (the sample, or an upload's hash); digest: a session tokenizer's file hash
    return format_tax.measure(_tok, _sets)  # type: ignore[arg-type]


def format_section(chosen: Sequence[str], get: Callable[[str], object], digest: Callable[[str], str]) -> None:
    """The format tax: the same records as escaped JSON, UTF-8 JSON, CSV and YAML, tokens of each."""
    st.markdown(_("#### The format tax"))
    st.caption(_("The same records written four ways: json.dumps with its default \\uXXXX escapes, JSON in UTF-8 (ensure_ascii=False), CSV and YAML. The escape premium is escaped JSON's tokens over UTF-8 JSON's."))
    src = st.radio(_("Records"), ["sample", "upload"], key="tax_fmt_src", horizontal=True,
                   format_func=lambda k: _("Bundled sentences as records, per language") if k == "sample" else _("Upload a JSON list of objects"))
    sets: dict | None = None
    key = "sample"
    if src == "upload":
        up = st.file_uploader(_("Records (JSON)"), type=["json"], key="tax_fmt_upload", max_upload_size=2)
        if up is not None:
            try:
                sets = {"upload": format_tax.parse_records(up.getvalue(), up.name)}
                key = f"upload:{hashlib.sha256(up.getvalue()).hexdigest()}"
            except UserError as exc:
                st.error(md_escape(localize(exc)))
    else:
        sets = format_tax.bundled_records()
    if not sets or not chosen:
        return
    rows = []
    for tid in chosen:
        try:
            res = _format_tax(tid, digest(tid), key, get(tid), sets)
        except ValueError as exc:
            st.error(md_format(_("{tokenizer}: {error}"), tokenizer=tid, error=localize(exc)))
            continue
        for k in sets:
            rows.append({"tokenizer": tid, "records": k, **{f: res.tokens[f][k] for f in format_tax.FORMATS},
                         "escape premium": round(res.premium(k), 2)})
    if not rows:
        return
    df = pd.DataFrame(rows)
    show_table(df, hide_index=True, width="stretch", column_config={c: _(FORMAT_HEADERS.get(c, c)) for c in df.columns},
               key_columns=2)
    st.download_button(_("Download CSV"), df.to_csv(index=False), "format-tax.csv", "text/csv", key="tax_fmt_csv",
                       on_click="ignore")
    worst = max(rows, key=lambda r: r["escape premium"])
    st.info(md_format(_("Send text to a model as JSON in UTF-8 (json.dumps(..., ensure_ascii=False)), or as CSV: the default escapes cost up to {premium}× the tokens here ({tokenizer}, {records})."),
        premium=num(worst["escape premium"], 2), tokenizer=worst["tokenizer"], records=_lang_name(worst["records"])))


#: Headers of the format table (the CSV keeps the keys).
FORMAT_HEADERS = {"json_escaped": N_("JSON, escaped (default)"), "json_utf8": N_("JSON, UTF-8"), "csv": N_("CSV"),
                  "yaml": N_("YAML"), "records": N_("records"), "escape premium": N_("escape premium"),
                  "tokenizer": N_("tokenizer")}
