"""The UI's modules import one way (docs/UI.md, "Modules"): no module imports one that imports it
back, directly or around a circle, counting imports inside functions and the modules a screen loads
through the app by name (`app.need("ui.pick")`). The app (the loop) and the navigation are at the
top: no screen imports them; screens reach each other through the app."""
import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UI = os.path.join(ROOT, "firmware", "ui")


def edges():
    """{module: {module it imports or loads}} among firmware/ui/*.py (names as "ui.x")."""
    out = {}
    for f in sorted(os.listdir(UI)):
        if not f.endswith(".py") or f == "__init__.py":
            continue
        me = "ui." + f[:-3]
        deps = out.setdefault(me, set())
        tree = ast.parse(open(os.path.join(UI, f), encoding="utf-8").read())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.level == 1:
                    base = "ui." + node.module if node.module else "ui"
                else:
                    base = node.module or ""
                if base == "ui":
                    deps.update("ui." + a.name for a in node.names)
                elif base.startswith("ui."):
                    deps.add(base)
            elif isinstance(node, ast.Import):
                deps.update(a.name for a in node.names if a.name.startswith("ui."))
            elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "need" and node.args:
                a = node.args[0]
                if isinstance(a, ast.Constant) and str(a.value).startswith("ui."):
                    deps.add(a.value)
        deps.discard(me)
    return out


def test_ui_imports_point_one_way():
    g = edges()
    assert len(g) >= 15 and "ui.table" in g["ui.nav"]
    # depth-first search for a circle
    state = {}
    path = []

    def visit(m):
        state[m] = 1
        path.append(m)
        for d in sorted(g.get(m, ())):
            if state.get(d) == 1:
                raise AssertionError("import circle: " + " -> ".join(path[path.index(d):] + [d]))
            if not state.get(d):
                visit(d)
        path.pop()
        state[m] = 2

    for m in sorted(g):
        if not state.get(m):
            visit(m)


def test_no_screen_imports_the_app_or_the_navigation():
    g = edges()
    for m, deps in sorted(g.items()):
        if m in ("ui.app", "ui.nav"):
            continue
        assert "ui.app" not in deps and "ui.nav" not in deps, m
    assert g["ui.app"] >= {"ui.nav", "ui.screen", "ui.gfx"}


def _imported(path):
    """Top-level package names a source file imports (inside functions too)."""
    out = set()
    for node in ast.walk(ast.parse(open(path, encoding="utf-8").read())):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            out.update(a.name.split(".")[0] for a in node.names)
    return out


def test_the_hardware_layer_never_imports_the_ui_and_the_device_code_never_imports_boards():
    """Boards (pins, buses, drivers) sit on keys.py, below the UI: no board module imports `ui`
    but boards/web.py, the browser's entry point (it starts the App, as main.py does on a device).
    Nothing in firmware/ but main.py (which picks the board) imports `boards`."""
    bad = []
    boards = os.path.join(ROOT, "boards")
    for f in sorted(os.listdir(boards)):
        if f.endswith(".py") and f != "web.py" and "ui" in _imported(os.path.join(boards, f)):
            bad.append("boards/" + f)
    fw = os.path.join(ROOT, "firmware")
    for d, _, files in os.walk(fw):
        for f in files:
            p = os.path.join(d, f)
            if f.endswith(".py") and os.path.relpath(p, fw) != "main.py" and "boards" in _imported(p):
                bad.append(os.path.relpath(p, ROOT))
    assert not bad, "imports against the layers: " + ", ".join(bad)
