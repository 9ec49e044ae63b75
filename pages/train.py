"""Train & evaluate: five real tokenizers trained on one corpus, compared on held-out sentences."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from core import languages
from core.analysis import evaluate as E
from core.analysis import recipes as R
from core.i18n import N_, translator
from core.markdown import md_escape, md_format
from core.pretrained import zoo
from core.text.limits import LimitError
from core.text.native import NativeError
from pages._charts import Series, line_chart
from pages._lang import _, current_lang, localize, num
from pages._layout import esc, for_reader, page_header, show_table, show_table_in
from pages._samples import language_name, learn_lines
from pages._selector import COMPARE_DEFAULT, add_session_tokenizer
from pages._text_input import MAX_UPLOAD_MB, decode_upload
from pages._training import (
    DIFF_CSS,
    MAX_TRAIN_CHARS,
    bar_progress,
    baseline_cached,
    bundled_corpus,
    corpus_sha,
    diff_html,
    evaluate_cached,
    proof_cached,
    run_reporting,
    split_cached,
    tok_key,
    train_cached,
)
from pages._url import qp_init, qp_sync, remembered

#: Columns of the metrics table (the CSV keeps these English names; the page shows them translated).
COLUMNS = (N_("Tokenizer"), N_("Vocab asked"), N_("Vocab obtained"), N_("Tokens / sentence"), N_("UNK %"),
           N_("Round trip %"), N_("cut %"), N_("bad %"), N_("Unused tokens"), N_("Train s"), N_("Why obtained ≠ asked"))
#: How the corpus was split (core.analysis.evaluate), named in the split summary.
UNITS = {"document": N_("document"), "line group": N_("line group")}
SIZE_CHOICES = [300, 500, 1000, 2000, 4000, 8000, 16000, 32000]
PALETTE = {  # Paul Tol's colour-blind-safe "bright" scheme
    "bpe": "#4477AA", "byte-gpt2": "#EE6677", "byte-plain": "#228833", "wordpiece": "#CCBB44", "unigram": "#AA3377",
}  # fmt: skip
SHAPES = {"bpe": "circle", "byte-gpt2": "cross", "byte-plain": "square", "wordpiece": "diamond", "unigram": "triangle"}
DASHES = {"bpe": "", "byte-gpt2": "6 4", "byte-plain": "2 3", "wordpiece": "8 3 2 3", "unigram": "1 4"}


def _ints(raw: str) -> list[int]:
    return [int(x) for x in raw.split(",") if x.strip()]


page_header(
    _("Train & evaluate"),
    _("Train five kinds of tokenizer on the same text at several vocabulary sizes and compare them on held-out "
      "sentences they never saw: sequence length, unknown tokens, round trip, cuts inside letters, and the "
      "vocabulary each one really learned."),
)
st.html(f"<style>{DIFF_CSS}</style>")

# ---------------------------------------------------------------- corpus
SOURCES = {"bundled": _("Bundled Bangla corpus"),
           **{k: _("{language} sample").format(language=_(language_name(k))) for k in languages.others()},
           "upload": _("Upload a UTF-8 .txt")}
qp_init("tr_source", "bundled", param="corpus", choices=tuple(SOURCES))
qp_init("tr_recipes", list(R.RECIPES), param="recipes",
        cast=lambda s: [r for r in s.split(",") if r in R.RECIPES] or list(R.RECIPES))
qp_init("tr_sizes", list(R.DEFAULT_SIZES), param="sizes",
        cast=lambda s: [n for n in _ints(s) if n in SIZE_CHOICES] or list(R.DEFAULT_SIZES))
qp_init("tr_minf", R.DEFAULT_MIN_FREQUENCY, param="minf", cast=int, lo=1, hi=50)

with st.container(border=True):
    source = st.radio(_("Training corpus"), list(SOURCES), key="tr_source", horizontal=True, format_func=SOURCES.get)
    text: str | None = None
    if source in languages.LANGUAGES:
        text = "\n\n".join(learn_lines(source))  # each sentence its own document
        st.caption(md_format(_("{count} {language} sentences written for this project ({file}), each its own document: small, "
                     "so keep the vocabulary sizes small."), count=num(len(learn_lines(source))), language=_(language_name(source)), file=languages.LANGUAGES[source].sample_name))
    elif source == "bundled":
        text = bundled_corpus()
        st.caption(_("Original Bangla text written for this project: shop messages, weather, school, family, farming, "
                     "travel, health, food, culture and news, in documents separated by blank lines."))
    else:
        up = st.file_uploader(
            md_format(_("Corpus (.txt, UTF-8; documents separated by blank lines; at most {count} characters)"), count=num(MAX_TRAIN_CHARS)),
            type=["txt"], key="tr_upload", max_upload_size=MAX_UPLOAD_MB,
        )  # fmt: skip
        if up is not None:
            decoded, err = decode_upload(up.getvalue(), up.name)
            if err:
                st.error(md_escape(err))
            elif decoded is not None and len(decoded) > MAX_TRAIN_CHARS:
                st.error(md_format(_("“{name}” has {count} characters; the train page accepts at most {limit}. Use `python -m core "
                           "train --corpus FILE` for larger corpora."), name=up.name, count=num(len(decoded)), limit=num(MAX_TRAIN_CHARS)))
            else:
                text = decoded
        else:
            st.info(_("Upload a corpus to train on it, or switch back to the bundled corpus."))

    with st.form("tr_form", border=False):
        c1, c2, c3 = st.columns([3, 3, 1])
        recipes = c1.multiselect(_("Recipes"), list(R.RECIPES), key="tr_recipes",
                                 format_func=lambda r: _(R.RECIPES[r].label), placeholder=_("Choose…"))
        sizes = c2.multiselect(_("Vocabulary sizes"), SIZE_CHOICES, key="tr_sizes",
                               format_func=lambda n: num(n), placeholder=_("Choose…"))
        min_frequency = c3.number_input(_("min frequency"), 1, 50, key="tr_minf",
                                        help=_("A pair must occur at least this often to be merged (BPE, WordPiece)."))
        st.form_submit_button(_("Train and evaluate"), type="primary")

qp_sync(corpus=source, recipes=",".join(recipes), sizes=",".join(map(str, sorted(sizes))), minf=int(min_frequency))

if text is None:
    st.stop()
if not recipes or not sizes:
    st.info(_("Choose at least one recipe and one vocabulary size."))
    st.stop()

sha = corpus_sha(text)
try:
    split = split_cached(sha, text)
except E.EvalError as exc:
    st.error(md_format(_("Cannot split this corpus: {error}."), error=localize(exc)))
    st.stop()

s = split.summary()
unit = _(UNITS.get(s["unit"], s["unit"]))
st.markdown(md_format(_(
    "**Split by {unit}** (seed {seed}, 10% held out): {train_groups} × {unit} / {train_sentences} sentences "
    "({train_chars} characters) for training; {heldout_groups} × {unit} / **{heldout_sentences} held-out sentences** "
    "for every number below. {dropped} held-out sentences that also occur in the training part were dropped. Corpus "
    "sha256 `{sha}…`"), unit=unit, seed=s["seed"], train_groups=num(s["train_groups"]), train_sentences=num(s["train_sentences"]), train_chars=num(s["train_chars"]), heldout_groups=num(s["heldout_groups"]), heldout_sentences=num(s["heldout_sentences"]), dropped=num(s["heldout_dropped_seen_in_training"]), sha=sha[:16]))

# ---------------------------------------------------------------- training (cached per corpus, recipe, size)
jobs = [(r, n) for r in recipes for n in sorted(sizes)]
bar = st.progress(0.0, text=_("Training…"))
trained: list[R.TrainedTokenizer] = []
failed: list[str] = []
for k, (recipe, size) in enumerate(jobs):
    job = md_format(_("Training {recipe} at {size} ({index} of {total})"),
                    recipe=_(R.RECIPES[recipe].label), size=num(size), index=k + 1, total=len(jobs))
    bar.progress(k / (len(jobs) + 1), text=md_format("{job}…", job=job))
    try:
        trained.append(run_reporting(
            lambda cb: train_cached(sha, recipe, size, int(min_frequency), split.seed, split.train, cb),  # noqa: B023
            bar_progress(bar, k / (len(jobs) + 1), 1 / (len(jobs) + 1), job)))
    except (R.RecipeError, NativeError) as exc:
        failed.append(_("{recipe} at {size}: {error}").format(recipe=_(R.RECIPES[recipe].label), size=num(size), error=localize(exc)))
bar.progress(len(jobs) / (len(jobs) + 1), text=_("Evaluating on held-out sentences…"))
baselines = [baseline_cached(sha, b, split.seed, split.train) for b in R.BASELINES]
rated = trained + baselines
metrics: list[E.Metrics] = [
    run_reporting(lambda cb: evaluate_cached(sha, tok_key(t), split.seed, t, split.heldout, cb),  # noqa: B023
                  bar_progress(bar, (len(jobs) + i / len(rated)) / (len(jobs) + 1), 1 / ((len(jobs) + 1) * len(rated)),
                               md_format(_("Evaluating {tokenizer} ({index} of {total})"), tokenizer=_(t.name),
                                         index=num(i + 1), total=num(len(rated)))))
    for i, t in enumerate(rated)
]
bar.empty()
for msg in failed:
    st.error(md_escape(msg))
by_id = {m.id: m for m in metrics}
tok_by_id = {t.id: t for t in trained + baselines}



def note_text(m: E.Metrics) -> str:
    """The training note of ``m`` in the interface language (recipes keep its templates and values)."""
    made = tok_by_id.get(m.id)
    parts = made.note_parts if made is not None else ()
    return R.render_note(parts, current_lang()) if parts else m.vocab_note


# ---------------------------------------------------------------- table
st.subheader(_("Held-out metrics"), divider="gray")
rows = []
plain = translator(current_lang())  # the reader's language with 0-9: a download keeps Western digits
for m in metrics:
    rows.append({
        "Tokenizer": plain.gettext(m.name),
        "Vocab asked": m.vocab_requested,
        "Vocab obtained": m.vocab_obtained,
        "Tokens / sentence": round(m.tokens_per_sentence, 2),
        "UNK %": round(m.unk_pct, 2),
        "Round trip %": round(m.round_trip_pct, 2),
        "cut %": round(m.cut_pct, 2),
        "bad %": round(m.bad_pct, 2),
        "Unused tokens": m.usage.unused,
        "Train s": None if m.train_seconds is None else round(m.train_seconds, 3),
        "Why obtained ≠ asked": note_text(m),
    })  # fmt: skip
table = pd.DataFrame(rows)
table["Vocab asked"] = table["Vocab asked"].astype("Int64")
show_table(for_reader(table.assign(Tokenizer=[_(m.name) for m in metrics])), hide_index=True, width="stretch",
           height=min(36 * (len(table) + 1) + 4, 760),
           column_config={**{c: _(c) for c in COLUMNS},
                          "Why obtained ≠ asked": st.column_config.TextColumn(_("Why obtained ≠ asked"), width="large")})
st.download_button(_("Download the table (CSV)"), table.to_csv(index=False).encode("utf-8"), "metrics.csv",
                   "text/csv", key="tr_csv", on_click="ignore")
st.caption(_(
    "Tokens / sentence: mean over held-out sentences. UNK %: share of tokens that are [UNK]. Round trip %: "
    "sentences with decode(encode(norm(s))) == norm(s). cut %: token boundaries inside a grapheme cluster. "
    "bad %: tokens that are not valid UTF-8 alone. Train s: the library's training call only."
))

stuck = [m for m in metrics if m.recipe == "byte-gpt2" and m.vocab_requested and m.vocab_obtained < m.vocab_requested]
if stuck:
    worst = min(stuck, key=lambda m: m.vocab_obtained / (m.vocab_requested or 1))
    st.warning(
        md_format("{head} {why}\n\n{note}", head=md_format(
            _("**The \\p{{L}} effect.** Byte-level BPE with the GPT-2 regex stopped at {obtained} tokens when asked "
              "for {asked}."), obtained=num(worst.vocab_obtained), asked=num(worst.vocab_requested)),
                  why=_(R.RECIPES["byte-gpt2"].note), note=note_text(worst)),
        icon=":material/content_cut:",
    )
for r in recipes:
    if not R.RECIPES[r].lossless:
        st.info(md_format("**{label}**: {note}", label=_(R.RECIPES[r].label), note=R.RECIPES[r].note_in(text, current_lang())),
                icon=":material/info:")

# ---------------------------------------------------------------- charts
recipe_rows = [m for m in metrics if m.recipe]
if recipe_rows:
    c1, c2 = st.columns(2)
    for col, field, title in ((c1, "tokens_per_sentence", _("Tokens per held-out sentence")),
                              (c2, "cut_pct", _("cut % (boundaries inside a letter)"))):
        series = []
        for r in recipes:
            pts = sorted((m.vocab_requested, getattr(m, field), m.vocab_obtained) for m in recipe_rows if m.recipe == r)
            if not pts:
                continue
            series.append(Series(
                _(R.RECIPES[r].label), [p[0] for p in pts], [p[1] for p in pts], PALETTE[r], shape=SHAPES[r],
                dash=DASHES[r], mode="lines+markers",
                hover=[_("{recipe}: asked {asked}, obtained {obtained}, {value}").format(
                    recipe=_(R.RECIPES[r].label), asked=num(p[0]), obtained=num(p[2]), value=f"{p[1]:.2f}") for p in pts],
            ))  # fmt: skip
        if series:
            col.html(line_chart(series, title=title, x_title=_("vocabulary size asked (log)"), log_x=True, height=340))

# ---------------------------------------------------------------- round-trip failures
st.subheader(_("Round-trip failures"), divider="gray")
failing = [m for m in metrics if m.failure_count]
if not failing:
    st.success(_("Every tokenizer gives every held-out sentence back exactly."))
else:
    # keyed by what it lists: after retraining, a new box, so its label and the failures below always agree
    sig = abs(hash(tuple((m.id, m.failure_count, m.sentences) for m in failing)))
    pick = st.selectbox(_("Tokenizer"), [m.id for m in failing], key=f"tr_fail_tok_{sig}",
                        format_func=lambda i: _("{tokenizer} — {count} of {total} sentences fail").format(
                            tokenizer=_(by_id[i].name), count=num(by_id[i].failure_count), total=num(by_id[i].sentences)))
    m = by_id[pick]
    st.caption(md_format(_("First {shown} of {total} failures; lost text is struck through, changed or added text underlined. "
                 "Whitespace shows as · → ↵."), shown=num(len(m.failures)), total=num(m.failure_count)))
    for f in m.failures:
        reason = esc(localize(f.reason))
        st.html(f'<div><span class="tl-flag">{reason}</span>{diff_html(f.diff)}</div>')

# ---------------------------------------------------------------- vocabulary view
st.subheader(_("Vocabulary use on held-out text"), divider="gray")
pick = st.selectbox(_("Tokenizer"), [m.id for m in metrics], key="tr_vocab_tok", format_func=lambda i: _(by_id[i].name))
m = by_id[pick]
c1, c2 = st.columns([3, 2])
counts = m.usage.counts
slope = E.zipf_slope(counts)
# at most ~400 markers: every rank up to 100, then ranks spaced evenly on the log axis (drawing only)
ranks = sorted({r for r in range(1, min(len(counts), 100) + 1)}
               | {max(1, round(len(counts) ** (k / 300))) for k in range(301)} if counts else set())
used = [(r, counts[r - 1]) for r in ranks if r <= len(counts) and counts[r - 1] > 0]
if used:
    c1.html(line_chart([Series(_("tokens"), [r for r, _c in used], [c for _r, c in used], "#4477AA", mode="markers",
                               hover=[_("rank {rank}: {count} uses").format(rank=num(r), count=num(c)) for r, c in used])],
                       title=_("Zipf plot: rank vs frequency (log-log)"), x_title=_("rank"),
                       y_title=_("uses in held-out text"), log_x=True, log_y=True, height=340))
else:
    c1.info(_("No token of this tokenizer was used on the held-out text."))
c2.metric(_("Tokens used at least once"), num(m.usage.used))
c2.metric(_("Unused tokens (never seen in held-out text)"), num(m.usage.unused),
          help=_("Vocabulary entries (special tokens excluded) that no held-out sentence needed."))
if slope is not None:
    c2.caption(md_format(_("Log-log slope {slope} (Zipf's law predicts about −1)."), slope=f"{slope:.2f}"))
c2.markdown(_("**Longest tokens**"))
show_table_in(c2, for_reader(pd.DataFrame(m.usage.longest, columns=[_("token (▁ = space)"), _("characters")])), hide_index=True,
             height=250)

# ---------------------------------------------------------------- save / load proof
st.subheader(_("Save and load proof"), divider="gray")
savable = [t for t in trained]
if savable:
    pick = st.selectbox(_("Trained tokenizer"), [t.id for t in savable], key="tr_save_tok",
                        format_func=lambda i: _(tok_by_id[i].name))
    tok = tok_by_id[pick]
    saved = tok.json.encode("utf-8")
    proof = proof_cached(tok.sha256, sha, split.seed, saved, split.heldout)
    c1, c2 = st.columns([2, 3])
    c1.download_button(_("Download tokenizer.json"), saved, f"{tok.id}.tokenizer.json", "application/json",
                       key="tr_download", on_click="ignore")
    c1.caption(md_format(_("{count} bytes · sha256 `{sha}`"), count=num(len(saved)), sha=tok.sha256))
    if c1.button(_("Compare it with the shelf (Gemma 4, Qwen, …)"), key="tr_to_selector",
                 help=_("Adds this tokenizer, for this session, to the selectors of the Compare, tax, word inspector "
                        "and (for BPE) Merge replay pages.")):
        try:
            add_session_tokenizer(zoo.load_user_bytes(f"{tok.id}.tokenizer.json", saved, kind="hf-json"), len(saved))
        except (zoo.ZooError, LimitError) as exc:
            c1.error(md_escape(localize(exc)))
        else:
            # joins the Compare selection (its defaults when Compare was not opened yet), never replaces it
            chosen = remembered("cmp_tok", COMPARE_DEFAULT)
            st.session_state["cmp_tok"] = [*(i for i in chosen if i != f"user:{tok.id}.tokenizer.json"),
                                           f"user:{tok.id}.tokenizer.json"]
            st.switch_page("pages/compare.py")
    if tok.recipe and not R.RECIPES[tok.recipe].deterministic:
        c1.info(md_format(_("**Not reproducible in a new process.** Retraining {label} with the same corpus, seed "
                            "and size after a server restart (or with `python -m core train`) can give a different "
                            "file. {why}"), label=_(R.RECIPES[tok.recipe].label), why=_(R.NOT_DETERMINISTIC_WHY)),
                icon=":material/casino:")
    same_file = proof.sha256_first == proof.sha256_second
    c2.markdown(md_format(_(
        "Loaded back and saved again: sha256 `{sha}…` ({file}); ids on all {count} held-out sentences: {ids}. "
        "**The reloaded tokenizer is {verdict}.**"), sha=proof.sha256_second[:16], file=_("same file, byte for byte") if same_file else _("a different file"), count=num(proof.sentences), ids=_("identical") if proof.ids_identical else _("different"), verdict=_("identical") if proof.identical else _("NOT identical")))

up = st.file_uploader(_("Load a tokenizer.json (for example one downloaded above) to check it on the same held-out "
                        "text"), type=["json"], key="tr_load", max_upload_size=MAX_UPLOAD_MB)
if up is not None:
    data = up.getvalue()
    try:
        loaded = R.load_json_bytes(data, name=up.name)
    except (R.LoadError, NativeError) as exc:
        st.error(md_format(_("Rejected: {error}."), error=localize(exc)))
    else:
        proof = proof_cached(loaded.sha256, sha, split.seed, data, split.heldout)
        lm = evaluate_cached(sha, tok_key(loaded), split.seed, loaded, split.heldout)
        same = [t for t in trained if t.sha256 == loaded.sha256]
        try:
            add_session_tokenizer(zoo.load_user_bytes(up.name, data, kind="hf-json"), len(data))  # selectable on every pretrained page too
        except zoo.ZooError:
            pass  # checked above by the recipes loader; the selector only misses it
        except LimitError as exc:
            st.warning(md_format(_("Not added to this session's tokenizers: {error}."), error=localize(exc)))
        values = {"name": up.name, "count": num(loaded.vocab_obtained), "sha": loaded.sha256}
        loaded_line = (_("Loaded “{name}”: {count} tokens, sha256 `{sha}` — the same file as {other}.") if same else
                       _("Loaded “{name}”: {count} tokens, sha256 `{sha}`."))
        st.success(md_format(loaded_line, other=_(same[0].name) if same else "", **values))
        st.markdown(md_format(_(
            "Re-saved: {bytes} (sha256 `{sha}…`); ids on {count} held-out sentences: {ids}. Held-out: {per_sentence} "
            "tokens/sentence, round trip {round_trip}%, UNK {unk}%, cut {cut}%."), bytes=_("byte-identical") if proof.sha256_first == proof.sha256_second else _("different bytes"), sha=proof.sha256_second[:16], count=num(proof.sentences), ids=_("identical") if proof.ids_identical else _("different"), per_sentence=num(lm.tokens_per_sentence, 2), round_trip=num(lm.round_trip_pct, 1), unk=num(lm.unk_pct, 2), cut=num(lm.cut_pct, 1))
        )
