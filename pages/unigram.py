"""Unigram lattice: every matching piece, the Viterbi best path and the runners-up."""
from __future__ import annotations

import math

import streamlit as st

from core import languages
from core.i18n import N_
from core.markdown import md_codes, md_escape, md_format
from core.models import unigram as ug
from core.render import render_pieces
from core.text.bidi import text_direction
from pages._algos import html_table, inject_css, trained_unigram
from pages._charts import Arc, lattice_chart
from pages._lang import _, lang_args, localize, ngettext, num
from pages._layout import esc, page_header, show_table, show_tokens
from pages._links import chip_links
from pages._samples import language_name
from pages._url import qp_init, qp_sync

SOURCES = {
    "trained": N_("Trained here (UnigramTrainer on a bundled sample)"),
    "upload": N_("Upload a Unigram tokenizer.json or SentencePiece .model"),
}
#: Columns of the lattice edges table (shown translated).
COLUMNS = (N_("start"), N_("end"), N_("piece"), "id", N_("log p"), N_("best path"), N_("unknown"))

page_header(
    _("Unigram lattice"),
    _("A Unigram (SentencePiece) model gives every piece a log-probability. All pieces that match part of the word "
      "form a lattice; encoding takes the path with the highest total (Viterbi). Spaces become ▁."),
)
inject_css()

qp_init("ug_source", "trained", param="model", choices=list(SOURCES))
source = st.radio(_("Model"), list(SOURCES), key="ug_source", format_func=lambda k: _(SOURCES[k]), horizontal=True)
model: ug.UnigramModel | None = None
try:
    if source == "trained":
        qp_init("ug_lang", languages.default(), param="sample", choices=languages.codes())  # not "lang": the interface's
        qp_init("ug_size", 400, param="size", cast=int, lo=100, hi=1500, step=20)
        c1, c2 = st.columns([1, 2])
        lang = c1.selectbox(_("Sample"), languages.codes(), key="ug_lang", format_func=lambda k: _(language_name(k)))
        size = c2.slider(_("Vocabulary size (the trainer may stop earlier on a small corpus)"), 100, 1500,
                         key="ug_size", step=20)
        model = trained_unigram(size, lang)
    else:
        up = st.file_uploader(_("Unigram tokenizer.json or SentencePiece .model"), type=None,
                              key="ug_upload", max_upload_size=50)
        if up is None:
            st.info(_("Upload a file to use its pieces and scores."))
        else:
            model = ug.load_bytes(up.getvalue(), up.name)
except ug.UnigramError as exc:
    st.error(md_format(_("Cannot use this model: {error}."), error=localize(exc)))
    model = None

ug_lang = st.session_state.get("ug_lang", languages.default()) if source == "trained" else languages.default()
qp_init(f"ug_word_{ug_lang}", languages.LANGUAGES[ug_lang].word, param="word")  # each sample starts from a word of its own
word = st.text_input(md_format(_("Word (up to {count} characters are drawn)"), count=ug.MAX_WORD_CHARS),
                     key=f"ug_word_{ug_lang}")
qp_sync(model=source, word=word if len(word) <= 200 else None,
        size=st.session_state.get("ug_size") if source == "trained" else None,
        sample=ug_lang if source == "trained" else None)

if model is not None:
    st.caption(md_format(_("{count} pieces from {source} · unknown piece {unk} scores {score} (lowest score − {penalty})"), count=num(len(model)), source=model.source, unk=model.unk_piece if model.unk_piece is not None else _("(none)"), score=f"{model.unk_score:.2f}", penalty=f"{ug.UNK_PENALTY:g}"))
    for note in model.notes:
        st.info(md_escape(localize(note)))

if model is None:
    st.stop()
if not word.strip():
    st.info(_("Type a word to see its lattice."))
    st.stop()

try:
    lat = ug.lattice(word.strip(), model, k=5)
except ug.UnigramError as exc:
    st.error(md_escape(localize(exc)))
    st.stop()
if lat.notice:
    st.warning(md_escape(localize(lat.notice)))

best_ids = {(e.start, e.end) for e in lat.best.edges}
st.subheader(_("Best path (Viterbi)"), divider="gray")
st.markdown(md_format(ngettext("**{count} token**, total log-probability **{score}**: {pieces}",
                     "**{count} tokens**, total log-probability **{score}**: {pieces}", len(lat.tokens)), count=num(len(lat.tokens)), score=f"{lat.best.score:.3f}", pieces=md_codes(t for t, _i in lat.tokens)))
# a chip opens the word inspector on its word (the pieces join to lat.word, whose ▁ are spaces)
best_link = chip_links(lat.word.replace("▁", " ")) if "".join(t for t, _i in lat.tokens) == lat.word else None
show_tokens(render_pieces([t.encode("utf-8") for t, _i in lat.tokens], ids=[i for _t, i in lat.tokens], link=best_link,
                          **lang_args(),
                          unknown=() if model.unk_id is None else (model.unk_id,)))
n_unk = sum(1 for _t, i in lat.tokens if model.unk_id is not None and i == model.unk_id)
if n_unk:
    st.warning(md_format(ngettext(
        "{count} token of this word is unknown ({unk}): no piece of the model covers it, so the model sees only "
        "“something unknown” there (drawn with a red UNK tag).",
        "{count} tokens of this word are unknown ({unk}): no piece of the model covers them, so the model sees only "
        "“something unknown” there (drawn with a red UNK tag).", n_unk), count=num(n_unk), unk=model.unk_piece))

# ---- the lattice drawing (pages/_charts.lattice_chart, an SVG image): positions on x, each piece an arc from its
# start to its end. Every arc is labelled up to 30 characters; past that only the best path is.
n = len(lat.word)
arcs = [Arc(e.start, e.end, e.piece, f"{e.score:.2f}",
            "best" if (e.start, e.end) in best_ids else "unk" if e.unk else "other") for e in lat.edges]
st.subheader(_("Lattice"), divider="gray")
caption = ngettext("{count} piece matches spans of “{word}”. Orange: the best path; dotted red: unknown characters; "
                   "each arc is labelled with its piece and log-probability.",
                   "{count} pieces match spans of “{word}”. Orange: the best path; dotted red: unknown characters; "
                   "each arc is labelled with its piece and log-probability.", len(lat.edges))
if n > 30:
    caption = ngettext("{count} piece matches spans of “{word}”. Orange: the best path; dotted red: unknown "
                       "characters; only the best path's arcs are labelled (the word is long; the table below lists "
                       "every edge).",
                       "{count} pieces match spans of “{word}”. Orange: the best path; dotted red: unknown "
                       "characters; only the best path's arcs are labelled (the word is long; the table below lists "
                       "every edge).", len(lat.edges))
st.caption(md_format(caption, count=num(len(lat.edges)), word=lat.word))
st.html(lattice_chart(list(lat.word), arcs, labels=n <= 30, rtl=text_direction(lat.word) == "rtl",
                      alt=_("Lattice of {word}: {count} pieces, best path {path}").format(
                          word=lat.word, count=num(len(lat.edges)), path=" | ".join(lat.best.pieces))))

st.subheader(_("Best segmentations"), divider="gray")
best_word = _("1 (best)")
rows = []
for k, s in enumerate(lat.top, 1):
    rel = math.exp(s.score - lat.best.score)
    rows.append([str(k), f"<span dir='auto'>{esc(' | '.join(s.pieces))}</span>", f"{s.score:.3f}",
                 f"{rel:.3g}×" if k > 1 else best_word])
st.html(html_table([_("rank"), _("pieces"), _("log-probability"), _("probability vs best")], rows,
                   ["tl-hit"] + [""] * (len(rows) - 1), testid="ug-top"))
st.caption(_("Probability of a segmentation = product of its pieces' probabilities = exp(sum of log-probabilities)."))

with st.expander(md_format(ngettext("All {count} lattice edge", "All {count} lattice edges", len(lat.edges)), count=num(len(lat.edges)))):
    show_table(
        [{"start": e.start, "end": e.end, "piece": e.piece, "id": e.id, "log p": round(e.score, 4),
          "best path": (e.start, e.end) in best_ids, "unknown": e.unk} for e in lat.edges],
        hide_index=True,
        column_config={c: _(c) for c in COLUMNS},
    )
