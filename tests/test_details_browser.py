"""What the pages tell a reader, seen in a real browser at 1440x900 (each view is also saved as a screenshot)."""
from __future__ import annotations

import pytest

DESKTOP = {"width": 1440, "height": 900}


@pytest.fixture
def desk(app):
    app.page.set_viewport_size(DESKTOP)
    return app


def test_home_summary_table_and_legend(desk):
    desk.open("", "tok=codepoints,bytes,words")
    assert desk.page.locator('[data-testid="stDataFrame"]').count() == 1
    assert desk.page.get_by_text("bad%: share of tokens").count() == 1
    desk.screenshot("details-home-summary", full_page=False)


def test_pretokenizers_count_the_zwnj_cut(desk):
    desk.open("pretokenizers", "text=%D9%85%DB%8C%E2%80%8C%D8%AE%D9%88%D8%A7%D9%87%D9%85&patterns=gpt2,whitespace")
    row = desk.page.locator('[data-testid="pt-summary"] tr', has_text="gpt2").first.inner_text()
    assert "\t1\t" in row, row
    assert desk.page.locator('.st-key-pt_example input[value="Your own text"]').count() == 1
    desk.screenshot("details-pretokenizers-zwnj", full_page=False)


def test_wordpiece_sign_after_the_hashes(desk):
    desk.open("wordpiece", "vocab=typed&text=%E0%A6%98%E0%A6%B0%E0%A7%87%E0%A6%B0")
    assert desk.page.get_by_text("##◌ের").count() >= 1
    desk.screenshot("details-wordpiece-hash", full_page=False)


def test_replay_ascii_merge_as_text(desk):
    desk.open("replay", "tok=cl100k_base&text=zbek")
    line = desk.page.locator('[data-testid="stMarkdownContainer"]', has_text="joins").first.inner_text()
    assert "7A" not in line and "→" in line, line
    desk.screenshot("details-replay-ascii", full_page=False)
