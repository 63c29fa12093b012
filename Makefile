# Two commands a newcomer needs: `make sim` and `make test`. Everything else is a step of those.
PY ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed
# The portable modules (no displayio, no hardware: CPython, CircuitPython and MicroPython alike):
# the saves and records, and beside the screens of each part the modules they draw from
PORTABLE := shared_rules firmware/companion/store firmware/companion/__init__.py \
	firmware/companion/app/buttons.py firmware/companion/app/catalog.py \
	firmware/companion/app/link.py firmware/companion/screen/text.py \
	firmware/companion/settings/boxcheck.py \
	firmware/companion/board/settings.py firmware/companion/board/ssd1306.py \
	firmware/companion/power/__init__.py firmware/companion/power/idle.py \
	firmware/companion/power/charge.py \
	firmware/companion/turn_clock/__init__.py firmware/companion/turn_clock/state.py \
	firmware/companion/turn_clock/saves.py firmware/companion/turn_clock/statebytes.py \
	firmware/companion/turn_clock/setting.py firmware/companion/turn_clock/envelope.py \
	firmware/companion/games/space_lunch/view.py firmware/companion/games/lets_do_lunch/turn.py \
	firmware/companion/games/aqua_brunch/calc_state.py
# Both cores. The long runs (thousands of games, strength figures) are marked soak: `make soak`.
# loadgroup: the real-CircuitPython lane's tests of one profile share a worker (one emulator run)
PYTEST_ARGS ?= -n auto --dist loadgroup -m "not soak"

.PHONY: setup test soak sim lint portability pytest bench screenshots clean

# setuptools tells an editable install's user "Editable installation" as a warning (its
# InformationOnly class: it has no other way past pip), about folders beside the project named
# as its packages; the one there, shared_rules/, is that package itself. That note alone is
# filtered (tests/test_setup_quiet.py: the install says nothing else).
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade "pip>=23"
	PYTHONWARNINGS="ignore:Editable installation" $(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-fund --no-audit --silent
	touch $(NODE_STAMP)

setup: $(STAMP) $(NODE_STAMP)

lint: $(STAMP)
	$(BIN)/ruff check .

portability: $(STAMP)
	$(BIN)/python -m lunchbox.portability $(PORTABLE)

pytest: $(STAMP) $(NODE_STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

test: lint portability pytest

# The long runs; CI runs them after `make test`.
soak: $(STAMP) $(NODE_STAMP)
	$(BIN)/python -m pytest -n auto --dist loadgroup -m soak

sim: $(STAMP)
	$(BIN)/lunchbox sim $(SIM_ARGS)

# Re-render the README pictures from the simulator (a test fails when they are out of date).
screenshots: $(STAMP)
	$(BIN)/lunchbox sim --readme-shots docs/img

bench: $(STAMP) $(NODE_STAMP)
	for b in bench/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) node_modules .pytest_cache .ruff_cache

# An emulated MicroPython Pico (the real MicroPython UF2 in rp2040js) on a pseudo-terminal: prints
# its port for `lunchbox ... --port` and serves until Ctrl-C; its flash is kept between runs.
.PHONY: board
PROFILE ?= pico-ssd1306-5btn-mp
board: $(STAMP) $(NODE_STAMP)
	$(BIN)/python tests/mpboard.py --profile $(PROFILE) $(BOARD_ARGS)
