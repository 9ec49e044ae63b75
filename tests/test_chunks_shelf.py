"""Chunks with shelf tokenizers (needs ``python -m core zoo install``): a Hugging Face ``tokenizers`` entry
(deepseek-v3, byte-level BPE) and a SentencePiece entry (j2, Unigram with an NFKC normalizer).

Each chunk edge is checked against the library itself: its ids, and where each of its tokens starts in the UTF-8
text (SentencePiece's own piece ``begin``; for the byte-level BPE, the lengths of the token bytes the library's
token strings spell through the GPT-2 byte alphabet, decoded here), and the flags against ``regex`` ``\\X`` and
strict UTF-8 decoding at that byte (the helpers of ``tests/test_chunks.py``).
"""
from __future__ import annotations

from functools import lru_cache
from itertools import accumulate
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.analysis import stream
from core.analysis.chunks import SNAP_MODES, ChunkCutter, ChunkSettings, TextChunk, chunk_text
from core.languages import LANGUAGES
from core.pretrained import zoo

from .helpers import examples
from .test_chunks import TEXTS, _check_cover, _check_snapped, _inside_character, _inside_word, _letter_starts

ENTRIES = ["deepseek-v3", "j2"]


def _gpt2_bytes() -> dict[str, int]:
    """The byte-level alphabet: printable bytes stand for themselves, the others for 256, 257, ... in byte order."""
    kept = [*range(ord("!"), ord("~") + 1), *range(0xA1, 0xAC + 1), *range(0xAE, 0xFF + 1)]
    out, extra = {}, 0
    for b in range(256):
        if b in kept:
            out[chr(b)] = b
        else:
            out[chr(256 + extra)] = b
            extra += 1
    return out


@lru_cache(maxsize=None)
def _library(tid: str):
    path = str(zoo.entry_path(zoo.get_entry(tid)))
    if tid == "j2":
        import sentencepiece as spm

        sp = spm.SentencePieceProcessor(model_file=path)

        def pieces(text: str) -> tuple[list[int], list[int]]:
            proto = sp.encode(text, return_type="proto")
            return [p.id for p in proto.pieces], [p.begin for p in proto.pieces]
        return pieces
    from tokenizers import Tokenizer

    hf, alphabet = Tokenizer.from_file(path), _gpt2_bytes()

    def spelled(text: str) -> tuple[list[int], list[int]]:
        enc = hf.encode(text, add_special_tokens=False)
        lengths = [len(tok) for tok in enc.tokens]  # one alphabet character per byte
        assert all(ch in alphabet for tok in enc.tokens for ch in tok)
        return list(enc.ids), [0, *accumulate(lengths)][:-1]
    return spelled


def _check_against_library(tid: str, text: str, chunks: tuple[TextChunk, ...]) -> tuple[list[bool], list[bool]]:
    """Edges where the library's tokens start, flagged as Unicode says there; returns the whole-edge tables."""
    ids, starts = _library(tid)(text)
    raw, letters = text.encode("utf-8"), _letter_starts(text)
    assert (chunks[-1].token_end if chunks else 0) == len(ids)
    for c in chunks:
        for e in (c.start, c.end):
            if not 0 < e.token < len(ids):
                assert not (e.inside_character or e.inside_grapheme or e.inside_word)
                continue
            p = starts[e.token]
            assert e.byte == p, (text, e)
            assert e.inside_character == _inside_character(raw, p), (text, e)
            assert e.inside_grapheme == (p not in letters), (text, e)
            assert e.inside_word == _inside_word(raw, p), (text, e)
    letter = [k == 0 or p in letters for k, p in enumerate(starts)]
    return letter, [lw and not _inside_word(raw, p) for lw, p in zip(letter, starts)]


@pytest.mark.parametrize("tid", ENTRIES)
@given(text=TEXTS, size=st.integers(1, 10), data=st.data())
@settings(max_examples=examples(1))
def test_shelf_chunks_agree_with_the_library(tid: str, text: str, size: int, data) -> None:
    s = ChunkSettings(size, data.draw(st.integers(0, size - 1)), data.draw(st.sampled_from(SNAP_MODES)))
    r = chunk_text(zoo.load(tid), text, s, max_listed=None)
    letter, word = _check_against_library(tid, text, r.chunks)
    if s.snap == "none":
        _check_cover(r.chunks, len(letter), s)
    elif r.chunks:
        _check_snapped(r.chunks, len(letter), s, letter, word)


@pytest.mark.parametrize("tid", ENTRIES)
@pytest.mark.parametrize("lang", ["bn", "hi", "fa", "uz"])
def test_shelf_language_samples(tid: str, lang: str) -> None:
    tok = zoo.load(tid)
    text = "\n".join(LANGUAGES[lang].sample_lines()[:12])
    for snap in SNAP_MODES:
        s = ChunkSettings(5, 2, snap)
        r = chunk_text(tok, text, s, max_listed=None)
        letter, word = _check_against_library(tid, text, r.chunks)
        if snap == "none":
            _check_cover(r.chunks, len(letter), s)
        else:
            _check_snapped(r.chunks, len(letter), s, letter, word)


@pytest.mark.parametrize("tid", ENTRIES)
def test_shelf_streaming_in_blocks_gives_the_chunks_of_the_whole_text(tmp_path: Path, tid: str) -> None:
    tok = zoo.load(tid)
    text = "".join(f"{line} {i}\n" for i, line in enumerate(LANGUAGES["bn"].sample_lines() * 3))
    path = tmp_path / "t.txt"
    path.write_text(text, encoding="utf-8")
    cut: stream.Cut = "text" if stream.can_cut_text(tok) else "none"
    blocks = list(stream.iter_chunks(str(path), cut=cut, chunk_bytes=500))
    assert len(blocks) > 10 or cut == "none"  # j2 (Unigram over the whole text) cannot be cut: one block
    s = ChunkSettings(24, 6, "word")
    streamed = [c.to_json() for c in ChunkCutter(tok, blocks, s, verify_joins=True)]
    assert streamed == [c.to_json() for c in chunk_text(tok, text, s, max_listed=None).chunks]
