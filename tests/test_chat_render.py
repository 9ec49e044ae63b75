"""The chat template sandbox: transformers' names and filters, and the limits an untrusted template meets."""
from __future__ import annotations

import time

import pytest

from core.pretrained.chat_render import MAX_OUTPUT_CHARS, MAX_TEMPLATE_BYTES, ChatTemplateError, render

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


def test_a_runaway_loop_is_stopped_by_the_time_limit():
    src = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"
    t0 = time.monotonic()
    with pytest.raises(ChatTemplateError, match="longer than 0.3 s"):
        render(src, USER, seconds=0.3)
    assert time.monotonic() - t0 < 5


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
