"""The English texts a player can see, found in the firmware's source by its syntax tree: the
catalogue every language file (firmware/lang/<code>.txt) must translate.

A string constant is a player's text when it is
- an argument of a drawing, menu or message call (VISIBLE_CALLS: g.text, Message, ListScreen's
  title, app.menu(note), tr, ...), or assigned to a screen's note/title/text;
- in what a screen's rows() or footer() returns;
- returned by a text builder (ui/words.py, ai/reason.py);
- a value of a module constant of labels or notes (LABEL_NAMES: _KIND_LABELS, OPTION_LABELS, WHY...);
- a variant's name or a non-numeric option value (domino/rules.py VARIANTS).
A concatenation of constants and values ("name + ' drew ' + tile") is one text, its values written
{0}, {1}, ... in order: the template the code is to use with tr(...).format(...), so that a
translation may put the values in another order. Texts without a letter are left out.

What it cannot see (SOURCES_UNSEEN): texts built where no rule above applies. `--unseen` lists the
string constants with letters and spaces that no rule took, for a person to judge.

Usage: python -m tools.lang.extract [--unseen]     (prints the catalogue, one text a line)
"""
import ast
import os
import re
import sys

from tools import cli

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIRMWARE = os.path.join(ROOT, "firmware")

# The files read: every UI module, plus the builders of hint reasons and of the store's messages
# (store.py: saves and settings; stats.py: the statistics and the JSON files' shared messages).
FEW = ("domino/rules.py", "savegame.py")   # files of data and code: only their tr() texts and errors
NOT_UI = ("ui/lang.py", "ui/font.py")      # the languages' and fonts' own machinery: no player's text
SOURCES = [p for p in ("ui/" + n for n in sorted(os.listdir(os.path.join(FIRMWARE, "ui"))))
           if p.endswith(".py") and p not in NOT_UI] + [
    "ai/reason.py", "store.py", "stats.py", "savegame.py", "link/session.py", "link/setup.py",
    "domino/rules.py"]
# What the rules cannot see, said in docs/UI.md ("Languages").
SOURCES_UNSEEN = ("str(e) of an OSError shown as a note",)
BOARDS = os.path.join(ROOT, "boards")       # each board's line for its buttons (KEY_HELP)

VISIBLE_CALLS = {"text", "big_center", "right", "center", "fit", "wrap", "Message",
                 "menu", "resume", "tr", "_tr", "say", "show_note", "banner", "curtain", "ListScreen",
                 "Screen", "note", "error", "ErrorPage", "failed"}
VISIBLE_ATTRS = {"note", "title", "text", "msg", "message", "hint", "status", "label", "head", "tail"}
BUILDER_FILES = {"ui/words.py", "ai/reason.py"}
LABEL_NAMES = re.compile(r"(LABELS|NOTES|NAMES|^WHY$|^BACK$|^POWER_CUT$|^LOST$|TITLES|_TEXTS?$)")
NOT_SHOWN = {"NAMES"}          # each language's own name (the AI players' names are translated)
LETTER = re.compile(r"[A-Za-z]")
WORD = re.compile(r"^[a-z_][a-z0-9_.]*$|^[A-Z_][A-Z0-9_]*$|^\*?\.[a-z]+$")   # keys, files, .bad
LOG = re.compile(r"^[a-z]+: ")                                 # a log or REPL line ("link: ...")
# Data that looks like text: a code alphabet, a path, an encoding, seat-owner letters, a placeholder
DATA = re.compile(r"^ ?[A-Z0-9]{20,}$|^/|/$|^utf-8$|^[A-Za-z]{5}$(?<=HGemh)|^\{[a-z]+\}$")
DATA_CALLS = {"need", "getattr", "hasattr", "setattr", "open", "startswith", "endswith", "find", "rfind",
              "split", "rsplit", "log", "print", "drop_module", "stat", "index", "get", "setdefault",
              "aside", "kind", "write", "remove", "rename", "_json", "encode", "decode",
              "ValueError", "OSError", "isinstance", "rstrip", "strip", "count", "__import__", "beep"}


def _parents(tree):
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            child.parent = node


def _call_name(call):
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def _docstring(node):
    p = getattr(node, "parent", None)
    return (isinstance(p, ast.Expr) and isinstance(getattr(p, "parent", None),
                                                   (ast.Module, ast.FunctionDef, ast.ClassDef)))


def _func(node):
    while node is not None and not isinstance(node, ast.FunctionDef):
        node = getattr(node, "parent", None)
    return node


def _visible(node, path):
    """Whether constant `node` is a player's text by one of the rules."""
    n = node
    while True:
        p = getattr(n, "parent", None)
        if p is None or isinstance(p, (ast.FunctionDef, ast.ClassDef, ast.Module)):
            break
        if isinstance(p, ast.Call) and n is not p.func:
            if _call_name(p) in DATA_CALLS:
                return False
            if _call_name(p) in VISIBLE_CALLS:
                return True
        if isinstance(p, (ast.Assign, ast.AugAssign)):
            for t in (p.targets if isinstance(p, ast.Assign) else [p.target]):
                if isinstance(t, ast.Attribute) and t.attr in VISIBLE_ATTRS:
                    return True
                if isinstance(t, ast.Name) and LABEL_NAMES.search(t.id) and t.id not in NOT_SHOWN \
                        and isinstance(p.parent, ast.Module):
                    return True
        if isinstance(p, ast.Compare):
            return False
        if isinstance(p, ast.Subscript) and n is p.slice:
            return False
        if isinstance(p, ast.Dict) and n in p.keys:
            return False
        if isinstance(p, ast.Return):
            f = _func(p)
            if path in BUILDER_FILES or (f is not None and f.name in ("rows", "footer")):
                return True
        if isinstance(p, (ast.Assign, ast.AugAssign)) and path in BUILDER_FILES:
            return True         # a builder's pieces ("out += ' closed'")
        n = p
    return False


def _template(node):
    """The text of a concatenation around `node` (the widest chain of + holding it): constants kept,
    the other operands {0}, {1}, ...; with its constants' nodes."""
    top = node
    while isinstance(getattr(top, "parent", None), ast.BinOp) and isinstance(top.parent.op, ast.Add):
        top = top.parent
    parts = []

    def flat(e):
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Add):
            flat(e.left)
            flat(e.right)
        else:
            parts.append(e)
    flat(top)
    out = ""
    k = 0
    for e in parts:
        if isinstance(e, ast.Constant) and isinstance(e.value, str):
            out += e.value
        else:
            out += "{" + str(k) + "}"
            k += 1
    return out


def _variants():
    """Variant names and the option values that are words (domino/rules.py)."""
    from domino.rules import VARIANTS, option_choices
    out = set()
    for row in VARIANTS:
        out.add(row[1])
        for _, _, choices in option_choices(row[0]):
            for c in choices:
                if isinstance(c, str) and LETTER.search(c):
                    out.add(c)
    return out


def _hidden(node):
    """Whether constant `node` is used as data, not shown: compared, a key or index, a file or module
    name, a log line."""
    n = node
    while True:
        p = getattr(n, "parent", None)
        if p is None or isinstance(p, (ast.stmt,)) and not isinstance(p, (ast.Return, ast.Assign,
                                                                             ast.AugAssign, ast.Expr)):
            return False
        if isinstance(p, ast.Compare) or (isinstance(p, ast.Subscript) and n is p.slice):
            return True
        if isinstance(p, ast.Dict) and n in p.keys:
            return True
        if isinstance(p, ast.Call) and n is not p.func and _call_name(p) in DATA_CALLS:
            return True
        if isinstance(p, ast.Attribute):           # "...".join(...), "x".split()
            return True
        if isinstance(p, ast.Assign) and any(isinstance(t, ast.Name) and t.id in NOT_SHOWN
                                             for t in p.targets):
            return True
        if isinstance(p, ast.stmt):
            return False
        n = p


def scan(path):
    """(texts, unseen) of one firmware file: the texts found, the constants no rule took. In the
    UI's files (and the store's messages, the hint reasons) every constant with a letter is a text
    unless used as data (_hidden) or a bare word (an identifier: a text only by the rules of
    _visible); in domino/rules.py and savegame.py (FEW) only the errors raised and the texts in tr()."""
    with open(os.path.join(FIRMWARE, path), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    _parents(tree)
    texts, unseen = set(), set()
    every = path not in FEW
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)) or _docstring(node):
            continue
        if _visible(node, path) or (every and not _hidden(node) and not WORD.match(node.value)) or (
                not every and _raised(node)):
            t = _template(node)
            if LETTER.search(t) and not LOG.match(t) and not DATA.search(t):
                texts.add(t)
        elif " " in node.value.strip() and LETTER.search(node.value):
            unseen.add(node.value)
    return texts, unseen


def _raised(node):
    n = node
    while n is not None and not isinstance(n, ast.stmt):
        n = getattr(n, "parent", None)
    return isinstance(n, ast.Raise)


def key_help():
    """The boards' lines for their buttons: the string constants assigned to KEY_HELP (the Controls
    page shows the board's own, through tr)."""
    out = set()
    for name in sorted(os.listdir(BOARDS)):
        if not name.endswith(".py"):
            continue
        with open(os.path.join(BOARDS, name), encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and \
                    isinstance(node.value.value, str) and node.value.value:
                for t in node.targets:
                    if getattr(t, "id", getattr(t, "attr", None)) == "KEY_HELP":
                        out.add(node.value.value)
    return out


def catalogue():
    """Every player's text, sorted."""
    out = _variants() | key_help()
    for path in SOURCES:
        out |= scan(path)[0]
    return sorted(out)


def help_sections(path=None):
    """{section: text} of a rules help file (ui/help.txt: [name] then its lines)."""
    out = {}
    cur = None
    with open(path or os.path.join(FIRMWARE, "ui", "help.txt"), encoding="utf-8") as f:
        for ln in f:
            ln = ln.rstrip("\n")
            if ln.startswith("["):
                cur = ln[1:-1]
                out[cur] = []
            elif cur is not None:
                out[cur].append(ln)
    return {k: "\n".join(v).strip() for k, v in out.items()}


def main(argv=None):
    ap = cli.parser("python -m tools.lang.extract", description=__doc__.split("\n\n")[0])
    ap.add_argument("--unseen", action="store_true",
                    help="the string constants no rule took (for a person to judge), not the catalogue")
    argv = ap.parse_args(argv)
    if argv.unseen:
        for path in SOURCES:
            for s in sorted(scan(path)[1]):
                print(path + ": " + repr(s))
        print("not seen at all: " + "; ".join(SOURCES_UNSEEN))
        return 0
    for t in catalogue():
        print(t.replace("\n", "\\n"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
