"""The multilingual tax: the same meaning, how many tokens per language."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from core import languages
from core.analysis import measures, tax, tax_steps
from core.i18n import N_
from core.markdown import md_escape, md_format
from core.pretrained import zoo
from core.pretrained.adapter import PretrainedTokenizer
from pages._charts import bar_chart
from pages._lang import _, localize, ngettext, num
from pages._layout import page_header, show_table
from pages._selector import (
    get_tokenizer,
    known,
    pick_tokenizers,
    ready,
    session_tokenizers,
)
from pages._tax_parts import MEASURES, decomposition, format_section, tax_columns
from pages._text_input import decode_upload
from pages._url import qp_init, qp_sync

#: The spread on Bangla: 9 (Gemma 4) to 61 (cl100k_base) tokens for the same sentence.
DEFAULT = ["gemma4", "o200k_base", "deepseek-v3", "qwen", "cl100k_base"]
DATASETS = {
    "sentences": N_("Bundled sentences (36 rows, written for this project)"),
    "countries": N_("CLDR country names (babel): names, not sentences"),
    "languages": N_("CLDR language names (babel): names, not sentences"),
    "upload": N_("Upload a TSV (header row: language codes, incl. en)"),
}

#: Table columns (English in the CSV; shown translated).
COLUMNS = (N_("tokenizer"), N_("language"), N_("tokens"), N_("words"), N_("chars"), N_("bytes"), N_("tokens/word"),
           N_("premium vs en"), N_("vocabulary"), N_("embedding parameters"))

page_header(
    _("Multilingual tax"),
    _("The same meaning costs more tokens in some languages. Each row of parallel text is encoded per language; the "
      "premium is a language's tokens divided by English's on the same rows."),
)

qp_init("tax_data", "sentences", param="data", choices=list(DATASETS))
qp_init("tax_tok", DEFAULT, param="tok", cast=lambda s: [i for i in s.split(",") if known(i)])
c1, c2 = st.columns([1, 2])
data_key = c1.radio(_("Parallel text"), list(DATASETS), key="tax_data", format_func=lambda k: _(DATASETS[k]))
# the whole shelf, plus the tokenizers uploaded or trained in this session (pages/_selector.py)
chosen: list[str] = pick_tokenizers(_("Tokenizers (grouped by vendor)"), "tax_tok", container=c2)
# the decomposition's language (pages/_tax_parts.py draws its selector further down)
qp_init("tax_focus", "bn", param="focus", choices=list(languages.LANGUAGES))
qp_init("tax_fmt_src", "sample", param="records", choices=["sample", "upload"])  # the format tax's records
qp_sync(data=data_key, tok=",".join(chosen), focus=st.session_state.get("tax_focus"), records=st.session_state.get("tax_fmt_src"))


@st.cache_data(show_spinner=False, max_entries=8)
def _dataset(key: str, codes: tuple[str, ...]) -> tax.ParallelText:
    # codes: English and the learning languages (core.languages), the CLDR columns
    if key == "countries":
        return tax.cldr_names(codes, what="territories")
    if key == "languages":
        return tax.cldr_names(codes, what="languages")
    return tax.load_bundled()


parallel: tax.ParallelText | None = None
if data_key == "upload":
    up = c1.file_uploader(_("Parallel TSV"), type=["tsv", "txt"], key="tax_upload", max_upload_size=5)
    if up is None:
        st.info(_("Upload a tab-separated file whose first row names the languages, e.g. `en  bn  hi`."))
    else:
        text, err = decode_upload(up.getvalue(), up.name)
        try:
            if err:
                raise tax.ParallelError(err)
            parallel = tax.parse_tsv(text or "", label=up.name)
        except tax.ParallelError as exc:
            st.error(md_escape(localize(exc)))
else:
    parallel = _dataset(data_key, tax.default_languages())


@st.cache_data(show_spinner=False, max_entries=64)
def _measure(tid: str, digest: str, key: str, _tok: PretrainedTokenizer, _parallel: tax.ParallelText
             ) -> tuple[dict, dict[str, tax_steps.Decomposition]]:
    # digest: a session tokenizer's file hash, so two uploads with the same name never share a cached result
    langs = _parallel.languages
    cells = measures.measure_parallel(_tok, [_parallel.column(lang) for lang in langs])
    en = cells[langs.index("en")]
    steps = {lang: tax_steps.decompose(tid, lang, m, en[0], chars=c, nbytes=b, en_chars=en[2], en_bytes=en[3])
             for lang, (m, _w, c, b) in zip(langs, cells)}
    return measures.compare_json(_tok, langs, cells), steps


def _digest(tid: str) -> str:
    tok = session_tokenizers().get(tid)
    return (tok.entry.sha256 or "") if tok is not None else ""


if parallel is not None and chosen:
    if parallel.kind == "names":
        st.warning(_("These are names (one or two words each), not sentences: premiums here are not comparable with "
                     "sentence-level figures such as Petrov et al. 2023."))
    cache_key = data_key if data_key != "upload" else f"upload:{hash(parallel.rows)}"
    results: dict[str, tuple[dict, dict[str, tax_steps.Decomposition]]] = {}
    chosen = ready(chosen)
    for tid in chosen:
        try:
            tok = get_tokenizer(tid)
            with st.spinner(_("Encoding with {tokenizer}…").format(tokenizer=tid)):
                results[tid] = _measure(tid, _digest(tid), cache_key, tok, parallel)
        except (zoo.ZooError, ValueError) as exc:
            st.error(md_format(_("{tokenizer}: {error}"), tokenizer=tid, error=localize(exc)))
    rows = [
        {"tokenizer": tid, "language": lang, **{k: c[k] for k in ("tokens", "words", "chars", "bytes")},
         "tokens/word": round(c["tokens"] / c["words"], 2) if c["words"] else 0.0,
         "premium vs en": round(res["premium"][lang], 2),
         **{k: c[k] for k in MEASURES}, "vocab_size": res["vocab_size"], "gini": round(res["gini"], 4)}
        for tid, (res, _steps) in results.items()
        for lang, c in res["languages"].items()
    ]
    if rows:
        df = pd.DataFrame(rows)
        langs = list(dict.fromkeys(row["language"] for row in rows))
        names = list(dict.fromkeys(row["tokenizer"] for row in rows))
        premium = {(row["tokenizer"], row["language"]): row["premium vs en"] for row in rows}
        st.html(bar_chart(langs, [(t, [premium.get((t, lang), 0.0) for lang in langs]) for t in names],
                          title=ngettext("Token premium relative to English: {label}, {count} row",
                                         "Token premium relative to English: {label}, {count} rows",
                                         len(parallel.rows)).format(label=localize(parallel.label), count=num(len(parallel.rows))),
                          y_title=_("premium vs en"), ref=1.0, ref_label=_("English = 1")))
        # shown with translated headers and a definition per measure; the CSV keeps the English column names
        show_table(df, hide_index=True, width="stretch", column_config=tax_columns(df.columns), key_columns=2)
        st.download_button(_("Download CSV"), df.to_csv(index=False), "multilingual-tax.csv", "text/csv", on_click="ignore")
        if parallel.kind == "sentences" and "cl100k_base" in chosen:
            ref = ", ".join(f"{lang} {v:.2f}x" for lang, v in languages.references().items())
            st.caption(md_format(_("Published reference for cl100k_base (Petrov et al. 2023, FLORES-200): {figures}."), figures=ref))
        decomposition([(tid, steps) for tid, (_res, steps) in results.items()], [lang for lang in langs if lang != "en"])
        with st.expander(md_format(ngettext("The parallel text ({count} row)", "The parallel text ({count} rows)",
                                  len(parallel.rows)), count=num(len(parallel.rows)))):
            show_table(pd.DataFrame(parallel.rows, columns=list(parallel.languages)), hide_index=True)
elif not chosen:
    st.info(_("Choose at least one tokenizer."))
if chosen:
    format_section(ready(chosen), get_tokenizer, _digest)

st.markdown(_("#### Embedding size"))
st.caption(_("The other side of the trade-off: a bigger vocabulary gives shorter sequences but a bigger embedding "
             "table (vocabulary × d_model parameters, once more if the output layer is not tied)."))
e1, e2 = st.columns(2)
d_model = e1.number_input(_("d_model (hidden size)"), min_value=1, max_value=65536, value=4096, step=256,
                          key="tax_dmodel")
vocab = e2.number_input(_("Vocabulary size"), min_value=1, max_value=10_000_000, value=128_000, step=1000,
                        key="tax_vocab")
st.markdown(md_format(_("**{count} parameters** ({vocab} × {d_model})"), count=num(tax.embedding_params(int(vocab), int(d_model))), vocab=num(int(vocab)), d_model=num(int(d_model))))
entries = [session_tokenizers()[t].entry if t in session_tokenizers() else zoo.ENTRIES[t] for t in chosen]
emb = [
    {"tokenizer": e.name, "vocabulary": e.vocab_size,
     "embedding parameters": tax.embedding_params(e.vocab_size, int(d_model))}
    for e in entries if not e.built_in
]  # fmt: skip
if emb:
    show_table(pd.DataFrame(emb), hide_index=True, width="stretch",
                 column_config={c: _(c) for c in ("tokenizer", "vocabulary", "embedding parameters")})
