"""Inside the vocabulary: look up an id, search, decode an id list, count tokens per script, find unreachable tokens.

Every tokenizer of the shelf, and those uploaded or trained in this session, through :mod:`core.analysis.vocab`.
Results page through the whole vocabulary (262,144 entries for Gemma 4) one page at a time.
"""
from __future__ import annotations

import html

import pandas as pd
import streamlit as st

from core import languages
from core.analysis import tax
from core.analysis import vocab as V
from core.analysis.token_stream import token_stream
from core.i18n import N_
from core.markdown import md_escape, md_format
from core.pretrained import zoo
from core.pretrained.adapter import PretrainedTokenizer
from core.render import piece_label, render_piece_groups, render_pieces
from core.text import limits
from core.text.units import utf8_hex
from pages._charts import bar_chart
from pages._lang import _, lang_args, localize, ngettext, num
from pages._layout import for_reader, page_header, show_table, show_table_in, show_tokens
from pages._selector import get_tokenizer, known, pick_one, pick_tokenizers, ready, shelf_ids
from pages._text_input import MAX_UPLOAD_MB, decode_upload, limit_text
from pages._url import qp_init, qp_sync

PAGE_SIZE = 50
#: Chips drawn for a decoded list (the text and the counts always cover all of it).
MAX_CHIPS = 1000
#: Rows of the streamed-decode table (the counts and the two texts always cover the whole list).
MAX_STREAM_ROWS = 500
#: Unused tokens listed (the counts cover them all).
UNUSED_LISTED = 500
CHART_SCRIPTS = ("Bengali", "Devanagari", "Arabic", "Cyrillic", "Han", "Hangul", "Hebrew", "Thai")
MODES = {"text": N_("text contains"), "regex": N_("regex"), "bytes": N_("bytes (hex)"), "id": N_("id")}
#: The tabs, by the name a link gives them (``tab=census``).
TABS = {"look": N_("Look up and search"), "decode": N_("Decode ids"), "census": N_("Script census"),
        "unreachable": N_("Unreachable tokens")}

page_header(
    _("Vocabulary"),
    _("Look inside a tokenizer's vocabulary: look up any token id, search its tokens, decode a list of ids, count its "
      "tokens per script, and find the tokens no text can reach."),
)

shelf = [i for i in shelf_ids() if i not in ("codepoints", "bytes", "words")]
qp_init("vc_tok", "o200k_base", param="tok", choices=shelf)
qp_init("vc_query", "", param="query", max_len=V.MAX_QUERY_CHARS)
qp_init("vc_mode", "text", param="mode", choices=list(MODES))
# (every parameter is read before the first qp_sync below: after it, the URL counts as this session's own)
qp_init("vc_cmp", ["cl100k_base", "o200k_base", "llama3"], param="cmp",
        cast=lambda s: [i for i in s.split(",") if known(i) and i in shelf], max_items=V.MAX_CENSUS)
qp_init("vc_tab_id", "look", param="tab", choices=list(TABS))

tid = pick_one(_("Tokenizer"), "vc_tok", only=lambda i: i in shelf)
if not ready([tid]):
    st.stop()
try:
    tok: PretrainedTokenizer = get_tokenizer(tid)
except (zoo.ZooError, ValueError) as exc:
    st.error(md_escape(localize(exc)))
    st.stop()
st.caption(md_format(_("{algorithm} · vocabulary {count}"), algorithm=_(tok.entry.algorithm), count=num(tok.vocab_size)))
qp_init("vc_id", 0, param="id", cast=int, lo=0, hi=max(0, tok.vocab_size - 1))  # clamped to this tokenizer's ids
if st.session_state["vc_id"] >= tok.vocab_size:  # kept from a larger vocabulary chosen before
    st.session_state["vc_id"] = tok.vocab_size - 1


def chips(ids: list[int], data: list[bytes]) -> None:
    show_tokens(render_pieces(data, ids=ids, max_tokens=MAX_CHIPS, **lang_args()))


def token_rows(table: V.VocabTable, ids: list[int] | tuple[int, ...]) -> pd.DataFrame:
    rows = []
    for i in ids:
        d = table.data[i] or b""
        rows.append({_("id"): str(i), _("token"): piece_label(d), _("bytes (hex)"): utf8_hex(d),  # ids: no grouping
                     _("script"): ", ".join(V.token_scripts(d)), _("control"): i in table.special})
    return pd.DataFrame(rows)


def _tab_changed() -> None:
    """The tab the reader opened, by its name for the URL (the widget holds its label in the page's language)."""
    st.session_state["vc_tab_id"] = st.session_state["vc_tab_names"].get(st.session_state.get("vc_tab"), "look")


# a shared link reopens its tab (tab=census); the tab's name, not its translated label, goes into the URL
st.session_state["vc_tab_names"] = {_(v): k for k, v in TABS.items()}
look, dec, cen, unr = st.tabs(list(st.session_state["vc_tab_names"]), key="vc_tab", on_change=_tab_changed,
                              default=_(TABS[st.session_state["vc_tab_id"]]))

with look:
    c1, c2 = st.columns([1, 3])
    token_id = c1.number_input(_("Token id"), min_value=0, max_value=max(0, tok.vocab_size - 1), step=1, key="vc_id")
    try:
        info = V.lookup(tok, int(token_id))
    except V.VocabError as exc:
        c2.warning(md_escape(localize(exc)))
    else:
        with c2:
            chips([info.id], [info.data])
            facts = [md_format(_("bytes {hex}"), hex=info.hex),
                     md_format(_("scripts: {scripts}"), scripts=", ".join(info.scripts) or "-")]
            if info.piece is not None:
                facts.append(md_format(_("spelled {piece!c} in the file"), piece=info.piece))
            if info.special:
                facts.append(md_format(_("control token")))
            if not info.valid_utf8:
                facts.append(md_format(_("part of a character (not whole UTF-8)")))
            if info.byte_piece:
                facts.append(md_format(_("byte-fallback piece")))
            if info.continuation:
                facts.append(md_format(_("WordPiece ## piece (inside a word)")))
            if info.score is not None:
                facts.append(md_format(_("score {score}"), score=num(info.score, 4)))
            if info.merge_rank is not None:
                facts.append(md_format(_("merge rank {rank}"), rank=num(info.merge_rank)))
            joined = " · ".join(f"{{f{k}}}" for k in range(len(facts)))  # each fact is already escaped Markdown
            st.markdown(md_format(joined, **{f"f{k}": f for k, f in enumerate(facts)}))
            if info.tree is not None and info.tree.left is not None:
                st.markdown(md_format(ngettext("**How it is built:** {count} merge, down to bytes or characters",
                                               "**How it is built:** {count} merges, down to bytes or characters",
                                               info.tree.merges), count=num(info.tree.merges)))
                stack, lines = [info.tree], []
                while stack and len(lines) < 64:
                    node = stack.pop()
                    if node.left is None or node.right is None:
                        continue
                    lines.append(node)
                    stack.extend([node.right, node.left])
                for node in lines:
                    st.markdown(md_format(_("rank {rank}:"), rank=num(node.rank or 0)))
                    show_tokens(render_pieces([node.left.data, node.right.data], ids=[node.left.id, node.right.id],
                                              **lang_args()))

    st.divider()
    s1, s2 = st.columns([3, 1])
    query = s1.text_input(_("Search the vocabulary (empty: every token)"), key="vc_query", max_chars=V.MAX_QUERY_CHARS)
    mode = s2.selectbox(_("Search by"), list(MODES), key="vc_mode", format_func=lambda m: _(MODES[m]))
    # the census tab below adds its selection: one URL for the whole page (each qp_sync writes all of it)
    url = {"tok": tid, "query": query, "mode": mode, "id": int(token_id), "tab": st.session_state["vc_tab_id"]}
    qp_sync(**url)
    try:
        result = V.search(tok, query, mode)
    except (V.VocabError, limits.LimitError) as exc:
        st.error(md_escape(localize(exc)))
    else:
        total = len(result.ids)
        pages = max(1, (total + PAGE_SIZE - 1) // PAGE_SIZE)
        pkey = f"vc_page::{tid}::{mode}::{query}"
        page = st.number_input(md_format(ngettext("Page (of {count})", "Page (of {count})", pages), count=num(pages)),
                               min_value=1, max_value=pages, step=1, key=pkey)
        ids = list(result.page(int(page) - 1, PAGE_SIZE))
        st.markdown(md_format(ngettext("**{count} token matches.**", "**{count} tokens match.**", total),
                              count=num(total)))
        if ids:
            table = V.vocab_table(tok)
            # each result its own chip group: results are separate tokens, not one text (a result that starts with
            # a virama must not join the one before it, nor get a "cut inside a letter" mark)
            show_tokens(render_piece_groups([(table.data[i] or b"", i) for i in ids], **lang_args()))
            show_table(token_rows(table, ids), hide_index=True, width="stretch")

with dec:
    raw = st.text_area(md_format(_("Token ids (commas, spaces or a JSON list; at most {limit})"),
                                 limit=num(V.MAX_DECODE_IDS)), key="vc_ids", height=100,
                       placeholder="192639, 11422, 126929")
    if raw.strip():
        try:
            decoded = V.decode(tok, V.parse_ids(raw))
        except V.VocabError as exc:
            st.error(md_escape(localize(exc)))
        else:
            if decoded.unknown:
                bad = [str(decoded.ids[k]) for k in decoded.unknown[:20]]
                st.warning(md_format(ngettext("{count} id is not a token of this tokenizer and was left out: {ids}",
                                              "{count} ids are not tokens of this tokenizer and were left out: {ids}",
                                              len(decoded.unknown)), count=num(len(decoded.unknown)),
                                     ids=", ".join(bad) + (" …" if len(decoded.unknown) > 20 else "")))
            st.markdown(_("**Text**"))
            st.text(decoded.text)
            shown = [(i, d) for i, d in zip(decoded.ids[:MAX_CHIPS], decoded.data[:MAX_CHIPS]) if d is not None]
            chips([i for i, _d in shown], [d for _i, d in shown])
            trip = V.round_trip(tok, decoded)
            if trip.same:
                st.success(md_escape(localize(trip.message)))
            else:
                st.info(md_format(_("**Round trip:** encoding the text gives {count} ids, not the same list (first "
                                    "difference at position {position}). {why}"), count=num(len(trip.ids)),
                                  position=num(trip.first_difference), why=localize(trip.message)))
            stream = token_stream(decoded)
            with st.expander(md_format(ngettext(
                    "As a chat streams it: {broken} of {count} token shows � when printed alone",
                    "As a chat streams it: {broken} of {count} tokens show � when printed alone", len(stream.steps)),
                    broken=num(stream.broken), count=num(len(stream.steps))), expanded=stream.broken > 0):
                st.caption(_("A chat prints each token as it arrives. A token that holds only part of a character "
                             "shows U+FFFD (�) when it is decoded alone; a streamer that keeps the unfinished bytes "
                             "back prints nothing until the character is whole, then the whole character."))
                # dir="auto": a line that opens with U+FFFD (no direction of its own) still reads left to right
                # on a Persian page when its letters are Bangla
                st.markdown(_("**Each token printed alone**"))
                show_tokens(f'<div dir="auto" style="white-space: pre-wrap">{html.escape(stream.naive_text)}</div>')
                st.markdown(_("**With the unfinished bytes held back**"))
                show_tokens(f'<div dir="auto" style="white-space: pre-wrap">{html.escape(stream.text)}</div>')
                rows = [{_("token"): num(step.index + 1), _("id"): step.id, _("bytes (hex)"): utf8_hex(step.data),
                         _("printed alone"): step.alone, _("printed by the streamer"): step.printed,
                         _("held back (hex)"): utf8_hex(step.held)} for step in stream.steps[:MAX_STREAM_ROWS]]
                show_table(pd.DataFrame(rows), hide_index=True, width="stretch")
                if len(stream.steps) > MAX_STREAM_ROWS:
                    st.caption(md_format(_("Showing the first {shown} of {count} tokens."),
                                         shown=num(MAX_STREAM_ROWS), count=num(len(stream.steps))))

with cen:
    chosen = pick_tokenizers(_("Tokenizers to compare"), "vc_cmp", only=lambda i: i in shelf, most=V.MAX_CENSUS)
    qp_sync(**url, cmp=",".join(chosen))
    censuses: dict[str, V.Census] = {}
    premium: dict[str, dict[str, float]] = {}
    names: dict[str, str] = {}
    bundled = tax.load_bundled()
    for cid in ready(list(dict.fromkeys([tid, *chosen]))):  # the page's own tokenizer first
        try:
            ctok = get_tokenizer(cid)
            with st.spinner(_("Counting {tokenizer}'s tokens per script…").format(tokenizer=cid)):
                censuses[cid] = V.census(ctok)
            premium[cid] = tax.measure(ctok, bundled).premium
            names[cid] = ctok.name
        except (zoo.ZooError, ValueError) as exc:
            st.error(md_format(_("{tokenizer}: {error}"), tokenizer=cid, error=localize(exc)))
    if censuses:
        series = [(names[c], [float(censuses[c].scripts.get(s, 0)) for s in CHART_SCRIPTS]) for c in censuses]
        st.html(bar_chart(list(CHART_SCRIPTS), series, title=_("Tokens per script"), y_title=_("tokens")))
        rows = []
        for lang, script in ((c, row.script) for c, row in languages.LANGUAGES.items()):  # the learning languages
            for c in censuses:
                rows.append({_("language"): lang, _("script"): script, _("tokenizer"): names[c],
                             _("tokens of the script"): censuses[c].scripts.get(script, 0),
                             _("premium over English"): round(premium[c].get(lang, 0.0), 2)})
        st.markdown(_("**Fewer tokens of a script, more tokens per sentence:** the premium is the multilingual tax "
                      "page's figure on the bundled sentences."))
        show_table(for_reader(pd.DataFrame(rows)), hide_index=True, width="stretch")
        for c, census in censuses.items():
            with st.expander(md_format(_("{tokenizer}: every script"), tokenizer=names[c])):
                table = V.vocab_table(get_tokenizer(c))
                show_table(for_reader(pd.DataFrame([{
                    _("script"): r.script, _("tokens"): r.tokens, _("mean length (characters)"): round(r.mean_chars, 2),
                    _("partial characters"): r.partial,
                    _("longest"): " | ".join(piece_label(table.data[i] or b"") for i in r.longest)}
                    for r in census.rows])), hide_index=True, width="stretch")

with unr:
    st.caption(_("The usual first test for glitch tokens: decode each token alone and encode the text again. A token "
                 "that does not come back as itself is listed with the stage that stops it."))
    run_key = f"vc_unreach::{tid}"
    if st.button(_("Find the unreachable tokens"), key="vc_unreach_go"):
        st.session_state[run_key] = True
    if st.session_state.get(run_key):
        with st.spinner(_("Checking every token…")):
            report = V.unreachable(tok)
        st.markdown(md_format(_("**{count} of {checked} tokens** fail the test: no text reaches {strict} of them in "
                                "any context, {reserved} are reserved or placeholder entries, and {context} are "
                                "reached only next to other text."), count=num(len(report.tokens)),
                              checked=num(report.checked), strict=num(report.strict), reserved=num(report.reserved),
                              context=num(len(report.tokens) - report.strict - report.reserved)))
        show_table(for_reader(pd.DataFrame([{_("reason"): localize(V.UNREACHABLE_REASONS[r]), _("tokens"): n}
                                              for r, n in report.by_reason().items()])),
                     hide_index=True, width="stretch")
        show_table(for_reader(pd.DataFrame([{_("script"): s, _("tokens"): n} for s, n in report.by_script().items()])),
                     hide_index=True, width="stretch")
        # the tokens no text reaches first, then the reserved entries, then those reached next to other text
        listed = sorted(report.tokens, key=lambda t: (t.in_context, t.reason == "reserved"))
        table = V.vocab_table(tok)
        show_table(pd.DataFrame([{_("id"): str(t.id), _("token"): piece_label(table.data[t.id] or b""),
                                    _("reason"): localize(V.UNREACHABLE_REASONS[t.reason]),
                                    _("encodes as"): " ".join(map(str, t.got))}
                                   for t in listed[:500]]), hide_index=True, width="stretch")

    st.divider()
    st.markdown(_("**Tokens a corpus never uses** (the bundled sentences, or your own text: one document per line)"))
    up = st.file_uploader(_("Reference corpus: a UTF-8 .txt file"), type=["txt", "text", "md", "csv", "tsv"],
                          key="vc_corpus", max_upload_size=MAX_UPLOAD_MB)
    corpus_name, docs = _("the bundled sentences"), [c for row in tax.load_bundled().rows for c in row]
    if up is not None:
        got, err = decode_upload(up.getvalue(), up.name)
        if err:
            st.error(md_escape(err))
        else:
            corpus_name = up.name
            docs = [line for line in limit_text(got or "").splitlines() if line.strip()]
    if not docs:
        st.warning(md_format(_("“{name}” has no text; using the bundled sentences."), name=corpus_name))
        corpus_name, docs = _("the bundled sentences"), [c for row in tax.load_bundled().rows for c in row]
    rep = V.unused(tok, docs, corpus_name)
    st.markdown(md_format(ngettext("On {corpus} ({docs} line, {tokens} tokens), **{count} of {total} tokens are never used**.",
                                   "On {corpus} ({docs} lines, {tokens} tokens), **{count} of {total} tokens are never used**.",
                                   len(docs)),
                          corpus=corpus_name, docs=num(len(docs)), tokens=num(rep.corpus_tokens),
                          count=num(len(rep.unused)), total=num(rep.total)))
    if rep.unused:
        table = V.vocab_table(tok)
        u1, u2 = st.columns([1, 2])
        show_table_in(u1, for_reader(pd.DataFrame([{_("script"): k, _("tokens"): n} for k, n in rep.by_script.items()])),
                     hide_index=True, width="stretch")
        show_table_in(u2, token_rows(table, rep.unused[:UNUSED_LISTED]), hide_index=True, width="stretch")
