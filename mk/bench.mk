# Benchmarks: the engine against other engines and against its budgets, in one run.
#   make bench   builds .venv-bench once (dominoes and open-spiel from PyPI, requirements-bench.txt),
#                then tools/bench (python -m tools.bench) measures speed, memory, size and, on the
#                emulated Pico and Pico W, every device budget (boot, presses, whole UI matches, the
#                Hard AI: tools/bench/pico.py) and writes docs/benchmarks.md whole.
#                About an hour on 2 cores; not part of `make test` (that runs a --quick --no-peers smoke).
#   BENCH_ARGS=  extra python -m tools.bench options, e.g. BENCH_ARGS="--reps 9" or "--out /tmp/b.md"
#                (checked and exported by mk/vars.mk, read from the environment)
BENCH_VENV  := .venv-bench
BENCH_STAMP := $(BENCH_VENV)/.installed
BENCH_ARGS  ?=

.PHONY: bench

$(BENCH_STAMP): requirements-bench.txt
	"$$PYTHON" -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/pip install --disable-pip-version-check --progress-bar on -r requirements-bench.txt
	@touch $@

bench: $(STAMP) $(BENCH_STAMP)
	$(BIN)/python -m tools.bench --peer-python $(BENCH_VENV)/bin/python \
	  $(if $(value MICROPYTHON),--micropython "$$MICROPYTHON") --out docs/benchmarks.md $$BENCH_ARGS
