"""The Vocabulary page through AppTest: links reopen the same view, hostile ids and patterns get a message."""
from __future__ import annotations

from core.analysis import vocab as V
from core.pretrained import zoo
from tests.helpers import open_page


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
    assert [t.value for t in at.text] == ["hello"]
    assert any("cuts it differently" in str(i.value) for i in at.info)


def test_the_page_speaks_persian():
    at = open_page("vocabulary", {"tok": "cl100k_base", "lang": "fa"})
    assert any("واژگان" in t.value for t in at.title)
