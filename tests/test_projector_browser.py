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


SCROLLING_CELLS_JS = """() => [...document.querySelectorAll('.tl-seg tbody td:last-child')]
  .filter(td => td.scrollWidth > td.clientWidth + 1).length"""


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


def test_byte_level_rows_wrap_their_chips_instead_of_scrolling(app):
    for lang, corpus, name in (("en", "toy", "bn"), ("hi", "hi", "hi")):
        projector(app, f"classroom=1&lang={lang}&corpus={corpus}&unit=byte&merges=10&step=3")
        assert app.page.evaluate(SCROLLING_CELLS_JS) == 0
        # each chip whole: no chip is wider than its cell
        too_wide = app.page.evaluate("""() => [...document.querySelectorAll('.tl-seg tbody td:last-child')]
          .filter(td => [...td.querySelectorAll('.tl-tok')].some(t => t.getBoundingClientRect().right >
                         td.getBoundingClientRect().right + 1)).length""")
        assert too_wide == 0
        app.screenshot(f"projector-byte-rows-{name}", full_page=False)
    app.assert_no_exception()
