"""The token view's styles and the standalone export page (a whole HTML document that loads nothing)."""
from __future__ import annotations

import html

from ..assets import ASSETS
from ..i18n import RTL_LANGS

#: The token view's styles (``assets/tokens.css``): pages inject them once, exports inline them.
CSS = (ASSETS / "tokens.css").read_text(encoding="utf-8")


#: Content-Security-Policy of every exported page: nothing is loaded from anywhere (no
#: script, no remote image, font, style or frame); inline styles and ``data:`` images only.
REPORT_CSP = ("default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; "
              "base-uri 'none'; form-action 'none'")


def standalone_page(body: str, title: str = "Tokenizer Lab", lang: str = "en") -> str:
    """A complete HTML document with :data:`CSS`, for exports and tests; its
    :data:`REPORT_CSP` meta comes first in ``<head>`` so it governs everything after it. ``lang``: its
    language (Persian is laid out right to left)."""
    direction = ' dir="rtl"' if lang in RTL_LANGS else ""
    return (
        f'<!doctype html><html lang="{html.escape(lang, quote=True)}"{direction}><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{REPORT_CSP}">'
        f'<title>{html.escape(title)}</title>'
        f"<style>{CSS}</style></head><body>{body}</body></html>"
    )
