"""The differences view shared by Paste and see and Compare: where the selected tokenizers cut differently."""
from __future__ import annotations

import streamlit as st

from core.markdown import md_format
from core.render import DEFAULT_DIFF_CHARS, render_differences
from core.text.disagree import Disagreement
from pages._controls import classroom
from pages._lang import _, lang_args, ngettext, num
from pages._layout import show_tokens


def show_differences(diff: Disagreement) -> None:
    """A heading, the agreement figure, and the rows with every cut position not all tokenizers share marked."""
    st.markdown(_("#### Where the tokenizers disagree"))
    st.markdown(md_format(ngettext(
        "**Agreement {pct}%:** {common} of {total} cut position is made by every tokenizer; the {differing} others are marked ▼ on the rows that cut there and ▽ on the rows that do not.",
        "**Agreement {pct}%:** {common} of {total} cut positions are made by every tokenizer; the {differing} others are marked ▼ on the rows that cut there and ▽ on the rows that do not.",
        diff.positions), pct=num(100 * diff.agreement, 1), common=num(len(diff.common)), total=num(diff.positions),
        differing=num(len(diff.differing))))
    max_chars = DEFAULT_DIFF_CHARS // 3 if classroom() else DEFAULT_DIFF_CHARS
    show_tokens(render_differences(diff, max_chars=max_chars, **lang_args()))
