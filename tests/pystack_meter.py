"""How deep the firmware's Python frames go on CircuitPython's fixed Python stack, measured
while the real firmware runs in the simulator.

Each frame the firmware (firmware/, shared_rules/) pushes costs what mpy-cross 9.2.2's bytecode
says it costs on the board (tests/mpy_frames.py); ``Meter`` follows every call of a run with
``sys.setprofile`` and keeps the deepest sum, and the stack that made it. The frames the board
has above the simulator's entry point (code.py, main.run, App.run, the lane's trace wrapper)
are added, so the figure is what the test lane's board would hold at that moment.

    with Meter(mpy_cross) as m:
        ...  # drive the simulator
    m.deepest, m.stack  # bytes, [(file, name, bytes)] outermost first
"""

import os
import sys

import mpy_frames

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FW = os.path.join(ROOT, "firmware")
TREES = (FW, os.path.join(ROOT, "shared_rules"))
# CIRCUITPY_PYSTACK_SIZE's default (CircuitPython 9.2: py/circuitpy_mpconfig.h)
PYSTACK_BYTES = 1536
# what the board runs above the simulator's entry points, outermost first: code.py's module,
# main.run, and for a pass of the main loop App.run and the lane's trace wrapper (trace.py)
_CODE = ("code.py", "<module>")
_MAIN = ("companion/app/main.py", "run")
_STEP = ("companion/app/loop.py", "App.step")
_RUN = ("companion/app/loop.py", "App.run")
_TRACED = ("companion/app/trace.py", "attach.traced")
ABOVE = {
    _STEP: (_CODE, _MAIN, _RUN, _TRACED),
    ("companion/app/loop.py", "App.__init__"): (_CODE, _MAIN),
    _MAIN: (_CODE,),
}
# a frame the board has between two the simulator runs: the lane's trace wrappers between the
# main loop and its pass, and between the pass and its refresh (the simulator runs main.run
# without them)
BETWEEN = {(_RUN, _STEP): _TRACED,
           (_STEP, ("companion/app/loop.py", "App.refresh")): ("companion/app/trace.py",
                                                         "attach.traced_refresh")}


def _sources():
    for top in TREES:
        for here, dirs, files in os.walk(top):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for f in files:
                if f.endswith(".py"):
                    yield os.path.join(here, f)


def table(mpy_cross):
    """{(path relative to firmware/ or the repo, "Class.method"): bytes} of every function."""
    out = {}
    for path in _sources():
        rel = os.path.relpath(path, FW if path.startswith(FW + os.sep) else ROOT)
        for name, size in mpy_frames.frames(mpy_cross, path).items():
            out[(rel.replace(os.sep, "/"), name)] = size
    return out


class Meter:
    """``sizes``: table()'s answer, when several meters share one."""

    def __init__(self, mpy_cross, sizes=None):
        self.sizes = table(mpy_cross) if sizes is None else sizes
        self._code = {}  # code object -> (key, bytes), or None for code off the board
        self._cum = {}  # frame -> (bytes from the board's bottom to it, key, parent frame)
        self.deepest = 0
        self.stack = []
        self.unknown = set()
        self.leaves = {}  # function -> (the deepest bytes at a call of it, that stack)
        self.entries = set()  # the outermost firmware frames seen: each must be in ABOVE

    def _key(self, code):
        got = self._code.get(code, False)
        if got is not False:
            return got
        got = None
        path = os.path.abspath(code.co_filename)
        for top in TREES:
            if path.startswith(top + os.sep):
                base = FW if top == FW else ROOT
                rel = os.path.relpath(path, base).replace(os.sep, "/")
                name = "<module>" if code.co_name == "<module>" else \
                    code.co_qualname.replace(".<locals>", "")
                size = self.sizes.get((rel, name))
                if size is None:
                    self.unknown.add((rel, name))  # a name mpy-cross has not: said by check()
                else:
                    got = ((rel, name), size)
                break
        self._code[code] = got
        return got

    def _profile(self, frame, event, _arg):
        if event == "call":
            got = self._key(frame.f_code)
            if got is None:
                return
            parent = frame.f_back
            while parent is not None and parent not in self._cum:
                parent = parent.f_back
            if parent is None:
                self.entries.add(got[0])
                base = sum(self.sizes[k] for k in ABOVE.get(got[0], ()))
            else:
                base = self._cum[parent][0]
                extra = BETWEEN.get((self._cum[parent][1], got[0]))
                if extra is not None:
                    base += self.sizes[extra]
            total = base + got[1]
            self._cum[frame] = (total, got[0], parent)
            if total > self.leaves.get(got[0], (0,))[0]:
                self.leaves[got[0]] = (total, self._walk(frame))
            if total > self.deepest:
                self.deepest = total
                self.stack = self._walk(frame)
        elif event == "return":
            self._cum.pop(frame, None)

    def _walk(self, frame):
        keys = []
        while frame is not None:
            total, key, frame = self._cum[frame]
            keys.append(key)
            if frame is not None and (self._cum[frame][1], key) in BETWEEN:
                keys.append(BETWEEN[(self._cum[frame][1], key)])
        keys.reverse()
        above = list(ABOVE.get(keys[0], ()))
        return [k + (self.sizes[k],) for k in above + keys]

    def __enter__(self):
        sys.setprofile(self._profile)
        return self

    def __exit__(self, *exc):
        sys.setprofile(None)
        self._cum.clear()
        return False

    def report(self):
        return "\n".join("{:>5} {} {}".format(b, f, n) for f, n, b in self.stack) + \
            "\n{:>5} in all, of {}".format(self.deepest, PYSTACK_BYTES)
