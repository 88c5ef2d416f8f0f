# Entry point: pick the board, build it, run the app. The board name comes from /board.cfg
# (written at deploy time); the PC simulator sets PICO_BOARD instead.
import boards


def board_name():
    try:
        import os
        name = os.getenv("PICO_BOARD")  # unix port only (simulator); the Pico's os has no getenv
        if name:
            return name
    except (ImportError, AttributeError):
        pass
    return boards.read_cfg("/board.cfg")


def main():
    name = board_name()
    if not name:
        print("No /board.cfg: write the board name into it, one of:")
        print("  " + ", ".join(n for n in boards.NAMES if n != "sim"))
        print("e.g. from the PC: make deploy BOARD=waveshare_lcd13, or at this REPL:")
        print("  open('/board.cfg', 'w').write('waveshare_lcd13\\n'); import machine; machine.reset()")
        return
    try:
        board = boards.load(name)
    except boards.BoardError as e:
        print("board:", e)
        return
    import ui.app
    ui.app.run(board, board.data_dir)


main()
