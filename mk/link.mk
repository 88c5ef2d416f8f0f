# Link play between two simulators (docs/LINK.md).
#   make sim-link                         two simulator windows running the firmware, joined by the
#                                         virtual cable: Link game > Host in one, > Join in the other
#                                         (without a display: a match played through both menus by keys)
#   make sim-link LINK_ARGS="--headless --cut-at 3 --kill-at 6 --rate 0.001"
#   make sim-link LINK_ARGS="--demo" LINK_GAME="goat 4 1 HhGh"   the session alone (random movers)
LINK_GAME ?= fives 2 0 HG
LINK_ARGS ?=

.PHONY: sim-link soak-link-kills soak-link-hostile

# LINK_GAME, LINK_ARGS, BOARD, SEED: checked and exported by mk/vars.mk, read from the environment
sim-link: $(PLAYER)
	@PYTHONPATH=firmware:. $(BIN)/python -m tools.link.sim_pair --game "$$LINK_GAME" \
	  $(if $(value BOARD),--board "$$BOARD") $(if $(value SEED),--seed "$$SEED") $$LINK_ARGS

# The whole linked match on two emulated Picos (tools/emu/link.py): the deployed waveshare_lcd13 tree
# on both, host and join through the buttons, the cable pulled for 3 s and garbage on both wires on
# the way, the heap probed after every save; both must print the same closing line; then the same
# match on two Pico W (stock RPI_PICO_W: its heap is the budget's, >= 64 KB free), and a Goat 2v2 on
# two Pico W with each person's partner an AI the host plays, Medium, then Hard (its search's
# buffers: the host's lowest point); then a whole match's every still screen on both emulated Picos
# against the simulator pair's, pixel for pixel (tools/emu/link_frames.py). Long (~1 h 20).
.PHONY: soak-link-pico
SOAK_EXTRA += soak-link-pico
LINK_GOAT_2V2 := right*4 down right*2 down up up
LINK_GOAT_2V2_HARD := right*4 down right*2 down down*3 right down right up*6

soak-link-pico: $(STAMP) pico-emu
	nice $(BIN)/python -m tools.emu.link --heap --cut 30000:3000 --garbage 45000:0:40 \
	  --garbage 60000:1:40 --work build/soak_link_pico
	nice $(BIN)/python -m tools.emu.link --heap --image pico_w --work build/soak_link_pico_w
	nice $(BIN)/python -m tools.emu.link --heap --image pico_w --form "$(LINK_GOAT_2V2)" \
	  --work build/soak_link_pico_w_2v2
	nice $(BIN)/python -m tools.emu.link --heap --image pico_w --form "$(LINK_GOAT_2V2_HARD)" \
	  --work build/soak_link_pico_w_2v2_hard
	nice $(BIN)/python -m tools.emu.link_frames --whole --work build/soak_link_frames

# Restarts alone never fork a match: 1,000 seeded self-plays of Fives 2p with a device restarting
# (from its own save, a quarter of them one move back) at every step with chance 0.2, then 300 of
# Goat 2v2 with faults, cuts and restarts; every match must end alike on both (a smoke of a few seeds
# is host_tests/test_link_match.py). Long (~1 h on a loaded 2-core box).
SOAK_EXTRA += soak-link-kills
soak-link-kills: $(STAMP)
	nice $(BIN)/python -m tools.link.selfplay --variant fives --players 2 --kills 0.2 --seeds 1000
	nice $(BIN)/python -m tools.link.selfplay --variant goat --players 4 --teams --owners HhGh \
	  --rate 0.1 --kills 0.01 --cuts 0.002 --seeds 300

# The hostile-peer suite (host_tests/portable/test_link_hostile.py: forged, replayed, reordered,
# out-of-epoch frames, moves for the wrong seat, bad owners, versions, hello floods, absurd counts, a
# peer silent mid-frame) over 200 seeds under CPython, then every portable module under the
# MicroPython unix port with the suite over 20 seeds; `make test` runs each case once on both.
SOAK_EXTRA += soak-link-hostile
soak-link-hostile: $(STAMP)
	LINK_HOSTILE_RUNS=200 nice $(BIN)/python -m pytest -q -p no:cacheprovider \
	  host_tests/portable/test_link_hostile.py
	LINK_HOSTILE_RUNS=20 nice $(BIN)/python -m tools.proofs.mptest
