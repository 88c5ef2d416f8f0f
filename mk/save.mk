# Saves: the power-cut and fault-injection proofs in full, kept out of `make test`
# (which runs smoke subsets: host_tests/test_powercut.py, host_tests/test_faults.py).
#   make soak-powercut   every byte offset cut and every byte flipped (4 patterns) in game.txt,
#                        game.txt.tmp, game.bak, settings.json, stats.json; the real app booted on each
#   make soak-faults     EIO / MemoryError at every file operation of a game and of a match's end,
#                        ENOSPC / EROFS from each on; every data file replaced by oversized, nested,
#                        mistyped, CRLF, binary, directory and device variants; a power-on after each
.PHONY: soak-powercut soak-faults

SOAK_EXTRA += soak-powercut soak-faults

soak-powercut: $(STAMP)
	nice $(BIN)/python -m tools.proofs.powercut

soak-faults: $(STAMP)
	nice $(BIN)/python -m tools.proofs.faults
