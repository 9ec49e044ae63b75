"""The chat template sandbox: transformers' names and filters, and the limits an untrusted template meets."""
from __future__ import annotations

import pytest

from core.i18n import localize, translator
from core.pretrained.chat_render import CHILD_MEMORY_MB, MAX_OUTPUT_CHARS, MAX_TEMPLATE_BYTES, ChatTemplateError, render, render_untrusted

USER = [{"role": "user", "content": "বাজার"}]


def test_names_and_filters_transformers_gives_templates():
    src = ("{{ bos_token }}{% for m in messages %}{{ m.role }}:{{ m.content | tojson }}{% endfor %}"
           "{{ {'b': 1, 'a': [1, 2]} | tojson(sort_keys=True, separators=(',', ':')) }}"
           "{% set ns = namespace(n=0) %}{% for i in range(5) %}{% if i == 3 %}{% break %}{% endif %}"
           "{% set ns.n = ns.n + i %}{% endfor %}{{ ns.n }}{{ dict(x=1).x }}{{ dict.fromkeys(['k'], 2).k }}"
           "{% generation %}G{% endgeneration %}{{ strftime_now('%Y')|length }}")
    out = render(src, USER, bos_token="<s>")
    # tojson keeps Bangla as it is (Jinja's own tojson would escape for HTML); loop controls, namespace, dict work
    assert out == '<s>user:"বাজার"{"a":[1,2],"b":1}312G4'


def test_raise_exception_shows_the_templates_own_message():
    with pytest.raises(ChatTemplateError, match="refused this conversation: System role not supported"):
        render("{{ raise_exception('System role not supported') }}", USER)


@pytest.mark.parametrize("src", [
    "{{ ''.__class__.__mro__ }}",
    "{{ messages.__class__.__base__ }}",
    "{{ cycler.__init__.__globals__ }}",
    "{% set ns = namespace() %}{% set ns._x = 1 %}",
    "{{ messages.append(1) }}",  # immutable sandbox: no mutating the caller's lists
])
def test_sandbox_refuses_reaching_python(src):
    with pytest.raises(ChatTemplateError):
        render(src, USER)


def test_an_unsafe_attribute_alone_renders_nothing():
    assert render("[{{ messages.__class__ }}]", USER) == "[]"


@pytest.mark.parametrize("src", [
    "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
    # a loop over a plain string: nothing in the body calls, looks up or outputs anything, so only the loop's own
    # guard sees the clock
    "{% set s = 'x' * 50000 %}{% for a in s %}{% for b in s %}{% endfor %}{% endfor %}",
], ids=["range", "plain-string"])
def test_a_runaway_loop_is_stopped_by_the_time_limit(src):
    # the message names the limit that stopped it (how fast that happens is timed in bench/limits.py, not here)
    with pytest.raises(ChatTemplateError, match="longer than 0.3 s"):
        render(src, USER, seconds=0.3)


def test_guarded_loops_keep_length_last_and_recursion():
    src = ("{% for m in messages %}{{ loop.index }}/{{ loop.length }}{% if loop.last %}!{% endif %}{% endfor %}"
           "{% for x in 'ab' %}{{ loop.revindex }}{{ loop.previtem or '-' }}{{ loop.nextitem or '-' }}{% endfor %}"
           "{% for n in [[1, [2]], 3] recursive %}{% if n is iterable %}({{ loop(n) }}){% else %}{{ n }}{% endif %}"
           "{% endfor %}")
    assert render(src, USER * 2) == "1/22/2!2-b1a-(1(2))3"


@pytest.mark.parametrize("src", [
    "{{ 'a' * 100000000 }}",
    "{% for i in range(100000) %}{{ 'x' * 100 }}{% endfor %}",
    "{{ 10 ** 100000 }}",
    "{% set ns = namespace(s='ab') %}{% for i in range(40) %}{% set ns.s = ns.s + ns.s %}{% endfor %}",
])
def test_output_and_intermediate_sizes_are_limited(src):
    with pytest.raises(ChatTemplateError, match="more than|characters"):
        render(src, USER)
    assert MAX_OUTPUT_CHARS >= 1_000_000


def test_syntax_errors_and_size():
    with pytest.raises(ChatTemplateError, match="does not compile.*line 1"):
        render("{% for m in messages %}", USER)
    with pytest.raises(ChatTemplateError, match="larger than"):
        render("x" * (MAX_TEMPLATE_BYTES + 1), USER)


def test_a_template_that_fails_says_why():
    with pytest.raises(ChatTemplateError, match="failed: ZeroDivisionError"):
        render("{{ 1 / 0 }}", USER)
    with pytest.raises(ChatTemplateError, match="recursed|failed"):
        render("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}", USER)


TEMPLATES_BOTH_WAYS = [
    "{{ bos_token }}{% for m in messages %}<|{{ m.role }}|>{{ m.content | trim }}<|end|>{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}{{ tools | tojson }}",
    "{% for m in messages %}{{ raise_exception('only ' ~ m.role ~ ' here') }}{% endfor %}",
    "{% for m in messages %}{{ m.content }",
    "{{ 1 / 0 }}",
]


@pytest.mark.parametrize("src", TEMPLATES_BOTH_WAYS)
def test_an_uploaded_template_renders_and_fails_as_in_process(src):
    """The child process gives the same prompt, or the same error in every language, as the in-process render."""
    kwargs = {"tools": [{"type": "function", "function": {"name": "বাজার"}}], "add_generation_prompt": True,
              "bos_token": "<s>"}
    try:
        expected: str | ChatTemplateError = render(src, USER, **kwargs)
    except ChatTemplateError as exc:
        expected = exc
    if isinstance(expected, str):
        assert render_untrusted(src, USER, **kwargs) == expected
        return
    with pytest.raises(ChatTemplateError) as got:
        render_untrusted(src, USER, **kwargs)
    for lang in ("en", "bn", "fa"):
        assert localize(got.value, translator(lang)) == localize(expected, translator(lang))


@pytest.mark.parametrize(("src", "match"), [
    # a filter asks for 8 GB at once: the child's address-space limit refuses it
    ("{{ 'x' | center(8000000000) }}", f"more than {CHILD_MEMORY_MB:,} MB"),
    # a list nested in itself 60 times is small, its text is 2**60 items: the CPU limit or the clock ends it
    ("{% set a = ['xy'] %}" + "{% set a = [a, a] %}" * 60 + "{{ a }}", "longer than"),
    # so is comparing two such lists, which Python does item by item
    ("{% set a = ['x'] %}{% set b = ['x'] %}" + "{% set a = [a, a] %}{% set b = [b, b] %}" * 60 + "{{ a == b }}",
     "longer than"),
])
def test_an_uploaded_template_cannot_exhaust_this_process(src, match):
    with pytest.raises(ChatTemplateError, match=match):
        render_untrusted(src, USER, seconds=1.0)
