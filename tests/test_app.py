"""Every page through Streamlit's AppTest: defaults, empty text, 200 KB of text, stepping, URL state."""
from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests import helpers
from tests.conftest import app_pages

TIMEOUT = 120

BIG_LINE = "বাজারঘরের অর্ডার আগামীকাল বিকেলে রাজশাহী পৌঁছাবে। Your order will reach Rajshahi tomorrow.\n"
BIG_200KB = BIG_LINE * (200_000 // len(BIG_LINE.encode("utf-8")) + 1)


def open_page(path: str, query: dict[str, str] | None = None) -> AppTest:
    return helpers.open_page(path, query, timeout=TIMEOUT, check=False)


def no_exception(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def html_bodies(at: AppTest) -> list[str]:
    return [h.proto.body for h in at.get("html")]


def text_boxes(at: AppTest):
    """The page's main text inputs (text areas), if any."""
    return list(at.text_area)


#: Pages without a text area: the free-text box the 200 KB check fills instead (a word, a short text, a search).
TEXT_INPUT = {"inspector": "in_word", "replay": "rp_text", "stepper": "st_new_toy", "unigram": "ug_word_bn",
              "tax": "tax_tok_search"}
#: Pages with no free-text box at all (checked below, so a box added later joins the 200 KB check).
NO_TEXT = {"train"}


def main_box(at: AppTest, path: str):
    """The box the empty / 200 KB check fills: the first text area, else the page's entry in :data:`TEXT_INPUT`."""
    return at.text_input(key=TEXT_INPUT[path]) if path in TEXT_INPUT else text_boxes(at)[0]


PAGES = [p for p, _ in app_pages()]


@pytest.mark.parametrize("path", PAGES)
def test_page_renders_with_defaults(path):
    at = open_page(path)
    no_exception(at)
    assert at.title, "every page has a title"
    assert at.caption, "every page has its one-line explanation"
    # the 200 KB check below reaches every page with a free-text box
    if path in NO_TEXT:
        assert not text_boxes(at) and not list(at.text_input), path
    else:
        assert bool(text_boxes(at)) == (path not in TEXT_INPUT), path
        assert main_box(at, path) is not None


@pytest.mark.parametrize("path", [p for p in PAGES if p not in NO_TEXT])
def test_page_renders_with_empty_and_200kb_text(path):
    at = open_page(path)
    main_box(at, path).input("").run()
    no_exception(at)
    main_box(at, path).input(BIG_200KB).run()  # the same session: one page load for both
    no_exception(at)


def test_home_shows_each_chosen_tokenizer_with_counts():
    at = open_page("home")
    chosen = at.multiselect(key="home_tok").value
    assert chosen == ["codepoints", "bytes", "words", "bpe-sample-cp"]
    stats = [m.value for m in at.markdown if "tokens/word" in m.value]
    assert len(stats) == len(chosen)
    assert all("cut%" in s and "bad%" in s for s in stats)
    # the byte baseline cuts Bangla letters: its chips carry hex and inside-code-point markers
    assert any('data-kind="inside_codepoint"' in b and "E0 A6" in b for b in html_bodies(at))


def test_home_empty_text_and_no_tokenizer_give_hints():
    at = open_page("home")
    at.text_area(key="home_text").input("").run()
    no_exception(at)
    assert any("Type or paste" in i.value for i in at.info)
    at.multiselect(key="home_tok").set_value([]).run()
    no_exception(at)


def test_home_two_megabytes_are_limited_with_a_notice():
    at = open_page("home", {"tok": "codepoints"})  # one tokenizer keeps the test quick
    at.text_area(key="home_text").input("ক" * 700_000).run()  # 2.1 MB of UTF-8
    no_exception(at)
    assert any("Input limited" in w.value for w in at.warning)
    assert any("100,000 tokens" in m.value for m in at.markdown)  # one code point per token: exactly the limit


def test_home_url_state_round_trip():
    at = open_page("home", {"text": "ঘরের", "tok": "words,bytes", "merges": "50"})
    no_exception(at)
    assert at.text_area(key="home_text").value == "ঘরের"
    assert at.multiselect(key="home_tok").value == ["words", "bytes"]
    assert at.query_params["tok"] in ("words,bytes", ["words,bytes"])


def test_stepper_controls_move_the_step():
    at = open_page("stepper")
    no_exception(at)
    assert at.session_state["step"] == 0
    for expected in (1, 2, 3):
        at.button(key="step_next").click().run()
        assert at.session_state["step"] == expected
    watch = next(b for b in html_bodies(at) if "tl-watch" in b)
    assert "<b>Merge 3</b> of 10" in watch
    assert at.query_params["step"] in ("3", ["3"])
    at.button(key="step_prev").click().run()
    assert at.session_state["step"] == 2
    at.button(key="step_last").click().run()
    assert at.session_state["step"] == 10
    at.button(key="step_next").click().run()  # past the end stays at the end
    assert at.session_state["step"] == 10
    at.button(key="step_first").click().run()
    assert at.session_state["step"] == 0
    at.slider(key="step").set_value(4).run()
    assert at.session_state["step"] == 4
    no_exception(at)


def test_stepper_toy_table_matches_the_worked_example():
    at = open_page("stepper", {"step": "3"})
    no_exception(at)
    watch = next(b for b in html_bodies(at) if "tl-watch" in b)
    assert "total tokens <b>67</b>" in watch  # PRODUCT.md: merge 3 (জ + ার) -> 67 tokens
    # "বাজারঘর" with merges 1-3: বা জার ঘ র
    assert any("4 tokens" in m.value for m in at.markdown)
    assert any("identical to the input" in s.value for s in at.success)


def test_stepper_byte_mode_and_every_corpus():
    at = open_page("stepper", {"unit": "byte", "step": "1"})
    no_exception(at)
    watch = next(b for b in html_bodies(at) if "tl-watch" in b)
    assert "E0 A6" in watch  # the first byte merge on Bangla is E0 + A6
    for corpus in ("shop_bn", "shop_en", "paste", "upload"):
        at.radio(key="st_corpus").set_value(corpus).run()
        no_exception(at)
    at.radio(key="st_corpus").set_value("paste").run()
    at.text_area(key="st_text").input("").run()
    no_exception(at)
    assert any("Give the stepper some text" in i.value for i in at.info)


def test_stepper_with_empty_and_200kb_pasted_corpus():
    at = open_page("stepper", {"corpus": "paste", "merges": "50"})
    at.text_area(key="st_text").input("").run()
    no_exception(at)
    at.text_area(key="st_text").input(BIG_200KB).run()
    no_exception(at)
    at.button(key="step_last").click().run()
    no_exception(at)
    assert at.session_state["step"] == 50


def test_stepper_bad_word_table_is_a_clear_error():
    at = open_page("stepper")
    at.text_input(key="st_words").input("কার:4,জার").run()
    no_exception(at)
    assert any("Cannot train" in e.value for e in at.error)


def test_stepper_url_state_is_validated():
    at = open_page("stepper", {"unit": "nonsense", "merges": "abc", "step": "999", "corpus": "shop_en"})
    no_exception(at)
    assert at.selectbox(key="st_unit").value == "codepoint"
    assert at.radio(key="st_corpus").value == "shop_en"
    assert at.session_state["step"] == len_steps(at)


def len_steps(at: AppTest) -> int:
    return at.slider(key="step").max


def test_upload_decoding_messages():
    from pages._text_input import decode_upload

    assert decode_upload("ঘর".encode("utf-8")) == ("ঘর", None)
    assert decode_upload(b"\xef\xbb\xbfabc") == ("abc", None)  # BOM dropped
    text, err = decode_upload(b"\x89PNG\x00\x00", "a.png")
    assert text is None and "binary" in err
    text, err = decode_upload("café".encode("latin-1"), "c.txt")
    assert text is None and "not valid UTF-8" in err and "0xE9" in err


def test_tokenizer_registry_has_baselines_and_trained_bpe():
    from pages._selector import tokenizer_options

    opts = tokenizer_options()
    assert {"codepoints", "bytes", "words", "bpe-sample-cp", "bpe-sample-byte"} <= set(opts)
    assert opts["bpe-sample-cp"].sized and not opts["bytes"].sized


# -- downloads keep 0-9 and English keys (README, "Numbers") -------------------------------------------------------

#: The pages with download buttons, each with two other interface languages (native digits on where the language
#: has them), dealt so that every language is read on two pages: a sample, not the whole product, to stay cheap.
DOWNLOADS = {"compare": ("bn", "uz"), "tax": ("fa", "hi"), "normalization": ("hi", "uz"), "train": ("fa", "bn")}


@pytest.fixture()
def downloaded(monkeypatch):
    """``downloaded(at)``: the bytes behind each download button of a run, read from AppTest's in-memory media
    storage (kept here: AppTest drops its mock runtime after the run)."""
    import streamlit.testing.v1.app_test as app_test_module
    from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage

    kept: list[MemoryMediaFileStorage] = []

    class Kept(MemoryMediaFileStorage):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            kept.append(self)

    monkeypatch.setattr(app_test_module, "MemoryMediaFileStorage", Kept)

    def read(at: AppTest) -> list[tuple[str, bytes]]:
        urls = [b.proto.url for b in at.get("download_button")]
        return [(u.rsplit(".", 1)[-1], kept[-1].get_file(u.rsplit("/", 1)[-1]).content) for u in urls]

    return read


def _native_digits(text: str) -> list[str]:
    import unicodedata

    return sorted(c for c in text if unicodedata.category(c) == "Nd" and not "0" <= c <= "9")


def _keys(value) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


@pytest.mark.parametrize("path", list(DOWNLOADS))
def test_downloads_keep_western_digits_and_english_keys(path, downloaded):
    """Each download read as bytes in another interface language (Bangla and Persian with native digits on): the
    same files, the English CSV header or JSON keys, and no digit other than 0-9 that the English file lacks."""
    import json

    english = downloaded(open_page(path, {"lang": "en"}))
    assert english, f"{path}: no download button"
    for lang in DOWNLOADS[path]:
        other = downloaded(helpers.open_page(path, {"lang": lang}, {"native_digits": True}, timeout=TIMEOUT,
                                             check=False))
        assert [kind for kind, _ in other] == [kind for kind, _ in english], (path, lang)
        for (kind, data), (_, ref) in zip(other, english):
            text, ref_text = data.decode("utf-8"), ref.decode("utf-8")
            assert _native_digits(text) == _native_digits(ref_text), (path, lang, kind)
            if kind == "csv":
                assert text.splitlines()[0] == ref_text.splitlines()[0], (path, lang)
            else:
                assert _keys(json.loads(text)) == _keys(json.loads(ref_text)), (path, lang)
