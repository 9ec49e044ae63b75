"""Merge replay: watch a pretrained byte-level BPE build its tokens, merge by merge."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from core.analysis.inspect import chip_links
from core.pretrained import zoo
from core.pretrained.replay import MAX_REPLAY_CHARS, ReplayError, replay, replay_trained
from core.render import render_pieces
from core.text.units import utf8_hex
from pages._selector import MAX_SAMPLE_MERGES, pick_one, ready, sample_corpus
from pages._shared import bpe_trace, md_escape, md_format, page_header, qp_init, qp_sync, show_tokens

PRETRAINED = [i for i in zoo.PRETRAINED_IDS if zoo.ENTRIES[i].loader in ("tiktoken", "tekken")]
#: BPE trained in the app on the bundled shop sample (id -> unit).
TRAINED = {"bpe-sample-byte": "byte", "bpe-sample-cp": "codepoint"}
REPLAYABLE = PRETRAINED + list(TRAINED)
LABELS = {"bpe-sample-byte": "BPE trained here (bytes, shop sample)", "bpe-sample-cp": "BPE trained here (code points, shop sample)"}

page_header(
    "Merge replay",
    "Every merge a pretrained byte-level BPE applies to your word, lowest rank first, from single UTF-8 bytes to "
    "the final tokens. The last line is checked against the library's own encode.",
)

qp_init("rp_tok", "cl100k_base", param="tok", choices=REPLAYABLE)
qp_init("rp_text", "রাজশাহী", param="text", max_len=MAX_REPLAY_CHARS)
c1, c2 = st.columns([1, 2])
tid = pick_one("Tokenizer (byte-level BPE with a ranks table)", "rp_tok", only=lambda i: i in PRETRAINED, extra=LABELS,
               container=c1)
word = c2.text_input("Word or short text", key="rp_text", max_chars=MAX_REPLAY_CHARS)
qp_sync(tok=tid, text=word)

if not ready([tid]):
    st.stop()
if not word:
    st.info("Type a word to replay, e.g. রাজশাহী, नमस्ते, Oʻzbekiston or tokenization.")
    st.stop()

try:
    if tid in TRAINED:
        result = replay_trained(bpe_trace(sample_corpus(), merges=MAX_SAMPLE_MERGES, unit=TRAINED[tid]), word)
    else:
        with st.spinner(f"Loading {tid} (first use only)…"):
            tok = zoo.load(tid)
        result = replay(tok, word)
except (zoo.ZooError, ReplayError, ValueError) as exc:
    st.error(md_escape(str(exc)))
    st.stop()

steps = result.steps()
n = len(steps)
key = f"rp_step::{tid}::{word}"
if key not in st.session_state:
    st.session_state[key] = n  # start at the end result; step back to see how it was built


def _move(delta: int) -> None:
    st.session_state[key] = min(n, max(0, st.session_state[key] + delta))


b1, b2, b3, b4, _ = st.columns([1, 1, 1, 1, 4])
b1.button("⏮ Start", on_click=_move, args=(-n,), disabled=n == 0)
b2.button("◀ Back", on_click=_move, args=(-1,), disabled=n == 0)
b3.button("Next ▶", on_click=_move, args=(1,), disabled=n == 0)
b4.button("End ⏭", on_click=_move, args=(n,), disabled=n == 0)
if n:
    st.slider("Merge step", 0, n, key=key)
k = st.session_state[key]

pieces = list(result.initial) if k == 0 else list(steps[k - 1].pieces)
if k == 0:
    st.markdown(md_format("**Step 0 of {n}**: {n_pieces} single bytes, split by the pre-tokenizer into "
                          "{n_pieces2} piece(s).",
                          n=n, n_pieces=len(pieces), n_pieces2=len(result.pieces)))
else:
    s = steps[k - 1]
    if s.left or s.right:
        try:
            merged = f"“{(s.left + s.right).decode('utf-8')}”"
        except UnicodeDecodeError:
            merged = f"`{utf8_hex(s.left + s.right)}` (not a whole character yet)"
        st.markdown(
            md_format("**Step {k} of {n}**: merge rank **{rank:,}** joins {v!c} + {v2!c} → {merged} · "
                      "{n_pieces} pieces",
                      k=k, n=n, rank=s.rank, v=utf8_hex(s.left), v2=utf8_hex(s.right), merged=merged, n_pieces=len(pieces))
        )
    else:
        st.markdown(md_format("**Step {k} of {n}**: the whole piece is one vocabulary entry (id {rank:,}); tiktoken "
                              "takes it directly.",
                              k=k, n=n, rank=s.rank))
# a chip opens the word inspector on its word (with this tokenizer when it is a pretrained one)
link = chip_links(word, [tid] if tid in zoo.ENTRIES else []) if b"".join(pieces) == word.encode("utf-8") else None
show_tokens(render_pieces(pieces, show_ids=False, link=link))

for k_piece, note in result.piece_notes():
    where = f"piece {k_piece + 1} ({result.pieces[k_piece].text!r})" if k_piece >= 0 else f"character {note.offset + 1}"
    st.warning(md_format("At {where}: {message}. The replay follows the model.", where=where, message=note.message))

final_ok = result.matches_library
st.markdown(
    md_format("**Final:** {n} tokens {ids} · library encode: {library} · {verdict}", n=len(result.final_ids),
              ids=result.final_ids, library=list(result.library_ids),
              verdict=md_format("**identical** ✓" if final_ok else "**DIFFERENT** ✗"))
)

with st.expander(md_format("All {n} merges", n=n), expanded=False):
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
    )
if tid in TRAINED:
    st.caption(md_format("{v}: merges apply in the order they were learned (rank = merge number, 0 first). "
                         "Pieces never seen in training have id -1.",
                         v=LABELS[tid]))
else:
    st.caption(
        md_format("{name}: split pattern first (merges never cross its pieces), then tiktoken's loop: "
                  "merge the adjacent pair whose joined bytes have the lowest rank, repeat. Hex chips "
                  "are bytes that are not a whole character yet.",
                  name=zoo.ENTRIES[tid].name)
    )
