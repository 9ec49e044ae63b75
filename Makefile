# Developer shortcuts. Each target is one command you can also type by hand;
# `.ci/run` runs the README's test command (lint, then the full suite), not make.
PYTHON ?= python
# make bench BASELINE=REV: also time paste-and-see at an earlier commit (see bench/app_speed.py)
BASELINE ?=

.PHONY: setup test-fast test lint bench app

setup:  ## install the pinned requirements and fetch the checkpoint shelf once
	$(PYTHON) -m pip install -r requirements.txt
	$(PYTHON) -m core zoo install

test-fast:  ## the quick tier: no browser, no AppTest, nothing marked slow
	$(PYTHON) -m pytest -q -n 2 --dist loadgroup -m "not browser and not apptest and not slow"

test: lint  ## what CI runs after installing: lint, then the full suite
	$(PYTHON) -m pytest -q -n 3 --dist loadgroup

lint:  ## ruff, mypy (core/) and the translation catalogs
	$(PYTHON) -m ruff check .
	$(PYTHON) -m mypy
	$(PYTHON) -m core.i18n check

bench:  ## server-side page times, then adapter overhead against the libraries
	$(PYTHON) bench/app_speed.py $(if $(BASELINE),--baseline $(BASELINE))
	$(PYTHON) bench/compare.py

app:  ## the app on http://localhost:8501
	$(PYTHON) -m streamlit run app.py
