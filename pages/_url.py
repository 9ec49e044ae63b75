"""URL query-parameter state: a link reopens the same view, and a URL value is never trusted.

- :func:`qp_init` ``(key, default, ...)``: a widget's starting value from the URL, cast, refused or clamped with
  a visible warning that names the parameter.
- :func:`qp_sync` ``(**values)``: write the page's settings to the URL; :func:`qp_hold`, :func:`url_text`.

Which parameters each page reads is checked by ``tests/test_url_params.py`` (an ``ast`` scan of ``qp_init`` calls).
"""
from __future__ import annotations

from typing import Any, Callable

import streamlit as st

from core.i18n import DEFAULT_LANG
from core.markdown import md_format
from pages._lang import _, current_lang, ngettext, num

#: Texts up to this length are stored in the URL.
MAX_URL_TEXT = 300


def qp_init(key: str, default: Any, *, param: str | None = None, cast: Callable[[str], Any] = str,
            choices: Any = None, lo: float | None = None, hi: float | None = None, step: int | None = None,
            max_len: int | None = None, max_items: int | None = None) -> None:
    """Give widget ``key`` its starting value: the URL's ``param`` if valid, else ``default``.

    Acts when the key has no value yet (first run of the page in this session),
    or once when the URL carries the parameter and is not the one this session
    last wrote (a chip or example link was followed, see :data:`NAV_SCRIPT`);
    otherwise the widget stays the source of truth.

    A URL value is never trusted (anyone can write a link): one that does not cast or is not
    in ``choices`` is refused, a number outside ``lo``..``hi`` is clamped (and
    snapped to ``lo`` + a multiple of ``step``), text is cut to ``max_len``
    characters, unknown items of a comma list are dropped and a list is cut to ``max_items``; each time with
    a visible warning that names the parameter (see :func:`_url_value`).
    """
    raw = st.query_params.get(param or key)
    url = repr(sorted(st.query_params.to_dict().items()))
    used = st.session_state.setdefault("_qp_used", {})
    kept = st.session_state.setdefault("_qp_kept", {})
    st.session_state.setdefault("_qp_keys", set()).add(key)
    moved = _url_moved()
    if key in st.session_state and (raw is None or not moved or used.get(key) == url):
        return
    if key not in st.session_state and (raw is None or not moved):
        # a new widget while the URL is this session's own: the page's earlier value (kept when
        # another page ran) or the default; never a value the URL held for another widget
        st.session_state[key] = kept.get(key, default)
        return
    used[key] = url  # this URL has given its value once; later reruns keep the widget's
    value = default
    if raw is not None:
        value, note = _url_value(raw, default, cast, choices, lo, hi, step, max_len, max_items)
        if note:
            st.warning(md_format(_("Link parameter {param!c}: {note}"), param=f"{param or key}={raw[:60]}"
                                 + ("…" if len(raw) > 60 else ""), note=note), icon=":material/link_off:")
    st.session_state[key] = value


def _url_value(raw: str, default: Any, cast: Callable[[str], Any], choices: Any, lo: float | None,
               hi: float | None, step: int | None, max_len: int | None,
               max_items: int | None = None) -> tuple[Any, str]:
    """``(value, note)`` for one URL parameter: the value to use and, if the URL's was changed, why."""
    try:
        value = cast(raw)
    except (TypeError, ValueError, OverflowError):
        return default, md_format(_("not understood; using {default}."), default=default)
    if choices is not None and value not in choices:
        return default, md_format(_("not one of {choices}; using {default}."), choices=", ".join(map(str, choices)),
                                  default=default)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and (lo is not None or hi is not None):
        clamped = min(hi, value) if hi is not None else value
        clamped = max(lo, clamped) if lo is not None else clamped
        if step and lo is not None:
            clamped = min(hi if hi is not None else clamped, lo + round((clamped - lo) / step) * step)
        if clamped != value:
            return type(value)(clamped), md_format(_("outside {lo}..{hi}; using {value}."), lo=lo, hi=hi, value=clamped)
    if isinstance(value, str) and max_len is not None and len(value) > max_len:
        return value[:max_len], md_format(_("longer than {count} characters; using the first {count}."),
                                          count=num(max_len))
    if isinstance(value, list) and raw:  # an empty list is this app's own link to "nothing chosen"
        items = [item for item in raw.split(",") if item]
        if (not value or not items) and default:
            return default, md_format(_("no known item; using the default ({default})."),
                                      default=", ".join(map(str, default)))
        dropped = [item for item in items if item not in map(str, value)]
        if len(dropped) > 5:
            return value, md_format(ngettext("unknown {items} (and {count} more) left out.",
                                             "unknown {items} (and {count} more) left out.", len(dropped) - 5),
                                    items=", ".join(dropped[:5]), count=num(len(dropped) - 5))
        if dropped:
            return value, md_format(_("unknown {items} left out."), items=", ".join(dropped))
        if max_items is not None and len(value) > max_items:
            return value[:max_items], md_format(_("more than {count} items; using the first {count}."),
                                                count=num(max_items))
    return value, ""


def qp_hold(key: str) -> None:
    """The URL of this run gives widget ``key`` no value: the widget was just set by the user
    (a callback), and the URL may still be an older one this session wrote (the browser's
    address lags behind quick reruns)."""
    used = st.session_state.setdefault("_qp_used", {})
    used[key] = repr(sorted(st.query_params.to_dict().items()))


def _url_moved() -> bool:
    """True when the URL is not the one this session last wrote: the user followed a
    link (a token chip, an example) or edited the address, so the URL wins over the
    widgets' remembered values."""
    return st.query_params.to_dict() != st.session_state.get("_qp_synced")


def qp_sync(**values: Any) -> None:
    """Write the page's main settings to the URL (None removes a parameter)."""
    current = st.query_params.to_dict()
    wanted = {k: str(v) for k, v in values.items() if v is not None}
    if st.session_state.get("classroom"):
        wanted["classroom"] = "1"
    if current_lang() != DEFAULT_LANG:
        wanted["lang"] = current_lang()
    if current != wanted:
        st.query_params.from_dict(wanted)
    st.session_state["_qp_synced"] = wanted
    # Streamlit forgets a widget's value when another page runs; keep the URL-backed ones
    # (pasted text longer than the URL holds, chosen tokenizers) for the way back.
    kept = st.session_state.setdefault("_qp_kept", {})
    for key in st.session_state.get("_qp_keys", ()):
        if key in st.session_state:
            kept[key] = st.session_state[key]


def relabel_widgets() -> None:
    """Send every URL-backed widget its value again (after a switch of the interface language): a select box
    keeps showing the label it was given in the old language until the value is set anew, and its next change
    would send that old label back."""
    for key in st.session_state.get("_qp_keys", ()):
        if key != "lang" and key in st.session_state:
            st.session_state[key] = st.session_state[key]


def remembered(key: str, default: Any) -> Any:
    """Widget ``key``'s value as its page left it, read from another page: Streamlit forgets a widget's value
    when a page without it runs, so it is the value :func:`qp_sync` kept, or ``default`` if the page never ran."""
    if key in st.session_state:
        return st.session_state[key]
    return st.session_state.get("_qp_kept", {}).get(key, default)


def url_text(text: str) -> str | None:
    """The text for the URL, or None if it is too long to share that way."""
    return text if len(text) <= MAX_URL_TEXT else None
