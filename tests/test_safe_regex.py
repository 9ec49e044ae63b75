"""User regexes: counted repeats that multiply when the ``regex`` module compiles them are refused before it does.

``(?:(?:(?:a{100}){100}){100}){100}`` made the ``regex`` module grow to gigabytes while compiling (issue 37);
:func:`core.text.safe_regex.compile_user_regex` reads the pattern first and refuses it in microseconds. Every
user-pattern entry point goes through it: the pre-tokenizer patterns, the vocabulary search, ``.tiktoken`` split
patterns, the word inspector's pattern reader.
"""
from __future__ import annotations

import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st

from core.text.safe_regex import MAX_REGEX_DEPTH, MAX_REGEX_SIZE, RegexTooLargeError, check_user_regex, compile_user_regex, regex_size

BOMBS = ["(?:(?:(?:a{100}){100}){100}){100}", "(?:(?:a{100}){100}){1000}", "a{1000000}", "[ab]{200000}",
         "(a){1000000}", "(?:a{1000,}){1000}", "(?x)(?:(?:a {100}) {100}) {100}", "(?P<n>(?:b{400}){400})",
         "(?i:(?:\\w{1000}){1000})", "(?#{{x)(?:(?:a{100}){100}){100}", "(" * 1000 + "a" + ")" * 1000]


@pytest.fixture()
def no_compile(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """``regex.compile`` replaced by a recorder that refuses: a refusal "at once" is one made before compiling."""
    calls: list[str] = []

    def refuse(pattern: str, *args: object, **kwargs: object) -> None:
        calls.append(pattern)
        raise AssertionError(f"regex.compile reached with {pattern[:40]!r}")

    monkeypatch.setattr(regex, "compile", refuse)
    return calls


@pytest.mark.parametrize("pattern", BOMBS)
def test_a_compile_bomb_is_refused_at_once(pattern: str, no_compile: list[str]) -> None:
    """Refused from reading the pattern alone: the ``regex`` compiler never sees it (bench/limits.py times it)."""
    with pytest.raises(RegexTooLargeError, match="too large to compile"):
        compile_user_regex(pattern)
    assert no_compile == []


def test_the_bundled_and_zoo_split_patterns_pass() -> None:
    from core.pipeline.pretokenize import PATTERNS
    from core.pretrained.catalog import TIKTOKEN_PATTERNS

    pats = [p.regex for p in PATTERNS.values() if p.regex] + list(TIKTOKEN_PATTERNS.values())
    assert len(pats) >= 6
    for p in pats:
        assert compile_user_regex(p).pattern == p


@given(st.lists(st.integers(min_value=2, max_value=400), min_size=1, max_size=6), st.sampled_from(["a", "\\w", "[xy]",
                                                                                                   "(?:ab)", "\\p{L}"]))
def test_nested_counted_repeats_are_refused_exactly_when_they_multiply_past_the_limit(counts: list[int],
                                                                                     atom: str) -> None:
    """Nest ``atom`` in counted repeats: refused (fast) when the counts multiply past the limit, compiled otherwise."""
    pattern = atom
    for n in counts:
        pattern = f"(?:{pattern}){{{n}}}"
    product = 1
    for n in counts:
        product *= n
    width = 2 if atom == "(?:ab)" else 1
    if product * width > MAX_REGEX_SIZE:
        with pytest.raises(RegexTooLargeError):
            check_user_regex(pattern)  # the reading alone refuses it, before any compiling
    else:
        assert regex_size(pattern)[0] == product * width
        compiled = compile_user_regex(pattern)
        assert compiled.fullmatch("ab" * product if width == 2 else ("x" if atom == "[xy]" else "a") * product)


@given(st.text(alphabet="ab()[]{}|*+?\\:,0123456789^$.-<>=!P#x ", max_size=60))
def test_any_text_is_read_or_refused_and_a_read_pattern_is_not_too_big(pattern: str) -> None:
    """Whatever the text, the reading ends; what it lets through compiles (or is a plain syntax error)."""
    try:
        compiled = compile_user_regex(pattern)
    except RegexTooLargeError:
        return
    except (regex.error, ValueError, TypeError, IndexError):  # the regex module's own refusals of a bad pattern
        return
    assert compiled is not None


def test_depth_is_bounded_before_the_compiler_recurses() -> None:
    ok = "(" * MAX_REGEX_DEPTH + "a" + ")" * MAX_REGEX_DEPTH
    assert compile_user_regex(ok).match("a")
    with pytest.raises(RegexTooLargeError, match="nest"):
        compile_user_regex("(" + ok + ")")


def test_every_user_pattern_entry_point_refuses_a_bomb() -> None:
    from core.pipeline.pattern import regex_pieces
    from core.pipeline.pretokenize import resolve_pattern
    from core.pretrained.catalog import ZooError
    from core.pretrained.tiktoken_adapter import _ranks_options
    from core.text.limits import LimitError

    bomb = BOMBS[0]
    with pytest.raises(LimitError, match="too large"):
        resolve_pattern(bomb)
    with pytest.raises(LimitError, match="too large"):
        regex_pieces("aaa", bomb)
    with pytest.raises(ZooError, match="too large"):
        _ranks_options("user.tiktoken", b"", bomb)


def test_the_vocabulary_search_refuses_a_bomb(monkeypatch: pytest.MonkeyPatch) -> None:
    from core.analysis import vocab as V
    from core.pretrained import zoo
    from core.text.limits import LimitError

    tok = zoo.load("bytes")
    compiled: list[str] = []
    real = regex.compile
    monkeypatch.setattr(regex, "compile", lambda p, *a, **k: compiled.append(p) or real(p, *a, **k))
    with pytest.raises(LimitError, match="too large to compile"):
        V.search(tok, BOMBS[0], "regex")
    assert BOMBS[0] not in compiled  # refused before the compiler saw it
    assert V.search(tok, "^a$", "regex").ids  # a sane one still runs


def test_regex_pieces_stops_a_backtracking_pattern() -> None:
    """The word inspector's pattern reader ran a user pattern with no time limit (issue 37): now 2 s."""
    from core.pipeline.pattern import regex_pieces
    from core.text.limits import LimitError

    with pytest.raises(LimitError, match=r"took more than 2 s"):
        regex_pieces("a" * 60 + "b", r"(a|aa)+$|\w+")
    assert [p.text for p in regex_pieces("ab cd", r"\w+|\s+")] == ["ab", " ", "cd"]


@pytest.mark.parametrize("pattern", ["a{1,2", "(?P<n>a)(?P<n>b)", "(?<=a+)b"])
def test_a_tiktoken_pattern_that_drops_ordinary_text_is_refused(pattern: str) -> None:
    """tiktoken drops text its pattern does not match: these turned "hello" into 0 tokens, silently (issue 37)."""
    from core.pretrained.catalog import ZooError
    from core.pretrained.tiktoken_adapter import _ranks_options

    with pytest.raises(ZooError, match="matches nothing in ordinary text"):
        _ranks_options("user.tiktoken", b"", pattern)
    _ranks_options("user.tiktoken", b"", r"\w+|\s+")
