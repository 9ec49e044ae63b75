"""Chunks of N tokens with overlap K (``core.analysis.chunks``, ``python -m core chunk``).

Every flag is checked against an independent reading of the text, never against figures this code produced:
bytes by strict UTF-8 decoding, letters by the ``regex`` module's ``\\X`` over the whole text, words by ``\\w``
on the characters on each side. Coverage is checked against the plain definition (starts at 0, N-K, ...).
"""
from __future__ import annotations

import json
import tempfile
from functools import lru_cache
from itertools import accumulate
from pathlib import Path

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from core.analysis import stream
from core.analysis.chunks import (
    MAX_CHUNKS,
    MAX_SIZE,
    SNAP_MODES,
    ChunkCutter,
    ChunkError,
    ChunkSettings,
    TextChunk,
    chunk_text,
    cutter,
)
from core.cli import main
from core.languages import LANGUAGES
from core.pretrained import zoo
from core.text.units import cluster_bounds, cluster_starts_at

from .helpers import examples, grapheme_break_cases
from .parity_refs import tiktoken_encoding

#: Words of several scripts: Bangla conjuncts and vowel signs, Devanagari, Persian and Arabic with ZWNJ and
#: harakat, Latin with combining marks, emoji ZWJ sequences and flags, Uzbek Latin (ʻ U+02BB) and Cyrillic.
FRAGMENTS = ["বাজারঘরের", "অর্ডার", "পৌঁছাবে।", "ক্ষমা", "ব্যাংক", "হিন্দী", "क्षत्रिय", "पहुँचेगा।", "सामान",
             "می‌خواهم", "نمی‌دانم", "السَّلَامُ", "عَلَيْكُمْ", "café", "cafe\u0301", "n\u0303o", "Zoe\u0308",
             "👩\u200d💻", "👨\u200d👩\u200d👧\u200d👦", "🏳️\u200d🌈", "🇧🇩🇮🇷", "order", "today.", "42", "_x",
             "Oʻzbekiston", "gʻalaba", "soʻm", "Ўзбекистон", "ғалаба"]
SEPARATORS = [" ", "  ", "\n", ", ", "-", "\u200c", "\u200d", "\u0301", ""]
TEXTS = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.sampled_from(SEPARATORS)), max_size=24).map("".join)

_X = regex.compile(r"\X")
_W = regex.compile(r"\w")


@pytest.fixture(scope="module")
def cl100k():
    return zoo.load("cl100k_base")


# -- the independent reading --------------------------------------------------------------------------------------

def _letter_starts(text: str) -> set[int]:
    """Byte offsets where a grapheme cluster starts (and the end), from ``regex`` ``\\X`` over the whole text."""
    out, pos = {len(text.encode("utf-8"))}, 0
    for g in _X.findall(text):
        out.add(pos)
        pos += len(g.encode("utf-8"))
    return out


def _inside_character(raw: bytes, p: int) -> bool:
    try:
        raw[:p].decode("utf-8")  # a prefix that ends inside a character fails strict decoding
    except UnicodeDecodeError:
        return True
    return False


def _inside_word(raw: bytes, p: int) -> bool:
    if p <= 0 or p >= len(raw):
        return False
    before = raw[:p].decode("utf-8", "ignore")
    if _inside_character(raw, p):
        whole = raw.decode("utf-8")
        return bool(_W.match(whole[len(before)]))  # "ignore" dropped the partial character: it is the next one
    after = raw[p:].decode("utf-8")
    return bool(_W.match(before[-1]) and _W.match(after[0]))


def _check_flags(text: str, chunks: tuple[TextChunk, ...], contiguous: bool) -> None:
    raw = text.encode("utf-8")
    letters = _letter_starts(text)
    for c in chunks:
        for e in (c.start, c.end):
            if e.token == 0 or e.token == chunks[-1].token_end:
                assert not (e.inside_character or e.inside_grapheme or e.inside_word)
                continue
            assert e.inside_character == _inside_character(raw, e.byte), (text, e)
            assert e.inside_grapheme == (e.byte not in letters), (text, e)
            assert e.inside_word == _inside_word(raw, e.byte), (text, e)
        if contiguous:  # the chunk's own bytes: strict decoding fails exactly when an edge is inside a character
            try:
                raw[c.byte_start:c.byte_end].decode("utf-8")
                ok = True
            except UnicodeDecodeError:
                ok = False
            assert ok == (not c.start.inside_character and not c.end.inside_character), (text, c)
            assert c.text == raw[c.byte_start:c.byte_end].decode("utf-8", "replace")


def _check_cover(chunks: tuple[TextChunk, ...], n: int, s: ChunkSettings) -> None:
    """Plain chunks: starts 0, N-K, ...; N tokens each; consecutive chunks share exactly K; the last ends at n."""
    if n == 0:
        assert chunks == ()
        return
    assert [c.token_start for c in chunks] == list(range(0, s.step * len(chunks), s.step))
    assert all(c.token_end == min(c.token_start + s.size, n) for c in chunks)
    assert chunks[-1].token_end == n and all(c.token_end < n for c in chunks[:-1])
    for a, b in zip(chunks, chunks[1:]):
        assert a.token_end - b.token_start == s.overlap  # overlap exactly K, no gap
    assert len(chunks) == s.plain_chunks(n)


def _check_snapped(chunks: tuple[TextChunk, ...], n: int, s: ChunkSettings, letters_at: list[bool],
                   word: list[bool]) -> None:
    """Snapped chunks cover every token with no gap, hold at most N tokens, move forward, and leave an edge
    inside a letter (a word) only when it says so, and then no whole edge was in reach."""
    assert chunks[0].token_start == 0 and chunks[-1].token_end == n
    for a, b in zip(chunks, chunks[1:]):
        assert a.token_start < b.token_start <= a.token_end < b.token_end
    assert all(1 <= c.tokens <= s.size for c in chunks)
    for i, c in enumerate(chunks):
        for edge, reach in ((c.end, range(max(c.token_start, chunks[i - 1].token_end if i else 0) + 1, c.token_start + s.size + 1)),
                            (c.start, range(chunks[i - 1].token_start + 1, chunks[i - 1].token_end + 1) if i else range(0))):
            if edge.token in (0, n) or (edge is c.start and s.overlap == 0):
                continue
            reach_in = [k for k in reach if k < n]
            if edge.inside_grapheme:
                assert edge.fallback == "none", edge
                assert not any(letters_at[k] for k in reach_in), (edge, reach)  # no whole-letter edge in reach
            if s.snap == "word" and edge.inside_word and not edge.inside_grapheme:
                assert edge.fallback == "grapheme", edge
                assert not any(word[k] for k in reach_in), (edge, reach)
            if edge.fallback is None and s.snap == "word":
                assert not edge.inside_word
            level = word if s.snap == "word" and edge.fallback is None else letters_at
            if edge.moved_from is not None and edge is c.end:  # the nearest whole edge back from the plain cut
                assert not any(level[k] for k in range(edge.token + 1, edge.moved_from + 1) if k < n), edge
            if edge.moved_from is not None and edge is c.start:  # the nearest whole edge to end - K, either way
                d = abs(edge.token - edge.moved_from)
                assert not any(level[k] for k in reach_in if abs(k - edge.moved_from) < d), edge


def _edges_whole(tok, text: str) -> tuple[list[bool], list[bool]]:
    """For the edge before each token: whole letter, and whole letter and word (independent reading)."""
    raw = text.encode("utf-8")
    letters = _letter_starts(text)
    starts = [bs for bs, _ in tok.table(text).byte_spans]
    letter = [k == 0 or p in letters for k, p in enumerate(starts)]
    word = [lw and not _inside_word(raw, p) for lw, p in zip(letter, starts)]
    return letter, word


@lru_cache(maxsize=None)
def _tiktoken(tid: str):
    return tiktoken_encoding(tid)


def _check_against_tiktoken(tid: str, text: str, chunks: tuple[TextChunk, ...]) -> None:
    """Ids from tiktoken's own ``encode_ordinary``, byte offsets from the lengths of its own token bytes
    (``decode_single_token_bytes``): every chunk covers exactly its tokens' bytes, its text is those bytes decoded
    alone, and each edge sits where tiktoken's token starts, flagged inside a character / a letter exactly when
    strict UTF-8 decoding / ``regex`` ``\\X`` over the whole text say so at that byte."""
    ref = _tiktoken(tid)
    ids = ref.encode_ordinary(text)
    pieces = [ref.decode_single_token_bytes(i) for i in ids]
    at = [0, *accumulate(len(p) for p in pieces)]
    raw, letters = text.encode("utf-8"), _letter_starts(text)
    assert (chunks[-1].token_end if chunks else 0) == len(ids)
    for c in chunks:
        assert (c.byte_start, c.byte_end) == (at[c.token_start], at[c.token_end])
        assert c.text == b"".join(pieces[c.token_start:c.token_end]).decode("utf-8", "replace")
        for e in (c.start, c.end):
            inner = 0 < e.token < len(ids)
            assert e.byte == at[e.token], (text, e)
            assert e.inside_character == (inner and _inside_character(raw, at[e.token])), (text, e)
            assert e.inside_grapheme == (inner and at[e.token] not in letters), (text, e)


# -- settings and limits ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("size, overlap, snap, says", [
    (0, 0, "none", "chunk size"), (-1, 0, "none", "chunk size"), (10**12, 0, "none", "1,000,000"),
    (True, 0, "none", "chunk size"), (4, 4, "none", "overlap"), (4, 9, "none", "less than the chunk size 4"),
    (4, -1, "none", "overlap"), (4, 0, "letters", "snap"), pytest.param(10**5000, 0, "none", "digits", id="huge"),
])
def test_settings_refuse_bad_values_in_one_line(size, overlap, snap, says) -> None:
    with pytest.raises(ChunkError) as err:
        ChunkSettings(size, overlap, snap)
    assert says in str(err.value) and "\n" not in str(err.value)


@given(st.integers(0, 400), st.integers(1, 30), st.data())
def test_plain_counts_match_the_definition(n: int, size: int, data) -> None:
    overlap = data.draw(st.integers(0, size - 1))
    s = ChunkSettings(size, overlap)
    starts, k = [], 0
    while n:  # the definition: start at 0, step N-K, stop at the chunk that reaches the end
        starts.append(k)
        if k + size >= n:
            break
        k += size - overlap
    assert s.plain_chunks(n) == len(starts)
    assert s.plain_tokens_in_chunks(n) == sum(min(a + size, n) - a for a in starts)


# -- the local grapheme judge --------------------------------------------------------------------------------------

def test_local_cluster_judge_passes_the_unicode_break_test() -> None:
    cases = grapheme_break_cases()
    for raw, text, breaks in cases:
        assert [cluster_starts_at(text, p) for p in range(len(text) + 1)] == breaks, raw
    assert len(cases) > 700


@given(TEXTS)
@settings(max_examples=examples(3))
def test_local_cluster_judge_equals_segmenting_the_text(text: str) -> None:
    bounds = set(cluster_bounds(text))
    assert [cluster_starts_at(text, p) for p in range(len(text) + 1)] == [p in bounds for p in range(len(text) + 1)]


# -- plain chunks: cover and flags ----------------------------------------------------------------------------------

@given(TEXTS, st.integers(1, 12), st.data())
@settings(max_examples=examples(3))
def test_plain_chunks_cover_every_token_and_flags_agree(cl100k, text: str, size: int, data) -> None:
    s = ChunkSettings(size, data.draw(st.integers(0, size - 1)))
    r = chunk_text(cl100k, text, s, max_listed=None)
    n = len(cl100k.encode_ids(text))
    _check_cover(r.chunks, n, s)
    _check_flags(text, r.chunks, contiguous=True)
    assert r.summary.tokens == n and r.summary.tokens_in_chunks == s.plain_tokens_in_chunks(n)
    assert r.summary.bytes == len(text.encode("utf-8")) and r.summary.chars == len(text)
    kinds = [[(c.start.inside_character, c.start.inside_grapheme, c.start.inside_word)[i] or
              (c.end.inside_character, c.end.inside_grapheme, c.end.inside_word)[i] for c in r.chunks] for i in range(3)]
    assert list(r.summary.chunks_inside) == [sum(k) for k in kinds]


@pytest.mark.parametrize("tid", ["bytes", "codepoints", "words", "mistral-spm-v1", "o200k_base", "llama3"])
@given(text=TEXTS, size=st.integers(1, 9))
@settings(max_examples=examples(0.5))
def test_other_tokenizers_cover_every_token_and_flags_agree(tid: str, text: str, size: int) -> None:
    tok = zoo.load(tid)
    s = ChunkSettings(size, size // 3)
    r = chunk_text(tok, text, s, max_listed=None)
    _check_cover(r.chunks, len(tok.table(text)), s)
    _check_flags(text, r.chunks, contiguous=tid in ("bytes", "codepoints", "o200k_base", "llama3"))


# -- snapping -----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("walk", [cutter.WALK, 0, 2], ids=["walk", "tables", "short-walk"])
@pytest.mark.parametrize("snap", ["grapheme", "word"])
@given(text=TEXTS, size=st.integers(1, 10), data=st.data())
@settings(max_examples=examples(1))
def test_snapping_leaves_a_cut_inside_a_letter_only_when_no_whole_edge_is_in_reach(cl100k, walk, snap, text, size, data):
    """Judged edge by edge (the first WALK edges a snap looks at) or by the block's table of every edge: the same
    rule, and the independent reading agrees with both."""
    s = ChunkSettings(size, data.draw(st.integers(0, size - 1)), snap)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(cutter, "WALK", walk)
        r = chunk_text(cl100k, text, s, max_listed=None)
    n = r.summary.tokens
    if not n:
        assert r.chunks == ()
        return
    _check_flags(text, r.chunks, contiguous=True)
    letter, word = _edges_whole(cl100k, text)
    _check_snapped(r.chunks, n, s, letter, word)
    cost = r.summary.to_json()["snap_cost"]
    assert cost["plain_chunks"] == s.plain_chunks(n)
    assert r.summary.tokens_in_chunks == sum(c.tokens for c in r.chunks)
    assert cost["extra_tokens"] == r.summary.tokens_in_chunks - s.plain_tokens_in_chunks(n)


@pytest.mark.parametrize("tid", ["cl100k_base", "o200k_base"])
@given(text=TEXTS, size=st.integers(1, 12), data=st.data())
@settings(max_examples=examples(1))
def test_chunks_agree_with_tiktoken_itself(tid: str, text: str, size: int, data) -> None:
    s = ChunkSettings(size, data.draw(st.integers(0, size - 1)), data.draw(st.sampled_from(SNAP_MODES)))
    r = chunk_text(zoo.load(tid), text, s, max_listed=None)
    _check_against_tiktoken(tid, text, r.chunks)


@pytest.mark.parametrize("tid", ["cl100k_base", "o200k_base"])
@pytest.mark.parametrize("lang", ["bn", "hi", "fa", "uz"])
@pytest.mark.parametrize("size, overlap", [(3, 1), (16, 4), (64, 0)])
def test_language_samples_cut_and_snapped_as_tiktoken_and_unicode_say(tid: str, lang: str, size: int,
                                                                       overlap: int) -> None:
    """Each learning language's sample (Bangla, Hindi, Persian, Uzbek), plain and snapped: cover, edges against
    tiktoken and ``\\X``, and a snapped edge left inside a letter only when no whole edge was in reach."""
    tok = zoo.load(tid)
    text = "\n".join(LANGUAGES[lang].sample_lines()[:12])
    plain = chunk_text(tok, text, ChunkSettings(size, overlap), max_listed=None)
    n = plain.summary.tokens
    _check_cover(plain.chunks, n, ChunkSettings(size, overlap))
    _check_against_tiktoken(tid, text, plain.chunks)
    _check_flags(text, plain.chunks, contiguous=True)
    letter, word = _edges_whole(tok, text)
    for snap in ("grapheme", "word"):
        s = ChunkSettings(size, overlap, snap)
        snapped = chunk_text(tok, text, s, max_listed=None)
        _check_against_tiktoken(tid, text, snapped.chunks)
        _check_flags(text, snapped.chunks, contiguous=True)
        _check_snapped(snapped.chunks, n, s, letter, word)
    if lang in ("bn", "hi") and size <= 16:  # these scripts spend several tokens on a letter: some cut falls inside
        assert plain.summary.chunks_inside[1] > 0


def test_a_bangla_chunk_edge_falls_inside_a_letter_with_cl100k(cl100k) -> None:
    """cl100k spends several tokens on one Bangla letter: 8-token chunks of a Bangla sentence end inside letters
    (and inside characters' bytes); snapping to whole letters moves those cuts, at a cost in tokens."""
    text = "বাজারঘরের অর্ডার আজ পৌঁছাবে। আমি কাল সকালে দোকানে যাব।\n"
    raw = text.encode("utf-8")
    plain = chunk_text(cl100k, text, ChunkSettings(8))
    cut = [c for c in plain.chunks if c.end.inside_grapheme]
    assert cut, "no edge inside a letter"
    letters = _letter_starts(text)
    assert all(c.end.byte not in letters for c in cut)  # the independent reading agrees: inside a cluster
    in_bytes = [c for c in plain.chunks[1:] if c.start.inside_character]
    assert in_bytes and all("\ufffd" in c.text for c in in_bytes)  # decoded alone: a broken character
    with pytest.raises(UnicodeDecodeError):
        raw[in_bytes[0].byte_start:in_bytes[0].byte_end].decode("utf-8")
    snapped = chunk_text(cl100k, text, ChunkSettings(8, snap="grapheme"))
    assert not any(c.end.inside_grapheme or c.start.inside_grapheme for c in snapped.chunks)
    assert snapped.summary.moved > 0 and snapped.summary.chunks >= plain.summary.chunks
    assert plain.summary.share("grapheme") > 0 and snapped.summary.share("grapheme") == 0


def test_a_letter_spread_over_more_tokens_than_a_chunk_keeps_its_cut_and_says_so(cl100k) -> None:
    """ক্ষ্ম with a chunk of 1 token: no edge is whole within reach, so the cut stays inside the letter."""
    text = "ক্ষ্ম"
    assert len(_X.findall(text)) == 1 and len(cl100k.encode_ids(text)) > 1
    r = chunk_text(cl100k, text, ChunkSettings(1, snap="grapheme"))
    inner = [c.end for c in r.chunks[:-1]]
    assert inner and all(e.inside_grapheme and e.fallback == "none" for e in inner)
    assert "stays inside the letter" in r.chunks[0].to_json()["end"]["note"]
    assert r.summary.left_inside == len(inner)


def test_edge_cases_empty_text_and_size_beyond_the_text(cl100k) -> None:
    for snap in ("none", "grapheme", "word"):
        empty = chunk_text(cl100k, "", ChunkSettings(4, 1, snap))
        assert empty.chunks == () and empty.summary.chunks == 0 and empty.summary.share("grapheme") == 0.0
        one = chunk_text(cl100k, "বাজার ঘর", ChunkSettings(1000, 10, snap))
        assert [(c.token_start, c.token_end, c.text) for c in one.chunks] == [(0, len(cl100k.encode_ids("বাজার ঘর")),
                                                                                 "বাজার ঘর")]
    # a single token longer than the chunk in letters: it is never split (size counts tokens)
    long = "-" * 64
    assert len(cl100k.encode_ids(long)) < 4
    r = chunk_text(cl100k, long, ChunkSettings(1))
    assert "".join(c.text for c in r.chunks) == long


def test_too_many_chunks_are_refused_before_the_work(cl100k) -> None:
    text = "ab " * (MAX_CHUNKS + 10)  # a million tokens (" ab" is one) in chunks one token apart
    with pytest.raises(ChunkError, match=r"about 1,000,01\d tokens .* 1 token apart.* more than 1,000,000 chunks"):
        chunk_text(cl100k, text, ChunkSettings(2, 1), max_listed=10)
    assert MAX_SIZE == 1_000_000


# -- streaming ------------------------------------------------------------------------------------------------------

def _multiline(lines: int) -> str:
    rows = ["বাজারঘরের অর্ডার আজ পৌঁছাবে। Your order arrives today.", "क्षत्रिय सामान आज पहुँचेगा।",
            "می‌خواهم نمی‌دانم 👩\u200d💻 café cafe\u0301", "🇧🇩🇮🇷 ক্ষমা ব্যাংক"]
    return "".join(rows[i % len(rows)] + f" {i}\n" for i in range(lines))


@pytest.mark.parametrize("tid", ["cl100k_base", "bytes", "codepoints"])
@pytest.mark.parametrize("size, overlap, snap", [(7, 0, "none"), (16, 5, "grapheme"), (5, 4, "word"), (600, 100, "grapheme")])
def test_streaming_in_blocks_gives_the_chunks_of_the_whole_text(tmp_path: Path, tid, size, overlap, snap) -> None:
    text = _multiline(120)
    path = tmp_path / "t.txt"
    path.write_text(text, encoding="utf-8")
    tok = zoo.load(tid)
    s = ChunkSettings(size, overlap, snap)
    blocks = list(stream.iter_chunks(str(path), cut="text", chunk_bytes=700))
    assert len(blocks) > 10
    streamed = list(ChunkCutter(tok, blocks, s, verify_joins=True))
    whole = chunk_text(tok, text, s, max_listed=None)
    assert [c.to_json() for c in streamed] == [c.to_json() for c in whole.chunks]


@given(lines=st.lists(TEXTS, min_size=1, max_size=30), block=st.integers(1, 400), size=st.integers(1, 24),
       data=st.data())
@settings(max_examples=examples(1))
def test_streaming_any_text_in_any_blocks_gives_the_chunks_of_the_whole_text(cl100k, lines, block, size, data) -> None:
    """Any lines, read in blocks of any size (each cut after a line break followed by text, checked): the same
    chunks, edges and text as the whole text cut at once, for every snap mode and overlap."""
    text = "\n".join(lines)
    s = ChunkSettings(size, data.draw(st.integers(0, size - 1)), data.draw(st.sampled_from(SNAP_MODES)))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.txt"
        path.write_bytes(text.encode("utf-8"))
        blocks = list(stream.iter_chunks(str(path), cut="text", chunk_bytes=block))
    streamed = ChunkCutter(cl100k, blocks, s, verify_joins=True)
    got = [c.to_json() for c in streamed]
    whole = chunk_text(cl100k, text, s, max_listed=None)
    assert got == [c.to_json() for c in whole.chunks]
    assert streamed.summary() == whole.summary


def test_a_big_file_is_cut_holding_only_the_blocks_a_chunk_reaches(tmp_path: Path, cl100k) -> None:
    """4 MB in blocks of 64 KB: the cutter never holds more than the blocks one chunk of 512 tokens reaches
    (memory set by the chunk, not the file), and still counts every byte and token."""
    line = "বাজারঘরের অর্ডার আজ পৌঁছাবে। Your order arrives today. می‌خواهم नमस्ते Oʻzbekiston\n"
    f = tmp_path / "big.txt"
    f.write_bytes(line.encode("utf-8") * (4_000_000 // len(line.encode("utf-8"))))
    block = 1 << 16
    read = 0

    def counted():
        nonlocal read
        for b in stream.iter_chunks(str(f), cut="text", chunk_bytes=block):
            read += 1
            yield b

    c = ChunkCutter(cl100k, counted(), ChunkSettings(512, 64, "grapheme"), verify_joins=True, keep_text=0,
                    expected_bytes=f.stat().st_size)
    peak = 0
    for chunk in c:
        peak = max(peak, c.held_bytes)
        assert chunk.text is None
    assert read > 50 and c.summary().bytes == f.stat().st_size
    assert c.summary().tokens == len(cl100k.encode_ids(line)) * (4_000_000 // len(line.encode("utf-8")))
    assert peak <= 3 * block, peak  # a 512-token chunk is a few KB: at most the block it ends in and one before


# -- the CLI --------------------------------------------------------------------------------------------------------

def _run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse refusing a value
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_json_is_the_engine_s_answer(capsys, cl100k) -> None:
    text = "বাজারঘরের অর্ডার আজ পৌঁছাবে।"
    code, out, _ = _run(capsys, "chunk", "--tokenizer", "cl100k_base", "--text", text, "--size", "6", "--overlap",
                        "2", "--snap", "word", "--json")
    assert code == 0
    got = json.loads(out)
    want = chunk_text(cl100k, text, ChunkSettings(6, 2, "word"))
    assert got["chunks"] == [c.to_json() for c in want.chunks] and got["listed"] == len(want.chunks)
    assert got["summary"]["chunks"] == want.summary.chunks and "note" not in got
    assert set(got["summary"]) >= {"tokens", "chunks", "share_inside", "chunks_inside", "snap_cost", "starts_inside"}
    edge = got["chunks"][0]["end"]
    assert set(edge) >= {"token", "byte", "char", "inside_character", "inside_grapheme", "inside_word", "moved_from",
                         "fallback"}


def test_cli_lists_the_first_thousand_and_says_so(capsys, tmp_path: Path) -> None:
    f = tmp_path / "t.txt"
    f.write_text(_multiline(100), encoding="utf-8")
    code, out, err = _run(capsys, "chunk", "--tokenizer", "cl100k_base", "--file", str(f), "--size", "2", "--json")
    got = json.loads(out)
    assert code == 0 and got["listed"] == 1000 and got["summary"]["chunks"] > 1000
    assert "--jsonl" in got["note"] and err.startswith("note: ")


def test_cli_jsonl_streams_a_file_of_several_blocks_as_the_engine_cuts_it_whole(capsys, tmp_path: Path, cl100k) -> None:
    text = _multiline(28_000)  # about 2.2 MB: three blocks of the streaming reader
    f = tmp_path / "big.txt"
    f.write_text(text, encoding="utf-8")
    assert f.stat().st_size > 2 * stream.CHUNK_BYTES
    code, out, _ = _run(capsys, "chunk", "--tokenizer", "cl100k_base", "--file", str(f), "--size", "512",
                        "--overlap", "64", "--snap", "grapheme", "--jsonl")
    assert code == 0
    lines = [json.loads(ln) for ln in out.splitlines()]
    whole = chunk_text(cl100k, text, ChunkSettings(512, 64, "grapheme"), max_listed=None)
    assert lines[:-1] == [c.to_json() for c in whole.chunks]
    assert lines[-1]["summary"]["chunks"] == whole.summary.chunks == len(lines) - 1
    assert lines[-1]["summary"]["bytes"] == f.stat().st_size


@pytest.mark.parametrize("argv, says", [
    (("--size", "0"), "--size"), (("--size", str(10**12)), "--size"), (("--size", "4", "--overlap", "4"), "overlap"),
    (("--size", "4", "--overlap", "-1"), "--overlap"), (("--size", "x"), "--size"), (("--size", "9" * 5000), "--size"),
])
def test_cli_refuses_bad_numbers_in_one_line(capsys, argv, says) -> None:
    code, _, err = _run(capsys, "chunk", "--tokenizer", "cl100k_base", "--text", "ab", *argv)
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1 and err.startswith("error: ")


@pytest.mark.parametrize("make, says", [
    (lambda d: d / "missing.txt", "missing.txt"),
    (lambda d: (d / "latin1.txt").write_bytes("café\n".encode("latin-1")) and d / "latin1.txt", "not valid UTF-8"),
    (lambda d: (d / "nul.txt").write_bytes(b"ab\x00c\n") and d / "nul.txt", "binary"),
    (lambda d: d, "regular file"),
])
def test_cli_refuses_bad_files_in_one_line(capsys, tmp_path: Path, make, says) -> None:
    path = make(tmp_path)
    code, _, err = _run(capsys, "chunk", "--tokenizer", "cl100k_base", "--file", str(path), "--size", "8", "--json")
    assert code == 2 and len(err.strip().splitlines()) == 1 and err.startswith("error: ")
    assert says.lower() in err.lower(), err
