"""Merge replay: watch a BPE build its tokens, merge by merge, in its library's own order.

Every BPE of the shelf is offered (tiktoken ranks tables, ``tokenizer.json`` and GGUF files run by
``tokenizers``, SentencePiece BPE models), and the BPE tokenizers uploaded or trained in this session;
Unigram and WordPiece models are not, and the page says why.
"""
from __future__ import annotations

import pandas as pd
import streamlit as st

from core.i18n import N_
from core.markdown import md_escape, md_format
from core.pretrained import zoo
from core.pretrained.replay import (
    MAX_REPLAY_CHARS,
    ReplayError,
    offered,
    replay,
    replay_trained,
)
from core.render import piece_label, render_pieces
from core.text.boundaries import is_valid_utf8
from core.text.units import utf8_hex
from pages._bpe import bpe_trace
from pages._lang import _, lang_args, localize, ngettext, num
from pages._layout import page_header, show_table, show_tokens
from pages._links import chip_links
from pages._selector import (
    MAX_SAMPLE_MERGES,
    get_tokenizer,
    pick_one,
    ready,
    sample_corpus,
    session_tokenizers,
)
from pages._url import qp_init, qp_sync

PRETRAINED = [i for i, e in zoo.ENTRIES.items() if offered(e)]
#: Shelf entries that are not BPE, with their algorithm (the page says why they are not offered).
NOT_BPE = [e for e in zoo.ENTRIES.values() if not offered(e) and not e.built_in]
#: BPE trained in the app on the bundled shop sample (id -> unit).
TRAINED = {"bpe-sample-byte": "byte", "bpe-sample-cp": "codepoint"}
LABELS = {"bpe-sample-byte": N_("BPE trained here (bytes, shop sample)"),
          "bpe-sample-cp": N_("BPE trained here (code points, shop sample)")}
#: Columns of the merges table (shown translated).
COLUMNS = (N_("step"), N_("rank"), N_("piece id"), N_("score"), N_("left (hex)"), N_("right (hex)"), N_("merged"),
           N_("pieces after"))

page_header(
    _("Merge replay"),
    _("Every merge a BPE applies to your word, in its library's own order (merge rank, or SentencePiece's piece "
      "score), from single characters or bytes to the final tokens. The last line is checked against the library's "
      "own encode."),
)

session = {i: t for i, t in session_tokenizers().items() if t.replayable}
qp_init("rp_tok", "cl100k_base", param="tok", choices=PRETRAINED + list(session) + list(TRAINED))
qp_init("rp_text", "রাজশাহী", param="text", max_len=MAX_REPLAY_CHARS)
c1, c2 = st.columns([1, 2])
tid = pick_one(_("Tokenizer (BPE: ranks table, tokenizer.json, GGUF or SentencePiece)"), "rp_tok",
               only=lambda i: i in session or (i in zoo.ENTRIES and offered(zoo.ENTRIES[i])),
               extra={k: _(v) for k, v in LABELS.items()}, container=c1)
word = c2.text_input(_("Word or short text"), key="rp_text", max_chars=MAX_REPLAY_CHARS)
qp_sync(tok=tid, text=word)
c2.caption(md_format(_(
    "Not offered here: {names}, the baselines, and uploaded or trained Unigram or WordPiece tokenizers. They merge no "
    "pairs (Unigram picks the most likely cut over a lattice, WordPiece the longest vocabulary prefix), so there is "
    "nothing to replay: see the Unigram lattice and WordPiece stepper pages."), names=", ".join(f"{_(e.name).split(' (')[0]} ({'Unigram' if 'Unigram' in e.algorithm else 'WordPiece'})"
                    for e in NOT_BPE)))

if not ready([tid]):
    st.stop()
if not word:
    st.info(_("Type a word to replay, e.g. রাজশাহী, नमस्ते, Oʻzbekiston or tokenization."))
    st.stop()

try:
    if tid in TRAINED:
        result = replay_trained(bpe_trace(sample_corpus(), merges=MAX_SAMPLE_MERGES, unit=TRAINED[tid]), word)
    else:
        tok = get_tokenizer(tid)
        with st.spinner(_("Replaying {tokenizer}'s merges…").format(tokenizer=tid)):
            result = replay(tok, word)
except (zoo.ZooError, ReplayError, ValueError) as exc:
    st.error(md_escape(localize(exc)))
    st.stop()

steps = result.steps()
n = len(steps)
key = f"rp_step::{tid}::{word}"
if key not in st.session_state:
    st.session_state[key] = n  # start at the end result; step back to see how it was built


def _move(delta: int) -> None:
    st.session_state[key] = min(n, max(0, st.session_state[key] + delta))


# (keyed: in a right-to-left interface the row stays left to right like the slider under it, assets/rtl.css)
b1, b2, b3, b4, _spacer = st.container(key="rp_step_row").columns([1, 1, 1, 1, 4])  # (not "_": the translation function)
b1.button(_("⏮ Start"), on_click=_move, args=(-n,), disabled=n == 0)
b2.button(_("◀ Back"), on_click=_move, args=(-1,), disabled=n == 0)
b3.button(_("Next ▶"), on_click=_move, args=(1,), disabled=n == 0)
b4.button(_("End ⏭"), on_click=_move, args=(n,), disabled=n == 0)
if n:
    st.slider(_("Merge step"), 0, n, key=key)
k = st.session_state[key]

pieces = list(result.initial) if k == 0 else list(steps[k - 1].pieces)
units = localize(result.units)
if k == 0:
    st.markdown(md_format(ngettext("**Step 0 of {steps}**: {count} {units}, split by the pre-tokenizer into {pieces} piece.",
                         "**Step 0 of {steps}**: {count} {units}, split by the pre-tokenizer into {pieces} pieces.",
                         len(result.pieces)), steps=num(n), count=num(len(pieces)), units=units, pieces=num(len(result.pieces))))
else:
    s = steps[k - 1]
    if s.kind == "merge":
        if is_valid_utf8(s.left + s.right):  # whole characters: as text, an invisible one by name (‹ZWNJ›)
            merged = md_format("“{text}”", text=piece_label(s.left + s.right))
        else:
            merged = md_format(_("`{hex}` (not a whole character yet)"), hex=utf8_hex(s.left + s.right))
        how = (md_format(_("the piece with score **{score}** (id {id})"), score=f"{s.score:g}", id=s.rank)
               if s.score is not None else md_format(_("merge rank **{rank}**"), rank=num(s.rank)))
        st.markdown(md_format(ngettext("**Step {step} of {steps}**: {how} joins `{left}` + `{right}` → {merged} · {count} piece", "**Step {step} of {steps}**: {how} joins `{left}` + `{right}` → {merged} · {count} pieces", len(pieces)), step=num(k), steps=num(n), how=how, left=piece_label(s.left), right=piece_label(s.right), merged=merged, count=num(len(pieces))))
    elif s.kind == "byte-fallback":
        st.markdown(md_format(ngettext("**Step {step} of {steps}**: pieces outside the vocabulary become their UTF-8 bytes (byte "
                               "fallback) · {count} piece",
                               "**Step {step} of {steps}**: pieces outside the vocabulary become their UTF-8 bytes (byte "
                               "fallback) · {count} pieces", len(pieces)), step=num(k), steps=num(n), count=num(len(pieces))))
    elif s.kind == "resegment":
        st.markdown(md_format(ngettext("**Step {step} of {steps}**: pieces marked unused are split back into the pieces they "
                               "were made of · {count} piece",
                               "**Step {step} of {steps}**: pieces marked unused are split back into the pieces they "
                               "were made of · {count} pieces", len(pieces)), step=num(k), steps=num(n), count=num(len(pieces))))
    else:
        st.markdown(md_format(_("**Step {step} of {steps}**: the whole piece is one vocabulary entry (id {id}); the library "
                      "takes it directly."), step=num(k), steps=num(n), id=s.rank))
# a chip opens the word inspector on its word (with this tokenizer when it is a pretrained one)
link = chip_links(word, [tid] if tid in zoo.ENTRIES else []) if b"".join(pieces) == word.encode("utf-8") else None
show_tokens(render_pieces(pieces, show_ids=False, link=link, **lang_args()))

for k_piece, note in result.piece_notes():
    where = (_("piece {index} ({text})").format(index=k_piece + 1, text=repr(result.pieces[k_piece].text))
             if k_piece >= 0 else _("character {index}").format(index=note.offset + 1))
    st.warning(md_format(_("At {where}: {note}. The replay follows the model."), where=where, note=localize(note.message)))

final_ok = result.matches_library
st.markdown(
    md_format(_("**Final:** {count} tokens {ids} · library encode: {library} · {verdict}"), count=num(len(result.final_ids)), ids=result.final_ids, library=list(result.library_ids), verdict=md_format(_("**identical** ✓") if final_ok else _("**DIFFERENT** ✗")))
)

with st.expander(md_format(ngettext("All {count} merge", "All {count} merges", n), count=num(n)), expanded=False):
    show_table(
        pd.DataFrame(
            [
                {
                    "step": i + 1,
                    **({"piece id": s.rank, "score": s.score} if result.scored else {"rank": s.rank}),
                    "left (hex)": utf8_hex(s.left),
                    "right (hex)": utf8_hex(s.right),
                    "merged": (s.left + s.right).decode("utf-8", errors="replace") if s.kind == "merge" else f"({s.kind})",
                    "pieces after": len(s.pieces),
                }
                for i, s in enumerate(steps)
            ]
        ),
        hide_index=True,
        width="stretch",
        column_config={c: _(c) for c in COLUMNS},
    )
if result.order is None:  # a BPE trained here: its learned order
    st.caption(md_format(_("{tokenizer}: merges apply in the order they were learned (rank = merge number, 0 first). Pieces "
                 "never seen in training have id -1."), tokenizer=_(LABELS[tid])))
else:
    st.caption(md_format(_("{tokenizer}: {order} Hex chips are bytes that are not a whole character yet."), tokenizer=_(tok.name), order=localize(result.order)))
