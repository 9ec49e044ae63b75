"""A freshly started server greets with the app itself, whatever page a shared link opens first.

Each case starts its own ``streamlit run`` (the first request a server answers is the case; after a deep link, the
sidebar then switches pages with the same navigation), and the
browser records every state of the sidebar navigation and of the page title from the first byte on
(a MutationObserver installed before the page loads), so a state shown for a moment is seen too.
"""
from __future__ import annotations

import urllib.parse

import pytest

from .conftest import RUNS_JS, AppBrowser, app_pages, run_streamlit

#: Records each distinct (navigation link texts, first h1) the document shows, with the time since navigation.
RECORD_JS = """
window.__tlSeen = [];
const snap = () => {
  const nav = [...document.querySelectorAll('[data-testid="stSidebarNav"] a')].map(a => a.innerText.trim().split('\\n').pop().trim());  // the icon's name comes first
  const h1 = document.querySelector('h1');
  const key = JSON.stringify([nav, h1 ? h1.innerText.trim() : null]);
  const seen = window.__tlSeen;
  if (!seen.length || seen[seen.length - 1].key !== key)
    seen.push({key, nav, h1: h1 ? h1.innerText.trim() : null, t: performance.now()});
};
new MutationObserver(snap).observe(document, {subtree: true, childList: true, characterData: true});
"""

LINK = urllib.parse.urlencode({
    "text": "বাজারঘরের অর্ডার আগামীকাল বিকেলে রাজশাহী পৌঁছাবে।",
    "tok": "gemma4,deepseek-v3,xlm-r,command-r,o200k_base,qwen,cl100k_base,whisper,llama3",
})


@pytest.mark.parametrize(("path", "query"), [("compare", LINK), ("", "")], ids=["compare-link", "home"])
def test_a_fresh_server_first_paints_the_apps_own_title_and_navigation(path, query, browser, output_dir):
    titles = [title for _url, title in app_pages()]
    want_h1 = dict(app_pages())[path or "home"]
    with run_streamlit(output_dir / f"first-paint-{path or 'home'}.log") as base:
        context = browser.new_context(viewport={"width": 1440, "height": 900})
        try:
            context.add_init_script(RUNS_JS)
            context.add_init_script(RECORD_JS)
            page = context.new_page()
            page.set_default_timeout(60_000)
            app = AppBrowser(page, base, output_dir)
            app.open(path, query)
            seen = page.evaluate("() => window.__tlSeen")
            app.screenshot(f"first-paint-{path or 'home'}", full_page=False)
            app.assert_no_exception()
            assert app.nav_links() == titles  # no legacy "shared"/"tokenizers" entries from pages/, no duplicates
            if path:  # after a deep link first: the sidebar switches pages and keeps the same navigation
                page.locator('[data-testid="stSidebarNav"] a', has_text="Paste and see").click()
                app.wait_rerun()
                assert page.locator("h1").first.inner_text() == "Paste and see"
                assert app.nav_links() == titles
                app.assert_no_exception()
        finally:
            context.close()
    navs = [s["nav"] for s in seen if s["nav"]]
    assert navs, "the navigation was never drawn"
    for nav in navs:  # never the raw pages/ modules ("app, algos, charts, ..."), only the app's own titles
        assert set(nav) <= set(titles), nav
    first_h1 = next(s for s in seen if s["h1"])
    assert first_h1["h1"] == want_h1
    # React may commit the title a frame before the sidebar: what matters is that the navigation,
    # once drawn, is the app's whole list in its sections, never a partial or a raw one.
    assert navs[0] == titles
