"""The repository carries its own rules and scenario format, and no document sends a reader outside it.

docs/RULES.md and docs/SCENARIOS.md are the project's copies of the specification it is given; where
that specification sits beside the checkout (as it does for the team), the copies must say the same.
"""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEC = os.path.join(os.path.dirname(ROOT), "shared")
COPIES = ("RULES.md", "SCENARIOS.md")
_LINK = re.compile(r"\]\(([^)#\s]+)")            # markdown link targets
_PATH = re.compile(r"`(\.\./[^`\s]*)`")          # paths in backticks that climb out of a folder


def _body(path):
    """The text after the leading HTML comment that says where the copy comes from."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if text.startswith("<!--"):
        text = text[text.index("-->") + 3:].lstrip("\n")
    return text


def _docs():
    yield os.path.join(ROOT, "README.md")
    for name in sorted(os.listdir(os.path.join(ROOT, "docs"))):
        if name.endswith(".md"):
            yield os.path.join(ROOT, "docs", name)


def test_the_rules_and_the_scenario_format_travel_with_the_repo():
    for name in COPIES:
        body = _body(os.path.join(ROOT, "docs", name))
        assert body.startswith("# "), f"docs/{name} has no title"
        assert len(body) > 2000, f"docs/{name} is too short to be the whole text"
        spec = os.path.join(SPEC, name)
        if os.path.exists(spec):          # the team's checkout: the copy must not drift
            with open(spec, encoding="utf-8") as f:
                assert body == f.read(), f"docs/{name} differs from the specification: copy it again"


def test_no_document_points_outside_the_repo():
    outside = []
    for path in _docs():
        with open(path, encoding="utf-8") as f:
            text = f.read()
        here = os.path.dirname(path)
        for target in _LINK.findall(text) + _PATH.findall(text):
            if "://" in target or target.startswith("mailto:"):
                continue
            full = os.path.normpath(os.path.join(here, target))
            if not (full == ROOT or full.startswith(ROOT + os.sep)):
                outside.append(f"{os.path.relpath(path, ROOT)}: {target}")
            elif not os.path.exists(full) and not target.startswith(("build/", "out/", ".venv")):
                outside.append(f"{os.path.relpath(path, ROOT)}: {target} (no such file)")
    assert not outside, "links that leave the repo or lead nowhere:\n" + "\n".join(outside)
