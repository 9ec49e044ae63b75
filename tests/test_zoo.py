"""The zoo: entries as data, offline loading with hash checks, user files, Hub errors."""
from __future__ import annotations

import dataclasses
import gzip
import socket
from pathlib import Path

import pytest

from core.pretrained import zoo
from core.pretrained.locate import entry_path, is_available
from core.pretrained.zoo import ENTRIES, ZooError

REAL_CREATE_CONNECTION = socket.create_connection


@pytest.fixture
def no_network(monkeypatch, tmp_path):
    """No route anywhere: sockets refuse to connect, Hub and tiktoken caches empty."""

    def refuse(*args, **kwargs):
        raise OSError("network is unreachable (blocked by test)")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "tiktoken-empty"))
    monkeypatch.setenv("TOKENIZER_LAB_CACHE", str(tmp_path / "lab-cache"))
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))


def test_entries_are_complete_data():
    expected = {"cl100k_base", "o200k_base", "llama3", "llama4", "tekken", "tekken_240718",
                "mistral-spm-v1", "mistral-spm-v3", "codepoints", "bytes", "words"}  # fmt: skip
    assert expected <= set(ENTRIES)
    for e in ENTRIES.values():
        assert e.name and e.algorithm and e.licence and e.specials and e.vocab_size > 0 or e.id == "words"
        if e.loader != "baseline":
            assert e.package and e.file and len(e.sha256) == 64, e.id
    # tiktoken's own declared hashes (a download is checked against the publisher's hash)
    assert ENTRIES["cl100k_base"].sha256 == "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
    assert ENTRIES["o200k_base"].sha256 == "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"


def test_pinned_hashes_equal_tiktoken_registry():
    """The cl100k/o200k hashes we pin are the ones tiktoken itself declares."""
    import inspect

    from tiktoken_ext import openai_public

    src = inspect.getsource(openai_public)
    for name in ("cl100k_base", "o200k_base"):
        assert ENTRIES[name].sha256 in src


@pytest.mark.parametrize("tokenizer_id", [i for i, e in ENTRIES.items() if e.shelf is None])  # shelf: test_shelf.py
def test_every_entry_loads_offline_with_hash_checked(tokenizer_id, no_network):
    entry = ENTRIES[tokenizer_id]
    assert is_available(entry)
    tok = zoo.load_entry(entry)  # fresh load, not the cache
    assert tok.vocab_size == entry.vocab_size
    enc = tok.encode("রাজশাহী Oʻzbekiston")
    assert enc.tokens and tok.decode(enc.tokens) == "রাজশাহী Oʻzbekiston"
    if entry.sha256:
        assert zoo.sha256_hex(zoo.read_checked(entry)) == entry.sha256


def test_load_is_cached_and_lazy():
    assert zoo.load("cl100k_base") is zoo.load("cl100k_base")


def test_unknown_id_is_a_clear_error():
    with pytest.raises(ZooError, match="unknown tokenizer 'gpt-9'.*cl100k_base"):
        zoo.load("gpt-9")


def _copy(entry, tmp_path, transform):
    src = entry_path(entry)
    dst = tmp_path / src.name
    dst.write_bytes(transform(src.read_bytes()))
    return dataclasses.replace(entry, package=None, file=str(dst))


def _flip_last_line(data: bytes) -> bytes:
    return data[:-3] + (b"0" if data[-3:-2] != b"0" else b"1") + data[-2:]


@pytest.mark.parametrize("tokenizer_id", ["cl100k_base", "llama3", "tekken", "mistral-spm-v1"])
def test_tampered_copy_is_rejected_naming_the_file(tokenizer_id, tmp_path):
    entry = ENTRIES[tokenizer_id]
    if entry.file.endswith(".gz"):
        tampered = _copy(entry, tmp_path, lambda b: gzip.compress(_flip_last_line(gzip.decompress(b))))
    else:
        tampered = _copy(entry, tmp_path, _flip_last_line)
    with pytest.raises(ZooError, match="failed its hash check") as info:
        zoo.load_entry(tampered)
    assert str(tmp_path) in str(info.value)


def test_corrupt_gzip_is_rejected(tmp_path):
    bad = _copy(ENTRIES["o200k_base"], tmp_path, lambda b: b[: len(b) // 2])
    with pytest.raises(ZooError, match="corrupt"):
        zoo.load_entry(bad)


def test_missing_file_is_a_clear_error(tmp_path):
    gone = dataclasses.replace(ENTRIES["llama3"], package=None, file=str(tmp_path / "nope.model"))
    assert not is_available(gone)
    with pytest.raises(ZooError, match="cannot read .*nope.model"):
        zoo.load_entry(gone)


# -- user files --------------------------------------------------------------


def test_user_tiktoken_file_with_chosen_pattern(tmp_path):
    raw = gzip.decompress((entry_path(ENTRIES["cl100k_base"])).read_bytes())
    f = tmp_path / "mine.tiktoken"
    f.write_bytes(raw)
    tok = zoo.load_user_file(f, pattern="cl100k")
    assert tok.encode_ids("hello world") == zoo.load("cl100k_base").encode_ids("hello world")
    assert tok.entry.sha256 == ENTRIES["cl100k_base"].sha256
    # the chosen split pattern is really used: o200k keeps the vowel sign on the word
    from core.pretrained.replay import split_pieces

    o_pat = zoo.load_user_file(f, pattern="o200k")
    assert o_pat.pattern == zoo.O200K_PAT
    assert [p for p, _, _ in split_pieces(tok, "কি")] == ["ক", "ি"]
    assert [p for p, _, _ in split_pieces(o_pat, "কি")] == ["কি"]


def test_user_files_detect_format(tmp_path):
    for tid in ("mistral-spm-v3", "llama3", "tekken"):
        entry = ENTRIES[tid]
        data = entry_path(entry).read_bytes()
        tok = zoo.load_user_bytes(entry_path(entry).name, data, pattern="llama3")
        ref = zoo.load(tid)
        assert tok.encode_ids("রাজশাহী 12345 hello") == ref.encode_ids("রাজশাহী 12345 hello"), tid


@pytest.mark.parametrize(
    "name,data,kind,match",
    [
        ("x.model", b"\x00\x01garbage", "sentencepiece", "x.model is not a valid SentencePiece model"),
        ("x.json", b"{not json", "hf-json", "x.json is not a valid tokenizer.json"),
        ("x.tiktoken", b"!!!! 1\n", "tiktoken", "x.tiktoken is not a valid .tiktoken"),
        ("x.json", b'{"config": {}, "vocab": []}', "tekken", "x.json is not a valid Tekken"),
        ("empty.model", b"", "auto", "empty.model is empty"),
    ],
)
def test_corrupt_user_files_are_clear_errors(name, data, kind, match):
    with pytest.raises(ZooError, match=match):
        zoo.load_user_bytes(name, data, kind=kind)


def test_bad_user_pattern_is_rejected():
    raw = gzip.decompress(entry_path(ENTRIES["cl100k_base"]).read_bytes())
    with pytest.raises(ZooError, match="invalid split pattern"):
        zoo.load_user_bytes("a.tiktoken", raw, pattern="([unclosed")


# -- Hub ---------------------------------------------------------------------


def test_hub_offline_env_fails_fast_and_clearly(no_network, monkeypatch):
    """With ``HF_HUB_OFFLINE`` set, the Hub loader says so without trying the network at all (nothing to wait for)."""
    tried: list[str] = []

    def record(name):
        def refuse(*args, **kwargs):
            tried.append(name)
            raise OSError("network is unreachable (blocked by test)")
        return refuse

    monkeypatch.setattr(socket.socket, "connect", record("connect"))
    monkeypatch.setattr(socket, "create_connection", record("create_connection"))
    monkeypatch.setattr(socket, "getaddrinfo", record("getaddrinfo"))
    with pytest.raises(ZooError, match="offline.*xlm-roberta-base.*upload its tokenizer.json"):
        zoo.load_hub("xlm-roberta-base")
    assert tried == []


def online(monkeypatch):
    """Offline mode off again, in the environment and in ``huggingface_hub``, which reads it once at its import
    (imported during an earlier test with ``HF_HUB_OFFLINE=1``, it answered "offline mode is enabled" here, and the
    network tests below passed without reaching the network code)."""
    from huggingface_hub import constants

    monkeypatch.delenv("HF_HUB_OFFLINE")
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)


def test_hub_unreachable_fails_with_offline_message(no_network, monkeypatch):
    online(monkeypatch)
    with pytest.raises(ZooError, match="cannot reach huggingface.co.*blocked by test.*offline"):
        zoo.load_hub("bert-base-multilingual-cased", timeout=1.0)


def test_hub_id_is_validated():
    with pytest.raises(ZooError, match="not a Hugging Face model id"):
        zoo.load_hub("../../etc/passwd")


def _tiny_tokenizer_json() -> str:
    import tokenizers
    from tokenizers import models, pre_tokenizers

    t = tokenizers.Tokenizer(models.WordLevel({"hello": 0, "[UNK]": 1}, unk_token="[UNK]"))
    t.pre_tokenizer = pre_tokenizers.Whitespace()
    return t.to_str()


def test_hub_uses_the_hugging_face_cache_without_network(no_network, tmp_path):
    """A file huggingface_hub (or transformers) cached earlier, in the library's own layout, is served offline."""
    repo = zoo.hub_cache_dir() / "models--org--tiny"
    assert zoo.hub_cache_dir() == tmp_path / "hf-home" / "hub"
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text("0123abcd")
    (repo / "snapshots" / "0123abcd").mkdir(parents=True)
    (repo / "snapshots" / "0123abcd" / "tokenizer.json").write_text(_tiny_tokenizer_json())
    tok = zoo.load_hub("org/tiny")
    assert tok.id == "hf:org/tiny" and tok.encode_ids("hello there") == [0, 1]


def test_resolve_specs(tmp_path):
    assert zoo.resolve("o200k_base") is zoo.load("o200k_base")
    f = tmp_path / "t.model"
    f.write_bytes(entry_path(ENTRIES["mistral-spm-v1"]).read_bytes())
    assert zoo.resolve(f"file:{f}").encode_ids("hi") == zoo.load("mistral-spm-v1").encode_ids("hi")


def test_hub_never_hangs_on_a_slow_resolver(no_network, monkeypatch):
    """Even when name resolution blocks, the Hub fetch gives up after its timeout."""
    import threading

    release, entered, returned = threading.Event(), threading.Event(), threading.Event()

    def slow(*args, **kwargs):
        entered.set()
        release.wait(30)
        returned.set()
        raise OSError("too late")

    online(monkeypatch)
    # the real create_connection, so that the lookup goes through the blocked resolver (no_network's own refusal
    # answered at once, and this test passed without ever meeting the slow resolver)
    monkeypatch.setattr(socket, "create_connection", REAL_CREATE_CONNECTION)
    monkeypatch.setattr(socket, "getaddrinfo", slow)
    try:
        with pytest.raises(ZooError, match="offline"):
            zoo.load_hub("xlm-roberta-base", timeout=0.5)
        # the fetch gave up while the resolver was still blocked: it did not wait for the resolver to return
        assert entered.is_set() and not returned.is_set()
    finally:
        release.set()


@pytest.mark.parametrize("tokenizer_id", list(ENTRIES))
def test_lone_surrogate_is_refused_on_both_paths(tokenizer_id):
    """``encode_ids`` (the fast path the CLI streams through) refuses what ``encode`` refuses.

    Before: tiktoken replaced the surrogate with U+FFFD silently, tokenizers raised a bare TypeError
    and sentencepiece a pybind11 RuntimeError.
    """
    from core.pretrained.adapter import TextError

    tok = zoo.load(tokenizer_id)
    for call in (tok.encode, tok.encode_ids):
        with pytest.raises(TextError, match="lone surrogate U\\+D83D at position 1"):
            call("a\ud83db")


def _fake_hub(monkeypatch, size):
    """huggingface_hub answering ``size`` for tokenizer.json's metadata; downloads recorded, written to its cache."""
    import huggingface_hub
    from huggingface_hub.file_download import HfFileMetadata

    downloads = []

    def metadata(url, timeout=None, **kw):
        assert url.endswith("/resolve/main/tokenizer.json") and timeout
        return HfFileMetadata(commit_hash="0123abcd", etag="e", location=url, size=size, xet_file_data=None)

    def download(repo_id, filename, *, cache_dir, etag_timeout, **kw):
        downloads.append((repo_id, filename, Path(cache_dir)))
        snap = Path(cache_dir) / ("models--" + repo_id.replace("/", "--")) / "snapshots" / "0123abcd"
        snap.mkdir(parents=True)
        (snap / filename).write_text(_tiny_tokenizer_json())
        return str(snap / filename)

    monkeypatch.setattr(huggingface_hub, "get_hf_file_metadata", metadata)
    monkeypatch.setattr(huggingface_hub, "hf_hub_download", download)
    return downloads


@pytest.mark.parametrize("size", [5000, None], ids=["too-big", "size-unknown"])
def test_hub_download_is_size_checked_before_it_starts(no_network, monkeypatch, size):
    """A tokenizer.json above the tokenizer file limit (or of unknown size) is refused; nothing is downloaded."""
    from core.text import limits

    monkeypatch.delenv("HF_HUB_OFFLINE")
    monkeypatch.setattr(limits, "MAX_TOKENIZER_FILE_BYTES", 1000)
    downloads = _fake_hub(monkeypatch, size)
    with pytest.raises(ZooError, match="5,000 bytes; the limit for a tokenizer file is 1,000" if size else
                       "did not say how big"):
        zoo.load_hub("org/huge", timeout=2.0)
    assert downloads == [] and not (zoo.hub_cache_dir() / "models--org--huge").exists()


def test_hub_download_goes_through_huggingface_hub_into_its_cache(no_network, monkeypatch):
    monkeypatch.delenv("HF_HUB_OFFLINE")
    downloads = _fake_hub(monkeypatch, 300)
    tok = zoo.load_hub("org/tiny", timeout=2.0)
    assert downloads == [("org/tiny", "tokenizer.json", zoo.hub_cache_dir())]
    assert tok.encode_ids("hello there") == [0, 1] and tok.entry.source.startswith(str(zoo.hub_cache_dir()))


def test_hub_errors_from_the_library_are_one_clear_line(no_network, monkeypatch):
    import httpx2
    import huggingface_hub
    from huggingface_hub.errors import RepositoryNotFoundError

    monkeypatch.delenv("HF_HUB_OFFLINE")
    request = httpx2.Request("HEAD", "https://huggingface.co/org/nope/resolve/main/tokenizer.json")

    def not_found(url, timeout=None, **kw):
        raise RepositoryNotFoundError("404 Client Error", response=httpx2.Response(404, request=request))

    monkeypatch.setattr(huggingface_hub, "get_hf_file_metadata", not_found)
    with pytest.raises(ZooError, match="the Hub answered 404 for tokenizer.json"):
        zoo.load_hub("org/nope", timeout=2.0)


def test_a_bad_merge_is_one_clear_line_naming_the_file_once():
    import json

    from core.i18n import localize

    model = {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
             "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False,
             "vocab": {"a": 0, "b": 1}, "merges": ["a c"]}
    doc = {"version": "1.0", "truncation": None, "padding": None, "added_tokens": [], "normalizer": None,
           "pre_tokenizer": None, "post_processor": None, "decoder": None, "model": model}
    with pytest.raises(ZooError) as err:
        zoo.load_user_bytes("merges.json", json.dumps(doc).encode("utf-8"))
    message = localize(err.value)
    assert message.count("merges.json") == 1, message
    assert "`" not in message and message.count("(") == message.count(")"), message
    assert "out of vocabulary" in message
