"""BPE stepper: train on a small corpus and walk through the merges one by one."""
from __future__ import annotations

import html
import time

import streamlit as st

from core import languages
from core.i18n import N_
from core.markdown import md_escape, md_format
from core.models.bpe import TIE_BREAKS, UNITS, BpeInputError, decode, encode_trace
from core.pipeline.pretokenize import PATTERNS, PatternError, pretokenize
from core.render import piece_label, render_pieces
from core.text.bidi import text_direction
from pages._bpe import bpe_trace
from pages._charts import COLOURS, Series, line_chart
from pages._controls import classroom
from pages._lang import _, lang_args, localize, ngettext, num
from pages._layout import esc, page_header, show_tokens
from pages._links import chip_links, piece_links
from pages._samples import language_name, learn_lines, sample
from pages._stepkeys import step_keys
from pages._text_input import decode_upload, limit_text
from pages._url import qp_init, qp_sync, url_text

#: The corpora before the learning samples (the home language's shop text and its English translation) and after
#: them (the reader's own text), shown translated; between them the other learning languages' samples.
CORPORA_FIRST = {"toy": N_("Eight-word table"), "shop_bn": N_("Bangla shop text"), "shop_en": N_("English translation")}
CORPORA_LAST = {"paste": N_("Paste text"), "upload": N_("Upload a .txt")}
CORPORA = [*CORPORA_FIRST, *languages.others(), *CORPORA_LAST]


def corpus_label(key: str) -> str:
    """A corpus's name in the reader's language (a learning sample is "<language> sample")."""
    if key in languages.LANGUAGES:
        return _("{language} sample").format(language=_(language_name(key)))
    return _({**CORPORA_FIRST, **CORPORA_LAST}[key])


UNIT_LABELS = {"codepoint": N_("Code points"), "byte": N_("UTF-8 bytes")}
TIE_LABELS = {"first-seen": N_("First seen in the corpus (textbook, minbpe)"), "hf": N_("Hugging Face (smallest ids)")}
SPEED_LABELS = {"slow": N_("slow"), "normal": N_("normal"), "fast": N_("fast")}
SPEEDS = {"slow": 1.5, "normal": 0.7, "fast": 0.25}
MAX_MERGES = 5000
MAX_WORDS_SHOWN = 150
MAX_ENCODE_PIECES = 8

page_header(
    _("BPE stepper"),
    _("Train byte-pair encoding on a small corpus and step through it merge by merge: which pair wins, how the "
      "corpus shrinks, how every word is cut now, and how a new word is encoded with what was learned."),
)

# ---------------------------------------------------------------- settings
qp_init("st_corpus", "toy", param="corpus", choices=CORPORA)
qp_init("st_unit", "codepoint", param="unit", choices=UNITS)
qp_init("st_pattern", "ws-attached", param="pattern", choices=PATTERNS)
qp_init("st_tie", "first-seen", param="tie", choices=TIE_BREAKS)
qp_init("st_merges", 10, param="merges", cast=int, lo=1, hi=MAX_MERGES)

CLASSROOM = classroom()
# On a projector the steps matter, not the settings: they fold away (a link or the URL keeps them), and the key hint
# shares their row, so the word table starts higher on the first screen.
hint_col = None
if CLASSROOM:
    settings_col, hint_col = st.columns([1.6, 1], vertical_alignment="center")
    settings = settings_col.expander(_("Settings: corpus, unit, pre-tokenizer, tie-break, merges"), expanded=False)
    hint_col = hint_col.container(key="st_hint")
else:
    settings = st.container(border=True)
with settings:
    corpus_kind = st.radio(_("Corpus"), CORPORA, key="st_corpus", format_func=corpus_label,
                           horizontal=True)
    words_spec: str | None = None
    corpus_text = ""
    source_note = ""
    if corpus_kind == "toy":
        qp_init("st_words", sample("toy_words"), param="words")
        words_spec = st.text_input(_("Word table (WORD:COUNT, comma-separated)"), key="st_words",
                                   help=_("Each word is trained as it is; the pre-tokenizer pattern is not used."))
    elif corpus_kind in ("shop_bn", "shop_en", *languages.others()):
        corpus_text = sample(corpus_kind) if corpus_kind.startswith("shop") else "\n".join(learn_lines(corpus_kind))
        with st.expander(_("Show the corpus")):
            st.text(corpus_text)
    elif corpus_kind == "paste":
        qp_init("st_text", "", param="text")
        corpus_text = limit_text(st.text_area(_("Corpus text"), key="st_text", height=120))
    else:
        up = st.file_uploader(_("Upload a UTF-8 .txt file"), type=["txt", "text", "md"], key="st_upload",
                              max_upload_size=5)
        if up is not None:
            decoded, err = decode_upload(up.getvalue(), up.name)
            if err:
                st.error(md_escape(err))
            else:
                corpus_text = limit_text(decoded or "")
                source_note = ngettext("Training on “{name}” ({count} character).",
                                       "Training on “{name}” ({count} characters).", len(corpus_text)).format(
                    name=up.name, count=num(len(corpus_text)))
    if source_note:
        st.caption(md_escape(source_note))

    # on a projector the tie-break (the longest choice) has a row of its own, so no choice is cut off
    if CLASSROOM:
        c3 = st.container()
        c1, c2, c4 = st.columns(3)
    else:
        c1, c2, c3, c4 = st.columns(4)
    unit = c1.selectbox(_("Unit"), UNITS, key="st_unit", format_func=lambda u: _(UNIT_LABELS[u]))
    pattern = c2.selectbox(_("Pre-tokenizer"), list(PATTERNS), key="st_pattern",
                           disabled=corpus_kind == "toy",
                           help=_("The split regex applied before counting pairs; merges never cross its cuts."))
    tie = c3.selectbox(_("Tie-break"), TIE_BREAKS, key="st_tie", format_func=lambda t: _(TIE_LABELS[t]))
    merges = c4.number_input(_("Merges"), 1, MAX_MERGES, key="st_merges", step=1)
    by_token = st.toggle(_("Colour by token"), key="st_colour", value=True,
                         help=_("On: the same token has the same colour in every row of the word table, so repeated "
                                "tokens stand out. Off: colours alternate by position (neighbours always differ)."))
    colour_by = "token" if by_token else "position"

if corpus_kind != "toy" and not corpus_text.strip():
    st.info(_("Give the stepper some text to train on (paste it or upload a .txt file)."))
    qp_sync(corpus=corpus_kind, unit=unit, pattern=pattern, tie=tie, merges=merges)
    st.stop()

try:
    trace = bpe_trace(corpus_text, words=words_spec, merges=int(merges), unit=unit, tie_break=tie,
                      pattern="ws-attached" if corpus_kind == "toy" else pattern)
except (BpeInputError, PatternError) as exc:
    st.error(md_format(_("Cannot train on this input: {error}"), error=localize(exc)))
    st.stop()

n = len(trace.steps)
if n < merges:
    st.caption(md_format(ngettext("Training stopped after {count} merge: no adjacent pair was left to merge.",
                        "Training stopped after {count} merges: no adjacent pair was left to merge.", n), count=num(n)))

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


# On a projector the step slider takes the speed's place in the buttons' row (the speed folds away with the
# settings), so the word table starts on the first screen and no button label is cut.
# (keyed: in a right-to-left interface the row stays left to right like the step slider, assets/rtl.css)
b1, b2, b3, b4, b5, b6 = st.container(key="st_step_row").columns([1.1, 1.4, 1.1, 1.1, 1.1, 3.5] if CLASSROOM else [1, 1, 1, 1, 1, 2])
# In the browser, clicks on these four and the keys ← → Home End go through step_keys (pages/_stepkeys.py),
# which queues them so none is lost; on_click serves AppTest and scripts without JavaScript.
b1.button(_("⏮ First"), key="step_first", on_click=_go, kwargs={"to": 0}, width="stretch", help=_("Home key"))
b2.button(_("◀ Previous"), key="step_prev", on_click=_go, kwargs={"delta": -1}, width="stretch", help=_("← key"))
b3.button(_("Next ▶"), key="step_next", on_click=_go, kwargs={"delta": 1}, width="stretch", help=_("→ key"))
b4.button(_("Last ⏭"), key="step_last", on_click=_go, kwargs={"to": n}, width="stretch", help=_("End key"))
playing = b5.toggle(_("Play"), key="st_play", help=_("Apply one merge after another."))
# the key handler draws nothing, but each of its two elements would add a row gap under the buttons (pushing the word
# table off a projector's first screen): its box is not displayed (app.css), its scripts run all the same
with b5, st.container(key="st_stepkeys_box"):
    step_keys(n, st.session_state["step"], page=id(trace))
speed = (settings if CLASSROOM else b6).select_slider(
    _("Speed"), list(SPEEDS), value="normal", key="st_speed", label_visibility="visible" if CLASSROOM else "collapsed",
    format_func=lambda v: _(SPEED_LABELS[v]))
if n > 0:
    (b6 if CLASSROOM else st).slider(_("Merges applied"), 0, n, key="step",
                                     label_visibility="collapsed" if CLASSROOM else "visible")
if hint_col is not None:
    hint_col.caption(_("Keys: ← and → step back and forward, Home and End jump to the start and the end."))
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
        [Series(_("total tokens"), xs, totals, COLOURS[0]),
         Series(_("vocabulary size"), xs, vocab, COLOURS[1], dash="6 4", axis="y2")],
        x_title=_("merges"), y_title=_("total tokens"), y2_title=_("vocabulary"), marker_x=step,
        marker_label=_("step {step}").format(step=step),
        # on a projector the chart is drawn small and scaled up to its column, so its labels grow with it
        # (11 px ticks at 640 wide came out near 7.6 px in a 440 px column)
        **({"width": 320, "height": 210} if CLASSROOM else {"height": 260}),
    )


# ---------------------------------------------------------------- watch panel
def chip(piece: bytes) -> str:
    return render_pieces([piece], show_ids=False, **lang_args())


def _b(value: object) -> str:
    return f"<b>{esc(value)}</b>"


# templates are escaped first, then the chips (HTML from core.render) and bold numbers go into their fields
def pair(left: bytes, right: bytes) -> str:
    """``left + right`` in the direction of their own script: a Bangla pair reads ◌া + র on a Persian page too."""
    where = text_direction((left + right).decode("utf-8", "replace"))
    return f'<span class="tl-pair" dir="{where}">{chip(left)} + {chip(right)}</span>'


if step == 0:
    nxt = " · " + esc(_("next: {pair} ({count})")).format(
        pair=pair(trace.steps[0].left, trace.steps[0].right), count=esc(num(trace.steps[0].count))) if n else ""
    watch = esc(_("{start}: no merges yet · total tokens {total} · vocabulary {vocab}")).format(
        start=_b(_("Start")), total=_b(num(trace.initial_total_tokens)), vocab=_b(num(trace.initial_vocab_size))) + nxt
else:
    s = trace.steps[step - 1]
    watch = esc(_("{merge} of {count}: {pair} → {merged} · count {pairs} · total tokens {total} · "
                  "vocabulary {vocab}")).format(
        merge=_b(_("Merge {step}").format(step=step)), count=esc(num(n)), pair=pair(s.left, s.right),
        merged=chip(s.merged), pairs=_b(num(s.count)), total=_b(num(s.total_tokens)), vocab=_b(num(s.vocab_size)))
st.html(f'<div class="tl-watch" data-testid="tl-watch">{watch}</div>')

left, right = st.columns([3, 2])
with left:
    st.subheader(_("Every word now"), divider="gray")
    rows = []
    for word, freq in trace.words[:MAX_WORDS_SHOWN]:
        pieces = trace.segment(word, step)
        rows.append(
            f'<tr><td class="tl-num">{num(freq)}</td><td class="tl-num">{num(len(pieces))}</td>'
            f"<td>{render_pieces(pieces, ids=[trace.vocab.get(p) for p in pieces], link=chip_links(word), colour_by=colour_by, **lang_args())}</td></tr>"
        )
    tokens_head = _("tokens")
    seg_head = ngettext("segmentation after {count} merge", "segmentation after {count} merges", step).format(
        count=num(step))
    st.html(
        # the fixed layout takes column widths from the header: wide enough for its word ("tokenlar")
        '<table class="tl-words tl-seg"><thead><tr><th class="tl-num">×</th>'
        f'<th class="tl-num" style="width:{len(tokens_head) + 3}ch">' + esc(tokens_head) + "</th>"
        f"<th>{esc(seg_head)}</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )
    if len(trace.words) > MAX_WORDS_SHOWN:
        st.caption(md_format(_("Showing the first {shown} of {total} distinct words."), shown=num(MAX_WORDS_SHOWN), total=num(len(trace.words))))

with right:
    if n:
        shown_step = max(step, 1)
        st.subheader(md_format(_("Pair counts before merge {step}"), step=shown_step), divider="gray")
        top = trace.steps[shown_step - 1].top_pairs
        # before the first merge nothing is merged yet: the winner is the pair merged next
        won = _("✓ merged") if step else _("→ merged next")
        merged_mark, h_left, h_right, h_count = (esc(m) for m in (won, _("left"), _("right"), _("count")))
        # the winner's mark sits by its count and is explained under the table: a fourth column for one word made
        # the table spill out of its column with byte chips (Uzbek interface, step 4)
        glyph = "✓" if step else "→"
        pair_rows = "".join(
            f'<tr class="{"tl-won" if i == 0 else ""}"><td>{chip(p.left)}</td><td>{chip(p.right)}</td>'
            f'<td class="tl-num">{num(p.count)}{" " + glyph if i == 0 else ""}</td></tr>'
            for i, p in enumerate(top)
        )
        # the columns follow the corpus's own direction, not the interface's: in a right-to-left interface the
        # "left" piece of a Bangla pair stays on the left, so ◌া + র is not read as র ◌া
        pairs_dir = text_direction(" ".join(w for w, _f in trace.words[:50]))
        st.html(f'<table class="tl-pairs" dir="{pairs_dir}" data-testid="tl-pairs"><thead><tr><th>{h_left}</th>'
                f'<th>{h_right}</th><th class="tl-num">{h_count}</th></tr></thead>'
                f'<tbody>{pair_rows}</tbody><caption class="tl-pairs-key">{merged_mark}</caption></table>')
    st.html(progress_chart(trace, step))

# ---------------------------------------------------------------- encode a new word
st.subheader(md_format(ngettext("Encode new text with the first {count} merge", "Encode new text with the first {count} merges",
                      step), count=num(step)), divider="gray")
st.caption(_("Merges are applied in the order they were learned, each to every place it fits; decoding joins the "
             "bytes."))
default_new = {"shop_en": languages.ENGLISH.word, **{k: languages.LANGUAGES[k].word for k in languages.others()}}.get(
    corpus_kind, languages.HOME_WORD)
new_text = st.text_input(_("Text to encode"), default_new, key=f"st_new_{corpus_kind}", max_chars=200)
if new_text:
    rank = trace.rank_of(step)
    final: list[bytes] = []
    final_spans: list[tuple[int, int]] = []  # where in new_text each final piece's pre-tokenized piece lies
    spans = pretokenize(new_text, trace.pattern)
    pieces = [p.text for p in spans]
    for piece, span in zip(pieces[:MAX_ENCODE_PIECES], spans):
        et = encode_trace(piece, rank, unit=trace.unit, mode="learned-order")
        link = chip_links(new_text, offset=span.start)  # a chip opens the word inspector on its word
        start = esc(_("start"))
        rows = [f"<tr><td>{start}</td><td>{render_pieces(list(et.initial), link=link, colour_by=colour_by, **lang_args())}</td></tr>"]
        for es in et.steps:
            label = _("merge {rank}: {left} + {right}").format(rank=es.rank + 1, left=piece_label(es.left),
                                                                right=piece_label(es.right))
            rows.append(
                f"<tr><td>{html.escape(label)}</td><td>{render_pieces(list(es.pieces_after), link=link, colour_by=colour_by, **lang_args())}</td></tr>"
            )
        st.html(f'<table class="tl-enc-steps">{"".join(rows)}</table>')
        final.extend(et.final)
        final_spans.extend([(span.start, span.end)] * len(et.final))
    if len(pieces) > MAX_ENCODE_PIECES:
        st.caption(md_format(_("Showing the first {shown} of {total} pre-tokenized pieces."), shown=num(MAX_ENCODE_PIECES), total=num(len(pieces))))
    else:
        st.markdown(md_format(ngettext("**{count} token**, ids {ids}", "**{count} tokens**, ids {ids}", len(final)), count=num(len(final)), ids=[trace.vocab.get(p) for p in final]))
        show_tokens(render_pieces(final, ids=[trace.vocab.get(p) for p in final], colour_by=colour_by, **lang_args(),
                                  link=piece_links(new_text, final, final_spans)))
        back = decode(final)
        if back == new_text:
            st.success(md_format(_("Round trip: decode(encode(text)) = “{text}”, identical to the input."), text=back))
        else:
            st.error(md_format(_("Round trip failed: decode gives “{text}”, not the input (this pre-tokenizer drops some "
                       "characters, e.g. whitespace)."), text=back))

# ---------------------------------------------------------------- play
if playing:
    if step >= n:
        st.session_state["_st_stop_play"] = True
        st.rerun()
    time.sleep(SPEEDS[speed])
    st.session_state["_st_pending_step"] = step + 1
    st.rerun()
