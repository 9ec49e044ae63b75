"""No page hands user text to a Markdown-rendering Streamlit call unescaped.

Streamlit renders the text of ``st.markdown``, ``st.caption``, ``st.error`` & co.,
titles, expander and widget labels and ``help=`` tooltips as Markdown, so a
user's ``![x](http://host/x.png)`` would become an image request. Each such
argument in ``pages/*.py`` and ``app.py`` must be one of:

(a) a string literal (trusted, written by us);
(b) a call to ``md_escape`` / ``md_format`` (``core.markdown``) or ``esc`` (HTML);
    ``md_format``'s template itself must be a literal, a name, an attribute or
    (c) below, never an f-string or a concatenation;
(c) ``_(...)`` / ``ngettext(...)`` (translation) with literal arguments only.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "pages").glob("*.py")) + [ROOT / "app.py"]

#: Streamlit calls whose first argument (the body or label) is rendered as Markdown.
SINKS = {
    "markdown", "caption", "error", "warning", "info", "success", "toast", "write", "title", "header",
    "subheader", "expander", "popover", "button", "download_button", "link_button", "radio", "checkbox",
    "toggle", "selectbox", "multiselect", "text_area", "text_input", "number_input", "slider",
    "select_slider", "file_uploader", "metric",
}
#: Keyword arguments rendered as Markdown on any call, and on the calls above.
SINK_KEYWORDS = {"help"}
SINK_CALL_KEYWORDS = {"body", "text", "label"}
#: ``bar.progress(value, text=...)``: only the text is Markdown.
TEXT_ONLY = {"progress"}
SAFE_CALLS = {"md_escape", "md_format", "esc"}
TRANSLATE = {"_", "ngettext"}


def _name(func: ast.expr) -> str | None:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _literal(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, (str, int, float, type(None)))


def _translated(node: ast.expr) -> bool:
    """``_("literal")``, ``N_("literal")`` or ``ngettext("literal", "literals", n)`` (the count may be anything)."""
    if not (isinstance(node, ast.Call) and _name(node.func) in TRANSLATE | {"N_"}):
        return False
    texts = node.args[:2] if _name(node.func) == "ngettext" else node.args
    return all(_literal(a) for a in texts) and all(_literal(k.value) for k in node.keywords)


def _safe(node: ast.expr) -> bool:
    if _literal(node) or _translated(node):
        return True
    if isinstance(node, ast.Call) and _name(node.func) in SAFE_CALLS:
        if _name(node.func) == "md_format":
            tpl = node.args[0] if node.args else None
            return tpl is not None and (_literal(tpl) or _translated(tpl) or isinstance(tpl, (ast.Name, ast.Attribute)))
        return True
    return False


def unsafe_sinks(source: str, filename: str = "<src>") -> list[str]:
    """``file:line: call: argument`` for every Markdown sink fed something not known to be escaped."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source, filename)):
        if not isinstance(node, ast.Call):
            continue
        args: list[ast.expr] = []
        if isinstance(node.func, ast.Attribute) and node.func.attr in SINKS and node.args:
            args.append(node.args[0])
        sink_call = isinstance(node.func, ast.Attribute) and node.func.attr in SINKS | TEXT_ONLY
        args += [k.value for k in node.keywords
                 if k.arg in SINK_KEYWORDS or (sink_call and k.arg in SINK_CALL_KEYWORDS)]
        for arg in args:
            if not _safe(arg):
                found.append(f"{filename}:{node.lineno}: {_name(node.func)}: {ast.unparse(arg)[:90]}")
    return found


def test_checker_catches_unescaped_text():
    bad = [
        'st.error(f"Cannot train: {exc}")', "st.caption(word)", 'st.warning("a" + name)',
        "c1.markdown(stats)", 'st.info("x", help=tok.name)', 'st.expander(f"{n} rows")',
        'st.error(md_format(f"{exc}"))', 'st.error(_(f"{exc}"))', "st.error(_(msg))",
        "st.error(ngettext(a, b, n))",
    ]
    for src in bad:
        assert unsafe_sinks(src), src
    good = [
        'st.error("literal")', "st.error(md_escape(exc))", 'st.caption(md_format("{n} rows", n=n))',
        'st.caption(md_format(_("{n} rows"), n=n))', "st.markdown(esc(x))", 'st.info(_("Hello"))',
        'st.caption(md_format(ngettext("{n} row", "{n} rows", n), n=n))', 'f(help=N_("Why"))',
        "st.caption(md_format(why))", 'st.slider("Size", help=None)',
    ]
    for src in good:
        assert not unsafe_sinks(src), src


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_pages_escape_markdown_sinks(path: Path):
    found = unsafe_sinks(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix())
    assert not found, "user text may reach Markdown unescaped:\n" + "\n".join(found)
