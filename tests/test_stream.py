"""Streaming analyses: chunks cut where nothing changes, summaries equal to the whole, workers and Dask identical.

The chunk size is shrunk (monkeypatched) so a small file makes many chunks;
the figures must equal one encode of the whole text, and ``--workers 2`` /
a Dask ``LocalCluster`` must print byte-identical output.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, seed, settings
from hypothesis import strategies as st

from core.analysis import stream
from core.cli import main
from core.cli.common import Progress
from core.pretrained import zoo
from tests.helpers import examples

REPO = Path(__file__).resolve().parents[1]

LINES = [
    "বাজারঘরের অর্ডার আজ পৌঁছাবে। প্যাকেট খুলে দেখুন!",
    "  indented line with   spaces\t and a tab",
    "Your order from Bazarghar arrives today (3 items, ৳1,250).",
    "आपका सामान आज पहुँचेगा। क्षमा करें",
    "سفارش شما امروز می‌رسد.",
    "Buyurtmangiz bugun yetib keladi: oʻzbek tili",
    "",
    "emoji 👩‍👩‍👧 and e\u0301 and \u200dZWJ",
    "   ",
    "'s 't contractions DON'T 12345 67",
]


def corpus(n: int) -> str:
    return "".join(LINES[i % len(LINES)] + ("\r\n" if i % 7 == 3 else "\n") for i in range(n))


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stream, "iter_chunks", _small(stream.iter_chunks))


def _small(fn):
    def wrapped(path, **kw):
        kw.setdefault("chunk_bytes", 700)
        kw.setdefault("max_chunk_bytes", 64_000)
        return fn(path, **kw)

    return wrapped


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main([*argv]) == 0
    return json.loads(capsys.readouterr().out)


def test_chunks_are_the_file(tmp_path: Path) -> None:
    text = corpus(200)
    f = tmp_path / "c.txt"
    f.write_text(text, encoding="utf-8")
    for cut in ("line", "text"):
        chunks = list(stream.iter_chunks(str(f), cut=cut, chunk_bytes=500))
        assert len(chunks) > 10
        assert "".join(c.text for c in chunks) == text
        for c in chunks[1:]:
            assert c.text[0] != "\n" and text[c.char_start - 1] == "\n"
            if cut == "text":
                assert not c.text[0].isspace()
        assert [c.char_start for c in chunks] == [sum(len(x.text) for x in chunks[:i]) for i in range(len(chunks))]


def test_no_safe_cut_is_an_error(tmp_path: Path) -> None:
    f = tmp_path / "one.txt"
    f.write_text("a" * 5000, encoding="utf-8")
    with pytest.raises(stream.StreamError, match="no line break"):
        list(stream.iter_chunks(str(f), chunk_bytes=100, max_chunk_bytes=1000))
    f.write_bytes(b"ok\n" * 100 + b"\xff\n")
    with pytest.raises(stream.StreamError, match="byte 300"):
        list(stream.iter_chunks(str(f), chunk_bytes=64))


@pytest.mark.parametrize("tid", ["cl100k_base", "o200k_base", "llama3", "bytes", "codepoints", "words"])
def test_tokenize_summary_equals_whole_encode(tid: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              small_chunks: None) -> None:
    text = corpus(120)
    f = tmp_path / "c.txt"
    f.write_text(text, encoding="utf-8", newline="")
    tok = zoo.load(tid)
    enc = tok.encode(text)
    rep = enc.report
    got = run_json(capsys, "tokenize", "--tokenizer", tid, "--file", str(f), "--summary", "--json", "--workers", "1")
    assert got["tokens"] == len(enc.tokens)
    assert got["boundaries"] == {"total": rep.total, "inside_grapheme": rep.inside_grapheme,
                                 "inside_codepoint": rep.inside_codepoint}
    assert got["words"] == len(text.split()) and got["bytes"] == len(text.encode("utf-8"))
    assert round(100.0 * rep.bad_tokens / len(enc.tokens), 4) == got["bad_pct"]
    assert got["round_trip_ok"] is tok.round_trip_ok(text, enc) is True
    # JSON Lines: the same tokens as one whole encode, with offsets into the whole file.
    assert main(["tokenize", "--tokenizer", tid, "--file", str(f), "--jsonl", "--workers", "1"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert lines[-1]["summary"] == got
    toks = lines[:-1]
    assert [t["id"] for t in toks] == enc.ids
    assert [(t["byte_start"], t["byte_end"]) for t in toks] == [(t.byte_start, t.byte_end) for t in enc.tokens]
    assert [(t["start"], t["end"]) for t in toks] == [(t.start, t.end) for t in enc.tokens]


@seed(13)
@settings(max_examples=examples(0.6), derandomize=True)
@given(st.lists(st.sampled_from(LINES + ["\n", " x", "a\n\n b", "১২৩\n৪"]), min_size=2, max_size=12))
def test_cut_after_newline_before_text_keeps_tokens(parts: list[str]) -> None:
    """For the zoo's byte-level BPE tokenizers, ids of the whole == ids of the pieces at every safe cut."""
    text = "\n".join(parts)
    toks = [zoo.load(t) for t in ("cl100k_base", "o200k_base", "llama3")]
    cuts = [i for i in range(1, len(text)) if text[i - 1] == "\n" and not text[i].isspace()]
    for tok in toks:
        whole = tok.encode_ids(text)
        pieces: list[int] = []
        last = 0
        for c in cuts + [len(text)]:
            pieces += tok.encode_ids(text[last:c])
            last = c
        assert pieces == whole


def test_sentencepiece_is_not_cut(tmp_path: Path) -> None:
    tok = zoo.load("mistral-spm-v1")
    assert not stream.can_cut_text(tok)  # it adds a prefix space at the start of every text
    assert stream.can_cut_text(zoo.load("cl100k_base"))
    f = tmp_path / "c.txt"
    f.write_text(corpus(50), encoding="utf-8")
    with pytest.raises(stream.StreamError, match="cannot be cut"):
        list(stream.iter_chunks(str(f), cut="none", max_chunk_bytes=100))


def test_graphemes_summary_equals_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str], small_chunks: None) -> None:
    from core.text.units import graphemes

    text = corpus(90)
    f = tmp_path / "c.txt"
    f.write_text(text, encoding="utf-8", newline="")
    got = run_json(capsys, "graphemes", "--file", str(f), "--summary", "--json", "--workers", "1")
    clusters = graphemes(text)
    assert got["clusters"] == len(clusters) and got["codepoints"] == len(text)
    assert got["multi_codepoint_clusters"] == sum(1 for c in clusters if len(c.text) > 1)
    assert main(["graphemes", "--file", str(f), "--jsonl", "--workers", "1"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()][:-1]
    assert [(r["text"], r["start"], r["end"]) for r in rows] == [(c.text, c.start, c.end) for c in clusters]


def test_compare_evaluate_round_trip_equal_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 small_chunks: None) -> None:
    from core.analysis import evaluate as E
    from core.analysis import tax

    rows = [r for r in (REPO / "assets/parallel.tsv").read_text(encoding="utf-8").split("\n")]
    tsv = tmp_path / "p.tsv"
    tsv.write_text("\n".join(rows[:1] + rows[1:] * 3) + "\n", encoding="utf-8")
    got = run_json(capsys, "compare", "--tokenizers", "cl100k_base,bytes", "--parallel", str(tsv), "--json",
                   "--workers", "1")
    par = tax.parse_tsv(tsv.read_text(encoding="utf-8"))
    for tid in ("cl100k_base", "bytes"):
        res = tax.measure(zoo.load(tid), par)
        assert {k: v["tokens"] for k, v in got[tid]["languages"].items()} == {k: c.tokens for k, c in res.languages.items()}
        assert got[tid]["premium"] == {k: round(p, 4) for k, p in res.premium.items()}
    held = tmp_path / "h.txt"
    held.write_text(corpus(80), encoding="utf-8")
    sentences = [ln for ln in held.read_text(encoding="utf-8").splitlines() if ln.strip()]
    got = run_json(capsys, "evaluate", "--tokenizers", "o200k_base", "--heldout", str(held), "--json", "--workers", "1")
    whole = E.evaluate(zoo.load("o200k_base"), sentences).to_json()
    assert got["rows"][0] == whole and got["heldout"]["sentences"] == len(sentences)
    got = run_json(capsys, "round-trip", "--tokenizers", "cl100k_base", "--file", str(held), "--json", "--workers", "1")
    r = got["tokenizers"]["cl100k_base"]
    assert r["cases"] == len(sentences) and r["passed"] == r["cases"]


def _cli(*argv: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "core", *argv], capture_output=True, text=True, cwd=REPO, env=env,
                          stdin=subprocess.DEVNULL, timeout=300)


@pytest.fixture(scope="module")
def two_chunk_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Files a little over two real chunks (so workers really run), written once."""
    d = tmp_path_factory.mktemp("big")
    text = corpus(int(2.3 * stream.CHUNK_BYTES / 50))
    f = d / "c.txt"
    f.write_text(text, encoding="utf-8")
    rows = (REPO / "assets/parallel.tsv").read_text(encoding="utf-8").split("\n")
    body = [r for r in rows[1:] if r.strip()]
    tsv = d / "p.tsv"
    with open(tsv, "w", encoding="utf-8") as fh:
        fh.write(rows[0] + "\n")
        size = 0
        while size < 2.3 * stream.CHUNK_BYTES:
            for r in body:
                fh.write(r + "\n")
                size += len(r.encode("utf-8")) + 1
    return {"text": f, "tsv": tsv}


def test_workers_output_is_byte_identical(two_chunk_files: dict[str, Path]) -> None:
    f, tsv = str(two_chunk_files["text"]), str(two_chunk_files["tsv"])
    for argv in (("tokenize", "--tokenizer", "cl100k_base", "--file", f, "--summary", "--json"),
                 ("compare", "--tokenizers", "cl100k_base,o200k_base", "--parallel", tsv, "--json")):
        one, two = _cli(*argv, "--workers", "1"), _cli(*argv, "--workers", "2")
        assert one.returncode == 0 and two.returncode == 0, (one.stderr, two.stderr)
        assert one.stdout == two.stdout and one.stdout.strip()
        assert one.stderr == two.stderr == ""  # no progress bar when stderr is not a terminal


def test_dask_local_cluster_is_identical(two_chunk_files: dict[str, Path]) -> None:
    distributed = pytest.importorskip("distributed")
    tsv = str(two_chunk_files["tsv"])
    argv = ("compare", "--tokenizers", "cl100k_base", "--parallel", tsv, "--json")
    local = _cli(*argv, "--workers", "1")
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = str(REPO)  # the cluster's worker processes import core
    try:
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl:
            remote = _cli(*argv, "--scheduler", cl.scheduler_address)
    finally:
        if old is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old
    assert remote.returncode == 0, remote.stderr
    assert remote.stdout == local.stdout


def test_every_streaming_command_is_byte_identical_on_a_dask_scheduler(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                      capsys: pytest.CaptureFixture[str],
                                                                      small_chunks: None) -> None:
    """Each command that takes ``--scheduler`` (tokenize and graphemes --summary/--jsonl, compare, evaluate
    --heldout/--corpus, round-trip --file, report) prints the same bytes, and writes the same report, as with
    ``--workers 1``. Chunks are shrunk so a small file makes many, and the cluster runs in this process (threads:
    quick to start; ``test_dask_local_cluster_is_identical`` runs ``compare`` on worker processes)."""
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(stream, "CHUNK_BYTES", 700)  # stream_setup: a file over one chunk goes to the scheduler
    sent: list[int] = []
    from core.analysis import dask_run

    real = dask_run.run_dask

    def counted(fn, task, chunks, address, **kw):
        for item in real(fn, task, chunks, address, **kw):
            sent.append(1)
            yield item

    monkeypatch.setattr(stream, "run_dask", counted)
    f = tmp_path / "c.txt"
    f.write_text(corpus(120), encoding="utf-8", newline="")
    rows = (REPO / "assets/parallel.tsv").read_text(encoding="utf-8").split("\n")
    tsv = tmp_path / "p.tsv"
    tsv.write_text("\n".join(rows[:1] + [r for r in rows[1:] if r.strip()] * 2) + "\n", encoding="utf-8")
    unique = tmp_path / "u.txt"  # evaluate --corpus refuses a corpus whose held-out lines all occur in training
    unique.write_text("".join(f"{LINES[i % len(LINES)]} {i}\n\n" for i in range(120)), encoding="utf-8")
    commands = [
        ("tokenize", "--tokenizer", "cl100k_base", "--file", str(f), "--summary", "--json"),
        ("tokenize", "--tokenizer", "o200k_base", "--file", str(f), "--jsonl"),
        ("graphemes", "--file", str(f), "--summary", "--json"),
        ("graphemes", "--file", str(f), "--jsonl"),
        ("compare", "--tokenizers", "cl100k_base,bytes", "--parallel", str(tsv), "--json"),
        ("evaluate", "--tokenizers", "o200k_base", "--heldout", str(f), "--json"),
        ("evaluate", "--tokenizers", "cl100k_base", "--corpus", str(unique), "--json"),
        ("round-trip", "--tokenizers", "cl100k_base", "--file", str(f), "--json"),
        ("report", "--tokenizers", "cl100k_base", "--file", str(f), "--out", "{out}"),
    ]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cl:
        for argv in commands:
            outputs = []
            for way in (("--workers", "1"), ("--scheduler", cl.scheduler_address)):
                out = tmp_path / f"r{len(outputs)}.html"
                before = len(sent)
                assert main([a.replace("{out}", str(out)) for a in argv] + list(way)) == 0, argv
                printed = capsys.readouterr().out.replace(str(out), "OUT").replace(str(out.with_suffix(".md")), "OUT.md")
                files = [p.read_bytes() for p in (out, out.with_suffix(".md")) if p.exists()]
                outputs.append((printed, files))
                assert (len(sent) > before) == (way[0] == "--scheduler"), argv  # the chunks went to Dask
            assert outputs[0] == outputs[1], argv
            assert outputs[0][0].strip(), argv


def test_unreachable_scheduler_is_one_line(two_chunk_files: dict[str, Path]) -> None:
    p = _cli("compare", "--tokenizers", "bytes", "--parallel", str(two_chunk_files["tsv"]),
             "--scheduler", "tcp://127.0.0.1:9")
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "Dask scheduler" in p.stderr


class _Tty:
    def __init__(self, tty: bool) -> None:
        self.tty, self.out = tty, []

    def isatty(self) -> bool:
        return self.tty

    def write(self, s: str) -> None:
        self.out.append(s)

    def flush(self) -> None:
        pass


def test_progress_only_on_a_terminal() -> None:
    quiet, loud = _Tty(False), _Tty(True)
    for s in (quiet, loud):
        p = Progress(10_000_000, "x", stream=s)
        p.update(5_000_000)
        p.update(10_000_000)
        p.close()
    assert quiet.out == []
    text = "".join(loud.out)
    assert "10.0/10.0 MB" in text and "MB/s" in text and "left" in text and text.endswith("\n")


def test_report_figures_cover_the_whole_file(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             small_chunks: None) -> None:
    import hashlib
    import html

    from core.analysis.report import build_report

    text = corpus(150)
    f = tmp_path / "c.txt"
    f.write_text(text, encoding="utf-8", newline="")
    toks = [zoo.load("cl100k_base"), zoo.load("llama3")]
    got = run_json(capsys, "report", "--tokenizers", "cl100k_base,llama3", "--file", str(f), "--out",
                   str(tmp_path / "r.html"), "--workers", "1")
    whole = build_report(text, toks, label="c.txt").to_json()
    assert got["chars"] == len(text) and got["words"] == whole["words"] and got["bytes"] == whole["bytes"]
    assert got["sha256"] == hashlib.sha256(text.encode("utf-8")).hexdigest()
    # the field's measures are taken on the report's first part, so a report of a longer file leaves them out
    measured = {"single_token_words", "continued_words", "single_token_words_space", "continued_words_space",
                "pretokenizer_pieces", "optimal_tokens", "renyi_efficiency"}
    assert measured <= set(whole["tokenizers"][0]) and not measured & set(got["tokenizers"][0])
    strip = lambda rows: [{k: v for k, v in r.items() if k != "round_trip_detail" and k not in measured} for r in rows]
    assert strip(got["tokenizers"]) == strip(whole["tokenizers"])
    assert "whole file" in got["sample_note"] and "measures" in got["sample_note"]  # the chips and details come from the first chunk, and it says so
    assert got["sample_note"] in html.unescape((tmp_path / "r.html").read_text(encoding="utf-8"))


def test_round_trip_lines_equals_the_suite_and_explains_only_the_kept_failures() -> None:
    """The ids-only path the streamed round-trip uses gives the suite's verdicts; only ``keep`` failures get a diff."""
    from core.analysis import roundtrip as RT

    cases = [(f"line {i}", text) for i, (_, text) in enumerate(RT.HARD_CASES)] * 3
    for tid in ("cl100k_base", "bert-bge", "mistral-spm-v1", "codepoints"):
        tok = zoo.load(tid)
        suite = RT.round_trip_suite(tok, cases)
        passed, failed = RT.round_trip_lines(tok, cases, keep=4)
        assert passed == sum(r.ok for r in suite), tid
        assert failed == [r for r in suite if not r.ok][:4], tid
    assert RT.round_trip_lines(zoo.load("bert-bge"), cases, keep=0)[1] == []
