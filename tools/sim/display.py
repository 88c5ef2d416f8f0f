"""Whether this PC has a display the simulator's window can open (tools.sim.main and tools.sim.term
both ask)."""

import os
import sys


def has_display():
    """A display SDL can open (or a driver chosen by hand: SDL_VIDEODRIVER=dummy in tests); without
    one SDL waits for ever."""
    env = os.environ
    return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY") or env.get("SDL_VIDEODRIVER") or
                sys.platform in ("darwin", "win32"))
