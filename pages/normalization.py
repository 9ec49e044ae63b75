"""Normalization: what NFC, NFKC and BERT's normalizer do to each code point, and custom rules."""
from __future__ import annotations

import contextlib

import pandas as pd
import streamlit as st

from core.i18n import N_
from core.markdown import md_escape, md_format
from core.pipeline import normalize as N
from pages._algos import asset_text, big_text, html_table, inject_css
from pages._controls import classroom
from pages._lang import _, localize, ngettext, num
from pages._layout import esc, page_header, show_table, show_table_in
from pages._selector import encode_cached, option_label, tokenizer_options
from pages._text_input import follow_own_text, text_input
from pages._url import qp_init, qp_sync, url_text

EXAMPLES = {
    "trap": (N_("Uncased-BERT trap (Bangla)"), "ব্যাগ খুশি পৌঁছাবে শাড়ি"),
    "nfkc": (N_("NFKC changes meaning"), "৫ m² জমি, ½ কেজি, ① নম্বর, 10\u00a0km"),
    "nfc": (N_("NFC unifies two spellings"), "\u09df / \u09af\u09bc and \u09c7\u09be / \u09cb"),
    "zwj": (N_("ZWJ and the two spellings of ৎ"), "উৎসব / উত্\u200dসব"),
    "persian": (N_("Persian (ZWNJ, harakat)"), None),
    "uzbek": (N_("Uzbek apostrophes"), None),
    "own": (N_("Your own text"), None),
}
DETAIL = {"NFC": "NFC", "NFD": "NFD", "NFKC": "NFKC", "NFKD": "NFKD", "bert": N_("BERT normalizer (choose settings)")}
STRIP = {"unset": None, "true": True, "false": False}
OP_LABEL = {"equal": N_("same"), "canonical": N_("re-spelled (same text)"), "replace": N_("CHANGED"),
            "delete": N_("REMOVED"), "insert": N_("ADDED")}
#: Overview columns (shown translated).
COLUMNS = (N_("form"), N_("result"), N_("changed letters"), N_("warnings"))


def example_text(key: str) -> str:
    label, text = EXAMPLES[key]
    if key == "own":  # whatever is in the box
        return st.session_state.get("norm_text", "")
    if key == "persian":
        return asset_text("persian.txt")
    if key == "uzbek":
        return asset_text("uzbek.txt")
    return text or ""


def _codes(text: str) -> str:
    """Code points written out (U+02BB): ʻ and ʼ look alike, so both sides of a change are named."""
    return " ".join(f"U+{ord(ch):04X}" for ch in text)


def _use_example() -> None:
    if st.session_state["norm_example"] != "own":
        st.session_state["norm_text"] = example_text(st.session_state["norm_example"])


page_header(
    _("Normalization"),
    _("The normalizer runs before everything else and can change the text for good. NFC is the safe default; "
      "NFKC and BERT's normalizer can change meaning without any warning, so we show every code point they touch."),
)
inject_css()

qp_init("norm_example", "trap", param="example", choices=list(EXAMPLES))
follow_own_text("norm_example", "norm_text", example_text)
st.selectbox(_("Example"), list(EXAMPLES), key="norm_example", format_func=lambda k: _(EXAMPLES[k][0]),
             on_change=_use_example)
text = text_input("norm_text", example_text(st.session_state["norm_example"]), label=_("Text"), height=100)

# ---- overview: every form at once (real tokenizers.normalizers objects)
st.subheader(_("All forms at once"), divider="gray")
results = N.compare_forms(text) if text else {}
overview = []
for name, res in results.items():
    overview.append({"form": N.FORMS[name].label, "result": res.after, "changed letters": res.changed_clusters,
                     "warnings": "; ".join(w.kind for w in res.warnings if w.kind not in ("zero-width", "khanda-ta"))})
if overview:
    show_table(pd.DataFrame(overview), hide_index=True, column_config={c: _(c) for c in COLUMNS})

# ---- one form in detail
st.subheader(_("One form, code point by code point"), divider="gray")
qp_init("norm_form", "bert", param="form", choices=list(DETAIL))
c1, c2, c3 = st.columns([2, 1, 1])
form = c1.radio(_("Form"), list(DETAIL), key="norm_form", format_func=lambda k: _(DETAIL[k]), horizontal=True)
if form == "bert":
    lower = c2.toggle("lowercase", value=True, key="norm_lower")  # the BertNormalizer parameter's own name
    strip = c3.selectbox("strip_accents", list(STRIP), key="norm_strip",
                         help=_("unset: follows lowercase (this is the trap); true: always strip Mn marks; false: keep "
                                "them"))
    norm = N.bert_normalizer(lowercase=lower, strip_accents=STRIP[strip])
    label = f"BertNormalizer(lowercase={lower}, strip_accents={STRIP[strip]})"
    res = N.normalize_with(text, norm.normalize_str, label)
else:
    label = form
    res = N.normalize(text, form)
qp_sync(example=st.session_state["norm_example"], text=url_text(text), form=form)

if res.notice:
    st.warning(md_escape(localize(res.notice)))
left, right = st.columns(2)
left.html(big_text(res.before, _("Before")))
right.html(big_text(res.after, _("After {normalizer}").format(normalizer=label)))
if res.before == res.after:
    st.success(md_format(_("{normalizer} leaves this text exactly as it is."), normalizer=label))
for w in res.warnings:
    ex = ("  \n" + _("Examples: {examples}").format(examples=" · ".join(w.examples))) if w.examples else ""
    (st.error if w.kind == "marks-removed" else st.warning)(localize(w.message) + ex)

only_changed = st.toggle(_("Only changed letters"), value=True, key="norm_only_changed")
rows, classes = [], []
op_labels = {k: esc(_(v)) for k, v in OP_LABEL.items()}
for c in res.clusters:
    if only_changed and not c.changed:
        continue
    for r in c.rows:
        before = "<br>".join(f"{esc(x.char)} <code>{x.hex}</code> {esc(x.name)} ({x.category})" for x in r.before)
        after = "<br>".join(f"{esc(x.char)} <code>{x.hex}</code> {esc(x.name)} ({x.category})" for x in r.after)
        rows.append([f"{c.start}", f"<span dir='auto'>{esc(c.before)}</span> → <span dir='auto'>{esc(c.after)}</span>",
                     before or "—", after or "—", f'<span class="tl-op">{op_labels[r.op]}</span>'])
        classes.append("tl-changed" if r.op in ("replace", "delete", "insert") else "")
MAX_ROWS = 1500
if len(rows) > MAX_ROWS:
    st.warning(md_format(_("Showing the first {shown} of {total} rows; turn on “Only changed letters” or shorten the text."), shown=num(MAX_ROWS), total=num(len(rows))))
    rows, classes = rows[:MAX_ROWS], classes[:MAX_ROWS]
if rows:
    st.html(html_table([_("at"), _("letter"), _("code points before"), _("code points after"), _("change")], rows,
                       classes, testid="norm-table"))
elif text:
    st.caption(_("No letter changed."))
st.caption(md_format(_("Aligned by {method}: each letter (grapheme cluster) of the input next to what it became; highlighted "
             "rows change the text, “re-spelled” rows are the same text in other code points."), method=res.aligned_by))

# ---- rule builder
st.subheader(_("Rule builder: custom replacements"), divider="gray")
st.markdown(_("Rules run in order after NFC, through `tokenizers.normalizers.Replace` inside a `Sequence`; export the "
              "JSON and put it in a tokenizer.json's `normalizer` field so the rules ship with the tokenizer. "
              "The preset is the Uzbek apostrophe rule: ‘ ’ \\` ' become ʻ after o/g and ʼ between other letters."))
preset = pd.DataFrame([{"pattern": r.pattern, "replacement": r.replacement, "regex": r.regex, "note": _(r.note)}
                       for r in N.UZBEK_RULES])
# on a projector the rules are shown as a table in the classroom size, the editor (a canvas grid) folded under it
rules_view = st.container()
with st.expander(_("Edit the rules")) if classroom() else contextlib.nullcontext():
    edited = st.data_editor(preset, num_rows="dynamic", key="norm_rules",
                            column_config={"pattern": st.column_config.TextColumn(_("pattern")),
                                           "replacement": st.column_config.TextColumn(_("replacement")),
                                           "regex": st.column_config.CheckboxColumn("regex", default=True),
                                           "note": st.column_config.TextColumn(_("note"))})
if classroom():
    show_table_in(rules_view, edited, hide_index=True,
                  column_config={"pattern": _("pattern"), "replacement": _("replacement"), "note": _("note")})
rules = [N.Rule(str(r.pattern), "" if pd.isna(r.replacement) else str(r.replacement), bool(r.regex),
                "" if pd.isna(r.note) else str(r.note))
         for r in edited.itertuples() if isinstance(r.pattern, str) and r.pattern]
rule_text = text if st.session_state["norm_example"] == "uzbek" or not text else asset_text("uzbek.txt")
rule_text = st.text_area(_("Text for the rules"), rule_text, key="norm_rule_text", height=90)
try:
    rule_res = N.apply_rules(rule_text, rules)
    export = N.rules_json(rules)
except N.RuleError as exc:
    st.error(md_format(_("Cannot build the normalizer: {error}."), error=localize(exc)))
else:
    a, b = st.columns(2)
    a.html(big_text(rule_res.before, _("Before")))
    b.html(big_text(rule_res.after, ngettext("After {count} rule", "After {count} rules", len(rules)).format(
        count=num(len(rules)))))
    changed = [c for c in rule_res.clusters if c.changed]
    st.caption(md_format(ngettext("{count} letter changed: {list}", "{count} letters changed: {list}", len(changed)), count=num(len(changed)), list=", ".join(f"“{c.before}” {_codes(c.before)} → “{c.after}” {_codes(c.after)}"
                                                      for c in changed[:12])))
    opts = tokenizer_options()
    ids = list(opts)
    default = next((i for i in ("tiktoken-cl100k", "cl100k_base", "bytes") if i in opts), ids[0])
    tok = st.selectbox(_("Count tokens with"), ids, index=ids.index(default), key="norm_tok",
                       format_func=lambda i: option_label(opts[i]))
    try:
        size = 200 if opts[tok].sized else None
        # (not "_" for the unused chips: that name is the translation function)
        before_stats, _chips, name = encode_cached(tok, size, rule_res.before, 50)
        after_stats, _chips, _name = encode_cached(tok, size, rule_res.after, 50)
        # a trained option names its size ("BPE (code point, 200 merges)"); the others by their selector label
        name = name if opts[tok].sized else _(opts[tok].label)
        st.markdown(md_format(_("**{tokenizer}**: {before} tokens before → **{after} after** the rules."), tokenizer=name, before=num(before_stats.tokens), after=num(after_stats.tokens)))
    except Exception as exc:  # a tokenizer failing must not take the page down
        st.error(md_format(_("{tokenizer}: could not encode ({error})."), tokenizer=_(opts[tok].label), error=f"{type(exc).__name__}: {localize(exc)}"))
    st.download_button(_("Download normalizer JSON"), export, file_name="normalizer.json", mime="application/json", on_click="ignore")
    with st.expander(_("Normalizer JSON")):
        st.code(export, language="json")
