"""The word inspector's engine and its neighbours in core.analysis never read an ambient interface language.

:mod:`core.i18n` keeps a current language (``use_lang``, ``activate``, ``current()``) that its module-level
``_``/``ngettext`` and the one-argument ``localize``/``quote`` read. A core function that reads it answers in
whatever language the calling thread happens to have set (a Streamlit script run, a worker thread with none,
a memoised result made for another reader). So these modules either return :class:`core.i18n.Message` objects
(English text that pages show with ``localize(msg, t)``) or take the reader's :class:`core.i18n.Translator`
(``lang`` + ``digits``) as an argument and pass it down. This test reads them with :mod:`ast`.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

#: Modules that must not read the ambient language.
MODULES = ("core/analysis/inspect.py", "core/analysis/injection.py", "core/analysis/roundtrip.py",
           "core/analysis/padding.py", "core/analysis/evaluate.py")
#: core.i18n names that read or set the ambient language whatever their arguments.
SETS_OR_READS = {"use_lang", "activate", "current"}
#: core.i18n functions that translate in the ambient language.
AMBIENT_TRANSLATE = {"_", "ngettext", "gettext"}
#: core.i18n functions that fall back to the ambient language when their language argument is missing:
#: name -> (positional arguments that include the language, keyword naming it).
DEFAULTS_TO_AMBIENT = {"localize": (2, "t"), "quote": (2, "lang")}
#: Core functions that take the reader's translator as ``t=`` and use the ambient one without it.
NEEDS_T = {"normalize_with", "warnings_for"}


def _i18n_imports(tree: ast.Module) -> dict[str, str]:
    """Local name -> core.i18n name, for ``from core.i18n import x as y`` / ``from ..i18n import x``."""
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] == "i18n":
            for alias in node.names:
                out[alias.asname or alias.name] = alias.name
    return out


def _bound_in(func: ast.AST) -> set[str]:
    """Names a function binds itself: its arguments and the targets of its assignments."""
    names: set[str] = set()
    if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        a = func.args
        names |= {x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs)}
        names |= {x.arg for x in (a.vararg, a.kwarg) if x is not None}
    body = func.body if isinstance(func.body, list) else [func.body]
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
    return names


def ambient_uses(source: str) -> list[str]:
    """Every place ``source`` reads (or sets) the ambient interface language, as ``line: what``."""
    tree = ast.parse(source)
    imported = _i18n_imports(tree)
    out: list[str] = []
    for name, original in imported.items():
        if original in SETS_OR_READS | AMBIENT_TRANSLATE:
            out.append(f"imports {original} from core.i18n (as {name})")

    def visit(node: ast.AST, scopes: tuple[set[str], ...]) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            scopes = (*scopes, _bound_in(node))
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            via_module = isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "i18n"
            local = isinstance(func, ast.Name) and any(name in s for s in scopes)
            original = imported.get(name, name if via_module else None)
            line = getattr(node, "lineno", 0)
            if original in SETS_OR_READS and not local:
                out.append(f"{line}: calls {original}()")
            elif original in AMBIENT_TRANSLATE and isinstance(func, ast.Name) and not local:
                out.append(f"{line}: translates with the ambient {original}()")
            elif via_module and name in AMBIENT_TRANSLATE:
                out.append(f"{line}: translates with the ambient i18n.{name}()")
            elif original in DEFAULTS_TO_AMBIENT and not local:
                n_args, kw = DEFAULTS_TO_AMBIENT[original]
                if len(node.args) < n_args and not any(k.arg == kw for k in node.keywords):
                    out.append(f"{line}: {original}() without {kw}, so in the ambient language")
            elif name in NEEDS_T and not any(k.arg == "t" for k in node.keywords):
                out.append(f"{line}: {name}() without t=, so in the ambient language")
            elif isinstance(func, ast.Attribute) and name == "translated" and not node.args and not node.keywords:
                out.append(f"{line}: Message.translated() without a translator")
        for child in ast.iter_child_nodes(node):
            visit(child, scopes)

    visit(tree, ())
    return out


@pytest.mark.parametrize("module", MODULES)
def test_module_reads_no_ambient_language(module):
    uses = ambient_uses((REPO / module).read_text(encoding="utf-8"))
    assert not uses, f"{module} reads the ambient interface language:\n" + "\n".join(uses)


def test_the_check_finds_each_kind_of_ambient_read():
    bad = '''
from ..i18n import _, current, localize, ngettext, use_lang
from ..i18n import quote as quote_word
from ..pipeline.normalize import normalize_with

def f(msg, x):
    with use_lang("bn"):
        a = _("x") + ngettext("a", "b", 2)
    return current().lang, localize(msg), quote_word(x), normalize_with(x, str, "n"), msg.translated()
'''
    uses = "\n".join(ambient_uses(bad))
    for what in ("imports _", "imports current", "imports use_lang", "imports ngettext", "calls use_lang()",
                 "ambient _()", "ambient ngettext()", "calls current()", "localize() without t",
                 "quote() without lang", "normalize_with() without t=", "translated() without"):
        assert what in uses, (what, uses)
    good = '''
from ..i18n import Translator, localize, translator
from ..i18n import quote as quote_word

def f(msg, x, t: Translator):
    return t.gettext("x"), t.ngettext("a", "b", 2), localize(msg, t), quote_word(x, t.lang), msg.translated(t)

def h(t: Translator):
    _ = t.gettext  # a name bound in the function is not the ambient one
    return _("x")

def g(msg, lang="en"):
    return f(msg, "x", translator(lang))
'''
    assert ambient_uses(good) == []


def _texts(view) -> list[str]:  # noqa: ANN001 - core.analysis.inspect.TokenizerView
    return [view.verdict, view.translation_verdict] + [
        s for la in view.layers for r in la.reasons for s in (la.title, r.text, *r.evidence)]


@pytest.mark.parametrize(("tid", "word"), [("o200k_base", "রাজশাহী"), ("bert-bge", "ঘরেই")])
def test_explain_answers_in_its_lang_whatever_language_is_set_around_it(tid, word):
    """The sentences depend on ``lang``/``digits`` only: a language set around the call (a page's script run,
    another reader's thread) changes nothing."""
    from core.analysis.inspect import explain
    from core.i18n import use_lang
    from core.pretrained import zoo

    tok = zoo.load(tid)
    fa = _texts(explain(tok, word, translation="house", lang="fa", digits="native"))
    en = _texts(explain(tok, word, translation="house"))
    with use_lang("bn", "native"):
        assert _texts(explain(tok, word, translation="house", lang="fa", digits="native")) == fa
        assert _texts(explain(tok, word, translation="house")) == en
    assert fa != en and any("«" in s for s in fa) and not any("«" in s for s in en)
