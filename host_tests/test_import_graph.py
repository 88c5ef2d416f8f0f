"""The import graph of the code, read from the source (ast, nothing is imported): imports point one way.

- no circle among the modules of firmware/ + boards/ (the device's code), nor among those of tools/;
- firmware/ and boards/ never import tools/ or host_tests/, and tools/ never imports host_tests/
  (the harness the tests share lives in tools/proofs/harness/);
- no module edits sys.path: the import roots (the repository and firmware/, tools/paths.py) are set
  once, by the venv's .pth, host_tests/conftest.py and the environment of each subprocess. Only entry
  points may: `__main__.py` files and the scripts in ENTRY_SCRIPTS.

Every import counts, a lazy one inside a function too: it is a dependency all the same. Relative
imports are resolved against the importing module's package. The MicroPython side of the UI harness
(tools/proofs/harness/) and the emulated Pico's scripts (tools/emu/scripts/) run with their folder on
MICROPYPATH (the launcher sets it) or copied to the device's root, and import each other by plain
names: those resolve to the sibling first, then to the other such folder.
"""
import ast
import os


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# (folder, the module name prefix of its files)
DEVICE = (("firmware", ""), ("boards", "boards"))
TOOLS = (("tools", "tools"),)
FLAT_FOLDERS = ("tools/proofs/harness", "tools/emu/scripts")   # siblings imported by plain names
# Scripts run by path (not as a module) that set up their own imports: the MicroPython runner of the
# portable tests (it puts the compiled firmware and tests first, ahead of its own folder), and the
# scenario format's replay command, which any python3 runs without the venv's roots.
ENTRY_SCRIPTS = ("host_tests/portable/run.py", "tools/replay.py")
CONFTEST = "host_tests/conftest.py"


def py_files(folder):
    for base, dirs, files in os.walk(os.path.join(ROOT, folder)):
        dirs[:] = sorted(d for d in dirs if d not in ("node_modules", "__pycache__")
                         and not d.startswith("."))
        for f in sorted(files):
            if f.endswith(".py"):
                yield os.path.relpath(os.path.join(base, f), ROOT).replace(os.sep, "/")


def module_name(rel, folder, prefix):
    """firmware/ai/hard.py -> ai.hard; boards/__init__.py -> boards; tools/sim/main.py -> tools.sim.main."""
    parts = rel[len(folder) + 1:-3].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(([prefix] if prefix else []) + parts)


def modules(roots):
    """{module name: (path, is a package)} of the folders in `roots`."""
    out = {}
    for folder, prefix in roots:
        for rel in py_files(folder):
            name = module_name(rel, folder, prefix)
            if name:
                out[name] = (rel, rel.endswith("/__init__.py"))
    return out


def imported_names(rel, name, is_pkg):
    """The absolute names `rel` imports (for `from X import a, b`: X.a, X.b and X), each with its line."""
    with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
        tree = ast.parse(f.read(), rel)
    package = name if is_pkg else name.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [([a.name], node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".") if package else []
                base = base[:len(base) - (node.level - 1)] if node.level > 1 else base
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module
            out.append(([mod + "." + a.name for a in node.names] + [mod], node.lineno))
    return out


def resolve(candidates, rel, known):
    """The first candidate that is a known module: a plain name in a flat folder is its sibling first.
    Else a plain name that is some known module's last part (a folder of it put on sys.path by hand:
    the same module under a second name) resolves to that module."""
    folder = rel.rpartition("/")[0]
    for c in candidates:
        if folder in FLAT_FOLDERS and "." not in c:
            for f in (folder,) + FLAT_FOLDERS:      # the device-side modules go on one flat path
                if os.path.exists(os.path.join(ROOT, f, c + ".py")):
                    return "@" + f + "/" + c
        if c in known:
            return c
    plain = candidates[-1]
    if plain.split(".")[0] in _device_tops():    # the firmware's own module (keys, ui, domino, ...)
        return None
    if "." not in plain:
        same = sorted(m for m in known if m.endswith("." + plain))
        if same:
            return same[0]
    return None


def _device_tops():
    """The top-level names the firmware and the boards are imported by (on every root's path)."""
    return set(m.split(".")[0] for m in modules(DEVICE))


def test_the_tools_import_their_own_modules_by_their_package_names():
    """`import cli` beside `from tools import cli` loads one file as two modules: a tool imports
    another by its name in the tools package (the flat folders' siblings aside)."""
    known = modules(TOOLS)
    bad = []
    for name, (rel, is_pkg) in sorted(known.items()):
        for candidates, line in imported_names(rel, name, is_pkg):
            target = resolve(candidates, rel, known)
            if target and not target.startswith("@") and target not in candidates:
                bad.append("%s:%d imports %s as %s" % (rel, line, target, candidates[-1]))
    assert not bad, "\n".join(bad)


def graph(roots):
    """{module: {imported module: line}} among the modules of `roots` (flat siblings as @folder/name)."""
    known = modules(roots)
    flat = {}
    for folder in FLAT_FOLDERS:
        for rel in py_files(folder):
            flat["@" + rel[:-3]] = rel
    g = {}
    for name, (rel, is_pkg) in known.items():
        key = "@" + rel[:-3] if rel.rpartition("/")[0] in FLAT_FOLDERS else name
        edges = g.setdefault(key, {})
        for candidates, line in imported_names(rel, name, is_pkg):
            target = resolve(candidates, rel, known)
            if target and target != key:
                edges.setdefault(target, line)
    return g


def circles(g):
    """The strongly connected components with more than one module (Tarjan), each as sorted names."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in g.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def describe(g, comp):
    return " <-> ".join(comp) + ": " + "; ".join(
        "%s imports %s (line %d)" % (a, b, g[a][b]) for a in comp for b in sorted(g[a]) if b in comp)


def test_no_circles_in_the_device_code():
    g = graph(DEVICE)
    found = circles(g)
    assert not found, "\n".join(describe(g, c) for c in found)


def test_no_circles_in_the_tools():
    g = graph(TOOLS)
    found = circles(g)
    assert not found, "\n".join(describe(g, c) for c in found)


def foreign_imports(roots, banned):
    """[(file, line, name)] of the imports in `roots` whose top-level name is in `banned`."""
    known = modules(roots)
    bad = []
    for name, (rel, is_pkg) in sorted(known.items()):
        for candidates, line in imported_names(rel, name, is_pkg):
            if resolve(candidates, rel, known) is None and candidates[-1].split(".")[0] in banned:
                bad.append((rel, line, candidates[-1]))
    return bad


def host_test_names():
    """What importing the tests' folder looks like: the package name and its modules' plain names
    (a tool that put host_tests/ or a folder of it on sys.path imported them so); not host_tests/fakes/,
    stand-ins named as the device's own modules (machine, ssd1306)."""
    names = {"host_tests"}
    for rel in py_files("host_tests"):
        if not rel.startswith("host_tests/fakes/"):
            names.add(rel.rpartition("/")[2][:-3])
    return names - {"__init__", "conftest"}


def test_the_tools_never_import_the_tests():
    bad = foreign_imports(TOOLS, host_test_names())
    assert not bad, "\n".join("%s:%d imports %s (from host_tests/)" % b for b in bad)


def test_the_device_code_never_imports_the_tools_or_the_tests():
    bad = foreign_imports(DEVICE, host_test_names() | {"tools"})
    assert not bad, "\n".join("%s:%d imports %s" % b for b in bad)


def edits_sys_path(tree):
    """Lines where the module changes sys.path: a call on it (insert, append, ...), an assignment to it
    or to a slice of it."""
    def is_path(n):
        return isinstance(n, ast.Attribute) and n.attr == "path" and isinstance(n.value, ast.Name) \
            and n.value.id == "sys"
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and is_path(node.func.value):
            lines.append(node.lineno)
        elif isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if is_path(t) or (isinstance(t, ast.Subscript) and is_path(t.value)):
                    lines.append(node.lineno)
    return lines


def test_only_entry_points_edit_sys_path():
    bad = []
    for folder in ("firmware", "boards", "tools", "host_tests"):
        for rel in py_files(folder):
            if rel.endswith("/__main__.py") or rel in ENTRY_SCRIPTS or rel == CONFTEST:
                continue
            with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
                tree = ast.parse(f.read(), rel)
            bad += ["%s:%d" % (rel, n) for n in edits_sys_path(tree)]
    assert not bad, "sys.path edited outside an entry point (the roots are set once: tools/paths.py):\n" + \
        "\n".join(bad)


def test_every_tool_folder_runs_as_a_module():
    """Each job folder of tools/ is a package with a `python -m tools.<job>` entry point, and the
    top of tools/ holds only the few modules every job shares, and the scenario format's own command
    (tools/replay.py, named by docs/SCENARIOS.md)."""
    top = sorted(f for f in os.listdir(os.path.join(ROOT, "tools")) if f.endswith(".py"))
    assert top == ["__init__.py", "cli.py", "find_micropython.py", "paths.py", "replay.py"], top
    for job in ("sim", "deploy", "emu", "bench", "arena", "scenarios"):
        assert os.path.exists(os.path.join(ROOT, "tools", job, "__main__.py")), job


# The boards never import the UI (but the browser entry point boards/web.py): test_ui_imports.py.
