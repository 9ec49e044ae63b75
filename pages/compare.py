"""Compare pretrained tokenizers side by side on the same text."""
from __future__ import annotations

import io
import json

import pandas as pd
import streamlit as st

from core.analysis import measures
from core.markdown import md_escape, md_format
from core.pretrained import zoo
from core.pretrained.adapter import PretrainedTokenizer, summarize
from core.pretrained.catalog import shared_by
from core.render import DEFAULT_MAX_TOKENS, legend_html, render_encoding
from core.text import limits
from core.text.disagree import disagreement
from core.tokens import stats
from pages._controls import classroom
from pages._differences import show_differences
from pages._lang import _, current_lang, lang_args, localize, ngettext, num
from pages._layout import METRICS_NOTE, esc, for_reader, page_header, show_entry_audit, show_table, show_tokens, stats_line
from pages._links import chip_links
from pages._report import report_button
from pages._samples import sample
from pages._selector import (
    COMPARE_DEFAULT,
    LoadProgress,
    add_session_tokenizer,
    admit_session_tokenizer,
    forget_session_tokenizers,
    get_tokenizer,
    known,
    pick_tokenizers,
    ready,
    session_tokenizers,
)
from pages._tax_parts import tax_columns
from pages._text_input import source_facts, source_label, text_input
from pages._url import qp_init, qp_sync, url_text

DEFAULT = COMPARE_DEFAULT

page_header(
    _("Compare tokenizers"),
    _("The same text through real pretrained tokenizers, loaded offline from installed packages and the checkpoint "
      "shelf (`python -m core zoo install`) and checked by sha256. Each row is drawn with the same chips; the table sorts by any column."),
)

default_text = sample("shop_bn").splitlines()[1]
text = text_input("cmp_text", default_text, label=_("Text to compare"))

user: dict[str, PretrainedTokenizer] = session_tokenizers()
added: str | None = None  # a tokenizer loaded on this run joins the selection
# Forget also empties the uploader (Streamlit cannot clear one: a new key makes a new, empty one); otherwise the
# file still in it would be loaded again on the very next run and Forget would seem to do nothing.
_upload_gen = st.session_state.get("cmp_upload_gen", 0)


def _forget_all() -> None:
    forget_session_tokenizers()
    st.session_state["cmp_upload_gen"] = _upload_gen + 1


with st.expander(_("Add your own tokenizer (file upload or Hugging Face Hub id)")):
    up = st.file_uploader(
        _("tokenizer.json, .tiktoken ranks file, SentencePiece .model or Tekken .json"),
        type=["json", "tiktoken", "model", "v1", "v2", "v3", "v7"],
        max_upload_size=limits.MAX_TOKENIZER_FILE_BYTES // 2**20,  # the uploader shows the limit the loader applies
        key="cmp_upload" if not _upload_gen else f"cmp_upload_{_upload_gen}",
    )
    pattern = st.selectbox(_("Split pattern for a .tiktoken file"), list(zoo.TIKTOKEN_PATTERNS), key="cmp_pattern")
    if up is not None and f"user:{up.name}" not in user:
        data = up.getvalue()
        try:  # the session budget is checked before the file is parsed, then again with the real size
            limits.check_size(data, max_bytes=limits.MAX_TOKENIZER_FILE_BYTES,
                              what=_("tokenizer file “{name}”").format(name=up.name))
            admit_session_tokenizer(limits.estimate_tokenizer_bytes(len(data)), what=f"“{up.name}”")
            tok = zoo.load_user_bytes(up.name, data, pattern=pattern)
            add_session_tokenizer(tok, len(data))
        except (zoo.ZooError, limits.LimitError) as exc:
            st.error(md_escape(localize(exc)))  # the message names the file itself, once
        else:
            added = tok.id
            st.success(md_format(_("Loaded {name}: {algorithm}, {count} tokens, sha256 {sha}…"), name=up.name, algorithm=_(tok.entry.algorithm), count=num(tok.vocab_size), sha=tok.entry.sha256[:16]))
    hub_id = st.text_input(_("Hugging Face Hub id (needs the network)"), placeholder="xlm-roberta-base", key="cmp_hub")
    if st.button(_("Fetch from the Hub"), disabled=not hub_id.strip()):
        try:
            admit_session_tokenizer(0, what=hub_id.strip())
            with st.spinner(_("Fetching {id}…").format(id=hub_id)):
                tok = zoo.load_hub(hub_id.strip())
            add_session_tokenizer(tok)
        except (zoo.ZooError, limits.LimitError) as exc:
            st.error(md_escape(localize(exc)))
        else:
            added = tok.id
            st.success(md_format(_("Loaded {id} ({count} tokens)."), id=tok.id, count=num(tok.vocab_size)))
    if user:
        st.button(md_format(ngettext("Forget this session's {count} uploaded or trained tokenizer",
                           "Forget this session's {count} uploaded or trained tokenizers", len(user)), count=num(len(user))), key="cmp_forget", on_click=_forget_all)

qp_init("cmp_tok", DEFAULT, param="tok", cast=lambda s: [i for i in s.split(",") if known(i)])
if added and added not in st.session_state["cmp_tok"]:
    st.session_state["cmp_tok"] = [*st.session_state["cmp_tok"], added]
chosen: list[str] = pick_tokenizers(_("Tokenizers (grouped by vendor)"), "cmp_tok")
unsafe = st.toggle(
    _("Let typed special tokens become control tokens (what an unsafe app does)"),
    key="cmp_unsafe",
    help=_("Off (safe): text like <|endoftext|> or [INST] is encoded as plain text and flagged below."),
)
qp_sync(text=url_text(text), tok=",".join(chosen))


get = get_tokenizer

if not text:
    st.info(_("Type or paste some text above (or upload a .txt file) to compare tokenizers."))
elif not chosen:
    st.info(_("Choose at least one tokenizer."))
else:
    show_tokens(legend_html(current_lang()))
    # every chip is a link (a Tab stop): a keyboard reader can jump past them all to the table and the downloads
    skip = esc(_("Skip the token chips: to the table and the downloads"))
    st.html(f'<a class="tl-skip" href="#tl-cmp-table">{skip}</a>')
    max_tokens = DEFAULT_MAX_TOKENS // 3 if classroom() else DEFAULT_MAX_TOKENS
    rows = []
    spans: list[tuple[str, list[tuple[int, int]]]] = []  # each row's token spans, for the differences view
    names: list[str] = []  # shown in the table instead of the ids (the downloads keep the ids)
    shown_ids = ready(chosen)
    progress = LoadProgress(len(shown_ids))
    for index, tid in enumerate(shown_ids):
        entry = zoo.ENTRIES.get(tid)
        progress.step(index, _(entry.name) if entry else tid, loaded=tid in user or zoo.is_loaded(tid))
        try:
            tok = get(tid, quiet=True)
            enc = tok.encode(text, allow_special=unsafe)
        except (zoo.ZooError, ValueError) as exc:
            st.error(md_format(_("{tokenizer}: {error}"), tokenizer=tid, error=localize(exc)))
            continue
        summary = summarize(tok, enc)
        rows.append({**summary.as_row(), **measures.text_measures(tok, text)})
        spans.append((_(tok.name), enc.byte_spans))
        names.append(_(tok.name))
        st.markdown(md_format("#### {name}", name=_(tok.name)))
        shared = "".join(" · " + _("also used by {who}").format(who=localize(who)) for who in shared_by(tok.id))
        st.caption(md_format("{about}{shared}{note}", about=_("{algorithm} · vocabulary {count} · {licence} · {source}").format(
            algorithm=_(tok.entry.algorithm), count=num(tok.vocab_size), licence=localize(tok.entry.licence),
            source=localize(tok.entry.source)),
            shared=shared, note=" · " + localize(tok.entry.note) if tok.entry.note else ""))
        show_entry_audit(tok.entry)
        hits = tok.special_hits(text)
        if hits:
            spelled = ", ".join(sorted({h.text for h in hits}))
            if unsafe:
                st.error(md_format(_("{spelled} became control token(s) {ids}: a prompt-injection path."), spelled=spelled, ids=sorted({h.id for h in hits})))
            else:
                st.warning(md_format(_("The text spells control token(s) {spelled} of this tokenizer; encoded here as plain "
                             "text."), spelled=spelled))
        show_tokens(render_encoding(enc, max_tokens=max_tokens, link=chip_links(text, [i for i in chosen if i in zoo.ENTRIES]),
                                    **lang_args()))
        extra = md_format(" · " + _("unknown {count}"), count=num(summary.unknown)) if summary.unknown else ""
        trip = md_format(_("round trip ok") if summary.round_trip_ok else _("**round trip changes the text**"))
        st.markdown(md_format("{stats}{extra} · {trip}", stats=stats_line(stats(enc)), extra=extra, trip=trip))
    progress.done()
    if len(spans) > 1:
        show_differences(disagreement(text, spans))
    if rows:
        st.html('<div id="tl-cmp-table" tabindex="-1"></div>')
        st.markdown(_("#### Table"))
        df = pd.DataFrame(rows)  # exported with its English column names (scripts read them); shown translated
        # names on screen (the id column stays in the data, hidden: links and scripts use ids)
        show_table(for_reader(pd.concat([pd.DataFrame({"name": names}), df], axis=1)), hide_index=True, width="stretch",
                   column_config={"name": _("tokenizer"), "tokenizer": None, **tax_columns(df.columns[1:])})
        st.caption(md_escape(_(METRICS_NOTE)))
        # the downloads say what was measured: the file (or pasted text) and how much of it
        file_name, total = source_facts("cmp_text")
        facts = {"source": file_name or "pasted text", "chars total": total, "chars analysed": len(text)}
        exported = [{**r, **facts} for r in rows]
        buf = io.StringIO()
        pd.DataFrame(exported).to_csv(buf, index=False)
        c1, c2 = st.columns(2)
        c1.download_button(_("Download CSV"), buf.getvalue(), "tokenizer-compare.csv", "text/csv", on_click="ignore")
        c2.download_button(
            _("Download JSON"), json.dumps(exported, ensure_ascii=False, indent=2), "tokenizer-compare.json",
            "application/json", on_click="ignore"
        )
        report_button(text, [r["tokenizer"] for r in rows], get,
                      label=source_label("cmp_text", _("text on the compare page")))
