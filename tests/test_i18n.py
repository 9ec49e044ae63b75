"""Interface languages: complete catalogs, no untranslated literal in the pages, the glossary,
every page in every language, the same numbers in every language."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from core import i18n
from core.i18n import LANGS, native_digits_to_western, po_path, translator
from tests.conftest import REPO, app_pages

OTHER_LANGS = [lang for lang in LANGS if lang != "en"]


@pytest.fixture(scope="module")
def template():
    return i18n.extract()


# ---------------------------------------------------------------------------
# Catalogs
# ---------------------------------------------------------------------------


def test_extraction_finds_pages_and_core_messages(template):
    files = {loc[0] for msg in template for loc in msg.locations}
    assert "app.py" in files and "pages/home.py" in files and "pages/_controls.py" in files
    assert any(f.startswith("core/") for f in files), "core messages (verdicts, reports) are extracted too"
    assert len(template) > 50


@pytest.mark.parametrize("lang", OTHER_LANGS)
def test_catalog_is_complete(lang, template):
    """Every message id in app.py, pages/ and core/ is in the catalog, translated (not empty, not fuzzy),
    with the source's placeholders and the language's number of plural forms."""
    assert i18n.problems(lang, template) == []


def test_problems_catches_bad_entries(tmp_path, monkeypatch, template):
    """The completeness check itself fails on a missing entry, a lost placeholder and a fuzzy one."""
    with po_path("bn").open("rb") as fh:
        cat = read_po(fh, locale="bn")
    ids = [m.id for m in template if m.id]
    with_field = next(i for i in ids if isinstance(i, str) and "{" in i)
    plain = next(i for i in ids if isinstance(i, str) and "{" not in i)
    cat[with_field].string = "কিছু"  # placeholder lost
    cat[plain].flags.add("fuzzy")
    del cat[next(i for i in ids if isinstance(i, str) and i not in (with_field, plain))]
    from babel.messages.pofile import write_po

    out = tmp_path / "bn" / "LC_MESSAGES" / "tokenizer_lab.po"
    out.parent.mkdir(parents=True)
    with out.open("wb") as fh:
        write_po(fh, cat)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    found = " ".join(i18n.problems("bn", template))
    assert "placeholders" in found and "fuzzy" in found and "missing" in found


@pytest.mark.parametrize("lang", OTHER_LANGS)
def test_plural_forms_follow_the_language(lang):
    """Bangla, Hindi and Persian count 0 as singular (CLDR), Uzbek and English do not."""
    plural = translator(lang)._t.plural  # the catalog's compiled Plural-Forms expression
    assert plural(1) == 0 and plural(2) == 1 and plural(0) == (0 if lang in ("bn", "hi", "fa") else 1)


def test_numbers_western_by_default_native_on_request():
    assert translator("bn").format_number(1234567) == "12,34,567"
    assert translator("bn", "native").format_number(1234567) == "১২,৩৪,৫৬৭"
    assert translator("fa", "native").format_number(12.5, decimals=1) == "۱۲٫۵"
    assert translator("hi", "native").format_number(12) == "12"  # Hindi keeps Western digits
    assert native_digits_to_western("১২,৩৪,৫৬৭ ۱۲٫۵") == "12,34,567 12.5"


def test_unknown_language_falls_back_to_english():
    assert i18n.normalize_lang("xx") == "en" and i18n.normalize_lang(None) == "en"
    assert i18n.normalize_lang("bn-BD") == "bn" and i18n.normalize_lang("fa_IR") == "fa"
    assert translator("xx").gettext("Tokenizers") == "Tokenizers"


def test_no_mo_files_committed():
    assert not list((REPO / "assets" / "locale").rglob("*.mo"))


# ---------------------------------------------------------------------------
# The glossary
# ---------------------------------------------------------------------------


def _glossary() -> list[dict[str, str]]:
    lines = [ln for ln in (REPO / "assets" / "glossary" / "glossary.tsv").read_text(encoding="utf-8").splitlines()
             if ln and not ln.startswith("#")]
    head = lines[0].split("\t")
    return [dict(zip(head, ln.split("\t"))) for ln in lines[1:]]


#: (language, glossary term, first 30 characters of the English message) -> why the translation says it another
#: way.
GLOSSARY_EXCEPTIONS: dict[tuple[str, str, str], str] = {
    ("fa", "normalizer", "SentencePiece normalizer"): "a name filled into “نرمال‌ساز {normalizer} …”, which says the word",
}


def _term_re(term: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w-])" + re.escape(term).replace(r"\ ", r"[\s-]"), re.IGNORECASE)


@pytest.mark.parametrize("lang", OTHER_LANGS)
def test_translations_use_the_glossary(lang, template):
    terms = _glossary()
    assert {t["en"] for t in terms} >= {"token", "merge", "grapheme cluster", "pre-tokenizer", "vocabulary",
                                        "byte", "code point", "premium"}
    with po_path(lang).open("rb") as fh:
        cat = read_po(fh, locale=lang)
    bad = []
    for msg in cat:
        if not msg.id:
            continue
        # placeholders, code, file names ("tokenizer.json") and the library's name ("the tokenizers library")
        # are not words to translate
        ids = [re.sub(r"\{\w*\}|`[^`]*`|\btokenizers(?= library)|[\w-]+\.(?:json|model|txt|tiktoken|tsv|csv|md|html)\b", " ", i) for i in (msg.id if isinstance(msg.id, (list, tuple)) else [msg.id])]
        strs = msg.string if isinstance(msg.string, (list, tuple)) else [msg.string]
        for term in terms:
            if not any(_term_re(term["en"]).search(i) for i in ids):
                continue
            if term["en"] == "token" and all(re.search(r"(?i)\btoken(?![a-z])", i) is None and
                                             re.search(r"(?i)\btokens\b", i) is None for i in ids):
                continue  # "tokenizer" alone is checked as its own term
            wanted = term[lang].split("|")
            for s in strs:
                flat = s.lower().replace("-", " ")
                if not any(w.lower().replace("-", " ") in flat for w in wanted) and (lang, term["en"], ids[0][:30]) not in GLOSSARY_EXCEPTIONS:
                    bad.append(f"{term['en']} -> {wanted} not in {s[:80]!r} ({ids[0][:40]!r})")
    assert bad == []


# ---------------------------------------------------------------------------
# No user-visible English literal left in the pages
# ---------------------------------------------------------------------------

#: Streamlit calls whose text arguments people read.
ST_TEXT_CALLS = {
    "title", "header", "subheader", "caption", "markdown", "write", "text", "info", "warning", "error",
    "success", "toast", "button", "download_button", "link_button", "form_submit_button", "page_link", "toggle",
    "checkbox", "radio", "selectbox", "multiselect", "select_slider", "slider", "text_input", "text_area",
    "number_input", "file_uploader", "color_picker", "expander", "popover", "tabs", "metric", "spinner",
    "segmented_control", "pills", "status", "html", "TextColumn", "NumberColumn", "ProgressColumn",
    "LinkColumn", "ListColumn", "Column", "CheckboxColumn", "BarChartColumn", "progress",
}
#: The project's own helpers that take such text: name -> positions of the text arguments.
OWN_TEXT_CALLS = {"page_header": (0, 1), "text_input": (), "pick_tokenizers": (0,), "pick_one": (0,),
                  "line_chart": (), "bar_chart": (), "Series": (0,), "html_table": (0,), "big_text": (1,),
                  "report_button": (), "md_format": (0,), "cache_data": (), "cache_resource": (), "bar_progress": (3,)}
TEXT_KEYWORDS = {"label", "help", "placeholder", "caption", "title", "body", "text", "why", "value_label", "x_title",
                 "y_title", "alt", "label_text", "name", "headers", "hover", "show_spinner"}
#: Calls whose arguments are translated already.
TRANSLATED = {"_", "ngettext"}
#: Literals that are not sentences: (file, literal) -> reason.
LITERAL_ALLOWLIST: dict[tuple[str, str], str] = {
    ("inspector.py", "Rajshahi"): "an example of English input (the field asks for the English translation)",
    ("compare.py", "xlm-roberta-base"): "an example Hugging Face Hub id (an identifier, not a sentence)",
    ("normalization.py", "lowercase"): "the BertNormalizer parameter's own name (the help text is translated)",
    ("normalization.py", "strip_accents"): "the BertNormalizer parameter's own name (the help text is translated)",
    ("normalization.py", "regex"): "the rule table's column, named like the JSON field it exports",
}
#: Pages whose literals are not converted yet (this list only shrinks).
NOT_YET_CONVERTED: set[str] = set()


def _visible(text: str) -> str:
    """The part of a literal a reader sees: no HTML tags, entities, CSS blocks or Markdown heading marks."""
    text = re.sub(r"<style>.*?</style>|<script>.*?</script>", " ", text, flags=re.S)
    text = re.sub(r"<[^>]*>?|^[^<]*>", " ", text)  # tags, and tag ends cut by an f-string field
    text = re.sub(r"&\w+;", " ", text)
    return re.sub(r"\{[^{}]*\}", " ", text)  # format fields ({name}, {count:,}) are not words


def _call_name(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def _literals(node: ast.AST, own: bool = False):
    """String constants in an argument, not descending into translated calls or into other calls' arguments
    other than str.format/join receivers (those are checked where they are called)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node
    elif isinstance(node, ast.JoinedStr):
        for v in node.values:
            yield from _literals(v, own)
    elif isinstance(node, ast.FormattedValue):
        yield from _literals(node.value, own)
    elif isinstance(node, ast.BinOp):
        yield from _literals(node.left, own)
        yield from _literals(node.right, own)
    elif isinstance(node, (ast.List, ast.Tuple)) and own:
        for e in node.elts:
            yield from _literals(e, own)
    elif isinstance(node, ast.IfExp):
        yield from _literals(node.body, own)
        yield from _literals(node.orelse, own)
    elif isinstance(node, ast.Call):
        name = _call_name(node.func)
        if name in TRANSLATED:
            return
        if name in ("format", "join") and isinstance(node.func, ast.Attribute):
            yield from _literals(node.func.value, own)
            for a in node.args:
                yield from _literals(a, own)


def untranslated_literals(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _call_name(node.func)
        is_st = name in ST_TEXT_CALLS and isinstance(node.func, ast.Attribute)
        if not (is_st or name in OWN_TEXT_CALLS):
            continue
        # Streamlit's first positional argument is the label or body (later ones are data, file names, options)
        positional = node.args[:1] if is_st else [a for i, a in enumerate(node.args) if i in OWN_TEXT_CALLS[name]]
        args = list(positional) + [k.value for k in node.keywords if k.arg in TEXT_KEYWORDS]
        for arg in args:
            for lit in _literals(arg, not is_st or name == "tabs"):
                if re.search(r"[^\W\d_]{2,}", _visible(lit.value)) and (path.name, lit.value) not in LITERAL_ALLOWLIST:
                    found.append(f"{path.name}:{lit.lineno} {name}({lit.value[:60]!r})")
    return found


def test_literal_scan_catches_an_english_label(tmp_path):
    page = tmp_path / "page.py"
    page.write_text('import streamlit as st\nst.button("Next")\nst.button(_("Next"))\n'
                    'st.markdown(f"**{n} tokens**")\nst.html(f"<b>{x}</b>")\nst.caption(help="Why")\n'
                    'st.info(_("{n} left").format(n=3))\nst.info("<b>Done</b>")\n'
                    'st.warning(md_format("Link parameter {param!c}: {note}", param=p, note=n))\n'
                    'st.warning(md_format(_("Link parameter {param!c}: {note}"), param=p, note=n))\n'
                    'st.caption(md_format("{algorithm} · {source}", algorithm=a, source=s))\n'
                    '@st.cache_resource(show_spinner="Training WordPiece…")\ndef f(): pass\n'
                    'bar.progress(0.5, text="Evaluating")\n'
                    'bar_progress(bar, 0.5, 0.1, f"Evaluating {name} ({i} of {n})")\n'
                    'bar_progress(bar, 0.5, 0.1, md_format(_("Evaluating {name}"), name=name))\n', encoding="utf-8")
    found = untranslated_literals(page)
    lines = sorted({f.split()[0] for f in found}, key=lambda f: int(f.split(":")[1]))  # (an f-string: one per literal)
    assert lines == ["page.py:2", "page.py:4", "page.py:6", "page.py:8", "page.py:9", "page.py:12", "page.py:14",
                     "page.py:15"]


def test_pages_have_no_untranslated_literals():
    files = [REPO / "app.py"] + sorted((REPO / "pages").glob("*.py"))
    found = [f for p in files if p.name not in NOT_YET_CONVERTED for f in untranslated_literals(p)]
    assert found == []


def test_not_yet_converted_list_is_honest():
    """Every page still listed as not converted really has untranslated literals (so the list shrinks)."""
    for name in NOT_YET_CONVERTED:  # (empty now: every page is converted)
        assert untranslated_literals(REPO / "pages" / name), f"{name} is converted: remove it from the list"


# ---------------------------------------------------------------------------
# Every page in every language
# ---------------------------------------------------------------------------

PAGES = [p for p, _t in app_pages()]


def _open(path: str, lang: str):
    from tests.helpers import open_page

    return open_page(path, {"lang": lang}, check=False)


@pytest.fixture(scope="module")
def english_titles() -> dict[str, str]:
    return {}


@pytest.mark.parametrize("lang", list(LANGS))
@pytest.mark.parametrize("path", PAGES)
def test_page_renders_in_each_language(path, lang, english_titles):
    at = _open(path, lang)
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="lang").value == lang
    title = at.title[0].value
    if lang == "en":
        english_titles[path] = title
    else:
        en = english_titles.get(path) or _open(path, "en").title[0].value
        if lang in ("bn", "hi", "fa"):
            assert title != en, f"{path}: the title is still English in {lang}"
        assert title == translator(lang).gettext(en)


def test_invalid_lang_in_url_means_english_without_error():
    at = _open("home", "klingon")
    assert not at.exception and not at.error
    assert at.selectbox(key="lang").value == "en"
    assert at.title[0].value == "Paste and see"


def test_lang_is_kept_in_the_url_and_rtl_css_only_for_persian():
    at = _open("home", "fa")
    assert at.query_params.get("lang") == ["fa"] or at.query_params.get("lang") == "fa"
    styles = " ".join(h.proto.body for h in at.get("html") if "<style>" in h.proto.body)
    assert "direction: rtl" in styles
    at = _open("home", "bn")
    styles = " ".join(h.proto.body for h in at.get("html") if "<style>" in h.proto.body)
    assert "direction: rtl" not in styles
    assert at.sidebar.toggle(key="native_digits") is not None


def test_choosing_a_language_in_the_sidebar_translates_the_page():
    at = _open("home", "en")
    at.selectbox(key="lang").set_value("hi").run()
    assert not at.exception
    assert at.title[0].value == translator("hi").gettext("Paste and see")
    assert at.query_params.get("lang") in (["hi"], "hi")


# ---------------------------------------------------------------------------
# The same numbers in every language
# ---------------------------------------------------------------------------


def _numbers(text: str) -> list[float]:
    return sorted(float(x.replace(",", "")) for x in re.findall(r"\d[\d,]*(?:\.\d+)?", native_digits_to_western(text)))


@pytest.mark.parametrize("digits", ["western", "native"])
@pytest.mark.parametrize("tid", ["cl100k_base", "o200k_base", "llama3"])
def test_inspector_verdict_for_rajshahi_has_the_same_numbers_in_bangla(tid, digits):
    from core.analysis.inspect import explain
    from core.pretrained import zoo

    tok = zoo.load(tid)
    en = explain(tok, "রাজশাহী", translation="Rajshahi")
    bn = explain(tok, "রাজশাহী", translation="Rajshahi", lang="bn", digits=digits)
    assert bn.verdict != en.verdict and "টোকেন" in bn.verdict
    assert _numbers(en.verdict) and _numbers(bn.verdict) == _numbers(en.verdict)
    assert _numbers(bn.translation_verdict) == _numbers(en.translation_verdict)
    if digits == "native":
        assert not re.search(r"[0-9]", bn.verdict.split(":")[0]) and re.search("[০-৯]", bn.verdict)
    # the reasons are translated too, with the same numbers, and the data does not change
    assert bn.counts == en.counts and [la.name for la in bn.layers] == [la.name for la in en.layers]
    en_reasons = [r.text for la in en.layers for r in la.reasons]
    bn_reasons = [r.text for la in bn.layers for r in la.reasons]
    assert en_reasons != bn_reasons
    assert [_numbers(t) for t in bn_reasons] == [_numbers(t) for t in en_reasons] or digits == "native"


def test_inspector_page_in_bangla_shows_bangla_verdicts_with_english_numbers():
    at = _open("inspector", "bn")
    assert not at.exception
    verdicts = [h.proto.body for h in at.get("html") if 'class="tl-verdict"' in h.proto.body]
    assert verdicts and all("টোকেন" in v for v in verdicts)
    en = _open("inspector", "en")
    en_verdicts = [h.proto.body for h in en.get("html") if 'class="tl-verdict"' in h.proto.body]
    strip = lambda s: re.sub(r"<[^>]+>|data-tokenizer=\"[^\"]*\"|U\+[0-9A-F]+|&#x27;", " ", s)
    assert [_numbers(strip(v)) for v in verdicts] == [_numbers(strip(v)) for v in en_verdicts]


def _ast_message_ids() -> set[tuple[str, str]]:
    """(file, message) of every translation call with a literal message, found with ast (which, unlike babel's
    extractor on Python 3.11, also sees calls inside f-string fields)."""
    out = set()
    for path in [REPO / "app.py", *sorted((REPO / "pages").glob("*.py")), *sorted((REPO / "core").rglob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _call_name(node.func) in ("_", "N_", "gettext", "ngettext") and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    out.add((path.relative_to(REPO).as_posix(), first.value))
    return out


def test_every_translation_call_is_extracted(template):
    """A ``_()`` call babel cannot see (inside an f-string field on Python 3.11) would never be translated."""
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
    missed = sorted(f"{f}: {msg!r}" for f, msg in _ast_message_ids() if msg not in ids)
    assert missed == []


# ---------------------------------------------------------------------------
# The CLI: --lang changes only the human-readable text
# ---------------------------------------------------------------------------


def _keys(obj) -> object:
    if isinstance(obj, dict):
        return {k: _keys(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_keys(v) for v in obj]
    return type(obj).__name__


def _cli(capsys, *argv: str) -> str:
    from core.cli import main

    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_cli_lang_changes_text_not_json_keys(capsys):
    import json

    args = ["inspect", "--word", "রাজশাহী", "--tokenizers", "o200k_base,cl100k_base", "--translation", "Rajshahi",
            "--json"]
    default = json.loads(_cli(capsys, *args))
    english = json.loads(_cli(capsys, "--lang", "en", *args))
    bangla = json.loads(_cli(capsys, "--lang", "bn", *args))
    persian = json.loads(_cli(capsys, *args, "--lang", "fa"))  # also accepted after the subcommand
    assert default == english  # English stays the default, byte for byte
    assert _keys(bangla) == _keys(english) == _keys(persian)
    for en_t, bn_t in zip(english["tokenizers"], bangla["tokenizers"]):
        assert en_t["tokens"] == bn_t["tokens"] and en_t["ids"] == bn_t["ids"]
        assert en_t["verdict"] != bn_t["verdict"] and "টোকেন" in bn_t["verdict"]
        assert _numbers(en_t["verdict"]) == _numbers(bn_t["verdict"])
        assert [la["name"] for la in en_t["layers"]] == [la["name"] for la in bn_t["layers"]]  # ids, not titles
    table = _cli(capsys, "--lang", "hi", *args[:-1])
    assert "टोकन" in table


def test_cli_rejects_an_unknown_language(capsys):
    from core.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["--lang", "xx", "inspect", "--word", "a"])
    assert exc.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_report_is_written_in_the_requested_language_with_the_same_figures():
    from core.analysis.report import build_report, to_html, to_markdown
    from core.pretrained import zoo

    toks = [zoo.load("o200k_base"), zoo.load("cl100k_base")]
    text = "বাজারঘরের অর্ডার আগামীকাল বিকেলে রাজশাহী পৌঁছাবে।"
    en = build_report(text, toks, english="The order will reach Rajshahi tomorrow.")
    fa = build_report(text, toks, english="The order will reach Rajshahi tomorrow.", lang="fa")
    assert [t.row for t in fa.tokenizers] == [t.row for t in en.tokenizers]  # figures and JSON keys unchanged
    assert fa.to_json().keys() == en.to_json().keys()
    html_fa, md_bn = to_html(fa), to_markdown(build_report(text, toks, lang="bn"))
    assert '<html lang="fa" dir="rtl">' in html_fa and "خلاصه" in html_fa and "<h2>Summary</h2>" not in html_fa
    assert "## সারাংশ" in md_bn and "## Summary" not in md_bn
    assert "<h2>Summary</h2>" in to_html(en)


def test_no_module_that_translates_rebinds_the_name_underscore():
    """``_`` is the translation function wherever it is imported: ``a, _ = ...`` or ``for _ in`` in such a module
    (outside comprehensions) would shadow it and break the page at run time."""
    bad = []
    for path in [REPO / "app.py", *sorted((REPO / "pages").glob("*.py")), *sorted((REPO / "core").rglob("*.py"))]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imports_it = any(isinstance(n, ast.ImportFrom) and any(a.name == "_" for a in n.names) for n in ast.walk(tree)) \
            or any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "_" for n in ast.walk(tree))
        if not imports_it:
            continue
        comp_targets = {id(t) for c in ast.walk(tree) if isinstance(c, (ast.ListComp, ast.SetComp, ast.DictComp,
                                                                          ast.GeneratorExp))
                        for g in c.generators for t in ast.walk(g.target)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id == "_" and isinstance(node.ctx, ast.Store) \
                    and id(node) not in comp_targets:
                bad.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert bad == []
