"""Chat templates declared as data: which Jinja file, from which archive, pinned how, run with which tokenizer.

A chat template is the Jinja program a model's tokenizer config carries to
turn a list of messages into the one string the model reads. llama.cpp keeps
real ones (copied from the models' ``tokenizer_config.json``) in
``vendor/llama.cpp/models/templates/`` of the ``llama-cpp-python`` sdist the
shelf already reads for GGUF vocabularies; ``python -m core zoo install``
keeps them beside those (see :mod:`core.pretrained.shelf`), checked by sha256.

Each :class:`ChatTemplate` also names the shelf tokenizer it runs with (None
when that vocabulary is not on the shelf: the template still renders, and
``needs`` says which tokenizer is missing), and the strings the template is
given as ``bos_token``/``eos_token`` (from the model's tokenizer config).

This module reads only the kept template files; it renders nothing
(:mod:`core.pretrained.chat_render`) and tokenizes nothing (:mod:`core.analysis.chat`).
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..i18n import T_
from .catalog import ENTRIES, ZooError
from .locate import shelf_dir

#: The archive the templates come from (the same release the GGUF vocabularies are read from).
TEMPLATE_PACKAGE = "llama-cpp-python"
TEMPLATE_VERSION = "0.3.36"
TEMPLATE_DIR = "vendor/llama.cpp/models/templates/"


@dataclass(frozen=True)
class ChatTemplate:
    """One bundled chat template.

    ``file`` is the member path in the ``llama-cpp-python`` sdist, ``sha256``
    its pinned hash. ``tokenizer`` is a catalog id (None: not on the shelf,
    ``needs`` names it). ``context`` is the model's context window in tokens
    (None when its card does not say one number). ``family`` groups the
    selector.
    """

    id: str
    name: str
    family: str
    file: str
    sha256: str
    licence: str
    tokenizer: str | None
    bos_token: str | None = None
    eos_token: str | None = None
    context: int | None = None
    needs: str = ""
    note: str = ""

    @property
    def source(self) -> str:
        """Where the file comes from, for people: ``llama-cpp-python==0.3.36:vendor/...jinja``."""
        return f"{TEMPLATE_PACKAGE}=={TEMPLATE_VERSION}:{self.file}"

    def path(self) -> Path:
        """Where the kept file is on disk (beside the GGUF vocabularies of the same archive)."""
        return shelf_dir() / f"{TEMPLATE_PACKAGE}-{TEMPLATE_VERSION}" / self.file

    def as_dict(self) -> dict[str, object]:
        """The ``chat --list --json`` row."""
        return {"id": self.id, "name": self.name, "family": self.family, "tokenizer": self.tokenizer,
                "file": self.file, "archive": f"{TEMPLATE_PACKAGE}=={TEMPLATE_VERSION}", "sha256": self.sha256,
                "licence": self.licence, "bos_token": self.bos_token, "eos_token": self.eos_token,
                "context": self.context, "needs": self.needs or None, "note": self.note or None,
                "installed": self.path().is_file()}


def _t(tid: str, name: str, family: str, stem: str, sha: str, licence: str, tokenizer: str | None,
       bos: str | None, eos: str | None, context: int | None, *, needs: str = "", note: str = "") -> ChatTemplate:
    return ChatTemplate(tid, name, family, f"{TEMPLATE_DIR}{stem}.jinja", sha, licence, tokenizer, bos, eos, context,
                        needs, note)


_LLAMA_BOS, _LLAMA_EOS = "<|begin_of_text|>", "<|eot_id|>"
_DS_BOS, _DS_EOS = "<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>"
_QWEN_NOTE = T_("Qwen 2.5 and later add tool and thinking tokens ({tokens}) that the Qwen vocabulary on the shelf does "
                "not have: they are counted as text here.", tokens="<tool_call>, <think>")

TEMPLATES: dict[str, ChatTemplate] = {t.id: t for t in (
    _t("llama-3.1", "Llama 3.1 Instruct", "Meta", "meta-llama-Llama-3.1-8B-Instruct",
       "e10ca381b1ccc5cf9db52e371f3b6651576caee0a630b452e2816b2d404d4b65", "Llama 3.1 Community License", "llama3",
       _LLAMA_BOS, _LLAMA_EOS, 131072,
       note=T_("The published template adds a preamble to the system turn (knowledge cutoff and today's date) "
               "that Meta's own {function} does not write.", function="ChatFormat.encode_dialog_prompt")),
    _t("llama-3.2", "Llama 3.2 Instruct", "Meta", "meta-llama-Llama-3.2-3B-Instruct",
       "5816fce10444e03c2e9ee1ef8a4a1ea61ae7e69e438613f3b17b69d0426223a4", "Llama 3.2 Community License", "llama3",
       _LLAMA_BOS, _LLAMA_EOS, 131072),
    _t("llama-3.3", "Llama 3.3 Instruct", "Meta", "meta-llama-Llama-3.3-70B-Instruct",
       "e10ca381b1ccc5cf9db52e371f3b6651576caee0a630b452e2816b2d404d4b65", "Llama 3.3 Community License", "llama3",
       _LLAMA_BOS, _LLAMA_EOS, 131072),
    _t("qwen-2.5", "Qwen 2.5 Instruct", "Alibaba", "Qwen-Qwen2.5-7B-Instruct",
       "cd8e9439f0570856fd70470bf8889ebd8b5d1107207f67a5efb46e342330527f", "Apache-2.0", "qwen",
       None, "<|im_end|>", 32768, note=_QWEN_NOTE),
    _t("qwen-3", "Qwen 3", "Alibaba", "Qwen-Qwen3-0.6B",
       "87a2728cb8dc9fe424d624542f6060ec05a1d285ebbec578bb078900e33396b5", "Apache-2.0", "qwen",
       None, "<|im_end|>", 32768, note=_QWEN_NOTE),
    _t("deepseek-v3.1", "DeepSeek V3.1", "DeepSeek", "deepseek-ai-DeepSeek-V3.1",
       "d9f5f351b276cf9e81d009db08830db7d38e94927aecd09a7beb43e2aafee94e", "MIT", "deepseek-v3",
       _DS_BOS, _DS_EOS, 131072),
    _t("gemma-4", "Gemma 4 (31B it)", "Google", "google-gemma-4-31B-it",
       "85a08664d16d8f3be4416c92427b3ac10df1024ac566cc0b4bc3bab409393f98", T_("{model} model terms ({vendor})",
                                                                              model="Gemma 4", vendor="Google"),
       "gemma4", "<bos>", "<eos>", 262144),  # gemma4.context_length in the shelf's ggml-vocab-gemma-4.gguf
    _t("gemma-2", "Gemma 2 (2B it)", "Google", "google-gemma-2-2b-it",
       "ecd6ae513fe103f0eb62e8ab5bfa8d0fe45c1074fa398b089c93a7e70c15cfd6", T_("{model} model terms ({vendor})",
                                                                              model="Gemma 2", vendor="Google"),
       None, "<bos>", "<eos>", 8192, needs="Gemma 2 (256k SentencePiece)",
       note=T_("The template refuses a system turn (it raises an error).")),
    _t("gpt-oss", "gpt-oss (120b, 20b)", "OpenAI", "openai-gpt-oss-120b",
       "a4c9919cbbd4acdd51ccffe22da049264b1b73e59055fa58811a99efbd7c8146", "Apache-2.0", "o200k_harmony",
       "<|startoftext|>", "<|return|>", 131072,
       note=T_("The published template ends the developer instructions with a blank line that {library} does not "
               "write; from the first user turn on the ids are the same.", library="openai-harmony")),
    _t("mistral-nemo", "Mistral Nemo Instruct (2407)", "Mistral AI", "mistralai-Mistral-Nemo-Instruct-2407",
       "e4676cb56dffea7782fd3e2b577cfaf1e123537e6ef49b3ec7caa6c095c62272", "Apache-2.0", "tekken",
       "<s>", "</s>", 131072),
    _t("mistral-small-3.2", "Mistral Small 3.2 (2506)", "Mistral AI", "Mistral-Small-3.2-24B-Instruct-2506",
       "5b8f31f11198696548d544dbe424a3c1ef244d00a475f4e1bffb351fda085608", "Apache-2.0", None,
       "<s>", "</s>", 131072, needs="Tekken v7 (Mistral Small 3)"),
    _t("phi-3.5", "Phi-3.5 mini instruct", "Microsoft", "microsoft-Phi-3.5-mini-instruct",
       "78d976a442bcde2f0be15aafbb8e3050e1104f86732266f68403251b89982a90", "MIT", None,
       "<s>", "<|endoftext|>", 131072, needs="Phi-3 (Llama 2 pieces plus 64 chat tokens)"),
    _t("granite-3.3", "Granite 3.3 Instruct", "IBM", "ibm-granite-granite-3.3-2B-Instruct",
       "3c71df5f659987462c882bf9e295b597dc19902467a7312ea382c5896681bc02", "Apache-2.0", None,
       "<|end_of_text|>", "<|end_of_text|>", 131072, needs="Granite 3"),
    _t("kimi-k2", "Kimi K2 Instruct", "Moonshot AI", "moonshotai-Kimi-K2",
       "9fcc72b7c248a72020c81f70bb652f3094d18a750c93ca35dfcb3cf5fe23ff53", T_("Modified MIT"), None,
       "[BOS]", "[EOS]", 131072, needs="Kimi K2 (tiktoken, 163k)"),
    _t("smollm3", "SmolLM3 3B", "Hugging Face", "HuggingFaceTB-SmolLM3-3B",
       "19eacf64569032f07644ea92c8e2a87af06ee7008147557302c31e474912ca97", "Apache-2.0", None,
       None, "<|im_end|>", 65536, needs="SmolLM3 (Llama 3 ranks, its own specials)"),
    _t("glm-4.6", "GLM-4.6", "Zhipu AI", "GLM-4.6",
       "8804f445c761b9f259e3c1126a579d481a22ca09b2a3d32bcc4eb91bc36e0301", "MIT", None,
       None, "<|endoftext|>", 202752, needs="GLM-4.5/4.6 (151k)"),
)}


def get_template(template_id: str) -> ChatTemplate:
    """The template ``template_id``; :class:`ZooError` naming the known ids otherwise."""
    try:
        return TEMPLATES[template_id]
    except KeyError:
        raise ZooError(T_("unknown chat template {id}; known: {known}", id=repr(template_id),
                          known=", ".join(TEMPLATES))) from None


def tokenizer_of(tmpl: ChatTemplate) -> str | None:
    """The catalog id the template runs with, when that entry exists."""
    return tmpl.tokenizer if tmpl.tokenizer in ENTRIES else None


def template_missing(tmpl: ChatTemplate) -> bool:
    """True when the kept file is absent or no longer has its pinned hash."""
    path = tmpl.path()
    if not path.is_file():
        return True
    return hashlib.sha256(path.read_bytes()).hexdigest() != tmpl.sha256


@lru_cache(maxsize=64)
def read_template(tmpl: ChatTemplate) -> str:
    """The template's Jinja source, hash-checked once per process (as the zoo keeps loaded tokenizers);
    :class:`ZooError` naming the install command otherwise (not cached: a later install is seen)."""
    try:
        raw = tmpl.path().read_bytes()
    except FileNotFoundError:
        raise ZooError(T_("chat template {id} is not installed: run `{command}` (needs the network once)",
                          id=tmpl.id, command="python -m core zoo install")) from None
    except OSError as exc:
        raise ZooError(T_("{id}: cannot read {path}: {reason}", id=tmpl.id, path=str(tmpl.path()),
                          reason=exc.strerror or str(exc))) from None
    actual = hashlib.sha256(raw).hexdigest()
    if actual != tmpl.sha256:
        raise ZooError(T_("{id}: {path} failed its hash check (sha256 {actual}..., pinned {pinned}...); run "
                          "`{command}` to fetch it again", id=tmpl.id, path=str(tmpl.path()), actual=actual[:16],
                          pinned=tmpl.sha256[:16], command="python -m core zoo install"))
    return raw.decode("utf-8")
