# Two commands do all the set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test bench soak screens clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[emulator,test]'
	touch $(STAMP)

run: $(STAMP)
	PYGAME_HIDE_SUPPORT_PROMPT=1 $(BIN)/companion run --emulator $(ARGS)

test: $(STAMP)
	PYGAME_HIDE_SUPPORT_PROMPT=1 $(BIN)/python -m pytest $(PYTEST_ARGS)

screens: $(STAMP)
	$(BIN)/companion screens docs/screens

clean:
	rm -rf $(VENV) build *.egg-info
