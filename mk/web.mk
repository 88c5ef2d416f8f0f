# The browser version (docs/WEB.md): the same firmware in MicroPython WebAssembly, on a static page.
#   make web         build the site into build/web/ (index.html, page and worker, the runtime from the
#                    npm package pinned in tools/web/package-lock.json, the firmware as .mpy)
#   make web-serve   build it and serve it on http://localhost:$(WEB_PORT)/ (WEB_PORT=8000)
#   WEB_ARGS=--source  ship .py sources instead of .mpy (tracebacks with line numbers)
WEB_OUT  ?= build/web
WEB_PORT ?= 8000
WEB_ARGS ?=

.PHONY: web web-serve

# WEB_OUT, WEB_PORT, WEB_ARGS: checked and exported by mk/vars.mk, read from the environment
web: $(PLAYER)
	@$(BIN)/python -m tools.web.build --out "$$WEB_OUT" $$WEB_ARGS

web-serve: web
	@$(BIN)/python -m tools.web.serve "$$WEB_OUT" --port "$$WEB_PORT"

# The closing figures of docs/WEB.md: page load to first frame, the Hard AI's move in the browser,
# download sizes (headless Chromium on this machine).
.PHONY: web-figures
web-figures: $(STAMP)
	@$(BIN)/python -m tools.web.figures

# The browser's fault suite (tools/web/webfaults.py): its smoke set runs in `make test`
# (host_tests/test_web_faults.py); the long one here, in `make soak`.
.PHONY: soak-web
SOAK_EXTRA += soak-web
soak-web: $(STAMP)
	nice $(BIN)/python -m tools.web.webfaults --long
