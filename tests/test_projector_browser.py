"""The classroom display on a 1280x720 projector: what fits, what can be read from the back, what is drawn."""
from __future__ import annotations


PROJECTOR = {"width": 1280, "height": 720}


SIDEBAR_DRAWN_JS = """() => {
  const bar = document.querySelector('[data-testid="stSidebar"]');
  if (!bar) return [];
  const out = [];
  for (const el of bar.querySelectorAll('*')) {
    const r = el.getBoundingClientRect(), cs = getComputedStyle(el);
    if (cs.visibility !== 'visible' || cs.display === 'none' || r.width < 1 || r.height < 1) continue;
    if (r.right <= 0 || r.left >= innerWidth || r.bottom <= 0 || r.top >= innerHeight) continue;
    if (!el.children.length && (el.textContent.trim() || el.tagName === 'svg' || el.tagName === 'HR'))
      out.push(el.tagName + ':' + el.textContent.trim().slice(0, 20) + '@' + Math.round(r.left));
  }
  return out;
}"""


def projector(app, query: str) -> None:
    app.page.set_viewport_size(PROJECTOR)
    app.open("stepper", query)


def test_a_folded_persian_sidebar_draws_nothing_over_the_page(app):
    projector(app, "classroom=1&lang=fa")
    app.wait_still('[data-testid="stSidebar"]')
    drawn = app.page.evaluate(SIDEBAR_DRAWN_JS)
    app.screenshot("projector-fa-sidebar-folded", full_page=False)
    assert drawn == [], drawn
    app.assert_no_exception()
