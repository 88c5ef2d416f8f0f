"""MicroPython folds `_NAME = const(...)` into the code that follows it and keeps no global: a use
above the definition (in a function defined earlier) or from another module compiles fine and
fails at run time with a NameError. CPython cannot see this, so check the source."""
import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sources():
    for top in ("firmware", "boards"):
        for d, _, files in os.walk(os.path.join(ROOT, top)):
            for f in files:
                if f.endswith(".py"):
                    yield os.path.join(d, f)


def private_consts(tree):
    out = {}
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id.startswith("_") and isinstance(node.value, ast.Call)
                and getattr(node.value.func, "id", None) == "const"):
            out.setdefault(node.targets[0].id, node.lineno)
    return out


def test_private_consts_defined_before_use_and_never_imported():
    bad = []
    trees = {p: ast.parse(open(p, encoding="utf-8").read()) for p in sources()}
    private = set()
    for path, tree in trees.items():
        consts = private_consts(tree)
        private |= set(consts)
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id in consts and node.lineno < consts[node.id]:
                bad.append("%s:%d uses %s before its const() on line %d"
                           % (os.path.relpath(path, ROOT), node.lineno, node.id, consts[node.id]))
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                for a in node.names:
                    if a.name in private and a.name.startswith("_"):
                        bad.append("%s:%d imports %s, a folded const" % (os.path.relpath(path, ROOT),
                                                                         node.lineno, a.name))
    assert not bad, "\n".join(bad)
