"""Packed tokenizers: a shelf entry rebuilt from its pack answers exactly as the one built from its source file.

Packs are written to a temporary folder here (``packs.pack_dir`` patched), so the installed shelf's packs
are neither used nor changed.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from core.pretrained import packs, zoo
from core.pretrained.catalog import ENTRIES, ZooError
from core.pretrained.locate import shelf_path

TEXTS = [
    "বাজারঘরের অর্ডার আগামীকাল বিকেলে রাজশাহী পৌঁছাবে।",
    "नमस्ते दुनिया, می‌خواهم O‘zbekiston 😀👨‍👩‍👧 12345 don't",
    "<|endoftext|> [SEP] <s> </s> <unk>   \n\n\tTabs and  double  spaces",
    "",
]

#: One entry per packed kind and source format: HF byte-level BPE (tokenizer.json, GGUF gpt2), CLIP (its own
#: class), WordPiece and SentencePiece converted from GGUF, and a SentencePiece .model.
IDS = ["claude-legacy", "deepseek-coder", "clip", "bert-bge", "llama2", "mistral-spm-v1"]


@pytest.fixture
def pack_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "packed"
    monkeypatch.setattr(packs, "pack_dir", lambda: where)
    return where


def _answers(tok) -> dict:
    out: dict = {"specials": tok.specials, "unk": tok.unk_id, "vocab": tok.vocab_size, "family": tok.family,
                 "replayable": tok.replayable, "type": type(tok).__name__}
    for text in TEXTS:
        table = tok.table(text)
        enc = tok.encode(text)
        columns = [getattr(table, c).tolist() for c in ("ids", "byte_start", "byte_end", "start", "end", "special",
                                                         "valid_utf8", "cut")]
        out[text] = (tok.encode_ids(text), columns, table.data, enc.tokens, tok.decode(enc.tokens))
    ids = sorted({0, 1, 2, tok.vocab_size // 2, tok.vocab_size - 1} | set(tok.special_ids))
    out["bytes"] = [tok.token_bytes(i) for i in ids]
    out["pieces"] = [tok.id_to_token(i) for i in ids]
    return out


@pytest.mark.parametrize("tokenizer_id", IDS)
def test_a_pack_rebuilds_the_same_tokenizer(tokenizer_id, pack_dir):
    entry = ENTRIES[tokenizer_id]
    built = zoo.load_entry(entry)  # no pack yet: built from the source, and the pack written
    path = packs.pack_path(entry)
    assert path is not None and path.parent == pack_dir and path.is_file()
    assert path.name.startswith(entry.sha256)
    packed = packs.load(entry)
    assert packed is not None
    assert _answers(packed) == _answers(built)
    if built.tokenizer_json is not None:  # the file the backend runs is the same tokenizer (merges may be respelt)
        from tokenizers import Tokenizer

        again = Tokenizer.from_str(packed.tokenizer_json)
        assert again.encode(TEXTS[1]).ids == Tokenizer.from_str(built.tokenizer_json).encode(TEXTS[1]).ids


def test_a_damaged_or_stale_pack_is_not_used_and_is_written_again(pack_dir, monkeypatch):
    entry = ENTRIES["deepseek-coder"]
    zoo.load_entry(entry)
    path = packs.pack_path(entry)
    good = path.read_bytes()
    damaged = bytearray(good)
    damaged[-100] ^= 0xFF  # one byte of the body
    path.write_bytes(bytes(damaged))
    assert packs.read(entry) is None
    tok = zoo.load_entry(entry)
    assert tok.encode_ids(TEXTS[0]) == zoo.load("deepseek-coder").encode_ids(TEXTS[0])
    assert path.read_bytes() == good  # rebuilt from the source and written again
    # other code (a fixed conversion) makes every pack stale
    monkeypatch.setattr(packs, "code_fingerprint", lambda: "another version of the code")
    assert packs.read(entry) is None


def test_a_pack_never_stands_in_for_a_tampered_source(pack_dir, tmp_path, monkeypatch):
    entry = ENTRIES["deepseek-coder"]
    zoo.load_entry(entry)
    assert packs.read(entry) is not None
    shelf = tmp_path / "shelf"
    copy = shelf / f"{entry.package}-{entry.shelf.version}" / entry.file
    copy.parent.mkdir(parents=True)
    data = bytearray(shelf_path(entry).read_bytes())
    data[len(data) // 2] ^= 0x01
    copy.write_bytes(bytes(data))
    monkeypatch.setenv("TOKENIZER_LAB_SHELF", str(shelf))
    assert shelf_path(entry) == copy
    with pytest.raises(ZooError, match="hash check"):
        zoo.load_entry(entry)


def test_prepare_packs_the_entries_asked_for(pack_dir):
    assert zoo.prepare(["llama2", "cl100k_base"]) == ["llama2"]  # tiktoken files are their own fastest form
    assert sorted(p.name.split("-")[1] for p in pack_dir.iterdir()) == ["llama2"]


def test_packs_turned_off_are_neither_read_nor_written(pack_dir, monkeypatch):
    entry = ENTRIES["llama2"]
    monkeypatch.setenv("TOKENIZER_LAB_PACKS", "0")
    assert packs.pack_path(entry) is None
    off = zoo.load_entry(entry)  # built from the source
    assert not pack_dir.exists()
    monkeypatch.setenv("TOKENIZER_LAB_PACKS", "1")
    on = zoo.load_entry(entry)
    assert [p.name for p in pack_dir.iterdir()] == [packs.pack_path(entry).name]
    assert packs.pack_path(entry).name.startswith(f"{entry.sha256}-llama2-")
    assert _answers(off) == _answers(on)


def test_checkouts_of_different_code_keep_a_pack_each_and_old_ones_are_pruned(pack_dir, monkeypatch):
    """Two versions of the code sharing one shelf do not overwrite each other's pack; versions beyond the newest
    KEEP_VERSIONS are removed when a new one is written."""
    entry = ENTRIES["llama2"]
    names = []
    for k in range(packs.KEEP_VERSIONS + 2):
        monkeypatch.setattr(packs, "code_fingerprint", lambda k=k: f"code version {k}")
        zoo.load_entry(entry)
        names.append(packs.pack_path(entry).name)
        assert packs.read(entry) is not None  # this version's own pack, read back
    assert len(set(names)) == len(names)
    kept = sorted(p.name for p in pack_dir.iterdir())
    assert len(kept) == packs.KEEP_VERSIONS and names[-1] in kept and names[0] not in kept
