# Two commands do all the set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test test-fast test-313 test-slow test-flaky pi-smoke lint bench soak screens clean browser web-shots speech axe

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[emulator,test]'
	touch $(STAMP)

run: $(STAMP)
	PYGAME_HIDE_SUPPORT_PROMPT=1 $(BIN)/companion run --emulator $(ARGS)

# MicroPython's WebAssembly port for the firmware tests (npm, pinned in tests/mpy/package-lock.json).
# Without node the MicroPython tests skip, saying so; under CI=true they fail instead.
MPY_PORT := tests/mpy/node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs

$(MPY_PORT): tests/mpy/package.json tests/mpy/package-lock.json
	@if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then \
		cd tests/mpy && npm ci --no-audit --no-fund --loglevel=error && touch node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs; \
	else echo "node/npm not found: the MicroPython firmware tests will be skipped"; fi

# axe-core for the accessibility tests of the table web (tests/web/test_axe.py; npm, pinned in
# tests/axe/package-lock.json). Without node the tests skip, saying so; under CI=true they fail.
AXE_JS := tests/axe/node_modules/axe-core/axe.min.js

$(AXE_JS): tests/axe/package.json tests/axe/package-lock.json
	@if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then \
		cd tests/axe && npm ci --no-audit --no-fund --loglevel=error && touch node_modules/axe-core/axe.min.js; \
	else echo "node/npm not found: the accessibility (axe) tests will be skipped"; fi

axe: $(AXE_JS)

# Debian's chromium for the browser tests (tests/web; Playwright's own download needs the
# internet): installed when running as root and missing. Otherwise those tests skip, saying
# why; under CI=true they fail instead.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get update -qq && apt-get install -y -qq chromium; \
	else echo "chromium not found: the browser tests will be skipped (apt-get install chromium)"; fi

# Debian's espeak-ng and aplay (alsa-utils) for the box's voice (tests/test_speech_box.py and
# the doctor's audio check render and play calls with them): installed when running as root
# and missing, as `browser` does chromium. Otherwise those tests skip, saying why; under
# CI=true they fail instead.
speech:
	@command -v espeak-ng >/dev/null 2>&1 && command -v aplay >/dev/null 2>&1 || \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq espeak-ng alsa-utils; \
	else echo "espeak-ng or aplay not found: the espeak-ng tests will be skipped (apt-get install espeak-ng alsa-utils)"; fi

# ruff (pyflakes, pycodestyle, bugbear, import order) and mypy, both configured in
# pyproject.toml and pinned in the test extra. `make test` and `make test-fast` run it first.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

test: lint $(MPY_PORT) $(AXE_JS) browser speech
	PYGAME_HIDE_SUPPORT_PROMPT=1 $(BIN)/python -m pytest $(PYTEST_ARGS)

# The same without the browser tests (marked `browser`: tests/web that drive chromium) and
# the power-cut runs (marked `soak`); no chromium needed.
test-fast: lint $(MPY_PORT)
	PYGAME_HIDE_SUPPORT_PROMPT=1 $(BIN)/python -m pytest -m "not browser and not soak" $(PYTEST_ARGS)

# `make test-fast` on Python 3.13 (Raspberry Pi OS trixie's) in a fresh Debian trixie chroot:
# root and debootstrap; CI runs it after `make test` (.ci/run). PYTEST_ARGS pass through.
test-313:
	.ci/trixie $(PYTEST_ARGS)

# Tests on a slowed CPU (a cgroup at 25% of one core, root): a sleep standing in for "the app
# has done it" fails here as on a Pi. E.g. make test-slow ARGS="tests/test_crash.py -k sigkill"
test-slow: $(STAMP)
	$(BIN)/python -m bench.slow $(ARGS)

# The browser tests N times over on a slowed CPU (PERCENT of one core, 50 by default; root, as
# test-slow): a test that waits on a duration or a count where it should wait on an event
# fails in some runs. It ends with each failed test and the runs it failed in. ARGS narrows
# it, e.g. make test-flaky N=5 ARGS="tests/web/test_speech.py"
N ?= 5
PERCENT ?= 50
test-flaky: $(STAMP) $(AXE_JS) browser
	$(BIN)/python -m bench.slow --percent $(PERCENT) --runs $(N) $(or $(ARGS),-m browser tests/web) $(PYTEST_ARGS)

# The companion installed into an arm64 trixie chroot under qemu-user-static, driven for a few
# presses and a roll (.ci/pi-smoke; root, debootstrap, qemu-user-static). Not in CI: slow.
pi-smoke:
	.ci/pi-smoke

# Speed and footprint figures (docs/performance.md); not part of `make test`.
bench: $(STAMP)
	PYGAME_HIDE_SUPPORT_PROMPT=1 $(BIN)/python -W ignore::DeprecationWarning -m bench.run $(ARGS)

# The long reliability runs (docs/reliability.md): 100 power cuts instead of 10.
soak: $(STAMP)
	SOAK_KILLS=100 $(BIN)/python -m pytest tests/test_reliability_powercut.py $(PYTEST_ARGS)

screens: $(STAMP)
	$(BIN)/companion screens docs/screens

# Phone and TV screenshots of the table web for every game kind, and of the history pages
# (docs/web/), with chromium.
web-shots: $(STAMP) browser
	PYGAME_HIDE_SUPPORT_PROMPT=1 $(BIN)/python -m companion.gallery.web_shots docs/web
	PYGAME_HIDE_SUPPORT_PROMPT=1 $(BIN)/python -m companion.gallery.history_shots docs/web

clean:
	rm -rf $(VENV) build *.egg-info
