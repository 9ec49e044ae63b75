"""The stepper's First / Previous / Next / Last buttons and ← → Home End keys, without lost presses.

A Streamlit button is a trigger: two clicks that reach the server before the
rerun of the first one reports back are coalesced into one, and the very first
key press after the page opens can fall between Streamlit's shortcut handler
and the page getting focus. Here one small ``st.components.v2`` script (it
runs in the app page, no iframe) owns both: it counts every click on the four
buttons and every arrow key press, keeps the step it has asked for, and sends
that *absolute* target with a sequence number. However many presses arrive
while a rerun is under way, the last target is the one that counts, so
nothing is lost and the order is kept. The server echoes the last sequence
number it applied; until the echo catches up, the script keeps counting from
its own target instead of the (older) step the page shows.

The buttons stay ordinary ``st.button`` widgets (with their ``on_click``), so
AppTest and scripts without JavaScript still step with them.
"""
from __future__ import annotations

from typing import Any

import streamlit as st

from pages._url import qp_hold

_KEY = "st_stepkeys"
_SEQ = "_st_stepkeys_seq"

#: Shared by both scripts below: the queue on ``window`` and one step of it.
_STATE = r"""
const w = window;
const s = w.__tlStepKeys || (w.__tlStepKeys = { seq: 0, target: null, pending: [] });
s.go = s.go || ((kind) => {
  if (!s.set || s.target === null) { s.pending.push(kind); return; }  // before the component is up
  const t = kind === "first" ? 0 : kind === "last" ? s.n : s.target + (kind === "next" ? 1 : -1);
  s.target = Math.max(0, Math.min(s.n, t));
  s.seq += 1;
  s.set("target", { step: s.target, seq: s.seq });
});
"""

#: The listeners, in an ``st.html`` script: it runs as soon as the buttons render, earlier than the
#: component's module loads, so a press right after the page opens is queued, not lost.
_LISTENERS = "<script>(() => {" + _STATE + r"""
if (s.installed) return;
s.installed = true;
const KEYS = { ArrowRight: "next", ArrowLeft: "prev", Home: "first", End: "last" };
const onStepper = () => w.document.querySelector(".st-key-step_next");
w.addEventListener("keydown", (ev) => {
  const kind = KEYS[ev.key];
  if (!kind || ev.ctrlKey || ev.metaKey || ev.altKey || ev.shiftKey || !onStepper()) return;
  const el = ev.target;
  if (el && el.closest && el.closest("input, textarea, select, [contenteditable], [role=slider], [role=combobox]")) return;
  ev.preventDefault();
  ev.stopImmediatePropagation();
  s.go(kind);
}, true);
w.document.addEventListener("click", (ev) => {
  const b = ev.target.closest && ev.target.closest(
    ".st-key-step_first button, .st-key-step_prev button, .st-key-step_next button, .st-key-step_last button");
  if (!b || b.disabled) return;
  ev.preventDefault();
  ev.stopImmediatePropagation();
  s.go(b.closest(".st-key-step_first") ? "first" : b.closest(".st-key-step_prev") ? "prev"
    : b.closest(".st-key-step_next") ? "next" : "last");
}, true);
})();</script>"""

#: The channel to the server (``st.components.v2``): learns the server's step and sends targets.
_JS = "export default function (component) {\n  const { data, setStateValue } = component;" + _STATE + r"""
  s.set = setStateValue;
  s.n = data.n;
  if (s.target === null || data.seq >= s.seq || data.page !== s.page) {
    // the server has applied every press we sent (or moved by itself: slider, Play, a link)
    s.target = data.step;
    s.seq = Math.max(s.seq, data.seq);
    s.page = data.page;
  }
  s.pending.splice(0).forEach((kind) => s.go(kind));
}
"""

_component = st.components.v2.component("tl_step_keys", js=_JS)


def _apply() -> None:
    """Callback (before the script runs): move to the target the browser asked for."""
    target = (st.session_state.get(_KEY) or {}).get("target") or {}
    try:
        step, seq = int(target["step"]), int(target["seq"])
    except (KeyError, TypeError, ValueError):
        return
    if seq > st.session_state.get(_SEQ, 0):
        st.session_state[_SEQ] = seq
        st.session_state["step"] = max(0, step)  # the page clamps to the last merge
        qp_hold("step")  # the address may still show an older step this session wrote


def step_keys(n: int, step: int, page: Any) -> None:
    """Mount the key/click queue for a stepper whose step is ``step`` of ``n``.

    ``page`` names what is being stepped (the corpus and settings): when it
    changes, the browser drops its own count and starts from ``step``.
    """
    st.html(_LISTENERS, unsafe_allow_javascript=True)
    _component(key=_KEY, data={"n": n, "step": step, "seq": st.session_state.get(_SEQ, 0), "page": str(page)},
               default={"target": None}, on_target_change=_apply)
