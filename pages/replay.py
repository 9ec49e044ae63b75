"""Merge replay: watch a pretrained byte-level BPE build its tokens, merge by merge."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from core.analysis.inspect import chip_links
from core.i18n import N_
from core.pretrained import zoo
from core.pretrained.replay import MAX_REPLAY_CHARS, ReplayError, replay, replay_trained
from core.render import render_pieces
from core.text.units import utf8_hex
from pages._selector import MAX_SAMPLE_MERGES, pick_one, ready, sample_corpus
from pages._shared import _, bpe_trace, ngettext, num, page_header, qp_init, qp_sync, show_tokens

PRETRAINED = [i for i in zoo.PRETRAINED_IDS if zoo.ENTRIES[i].loader in ("tiktoken", "tekken")]
#: BPE trained in the app on the bundled shop sample (id -> unit).
TRAINED = {"bpe-sample-byte": "byte", "bpe-sample-cp": "codepoint"}
REPLAYABLE = PRETRAINED + list(TRAINED)
LABELS = {"bpe-sample-byte": N_("BPE trained here (bytes, shop sample)"),
          "bpe-sample-cp": N_("BPE trained here (code points, shop sample)")}

#: Columns of the merges table (shown translated).
COLUMNS = (N_("step"), N_("rank"), N_("left (hex)"), N_("right (hex)"), N_("merged"), N_("pieces after"))

page_header(
    _("Merge replay"),
    _("Every merge a pretrained byte-level BPE applies to your word, lowest rank first, from single UTF-8 bytes to "
      "the final tokens. The last line is checked against the library's own encode."),
)

qp_init("rp_tok", "cl100k_base", param="tok", choices=REPLAYABLE)
qp_init("rp_text", "রাজশাহী", param="text")
c1, c2 = st.columns([1, 2])
tid = pick_one(_("Tokenizer (byte-level BPE with a ranks table)"), "rp_tok", only=lambda i: i in PRETRAINED,
               extra={k: _(v) for k, v in LABELS.items()}, container=c1)
word = c2.text_input(_("Word or short text"), key="rp_text", max_chars=MAX_REPLAY_CHARS)
qp_sync(tok=tid, text=word)

if not ready([tid]):
    st.stop()
if not word:
    st.info(_("Type a word to replay, e.g. রাজশাহী, नमस्ते, Oʻzbekiston or tokenization."))
    st.stop()

try:
    if tid in TRAINED:
        result = replay_trained(bpe_trace(sample_corpus(), merges=MAX_SAMPLE_MERGES, unit=TRAINED[tid]), word)
    else:
        with st.spinner(_("Loading {tokenizer} (first use only)…").format(tokenizer=tid)):
            tok = zoo.load(tid)
        result = replay(tok, word)
except (zoo.ZooError, ReplayError, ValueError) as exc:
    st.error(str(exc))
    st.stop()

steps = result.steps()
n = len(steps)
key = f"rp_step::{tid}::{word}"
if key not in st.session_state:
    st.session_state[key] = n  # start at the end result; step back to see how it was built


def _move(delta: int) -> None:
    st.session_state[key] = min(n, max(0, st.session_state[key] + delta))


b1, b2, b3, b4, _spacer = st.columns([1, 1, 1, 1, 4])  # (not "_": that name is the translation function)
b1.button(_("⏮ Start"), on_click=_move, args=(-n,), disabled=n == 0)
b2.button(_("◀ Back"), on_click=_move, args=(-1,), disabled=n == 0)
b3.button(_("Next ▶"), on_click=_move, args=(1,), disabled=n == 0)
b4.button(_("End ⏭"), on_click=_move, args=(n,), disabled=n == 0)
if n:
    st.slider(_("Merge step"), 0, n, key=key)
k = st.session_state[key]

pieces = list(result.initial) if k == 0 else list(steps[k - 1].pieces)
if k == 0:
    st.markdown(ngettext("**Step 0 of {steps}**: {bytes} single bytes, split by the pre-tokenizer into {count} piece.",
                         "**Step 0 of {steps}**: {bytes} single bytes, split by the pre-tokenizer into {count} pieces.",
                         len(result.pieces)).format(steps=num(n), bytes=num(len(pieces)), count=num(len(result.pieces))))
else:
    s = steps[k - 1]
    if s.left or s.right:
        try:
            merged = f"“{(s.left + s.right).decode('utf-8')}”"
        except UnicodeDecodeError:
            merged = _("`{hex}` (not a whole character yet)").format(hex=utf8_hex(s.left + s.right))
        st.markdown(_("**Step {step} of {steps}**: merge rank **{rank}** joins `{left}` + `{right}` → {merged} · "
                      "{count} pieces").format(step=num(k), steps=num(n), rank=f"{s.rank:,}", left=utf8_hex(s.left),
                                               right=utf8_hex(s.right), merged=merged, count=num(len(pieces))))
    else:
        st.markdown(_("**Step {step} of {steps}**: the whole piece is one vocabulary entry (id {id}); tiktoken takes "
                      "it directly.").format(step=num(k), steps=num(n), id=s.rank))
# a chip opens the word inspector on its word (with this tokenizer when it is a pretrained one)
link = chip_links(word, [tid] if tid in zoo.ENTRIES else []) if b"".join(pieces) == word.encode("utf-8") else None
show_tokens(render_pieces(pieces, show_ids=False, link=link))

for k_piece, note in result.piece_notes():
    where = (_("piece {index} ({text})").format(index=k_piece + 1, text=repr(result.pieces[k_piece].text))
             if k_piece >= 0 else _("character {index}").format(index=note.offset + 1))
    st.warning(_("At {where}: {note}. The replay follows the model.").format(where=where, note=note.message))

final_ok = result.matches_library
st.markdown(
    _("**Final:** {count} tokens {ids} · library encode: {library} · {verdict}").format(
        count=num(len(result.final_ids)), ids=result.final_ids, library=list(result.library_ids),
        verdict=_("**identical** ✓") if final_ok else _("**DIFFERENT** ✗"))
)

with st.expander(ngettext("All {count} merge", "All {count} merges", n).format(count=num(n)), expanded=False):
    st.dataframe(
        pd.DataFrame(
            [
                {
                    "step": i + 1,
                    "rank": s.rank,
                    "left (hex)": utf8_hex(s.left),
                    "right (hex)": utf8_hex(s.right),
                    "merged": (s.left + s.right).decode("utf-8", errors="replace"),
                    "pieces after": len(s.pieces),
                }
                for i, s in enumerate(steps)
            ]
        ),
        hide_index=True,
        width="stretch",
        column_config={c: _(c) for c in ("step", "rank", "left (hex)", "right (hex)", "merged", "pieces after")},
    )
if tid in TRAINED:
    st.caption(_("{tokenizer}: merges apply in the order they were learned (rank = merge number, 0 first). Pieces "
                 "never seen in training have id -1.").format(tokenizer=_(LABELS[tid])))
else:
    st.caption(_("{tokenizer}: split pattern first (merges never cross its pieces), then tiktoken's loop: merge the "
                 "adjacent pair whose joined bytes have the lowest rank, repeat. Hex chips are bytes that are not a "
                 "whole character yet.").format(tokenizer=zoo.ENTRIES[tid].name))
