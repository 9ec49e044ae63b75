"""Pre-tokenizers side by side: the pieces each split pattern makes, marks cut from their base flagged."""
from __future__ import annotations

import streamlit as st

from core import languages
from core.analysis import pretok_compare as pc
from core.i18n import N_
from core.markdown import md_escape, md_format
from core.render import legend_html, render_pieces
from pages._algos import html_table, inject_css
from pages._lang import _, current_lang, lang_args, localize, ngettext, num
from pages._layout import esc, page_header, show_tokens
from pages._links import piece_links
from pages._samples import language_name
from pages._text_input import follow_own_text, text_input
from pages._url import qp_init, qp_sync, url_text

#: The examples after the learning languages' (core.languages rows offered here, each under its own code).
EXAMPLES_LAST = {"en": languages.ENGLISH.name, "mixed": languages.MIXED[0], "own": N_("Your own text")}


def examples() -> list[str]:
    """The example keys in the order offered: the learning languages shown here, English, mixed, own."""
    return [*(c for c, row in languages.LANGUAGES.items() if row.pretokenizers), *EXAMPLES_LAST]


def example_label(key: str) -> str:
    return _(EXAMPLES_LAST[key]) if key in EXAMPLES_LAST else _(language_name(key))


def example_text(key: str) -> str:
    if key == "own":  # whatever is in the box
        return st.session_state.get("pt_text", "")
    if key == "mixed":  # one sentence per language, each line in its own direction
        return "\n".join(languages.get(code).sentence for code in languages.MIXED[1])
    return languages.get(key).example_text()


def _use_example() -> None:
    if st.session_state["pt_example"] != "own":
        st.session_state["pt_text"] = example_text(st.session_state["pt_example"])


page_header(
    _("Pre-tokenizers"),
    _("Before the model sees text, a pre-tokenizer cuts it into pieces; no merge or piece can ever cross those cuts. "
      "Compare the pieces each pattern makes on the same text."),
)
inject_css()
st.info(md_escape(_(pc.WHY)))

qp_init("pt_example", examples()[0], param="example", choices=examples())
follow_own_text("pt_example", "pt_text", example_text)
st.selectbox(_("Example"), examples(), key="pt_example", format_func=example_label,
             on_change=_use_example)
text = text_input("pt_text", example_text(st.session_state["pt_example"]), label=_("Text"), height=100)
all_names = pc.names()
qp_init("pt_patterns", list(pc.DEFAULT_ORDER), param="patterns",
        cast=lambda s: [p for p in s.split(",") if p in all_names])
chosen = st.multiselect(_("Pre-tokenizers"), all_names, key="pt_patterns", placeholder=_("Choose…"))
qp_sync(example=st.session_state["pt_example"], text=url_text(text), patterns=",".join(chosen))

if not text:
    st.info(_("Type or paste some text above."))
    st.stop()
if not chosen:
    st.info(_("Choose at least one pre-tokenizer."))
    st.stop()

results, notice = pc.compare(text, chosen)
if notice:
    st.warning(md_escape(localize(notice)))

summary = [[f"<b>{esc(r.name)}</b>", str(len(r.pieces)),
            f'<span class="tl-algo-flag">{len(r.mark_splits)}</span>' if r.mark_splits else "0", esc(_(r.description))]
           for r in results]
st.html(html_table([_("pre-tokenizer"), _("pieces"), _("marks cut from their base"), _("what it does")], summary,
                   ["tl-changed" if r.mark_splits else "" for r in results], testid="pt-summary"))
show_tokens(legend_html(current_lang()))

# Lines are drawn separately so each reads in its own direction (Persian right to left).
line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]


def line_of(offset: int) -> int:
    k = 0
    while k + 1 < len(line_starts) and line_starts[k + 1] <= offset:
        k += 1
    return k


for r in results:
    st.subheader(md_format(ngettext("{name} · {count} piece", "{name} · {count} pieces", len(r.pieces)), name=r.name, count=num(len(r.pieces))), divider="gray")
    st.caption(md_escape(_(r.description)))
    by_line: dict[int, list[bytes]] = {}
    line_spans: dict[int, list[tuple[int, int]]] = {}  # where each piece lies in the text (for chip links)
    for p in r.pieces:
        if p.text.strip("\n") == "" and "\n" in p.text:
            continue  # a piece that is only line breaks: the line split already shows it
        data = p.text.strip("\n").encode("utf-8")
        pieces_k = by_line.setdefault(line_of(p.start), [])
        spans_k = line_spans.setdefault(line_of(p.start), [])
        if data:
            pieces_k.append(data)
            spans_k.append((p.start, p.end))
    for k in sorted(by_line):
        # a chip opens the word inspector on the word of the text it was cut from
        show_tokens(render_pieces(by_line[k], max_tokens=400, link=piece_links(text, by_line[k], line_spans[k]),
                                  **lang_args()))
    for note in r.engine_notes[:20]:
        # at the token: the model's regex engine has older Unicode tables than the one this page could use
        st.warning(md_format(_("At character {index} ({char}): {note}. The pieces above are the model's."), index=note.offset + 1, char=repr(note.char), note=localize(note.message)))
    if len(r.engine_notes) > 20:
        st.warning(md_format(_("… and {count} more characters the model's engine cuts differently."), count=num(len(r.engine_notes) - 20)))
    if r.mark_splits:
        shown = ", ".join(m.label for m in r.mark_splits[:8])
        if len(r.mark_splits) > 8:
            shown = _("{list} and {count} more").format(list=shown, count=num(len(r.mark_splits) - 8))
        st.warning(md_format(ngettext("{count} place where this pattern separates a combining mark (\\p{{M}}) or a joiner (ZWNJ, "
                            "ZWJ) from the letter before it: {list}. No merge can join them again.",
                            "{count} places where this pattern separates a combining mark (\\p{{M}}) or a joiner (ZWNJ, "
                            "ZWJ) from the letter before it: {list}. No merge can join them again.", len(r.mark_splits)), count=num(len(r.mark_splits)), list=shown))
