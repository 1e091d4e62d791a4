# mobadj: every target sets up its own virtual environment first.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench peers clean setup screenshots secrecy compiled pure test-compiled compiled-suite

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

# The suite runs twice: on the pure Python package, then (but for the card games and the
# other tests marked pure_only, which run none of it, or only what the tests left run as
# well: the judge's mail plumbing) with the compiled build's modules compiled; the tree is
# left pure.  The compiled build is made while lint and the pure run go on (compiling keeps
# one core busy for about a minute, and the pure run leaves a core idle a third of its
# time), into build/compiled, outside the package, and is put in place only for the
# compiled run.
test: $(STAMP) pure
	mkdir -p build
	(MOBADJ_COMPILE=1 $(BIN)/python setup.py --quiet build_ext --build-lib build/compiled \
	  >build/compile.log 2>&1; echo $$? >build/compile.status) & \
	$(BIN)/ruff check . && $(BIN)/mypy && MOBADJ_BUILD=pure $(BIN)/python -m pytest -n 2 -q; \
	  status=$$?; wait; exit $$status
	test "$$(cat build/compile.status)" = 0 || (cat build/compile.log; exit 1)
	cp -R build/compiled/mobadj/. mobadj/
	@echo "compiled: $$($(BIN)/mobadj --version)"
	$(MAKE) --no-print-directory compiled-suite

test-compiled: compiled
	$(MAKE) --no-print-directory compiled-suite

# The suite on the compiled modules in place (made by `make compiled` or by `make test`).
compiled-suite:
	MOBADJ_BUILD=compiled $(BIN)/python -m pytest -n 2 -q --ignore=tests/cards -m "not pure_only"; \
	  status=$$?; $(MAKE) --no-print-directory pure; exit $$status

# The optional compiled build (setup.py, docs/performance.md): the modules listed under
# [tool.mobadj] in pyproject.toml become C extensions, in place; `make pure` removes them.
compiled: $(STAMP) pure
	mkdir -p build
	MOBADJ_COMPILE=1 $(BIN)/python setup.py --quiet build_ext --inplace >build/compile.log 2>&1 \
	  || (cat build/compile.log; exit 1)
	@echo "compiled: $$($(BIN)/mobadj --version)"

pure:
	find mobadj -name '*.so' -delete
	rm -rf build/lib build/lib.* build/temp.* build/bdist.* build/mypyc build/compiled build/compile.status

# The card games' secrecy tests at full size: 200 random games per game at the terminal
# (as in make test) and by mail (make test plays 50); MAIL_GAMES=N to change it.
MAIL_GAMES ?= 200
secrecy: $(STAMP)
	MAIL_GAMES=$(MAIL_GAMES) $(BIN)/python -m pytest -n 2 -q tests/cards/test_mail_secrecy.py tests/cards/test_terminal_secrecy.py

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

# The batch is measured against the diplomacy package, installed only in its own virtualenv,
# as pure Python and as the compiled build (made in a copy: the tree is left pure); and against
# godip and dipcc, built by `make peers` (bench/peers/README.md) or given as GODIP / DIPCC commands (bench/versus.py).
# Start-up is measured as installed code runs, compiled once (even where
# PYTHONDONTWRITEBYTECODE is set).
bench: $(STAMP) pure peers
	$(BIN)/python -m compileall -q mobadj
	test -x $(ORACLE)/bin/python || ($(PY) -m venv $(ORACLE) && $(ORACLE)/bin/pip install --quiet diplomacy==1.1.2)
	$(BIN)/python -m bench --oracle-python $(ORACLE)/bin/python \
	  $(if $(GODIP),--godip "$(GODIP)",$$(test -x build/peers/mobadj-godip && echo --godip build/peers/mobadj-godip)) \
	  $(if $(DIPCC),--dipcc "$(DIPCC)",$$(test -x build/peers/mobadj-dipcc && echo --dipcc build/peers/mobadj-dipcc))
	$(BIN)/python bench/parser_bench.py --write
	$(BIN)/python bench/render_bench.py --write
	$(BIN)/python bench/cards_bench.py --write
	$(BIN)/python bench/judge_bench.py --write
	$(BIN)/python bench/web_bench.py --write

# The compiled peers of the bench, from their sources where given (bench/peers/README.md):
# make peers GODIP_SRC=path/to/godip DIPCC_SRC=path/to/diplomacy_cicero; each one whose
# toolchain or source is missing is skipped with a note.
peers:
	GODIP_SRC="$(GODIP_SRC)" DIPCC_SRC="$(DIPCC_SRC)" sh bench/peers/build.sh

# The game pages' screenshots in docs/img, taken by the browser tests (Chromium).
screenshots: $(STAMP)
	MOBADJ_SCREENSHOTS=docs/img $(BIN)/python -m pytest -q tests/web/test_browser.py \
	  tests/web/test_play_browser.py tests/cards/test_play_pages.py

clean: pure
	rm -rf $(VENV) build *.egg-info

# Cross-check against an independent adjudicator (docs/crosscheck.md); not part of `make test`.
ORACLE ?= /tmp/oracle-venv
.PHONY: crosscheck
crosscheck: $(STAMP)
	test -x $(ORACLE)/bin/python || ($(PY) -m venv $(ORACLE) && $(ORACLE)/bin/pip install --quiet diplomacy==1.1.2)
	$(BIN)/python -m tools.crosscheck.run --seed 1 --count 2000 --oracle-python $(ORACLE)/bin/python
