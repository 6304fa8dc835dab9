# The two commands of the README: `make site` (the main job) and `make test` (every test).
# Each creates its own virtual environment in .venv on first use.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
# The WebAssembly Python the site ships (package.json pins it; npm ci installs the locked files).
NODE_STAMP := node_modules/.installed-stamp

.PHONY: site test lint bench fuzz serve clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[docs,sheet,serve,test]'
	touch $(STAMP)

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $(NODE_STAMP)

site: $(STAMP)
	bash scripts/ensure-system-deps site
	$(MAKE) --no-print-directory $(NODE_STAMP)
	$(BIN)/havoc check
	$(BIN)/havoc sheet --lang all
	$(BIN)/havoc docs --lang all

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

test: lint
	bash scripts/ensure-system-deps
	$(MAKE) --no-print-directory $(NODE_STAMP)
	$(BIN)/pytest

serve: site
	$(BIN)/havoc serve

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

# The long fuzz campaign (100,000 generated inputs; FUZZ_ARGS="--count N --seed S" to vary).
fuzz: $(STAMP)
	$(BIN)/python benchmarks/fuzz.py $(FUZZ_ARGS)

clean:
	rm -rf build .venv .pytest_cache .mypy_cache .ruff_cache
