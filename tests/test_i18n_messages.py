"""The sentences core writes before it knows its reader (errors, notes, progress, evidence) reach the
pages in the reader's language, while the CLI and ``str(exc)`` keep English.

Core makes them as :class:`core.i18n.Message` (``T_``/``Tn_``); pages show them through ``localize``. The static
checks below fail when a converted module goes back to an English f-string, or a page shows an exception or a core
note without ``localize``; the runtime checks show the translated text on the pages in Bangla and Persian.
"""
from __future__ import annotations

import ast
import pickle
import re
from pathlib import Path

import pytest

from core.i18n import LANGS, T_, Message, Tn_, localize, translator
from tests.conftest import REPO
from tests.helpers import open_page, shown

OTHER_LANGS = [lang for lang in LANGS if lang != "en"]

# ---------------------------------------------------------------------------
# The message type
# ---------------------------------------------------------------------------


def test_a_message_is_its_english_text_and_translates_where_shown():
    m = T_("{name} is empty", name="x.txt")
    assert m == "x.txt is empty" and str(m) == "x.txt is empty" and isinstance(m, str)
    assert str(ValueError(m)) == "x.txt is empty"  # the CLI's line and logs stay English
    for lang in OTHER_LANGS:
        t = translator(lang)
        assert localize(m, t) == t.gettext("{name} is empty").format(name="x.txt") != str(m)
        assert localize(ValueError(m), t) == localize(m, t)
    assert localize("plain text", translator("bn")) == "plain text"
    assert localize(ValueError("plain"), translator("bn")) == "plain"


def test_plural_messages_follow_each_languages_rule_and_nested_messages_translate():
    one = Tn_("{count} duplicate entry was dropped", "{count} duplicate entries were dropped", 1, count=1)
    many = Tn_("{count} duplicate entry was dropped", "{count} duplicate entries were dropped", 3, count=3)
    assert (str(one), str(many)) == ("1 duplicate entry was dropped", "3 duplicate entries were dropped")
    t = translator("bn")
    assert localize(many, t) == t.ngettext("{count} duplicate entry was dropped",
                                           "{count} duplicate entries were dropped", 3).format(count="3")
    outer = T_("{what}: ran out of memory on this input; try a shorter input or a smaller file",
               what=T_("WordPiece training"))
    assert str(outer).startswith("WordPiece training: ran out of memory")
    inner_bn = localize(T_("WordPiece training"), t)
    assert inner_bn != "WordPiece training" and localize(outer, t).startswith(inner_bn)


def test_numbers_in_a_message_follow_the_readers_digits_and_persian_isolates_values():
    m = T_("{where} nests {depth:,} levels deep; a tokenizer file may nest at most {limit}", where="a.json",
           depth=100001, limit=64)
    assert str(m) == "a.json nests 100,001 levels deep; a tokenizer file may nest at most 64"
    bn = localize(m, translator("bn", "native"))
    assert "১,০০,০০১" in bn and "৬৪" in bn and not re.search("[0-9]", bn.replace("a.json", ""))
    fa = localize(m, translator("fa"))
    assert "\u2068a.json\u2069" in fa  # a left-to-right value keeps its order inside the Persian sentence


def test_a_message_survives_pickling_with_its_template():
    """``st.cache_data`` pickles results (training failures keep their reason)."""
    m = Tn_("encoded as {count} ordinary token", "encoded as {count} ordinary tokens", 4, count=4)
    back = pickle.loads(pickle.dumps(m))
    assert isinstance(back, Message) and back == m and localize(back, translator("hi")) == localize(m, translator("hi"))


def test_quotes_follow_the_language():
    from core.i18n import quote

    assert quote("রাজ", "bn") == "“রাজ”" and quote("রাজ", "fa") == "«রাজ»"


# ---------------------------------------------------------------------------
# Static: no English sentence left where core writes for the UI
# ---------------------------------------------------------------------------

#: Core modules whose errors, notes, notices, reasons, evidence and progress lines reach the pages.
CORE_UI_MODULES = sorted({
    *(REPO / "core" / "pretrained").glob("*.py"),
    *(REPO / "core" / "models" / "bpe").glob("*.py"),
    *(REPO / p for p in ("core/models/wordpiece.py", "core/models/unigram.py",
                         "core/text/limits.py", "core/text/native.py", "core/analysis/inspect.py",
                         "core/analysis/evaluate.py", "core/analysis/recipes.py", "core/analysis/tax.py",
                         "core/analysis/pretok_compare.py", "core/pipeline/pretokenize.py",
                         "core/pipeline/normalize.py")),
})
#: Calls whose string arguments are translated (or marked for translation).
MARKED = {"_", "N_", "T_", "Tn_", "ngettext", "gettext"}
#: Errors raised for a programmer's mistake (an argument no page or CLI flag can give): (file, start) -> why.
PROGRAMMER_ERRORS: dict[tuple[str, str], str] = {
    ("wordpiece.py", "criterion must be"): "score_merges' criterion comes from the page's two fixed choices",
    ("tax.py", "vocabulary size must be"): "embedding_params is called with the catalog's sizes",
    ("train.py", "pair counted but not found"): "an internal assertion (pragma: no cover)",
    ("normalize.py", "unknown normalization form"): "make_normalizer is called with the names of FORMS",
    ("adapter.py", "loader "): "two adapter modules claiming one loader name is a developer's mistake, raised at import",
}


def _name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _english(node: ast.AST) -> list[str]:
    """English sentences (two words or more, {fields} left out) in a literal, an f-string, or a concatenation,
    join or format of them; nothing inside a translation call."""
    out: list[str] = []

    def walk(n: ast.AST) -> None:
        if isinstance(n, ast.Call):
            if _name(n.func) in MARKED:
                return
            if _name(n.func) in ("format", "join", "str", "tuple", "list") and isinstance(n.func, (ast.Attribute,
                                                                                              ast.Name)):
                if isinstance(n.func, ast.Attribute):
                    walk(n.func.value)
                for a in n.args:
                    walk(a)
            return
        if isinstance(n, ast.Constant) and isinstance(n.value, str):
            if re.search(r"[A-Za-z]{2,}[ ,;:'-]+[A-Za-z]{2,}", re.sub(r"\{[^{}]*\}", " ", n.value)):
                out.append(n.value)
        elif isinstance(n, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else " " for v in n.values)
            if re.search(r"[A-Za-z]{2,}[ ,;:'-]+[A-Za-z]{2,}", text):
                out.append(text)
            for v in n.values:
                if isinstance(v, ast.FormattedValue):
                    walk(v.value)
        elif isinstance(n, (ast.BinOp, ast.BoolOp, ast.IfExp, ast.Tuple, ast.List, ast.GeneratorExp, ast.ListComp,
                            ast.FormattedValue)):
            for child in ast.iter_child_nodes(n):
                walk(child)

    walk(node)
    return out


def untemplated_messages(path: Path) -> list[str]:
    """Where ``path`` writes an English sentence for people without ``T_``/``_``: an error's message, a note
    appended to a ``notes`` list, a progress line, an inspector reason or its evidence, a notice, a reason or a
    message returned by a property of that name."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        hits: list[str] = []
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and _name(node.exc.func).endswith("Error"):
            for arg in node.exc.args:
                for text in _english(arg):
                    if not any(path.name == f and text.startswith(s) for f, s in PROGRAMMER_ERRORS):
                        hits.append(text)
                if isinstance(arg, ast.Call) and _name(arg.func) == "str":  # str(exc) loses the exception's Message
                    hits.append("str(...) of an exception: use message_of(exc)")
        elif isinstance(node, ast.Call):
            name = _name(node.func)
            target = node.func.value if isinstance(node.func, ast.Attribute) else None
            if name == "append" and isinstance(target, ast.Name) and "note" in target.id:
                hits += [t for a in node.args for t in _english(a)]
            elif name == "progress" and len(node.args) >= 3:
                hits += _english(node.args[2])
            elif name in ("Reason", "InjectionResult"):
                hits += [t for a in node.args[1:] for t in _english(a)]
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id in (
                "notice", "evidence", "ev", "detail", "why", "what", "examples") for t in node.targets):
            hits += _english(node.value)
        elif isinstance(node, ast.FunctionDef) and node.name in ("reason", "message", "notice", "failure_reason"):
            hits += [t for r in ast.walk(node) if isinstance(r, ast.Return) and r.value is not None
                     for t in _english(r.value)]
        found += [(getattr(node, "lineno", 0), h) for h in hits]
    return [f"{path.relative_to(REPO)}:{line} {text[:70]!r}" for line, text in sorted(set(found))]


def test_the_scan_catches_english_messages(tmp_path):
    src = tmp_path / "mod.py"
    src.write_text(
        'raise VocabError(f"{source} is empty")\n'                      # 1: an English f-string
        'raise VocabError(T_("{source} is empty", source=s))\n'          # ok
        'raise ZooError(str(exc)) from None\n'                           # 3: drops the exception's Message
        'notes.append("no entry starts with ##")\n'                      # 4
        'notes.append(T_("no entry starts with {p}", p=p))\n'            # ok
        'progress(k, total, f"training {recipe}: {k} of {total} lines")\n'  # 6
        'ev = tuple(f"at {p}: tried " + x + " -> no match" for p in ps)\n'  # 7
        'model.append(Reason("unk", f"{w}: {tr.reason}.", ev))\n'         # 8 ("unk" is a tag, not a sentence)
        'notice = _("The word has {n} characters").format(n=3)\n'        # ok
        'class W:\n    def reason(self):\n        return "longer than the limit: the whole word"\n',  # 11
        encoding="utf-8")
    (tmp_path / "core").mkdir()
    moved = tmp_path / "core" / "mod.py"
    src.rename(moved)
    import tests.test_i18n_messages as me

    old = me.REPO
    me.REPO = tmp_path
    try:
        found = untemplated_messages(moved)
    finally:
        me.REPO = old
    assert sorted({int(f.split(":")[1].split()[0]) for f in found}) == [1, 3, 4, 6, 7, 11], found


@pytest.mark.parametrize("path", CORE_UI_MODULES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_core_writes_its_ui_sentences_as_templates(path):
    assert untemplated_messages(path) == []


def test_hard_case_names_are_in_the_catalogs():
    from core.analysis.roundtrip import HARD_CASES
    from core.i18n import extract

    ids = {m.id for m in extract() if m.id}
    assert [name for name, _text in HARD_CASES if name not in ids] == []
    bn = translator("bn")
    assert all(bn.gettext(name) != name for name, _text in HARD_CASES if not name.startswith(("ৎ", "য়")))


# ---------------------------------------------------------------------------
# Static: pages show exceptions and core notes through localize
# ---------------------------------------------------------------------------

#: Attributes of core records that hold a :class:`core.i18n.Message` (or a sentence core made).
MESSAGE_ATTRS = {"notes", "reason", "notice", "message"}


def _inside_localize(node: ast.AST, parents: dict[int, ast.AST]) -> bool:
    p = parents.get(id(node))
    while p is not None:
        if isinstance(p, ast.Call) and _name(p.func) == "localize":
            return True
        p = parents.get(id(p))
    return False


def unlocalized_uses(path: Path) -> list[str]:
    """Uses of a caught exception, or of a core record's message attribute (``.notes``, ``.reason``, ``.notice``,
    ``.message``, and the loop variable over ``.notes``), that do not go through ``localize``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {id(c): p for p in ast.walk(tree) for c in ast.iter_child_nodes(p)}
    bad = []
    for handler in (n for n in ast.walk(tree) if isinstance(n, ast.ExceptHandler) and n.name):
        for n in ast.walk(handler):
            if isinstance(n, ast.Name) and n.id == handler.name and isinstance(n.ctx, ast.Load):
                parent = parents.get(id(n))
                if isinstance(parent, ast.Raise) or (isinstance(parent, ast.Subscript) and parent.value is n):
                    continue  # re-raised, or an item of it stored for the script's thread
                if isinstance(parent, ast.Attribute) and parent.attr in ("start", "end", "reason") and \
                        isinstance(parent.value, ast.Name) and "Unicode" in ast.unparse(handler.type or parent):
                    continue  # UnicodeDecodeError offsets
                if isinstance(parent, ast.Assign) or isinstance(parent, ast.Call) and _name(parent.func) in (
                        "isinstance", "type", "fatal_message", "message_of"):
                    continue  # kept, tested, or handed to core (the router's last-resort message is localized)
                if not _inside_localize(n, parents):
                    bad.append(f"{path.name}:{n.lineno} exception {handler.name!r} shown without localize")
    loop_vars = {t.id for f in ast.walk(tree) if isinstance(f, ast.For) and isinstance(f.iter, ast.Attribute)
                 and f.iter.attr == "notes" and isinstance(f.target, ast.Name) for t in [f.target]}
    for n in ast.walk(tree):
        if isinstance(n, ast.Attribute) and n.attr in MESSAGE_ATTRS and isinstance(n.ctx, ast.Load):
            parent = parents.get(id(n))
            if isinstance(parent, ast.For) and parent.iter is n:
                continue  # checked through the loop variable
            if isinstance(parent, (ast.Compare, ast.BoolOp, ast.If, ast.IfExp)) or (
                    isinstance(parent, ast.Call) and _name(parent.func) in ("bool", "len")):
                continue  # tested, not shown
            if not _inside_localize(n, parents):
                bad.append(f"{path.name}:{n.lineno} .{n.attr} shown without localize")
        elif isinstance(n, ast.Name) and n.id in loop_vars and isinstance(n.ctx, ast.Load) \
                and not _inside_localize(n, parents):
            bad.append(f"{path.name}:{n.lineno} note {n.id!r} shown without localize")
    return bad


def test_the_page_scan_catches_an_unlocalized_error_and_note(tmp_path):
    page = tmp_path / "page.py"
    page.write_text(
        "try:\n    x()\nexcept VocabError as exc:\n    st.error(md_format(_('Cannot: {error}'), error=exc))\n"
        "try:\n    x()\nexcept VocabError as exc:\n    st.error(md_escape(localize(exc)))\n"
        "for note in vocab.notes:\n    st.info(md_escape(note))\n"
        "st.warning(md_escape(lat.notice))\nif lat.notice:\n    st.warning(md_escape(localize(lat.notice)))\n",
        encoding="utf-8")
    assert sorted(f.split()[0] for f in unlocalized_uses(page)) == ["page.py:10", "page.py:11", "page.py:4"]


def test_pages_show_core_messages_through_localize():
    files = [REPO / "app.py", *sorted((REPO / "pages").glob("*.py"))]
    assert [f for p in files for f in unlocalized_uses(p)] == []


# ---------------------------------------------------------------------------
# Runtime: the pages in the reader's language
# ---------------------------------------------------------------------------


def _texts(at, kind: str) -> list[str]:
    return [shown(e.value) for e in getattr(at, kind)]


def test_wordpiece_notes_and_the_unk_reason_are_translated():
    """A typed vocabulary with no [UNK], a duplicate and no ## piece gives three notes; the whole-word [UNK]'s
    reason is translated too (WordPiece model notes and [UNK] reasons)."""
    from core.models import wordpiece as wp

    typed = "ঘর, ঘর, দাম"
    vocab = wp.parse_typed_vocab(typed)
    assert len(vocab.notes) == 3 and all(isinstance(n, Message) for n in vocab.notes)
    assert [str(n) for n in vocab.notes][1] == "1 duplicate entry was dropped"  # English where it is data (CLI JSON)
    for lang in ("bn", "fa"):
        at = open_page("wordpiece", {"lang": lang, "vocab": "typed", "text": "ঘরেই"}, {"wp_typed": typed})
        infos = _texts(at, "info")
        for note in vocab.notes:
            want = localize(note, translator(lang))
            assert want != str(note) and any(want in i for i in infos), (want, infos)
        word = next(w for w in wp.encode("ঘরেই", vocab).words if w.unk)
        reason = localize(word.reason, translator(lang))
        assert reason != str(word.reason)
        assert any(reason in e for e in _texts(at, "error")), _texts(at, "error")
        assert not any("nothing in the vocabulary" in e for e in _texts(at, "error"))


def test_upload_errors_of_wordpiece_unigram_and_compare_are_translated(monkeypatch):
    """zoo / loader / upload errors that reach the UI, with the English kept in ``str(exc)``."""
    # subtle: every page helper is imported before the patch; one first imported while it is on (pages/_report.py
    # when the compare page runs below) would bind the patched function for the rest of the process, and every
    # later page run in this worker would be half Bangla
    import importlib
    import pkgutil

    import pages._controls
    import pages._lang
    import pages._url

    for info in pkgutil.iter_modules([str(Path(pages._lang.__file__).parent)]):
        if info.name.startswith("_"):
            importlib.import_module(f"pages.{info.name}")
    # AppTest calls the widgets' format_func (translated labels) from the test's thread, where there is no session
    # language: give that thread the page's language, so a rerun finds the labels it drew
    for module in (pages._lang, pages._controls, pages._url):
        monkeypatch.setattr(module, "current_lang", lambda: "bn")
    from core.models import unigram as ug
    from core.models import wordpiece as wp
    from core.pretrained import zoo

    cases = [("wordpiece", {"vocab": "upload"}, "wp_upload", "empty.txt", b"", wp.VocabError,
              lambda: wp.load_vocab_bytes(b"", "empty.txt")),
             ("unigram", {"model": "upload"}, "ug_upload", "notes.txt", b"hello\nworld\n", ug.UnigramError,
              lambda: ug.load_bytes(b"hello\nworld\n", "notes.txt")),
             ("compare", {}, "cmp_upload", "bad.tiktoken", b"AAAA 0\nAAAA 1\n", zoo.ZooError,
              lambda: zoo.load_user_bytes("bad.tiktoken", b"AAAA 0\nAAAA 1\n"))]
    for page, query, key, name, data, error, load in cases:
        with pytest.raises(error) as exc:
            load()
        english = str(exc.value)
        at = open_page(page, {"lang": "bn", **query})
        at.file_uploader(key=key).upload(name, data, "application/octet-stream").run()
        assert not at.exception
        errors = _texts(at, "error")
        bangla = localize(exc.value, translator("bn"))
        assert bangla != english and any(bangla in e for e in errors), (page, bangla, errors)
        assert not any(english in e for e in errors)


def test_native_panic_message_is_translated_and_english_for_the_cli():
    from core.text.native import as_native_error

    class PanicException(BaseException):
        pass

    err = as_native_error(PanicException("index out of bounds"), T_("WordPiece training"))
    assert str(err).startswith("WordPiece training: the tokenizer library crashed on this input (index out of bounds)")
    for lang in OTHER_LANGS:
        text = localize(err, translator(lang))
        assert text != str(err) and "index out of bounds" in text
        assert localize(T_("WordPiece training"), translator(lang)) in text


def test_app_router_shows_an_uncaught_native_error_in_the_readers_language():
    src = (REPO / "app.py").read_text(encoding="utf-8")
    assert "st.error(md_escape(localize(message)))" in src


def test_training_progress_detail_is_data_the_page_translates():
    """The trainer's callback runs in the library's thread (no session language): core hands over a Message and
    ``pages._training.bar_progress`` writes it in the reader's language."""
    from core.analysis import evaluate as E
    from core.analysis import recipes as R
    from core.assets import sample_lines

    seen: list[str] = []
    R.train("bpe", sample_lines()[:50], 120, progress=lambda d, t, what: seen.append(what))
    E.evaluate(R.train("bpe", sample_lines()[:50], 120), sample_lines()[:20],
               progress=lambda d, t, what: seen.append(what))
    assert seen and all(isinstance(w, Message) for w in seen)
    assert str(seen[0]).startswith("training bpe:") and str(seen[-1]).startswith("evaluating:")
    for lang in OTHER_LANGS:
        assert localize(seen[0], translator(lang)) != str(seen[0])
        assert localize(seen[-1], translator(lang)) != str(seen[-1])
    src = (REPO / "pages" / "_training.py").read_text(encoding="utf-8")
    assert "what=localize(what)" in src


def test_hard_case_names_are_shown_translated_on_the_special_tokens_page():
    from core.analysis.roundtrip import HARD_CASES

    at = open_page("special_tokens", {"lang": "hi"})
    hi = translator("hi")
    index = next([str(i) for i in df.value.index] for df in at.dataframe if hi.gettext("Tabs") in df.value.index)
    assert "Tabs" not in index and [hi.gettext(n) for n, _t in HARD_CASES] == index[:len(HARD_CASES)]


@pytest.mark.parametrize("lang", ["bn", "fa"])
def test_inspector_evidence_lines_are_translated(lang):
    """The evidence under each reason (merges with ranks, regex pieces, WordPiece candidates) is in the reader's
    language; hex bytes and pieces stay as they are."""
    from core.analysis.inspect import explain
    from core.pretrained import zoo

    for tid, word in (("o200k_base", "রাজশাহী"), ("bert-bge", "ঘরেই")):
        tok = zoo.load(tid)
        en = explain(tok, word)
        other = explain(tok, word, lang=lang)
        en_ev = [e for la in en.layers for r in la.reasons for e in r.evidence]
        ot_ev = [e for la in other.layers for r in la.reasons for e in r.evidence]
        assert en_ev and len(en_ev) == len(ot_ev)
        words = re.compile(r"\b(piece|matched|rank|tried|no match|at)\b")
        assert any(words.search(e) for e in en_ev)
        assert not any(words.search(e) for e in ot_ev), ot_ev[:3]
        reasons = [r.text for la in other.layers for r in la.reasons if r.kind == "unk"]
        assert all("nothing in the vocabulary" not in r for r in reasons)


def test_persian_inspector_quotes_with_guillemets_inside_bidi_islands():
    """Curly quotes are not mirrored, so around a Bangla word in a Persian sentence they stood backwards; Persian
    quotes with « » (mirrored, so they open on the right) and the quoted word is its own bidi island."""
    from core.analysis.inspect import explain
    from core.pretrained import zoo

    view = explain(zoo.load("o200k_base"), "রাজশাহী", lang="fa")
    texts = [r.text for la in view.layers for r in la.reasons] + [view.verdict]
    assert not any("“" in t or "”" in t for t in texts)
    assert any("«রাজশাহী»" in t for t in texts)
    at = open_page("inspector", {"lang": "fa", "word": "রাজশাহী", "tok": "o200k_base"})
    html = " ".join(h.proto.body for h in at.get("html"))
    reasons = " ".join(h.proto.body for h in at.get("html") if 'class="tl-reasons"' in h.proto.body)
    assert "«<bdi>রাজশাহী</bdi>»" in html and "“<bdi>" not in html
    assert reasons and "“" not in reasons and "«" in reasons


def test_the_cli_keeps_english_errors_by_default_and_follows_lang(capsys):
    from core.cli import main

    assert main(["tokenize", "--tokenizer", "file:/nonexistent/x.tiktoken", "--text", "a"]) == 2
    en = capsys.readouterr().err
    assert en.startswith("error: cannot read /nonexistent/x.tiktoken")
    assert main(["--lang", "bn", "tokenize", "--tokenizer", "file:/nonexistent/x.tiktoken", "--text", "a"]) == 2
    bn = capsys.readouterr().err
    assert bn.startswith("error: ") and "/nonexistent/x.tiktoken" in bn and "cannot read" not in bn


# ---------------------------------------------------------------------------
# The tokenizer catalog's notes, special-token policies and licence sentences
# ---------------------------------------------------------------------------

#: English words that make a licence text a sentence to translate (licence *names* such as "MIT (tiktoken)",
#: "Apache-2.0 (mistral-common)" or "Llama 3 Community License" stay as they are).
_LICENCE_WORDS = re.compile(r"\b(model|vocabulary|project|file|terms|see|card|trained|here)\b")


def _catalog_sentences():
    from core.pretrained.catalog import DUPLICATES, ENTRIES

    for e in ENTRIES.values():
        for field in ("note", "specials"):
            if getattr(e, field):
                yield f"{e.id}.{field}", getattr(e, field)
        if _LICENCE_WORDS.search(e.licence):
            yield f"{e.id}.licence", e.licence
        if e.loader == "baseline":
            yield f"{e.id}.source", e.source
    for file, (_tid, who) in DUPLICATES.items():
        if re.search(r"[a-z]{3,} [a-z]{3,}", who):
            yield f"DUPLICATES[{file}]", who


@pytest.mark.parametrize("lang", OTHER_LANGS)
def test_catalog_notes_policies_and_licence_sentences_are_translated(lang):
    """Every per-entry note, special-token policy line, licence sentence (not the licence names)
    and 'also used by' description of the catalog is a Message written in the reader's language; the entries keep
    English as str (the CLI's JSON)."""
    t = translator(lang)
    items = list(_catalog_sentences())
    assert len(items) > 60
    not_messages = [k for k, v in items if not isinstance(v, Message)]
    assert not_messages == []
    untranslated = [k for k, v in items if localize(v, t) == str(v)]
    assert untranslated == []
    from core.pretrained.catalog import ENTRIES

    assert ENTRIES["llama3"].licence == "Llama 3 Community License" and not isinstance(ENTRIES["llama3"].licence,
                                                                                         Message)


def _captions(at) -> str:
    return " ".join(shown(c.value) for c in at.caption)


@pytest.mark.parametrize("lang", ["bn", "fa"])
def test_compare_page_captions_show_notes_licences_and_sources_translated(lang):
    """The compare page's caption under each tokenizer: algorithm, licence sentence, source, the entry's note and
    its 'also used by' list are in the reader's language; licence names and file sources stay as they are."""
    from core.pretrained.catalog import ENTRIES, shared_by

    t = translator(lang)
    ids = ["qwen", "bytes", "gemma4", "llama3"]
    at = open_page("compare", {"lang": lang, "tok": ",".join(ids)})
    caps = _captions(at)
    for english in ("Checked against dashscope", "same ranks and split", "built in", "project", "model terms",
                    "llama.cpp test vocabulary"):
        assert english not in caps, english
    assert localize(ENTRIES["qwen"].note, t)[:40] in caps
    assert all(localize(who, t) in caps for who in shared_by("qwen"))
    assert localize(ENTRIES["bytes"].source, t) in caps and localize(ENTRIES["bytes"].licence, t) in caps
    assert "Llama 3 Community License" in caps and "Gemma 4" in caps


def test_inspector_caption_shows_a_baselines_source_translated():
    at = open_page("inspector", {"lang": "hi", "word": "রাজশাহী", "tok": "bytes,o200k_base"})
    caps = _captions(at)
    assert "built in" not in caps and translator("hi").gettext("built in") in caps


def test_special_tokens_page_names_the_modes_in_the_readers_language():
    """The injection table's Mode column: "library default" and "default" are words (translated, the caption
    names them the same way); code such as encode_special_tokens=True stays."""
    t = translator("bn")
    at = open_page("special_tokens", {"lang": "bn", "tok": "o200k_base"})
    modes = list(at.dataframe[0].value.iloc[:, 1])
    assert t.gettext("library default (encode)") in modes and "library default (encode)" not in modes
    assert 'allowed_special="all"' in modes
    assert "*" + t.gettext("library default") + "*" in " ".join(c.value for c in at.caption)
