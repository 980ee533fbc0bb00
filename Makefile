# Set-up and the three jobs. Every target creates the virtual environment when it is
# missing (or when a dependency file changed), so each works on a fresh machine that has
# only Python 3.11 and pip.

SHELL  := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PACKAGES := -e packages/nbdeps[png] -e packages/rtextract -e packages/nbpatch[run] \
            -e packages/crashpredict[llm] -e packages/benchkit[dask,llm]

.PHONY: demo test bench venv clean browser

venv: $(STAMP)

$(STAMP): requirements-dev.txt packages/*/pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "make: installing the packages and requirements-dev.txt into $(VENV)"
	@echo "make: the first time this downloads about 3 GB (TensorFlow, PyTorch CPU) and takes minutes; pip shows each package"
	$(BIN)/python -m pip install --disable-pip-version-check --progress-bar on -r requirements-dev.txt $(PACKAGES) \
		| grep --line-buffered -v '^Requirement already satisfied' ; test $${PIPESTATUS[0]} -eq 0
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 >/dev/null
	@touch $(STAMP)

# The main job on the bundled examples: no network, no LLM.
demo: $(STAMP)
	@bash scripts/demo.sh

# The whole test suite (every package's tests and the cross-package tests).
test: $(STAMP) browser
	$(BIN)/python -m pytest

# crashpredict's JupyterLab test drives a real headless Chromium (Debian's package); it is
# installed when missing and this runs as root with apt-get; elsewhere that test skips.
browser:
	@if ! command -v chromium >/dev/null 2>&1 && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "make: installing Debian's chromium for the JupyterLab test"; \
		(apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium) >/dev/null 2>&1 \
			|| echo "make: could not install chromium; the JupyterLab test will skip" >&2; \
	fi

# Benchmarks, apart from the tests: each prints a ratio against a peer run in-process.
bench: $(STAMP)
	$(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
