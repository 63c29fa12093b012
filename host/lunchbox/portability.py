"""Static portability check for the code that must run on CircuitPython and MicroPython.

The MicroPython WebAssembly port used in the test lane is more permissive than a Pico, so this
check enforces what it would let through (ARCHITECTURE.md, "Portability rules"). Each finding
names file, line and rule. A line that is fine despite a finding says so with a trailing
``# portable: ok <why>`` comment.

    python -m lunchbox.portability shared_rules firmware/companion/store
"""

import ast
import io
import os
import re
import sys
import tokenize
from pathlib import Path

FORBIDDEN_MODULES = {
    "dataclasses": "no dataclasses on CircuitPython/MicroPython: use a class with __slots__",
    "enum": "no enum module: use const() integers",
    "abc": "no abc module on a Pico",
    "functools": "no functools on a Pico",
    "itertools": "no itertools on a Pico",
    "random": "random differs between runtimes: use shared_rules.rng.Rng",
}
# Modules that are I/O or a clock: not allowed in the rules (firmware core may use them).
RULES_ONLY_FORBIDDEN = {
    "time": "no clock in rules: pass times in",
    "os": "no I/O in rules",
    "sys": "no I/O in rules",
}
COLLECTIONS_OK = {"namedtuple", "OrderedDict", "deque"}
MISSING_STR_METHODS = (
    "ljust rjust zfill title capitalize isalnum removeprefix removesuffix center casefold "
    "swapcase expandtabs isdecimal isnumeric isidentifier isprintable istitle format_map "
    "maketrans translate"
).split()
# Calls whose result does not depend on the order they consume an iterable in.
ORDER_FREE = {"sorted", "sum", "len", "min", "max", "any", "all", "set", "frozenset", "dict"}
STRUCT_FUNCS = {"pack", "unpack", "calcsize", "pack_into", "unpack_from", "Struct"}
SUPPRESS = "# portable: ok"


class Finding:
    __slots__ = ("path", "line", "rule", "message")

    def __init__(self, path, line, rule, message):
        self.path, self.line, self.rule, self.message = path, line, rule, message

    def __str__(self):
        # a file name that is not UTF-8 (found in a folder) is shown with \x escapes
        path = os.fsencode(str(self.path)).decode("utf-8", "backslashreplace")
        return "{}:{}: [{}] {}".format(path, self.line, self.rule, self.message)


def _call_name(node):
    f = node.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute):
        return f.attr
    return None


class _Checker(ast.NodeVisitor):
    def __init__(self, path, rules_code):
        self.path = path
        self.rules_code = rules_code
        self.findings = []
        self.parents = {}
        self.try_import_error_depth = 0
        # Names (and self.attrs) bound to a dict or set somewhere in the file: a loop over them
        # gives a different order on a Pico.
        self.unordered_names = set()

    def add(self, node, rule, message):
        self.findings.append(Finding(self.path, getattr(node, "lineno", 0), rule, message))

    # ---- setup -------------------------------------------------------------------------
    def run(self, tree):
        for parent in ast.walk(tree):
            for child in ast.iter_child_nodes(parent):
                self.parents[child] = parent
        for node in ast.walk(tree):
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                if _is_unordered_value(node.value):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for t in targets:
                        key = _target_key(t)
                        if key:
                            self.unordered_names.add(key)
        self.visit(tree)

    # ---- imports -------------------------------------------------------------------------
    def visit_Try(self, node):
        catches_import_error = any(
            h.type is None
            or any(
                isinstance(n, ast.Name) and n.id in ("ImportError", "ModuleNotFoundError")
                for n in ast.walk(h.type)
            )
            for h in node.handlers
        )
        if catches_import_error:
            self.try_import_error_depth += 1
            for stmt in node.body:
                self.visit(stmt)
            self.try_import_error_depth -= 1
            for part in (node.handlers, node.orelse, node.finalbody):
                for stmt in part:
                    self.visit(stmt)
        else:
            self.generic_visit(node)

    def _check_module(self, node, module, names=()):
        top = module.split(".")[0]
        if top in FORBIDDEN_MODULES:
            self.add(node, "forbidden-import",
                     "import {}: {}".format(module, FORBIDDEN_MODULES[top]))
        elif top == "typing" and not self.try_import_error_depth:
            self.add(node, "typing-outside-try",
                     "typing must be imported inside try/except ImportError (no typing on a Pico)")
        elif self.rules_code and top in RULES_ONLY_FORBIDDEN:
            self.add(node, "forbidden-import",
                     "import {}: {}".format(module, RULES_ONLY_FORBIDDEN[top]))
        elif top == "collections":
            for n in names:
                if n not in COLLECTIONS_OK:
                    self.add(node, "forbidden-import",
                             "collections.{} does not exist on CircuitPython".format(n))

    def visit_Import(self, node):
        for alias in node.names:
            self._check_module(node, alias.name)

    def visit_ImportFrom(self, node):
        if node.module and node.level == 0:
            self._check_module(node, node.module, [a.name for a in node.names])

    # ---- syntax MicroPython lacks ----------------------------------------------------------
    def visit_Match(self, node):
        self.add(node, "syntax", "the match statement does not compile on MicroPython")
        self.generic_visit(node)

    def visit_TryStar(self, node):
        self.add(node, "syntax", "except* does not compile on MicroPython")
        self.generic_visit(node)

    def visit_FormattedValue(self, node):
        if node.conversion == ord("a"):
            self.add(node, "fstring", "f-string !a conversion is not supported on MicroPython")
        self.generic_visit(node)

    # ---- floats in rules -------------------------------------------------------------------
    def visit_Constant(self, node):
        if self.rules_code and isinstance(node.value, float):
            self.add(node, "float",
                     "float literal {!r}: no floats in rules (30-bit on CircuitPython)"
                     .format(node.value))

    def visit_BinOp(self, node):
        if self.rules_code and isinstance(node.op, ast.Div):
            self.add(node, "float", "true division '/' makes a float: use // in rules")
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        if self.rules_code and isinstance(node.op, ast.Div):
            self.add(node, "float", "true division '/=' makes a float: use //= in rules")
        self.generic_visit(node)

    # ---- calls -------------------------------------------------------------------------------
    def visit_Call(self, node):
        name = _call_name(node)
        f = node.func
        if isinstance(f, ast.Attribute):
            if name in MISSING_STR_METHODS:
                self.add(node, "str-method",
                         "str.{}() does not exist on CircuitPython: use a format spec".format(name))
            elif name == "bit_length":
                self.add(node, "int-method", "int.bit_length() does not exist on CircuitPython")
            elif (name == "from_bytes" and isinstance(f.value, ast.Name) and f.value.id == "int") \
                    or (name == "to_bytes" and (node.args or node.keywords)):
                # An engine's own to_bytes()/from_bytes(data) are not int's: int.to_bytes always
                # takes a length, and from_bytes is called on int itself.
                self._check_int_bytes(node, name)
            elif name in STRUCT_FUNCS and node.args:
                fmt = node.args[0]
                if isinstance(fmt, ast.Constant) and isinstance(fmt.value, (str, bytes)):
                    text = fmt.value if isinstance(fmt.value, str) else fmt.value.decode("latin-1")
                    if any(c.isspace() for c in text):
                        self.add(node, "struct-format",
                                 "struct format {!r} has spaces: MicroPython rejects them"
                                 .format(text))
            elif name in ("pop",) and not node.args and self._is_unordered(f.value):
                self.add(node, "dict-order", "set.pop() takes an arbitrary element on a Pico")
            elif name == "popitem":
                self.add(node, "dict-order", "dict.popitem() order differs on a Pico")
            if name == "dataclass":
                self.add(node, "forbidden-import", "dataclasses are not available on a Pico")
        if name in ("list", "tuple", "enumerate", "iter", "zip", "reversed") and isinstance(
            f, ast.Name
        ):
            for arg in node.args:
                if self._is_unordered(arg):
                    self.add(node, "dict-order",
                             "{}() over a dict or set: its order differs on a Pico; use sorted()"
                             .format(name))
        if isinstance(f, ast.Attribute) and f.attr == "join" and node.args:
            if self._is_unordered(node.args[0]):
                self.add(node, "dict-order", "join() over a dict or set: order differs on a Pico")
        self.generic_visit(node)

    def _check_int_bytes(self, node, name):
        if node.keywords:
            self.add(node, "int-bytes",
                     "int.{}(): keyword arguments are not supported on a Pico; pass them "
                     "positionally (and unsigned only)".format(name))
        if len(node.args) < 2:
            self.add(node, "int-bytes",
                     "int.{}() needs its byte order given positionally, e.g. (b, \"big\")"
                     .format(name))
        elif len(node.args) > 2:
            self.add(node, "int-bytes", "int.{}(): signed conversion is not supported on a Pico"
                     .format(name))

    def visit_ClassDef(self, node):
        for dec in node.decorator_list:
            target = dec.func if isinstance(dec, ast.Call) else dec
            if (isinstance(target, ast.Name) and target.id == "dataclass") or (
                isinstance(target, ast.Attribute) and target.attr == "dataclass"
            ):
                self.add(node, "forbidden-import", "@dataclass is not available on a Pico")
        self.generic_visit(node)

    # ---- iteration order --------------------------------------------------------------------
    def _is_unordered(self, node):
        if isinstance(node, (ast.Dict, ast.Set, ast.DictComp, ast.SetComp)):
            return True
        if isinstance(node, ast.Call):
            name = _call_name(node)
            if isinstance(node.func, ast.Attribute) and name in ("keys", "values", "items") \
                    and not node.args:
                return True
            if isinstance(node.func, ast.Name) and name in ("set", "frozenset", "dict"):
                return True
            if isinstance(node.func, ast.Attribute) and name in (
                "union", "intersection", "difference", "symmetric_difference"
            ):
                return True
        key = _target_key(node)
        return key is not None and key in self.unordered_names

    def _iteration_is_order_free(self, node):
        """A comprehension whose whole result goes straight into sorted()/sum()/... is fine."""
        parent = self.parents.get(node)
        if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) \
                and parent.func.id in ORDER_FREE and node in parent.args:
            return True
        return isinstance(node, (ast.SetComp, ast.DictComp))

    def visit_For(self, node):
        if self._is_unordered(node.iter):
            self.add(node, "dict-order",
                     "loop over a dict or set: iteration order differs on a Pico; loop over "
                     "sorted(...) or a list")
        self.generic_visit(node)

    def _visit_comp(self, node):
        if not self._iteration_is_order_free(node):
            for gen in node.generators:
                if self._is_unordered(gen.iter):
                    self.add(node, "dict-order",
                             "comprehension over a dict or set builds an order that differs on a "
                             "Pico; iterate sorted(...)")
        self.generic_visit(node)

    visit_ListComp = _visit_comp
    visit_GeneratorExp = _visit_comp
    visit_SetComp = _visit_comp
    visit_DictComp = _visit_comp


def _is_unordered_value(value):
    if isinstance(value, (ast.Dict, ast.Set, ast.DictComp, ast.SetComp)):
        return True
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in (
        "dict", "set", "frozenset"
    )


def _target_key(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.value.id + "." + node.attr
    return None


_FSTRING_PREFIX = re.compile(r"^[rRbBuU]*[fF][rRbBuU]*['\"]")


def _fstring_equals(source, path):
    """f"{x=}" is not in MicroPython; the AST hides it, so look at the tokens."""
    out = []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return out
    for tok in tokens:
        if tok.type != tokenize.STRING or not _FSTRING_PREFIX.match(tok.string):
            continue
        for expr in _fstring_fields(tok.string):
            stripped = expr.rstrip()
            if stripped.endswith("=") and not stripped.endswith(("==", "!=", "<=", ">=")):
                out.append(Finding(path, tok.start[0], "fstring",
                                   "f-string '=' specifier ({{{}}}) is not supported on MicroPython"
                                   .format(stripped)))
    return out


def _fstring_fields(text):
    """The expression part of each top-level {field} of an f-string literal."""
    fields, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == "{":
            if i + 1 < n and text[i + 1] == "{":
                i += 2
                continue
            depth, j, start = 1, i + 1, i + 1
            end_expr = None
            while j < n and depth:
                ch = text[j]
                if ch in "{[(":
                    depth += 1
                elif ch in "}])":
                    depth -= 1
                elif (depth == 1 and end_expr is None and ch == "!" and j + 1 < n
                      and text[j + 1] != "="):
                    end_expr = j
                elif depth == 1 and end_expr is None and ch == ":":
                    end_expr = j
                j += 1
            fields.append(text[start:(end_expr if end_expr is not None else j - 1)])
            i = j
        else:
            i += 1
    return fields


def check_source(source, path="<string>", rules_code=True):
    """Findings for one module's source. ``rules_code`` adds the rules-only checks (no floats,
    no clock, no I/O)."""
    try:
        tree = ast.parse(source, filename=str(path))
    except SyntaxError as e:
        return [Finding(path, e.lineno or 0, "syntax", "does not compile: {}".format(e.msg))]
    checker = _Checker(path, rules_code)
    checker.run(tree)
    findings = checker.findings + _fstring_equals(source, path)
    lines = source.splitlines()
    kept = [
        f for f in findings
        if not (0 < f.line <= len(lines) and SUPPRESS in lines[f.line - 1])
    ]
    kept.sort(key=lambda f: (f.line, f.rule, f.message))
    return kept


def is_rules_path(path):
    return "shared_rules" in Path(path).parts


def check_paths(paths):
    findings = []
    files = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            files.extend(sorted(q for q in p.rglob("*.py") if "__pycache__" not in q.parts))
        elif p.exists():
            files.append(p)
        else:
            findings.append(Finding(p, 0, "missing", "no such file or folder"))
    for f in files:
        source, why = read_source(f)
        if why:
            findings.append(Finding(f, 0, "unreadable", why))
        else:
            findings.extend(check_source(source, f, is_rules_path(f)))
    return files, findings


MAX_SOURCE = 1 << 20  # the board's whole flash is 1-4 MB; a module is a few KiB


def read_source(path):
    """``(text, None)``, or ``(None, why)`` for what is not a readable UTF-8 regular file. A FIFO
    or a device is never opened (opening a FIFO waits for a writer, reading a device may never
    end)."""
    import stat

    try:
        # O_NONBLOCK: a FIFO swapped in after a look would still not wait for a writer
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        return None, "cannot read: {}".format(e.strerror or e)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None, "not a regular file (a FIFO, a device or a socket): not read"
        if st.st_size > MAX_SOURCE:
            return None, "{} bytes: no source for the board is over {} KiB; not read".format(
                st.st_size, MAX_SOURCE // 1024)
        with os.fdopen(os.dup(fd), "rb") as f:
            data = f.read(MAX_SOURCE + 1)
    except OSError as e:
        return None, "cannot read: {}".format(e.strerror or e)
    finally:
        os.close(fd)
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        return None, "not UTF-8 (byte {:#04x} on line {}): the board reads source as " \
                     "UTF-8".format(data[e.start], line)


def register(parser):
    parser.add_argument("paths", nargs="+", help="files or folders of portable code")


def run(args):
    from .errors import LunchboxError

    files, findings = check_paths(args.paths)
    for f in findings:
        print(f)
    if findings:
        unread = all(f.rule in ("missing", "unreadable") for f in findings)
        raise LunchboxError("{} problem(s) in {} file(s)".format(len(findings), len(files)),
                            hint="give readable UTF-8 source files or folders" if unread else
                            "see ARCHITECTURE.md 'Portability rules'; mark a line that is "
                            "fine with '# portable: ok <why>'")
    print("portability: {} file(s) checked, no problems".format(len(files)))
    return 0


def main(argv=None):
    import argparse

    from .errors import LunchboxError

    parser = argparse.ArgumentParser(prog="python -m lunchbox.portability")
    register(parser)
    args = parser.parse_args(argv)
    try:
        return run(args)
    except LunchboxError as e:
        print("portability: {}".format(e), file=sys.stderr)
        if e.hint:
            print("  fix: {}".format(e.hint), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
