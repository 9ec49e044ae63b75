"""BPE stepper: train on a small corpus and walk through the merges one by one."""
from __future__ import annotations

import html
import time

import streamlit as st

from core.analysis.inspect import chip_links, piece_links
from core.models.bpe import TIE_BREAKS, UNITS, BpeInputError, decode, encode_trace
from core.pipeline.pretokenize import PATTERNS, PatternError, pretokenize
from core.render import piece_label, render_pieces
from pages._charts import COLOURS, Series, line_chart
from pages._shared import (
    LEARN_LANGS,
    LEARN_WORDS,
    bpe_trace,
    classroom,
    decode_upload,
    learn_lines,
    limit_text,
    md_escape,
    md_format,
    page_header,
    qp_init,
    qp_sync,
    sample,
    show_tokens,
    url_text,
)
from pages._stepkeys import step_keys

CORPORA = {
    "toy": "Eight-word table",
    "shop_bn": "Bangla shop text",
    "shop_en": "English translation",
    "hi": "Hindi sample",
    "fa": "Persian sample",
    "uz": "Uzbek sample",
    "paste": "Paste text",
    "upload": "Upload a .txt",
}
UNIT_LABELS = {"codepoint": "Code points", "byte": "UTF-8 bytes"}
TIE_LABELS = {"first-seen": "First seen in the corpus (textbook, minbpe)", "hf": "Hugging Face (smallest ids)"}
SPEEDS = {"slow": 1.5, "normal": 0.7, "fast": 0.25}
MAX_MERGES = 5000
MAX_WORDS_SHOWN = 150
MAX_ENCODE_PIECES = 8

page_header(
    "BPE stepper",
    "Train byte-pair encoding on a small corpus and step through it merge by merge: which pair wins, how the "
    "corpus shrinks, how every word is cut now, and how a new word is encoded with what was learned.",
)

# ---------------------------------------------------------------- settings
qp_init("st_corpus", "toy", param="corpus", choices=CORPORA)
qp_init("st_unit", "codepoint", param="unit", choices=UNITS)
qp_init("st_pattern", "ws-attached", param="pattern", choices=PATTERNS)
qp_init("st_tie", "first-seen", param="tie", choices=TIE_BREAKS)
qp_init("st_merges", 10, param="merges", cast=int, lo=1, hi=MAX_MERGES)

CLASSROOM = classroom()
# On a projector the steps matter, not the settings: they fold away (a link or the URL keeps them).
settings = st.expander("Settings: corpus, unit, pre-tokenizer, tie-break, merges", expanded=False) if CLASSROOM \
    else st.container(border=True)
with settings:
    corpus_kind = st.radio("Corpus", list(CORPORA), key="st_corpus", format_func=CORPORA.get, horizontal=True)
    words_spec: str | None = None
    corpus_text = ""
    source_note = ""
    if corpus_kind == "toy":
        qp_init("st_words", sample("toy_words"), param="words")
        words_spec = st.text_input("Word table (WORD:COUNT, comma-separated)", key="st_words",
                                   help="Each word is trained as it is; the pre-tokenizer pattern is not used.")
    elif corpus_kind in ("shop_bn", "shop_en", *LEARN_LANGS):
        corpus_text = sample(corpus_kind) if corpus_kind.startswith("shop") else "\n".join(learn_lines(corpus_kind))
        with st.expander("Show the corpus"):
            st.text(corpus_text)
    elif corpus_kind == "paste":
        qp_init("st_text", "", param="text")
        corpus_text = limit_text(st.text_area("Corpus text", key="st_text", height=120))
    else:
        up = st.file_uploader("Upload a UTF-8 .txt file", type=["txt", "text", "md"], key="st_upload",
                              max_upload_size=5)
        if up is not None:
            decoded, err = decode_upload(up.getvalue(), up.name)
            if err:
                st.error(md_escape(err))
            else:
                corpus_text = limit_text(decoded or "")
                source_note = md_format("Training on “{name}” ({n:,} characters).", name=up.name, n=len(corpus_text))
    if source_note:
        st.caption(md_escape(source_note))

    c1, c2, c3, c4 = st.columns(4)
    unit = c1.selectbox("Unit", UNITS, key="st_unit", format_func=UNIT_LABELS.get)
    pattern = c2.selectbox("Pre-tokenizer", list(PATTERNS), key="st_pattern",
                           disabled=corpus_kind == "toy",
                           help="The split regex applied before counting pairs; merges never cross its cuts.")
    tie = c3.selectbox("Tie-break", TIE_BREAKS, key="st_tie", format_func=TIE_LABELS.get)
    merges = c4.number_input("Merges", 1, MAX_MERGES, key="st_merges", step=1)
    by_token = st.toggle("Colour by token", key="st_colour", value=True,
                         help="On: the same token has the same colour in every row of the word table, so repeated "
                              "tokens stand out. Off: colours alternate by position (neighbours always differ).")
    colour_by = "token" if by_token else "position"

if corpus_kind != "toy" and not corpus_text.strip():
    st.info("Give the stepper some text to train on (paste it or upload a .txt file).")
    qp_sync(corpus=corpus_kind, unit=unit, pattern=pattern, tie=tie, merges=merges)
    st.stop()

try:
    trace = bpe_trace(corpus_text, words=words_spec, merges=int(merges), unit=unit, tie_break=tie,
                      pattern="ws-attached" if corpus_kind == "toy" else pattern)
except (BpeInputError, PatternError) as exc:
    st.error(md_format("Cannot train on this input: {exc}", exc=exc))
    st.stop()

n = len(trace.steps)
if n < merges:
    st.caption(md_format("Training stopped after {n} merges: no adjacent pair was left to merge.", n=n))

# ---------------------------------------------------------------- step state
qp_init("step", 0, cast=int, lo=0, hi=n)
pending = st.session_state.pop("_st_pending_step", None)
if pending is not None:
    st.session_state["step"] = pending
if st.session_state.pop("_st_stop_play", False):
    st.session_state["st_play"] = False
st.session_state["step"] = max(0, min(n, int(st.session_state["step"])))


def _go(delta: int | None = None, to: int | None = None) -> None:
    cur = st.session_state.get("step", 0)
    st.session_state["step"] = max(0, min(n, to if to is not None else cur + (delta or 0)))


b1, b2, b3, b4, b5, b6 = st.columns([1, 1, 1, 1, 1, 2])
# In the browser, clicks on these four and the keys ← → Home End go through step_keys (pages/_stepkeys.py),
# which queues them so none is lost; on_click serves AppTest and scripts without JavaScript.
b1.button("⏮ First", key="step_first", on_click=_go, kwargs={"to": 0}, width="stretch", help="Home key")
b2.button("◀ Previous", key="step_prev", on_click=_go, kwargs={"delta": -1}, width="stretch", help="← key")
b3.button("Next ▶", key="step_next", on_click=_go, kwargs={"delta": 1}, width="stretch", help="→ key")
b4.button("Last ⏭", key="step_last", on_click=_go, kwargs={"to": n}, width="stretch", help="End key")
step_keys(n, st.session_state["step"], page=id(trace))
playing = b5.toggle("Play", key="st_play", help="Apply one merge after another.")
speed = b6.select_slider("Speed", list(SPEEDS), value="normal", key="st_speed", label_visibility="collapsed")
if n > 0:
    st.slider("Merges applied", 0, n, key="step", label_visibility="collapsed" if CLASSROOM else "visible")
step: int = st.session_state["step"]
qp_sync(corpus=corpus_kind, words=words_spec if corpus_kind == "toy" else None,
        text=url_text(corpus_text) if corpus_kind == "paste" else None,
        unit=unit, pattern=None if corpus_kind == "toy" else pattern, tie=tie, merges=merges, step=step)




def progress_chart(trace, step: int) -> str:
    """Total tokens and vocabulary size against merges, the current step marked (inline SVG)."""
    xs = list(range(len(trace.steps) + 1))
    totals = [trace.initial_total_tokens] + [s.total_tokens for s in trace.steps]
    vocab = [trace.initial_vocab_size] + [s.vocab_size for s in trace.steps]
    return line_chart(
        [Series("total tokens", xs, totals, COLOURS[0]),
         Series("vocabulary size", xs, vocab, COLOURS[1], dash="6 4", axis="y2")],
        x_title="merges", y_title="total tokens", y2_title="vocabulary", marker_x=step, marker_label=f"step {step}",
        height=260,
    )


# ---------------------------------------------------------------- watch panel
def chip(piece: bytes) -> str:
    return render_pieces([piece], show_ids=False)


if step == 0:
    nxt = f" · next: {chip(trace.steps[0].left)} + {chip(trace.steps[0].right)} ({trace.steps[0].count})" if n else ""
    watch = (f"<b>Start</b>: no merges yet · total tokens <b>{trace.initial_total_tokens:,}</b> · "
             f"vocabulary <b>{trace.initial_vocab_size:,}</b>{nxt}")
else:
    s = trace.steps[step - 1]
    watch = (f"<b>Merge {step}</b> of {n}: {chip(s.left)} + {chip(s.right)} → {chip(s.merged)} · "
             f"count <b>{s.count:,}</b> · total tokens <b>{s.total_tokens:,}</b> · vocabulary <b>{s.vocab_size:,}</b>")
st.html(f'<div class="tl-watch" data-testid="tl-watch">{watch}</div>')

left, right = st.columns([3, 2])
with left:
    st.subheader("Every word now", divider="gray")
    rows = []
    for word, freq in trace.words[:MAX_WORDS_SHOWN]:
        pieces = trace.segment(word, step)
        rows.append(
            f'<tr><td class="tl-num">{freq:,}</td><td class="tl-num">{len(pieces)}</td>'
            f"<td>{render_pieces(pieces, ids=[trace.vocab.get(p) for p in pieces], link=chip_links(word), colour_by=colour_by)}</td></tr>"
        )
    st.html(
        '<table class="tl-words tl-seg"><thead><tr><th class="tl-num">×</th><th class="tl-num">tokens</th>'
        f'<th>segmentation after {step} merge{"s" if step != 1 else ""}</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
    if len(trace.words) > MAX_WORDS_SHOWN:
        st.caption(md_format("Showing the first {MAX_WORDS_SHOWN} of {n_words:,} distinct words.",
                             MAX_WORDS_SHOWN=MAX_WORDS_SHOWN, n_words=len(trace.words)))

with right:
    if n:
        shown_step = max(step, 1)
        st.subheader(md_format("Pair counts before merge {shown_step}", shown_step=shown_step), divider="gray")
        top = trace.steps[shown_step - 1].top_pairs
        pair_rows = "".join(
            f'<tr class="{"tl-won" if i == 0 else ""}"><td>{chip(p.left)}</td><td>{chip(p.right)}</td>'
            f'<td class="tl-num">{p.count:,}</td><td>{"✓ merged" if i == 0 else ""}</td></tr>'
            for i, p in enumerate(top)
        )
        st.html('<table class="tl-pairs" data-testid="tl-pairs"><thead><tr><th>left</th><th>right</th>'
                f'<th class="tl-num">count</th><th></th></tr></thead><tbody>{pair_rows}</tbody></table>')
    st.html(progress_chart(trace, step))

# ---------------------------------------------------------------- encode a new word
st.subheader(md_format("Encode new text with the first {step} merges", step=step), divider="gray")
st.caption("Merges are applied in the order they were learned, each to every place it fits; decoding joins the bytes.")
default_new = {"shop_en": "Bazargharer", **{k: w for k, w in LEARN_WORDS.items() if k != "bn"}}.get(corpus_kind, "বাজারঘর")
new_text = st.text_input("Text to encode", default_new, key=f"st_new_{corpus_kind}", max_chars=200)
if new_text:
    rank = trace.rank_of(step)
    final: list[bytes] = []
    final_spans: list[tuple[int, int]] = []  # where in new_text each final piece's pre-tokenized piece lies
    spans = pretokenize(new_text, trace.pattern)
    pieces = [p.text for p in spans]
    for piece, span in zip(pieces[:MAX_ENCODE_PIECES], spans):
        et = encode_trace(piece, rank, unit=trace.unit, mode="learned-order")
        link = chip_links(new_text, offset=span.start)  # a chip opens the word inspector on its word
        rows = [f"<tr><td>start</td><td>{render_pieces(list(et.initial), link=link)}</td></tr>"]
        for es in et.steps:
            rows.append(
                f"<tr><td>merge {es.rank + 1}: {html.escape(piece_label(es.left))} + "
                f"{html.escape(piece_label(es.right))}</td><td>{render_pieces(list(es.pieces_after), link=link)}</td></tr>"
            )
        st.html(f'<table class="tl-enc-steps">{"".join(rows)}</table>')
        final.extend(et.final)
        final_spans.extend([(span.start, span.end)] * len(et.final))
    if len(pieces) > MAX_ENCODE_PIECES:
        st.caption(md_format("Showing the first {MAX_ENCODE_PIECES} of {n_pieces} pre-tokenized pieces.",
                             MAX_ENCODE_PIECES=MAX_ENCODE_PIECES, n_pieces=len(pieces)))
    else:
        st.markdown(md_format("**{n_final} tokens**, ids {v}", n_final=len(final), v=[trace.vocab.get(p) for p in final]))
        show_tokens(render_pieces(final, ids=[trace.vocab.get(p) for p in final],
                                  link=piece_links(new_text, final, final_spans)))
        back = decode(final)
        if back == new_text:
            st.success(md_format("Round trip: decode(encode(text)) = “{back}” — identical to the input.",
                                 back=back))
        else:
            st.error(md_format("Round trip failed: decode gives “{back}”, not the input (this pre-tokenizer drops "
                               "some characters, e.g. whitespace).",
                               back=back))

# ---------------------------------------------------------------- play
if playing:
    if step >= n:
        st.session_state["_st_stop_play"] = True
        st.rerun()
    time.sleep(SPEEDS[speed])
    st.session_state["_st_pending_step"] = step + 1
    st.rerun()
