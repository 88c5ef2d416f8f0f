# The PC simulator (tools/sim, python -m tools.sim; docs/SIM.md).
#   make sim                          window if there is a display, else the terminal
#   make sim BOARD=pimoroni_pack      mimic a board (size, keys, help): waveshare_lcd13,
#                                     pimoroni_pack, pimoroni_pack2, oled_diy, sim
#   make sim VIEW=term|window         force a view;  SIZE=240x135 overrides the screen size
#   make sim ACTUAL=1 [DPI=110]       the window at the panel's physical size on this monitor (its
#                                     DPI: pixels across / inches across; default 96; DPI= implies
#                                     ACTUAL=1); with sim-shot, a PNG at that size
#   make sim-shot KEYS="down a wait:500" SHOT=out/sim.png   headless: play keys, save a PNG
#   make sim-shot ... SEED=7          a fixed deal for every new game (reproducible)
#   make screenshots                  regenerate the README pictures in docs/img (seeded games), and
#                                     every screen in Russian (docs/img/screens/ru, docs/UI.md's table)
BOARD ?=
VIEW  ?=
SIZE  ?=
KEYS  ?= wait:500
SHOT  ?= out/sim.png
SEED  ?=
ACTUAL ?=
DPI   ?=
SIM_ARGS ?=
# Every setting is checked and exported by mk/vars.mk and read here from the environment: "$$BOARD";
# SIM_ARGS, a list of options, unquoted (split at its spaces; its characters hold no shell syntax).
SIM_MP = $(if $(value MICROPYTHON),--micropython "$$MICROPYTHON")
SIM_OPTS = $(if $(value BOARD),--board "$$BOARD") $(if $(value SIZE),--size "$$SIZE") \
           $(if $(value SEED),--seed "$$SEED") $(if $(filter 1,$(value ACTUAL)),--actual-size) \
           $(if $(value DPI),--dpi "$$DPI") $(SIM_MP) $$SIM_ARGS

.PHONY: sim sim-shot screenshots

# The player's commands: the tools' messages name the make settings (VIEW=term, not --view term).
sim sim-shot sim-link web web-serve build deploy deploy-src run repl pico-usb: export PICO_DOMINO_MAKE := 1

sim: $(PLAYER)
	@$(BIN)/python -m tools.sim $(SIM_OPTS) $(if $(value VIEW),--view "$$VIEW")

sim-shot: $(PLAYER)
	@$(BIN)/python -m tools.sim $(SIM_OPTS) --keys "$$KEYS" --screenshot "$$SHOT"

screenshots: $(STAMP)
	$(BIN)/python -m tools.sim.screenshots $(SIM_MP)
	$(BIN)/python -m tools.legibility.gallery --lang ru $(SIM_MP)
