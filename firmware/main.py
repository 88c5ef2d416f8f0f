# Entry point: pick the board, build it, run the app. The board name comes from /board.cfg
# (written at deploy time); the PC simulator sets PICO_BOARD instead.
import boards


def _env(key):
    try:
        import os
        return os.getenv(key)  # unix port only (simulator, tests); the Pico's os has no getenv
    except (ImportError, AttributeError):
        return None


def choose_board(path):
    """First boot after `mpremote mip install` (no board.cfg): no screen can be driven before we know
    the board, so ask on the REPL, remember the answer and go on."""
    names = [n for n in boards.NAMES if n != "sim"]
    print("No /board.cfg: which board is this Pico on?")
    for i in range(len(names)):
        print("  " + str(i + 1) + "  " + names[i])
    print("(from the PC instead: make deploy BOARD=<name>)")
    while True:
        try:
            answer = input("board number or name: ").strip()
        except (EOFError, KeyboardInterrupt):
            return None
        if answer.isdigit() and 1 <= int(answer) <= len(names):
            answer = names[int(answer) - 1]
        if answer in names:
            try:
                with open(path, "w") as f:
                    f.write(answer + "\n")
            except OSError as e:
                print("could not save the choice in " + path + ": " + str(e))
            return answer
        print("not a board: " + answer)


def main():
    cfg = _env("PICO_BOARD_CFG") or "/board.cfg"
    name = _env("PICO_BOARD") or boards.read_cfg(cfg) or choose_board(cfg)
    if not name:
        return
    try:
        board = boards.load(name)
    except boards.BoardError as e:
        print("board:", e)
        return
    import ui.app
    ui.app.run(board, board.data_dir)


main()
