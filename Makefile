# dgm — two commands on a fresh machine: `make evolve` and `make test`.
# Each target brings up what it needs by itself (scripts/bootstrap.sh).
PY ?= python3
VENV ?= .venv
STAMP := $(VENV)/.bootstrap-stamp
PYTEST_ARGS ?=
# test files run on this many pytest-xdist workers (0: all in one process)
TEST_JOBS ?= 3
RUN ?= runs/default
EVOLVE_ARGS ?=
SERVE_ARGS ?=

.PHONY: evolve test check serve sandbox local-model lint bench clean help

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

$(STAMP): pyproject.toml scripts/bootstrap.sh scripts/system-packages.txt
	scripts/bootstrap.sh $(VENV) $(PY)
	@touch $@

evolve: $(STAMP)  ## evolve agents on the built-in dev split into $(RUN) (resumes if it exists)
	scripts/sandbox-up.sh $(VENV)
	$(VENV)/bin/dgm evolve --run $(RUN) --fm auto --benchmark builtin:dev $(EVOLVE_ARGS)

test: $(STAMP) sandbox  ## run the test suite (installs what it needs first)
	$(VENV)/bin/python -m pytest -n $(TEST_JOBS) --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS)

check: $(STAMP)  ## the inner loop (about 2 minutes; no sandbox, no root): lint, types and every test that needs no sandbox
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy --strict archive sandbox
	DGM_TEST_TIER=check $(VENV)/bin/python -m pytest -n $(TEST_JOBS) -m "not slow and not local_model and not torture" $(PYTEST_ARGS)

serve: $(STAMP)  ## watch a run in the browser: make serve RUN=runs/default (read-only; 127.0.0.1:8765)
	$(VENV)/bin/dgm serve --run $(RUN) $(SERVE_ARGS)

sandbox: $(STAMP)  ## start dockerd and build the sandbox images if missing: the base and polyglot (root)
	scripts/sandbox-up.sh $(VENV) polyglot

local-model: $(STAMP)  ## install the embedded model (a prebuilt runtime and a 1.1 GB download)
	$(VENV)/bin/dgm model install

lint: $(STAMP)  ## ruff: lint and format check; mypy --strict where it holds
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy --strict archive sandbox

bench: $(STAMP) sandbox  ## run every benchmark and write the figures into BENCHMARKS.md
	$(VENV)/bin/python benchmarks/run_all.py

clean:  ## remove the virtual environment and caches
	rm -rf $(VENV) .pytest_cache *.egg-info
