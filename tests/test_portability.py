"""The portability check (and the MicroPython lane) catch what a Pico would reject."""

import textwrap
from pathlib import Path

import pytest

import mplane
from lunchbox import cli
from lunchbox.portability import check_paths, check_source


def rules(src):
    return check_source(textwrap.dedent(src), "shared_rules/x.py", rules_code=True)


def rule_ids(src):
    return [f.rule for f in rules(src)]


def make_tree(tmp_path, name, src):
    pkg = tmp_path / "shared_rules"
    pkg.mkdir(exist_ok=True)
    (pkg / "__init__.py").write_text("")
    (pkg / name).write_text(textwrap.dedent(src))
    return pkg


@pytest.mark.parametrize(
    "name, src, rule, words",
    [
        ("dc.py", "from dataclasses import dataclass\n@dataclass\nclass A:\n    x: int = 0\n",
         "forbidden-import", "dataclass"),
        ("order.py", "def first(d):\n    d = {'a': 1, 'b': 2}\n    for k in d:\n        return k\n",
         "dict-order", "dict or set"),
        ("ljust.py", "def pad(s):\n    return s.ljust(8)\n", "str-method", "ljust"),
        ("matchy.py", "def f(x):\n    match x:\n        case 1:\n            return 2\n", "syntax",
         "match"),
    ],
)
def test_command_fails_naming_file_and_problem(tmp_path, capsys, name, src, rule, words):
    pkg = make_tree(tmp_path, name, src)
    code = cli.main(["portability", str(pkg)])
    out = capsys.readouterr()
    assert code == 1
    line = [x for x in out.out.splitlines() if name in x]
    assert line, out.out
    assert "[{}]".format(rule) in line[0] and words in line[0]
    assert "problem(s)" in out.err


def test_module_that_does_not_compile_on_micropython_fails_the_lane(tmp_path):
    pkg = make_tree(tmp_path, "matchy.py",
                    "def f(x):\n    match x:\n        case 1:\n            return 2\n")
    result = mplane.run(libs=[pkg], imports=["shared_rules.matchy"])
    assert "shared_rules.matchy" in result.failed
    tb = result.failed["shared_rules.matchy"]
    assert "/lib/shared_rules/matchy.py" in tb and "SyntaxError" in tb


def test_lane_reports_a_failing_portable_test_with_micropython_traceback(tmp_path):
    tests = tmp_path / "t"
    tests.mkdir()
    (tests / "test_bad.py").write_text("def test_ok():\n    pass\n\n"
                                       "def test_no():\n    assert 1 == 2, 'nope'\n")
    result = mplane.run(libs=[], tests_dir=tests, module="test_bad")
    assert result.passed == ["test_ok"]
    assert "AssertionError" in result.failed["test_no"] and "nope" in result.failed["test_no"]


def test_clean_module_passes():
    assert rules("""
        try:
            from typing import List
        except ImportError:
            pass
        from shared_rules._compat import const
        X = const(3)
        def f(d, items):
            total = sum(v for v in d.values())
            for k in sorted(d):
                total += d[k]
            n = int.from_bytes(b"ab", "big")
            return "{:>4}".format(total + n + len(items) // 2)
    """) == []


@pytest.mark.parametrize("src, rule", [
    ("import enum\n", "forbidden-import"),
    ("import abc\n", "forbidden-import"),
    ("from functools import reduce\n", "forbidden-import"),
    ("import itertools\n", "forbidden-import"),
    ("import random\n", "forbidden-import"),
    ("from typing import List\n", "typing-outside-try"),
    ("from collections import defaultdict\n", "forbidden-import"),
    ("import time\n", "forbidden-import"),
    ("x = 'a'.zfill(3)\n", "str-method"),
    ("x = 'a'.removeprefix('b')\n", "str-method"),
    ("x = (5).bit_length()\n", "int-method"),
    ("x = int.from_bytes(b'a', byteorder='big')\n", "int-bytes"),
    ("x = int.from_bytes(b'a')\n", "int-bytes"),
    ("x = (5).to_bytes(2, 'big', True)\n", "int-bytes"),
    ("x = (5).to_bytes(2, 'big', signed=True)\n", "int-bytes"),
    ("y = 1\nx = f'{y=}'\n", "fstring"),
    ("y = 1\nx = f'{y!a}'\n", "fstring"),
    ("import struct\nx = struct.pack('<B H', 1, 2)\n", "struct-format"),
    ("x = 1.5\n", "float"),
    ("x = 3 / 2\n", "float"),
    ("s = {1, 2}\nx = list(s)\n", "dict-order"),
    ("d = {}\nx = [k for k in d]\n", "dict-order"),
    ("def f(d):\n    return [v for v in d.items()]\n", "dict-order"),
    ("def f(d):\n    for k, v in d.items():\n        print(k)\n", "dict-order"),
    ("s = set()\nx = s.pop()\n", "dict-order"),
    ("x = ','.join({'a': 1})\n", "dict-order"),
    ("class A:\n    def __init__(self):\n        self.m = {}\n    def f(self):\n"
     "        return [k for k in self.m]\n", "dict-order"),
])
def test_each_rule(src, rule):
    assert rule in rule_ids(src), rules(src)


def test_order_free_uses_and_equality_operators_pass():
    assert rule_ids("""
        def f(d, s, x):
            a = sorted(d.items())
            b = max(v for v in d.values())
            c = {k: 1 for k in s}
            e = len(set(s))
            ok = f"{x == 1}" + f"{x!r}" + f"{{x=}}"
            return a, b, c, e, ok
    """) == []


def test_engine_serialization_methods_are_not_int_methods():
    assert rule_ids("def f(state, cls, data):\n"
                    "    return state.to_bytes(), cls.from_bytes(data)\n") == []


def test_suppression_comment():
    assert rule_ids("def f(d):\n"
                    "    for k in d.keys():  # portable: ok order-free count\n"
                    "        pass\n") == []


def test_floats_allowed_outside_rules():
    assert check_source("x = 0.5\n", "firmware/companion/store/x.py", rules_code=False) == []


def test_missing_path_is_reported(tmp_path):
    files, findings = check_paths([tmp_path / "nope"])
    assert files == [] and findings[0].rule == "missing"


def test_the_project_itself_is_portable():
    files, findings = check_paths(mplane.PORTABLE_CODE)
    assert files
    assert not findings, "\n".join(str(f) for f in findings)


def _import_graph(package_dir, prefix, top_level_only):
    """{module: {modules it imports}} for the .py files of one package (relative imports
    resolved), counting imports inside functions too unless ``top_level_only``."""
    import ast

    def name_of(path):
        rel = path.relative_to(package_dir).with_suffix("")
        return ".".join([prefix] + [p for p in rel.parts if p != "__init__"])

    paths = sorted(package_dir.rglob("*.py"))
    known = {name_of(p) for p in paths}
    graph = {}
    for path in paths:
        name = name_of(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        nodes = tree.body if top_level_only else list(ast.walk(tree))
        deps = set()
        for node in nodes:
            if isinstance(node, ast.Import):
                deps.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = name.split(".")[:len(name.split(".")) - node.level +
                                          (1 if path.name == "__init__.py" else 0)]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module
                subs = {mod + "." + a.name for a in node.names}
                # "from . import strict" needs the submodule only: its package is
                # already loaded as its parent, so that is no edge back to the package
                deps.update(subs & known if subs <= known else subs | {mod})
        graph[name] = deps
    return {m: {d for d in deps if d in graph and d != m} for m, deps in graph.items()}


def _cycles(graph):
    found = []
    state = {}

    def visit(m, stack):
        state[m] = 1
        stack.append(m)
        for d in sorted(graph[m]):
            if state.get(d) == 1:
                found.append(stack[stack.index(d):] + [d])
            elif d not in state:
                visit(d, stack)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [])
    return found


def test_no_import_circles():
    """The rules import one way (a module needing another's constants imports them from a
    third place, never back), imports inside functions included; so do the firmware's
    modules (the app is given its first screen, it does not import the menu)."""
    root = Path(__file__).resolve().parent.parent
    assert _cycles(_import_graph(root / "shared_rules", "shared_rules", False)) == []
    firmware = _import_graph(root / "firmware" / "companion", "companion", False)
    assert _cycles(firmware) == []
    assert "companion.app.menu" not in firmware["companion.app.loop"]
    host = _import_graph(root / "host" / "lunchbox", "lunchbox", False)
    assert "lunchbox.sim.strict" in host["lunchbox.sim.hw"]  # the graph sees the host
    assert _cycles(host) == []


def test_the_import_graph_sees_a_circle_through_a_package(tmp_path):
    """A submodule that imports a name its package's __init__ defines, while the package
    imports the submodule, is a circle; importing a sibling submodule by name is not."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from .a import x\nVALUE = 1\n")
    (pkg / "a.py").write_text("from . import b\nx = 2\n")
    (pkg / "b.py").write_text("y = 3\n")
    assert _cycles(_import_graph(pkg, "pkg", False)) == []
    (pkg / "b.py").write_text("from . import VALUE\n")
    assert _cycles(_import_graph(pkg, "pkg", False)) == [["pkg", "pkg.a", "pkg.b", "pkg"]]
