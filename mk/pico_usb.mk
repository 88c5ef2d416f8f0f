# The hobbyist's path on the emulated Pico plugged in over USB (docs/DEPLOY.md, "Tested on
# the emulated Pico"). host_tests/test_deploy_pico.py's smoke part runs in `make test`.
#   make pico-usb [BOARD=b] [IMAGE=pico_w]  an emulated Pico (IMAGE=pico_w: a Pico W) on a
#                            pseudo-terminal, build/pico_usb/ttyACM0, until Ctrl-C: try
#                            `make deploy BOARD=b PORT=build/pico_usb/ttyACM0` against it; its flash
#                            stays in build/pico_usb/flash.img (flash-pico_w.img), its screen in screen.png
#   make soak-deploy         the long part: full flash, a cable pulled mid-copy, deploy-src, run,
#                            repl, the no-clone mip install and the board question (~10 min)
.PHONY: pico-usb soak-deploy

SOAK_EXTRA += soak-deploy

pico-usb: pico-emu
	@$(BIN)/python -m tools.emu.usb_pty $(if $(value BOARD),--board "$$BOARD") $(if $(value IMAGE),--image "$$IMAGE")

soak-deploy: pico-emu
	PICO_DEPLOY_SOAK=1 nice $(BIN)/python -m pytest -q -p no:cacheprovider host_tests/test_deploy_pico.py
