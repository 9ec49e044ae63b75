"""Text to analyse: a text box plus an optional .txt upload, with the input limits and clear upload errors.

- :func:`text_input` ``(key, default, ...)``: the text (pasted, URL-backed, or an uploaded UTF-8 file kept for
  the session), cut to :data:`MAX_CHARS` with a notice.
- :func:`source_label` ``(key, default)``: what that text is, for a report's input line (the file's name, and the
  cut when the text was longer than :data:`MAX_CHARS`).
- :func:`decode_upload`, :func:`limit_text`: the checks behind it, usable alone.
"""
from __future__ import annotations

from typing import Any, Callable

import streamlit as st

from core.markdown import md_escape, md_format
from core.text.limits import looks_utf16
from pages._lang import _, ngettext, num
from pages._url import MAX_URL_TEXT, qp_init

#: Longest text the pages analyse (characters). Longer input is cut with a visible notice.
MAX_CHARS = 100_000
#: Largest upload accepted (bytes); Streamlit refuses bigger files itself.
MAX_UPLOAD_MB = 5


def decode_upload(raw: bytes, name: str = "file") -> tuple[str | None, str | None]:
    """``(text, None)`` for a UTF-8 text file, else ``(None, reason)``."""
    if looks_utf16(raw):
        return None, _("“{name}” is UTF-16 text, not UTF-8. Save it as UTF-8 and upload it again.").format(name=name)
    if b"\x00" in raw[:65536]:
        return None, _("“{name}” looks like a binary file (it contains NUL bytes). Upload a UTF-8 .txt file.").format(
            name=name)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return None, _("“{name}” is not valid UTF-8 (byte {offset} is {byte}). Save it as UTF-8 and upload it again.").format(
            name=name, offset=num(exc.start), byte=f"0x{raw[exc.start]:02X}")
    return text, None


def limit_text(text: str, where: Any = st) -> str:
    """Cut ``text`` to :data:`MAX_CHARS` with a visible notice."""
    if len(text) > MAX_CHARS:
        where.warning(md_format(_(
            "Input limited: showing the first {limit} of {total} characters "
            "(the app analyses at most {limit} characters at once; use `python -m core` for more)."
        ), limit=num(MAX_CHARS), total=num(len(text))))
        return text[:MAX_CHARS]
    return text


def text_input(key: str, default: str, *, label: str | None = None, upload: bool = True, height: int = 140) -> str:
    """A text area (prefilled, URL-backed) plus an optional .txt upload; returns the text.

    An uploaded file, when valid, replaces the pasted text. Bad uploads show
    an error and the pasted text is used instead, so the page keeps working.

    The file's text is kept for the session (one file per box, at most the
    upload cap): Streamlit forgets an uploader when its page is left, so on
    coming back (sidebar, chip link, Back) the kept file is used again until
    the user removes it from the uploader, uploads another or presses "Forget".
    """
    qp_init(key, default, param="text")
    text = st.text_area(md_escape(label or _("Text")), key=key, height=height)
    source: str | None = None  # the uploaded file's name when its text is used
    if upload:
        up_key, kept_key, had_key = f"{key}_upload", f"{key}_upload_kept", f"{key}_upload_had"
        fresh = up_key not in st.session_state  # the uploader is new on this run: the page was left, or first visit
        had = st.session_state.get(had_key, False) and not fresh  # it held a file on the previous run
        up = st.file_uploader(
            _("…or upload a UTF-8 .txt file"), type=["txt", "text", "md", "csv", "tsv"], key=up_key,
            max_upload_size=MAX_UPLOAD_MB,
            # Streamlit's own line under the box ("5MB per file") cannot be changed or translated: say what is used
            help=md_format(_("Files up to {size} MB are accepted; the first {count} characters are analysed."),
                           size=num(MAX_UPLOAD_MB), count=num(MAX_CHARS)),
        )
        st.session_state[had_key] = up is not None
        if up is not None:
            decoded, err = decode_upload(up.getvalue(), up.name)
            if err:
                st.session_state.pop(kept_key, None)
                st.error(md_escape(err))
            else:
                st.session_state[kept_key] = (up.name, decoded or "")
                n = len(decoded or "")
                st.info(md_format(ngettext("Using the uploaded file “{name}” ({count} character).",
                                 "Using the uploaded file “{name}” ({count} characters).", n), name=up.name, count=num(n)))
                text = decoded or ""
                source = up.name
        elif had:  # the user removed the file from the uploader
            st.session_state.pop(kept_key, None)
        elif kept_key in st.session_state:
            name, kept = st.session_state[kept_key]
            c1, c2 = st.columns([5, 1], vertical_alignment="center")
            c1.info(md_format(ngettext("Using the uploaded file “{name}” ({count} character), kept since you uploaded it.",
                             "Using the uploaded file “{name}” ({count} characters), kept since you uploaded it.",
                             len(kept)), name=name, count=num(len(kept))))
            if c2.button(_("Forget it"), key=f"{key}_upload_forget", help=_("Use the text box instead of this file.")):
                st.session_state.pop(kept_key, None)
                st.rerun()
            text = kept
            source = name
    st.session_state[f"{key}_source"] = (source, len(text))
    if len(text) > MAX_URL_TEXT:  # url_text leaves it out of the address: a shared link would reopen on the default
        st.caption(md_format(_("This text is longer than {limit} characters, so the page's link does not carry it: "
                               "a shared link opens on the example text."), limit=num(MAX_URL_TEXT)))
    return limit_text(text)


def follow_own_text(example_key: str, text_key: str, example_text: Callable[[str], str], own: str = "own") -> None:
    """Call before an example box ``example_key`` is drawn above :func:`text_input` ``text_key``: once the text is
    no longer the chosen example's (typed over, from a link, or an uploaded file), the box says ``own`` ("Your own
    text"), so nothing on the page goes on describing an example that is not there."""
    qp_init(text_key, example_text(st.session_state[example_key]), param="text")  # a link's text, before it is compared
    chosen = st.session_state[example_key]
    from_file = st.session_state.get(f"{text_key}_source", (None, 0))[0] is not None
    if chosen != own and (from_file or st.session_state.get(text_key, "") != example_text(chosen)):
        st.session_state[example_key] = own


def source_facts(key: str) -> tuple[str | None, int]:
    """``(file name or None for typed text, its length before the cut)`` of :func:`text_input` ``key``."""
    name, total = st.session_state.get(f"{key}_source", (None, 0))
    return name, total


def source_label(key: str, default: str) -> str:
    """What the text of :func:`text_input` ``key`` is, in words: ``default`` for typed text, else the uploaded
    file's name; with the cut when the text was longer than :data:`MAX_CHARS` (a report must not pass off
    the first part of a file as the whole)."""
    name, total = source_facts(key)
    what = _("uploaded file “{name}”").format(name=name) if name else default
    if total > MAX_CHARS:
        return _("{source}: {total} characters, first {shown} analysed").format(source=what, total=num(total),
                                                                                  shown=num(MAX_CHARS))
    return what
