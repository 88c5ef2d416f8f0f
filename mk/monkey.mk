# The monkey test and the device-path soak, tools/proofs/monkey.py under the micropython unix port
# at the stress heap, 186K (its STRESS_HEAP; the harness's own bytes given back), both cores, niced:
#   make soak-monkey   100,000 random presses through the real UI: no error, no MemoryError, every
#                      engine invariant after every move, no hand tile while the hands are face down,
#                      no hand shown to anyone but the player holding the device; a fresh random seed
#                      each run, printed (MONKEY_SEED=N replays one; make test runs 3,000 presses so)
#   make soak-games    1,000 complete all-AI matches through the App: the free heap after each (after
#                      gc.collect) must not trend down; prints min/mean/max, first/last-100 means, slope
MONKEY_PRESSES ?= 100000
SOAK_GAMES     ?= 1000
MONKEY_SEED    ?= random
MONKEY_ARGS    ?=
# (checked and exported by mk/vars.mk, read from the environment)

.PHONY: soak-monkey soak-games

SOAK_EXTRA += soak-monkey soak-games

soak-monkey: $(STAMP)
	$(BIN)/python -m tools.proofs.monkey --presses "$$MONKEY_PRESSES" --jobs 2 --seed "$$MONKEY_SEED" $$MONKEY_ARGS

soak-games: $(STAMP)
	$(BIN)/python -m tools.proofs.monkey --soak-games "$$SOAK_GAMES" --jobs 2 $$MONKEY_ARGS
