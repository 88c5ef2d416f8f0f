# Link play between two simulators (docs/LINK.md).
#   make sim-link                         two simulator windows joined by the virtual cable, each
#                                         playing a seeded linked match (headless without a display)
#   make sim-link LINK_GAME="goat 4 1 HhGh" LINK_ARGS="--cut-at 3 --kill-at 6 --rate 0.001"
LINK_GAME ?= fives 2 0 HG
LINK_ARGS ?=

.PHONY: sim-link

sim-link: $(STAMP)
	@PYTHONPATH=firmware:. $(BIN)/python -m tools.link.sim_pair --game "$(LINK_GAME)" \
	  $(if $(BOARD),--board $(BOARD)) $(if $(SEED),--seed $(SEED)) $(LINK_ARGS)
