"""Merge replay: watch a BPE build its tokens, merge by merge, in its library's own order.

Every BPE of the shelf is offered (tiktoken ranks tables, ``tokenizer.json`` and GGUF files run by
``tokenizers``, SentencePiece BPE models), and the BPE tokenizers uploaded or trained in this session;
Unigram and WordPiece models are not, and the page says why.
"""
from __future__ import annotations

import pandas as pd
import streamlit as st

from core.analysis.inspect import chip_links
from core.pretrained import zoo
from core.pretrained.replay import MAX_REPLAY_CHARS, ReplayError, offered, replay, replay_trained
from core.render import render_pieces
from core.text.units import utf8_hex
from pages._selector import MAX_SAMPLE_MERGES, get_tokenizer, pick_one, ready, sample_corpus, session_tokenizers
from pages._shared import bpe_trace, md_escape, md_format, page_header, qp_init, qp_sync, show_tokens

PRETRAINED = [i for i, e in zoo.ENTRIES.items() if offered(e)]
#: Shelf entries that are not BPE, with their algorithm (the page says why they are not offered).
NOT_BPE = [e for e in zoo.ENTRIES.values() if not offered(e) and e.loader != "baseline"]
#: BPE trained in the app on the bundled shop sample (id -> unit).
TRAINED = {"bpe-sample-byte": "byte", "bpe-sample-cp": "codepoint"}
LABELS = {"bpe-sample-byte": "BPE trained here (bytes, shop sample)", "bpe-sample-cp": "BPE trained here (code points, shop sample)"}
#: How each engine orders its merges (the caption under the replay).
ORDER = {
    "tiktoken": "split pattern first (merges never cross its pieces), then tiktoken's loop: merge the adjacent pair "
                "whose joined bytes have the lowest rank, repeat.",
    "tokenizers": "the library's own normalizer and pre-tokenizer first (merges never cross their pieces), then "
                  "tokenizers' BPE: merge the adjacent pair that comes first in the file's merge list (its rank), "
                  "leftmost on a tie, repeat. Byte-fallback pieces (<0xXX>) stand for characters outside the vocabulary.",
    "sentencepiece": "SentencePiece normalizes first (a ▁ before the text, ▁ for each space), then merges the adjacent "
                     "pair whose joined piece has the highest score, leftmost on a tie, over the whole text; pieces "
                     "outside the vocabulary then become their UTF-8 bytes (<0xXX> pieces).",
}

page_header(
    "Merge replay",
    "Every merge a BPE applies to your word, in its library's own order (merge rank, or SentencePiece's piece "
    "score), from single characters or bytes to the final tokens. The last line is checked against the library's "
    "own encode.",
)

session = {i: t for i, t in session_tokenizers().items() if t.replayable}
qp_init("rp_tok", "cl100k_base", param="tok", choices=PRETRAINED + list(session) + list(TRAINED))
qp_init("rp_text", "রাজশাহী", param="text", max_len=MAX_REPLAY_CHARS)
c1, c2 = st.columns([1, 2])
tid = pick_one("Tokenizer (BPE: ranks table, tokenizer.json, GGUF or SentencePiece)", "rp_tok",
               only=lambda i: i in session or (i in zoo.ENTRIES and offered(zoo.ENTRIES[i])), extra=LABELS,
               container=c1)
word = c2.text_input("Word or short text", key="rp_text", max_chars=MAX_REPLAY_CHARS)
qp_sync(tok=tid, text=word)
c2.caption(md_format(
    "Not offered here: {names}, the baselines, and uploaded or trained Unigram or WordPiece tokenizers. They merge no "
    "pairs (Unigram picks the most likely cut over a lattice, WordPiece the longest vocabulary prefix), so there is "
    "nothing to replay: see the Unigram lattice and WordPiece stepper pages.",
    names=", ".join(f"{e.name.split(' (')[0]} ({'Unigram' if 'Unigram' in e.algorithm else 'WordPiece'})"
                    for e in NOT_BPE)))

if not ready([tid]):
    st.stop()
if not word:
    st.info("Type a word to replay, e.g. রাজশাহী, नमस्ते, Oʻzbekiston or tokenization.")
    st.stop()

try:
    if tid in TRAINED:
        result = replay_trained(bpe_trace(sample_corpus(), merges=MAX_SAMPLE_MERGES, unit=TRAINED[tid]), word)
    else:
        tok = get_tokenizer(tid)
        with st.spinner(f"Replaying {tid}'s merges…"):
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
units = "single bytes" if result.method in ("tiktoken", "trained") else "starting symbols (characters or bytes)"
if k == 0:
    st.markdown(md_format("**Step 0 of {n}**: {n_units} {units}, split by the pre-tokenizer into {n_pieces} piece(s).",
                          n=n, n_units=len(pieces), units=units, n_pieces=len(result.pieces)))
else:
    s = steps[k - 1]
    if s.kind == "merge":
        try:
            merged = md_format("“{text}”", text=(s.left + s.right).decode("utf-8"))
        except UnicodeDecodeError:
            merged = md_format("{hex!c} (not a whole character yet)", hex=utf8_hex(s.left + s.right))
        how = (md_format("the piece with score **{score:g}** (id {rank:,})", score=s.score, rank=s.rank)
               if s.score is not None else md_format("merge rank **{rank:,}**", rank=s.rank))
        st.markdown(
            md_format("**Step {k} of {n}**: {how} joins {left!c} + {right!c} → {merged} · {n_pieces} pieces",
                      k=k, n=n, how=how, left=utf8_hex(s.left), right=utf8_hex(s.right), merged=merged,
                      n_pieces=len(pieces))
        )
    elif s.kind == "byte-fallback":
        st.markdown(md_format("**Step {k} of {n}**: pieces outside the vocabulary become their UTF-8 bytes (byte "
                              "fallback) · {n_pieces} pieces", k=k, n=n, n_pieces=len(pieces)))
    elif s.kind == "resegment":
        st.markdown(md_format("**Step {k} of {n}**: pieces marked unused are split back into the pieces they were "
                              "made of · {n_pieces} pieces", k=k, n=n, n_pieces=len(pieces)))
    else:
        st.markdown(md_format("**Step {k} of {n}**: the whole piece is one vocabulary entry (id {rank:,}); the "
                              "library takes it directly.", k=k, n=n, rank=s.rank))
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
                    **({"piece id": s.rank, "score": s.score} if result.method == "sentencepiece" else {"rank": s.rank}),
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
    )
if tid in TRAINED:
    st.caption(md_format("{v}: merges apply in the order they were learned (rank = merge number, 0 first). "
                         "Pieces never seen in training have id -1.",
                         v=LABELS[tid]))
else:
    st.caption(md_format("{name}: {order} Hex chips are bytes that are not a whole character yet.",
                         name=tok.name, order=ORDER[result.method]))
