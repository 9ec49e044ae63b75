"""Conversions of vendor tokenizer files into the formats the real engines read.

- A GGUF vocabulary (:mod:`core.pretrained.gguf` metadata) becomes either a
  Hugging Face ``tokenizer.json`` (``tokenizer.ggml.model`` = ``gpt2``:
  byte-level BPE; ``bert``: WordPiece; ``gemma4``: BPE on ``▁``-spaced UTF-8
  with byte fallback) or a SentencePiece ``ModelProto`` (``llama``: BPE by
  piece score; ``t5``: Unigram with the file's precompiled charsmap).
  The split before BPE follows ``tokenizer.ggml.pre``, with the regexes
  llama.cpp applies for that name (:data:`PRE_SPLITS`).
- open_clip's ``bpe_simple_vocab_16e6.txt.gz`` merges list becomes a
  ``tokenizer.json`` with open_clip's rules (:func:`clip_to_hf_json`).

The result runs in ``tokenizers`` / ``sentencepiece``; this module never
tokenizes itself, and it reads no file (the zoo hands it checked bytes).
"""
from __future__ import annotations

import json
from typing import Any, Literal, Mapping, Sequence

from ..i18n import T_
from ..text.units import bytelevel_alphabet

# GGUF token types (llama.cpp's llama_token_type, the same numbers SentencePiece uses).
NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6

_GPT2 = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)"

#: The regexes llama.cpp splits text with before BPE, per ``tokenizer.ggml.pre`` name, applied one
#: after the other to the pieces the previous one left (facts from llama.cpp's
#: ``src/llama-vocab.cpp``, ``llm_tokenizer_bpe``, as vendored in llama-cpp-python 0.3.36; non-ASCII
#: characters written as escapes so no editor can normalize them).
PRE_SPLITS: dict[str, tuple[str, ...]] = {
    "default": (r"[\p{P}\$\+<=>\^~\|]+", _GPT2, r"\p{N}+", r"[0-9][0-9][0-9]"),
    "gpt-2": (_GPT2,),
    "mpt": (_GPT2,),
    "starcoder": (r"\p{N}", _GPT2),
    "refact": (r"\p{N}", _GPT2),
    "command-r": (r"\p{N}", _GPT2),
    "falcon": (r"[\p{P}\$\+<=>\^~\|`]+", _GPT2, r"[0-9][0-9][0-9]"),
    "deepseek-coder": ("[\r\n]", r"\s?\p{L}+", r"\s?\p{P}+", "[\u4e00-\u9fa5\u0800-\u4e00\uac00-\ud7ff]+", r"\p{N}"),
    "deepseek-llm": (
        "[\r\n]",
        "\\s?[A-Za-z\u00b5\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u01ba\u01bc-\u01bf\u01c4-\u0293\u0295-\u02af\u0370-\u0373\u0376\u0377\u037b-\u037d\u037f\u0386\u0388-\u038a\u038c\u038e-\u03a1\u03a3-\u03f5\u03f7-\u0481\u048a-\u052f\u0531-\u0556\u10a0-\u10c5\u13a0-\u13f5\u13f8-\u13fd\u1c90-\u1cba\u1cbd-\u1cbf\u1d00-\u1d2b\u1d6b-\u1d77\u1d79-\u1d9a\u1e00-\u1f15\u1f18-\u1f1d\u1f20-\u1f45\u1f48-\u1f4d\u1f50-\u1f57\u1f59\u1f5b\u1f5d\u1f5f-\u1f7d\u1f80-\u1fb4\u1fb6-\u1fbc\u1fbe\u1fc2-\u1fc4\u1fc6-\u1fcc\u1fd0-\u1fd3\u1fd6-\u1fdb\u1fe0-\u1fec\u1ff2-\u1ff4\u1ff6-\u1ffc\u2102\u2107\u210a-\u2113\u2115\u2119-\u211d\u2124\u2126\u2128\u212a-\u212d\u212f-\u2134\u2139\u213c-\u213f\u2145-\u2149\u214e\u2183\u2184\u2c00-\u2c7b\u2c7e-\u2ce4\u2ceb-\u2cee\u2cf2\u2cf3\ua640-\ua66d\ua680-\ua69b\ua722-\ua76f\ua771-\ua787\ua78b-\ua78e\uab70-\uabbf\ufb00-\ufb06\ufb13-\ufb17\uff21-\uff3a\uff41-\uff5a\U00010400-\U0001044f\U000104b0-\U000104d3\U000104d8-\U000104fb\U00010c80-\U00010cb2\U00010cc0-\U00010cf2\U000118a0-\U000118df\U0001e900-\U0001e943]+",
        "\\s?[!-/:-~\uff01-\uff0f\uff1a-\uff5e\u2018-\u201f\u3000-\u3002]+",
        r"\s+$",
        "[\u4e00-\u9fa5\u0800-\u4e00\uac00-\ud7ff]+",
        r"\p{N}+",
    ),
    "gemma4": ("[^\n]+|[\n]+",),
}

Kind = Literal["hf-json", "sentencepiece"]


def _split(pattern: str, behavior: str = "Isolated", invert: bool = False) -> dict[str, Any]:
    return {"type": "Split", "pattern": {"Regex": pattern}, "behavior": behavior, "invert": invert}


def _added(tokens: Sequence[str], types: Sequence[int]) -> list[dict[str, Any]]:
    """Control tokens (never made from text here) and user-defined ones (always matched, as in llama.cpp)."""
    out = []
    for i, (tok, typ) in enumerate(zip(tokens, types)):
        if typ in (CONTROL, USER_DEFINED):
            out.append({"id": i, "content": tok, "single_word": False, "lstrip": False, "rstrip": False,
                        "normalized": False, "special": typ == CONTROL})
    return out


def _vocab(tokens: Sequence[str]) -> dict[str, int]:
    vocab: dict[str, int] = {}
    for i, tok in enumerate(tokens):
        vocab.setdefault(tok, i)  # subtle: a few files repeat a piece; the first id wins, as in llama.cpp's map
    return vocab


def _merges(merges: Sequence[str]) -> list[list[str]]:
    # the first space after the first character separates the pair
    return [[m[:p], m[p + 1 :]] for m in merges if (p := m.find(" ", 1)) > 0]


def _tokenizer_json(model: dict[str, Any], added: list[dict[str, Any]], normalizer: Any, pre: Any,
                    decoder: Any) -> str:
    return json.dumps({"version": "1.0", "truncation": None, "padding": None, "added_tokens": added,
                       "normalizer": normalizer, "pre_tokenizer": pre, "post_processor": None, "decoder": decoder,
                       "model": model}, ensure_ascii=False)  # fmt: skip


def _bpe_model(vocab: dict[str, int], merges: list[list[str]], **kw: Any) -> dict[str, Any]:
    model = {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
             "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
             "vocab": vocab, "merges": merges}  # fmt: skip
    model.update(kw)
    return model


def from_gguf(meta: Mapping[str, Any], *, pre: str | None = None) -> tuple[Kind, bytes]:
    """The engine format for a GGUF vocabulary: ``("hf-json", tokenizer.json bytes)`` or ``("sentencepiece", proto)``.

    ``meta`` holds the ``tokenizer.ggml.*`` keys; ``pre`` overrides
    ``tokenizer.ggml.pre`` (for a file that names none where the original
    model's tokenizer is known). Raises ``ValueError`` for a model type or
    pre-tokenizer this module does not know.
    """
    model = meta.get("tokenizer.ggml.model")
    tokens: list[str] = list(meta.get("tokenizer.ggml.tokens") or [])
    if not tokens:
        raise ValueError(T_("the GGUF file has no `tokenizer.ggml.tokens`"))
    types = [int(t) for t in meta.get("tokenizer.ggml.token_type", [NORMAL] * len(tokens))]
    if model in ("llama", "t5"):
        return "sentencepiece", _sentencepiece(meta, tokens, types, unigram=model == "t5")
    pre_name = pre or meta.get("tokenizer.ggml.pre") or ("gemma4" if model == "gemma4" else "default")
    if model == "gpt2":
        if pre_name not in PRE_SPLITS:
            raise ValueError(T_("pre-tokenizer {name} is not supported (known: {known})", name=repr(pre_name),
                                known=", ".join(PRE_SPLITS)))
        splits = [_split(p) for p in PRE_SPLITS[pre_name]]
        pre_tok = {"type": "Sequence", "pretokenizers": splits + [
            {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}]}
        decoder = {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True}
        bpe = _bpe_model(_vocab(tokens), _merges(meta.get("tokenizer.ggml.merges") or []))
        text = _tokenizer_json(bpe, _added(tokens, types), None, pre_tok, decoder)
    elif model == "gemma4":
        bpe = _bpe_model(_vocab(tokens), _merges(meta.get("tokenizer.ggml.merges") or []), byte_fallback=True,
                         unk_token=tokens[int(meta.get("tokenizer.ggml.unknown_token_id", 3))])
        normalizer: dict[str, object] = {"type": "Replace", "pattern": {"String": " "}, "content": "\u2581"}
        pre_tok = {"type": "Sequence", "pretokenizers": [_split(p) for p in PRE_SPLITS["gemma4"]]}
        decoder = {"type": "Sequence", "decoders": [
            {"type": "Replace", "pattern": {"String": "\u2581"}, "content": " "},
            {"type": "ByteFallback"}, {"type": "Fuse"}]}
        text = _tokenizer_json(bpe, _added(tokens, types), normalizer, pre_tok, decoder)
    elif model == "bert":
        tokens = _wordpiece_tokens(tokens, types)
        unk = tokens[int(meta.get("tokenizer.ggml.unknown_token_id", 100))]
        wp = {"type": "WordPiece", "unk_token": unk, "continuing_subword_prefix": "##",
              "max_input_chars_per_word": 100, "vocab": _vocab(tokens)}
        # The original BERT-uncased pipeline (bge's tokenizer.json): clean text, split CJK, lowercase and
        # strip accents (strip_accents unset follows lowercase), then the BERT pre-tokenizer.
        normalizer = {"type": "BertNormalizer", "clean_text": True, "handle_chinese_chars": True,
                      "strip_accents": None, "lowercase": True}
        text = _tokenizer_json(wp, _added(tokens, types), normalizer, {"type": "BertPreTokenizer"},
                               {"type": "WordPiece", "prefix": "##", "cleanup": True})
    else:
        raise ValueError(T_("GGUF tokenizer model {model} is not supported (gpt2, gemma4, bert, llama, t5 are)",
                            model=repr(model)))
    return "hf-json", text.encode("utf-8")


def _wordpiece_tokens(tokens: list[str], types: list[int]) -> list[str]:
    """BERT's own spelling of the pieces back from llama.cpp's.

    llama.cpp stores a word-initial piece with a leading ``▁`` and a
    word-internal one without BERT's ``##``; BERT writes the opposite.
    Control tokens and ``[unusedN]`` stay as they are.
    """
    out = []
    for tok, typ in zip(tokens, types):
        if tok.startswith("\u2581"):
            out.append(tok[1:])
        elif typ == CONTROL or (tok.startswith("[unused") and tok.endswith("]")):
            out.append(tok)
        else:
            out.append("##" + tok)
    return out


def _sentencepiece(meta: Mapping[str, Any], tokens: list[str], types: list[int], *, unigram: bool) -> bytes:
    """A SentencePiece ModelProto from GGUF pieces, scores and types (llama: BPE; t5: Unigram)."""
    from sentencepiece import sentencepiece_model_pb2 as pb

    scores = meta.get("tokenizer.ggml.scores")
    m = pb.ModelProto()
    for i, tok in enumerate(tokens):
        p = m.pieces.add()
        p.piece = tok
        p.score = float(scores[i]) if scores is not None else 0.0
        p.type = types[i] if types[i] in (NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE) else NORMAL
    ts = m.trainer_spec
    ts.model_type = pb.TrainerSpec.UNIGRAM if unigram else pb.TrainerSpec.BPE
    ts.vocab_size = len(tokens)
    ts.byte_fallback = BYTE in types
    for name, key in (("unk_id", "unknown_token_id"), ("bos_id", "bos_token_id"), ("eos_id", "eos_token_id"),
                      ("pad_id", "padding_token_id")):
        setattr(ts, name, int(meta[f"tokenizer.ggml.{key}"]) if f"tokenizer.ggml.{key}" in meta else -1)
    ns = m.normalizer_spec
    charsmap = meta.get("tokenizer.ggml.precompiled_charsmap")
    ns.name = "nmt_nfkc" if charsmap is not None and len(charsmap) else "identity"
    if charsmap is not None and len(charsmap):
        ns.precompiled_charsmap = bytes(charsmap)
    ns.add_dummy_prefix = bool(meta.get("tokenizer.ggml.add_space_prefix", True))
    ns.remove_extra_whitespaces = bool(meta.get("tokenizer.ggml.remove_extra_whitespaces", False))
    ns.escape_whitespaces = True
    return m.SerializeToString()


#: open_clip's split (``open_clip/tokenizer.py``, SimpleTokenizer.pat without its special-token prefix).
CLIP_PAT = r"'s|'t|'re|'ve|'m|'ll|'d|[\p{L}]+|[\p{N}]|[^\s\p{L}\p{N}]+"
CLIP_SPECIALS = ("<start_of_text>", "<end_of_text>")


def clip_to_hf_json(merges_text: str) -> bytes:
    """open_clip's vocabulary as a ``tokenizer.json``.

    The vocabulary is derived as open_clip derives it: the 256 byte
    characters, the same with ``</w>``, one token per merge (the first
    48,894 lines after the header), then the two specials. Text gets the
    parts of ``ftfy.fix_text`` that apply to clean text (curly quotes and
    ʼ become ' and ", then NFC), whitespace runs become one space,
    everything is lowercased. ftfy's repairs of broken text (mojibake, HTML
    entities, ligatures, full-width forms) are not mirrored.
    """
    lines = merges_text.split("\n")[1 : 49152 - 256 - 2 + 1]
    merges = [line.split() for line in lines]
    alphabet = sorted(bytelevel_alphabet().values(), key=ord)  # open_clip's order: printable bytes, then the rest
    vocab_list = alphabet + [c + "</w>" for c in alphabet] + ["".join(m) for m in merges] + list(CLIP_SPECIALS)
    vocab = {tok: i for i, tok in enumerate(vocab_list)}
    bpe = _bpe_model(vocab, merges, end_of_word_suffix="</w>", continuing_subword_prefix="")
    normalizer = {"type": "Sequence", "normalizers": [
        # ftfy.fix_text's uncurl_quotes (its SINGLE_QUOTE_RE / DOUBLE_QUOTE_RE classes), then its NFC
        {"type": "Replace", "pattern": {"Regex": "[\u02bc\u2018-\u201b]"}, "content": "'"},
        {"type": "Replace", "pattern": {"Regex": "[\u201c-\u201f]"}, "content": '"'},
        {"type": "NFC"}, {"type": "Replace", "pattern": {"Regex": r"\s+"}, "content": " "}, {"type": "Lowercase"}]}
    pre_tok = {"type": "Sequence", "pretokenizers": [
        _split(CLIP_PAT, "Removed", invert=True),
        {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}]}
    added = [{"id": vocab[s], "content": s, "single_word": False, "lstrip": False, "rstrip": False,
              "normalized": False, "special": True} for s in CLIP_SPECIALS]
    decoder = {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True}
    return _tokenizer_json(bpe, added, normalizer, pre_tok, decoder).encode("utf-8")
