# The emulated Pico (tools/emu, docs/PICO_EMU.md): stock MicroPython RPI_PICO and RPI_PICO_W in rp2040js.
#   make pico-emu   build/pico_emu: firmware.uf2 (RPI_PICO), firmware-pico-w.uf2 (RPI_PICO_W) and the
#                   boot ROM from $(RP2EMU), rp2040js 1.4.1 by npm ci (tools/emu/package-lock.json).
#                   The images travel with the repo (tools/emu/images/README.md: versions,
#                   provenance, sha256).
# `make test` runs it first (host_tests/test_pico_emu.py is the smoke test on the emulated Pico).
RP2EMU ?= tools/emu/images

.PHONY: pico-emu

pico-emu: $(STAMP)
	@$(BIN)/python -m tools.emu setup --rp2emu "$$RP2EMU"

test: pico-emu
