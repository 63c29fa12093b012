"""Drive the real MicroPython interpreter (WebAssembly port from npm) from pytest."""

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "tests" / "mp" / "runner.mjs"
PORTABLE_TESTS = ROOT / "tests" / "portable"
# What the lane copies into the interpreter (as /lib/<name>) ...
PORTABLE_LIBS = (ROOT / "shared_rules", ROOT / "firmware" / "companion")
# ... and what of it is portable, so imported there and checked by `make portability`: the
# Makefile's PORTABLE, the one list (the rest of companion/ needs displayio and board, which
# only CircuitPython and Blinka have).


def _portable_code():
    text = (ROOT / "Makefile").read_text()
    start = text.index("PORTABLE :=") + len("PORTABLE :=")
    end = start
    while True:  # the variable's lines, each continued by a backslash
        end = text.index("\n", end)
        if text[end - 1] != "\\":
            break
        end += 1
    return tuple(ROOT / p for p in text[start:end].replace("\\", " ").split())


PORTABLE_CODE = _portable_code()
# A Pico running CircuitPython has about 190 KB free; run with little more than that so code
# that needs a PC's heap fails here, not at the table. The port grows its heap on demand
# (MICROPY_GC_SPLIT_HEAP_AUTO): only ``bounded=True`` (runner.mjs --bounded, which refuses the
# growth) makes the heap size a real limit. Its collector frees nothing allocated during the
# interpreter call it runs in, so a bounded run suits only work split into short calls (the
# heap budget bench); the portable tests run unbounded.
DEFAULT_HEAP = 256 * 1024


class LaneResult:
    def __init__(self, output, returncode):
        self.output = output
        self.returncode = returncode
        self.passed = []
        self.failed = {}  # name -> MicroPython traceback
        self.empty = False
        name, lines = None, []
        for line in output.splitlines():
            if line.startswith("@@PASS "):
                self.passed.append(line[7:])
            elif line.startswith("@@FAIL ") or line.startswith("@@IMPORTFAIL "):
                name, lines = line.split(" ", 1)[1], []
            elif line == "@@END" and name is not None:
                self.failed[name] = "\n".join(lines)
                name = None
            elif line.startswith("@@EMPTY "):
                self.empty = True
            elif name is not None:
                lines.append(line)
        if "@@CRASH" in output or returncode not in (0,):
            self.failed.setdefault("<interpreter>", output)

    def report(self):
        return "\n\n".join(
            "{} failed on MicroPython:\n{}".format(n, tb) for n, tb in sorted(self.failed.items())
        )


def node():
    exe = shutil.which("node")
    if exe is None:
        raise RuntimeError("Node.js is needed for the MicroPython lane "
                           "(make test installs the rest)")
    return exe


def run(libs=PORTABLE_LIBS, tests_dir=None, module=None, imports=(), code=None, heap=DEFAULT_HEAP,
        timeout=600, bounded=False):
    cmd = [node(), str(RUNNER), "--heap", str(heap)]
    if bounded:
        cmd.append("--bounded")
    for lib in libs:
        cmd += ["--lib", str(lib)]
    if tests_dir is not None:
        cmd += ["--tests", str(tests_dir)]
    if module is not None:
        cmd += ["--module", module]
    for name in imports:
        cmd += ["--import", name]
    if code is not None:
        cmd += ["--code", code]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=str(ROOT),
                          env=dict(os.environ))
    return LaneResult(proc.stdout + proc.stderr, proc.returncode)


def portable_modules(code=PORTABLE_CODE):
    """Dotted names of every portable module, as the lane imports them."""
    names = []
    for item in code:
        item = Path(item)
        paths = [item] if item.is_file() else sorted(item.rglob("*.py"))
        top = item.parent
        while (top / "__init__.py").exists():
            top = top.parent
        for path in paths:
            if "__pycache__" in path.parts:
                continue
            rel = path.relative_to(top).with_suffix("")
            parts = list(rel.parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            names.append(".".join(parts))
    return names
