"""Special tokens typed by a user: does text that spells "[SEP]", "<|endoftext|>", "<s>" become a control id?

Each tokenizer says how it can encode user text (:meth:`core.tokens.Tokenizer.special_probes`: the
library's own modes for ``tokenizers`` and ``tiktoken``, the adapter's safe and unsafe modes otherwise);
:func:`injection_checkers` turns each mode into a checker and :func:`injection_check` runs them. A bare
``tokenizers.Tokenizer`` or ``tiktoken.Encoding`` is accepted too (its adapter module recognises it:
:func:`core.pretrained.library.library_view`). This module does not render.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Literal

from ..i18n import N_, T_, Tn_
from ..pretrained.library import library_view
from ..text.native import fence
from ..tokens import SpecialProbe

#: Control-token spellings a user might type (BERT, GPT, Llama/Mistral, chat templates).
INJECTION_PROBES: tuple[str, ...] = (
    "[SEP]", "[CLS]", "[PAD]", "[UNK]", "[MASK]", "<|endoftext|>", "<s>", "</s>", "<unk>", "<pad>",
    "[INST]", "<|eot_id|>", "<|begin_of_text|>", "<|im_start|>",
)  # fmt: skip

Outcome = Literal["control", "refused", "text"]
#: How the report and the special tokens page name each outcome (shown with ``_()``; the CLI's JSON keeps the tag).
OUTCOME_LABELS: dict[str, str] = {"control": N_("⚠ became a control id"), "refused": N_("⛔ refused (error)"),
                                  "text": N_("✓ stayed text")}
#: The probe modes that are words rather than code (``allowed_special="all"`` stays as it is): shown with ``_()``.
MODE_LABELS = (N_("library default"), N_("library default (encode)"), N_("default"), N_("built in"))


@dataclass(frozen=True)
class InjectionResult:
    """How one tokenizer, in one mode, treats text that spells control tokens.

    ``outcome``: "control" (the text became control ids: injection risk),
    "refused" (the library raised instead of encoding), or "text" (encoded
    as ordinary text). ``controls`` lists the ``(spelling, id)`` pairs made.
    """

    tokenizer: str
    mode: str
    outcome: Outcome
    controls: tuple[tuple[str, int], ...]
    ids: tuple[int, ...]
    detail: str

    @property
    def risk(self) -> bool:
        return self.outcome == "control"


def _judge(name: str, mode: str, run, specials: dict[int, str]):  # noqa: ANN001, ANN202
    """A checker: ``run(text)`` gives ``(id, surface)`` pairs, surface = the input text the token covers.

    A special id counts as a control token made from user text only when
    its surface spells that token (an [UNK] for an unseen letter is not).
    """

    def check(text: str) -> InjectionResult:
        try:
            pairs = run(text)
        except ValueError as exc:  # tiktoken's encode: "Encountered text corresponding to disallowed special token"
            spelled = sorted({s for s in specials.values() if s and s in text}, key=text.index)
            detail = (Tn_("refused: the text spells the control token {tokens}",
                          "refused: the text spells the control tokens {tokens}", len(spelled),
                          tokens=", ".join(spelled)) if spelled
                      else T_("refused: {reason}", reason=str(exc).splitlines()[0][:200]))
            return InjectionResult(name, mode, "refused", (), (), detail)
        ids = tuple(i for i, _ in pairs)
        controls = tuple((specials[i], i) for i, surf in pairs if i in specials and (surf is None or surf == specials[i]))
        if controls:
            detail = Tn_("became a control id: {ids}", "became control ids: {ids}", len(controls),
                         ids=", ".join(f"{s} = {i}" for s, i in controls))
            return InjectionResult(name, mode, "control", controls, ids, detail)
        return InjectionResult(name, mode, "text", (), ids, Tn_("encoded as {count} ordinary token",
                                                                "encoded as {count} ordinary tokens", len(ids),
                                                                count=len(ids)))

    return check


def injection_checkers(tok: Any, name: str | None = None) -> list[Callable[[str], InjectionResult]]:
    """One checker per mode (each: ``text -> InjectionResult``) for ``tok``.

    ``tok`` is a :class:`core.tokens.Tokenizer` (its :meth:`~core.tokens.Tokenizer.special_probes` give
    the modes), or a bare ``tokenizers.Tokenizer`` or ``tiktoken.Encoding``. tiktoken's ``encode``
    refuses special-token text by default; ``allowed_special="all"`` is what an unsafe app does.
    """
    probes: list[SpecialProbe] | None = None
    label = name
    lib = library_view(tok)  # a bare library object: its adapter module says what it can do
    if lib is not None:
        probes, label = lib.special_probes(), name or lib.name
    else:  # every Tokenizer answers special_probes() (a default where the library has no modes of its own)
        probes, label = tok.special_probes(), name or tok.name
    return [_judge(str(label), p.mode, p.run, dict(p.specials)) for p in probes]


@fence(T_("the injection check"))
def injection_check(tok: Any, text: str, name: str | None = None) -> list[InjectionResult]:
    """How ``tok`` treats ``text`` in each of its modes (see :func:`injection_checkers`).

    >>> import tiktoken
    >>> enc = tiktoken.Encoding("toy", pat_str=r"\\S+|\\s+", mergeable_ranks={bytes([b]): b for b in range(256)},
    ...                         special_tokens={"<|endoftext|>": 256})
    >>> [(r.mode, r.outcome) for r in injection_check(enc, "hi <|endoftext|>")]
    [('library default (encode)', 'refused'), ('allowed_special="all"', 'control'), ('encode_ordinary', 'text')]
    """
    return [check(text) for check in injection_checkers(tok, name)]
