# The two commands of the README: `make site` (the main job) and `make test` (every test).
# Each creates its own virtual environment in .venv on first use.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
# The WebAssembly Python the site ships (package.json pins it; npm ci installs the locked files).
NODE_STAMP := node_modules/.installed-stamp

.PHONY: site test test-fast lint lock bench fuzz serve clean

# Every Python package comes from requirements.lock, each file checked against its hash (pip,
# setuptools and uv included); havoc itself is then installed without resolving anything.
$(STAMP): pyproject.toml requirements.lock
	$(PY) -c 'import sys; sys.exit(0 if (3, 11) <= sys.version_info[:2] < (3, 15) else "havoc needs Python 3.11 to 3.14, found " + sys.version.split()[0])'
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation --no-index -e .
	touch $(STAMP)

# Refresh the lock to today's releases (the one command to run after editing dependencies in
# pyproject.toml); tests/test_lock.py fails while the two disagree.
lock: $(STAMP)
	$(BIN)/python -m uv pip compile pyproject.toml --all-extras --universal --generate-hashes \
	  --python-version 3.11 --upgrade --quiet --custom-compile-command 'make lock' -o requirements.lock

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

# Tests run in two processes (pytest-xdist; PYTEST_WORKERS=1 for one), each test file whole in
# one of them, so a file's shared setup (a server, a browser, a built site) is made once; the
# real site is built once for both (tests/conftest.py built_once).
# Bytecode is written (PYTHONDONTWRITEBYTECODE unset, as Python's default is): the tests start
# havoc in hundreds of fresh processes, each of which would otherwise compile it from source
# again, and pytest keeps its rewritten test modules only as bytecode.
PYTEST_WORKERS ?= 2
PARALLEL := -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest

test: lint
	bash scripts/ensure-system-deps
	$(MAKE) --no-print-directory $(NODE_STAMP)
	$(PYTEST) $(PARALLEL)

# The inner loop: no browser, no whole-site build.
test-fast: $(STAMP)
	$(PYTEST) -q $(PARALLEL) -m "not slow and not browser"

serve: site
	$(BIN)/havoc serve

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

# The long fuzz campaign (100,000 generated inputs; FUZZ_ARGS="--count N --seed S" to vary).
fuzz: $(STAMP)
	$(BIN)/python benchmarks/fuzz.py $(FUZZ_ARGS)

clean:
	rm -rf build .venv .pytest_cache .mypy_cache .ruff_cache
