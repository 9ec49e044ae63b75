"""Paste and see: one text, several tokenizers, every cut visible."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from core.markdown import md_escape, md_format
from core.render import DEFAULT_MAX_TOKENS, legend_html
from core.text.disagree import disagreement
from pages._controls import classroom
from pages._differences import show_differences
from pages._lang import _, current_lang, localize, ngettext, num
from pages._layout import METRICS_NOTE, for_reader, page_header, show_table, show_tokens, stats_line
from pages._samples import sample
from pages._selector import (
    LoadProgress,
    byte_spans_cached,
    encode_cached,
    get_tokenizer,
    is_loaded,
    option_label,
    ready,
    tokenizer_options,
)
from pages._text_input import text_input
from pages._url import qp_init, qp_sync, url_text

DEFAULT_TOKENIZERS = ["codepoints", "bytes", "words", "bpe-sample-cp"]
DEFAULT_MERGES = 200

page_header(
    _("Paste and see"),
    _("Paste text and see where each tokenizer cuts it. Cuts inside a letter and bytes that are only part of a "
      "character are marked, because they are where models lose track of non-English text."),
)

default_text = sample("shop_bn").splitlines()[1] + "\n" + sample("shop_en").splitlines()[1]
text = text_input("home_text", default_text, label=_("Text to tokenize"))

options = tokenizer_options()
ids = list(options)
qp_init("home_tok", [i for i in DEFAULT_TOKENIZERS if i in options], param="tok",
        cast=lambda s: [i for i in s.split(",") if i in options])
chosen: list[str] = st.multiselect(
    _("Tokenizers"),
    ids,
    key="home_tok",
    format_func=lambda i: option_label(options[i]),
    placeholder=_("Choose…"),
    help=_("Baselines and BPE trained on the bundled sample; pretrained tokenizers join this list as they are added."),
)
size = None
if any(options[i].sized for i in chosen):
    qp_init("home_merges", DEFAULT_MERGES, param="merges", cast=int, lo=0, hi=500, step=10)
    size = st.slider(_("BPE merges (for tokenizers trained here)"), 0, 500, key="home_merges", step=10,
                     help=_("Merges learned on the bundled shop text (Bangla + English). That text runs out of "
                            "pairs after about 470 (code points) or 520 (bytes) merges; the name shows the real count."))

qp_sync(text=url_text(text), tok=",".join(chosen), merges=size)

if not text:
    st.info(_("Type or paste some text above (or upload a .txt file) to see it tokenized."))
elif not chosen:
    st.info(_("Choose at least one tokenizer."))
else:
    show_tokens(legend_html(current_lang()))
    max_tokens = DEFAULT_MAX_TOKENS // 3 if classroom() else DEFAULT_MAX_TOKENS
    spans: list[tuple[str, list[tuple[int, int]]]] = []  # each row's token spans, for the differences view
    drawn = []  # (option id, option, stats, chips): the summary table comes first, so many tokenizers are compared at a glance
    shown_ids = ready(chosen)  # a shelf entry not installed: a notice with the command, not an error
    progress = LoadProgress(len(shown_ids))
    for index, option_id in enumerate(shown_ids):
        opt = options[option_id]
        opt_size = size if opt.sized else None
        progress.step(index, _(opt.label), loaded=is_loaded(option_id, opt_size))
        try:
            get_tokenizer(option_id, opt_size, quiet=True)  # loaded here, under the message, not in a spinner
            st_stats, chips, _name = encode_cached(option_id, size if opt.sized else None, text, max_tokens)
        except Exception as exc:  # a tokenizer failing must not take the page down
            st.error(md_format(_("{tokenizer}: could not encode this text ({error})."), tokenizer=_(opt.label), error=f"{type(exc).__name__}: {localize(exc)}"))
            continue
        drawn.append((option_id, opt, st_stats, chips))
    progress.done()
    if len(drawn) > 1:
        df = pd.DataFrame([{"tokenizer": _(opt.label), **s.as_row()} for _id, opt, s, _chips in drawn])
        show_table(for_reader(df), hide_index=True, width="stretch", column_config={c: _(c) for c in df.columns},
                     key="home_summary")
    if drawn:
        st.caption(md_escape(_(METRICS_NOTE)))
    for option_id, opt, st_stats, chips in drawn:
        # the option's own label, translated ("Code points" is a baseline's name, not a proper name)
        if opt.sized and size:
            st.subheader(md_format(ngettext("{name} · {count} merge", "{name} · {count} merges", size),
                                   name=_(opt.label), count=num(size)), divider="gray")
        else:
            st.subheader(md_escape(_(opt.label)), divider="gray")
        st.markdown(md_escape(stats_line(st_stats)))
        show_tokens(chips)
        spans.append((_(opt.label), byte_spans_cached(option_id, size if opt.sized else None, text)))
    if len(spans) > 1:
        show_differences(disagreement(text, spans))
