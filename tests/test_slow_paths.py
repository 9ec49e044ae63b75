"""Issue 37's slow paths end with a result and say what they did: ``evaluate --heldout`` on a big file reads an
even spread of whole chunks unless ``--all`` is given, and says so; ``differences`` on a long text keeps its
JSON equal to a cut-by-cut computation written here.

How long they take is measured by ``bench/hostile_slow.py``, not here.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.analysis import stream
from core.cli import main, training
from core.text.disagree import disagreement
from core.text.units import char_byte_offsets


def fake_chunks(n: int, size: int) -> list[stream.Chunk]:
    step = size // n
    return [stream.Chunk(i, i * step, 0, 0, "x" * step) for i in range(n)]


def test_a_file_within_the_budget_is_read_whole() -> None:
    chunks = fake_chunks(5, 5_000)
    assert list(training.spread_chunks(iter(chunks), 5_000, 5_000)) == chunks


def test_a_bigger_file_gives_whole_chunks_spread_from_its_start_to_its_end() -> None:
    size = 50 * stream.CHUNK_BYTES
    chunks = fake_chunks(50, size)
    kept = list(training.spread_chunks(iter(chunks), size, 4 * stream.CHUNK_BYTES))
    assert [c.index for c in kept] == [0, 13, 25, 38]  # targets 0, 12.5, 25, 37.5 MB: the first chunk at or after each


def _lines_file(path: Path, n_lines: int) -> Path:
    line = "ঘরেই কি a b c " * 40  # about 600 bytes of mixed script per line
    path.write_text("".join(f"{i} {line}\n" for i in range(n_lines)), encoding="utf-8")
    return path


def test_evaluate_reads_a_spread_of_a_big_file_and_says_so(tmp_path, monkeypatch, capsys) -> None:
    path = _lines_file(tmp_path / "held.txt", 4_000)  # about 2.5 MB
    size = path.stat().st_size
    monkeypatch.setattr(training, "EVAL_SAMPLE_BYTES", stream.CHUNK_BYTES)  # one chunk of it
    assert main(["evaluate", "--tokenizers", "cl100k_base", "--heldout", str(path), "--workers", "1", "--json"]) == 0
    captured = capsys.readouterr()
    held = json.loads(captured.out)["heldout"]
    assert held["complete"] is False and held["file_bytes"] == size
    assert 0 < held["bytes_read"] <= stream.CHUNK_BYTES < size
    assert 0 < held["sentences"] < 4_000
    assert f"{held['bytes_read']:,} of the file's {size:,} bytes" in captured.err and "--all" in captured.err


def test_evaluate_all_reads_every_line(tmp_path, monkeypatch, capsys) -> None:
    path = _lines_file(tmp_path / "held.txt", 500)  # about 300 KB, over the budget set here
    monkeypatch.setattr(training, "EVAL_SAMPLE_BYTES", stream.CHUNK_BYTES // 8)
    assert main(["evaluate", "--tokenizers", "cl100k_base", "--heldout", str(path), "--workers", "1", "--all",
                 "--json"]) == 0
    captured = capsys.readouterr()
    held = json.loads(captured.out)["heldout"]
    assert path.stat().st_size > training.EVAL_SAMPLE_BYTES
    assert held["complete"] is True and held["sentences"] == 500 and held["bytes_read"] == path.stat().st_size
    assert "--all" not in captured.err


@pytest.mark.parametrize("n_lines", [3, 5_000])
def test_differences_json_equals_the_cuts_counted_one_by_one(n_lines: int) -> None:
    text = "".join(("ঘরেই a\n", "to x1\n", "কি 😀\n")[i % 3] for i in range(n_lines))
    data = text.encode("utf-8")
    offsets = char_byte_offsets(text)
    owner = {b: i for i in range(len(text)) for b in range(offsets[i], offsets[i + 1])}

    def spans(step: int) -> list[tuple[int, int]]:  # cut every `step` bytes: inside characters too
        return [(i, min(i + step, len(data))) for i in range(0, len(data), step)]

    segs = [("two", spans(2)), ("three", spans(3)), ("five", spans(5))]
    got = disagreement(text, segs).to_json()
    cuts = [{(owner[b], b - offsets[owner[b]]) for s in sp for b in s if 0 < b < len(data)} for _, sp in segs]
    every = set.intersection(*cuts)
    differing = sorted(set.union(*cuts) - every)
    assert got["common"] == len(every) and got["differing"] == [list(c) for c in differing]
    for row, mine in zip(got["rows"], cuts):
        assert row["cuts"] == len(mine)
        assert row["not_shared"] == [list(c) for c in sorted(mine - every)]
        assert row["missed"] == [list(c) for c in sorted(set(differing) - mine)]
