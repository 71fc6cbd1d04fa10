# Two entry points for a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test test-slow bench install clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

# The main job: the statistics report of every game (under 5 minutes on 2 cores).
demo: $(STAMP)
	$(BIN)/bidlab report --out report
	@echo "the report is in $(CURDIR)/report: open report.html in a browser (or read report.md)"

test: $(STAMP)
	-@sh tests/install_chromium.sh
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q -n auto --dist loadfile

test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -m slow

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache
