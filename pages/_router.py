"""Page routing: every page runs through ``app.py``'s router, and in-app links stay in the session.

- :func:`mark_router_run` (``app.py``, around ``pg.run()``) and :func:`ensure_router` (every page, through
  :func:`pages._layout.page_header`): a page Streamlit ran directly is sent back through the router.
- :data:`NAV_SCRIPT`: in-app links (token chips, examples) move the URL without a new tab or session.

This module builds no URL for a page (``core.analysis.inspect`` does) and keeps no widget state (``pages._url``).
"""
from __future__ import annotations

import threading
import time

import streamlit as st

# --------------------------------------------------------------------------
# Router handshake (see app.py): Streamlit runs pages/*.py directly as
# "legacy" pages on the very first script run of a server process when a
# pages/ folder exists. app.py marks its runs; a page run without the mark is
# sent back through the router.
# --------------------------------------------------------------------------
_router = threading.local()


def mark_router_run(active: bool) -> None:
    """Called by app.py around ``pg.run()``."""
    _router.active = active


def ensure_router() -> None:
    if getattr(_router, "active", False):
        return
    leave_legacy_mode(force=True)


def leave_legacy_mode(*, force: bool = False) -> None:
    """End a legacy run at once (nothing drawn yet) and rerun through the router, with the navigation shown.

    ``.streamlit/config.toml`` hides Streamlit's own sidebar navigation, so the legacy run never lists the
    raw ``pages/`` modules; that setting also hides ``st.navigation``'s menu, and Streamlit sends it to the
    browser at the start of each run, so it is turned on here, for the rerun and every later session.
    """
    from streamlit.runtime.pages_manager import PagesManager

    if not (force or PagesManager.uses_pages_directory):
        return
    # subtle: the legacy pages/ mode is chosen before app.py runs; st.navigation
    # turns it off for good, so one rerun lands every later run in the router.
    PagesManager.uses_pages_directory = False
    st.set_option("client.showSidebarNavigation", True)
    st.rerun()


# --------------------------------------------------------------------------
# Warm-up: the default tokenizers load in the background, once per process,
# after the first page has drawn (app.py calls warm_up_once() after
# pg.run()). Loading holds the GIL for up to a second per tokenizer, so a
# thread started before the first script run would delay the first paint.
# --------------------------------------------------------------------------
_warm_lock = threading.Lock()
_warm_thread: threading.Thread | None = None

#: Seconds the warm-up thread waits before its first load: the server sends the end of the first run
#: (and the browser draws it) before the loads compete for the GIL.
WARM_DELAY_S = 0.5


def warm_up_once(ids: list[str]) -> threading.Thread | None:
    """Start loading ``ids`` (zoo entries) in a daemon thread, the first time this is called in a server
    process; the thread, or None when it was started before, there is no server (AppTest, ``python app.py``)
    or ``TOKENIZER_LAB_WARMUP=0`` turns it off (``bench/shelf.py`` times the server both ways)."""
    global _warm_thread
    import os

    from streamlit import runtime

    from core.pretrained import zoo

    if _warm_thread is not None or not runtime.exists() or os.environ.get("TOKENIZER_LAB_WARMUP", "").strip() == "0":
        return None
    with _warm_lock:
        if _warm_thread is not None:
            return None

        def run() -> None:
            time.sleep(WARM_DELAY_S)
            zoo.warm(ids)

        _warm_thread = threading.Thread(target=run, name="tokenizer-warm-up", daemon=True)
        _warm_thread.start()
    return _warm_thread


#: In-app links (token chips ``a.tl-link``, example links ``a.tl-nav``): a click moves
#: the URL with ``history.pushState`` and lets Streamlit's own history handler
#: (``popstate``) run the target page in the same session, so pasted text,
#: uploaded tokenizers and classroom mode survive, the tab is the same one and
#: Back returns with one press. Ctrl/middle click still opens a new tab (the
#: link then carries ``classroom=1`` when classroom mode is on).
NAV_SCRIPT = """<script>
(() => {
  const w = window;
  if (w.__tlNav) return;
  w.__tlNav = true;
  const keepClassroom = (url) => {
    const here = new URLSearchParams(w.location.search);
    if (here.get("classroom") === "1") url.searchParams.set("classroom", "1");
    if (here.get("lang") && !url.searchParams.get("lang")) url.searchParams.set("lang", here.get("lang"));
    return url;
  };
  w.document.addEventListener("click", (ev) => {
    const a = ev.target.closest && ev.target.closest("a.tl-link, a.tl-nav");
    if (!a) return;
    const url = keepClassroom(new URL(a.getAttribute("href"), w.location.href));
    if (ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey || url.origin !== w.location.origin) {
      a.href = url.toString();
      return;
    }
    ev.preventDefault();
    w.history.pushState({}, "", url.toString());
    w.dispatchEvent(new PopStateEvent("popstate"));
  }, true);
})();
</script>"""
