# mobadj: every target sets up its own virtual environment first.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench clean setup screenshots secrecy

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,render]'
	touch $(STAMP)

setup: $(STAMP)

demo: $(STAMP)
	$(BIN)/mobadj adjudicate --map standard orders/standard/position-s1901.yaml orders/standard/s1901.txt
	mkdir -p build
	$(BIN)/mobadj adjudicate --map mobtown2 orders/mobtown2/position-1919-07-W1-M.yaml orders/mobtown2/opening.txt --picture build/mobtown-demo.svg
	@echo "Mobtown II picture of the new position: build/mobtown-demo.svg"

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -n 2 -q

# The card games' secrecy tests at full size: 200 random games per game at the terminal
# (as in make test) and by mail (make test plays 50); MAIL_GAMES=N to change it.
MAIL_GAMES ?= 200
secrecy: $(STAMP)
	MAIL_GAMES=$(MAIL_GAMES) $(BIN)/python -m pytest -n 2 -q tests/cards/test_mail_secrecy.py tests/cards/test_terminal_secrecy.py

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

# The batch is measured against the diplomacy package, installed only in its own virtualenv.
# Start-up is measured as installed code runs, compiled once (even where
# PYTHONDONTWRITEBYTECODE is set).
bench: $(STAMP)
	$(BIN)/python -m compileall -q mobadj
	test -x $(ORACLE)/bin/python || ($(PY) -m venv $(ORACLE) && $(ORACLE)/bin/pip install --quiet diplomacy==1.1.2)
	$(BIN)/python -m bench --oracle-python $(ORACLE)/bin/python
	$(BIN)/python bench/parser_bench.py --write
	$(BIN)/python bench/render_bench.py --write
	$(BIN)/python bench/cards_bench.py --write
	$(BIN)/python bench/judge_bench.py --write
	$(BIN)/python bench/web_bench.py --write

# The game pages' screenshots in docs/img, taken by the browser tests (Chromium).
screenshots: $(STAMP)
	MOBADJ_SCREENSHOTS=docs/img $(BIN)/python -m pytest -q tests/web/test_browser.py

clean:
	rm -rf $(VENV) build *.egg-info

# Cross-check against an independent adjudicator (docs/crosscheck.md); not part of `make test`.
ORACLE ?= /tmp/oracle-venv
.PHONY: crosscheck
crosscheck: $(STAMP)
	test -x $(ORACLE)/bin/python || ($(PY) -m venv $(ORACLE) && $(ORACLE)/bin/pip install --quiet diplomacy==1.1.2)
	$(BIN)/python -m tools.crosscheck.run --seed 1 --count 2000 --oracle-python $(ORACLE)/bin/python
