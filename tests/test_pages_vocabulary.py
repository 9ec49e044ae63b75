"""The Vocabulary page through AppTest: links reopen the same view, hostile ids and patterns get a message."""
from __future__ import annotations

from core.analysis import tax
from core.analysis import vocab as V
from core.pretrained import zoo
from tests.helpers import displayed, open_page, shown


def _text(at) -> str:
    return "\n".join([m.value for m in at.markdown] + [str(w.value) for w in at.warning] + [str(e.value) for e in at.error]
                     + [str(i.value) for i in at.info] + [str(s.value) for s in at.success])


def test_a_link_reopens_the_token_and_the_search():
    tok = zoo.load("o200k_base")
    hello = tok.encode_ids("hello")[0]
    at = open_page("vocabulary", {"tok": "o200k_base", "id": str(hello), "query": "রাজ"})
    shown = _text(at)
    assert "bytes 68 65 6C 6C 6F" in shown and "merge rank" in shown
    total = len(V.search(tok, "রাজ").ids)
    assert f"**{total} tokens match.**" in shown
    assert at.number_input(key="vc_id").value == hello


def test_the_url_keeps_every_tab_s_settings():
    """The census tab's selection used to replace the whole URL: a shared link lost the token, search and id."""
    at = open_page("vocabulary", {"tok": "cl100k_base", "query": "রাজ", "id": "500", "cmp": "o200k_base,llama3"})
    assert not at.exception
    url = {k: v[0] if isinstance(v, list) else v for k, v in dict(at.query_params).items()}
    assert {k: url.get(k) for k in ("tok", "query", "id", "cmp")} == {
        "tok": "cl100k_base", "query": "রাজ", "id": "500", "cmp": "o200k_base,llama3"}


def test_an_id_beyond_the_vocabulary_is_clamped_with_a_message():
    at = open_page("vocabulary", {"tok": "cl100k_base", "id": "500000"})
    assert any("id=500000" in str(w.value) for w in at.warning)
    assert at.number_input(key="vc_id").value == zoo.load("cl100k_base").vocab_size - 1


def test_hostile_id_lists_and_patterns_get_messages():
    at = open_page("vocabulary", {"tok": "cl100k_base"}, state={"vc_ids": "1, abc"})
    assert any("is not a whole number" in str(e.value) for e in at.error)
    at = open_page("vocabulary", {"tok": "cl100k_base"}, state={"vc_ids": "15339, -7, 100256"})
    assert any("2 ids are not tokens" in str(w.value) for w in at.warning)
    at = open_page("vocabulary", {"tok": "cl100k_base", "mode": "regex",
                                  "query": r"(?:\S|\S\S|\s)*(?:\S|\s)*\x00"})
    assert any("catastrophic" in str(e.value) for e in at.error)
    at = open_page("vocabulary", {"tok": "cl100k_base"}, state={"vc_ids": "7 " * (V.MAX_DECODE_IDS + 1)})
    assert any("at most" in str(e.value) for e in at.error)


def test_decode_shows_the_text_and_why_the_round_trip_differs():
    tok = zoo.load("o200k_base")
    letters = ", ".join(str(tok.encode_ids(c)[0]) for c in "hello")
    at = open_page("vocabulary", {"tok": "o200k_base"}, state={"vc_ids": letters})
    assert at.text[0].value == "hello"
    assert any("cuts it differently" in str(i.value) for i in at.info)


def test_decode_replays_the_ids_as_a_chat_streams_them():
    """cl100k cuts আ into two tokens: printed alone each shows U+FFFD; the streamer prints আ once, whole."""
    tok = zoo.load("cl100k_base")
    ids = ", ".join(map(str, tok.encode_ids("আমি")))
    at = open_page("vocabulary", {"tok": "cl100k_base"}, state={"vc_ids": ids})
    assert not at.exception
    # each token printed alone (four halves of letters: four U+FFFD), then the streamer's text
    assert at.text[0].value == "আমি"
    lines = [h.value for h in at.html if 'dir="auto" style="white-space: pre-wrap"' in h.value]
    assert [ln.split(">", 1)[1].split("<", 1)[0] for ln in lines] == ["\ufffd" * 4 + "ি", "আমি"]
    assert any("As a chat streams it: 4 of 5 tokens show" in e.label for e in at.expander)
    table = next(d.value for d in at.dataframe if "printed by the streamer" in d.value.columns)
    assert list(table["printed by the streamer"]) == ["", "আ", "", "ম", "ি"]
    assert list(table["held back (hex)"]) == ["E0 A6", "", "E0 A6", "", ""]


def test_the_page_speaks_persian():
    at = open_page("vocabulary", {"tok": "cl100k_base", "lang": "fa"})
    assert any("واژگان" in t.value for t in at.title)


def _trained():
    """A byte-level BPE trained here, joined to the session as the Train page joins it."""
    from core.analysis.recipes import train

    lines = ["বাজারঘরের অর্ডার আগামীকাল বিকেলে রাজশাহী পৌঁছাবে।", "नमस्ते दुनिया, कल शाम ऑर्डर पहुँचेगा।",
             "The order will reach Rajshahi tomorrow evening."] * 3
    t = train("byte-plain", lines, 300)
    return zoo.load_user_bytes(f"{t.id}.tokenizer.json", t.json.encode(), kind="hf-json")


def test_a_trained_tokenizer_opens_with_an_uploaded_corpus():
    mine = _trained()
    word = mine.encode_ids("বাজার")
    merged = max(word)  # the last merge of the word: a token built by merges
    at = open_page("vocabulary", state={"session_tokenizers": {mine.id: mine}, "vc_tok": mine.id, "vc_id": merged,
                                        "vc_ids": ", ".join(map(str, word))})
    assert at.session_state["vc_tok"] == mine.id
    assert "This session (uploaded or trained) · " + mine.name in at.selectbox(key="vc_tok").options
    text = _text(at)
    info = V.lookup(mine, merged)
    assert f"bytes {info.hex}" in text and "merge rank" in text
    assert [t.value for t in at.text] == ["বাজার"]
    # the default reference corpus: the bundled sentences
    bundled = V.unused(mine, [c for row in tax.load_bundled().rows for c in row], "bundled")
    assert f"**{len(bundled.unused)} of" in text
    # an uploaded corpus of one English line: every Bangla and Hindi token goes unused
    corpus = "The order will reach Rajshahi tomorrow evening.\n\n"
    at.file_uploader(key="vc_corpus").upload("mine.txt", corpus.encode(), "text/plain").run()
    assert not at.exception
    rep = V.unused(mine, [corpus.splitlines()[0]], "mine.txt")
    text = shown(_text(at))
    assert f"On mine.txt (1 line, {rep.corpus_tokens} tokens), **{len(rep.unused)} of" in text
    assert len(rep.unused) > len(bundled.unused)
    scripts = at.dataframe[-2].value
    assert dict(zip(scripts["script"], scripts["tokens"])) == rep.by_script
    assert rep.by_script.get("Bengali", 0) > 0


def test_a_binary_corpus_upload_is_a_message():
    at = open_page("vocabulary", {"tok": "cl100k_base"})
    # a PNG's first bytes (NUL bytes, and not UTF-16: b"\x00\x01" repeated would read as UTF-16 text)
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(128, 256))
    at.file_uploader(key="vc_corpus").upload("x.txt", png, "text/plain").run()
    assert not at.exception
    assert any("binary" in str(e.value) for e in at.error)
    assert "On the bundled sentences" in _text(at)


def test_a_link_naming_the_whole_shelf_compares_the_first_few_and_says_so():
    """Issue 37: ``?cmp=`` with every shelf id loaded and counted all 29 (36 s) before the page answered."""
    ids = [i for i in zoo.ENTRIES if i not in ("codepoints", "bytes", "words")]
    assert len(ids) > V.MAX_CENSUS
    at = open_page("vocabulary", {"cmp": ",".join(ids)})
    assert at.session_state["vc_cmp"] == ids[: V.MAX_CENSUS]
    warned = " ".join(str(w.value) for w in at.warning)
    assert "cmp=" in warned and f"more than {V.MAX_CENSUS} items; using the first {V.MAX_CENSUS}" in warned


def _tab_container(at):
    """The proto of the page's tabs (which one opens first: ``default_tab_index``)."""
    def walk(node):
        proto = getattr(node, "proto", None)
        try:
            if proto is not None and proto.WhichOneof("type") == "tab_container":
                return proto.tab_container
        except ValueError:  # an element proto without a "type" oneof
            pass
        for child in getattr(node, "children", {}).values():
            found = walk(child)
            if found is not None:
                return found
        return None
    return walk(at._tree)


def test_search_results_are_separate_chip_groups_and_a_link_reopens_its_tab():
    """Gemma 4, regex ^্: every result starts with a virama; drawn as one text they made one chain of false
    "cut inside a letter" marks. The link names the census tab, which opens, with the page's own tokenizer in it."""
    tok = zoo.load("gemma4")
    at = open_page("vocabulary", {"tok": "gemma4", "query": "^্", "mode": "regex", "tab": "census", "cmp": "o200k_base"})
    total = len(V.search(tok, "^্", "regex").ids)
    [results] = [h.proto.body for h in at.get("html") if h.proto.body.startswith('<div class="tl-groups">')]
    assert results.count('class="tl-tokens"') == min(total, 50)
    assert "tl-sep-g" not in results and "tl-sep-cp" not in results
    assert _tab_container(at).default_tab_index == 2  # Script census
    assert at.query_params["tab"] in ("census", ["census"])
    [census] = [displayed(d) for d in at.dataframe if "tokens of the script" in d.value.columns]
    assert set(census["tokenizer"]) == {tok.name, zoo.load("o200k_base").name}  # the page's tokenizer, and the chosen
    gemma = census[census["tokenizer"] == tok.name].set_index("script")["tokens of the script"]
    bengali = V.census(tok).scripts["Bengali"]
    assert bengali >= 1000 and gemma["Bengali"] == f"{bengali:,}"  # written with separators
