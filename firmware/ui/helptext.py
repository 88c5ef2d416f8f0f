"""The rules and controls help read from help.txt (or the language's own, ui/lang.py help_file),
loaded only while a help page is opened: a section at a time, a line at a time, within a budget
(lines of at most 1 KB, a section of at most 4 KB, UTF-8), so that no help file, damaged or huge,
can stop the page: the language's file missing, damaged or without the section gives the English
section under a line that says so."""
import sys
from micropython import const
from .screen import tr
_K_X = const(0x040)      # = keys.K_X
_K_Y = const(0x080)      # = keys.K_Y
_HELP_LINE = const(1024)     # the longest line a help file may have
_HELP_SECTION = const(4096)  # the most bytes of one section (help_ru.txt's largest: 858)


def help_text(vid):
    """The section [vid] of help.txt, or of the language's own (ui/lang.py help_file: asked only
    when a language other than English is loaded), read from flash only when asked. The language's
    file missing, damaged or without the section: the English section under a line that says so."""
    try:
        base = __file__.rsplit("/", 1)[0] + "/"
    except NameError:
        base = "/ui/"
    lang = sys.modules.get("ui.lang")
    name = lang.help_file() if lang is not None else "help.txt"
    text = _section(base + name, vid)
    if text is None and name != "help.txt":
        text = _section(base + "help.txt", vid)
        if text is not None:
            return tr("Help damaged: in English") + "\n" + text
    return "Help file missing." if text is None else text


def _section(path, vid):
    """The text of section [vid] of the help file at `path`; None when the file cannot be read,
    lacks the section, or a line up to its end is not UTF-8 or over the budget (_HELP_LINE bytes a
    line, _HELP_SECTION a section)."""
    out = []
    on = False
    size = 0
    head = b"[" + vid.encode() + b"]"
    try:
        with open(path, "rb") as f:
            while True:
                ln = f.readline(_HELP_LINE + 1)
                if not ln or ln[:1] == b"[":
                    if on:
                        break        # the section is read: no more lines of the file in the heap
                    if not ln:
                        return None
                    on = ln.rstrip(b"\r\n") == head
                    continue
                if len(ln) > _HELP_LINE:
                    return None
                if on:
                    size += len(ln)
                    if size > _HELP_SECTION:
                        return None
                    out.append(str(ln, "utf-8").rstrip("\r\n"))
    except (OSError, ValueError):        # (UnicodeError: not UTF-8)
        return None
    return "\n".join(out).strip()


def key_sections(keys, compact):
    """The sections of help.txt that say what this board's keys do (`keys`: the logical keys it
    has, board.KEYS): X asks for a hint where there is an X, else the game menu has it; B opens the
    game menu, Y too where there is one, but on the 128x64 screen (no header) Y shows the scores."""
    out = ["hint_x" if keys & _K_X else "hint_menu"]
    if keys & _K_Y and not compact:
        out.append("menu_by")
    else:
        out.append("menu_b")
        if keys & _K_Y:
            out.append("scores_y")
    return out


def controls(board, compact):
    """The Controls page: the board's own line for its buttons (KEY_HELP), the table's keys, then
    what the keys this board has do."""
    text = tr(board.KEY_HELP or "") + "\n" + help_text("controls")
    for sec in key_sections(board.KEYS, compact):
        text += "\n" + help_text(sec)
    return text
