"""What each catalog entry's vendor encode does to the text before the model, and how we know (:data:`AUDITS`);
where a known runtime reading an entry's file cuts otherwise than the model's own tokenizer (:data:`RUNTIME_DIFFS`).

Data, keyed by catalog id; :class:`core.pretrained.catalog.ZooEntry` hands them out as ``entry.audit`` and
``entry.runtime``.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..i18n import T_, Message

# ---------------------------------------------------------------------------
# The audit: what each vendor's encode does before the model, and how we know
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class EncodeAudit:
    """One entry's audit line: what its vendor's encode does to the text before the model, and how we know.

    ``steps`` are stable tags (``nfc``, ``nfkc``, ``lowercase``, ``strip-mn``, ``ftfy``, ``collapse-spaces``,
    ``prefix-space``, ``spaces-as-▁``, ``chunks``; empty: the text reaches the split as typed) that
    ``tests/test_shelf_real_forms.py`` checks against the loaded tokenizer; ``before`` and ``checked`` are the
    sentences people read.
    """

    steps: tuple[str, ...]
    before: str
    checked: str

    def line(self) -> Message:
        """The audit as one sentence (pages, the report and ``list`` show it)."""
        return T_("Before the model: {before}. How we know: {checked}.", before=self.before, checked=self.checked)


_AS_TYPED = T_("nothing, the text reaches the split as typed")
_LLAMA_CUTS = T_("the text is cut into chunks of at most {chunk:,} code points and runs of at most {run:,} spaces or "
                 "non-spaces; nothing else", chunk=400_000, run=25_000)
_SPM_PLAIN = T_("no normalization; spaces are written as ▁ and one ▁ is put before the text")
_REAL_FORMS = "tests/test_shelf_real_forms.py"
_VECTORS = "tests/test_shelf.py"


def _vendor_code(code: str) -> Message:
    return T_("ids equal to {code} on real-world forms in five languages ({test})", code=code, test=_REAL_FORMS)


def _llama_cpp(file: str) -> Message:
    return T_("ids equal to llama.cpp's own test vectors for {file} ({test}); no vendor code in a package here",
              file=file, test=_VECTORS)


def _declared(what: str) -> Message:
    return T_("read from what the file declares ({what}); no vendor code or test vectors here", what=what)


#: One audit line per pretrained entry (the baselines are code of this project: nothing runs before them).
AUDITS: dict[str, EncodeAudit] = {
    "cl100k_base": EncodeAudit((), _AS_TYPED, _vendor_code("tiktoken")),
    "o200k_base": EncodeAudit((), _AS_TYPED, _vendor_code("tiktoken")),
    "o200k_harmony": EncodeAudit((), _AS_TYPED, _vendor_code("tiktoken")),
    "llama3": EncodeAudit(("chunks",), _LLAMA_CUTS, _vendor_code("llama-models' Tokenizer")),
    "llama4": EncodeAudit(("chunks",), _LLAMA_CUTS, _vendor_code("llama-models' Tokenizer")),
    "tekken": EncodeAudit((), _AS_TYPED, _vendor_code("mistral-common's Tekkenizer")),
    "tekken_240718": EncodeAudit((), _AS_TYPED, _vendor_code("mistral-common's Tekkenizer")),
    "mistral-spm-v1": EncodeAudit(("prefix-space", "spaces-as-▁"), _SPM_PLAIN, _vendor_code("sentencepiece (mistral-common's model)")),
    "mistral-spm-v3": EncodeAudit(("prefix-space", "spaces-as-▁"), _SPM_PLAIN, _vendor_code("sentencepiece (mistral-common's model)")),
    "gemma4": EncodeAudit(("spaces-as-▁",), T_("no normalization; spaces are written as ▁, no ▁ before the text"),
                          _llama_cpp("ggml-vocab-gemma-4.gguf")),
    "xlm-r": EncodeAudit(("nfkc", "collapse-spaces", "prefix-space", "spaces-as-▁"),
                         T_("SentencePiece's nmt_nfkc map (NFKC, control characters dropped), runs of spaces "
                            "collapsed and the ends trimmed, spaces written as ▁ with one ▁ before the text"),
                         _declared("nmt_nfkc charsmap, add_space_prefix, remove_extra_whitespaces")),
    "command-r": EncodeAudit((), _AS_TYPED, _llama_cpp("ggml-vocab-command-r.gguf")),
    "llama2": EncodeAudit(("prefix-space", "spaces-as-▁"), _SPM_PLAIN, _llama_cpp("ggml-vocab-llama-spm.gguf")),
    "baichuan": EncodeAudit(("prefix-space", "spaces-as-▁"), _SPM_PLAIN, _declared("add_space_prefix, no charsmap")),
    "aquila": EncodeAudit((), _AS_TYPED, _declared("no pre-tokenizer: llama.cpp's 'default' split")),
    "deepseek-llm": EncodeAudit((), _AS_TYPED, _llama_cpp("ggml-vocab-deepseek-llm.gguf")),
    "deepseek-coder": EncodeAudit((), _AS_TYPED, _llama_cpp("ggml-vocab-deepseek-coder.gguf")),
    "gpt-neox": EncodeAudit((), _AS_TYPED, _llama_cpp("ggml-vocab-mpt.gguf")),
    "falcon": EncodeAudit((), _AS_TYPED, _llama_cpp("ggml-vocab-falcon.gguf")),
    "starcoder": EncodeAudit((), _AS_TYPED, _llama_cpp("ggml-vocab-starcoder.gguf")),
    "bert-bge": EncodeAudit(("strip-mn", "lowercase"),
                            T_("BertNormalizer: control characters dropped, whitespace made spaces, CJK characters "
                               "spaced, lowercased, NFD with the Mn marks dropped"),
                            _llama_cpp("ggml-vocab-bert-bge.gguf")),
    "deepseek-v3": EncodeAudit((), _AS_TYPED, _vendor_code("tokenizers on its tokenizer.json")),
    "qwen": EncodeAudit(("nfc",), T_("NFC"), _vendor_code("dashscope's QwenTokenizer")),
    "whisper": EncodeAudit((), _AS_TYPED, _vendor_code("whisper/tokenizer.py get_encoding()")),
    "r50k_base": EncodeAudit((), _AS_TYPED, _vendor_code("tiktoken")),
    "p50k_base": EncodeAudit((), _AS_TYPED, _vendor_code("tiktoken")),
    "claude-legacy": EncodeAudit(("nfkc",), T_("NFKC"), _vendor_code("tokenizers on its tokenizer.json")),
    "clip": EncodeAudit(("ftfy", "nfc", "collapse-spaces", "lowercase"),
                        T_("ftfy (quotes uncurled, NFC), runs of whitespace made one space, the ends trimmed, "
                           "lowercased; ftfy's repairs of broken text and open_clip's HTML unescaping are not mirrored"),
                        _vendor_code("open_clip's SimpleTokenizer")),
    "j2": EncodeAudit(("nfkc", "spaces-as-▁"),
                      T_("SentencePiece's nmt_nfkc map (NFKC, control characters dropped), spaces written as ▁, no ▁ "
                         "before the text"),
                      T_("the sentencepiece library on the model file; AI21's own wrapper code is not in a package "
                         "here, so its handling of lines and spaces is not checked")),
}


# ---------------------------------------------------------------------------
# Runtimes that read a shelf file otherwise than the model's own tokenizer
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RuntimeDiff:
    """A known runtime that, given this entry's file, cuts text otherwise than the model's own tokenizer does.

    The entry follows the model's tokenizer; a user running the file in ``runtime`` sees ``runtime_pieces``
    where the entry shows ``model_pieces`` for ``example`` (both checked in ``tests/test_shelf.py``).
    """

    runtime: str
    why: str
    example: str
    model_pieces: tuple[str, ...]
    runtime_pieces: tuple[str, ...]
    #: Where in the runtime's source the behaviour was read (the runtime itself is not run: see :meth:`how`).
    source: str = ""
    #: When it was established (ISO date).
    established: str = ""
    #: The runtime's version it was then confirmed with, run by ``bench/llama_cpp_vocab.py``, and when.
    confirmed: str = ""

    def line(self) -> Message:
        """The difference as one sentence, with its example (Compare, the inspector and the report show it)."""
        def show(pieces: tuple[str, ...]) -> str:
            return " ".join(repr(p) for p in pieces)

        return T_("{runtime} with this file cuts otherwise than the model's own tokenizer: {why}. Example {example}: "
                  "the model {model}, {runtime} {pieces}.", runtime=self.runtime, why=self.why,
                  example=repr(self.example), model=show(self.model_pieces), pieces=show(self.runtime_pieces))


    def how(self) -> Message:
        """How the difference is known, shown after :meth:`line`: read in the runtime's source, then confirmed once
        by running the runtime (``bench/llama_cpp_vocab.py``; llama.cpp is not a dependency, so no test runs it)."""
        return T_("How this is known: read in {runtime}'s source ({source}) on {date}, then confirmed by running "
                  "{version}; {runtime} is not a dependency of this app, so no test runs it.",
                  runtime=self.runtime, source=self.source, date=self.established, version=self.confirmed)


#: The llama.cpp run that confirmed both differences (bench/llama_cpp_vocab.py, llama-cpp-python built from source).
_CONFIRMED = "llama-cpp-python 0.3.36 (llama.cpp 0c1e570) on 2026-12-04"

RUNTIME_DIFFS: dict[str, RuntimeDiff] = {
    "gpt-neox": RuntimeDiff("llama.cpp", T_("the file declares no pre-tokenizer, so llama.cpp uses its 'default' "
                                            "split, which cuts digits away from the space before them"),
                            "Room 39", ("Room", " 39"), ("Room", " ", "39"),
                            "src/llama-vocab.cpp, llm_tokenizer_bpe: the 'default' regexes", "2026-12-02", _CONFIRMED),
    "bert-bge": RuntimeDiff("llama.cpp", T_("llama.cpp drops every combining mark ({marks}), also the spacing vowel "
                                            "signs (Mc) such as Bangla া that BertNormalizer keeps", marks="\\p{M}"),
                            "কথা", ("ক", "থ", "া"), ("ক", "থ"),
                            "src/llama-vocab.cpp, llm_tokenizer_wpm_session::preprocess: NFD, then every is_accent_mark "
                            "skipped when accents are stripped", "2026-12-02", _CONFIRMED),
}
