"""Private copies of another module's constants must keep its value.

`from domino.round import MULTI` costs every importing .mpy the name (in its qstr table) and the
import and global look-ups at run time; a private `_MULTI = const(0x100)  # = domino.round.MULTI` is
folded into the code and costs nothing (docs/DEPLOY.md, "Compiler flags and code size"). The price is
a copy: this test reads every `_NAME = const(...)  # = module.NAME` line in firmware/ and boards/ and
checks the value against the module it names (read from the source, as MicroPython folds it). The
origin is private too (`_P_CURSOR = const(16)  # = ui.table._P_CURSOR`) where nothing imports it:
a public one is a global and an interned name on the device for good.
"""
import ast
import os
import re

from test_const_order import ROOT, sources  # firmware/ and boards/ .py files

MIRROR = re.compile(r"^(_[A-Z0-9_]+) = const\((.+)\)\s+# = ([a-z_.]+)\.([A-Z0-9_]+)\b", re.M)


def module_consts(mod):
    """{NAME: value} of the module-level `NAME = const(expr)` / `NAME = expr` constants (ints, tuples)."""
    path = os.path.join(ROOT, "firmware", *mod.split("."))
    path = path + ".py" if os.path.exists(path + ".py") else os.path.join(path, "__init__.py")
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    env = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            v = node.value
            if isinstance(v, ast.Call) and getattr(v.func, "id", None) == "const":
                v = v.args[0]
            try:
                env[node.targets[0].id] = eval(compile(ast.Expression(v), path, "eval"), {}, dict(env))
            except Exception:
                pass
    return env


def mirrors():
    for path in sources():
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for m in MIRROR.finditer(text):
            yield os.path.relpath(path, ROOT), m.group(1), m.group(2), m.group(3), m.group(4)


def test_mirrored_constants_match_their_module():
    found = list(mirrors())
    assert len(found) > 50, "the mirror comments are gone? (%d found)" % len(found)
    bad = []
    cache = {}
    for path, name, expr, mod, orig in found:
        if mod not in cache:
            cache[mod] = module_consts(mod)
        if orig not in cache[mod]:
            bad.append("%s: %s mirrors %s.%s, which is not a constant there" % (path, name, mod, orig))
        elif eval(expr, {}) != cache[mod][orig]:
            bad.append("%s: %s = %s, but %s.%s = %r" % (path, name, expr, mod, orig, cache[mod][orig]))
        elif name != "_" + orig.lstrip("_"):
            bad.append("%s: %s mirrors %s.%s: keep the name" % (path, name, mod, orig))
    assert not bad, "\n".join(bad)


def test_doubles_mask_is_the_doubles():
    from domino import tiles
    m = 0
    for n in range(7):
        m |= 1 << tiles.DOUBLE[n]
    assert tiles.DOUBLES == m
