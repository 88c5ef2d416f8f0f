# Link play between two simulators (docs/LINK.md).
#   make sim-link                         two simulator windows running the firmware, joined by the
#                                         virtual cable: Link game > Host in one, > Join in the other
#                                         (without a display: a match played through both menus by keys)
#   make sim-link LINK_ARGS="--headless --cut-at 3 --kill-at 6 --rate 0.001"
#   make sim-link LINK_ARGS="--demo" LINK_GAME="goat 4 1 HhGh"   the session alone (random movers)
LINK_GAME ?= fives 2 0 HG
LINK_ARGS ?=

.PHONY: sim-link

sim-link: $(STAMP)
	@PYTHONPATH=firmware:. $(BIN)/python -m tools.link.sim_pair --game "$(LINK_GAME)" \
	  $(if $(BOARD),--board $(BOARD)) $(if $(SEED),--seed $(SEED)) $(LINK_ARGS)

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
