# The emulated Pico (issue 17; tools/pico_emu, docs/PICO_EMU.md): stock MicroPython RPI_PICO in rp2040js.
#   make pico-emu   build/pico_emu: firmware.uf2 (RPI_PICO), firmware-pico-w.uf2 (RPI_PICO_W) and the boot ROM from $(RP2EMU), rp2040js 1.4.1 by
#                   npm ci (tools/pico_emu/package-lock.json). Without $(RP2EMU) it says so and the
#                   emulated-Pico tests skip with the same message.
# `make test` runs it first (host_tests/test_pico_emu.py is the smoke test on the emulated Pico).
RP2EMU ?= ../shared/rp2emu

.PHONY: pico-emu

pico-emu: $(STAMP)
	@$(BIN)/python tools/pico_emu/emu.py setup --rp2emu "$(RP2EMU)"

test: pico-emu
