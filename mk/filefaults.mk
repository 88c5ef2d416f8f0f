# Fonts and languages: the file fault proof in full, kept out of `make test` (which runs a smoke
# subset: host_tests/test_file_faults.py).
#   make soak-filefaults   every board's font, the language file and the Russian rules help damaged
#                          every way tools/proofs/filefaults.py lists (a bit flipped at every byte of
#                          a font's header and of one line of each text file among them), each booted
#                          normally and with B held: the game resumes and plays, with a one-line note
.PHONY: soak-filefaults

SOAK_EXTRA += soak-filefaults

soak-filefaults: $(STAMP)
	nice $(BIN)/python -m tools.proofs.filefaults
