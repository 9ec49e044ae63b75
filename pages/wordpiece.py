"""WordPiece, stepped: greedy longest match first, and the whole-word [UNK]."""
from __future__ import annotations

import streamlit as st

from core import languages
from core.i18n import N_
from core.markdown import md_codes, md_escape, md_format
from core.models import wordpiece as wp
from pages._algos import (
    html_table,
    inject_css,
    sample_word_counts,
    spans_chips,
    trained_wordpiece,
)
from pages._lang import _, localize, ngettext, num
from pages._layout import esc, page_header, show_tokens
from pages._links import chip_links
from pages._samples import language_name, learn_lines
from pages._text_input import text_input
from pages._url import qp_init, qp_sync, url_text

#: The hand-typed vocabulary of the textbook example, and the text that shows its whole-word [UNK] ("দামি").
TYPED_DEFAULT = "ঘর, দাম, ##ের, ##ে, ##র, ##ি"
TYPED_TEXT = "ঘরের দামি ঘরেই"
SOURCES = {
    "typed": N_("Typed by hand"),
    "trained": N_("Trained here (WordPieceTrainer on a bundled sample)"),
    "upload": N_("Upload a tokenizer.json or vocab.txt"),
}

page_header(
    _("WordPiece stepper"),
    _("BERT-style WordPiece takes the longest piece in the vocabulary from the left, with ## on pieces inside a "
      "word. If any remainder matches nothing, the WHOLE word becomes [UNK], not just the leftover."),
)
inject_css()

#: The training-score corpora of the side column (read from the link here, before qp_sync below writes the URL:
#: read after it, the link would count as this session's own and never set the corpus).
CORPORA = {"english": N_("English toy: low ×5, lower ×2, newest ×6, widest ×3"), "sample": N_("Bundled Bangla sample")}
qp_init("wp_corpus", "english", choices=list(CORPORA))

main, side = st.columns([3, 2], gap="large")

with main:
    # Default: a vocabulary trained on a sample, so pasted text in that language mostly encodes;
    # the textbook six pieces ("Typed by hand") show the whole-word [UNK] on purpose.
    qp_init("wp_source", "trained", param="vocab", choices=list(SOURCES))
    source = st.radio(_("Vocabulary"), list(SOURCES), key="wp_source", format_func=lambda k: _(SOURCES[k]),
                      horizontal=True)
    vocab: wp.WordPieceVocab | None = None
    try:
        if source == "typed":
            qp_init("wp_typed", TYPED_DEFAULT)
            typed = st.text_area(_("Pieces (comma, space or one per line; ## marks a piece inside a word)"),
                                 key="wp_typed", height=80)
            vocab = wp.parse_typed_vocab(typed)
        elif source == "trained":
            qp_init("wp_lang", languages.default(), param="sample", choices=languages.codes())  # not "lang": the interface's
            qp_init("wp_size", 300, param="size", cast=int, lo=80, hi=1500, step=20)
            c1, c2 = st.columns([1, 2])
            lang = c1.selectbox(_("Sample"), languages.codes(), key="wp_lang", format_func=lambda k: _(language_name(k)))
            size = c2.slider(_("Vocabulary size"), 80, 1500, key="wp_size", step=20)
            vocab = trained_wordpiece(size, lang)
        else:
            up = st.file_uploader(_("WordPiece tokenizer.json or BERT vocab.txt"), type=None,
                                  key="wp_upload", max_upload_size=20)
            if up is None:
                st.info(_("Upload a file to use its vocabulary."))
            else:
                vocab = wp.load_vocab_bytes(up.getvalue(), up.name)
    except wp.VocabError as exc:
        st.error(md_format(_("Cannot use this vocabulary: {error}."), error=localize(exc)))
        vocab = None

    if vocab is not None:
        st.caption(md_format(_("{count} entries · unknown token {unk} · prefix {prefix} · words longer than {limit} characters "
                     "become {unk}"), count=num(len(vocab)), unk=vocab.unk_token, prefix=vocab.prefix, limit=vocab.max_input_chars_per_word))
        for note in vocab.notes:
            st.info(md_escape(localize(note)))

    trained_lang = st.session_state.get("wp_lang", languages.default()) if source == "trained" else None
    default_text = TYPED_TEXT if source == "typed" else learn_lines(trained_lang or languages.default())[0]
    # the text box follows the sample: a new language starts from its own first sentence
    text = text_input(f"wp_text_{trained_lang or source}", default_text, label=_("Text to encode"), upload=False,
                      height=80)
    qp_sync(vocab=source, text=url_text(text), size=st.session_state.get("wp_size") if source == "trained" else None,
            sample=trained_lang, wp_corpus=st.session_state.get("wp_corpus"))

    if vocab is not None and text.strip():
        trace = wp.encode(text, vocab)
        # Chips: each word's pieces as spans of the original text; an [UNK] word is one chip.
        spans, ids = [], []
        for w in trace.words:
            if w.unk:
                spans.append((w.start, w.end))
                ids.append(w.ids[0] if w.ids else None)
                continue
            for s, tok_id in zip(w.steps, w.ids):
                end = next(c.end for c in s.candidates if c.found)
                spans.append((w.start + s.position, w.start + end))
                ids.append(tok_id)
        st.subheader(_("Result"), divider="gray")
        st.markdown(md_format(ngettext("**{count} token:** {pieces}", "**{count} tokens:** {pieces}", len(trace.pieces)), count=num(len(trace.pieces)), pieces=md_codes([wp.display_piece(p, vocab.prefix) for p in trace.pieces])))
        show_tokens(spans_chips(text, spans, ids, link=chip_links(text)))  # a chip opens the word inspector
        unk_words = [w for w in trace.words if w.unk]
        if unk_words:
            st.warning(md_format(ngettext("{count} word became {unk}: {words}. Its meaning is lost to the model.",
                                "{count} words became {unk}: {words}. Their meaning is lost to the model.",
                                len(unk_words)), count=num(len(unk_words)), unk=vocab.unk_token, words=", ".join(w.word for w in unk_words[:10])))

        st.subheader(_("Steps for one word"), divider="gray")
        labels = [f"{k + 1}. {w.word}" + (f"  → {vocab.unk_token}" if w.unk else "") for k, w in enumerate(trace.words)]
        first_unk = next((k for k, w in enumerate(trace.words) if w.unk), 0)
        # keyed by the text: new text gives a new box (never a word of the old text over these steps)
        pick = st.selectbox(_("Word"), range(len(labels)), index=first_unk, format_func=lambda k: labels[k],
                            key=f"wp_word_{hash(text)}")
        word = trace.words[pick]
        if word.too_long:
            st.error(md_format(_("“{word}…” has {count} characters: {reason}."), word=word.word[:40],
                               count=num(len(word.word)), reason=localize(word.reason)))
        else:
            n_steps = len(word.steps)
            upto = st.slider(_("Show steps"), 1, n_steps, n_steps, key=f"wp_step_{pick}_{n_steps}") if n_steps > 1 else 1
            in_vocab, not_in_vocab = esc(_("✔ in vocabulary")), esc(_("✘ not in vocabulary"))
            heads = [_("candidate"), _("characters"), _("lookup")]  # html_table escapes its headers
            for s in word.steps[:upto]:
                # escaped templates first, then the escaped values (HTML) go into their fields
                outcome = (esc(_("match {piece}")).format(piece=f"<b>{esc(s.match)}</b>") if s.match else
                           '<span class="tl-algo-flag">' + esc(_("no candidate matches: the whole word becomes {unk}")
                                                               .format(unk=vocab.unk_token)) + "</span>")
                line = esc(ngettext("At character {position}, remaining {rest}: tried {count} candidate, longest first; "
                                    "{outcome}",
                                    "At character {position}, remaining {rest}: tried {count} candidates, longest "
                                    "first; {outcome}", len(s.candidates))).format(
                    position=s.position, rest=f"<b dir='auto'>{esc(s.remaining)}</b>", count=len(s.candidates),
                    outcome=outcome)
                st.html(f"<div>{line}</div>")
                rows = [[f"<code>{esc(wp.display_piece(c.piece, vocab.prefix))}</code>", f"{c.start}–{c.end}",
                         in_vocab if c.found else not_in_vocab] for c in s.candidates]
                st.html(html_table(heads, rows,
                                   ["tl-hit" if c.found else "" for c in s.candidates], testid="wp-steps"))
            if upto == n_steps:
                if word.unk:
                    st.error(md_format(_("Result: {unk}, because {reason}."), unk=vocab.unk_token,
                                       reason=localize(word.reason)))
                else:
                    st.success(md_format(_("Result: {pieces}"), pieces=" ".join(wp.display_piece(p, vocab.prefix) for p in word.pieces)))
    elif vocab is not None:
        st.info(_("Type some text to encode."))

with side:
    st.subheader(_("Training score: WordPiece vs BPE"), divider="gray")
    st.markdown(_(
        "The textbook WordPiece trainer merges the pair with the highest **count(ab) / (count(a) × count(b))**; "
        "BPE merges the pair with the highest **count(ab)**. Below, both run on the same corpus. "
        "Note: Hugging Face's `WordPieceTrainer` (used for “Trained here”) actually picks merges by BPE counts."
    ))
    corpus = st.radio(_("Corpus"), list(CORPORA), key="wp_corpus", format_func=lambda k: _(CORPORA[k]))
    steps = st.slider(_("Merges"), 1, 30, 8, key="wp_merges")
    counts = {"low": 5, "lower": 2, "newest": 6, "widest": 3} if corpus == "english" else sample_word_counts()
    by_score = wp.score_merges(counts, steps, criterion="wordpiece")
    by_count = wp.score_merges(counts, steps, criterion="bpe")
    rows, classes = [], []
    differ_word, same_word = esc(_("differ")), esc(_("same"))
    for a, b in zip(by_score, by_count):
        differ = a.chosen.merged != b.chosen.merged
        rows.append([
            str(a.number),
            f"<code>{esc(a.chosen.left)} + {esc(a.chosen.right)}</code><br>"
            f"{a.chosen.pair_count}/({a.chosen.left_count}×{a.chosen.right_count}) = {a.chosen.score:.3f}",
            f"<code>{esc(b.chosen.left)} + {esc(b.chosen.right)}</code><br>"
            + esc(_("count {count}").format(count=b.chosen.pair_count)),
            differ_word if differ else same_word,
        ])
        classes.append("tl-changed" if differ else "")
    st.html(html_table(["#", _("WordPiece score picks"), _("BPE count picks"), ""], rows, classes, testid="wp-score"))
    n_diff = sum(1 for a, b in zip(by_score, by_count) if a.chosen.merged != b.chosen.merged)
    st.caption(md_format(_("The two runs choose differently at {count} of {total} steps. The score favours pairs whose parts "
                 "rarely appear apart, even if the pair itself is rare."), count=num(n_diff), total=num(len(rows))))
    if by_score:
        with st.expander(_("Words after the WordPiece-score run")):
            st.html(html_table([_("word"), _("pieces")],
                               [[esc(w), esc(" ".join(p))] for w, p in by_score[-1].segmentations[:60]]))
