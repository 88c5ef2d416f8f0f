"""The modules the app unloads to make room are named by hand, in a few lists (a list costs the device
nothing to keep; working it out there would): ui/nav.py's WARM (loaded once and dropped at a
stress boot) and unload_game, App.release (before an AI search), the pause menu's enter, and single
drop_module calls. A misspelt name unloads nothing, silently, and the heap is short by that module
from then on. So: every name in them is a module of firmware/, and each list covers what its job
says it must, read from the code that loads modules on demand (`app.need("name")`)."""
import ast
import os

from test_const_order import ROOT

FIRMWARE = os.path.join(ROOT, "firmware")


def _tree(rel):
    with open(os.path.join(FIRMWARE, rel), encoding="utf-8") as f:
        return ast.parse(f.read())


def _firmware_files():
    for d, _, files in os.walk(FIRMWARE):
        for f in files:
            if f.endswith(".py"):
                yield os.path.relpath(os.path.join(d, f), FIRMWARE)


def _strings(node):
    return [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]


def _calls(tree, fname):
    """Literal first arguments of calls to `fname` (a function or a method of that name)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if name == fname and isinstance(node.args[0].value, str):
                out.append(node.args[0].value)
    return out


def _dropped_in(func):
    """Names a function drops in a `for name in (...): drop_module(name)` loop."""
    out = []
    for node in ast.walk(func):
        if isinstance(node, ast.For) and isinstance(node.iter, ast.Tuple):
            body = ast.Module(body=node.body, type_ignores=[])
            if any(isinstance(n, ast.Call) and getattr(n.func, "id", None) == "drop_module"
                   for n in ast.walk(body)):
                out.extend(_strings(node.iter))
    return out


def _function(tree, name, cls=None):
    scope = tree.body
    if cls:
        scope = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls).body
    return next(n for n in scope if isinstance(n, ast.FunctionDef) and n.name == name)


def _warm():
    for node in _tree("ui/nav.py").body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "WARM":
            return _strings(node.value)
    raise AssertionError("ui/nav.py has no WARM tuple")


def _lists():
    """{where: names} of every unload list."""
    nav = _tree("ui/nav.py")
    return {
        "ui/nav.py WARM": _warm(),
        "ui/nav.py unload_game": _dropped_in(_function(nav, "unload_game")),
        "App.release": _dropped_in(_function(_tree("ui/app.py"), "release", "App")),
        "Pause.enter": _dropped_in(_function(_tree("ui/pause.py"), "enter", "Pause")),
    }


def _needed(rel=None):
    """Names loaded on demand with app.need("name") (in one file, or in all of firmware/)."""
    out = set()
    for f in [rel] if rel else _firmware_files():
        out.update(_calls(_tree(f), "need"))
    return out


def _is_module(name):
    path = os.path.join(FIRMWARE, *name.split("."))
    return os.path.exists(path + ".py") or os.path.exists(os.path.join(path, "__init__.py"))


def test_the_lists_are_where_the_test_reads_them():
    for where, names in _lists().items():
        assert len(names) >= 5, (where, names)
    assert len(_needed()) >= 8


def test_every_unloaded_or_needed_name_is_a_firmware_module():
    named = {}
    for where, names in _lists().items():
        for n in names:
            named.setdefault(n, where)
    for f in _firmware_files():
        for n in _calls(_tree(f), "drop_module"):
            named.setdefault(n, f)
        for n in _calls(_tree(f), "need"):
            named.setdefault(n, f)
    bad = ["%s (in %s)" % (n, where) for n, where in sorted(named.items()) if not _is_module(n)]
    assert not bad, "not modules of firmware/: " + ", ".join(bad)


def test_the_stress_boot_warms_every_module_loaded_on_demand():
    missing = _needed() - set(_warm())
    assert not missing, "loaded on demand but not in ui/nav.py WARM: %s" % sorted(missing)


def test_an_ai_search_has_every_on_demand_module_but_the_table_unloaded():
    lists = _lists()
    missing = set(lists["ui/nav.py WARM"]) - {"ui.table", "ui.linktable"} - set(lists["App.release"])
    assert not missing, "App.release keeps %s loaded during the AI's search" % sorted(missing)


def test_leaving_the_table_unloads_all_its_code():
    """nav.begin runs App.release, then unload_game: together they drop the table and everything it
    loads on demand, and the AI's glue."""
    lists = _lists()
    gone = set(lists["App.release"]) | set(lists["ui/nav.py unload_game"])
    missing = (_needed("ui/table.py") | {"ui.table", "ui.brain"}) - gone
    assert not missing, "still loaded at the menus: %s" % sorted(missing)


def test_the_pause_menu_unloads_the_tables_drawing_and_turn_code():
    """All the table loads on demand but the pause menu itself and what its pages use: the save code,
    the words of a move (Undo's note; ui/pause.py imports them)."""
    missing = _needed("ui/table.py") - {"ui.pause", "savegame", "ui.words"} - set(_lists()["Pause.enter"])
    assert not missing, "Pause.enter keeps %s loaded" % sorted(missing)
