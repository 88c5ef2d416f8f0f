# ui: screens, drawing on the board's framebuffer, input events (see docs/BOARDS.md for the board API).
