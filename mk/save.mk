# Saves (issue 8): the power-cut proof in full, kept out of `make test` (which runs a smoke subset:
# host_tests/test_powercut.py).
#   make soak-powercut   every byte offset cut and every byte flipped (4 patterns) in game.txt,
#                        game.txt.tmp, game.bak, settings.json, stats.json; the real app booted on each
.PHONY: soak-powercut

SOAK_EXTRA += soak-powercut

soak-powercut: $(STAMP)
	nice $(BIN)/python tools/powercut.py
