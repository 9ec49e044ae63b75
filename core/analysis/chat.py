"""Chat format: how a conversation becomes the tokens a model reads, turn by turn.

:func:`chat_analysis` renders a conversation with a chat template
(:mod:`core.pretrained.chat_render`, sandboxed), finds each message's content
in the prompt, and tokenizes the prompt the two ways runtimes do:

- **content as text** (``mistral-common``, ``llama-models``, llama.cpp's
  server): only the template's own control tokens are control tokens; a
  message that spells ``<|eot_id|>`` is encoded as ordinary text. These are
  the ``ids`` reported.
- **special tokens parsed everywhere** (``transformers``'
  ``apply_chat_template(tokenize=True)``, which encodes the rendered string
  with its special tokens split out): the typed spelling becomes the real
  control token, so the model sees the turn end there. A difference between
  the two is an injection path, and :attr:`ChatAnalysis.injected` says where.

Tokens are counted per turn: a turn's content tokens, and the template's
overhead (its header before the content, and the one control token that
closes it, with the whitespace after). The text after the last turn (the
generation prompt) is its own row. Nothing here renders HTML.
"""
from __future__ import annotations

import bisect
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from ..i18n import N_, T_, Message, Tn_
from ..pretrained.adapter import PretrainedTokenizer, SpecialHit
from ..pretrained.chat_render import ChatTemplateError, render
from ..pretrained.chat_templates import ChatTemplate, get_template, read_template, tokenizer_of
from ..text.units import char_byte_offsets
from ..tokens import Encoding, Token
from .chat_input import (  # noqa: F401 - re-exported: callers read the input checks from core.analysis.chat
    MAX_CHAT_CHARS,
    MAX_TEMPLATE_FILE_BYTES,
    MAX_TOOLS_BYTES,
    MAX_TURNS,
    ROLES,
    ChatInputError,
    UploadedTemplate,
    parse_conversation,
    parse_tools,
    template_from_upload,
)

# ---------------------------------------------------------------------------
# Analysis
# ---------------------------------------------------------------------------

#: Which runtimes encode a rendered prompt each way (shown by the page and the CLI).
PARSED_RUNTIMES = "transformers apply_chat_template(tokenize=True), tokenizer(prompt) with special tokens split"
TEXT_RUNTIMES = "mistral-common encode_chat_completion, llama-models ChatFormat, llama.cpp (parse_special only for the template)"


@dataclass(frozen=True)
class TurnCount:
    """One row of the per-turn table. ``index`` is the message's position, None for the text after the last turn."""

    index: int | None
    role: str
    content_tokens: int
    overhead_tokens: int
    found: bool

    @property
    def total(self) -> int:
        return self.content_tokens + self.overhead_tokens


@dataclass(frozen=True)
class Injection:
    """A control token spelled inside a message's content: made a real one when specials are parsed everywhere."""

    turn: int
    spelling: str
    id: int
    start: int
    end: int


@dataclass(frozen=True)
class ChatTokens:
    """The prompt tokenized one way: ``encoding`` (chips), per token its turn and whether it is content."""

    encoding: Encoding
    turn: tuple[int | None, ...]
    content: tuple[bool, ...]
    injected: tuple[bool, ...]

    @property
    def ids(self) -> list[int]:
        return [t.id for t in self.encoding.tokens if t.id is not None]


@dataclass(frozen=True)
class ChatAnalysis:
    """A conversation rendered by one template and tokenized by its tokenizer (``safe``/``parsed`` None without one)."""

    template: str
    tokenizer: str | None
    needs: str
    text: str
    bos_token: str | None
    eos_token: str | None
    spans: tuple[tuple[int, int, int], ...]
    roles: tuple[str, ...]
    safe: ChatTokens | None
    parsed: ChatTokens | None
    turns: tuple[TurnCount, ...]
    injected: tuple[Injection, ...]
    context: int | None

    @property
    def total(self) -> int:
        return len(self.safe.encoding.tokens) if self.safe else 0

    @property
    def overhead(self) -> int:
        return sum(t.overhead_tokens for t in self.turns)

    @property
    def overhead_share(self) -> float:
        return self.overhead / self.total if self.total else 0.0

    @property
    def context_share(self) -> float | None:
        return self.total / self.context if self.context and self.safe else None

    def as_dict(self) -> dict[str, object]:
        """The ``chat --json`` answer."""
        safe, parsed = self.safe, self.parsed
        return {
            "template": self.template, "tokenizer": self.tokenizer, "needs": self.needs or None, "text": self.text,
            "bos_token": self.bos_token, "eos_token": self.eos_token,
            "ids": safe.ids if safe else None,
            "ids_specials_parsed": parsed.ids if parsed else None,
            "tokens": self.total if safe else None, "overhead_tokens": self.overhead if safe else None,
            "overhead_share": round(self.overhead_share, 4) if safe else None,
            "context": self.context,
            "context_share": None if self.context_share is None else round(self.context_share, 6),
            "content_spans": [{"turn": t, "start": a, "end": b} for a, b, t in self.spans],
            "turns": [{"index": t.index, "role": t.role, "content_tokens": t.content_tokens,
                       "overhead_tokens": t.overhead_tokens, "total": t.total, "found": t.found}
                      for t in self.turns] if safe else None,
            "injection": [{"turn": i.turn, "spelling": i.spelling, "id": i.id, "start": i.start, "end": i.end}
                          for i in self.injected],
        }


#: Seconds one chat analysis may take after its render (finding the turns, tokenizing, labelling).
ANALYSIS_SECONDS = 8.0


class ChatTimeoutError(ChatInputError):
    """A conversation whose analysis ran past its deadline (one-line reason)."""


def _check_deadline(deadline: float | None) -> None:
    if deadline is not None and time.monotonic() > deadline:
        raise ChatTimeoutError(T_("analysing this conversation took longer than {seconds:g} s and was stopped",
                                  seconds=ANALYSIS_SECONDS))


def _find_from(text: str, needle: str, start: int) -> int:
    """``text.find(needle, start)``: the one search :func:`locate_contents` makes (a test counts its calls)."""
    return text.find(needle, start)


def locate_contents(text: str, messages: Sequence[Mapping[str, Any]], *,
                    deadline: float | None = None) -> list[tuple[int, int, int]]:
    """``(start, end, message index)`` of each message's content found in ``text``, in order.

    Each content is searched as typed or else trimmed (templates often ``| trim``) from where the previous found
    one ended: one forward pass whose cursor never goes back. A template may move a turn (Mistral's puts the system
    prompt into the last user turn), so the turns that pass missed get a second forward pass from the start, where
    a content is taken only at its first occurrence after that pass's cursor and only if it overlaps no turn
    already found. A content found neither way is not in the prompt (the template changed or dropped it, and its
    turn says so). At most four searches per turn, whatever the prompt repeats: linear in the number of turns, each
    search linear in the prompt.

    >>> locate_contents("<u>hi</u><a> yo</a>", [{"content": "hi"}, {"content": " yo "}])
    [(3, 5, 0), (13, 15, 1)]
    >>> locate_contents("[INST] hi [/INST] yo [INST] sys: q [/INST]",
    ...                 [{"content": "sys"}, {"content": "hi"}, {"content": "yo"}, {"content": "q"}])
    [(7, 9, 1), (18, 20, 2), (28, 31, 0), (33, 34, 3)]
    """
    out: list[tuple[int, int, int]] = []
    missed: list[tuple[int, tuple[str, ...]]] = []
    pos = 0
    for k, msg in enumerate(messages):
        content = msg.get("content")
        if not isinstance(content, str) or not content.strip():
            continue
        _check_deadline(deadline)
        needles: tuple[str, ...] = (content,) if content == content.strip() else (content, content.strip())
        span = _first(text, needles, pos)
        if span is None:
            missed.append((k, needles))
        else:
            out.append((*span, k))
            pos = span[1]
    if missed:  # the found spans are sorted and do not overlap: a bisection tells whether a hit overlaps one
        taken = [(a, b) for a, b, _k in out]
        pos = 0
        for k, needles in missed:
            _check_deadline(deadline)
            span = _first(text, needles, pos)
            if span is None or _overlaps(taken, *span):
                continue
            bisect.insort(taken, span)
            out.append((*span, k))
            pos = span[1]
    return sorted(out)


def _first(text: str, needles: Sequence[str], pos: int) -> tuple[int, int] | None:
    """Where the first of ``needles`` that occurs at or after ``pos`` does (one search per needle)."""
    for needle in needles:
        at = _find_from(text, needle, pos)
        if at >= 0:
            return at, at + len(needle)
    return None


def _overlaps(taken: Sequence[tuple[int, int]], a: int, b: int) -> bool:
    """Whether ``[a, b)`` overlaps one of the sorted, disjoint ``taken`` spans."""
    j = bisect.bisect_right(taken, (a, b)) - 1
    return (j >= 0 and taken[j][1] > a) or (j + 1 < len(taken) and taken[j + 1][0] < b)


def _in_spans(hits: Sequence[SpecialHit], spans: Sequence[tuple[int, int, int]]) -> list[int | None]:
    """For each hit, the message whose content it lies in (None: the template's own)."""
    # spans are sorted and do not overlap: the only one that can hold a hit is the last to start at or before it
    starts = [a for a, _b, _k in spans]
    out: list[int | None] = []
    for h in hits:
        j = bisect.bisect_right(starts, h.start) - 1
        out.append(spans[j][2] if j >= 0 and h.end <= spans[j][1] else None)
    return out


def _tokenize(tok: PretrainedTokenizer, text: str, cuts: Sequence[SpecialHit], deadline: float | None = None
              ) -> list[Token]:
    """``text`` encoded with the ``cuts`` as control tokens and everything between as ordinary text.

    Each piece between cuts is encoded on its own (the ids, bytes and flags :meth:`PretrainedTokenizer.encode` gives);
    code point offsets come from one table of the whole text rather than one per piece.
    """
    offs = char_byte_offsets(text)
    # the code point holding each UTF-8 byte of the text (what byte_owner finds by bisection, for every byte at once)
    owner: list[int] = np.repeat(np.arange(len(text)), np.diff(np.asarray(offs))).tolist()
    special_ids = tok.special_ids
    toks: list[Token] = []
    pos = 0
    byte_at = 0  # UTF-8 offset of ``pos``
    def plain(a: int, b: int, base: int) -> int:
        if not tok.ids_complete:  # a unit may have no id (a baseline's word): its own tokens, moved to the piece's place
            for t in tok.encode(text[a:b]).tokens:
                toks.append(Token(t.id, t.data, t.byte_start + base, t.byte_end + base, t.start + a, t.end + a,
                                  t.special))
            return offs[b]
        ids, spans, data = tok.encode_spans(text[a:b])
        size = offs[b] - base
        last = base + size  # a span past the piece's end belongs to its end, as byte_owner(piece, ...) says
        for tid, (bs, be), d in zip(ids, spans, data):
            s = owner[base + bs] if bs < size else b
            e = (owner[base + be - 1] + 1 if be - 1 < size else b + 1) if be > bs else s
            toks.append(Token(tid, d, bs + base, be + base, s, e, tid in special_ids))
        return last

    for n, h in enumerate(cuts):
        if n % 256 == 0:
            _check_deadline(deadline)
        if h.start > pos:
            byte_at = plain(pos, h.start, byte_at)
        size = len(h.text.encode("utf-8"))
        toks.append(Token(h.id, h.text.encode("utf-8"), byte_at, byte_at + size, h.start, h.end, True))
        byte_at += size
        pos = h.end
    if pos < len(text):
        plain(pos, len(text), byte_at)
    return toks


def _closings(text: str, spans: Sequence[tuple[int, int, int]], template_hits: Sequence[SpecialHit]) -> list[int]:
    """Where each found turn ends: after its content, one template control token right after it, and whitespace."""
    starts = {h.start: h for h in template_hits}
    out = []
    for _a, b, _k in spans:
        end = b
        while end < len(text) and text[end] in " \t" and end not in starts:
            end += 1
        if end in starts:
            end = starts[end].end
            while end < len(text) and text[end] in "\r\n \t" and end not in starts:
                end += 1
        out.append(end)
    return out


def _label(tokens: Sequence[Token], closings: Sequence[int], spans: Sequence[tuple[int, int, int]],
           hit_turn: Mapping[int, int]) -> ChatTokensParts:
    # closings and spans are sorted and spans do not overlap: one search per token, all tokens at once
    n = len(tokens)
    if not spans:
        turn: list[int | None] = [None] * n
        content = [False] * n
    else:
        at = np.fromiter((t.start for t in tokens), dtype=np.int64, count=n)
        turn_of: list[int | None] = [k for _a, _b, k in spans]
        turn_of.append(None)  # after the last turn's closing
        turn = [turn_of[i] for i in np.searchsorted(np.asarray(closings), at, side="right").tolist()]
        j = np.searchsorted(np.asarray([a for a, _b, _k in spans]), at, side="right") - 1
        ends = np.asarray([b for _a, b, _k in spans])
        content = ((j >= 0) & (at < ends[np.maximum(j, 0)])).tolist()
    injected = [t.special and t.start in hit_turn for t in tokens] if hit_turn else [False] * n
    return turn, content, injected


ChatTokensParts = tuple[list[int | None], list[bool], list[bool]]


def analyze_rendered(text: str, messages: Sequence[Mapping[str, Any]], tok: PretrainedTokenizer | None, *,
                     template: str = "", needs: str = "", bos_token: str | None = None, eos_token: str | None = None,
                     context: int | None = None, deadline: float | None = None) -> ChatAnalysis:
    """Tokens, turns and injections of an already rendered prompt (see :func:`chat_analysis`).

    All of it runs before ``deadline`` (a :func:`time.monotonic` time; by default :data:`ANALYSIS_SECONDS` from
    now), else :class:`ChatTimeoutError`.
    """
    if deadline is None:
        deadline = time.monotonic() + ANALYSIS_SECONDS
    spans = locate_contents(text, messages, deadline=deadline)
    roles = tuple(str(m.get("role", "")) for m in messages)
    if tok is None:
        turns = tuple(TurnCount(k, roles[k], 0, 0, any(s[2] == k for s in spans)) for k in range(len(messages)))
        return ChatAnalysis(template, None, needs, text, bos_token, eos_token, tuple(spans), roles, None, None, turns,
                            (), context)
    hits = tok.special_hits(text)
    owner = _in_spans(hits, spans)
    template_hits = [h for h, o in zip(hits, owner) if o is None]
    inside = {h.start: o for h, o in zip(hits, owner) if o is not None}
    closings = _closings(text, spans, template_hits)
    _check_deadline(deadline)
    safe_toks = _tokenize(tok, text, template_hits, deadline)
    parsed_toks = _tokenize(tok, text, hits, deadline) if inside else safe_toks
    _check_deadline(deadline)
    sets = []
    for toks in ((safe_toks, parsed_toks) if inside else (safe_toks,)):
        turn, content, injected = _label(toks, closings, spans, inside)
        sets.append(ChatTokens(Encoding(text, tuple(toks)), tuple(turn), tuple(content), tuple(injected)))
    safe = sets[0]
    sets.append(safe)  # without typed control tokens both ways give the same tokens
    tally = Counter(zip(safe.turn, safe.content))
    counts: dict[int | None, list[int]] = {}
    for (t, c), n in tally.items():
        counts.setdefault(t, [0, 0])[0 if c else 1] += n
    found = {k for _a, _b, k in spans}
    rows = []
    for k in range(len(messages)):
        content_n, overhead_n = counts.get(k, [0, 0])
        rows.append(TurnCount(k, roles[k], content_n, overhead_n,
                              k in found or not str(messages[k].get("content") or "").strip()))
    # tokens before the first found turn went to that turn; a turn whose content was not found shows 0 of its own
    if None in counts:
        rows.append(TurnCount(None, "", counts[None][0], counts[None][1], True))
    injections = tuple(Injection(inside[h.start], h.text, h.id, h.start, h.end) for h in hits if h.start in inside)
    return ChatAnalysis(template, tok.id, needs, text, bos_token, eos_token, tuple(spans), roles, safe, sets[1],
                        tuple(rows), injections, context)


def prompt_segments(result: ChatAnalysis) -> list[tuple[str, str]]:
    """The rendered prompt cut into ``(text, kind)`` runs for display, kind one of ``template`` (the template's own
    text), ``control`` (a control token the template wrote), ``content`` (a message's text) and ``injected`` (a
    control token spelled inside a message). Without a tokenizer, control tokens are not known (all ``template``).

    >>> r = analyze_rendered("<u>hi</u>", [{"role": "user", "content": "hi"}], None)
    >>> prompt_segments(r)
    [('<u>', 'template'), ('hi', 'content'), ('</u>', 'template')]
    """
    text = result.text
    kind = ["template"] * len(text)
    for a, b, _k in result.spans:
        kind[a:b] = ["content"] * (b - a)
    starts: set[int] = set()
    if result.safe is not None:
        for t in result.safe.encoding.tokens:
            if t.special:
                kind[t.start:t.end] = ["control"] * (t.end - t.start)
                starts.add(t.start)
    for i in result.injected:
        kind[i.start:i.end] = ["injected"] * (i.end - i.start)
        starts.add(i.start)
    out: list[tuple[str, str]] = []
    start = 0
    for k in range(1, len(text) + 1):
        if k == len(text) or kind[k] != kind[start] or k in starts:  # two control tokens in a row stay two runs
            out.append((text[start:k], kind[start]))
            start = k
    return out


def chat_analysis(tmpl: ChatTemplate, messages: Sequence[Mapping[str, Any]], *, add_generation_prompt: bool = False,
                  tools: Sequence[Mapping[str, Any]] | None = None, tok: PretrainedTokenizer | None = None,
                  extra: Mapping[str, Any] | None = None) -> ChatAnalysis:
    """``messages`` rendered by the bundled template ``tmpl`` and tokenized by ``tok`` (its shelf tokenizer).

    Raises :class:`ChatTemplateError` when the template refuses or breaks a limit, and
    :class:`core.pretrained.catalog.ZooError` when its file is not installed.
    """
    source = read_template(tmpl)
    text = render(source, messages, tools=tools, add_generation_prompt=add_generation_prompt,
                  bos_token=tmpl.bos_token, eos_token=tmpl.eos_token, extra=extra)
    needs = "" if tok is not None else (tmpl.needs or (tmpl.tokenizer or ""))
    return analyze_rendered(text, messages, tok, template=tmpl.id, needs=needs, bos_token=tmpl.bos_token,
                            eos_token=tmpl.eos_token, context=tmpl.context,
                            deadline=time.monotonic() + ANALYSIS_SECONDS)


def chat_ids(tmpl: ChatTemplate, messages: Sequence[Mapping[str, Any]], tok: PretrainedTokenizer, *,
             add_generation_prompt: bool = False, tools: Sequence[Mapping[str, Any]] | None = None) -> list[int]:
    """Only the ids of :func:`chat_analysis` (content encoded as text), without token records or turns: what a
    runtime needs, and what ``bench/chat.py`` times against ``transformers`` plus the backend."""
    text = render(read_template(tmpl), messages, tools=tools, add_generation_prompt=add_generation_prompt,
                  bos_token=tmpl.bos_token, eos_token=tmpl.eos_token)
    spans = locate_contents(text, messages, deadline=time.monotonic() + ANALYSIS_SECONDS)
    hits = tok.special_hits(text)
    cuts = [h for h, o in zip(hits, _in_spans(hits, spans)) if o is None]
    ids: list[int] = []
    pos = 0
    for h in cuts:
        if h.start > pos:
            ids += tok.encode_ids(text[pos:h.start])
        ids.append(h.id)
        pos = h.end
    if pos < len(text):
        ids += tok.encode_ids(text[pos:])
    return ids


def load_template_tokenizer(tmpl: ChatTemplate) -> PretrainedTokenizer | None:
    """The shelf tokenizer of ``tmpl`` (None when it has none on the shelf); :class:`ZooError` when not installed."""
    from ..pretrained import zoo  # the zoo imports every adapter: only when a tokenizer is wanted

    tid = tokenizer_of(tmpl)
    return zoo.load(tid) if tid else None


def premium(totals: Mapping[str, int], base: str = "en") -> dict[str, float | None]:
    """Each language's total tokens over ``base``'s (None when the base has none).

    >>> premium({"en": 10, "bn": 25})
    {'en': 1.0, 'bn': 2.5}
    """
    ref = totals.get(base) or 0
    return {k: (v / ref if ref else None) for k, v in totals.items()}


def missing_message(tmpl: ChatTemplate) -> str:
    """The sentence shown when a template's tokenizer is not on the shelf."""
    return T_("{template} renders, but its tokenizer ({tokenizer}) is not on the shelf: no token counts",
              template=tmpl.name, tokenizer=tmpl.needs or str(tmpl.tokenizer))


#: The roles' names in sentences (the page's role labels are the same words).
ROLE_NAMES = {"system": N_("system"), "developer": N_("developer"), "user": N_("user"), "assistant": N_("assistant"),
              "tool": N_("tool")}


def injection_summary(result: ChatAnalysis) -> list[Message]:
    """One plain sentence per turn whose message types control tokens: which tokens, which turn, what they do.

    >>> from types import SimpleNamespace as NS
    >>> r = NS(injected=(Injection(1, "<|eot_id|>", 128009, 0, 10), Injection(1, "[INST]", 3, 20, 26),
    ...                  Injection(1, "<|eot_id|>", 128009, 30, 40)), roles=("system", "user"))
    >>> [str(m) for m in injection_summary(r)]  # doctest: +NORMALIZE_WHITESPACE
    ['Turn 2 (user) types the control tokens <|eot_id|>, [INST]. Here they stay text; a program that looks for
    control tokens anywhere in the prompt reads them as real ones, so this message could end its turn early and
    write a turn of its own: a prompt injection.']
    """
    by_turn: dict[int, list[str]] = {}
    for inj in result.injected:
        spelled = by_turn.setdefault(inj.turn, [])
        if inj.spelling not in spelled:
            spelled.append(inj.spelling)
    out = []
    for turn, spelled in sorted(by_turn.items()):
        role = result.roles[turn] if turn < len(result.roles) else ""
        out.append(Tn_("Turn {turn} ({role}) types the control token {tokens}. Here it stays text; a program that "
                       "looks for control tokens anywhere in the prompt reads it as a real one, so this message could "
                       "end its turn early and write a turn of its own: a prompt injection.",
                       "Turn {turn} ({role}) types the control tokens {tokens}. Here they stay text; a program that "
                       "looks for control tokens anywhere in the prompt reads them as real ones, so this message "
                       "could end its turn early and write a turn of its own: a prompt injection.",
                       len(spelled), turn=turn + 1, role=Message(ROLE_NAMES[role]) if role in ROLE_NAMES else role,
                       tokens=", ".join(spelled)))
    return out


__all__ = ["ANALYSIS_SECONDS", "ROLES", "ChatAnalysis", "ChatInputError", "ChatTemplateError", "ChatTimeoutError",
           "ChatTokens", "Injection", "TurnCount",
           "UploadedTemplate", "analyze_rendered", "chat_analysis", "get_template", "injection_summary",
           "load_template_tokenizer", "locate_contents", "missing_message", "parse_conversation", "parse_tools",
           "premium", "prompt_segments", "template_from_upload", "chat_ids"]
