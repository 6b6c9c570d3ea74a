# Quick start: `make demo` sets up and runs the assistant; `make test` sets up and runs the tests.
VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup demo test lint bench clean
setup: $(VENV)/.installed
$(VENV)/.installed: pyproject.toml scripts/setup.sh
	./scripts/setup.sh

demo: setup
	$(BIN)/assistant demo

lint: setup
	$(BIN)/ruff check assistant memory audio hearth_errors tests benchmarks
	$(BIN)/mypy

test: lint
	$(BIN)/pytest -q

bench: setup
	$(BIN)/python benchmarks/graph_bench.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
