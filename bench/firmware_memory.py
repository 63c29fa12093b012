"""How much heap the firmware needs: figures to hold against a Pico's ~190 KB free.

Run from the repo root: .venv/bin/python bench/firmware_memory.py

1. Import footprint on MicroPython 1.27 (the WebAssembly port the test lane uses), module by
   module in the order the app imports them: the portable core (companion/core), the
   shared_rules modules the app uses (_compat, aqua_brunch), then the device modules (app,
   screens, widgets, menu, calculator) against small stand-ins for displayio, terminalio and
   adafruit_display_text (their own cost is taken out of the figures). For each module:
   "kept" = heap still in use after gc.collect() (the module's bytecode, constants and
   objects), "gross" = everything allocated while importing with the collector off (compiling
   the .py source: an upper bound of the peak the import needs).
2. The running app on MicroPython (same stand-ins, a 4 KB bytearray as nvm): heap kept with the
   main menu, the calculator, and Settings > Brightness open. The stand-ins hold no pixels, so
   this is the Python side only.
3. What the stand-ins leave out, counted in the CPython simulator on the real
   adafruit_display_text: label.Label makes one displayio.TileGrid per visible glyph, plus the
   rectangles' bitmaps. Sizes of those C objects on CircuitPython are estimates (see
   TILEGRID_BYTES), not measurements.

MicroPython's bytecode and objects are close to CircuitPython's (same VM, 32-bit words on both
the RP2040 and WebAssembly), so the "kept" figures carry over; CircuitPython's own libraries
(.mpy from the bundle) and displayio's C objects are not in them.
"""

import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

PICO_FREE = 190 * 1024  # CircuitPython 9 on an RP2040 after boot, roughly
TILEGRID_BYTES = 96  # displayio_tilegrid_t is 88 bytes on a 32-bit port; the GC allocates 16s

# In the order the app imports them (dependencies first, so each figure is that module alone).
PORTABLE = (
    "shared_rules._compat",
    "companion",
    "companion.core.buttons",
    "companion.core.text",
    "companion.core.appsettings",
    "companion.core.crc32",
    "companion.core.nvmlog",
    "companion.core.store",
    "companion.core.link",
    "companion.core.settings",
    "companion.core.aqua_calc",
    "shared_rules.aqua_brunch",
)
DEVICE = (
    "companion.hwbase",
    "companion.display",
    "companion.leds",
    "companion.ui",
    "companion.screens",
    "companion.app",
    "companion.menu",
    "companion.aqua",
    "companion.main",
)

# Stand-ins for CircuitPython's C modules: just enough of displayio and terminalio for the
# app and the real adafruit_display_text (copied from the simulator's install) to run. A Bitmap
# holds its pixels as CircuitPython does (rows of 32-bit words, 1/2/4/8... bits per value), and
# a TileGrid is a small object, about the size of CircuitPython's displayio_tilegrid_t (88
# bytes in 16-byte GC blocks).
STUB_DISPLAYIO = '''
class Group:
    def __init__(self, x=0, y=0, scale=1):
        self._c = []
        self.x = x
        self.y = y
        self._gscale = scale  # not through self.scale: Label overrides that property
        self.hidden = False
    @property
    def scale(self):
        return self._gscale
    @scale.setter
    def scale(self, v):
        self._gscale = v
    def append(self, o):
        self._c.append(o)
    def insert(self, i, o):
        self._c.insert(i, o)
    def remove(self, o):
        self._c.remove(o)
    def pop(self, i=-1):
        return self._c.pop(i)
    def index(self, o):
        return self._c.index(o)
    def __len__(self):
        return len(self._c)
    def __getitem__(self, i):
        return self._c[i]
    def __setitem__(self, i, o):
        self._c[i] = o
    def __delitem__(self, i):
        del self._c[i]
class Bitmap:
    def __init__(self, w, h, n):
        self.width = w
        self.height = h
        bits = 1
        while (1 << bits) < n:
            bits *= 2
        self._px = bytearray((w * bits + 31) // 32 * 4 * h)
    def __setitem__(self, i, v):
        pass
    def __getitem__(self, i):
        return 0
    def fill(self, v):
        pass
class Palette:
    def __init__(self, n):
        self._c = [0] * n
    def __setitem__(self, i, v):
        self._c[i] = v
    def __getitem__(self, i):
        return self._c[i]
    def __len__(self):
        return len(self._c)
    def make_transparent(self, i):
        pass
    def make_opaque(self, i):
        pass
class TileGrid:
    def __init__(self, bitmap, pixel_shader=None, x=0, y=0, width=1, height=1, tile_width=None,
                 tile_height=None, default_tile=0):
        self.bitmap = bitmap
        self.pixel_shader = pixel_shader
        self.x = x
        self.y = y
        self.hidden = False
'''
STUB_TERMINALIO = '''
from displayio import Bitmap
class _Glyph:
    def __init__(self, bitmap, i):
        self.bitmap = bitmap
        self.tile_index = i
        self.width = 6
        self.height = 12
        self.dx = 0
        self.dy = 0
        self.shift_x = 6
        self.shift_y = 0
class _Font:
    def __init__(self):
        self.bitmap = Bitmap(1, 1, 2)  # the real one is in flash
    def get_bounding_box(self):
        return (6, 12, 0, 0)
    def get_glyph(self, code):
        return _Glyph(self.bitmap, code)  # the real font keeps one glyph object per code
FONT = _Font()
'''
# The run: a display, buttons fed from a list, a clock advanced by hand, no LEDs, no link.
STUB_HW = '''
class Driver:
    auto_refresh = True
    root_group = None
    def refresh(self):
        pass

class Buttons:
    def __init__(self):
        self.pending = []
    def poll(self):
        out = self.pending
        self.pending = []
        return out

class Clock:
    now = 0
    def __call__(self):
        return self.now

def make(kind, w, h):
    from companion import display as displays
    from companion.hwbase import Hardware

    return Hardware(displays.make(kind, Driver(), w, h), Buttons(), Clock(), bytearray(b"\\xff" * 4096),
                    {"profile": "bench"})

def start(kind, w, h):
    from companion.app import App
    from companion.core.store import Store

    hw = make(kind, w, h)
    return App(hw, Store(hw.nvm))

def press(app, button, ms=60):
    hw = app.hw
    hw.buttons.pending.append((button, True))
    app.step()
    hw.clock.now += ms
    hw.buttons.pending.append((button, False))
    app.step()
    hw.clock.now += 100
'''


# Each step runs in its own mp.runPython call: the WebAssembly port's collector frees nothing
# allocated by the call it runs in (its roots are scanned conservatively), so a step's heap is
# measured by the next step, after a gc.collect() that can free the step's garbage.
STEP = """import gc
gc.collect()
import fwbench as R
R.OUT.append(({label!r}, gc.mem_alloc()))
print("@@MARK", {label!r}, gc.mem_alloc())
{body}
"""


def probe_files(tmp):
    """Write the probe package and the stand-ins; returns (lib dirs, --import names)."""
    libs = []
    for name, text in (("displayio", STUB_DISPLAYIO), ("terminalio", STUB_TERMINALIO)):
        d = tmp / name
        d.mkdir()
        (d / "__init__.py").write_text(text)
        libs.append(d)
    import adafruit_display_text

    d = tmp / "adafruit_display_text"
    d.mkdir()
    src = Path(adafruit_display_text.__file__).parent
    for name in ("__init__.py", "label.py"):
        shutil.copy(src / name, d / name)
    libs.append(d)
    pkg = tmp / "fwbench"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("OUT = []\n")
    (pkg / "simhw.py").write_text(STUB_HW)
    libs.append(pkg)
    names = []

    def step(label, body=""):
        n = "s{:02d}".format(len(names))
        (pkg / (n + ".py")).write_text(STEP.format(label=label, body=body))
        names.append("fwbench." + n)

    # the stand-ins and the bench's own helpers first, so their cost is not counted
    step("stand-ins", "import displayio, terminalio\nimport fwbench.simhw")
    step("import adafruit_display_text.label", "from adafruit_display_text import label")
    step("empty")  # what a step itself costs (its module object): taken off every figure
    for mod in PORTABLE + DEVICE:
        step("import " + mod, "import " + mod)
    for kind, w, h in (("st7789", 240, 135), ("ssd1306", 128, 64)):
        step("run {} menu".format(kind),
             "from fwbench import simhw\n"
             "R.app = simhw.start({k!r}, {w}, {h})".format(k=kind, w=w, h=h))
        # into Aqua Brunch, pick three predators (walrus x3), as a player would
        keys = [1, 1, 2, 2] + ([1] * 5 + [2]) * 3
        step("run {} calculator".format(kind),
             "from fwbench import simhw\n"
             "for b in {keys!r}:\n    simhw.press(R.app, b)\n"
             "assert R.app.top.__class__.__name__ == 'AquaScreen', R.app.top\n"
             "assert R.app.top.calc.strength() == 18".format(keys=keys))
        # back to the menu, Settings > Brightness: three screens stacked
        step("run {} settings>brightness".format(kind),
             "from fwbench import simhw\n"
             "for b in (3, 1, 1, 1, 2, 2):\n    simhw.press(R.app, b)\n"
             "assert R.app.top.__class__.__name__ == 'NumberPicker', R.app.top")
        step("drop {} app".format(kind), "R.app = None")
    # the game engines the screens to come will import, one game at a time (informational)
    for game, mods in later_games():
        body = "try:\n" + "".join("    import {}\n".format(m) for m in mods)
        body += "except Exception as e:\n    print('@@SKIP', {!r}, repr(e))\n".format(game)
        step("game " + game, body)
    # what menu.open_game does when a game is opened: the other games' modules go
    step("unload", "import companion.menu as m\nprint('@@DROPPED', len(m.forget_other_games("
         "'aqua_brunch')))")
    step("end")
    return libs, names


def later_games():
    """[(game, [shared_rules modules])] for the games whose screens are still to come."""
    names = sorted(p.stem for p in (ROOT / "shared_rules").glob("*.py"))
    out = []
    for game in ("lets_do_lunch", "space_lunch", "space_battle", "space_days", "aqua_brunch"):
        mods = ["shared_rules." + n for n in names if n.startswith(game)
                and "shared_rules." + n not in PORTABLE]
        if mods:
            out.append((game, mods))
    return out


def micropython_figures():
    """[(label, bytes the step left in use)] and the 4 KB nvm stand-in's own size."""
    import mplane

    tmp = Path(tempfile.mkdtemp(prefix="fwmem-"))
    try:
        libs, names = probe_files(tmp)
        res = mplane.run(libs=mplane.PORTABLE_LIBS + tuple(libs), imports=names, timeout=120)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if res.failed:
        print(res.report())
        sys.exit(1)
    marks = []
    for line in res.output.splitlines():
        if line.startswith("@@MARK "):
            label, alloc = line[7:].rsplit(" ", 1)
            marks.append((label, int(alloc)))
    kept = [(marks[i][0], marks[i + 1][1] - marks[i][1]) for i in range(len(marks) - 1)]
    overhead = dict(kept)["empty"]
    return [(label, n - overhead) for label, n in kept if label not in ("stand-ins", "empty")]


def glyph_figures():
    """Count the displayio objects the real adafruit_display_text makes, in the simulator."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    sys.path.insert(0, str(ROOT / "host"))
    from lunchbox.sim import Simulator

    out = []
    for profile in ("pico-display-pack", "pico-ssd1306-5btn"):
        for what, keys in (("menu", "wait:3000"),
                           ("calculator", "next next ok " + "ok " + "next*5 ok " * 3),
                           ("settings>brightness", "wait:3000 prev ok ok")):
            sim = Simulator(profile, mode="headless")
            sim.run_script(keys)
            tiles, bitmap_bytes = _count(sim)
            out.append((profile, what, tiles, bitmap_bytes))
            sim.close()
    return out


def _count(sim):
    """TileGrids, and bytes of the app's own bitmaps (the font's is built in, in flash), in
    everything the app holds: every screen on the stack and the toast."""
    import displayio
    import terminalio

    app = _find_app(sim)
    todo = [s.group for s in app.stack] + [app.toast.group]
    font = terminalio.FONT.bitmap
    seen = set()
    tiles = 0
    nbytes = 0
    while todo:
        node = todo.pop()
        if isinstance(node, displayio.TileGrid):
            tiles += 1
            bm = node.bitmap
            if bm is not font and id(bm) not in seen:
                seen.add(id(bm))
                # rows are padded to 32-bit words, as in CircuitPython's displayio
                stride = (bm.width * bm._bits_per_value + 31) // 32 * 4
                nbytes += stride * bm.height
            continue
        try:
            todo.extend(list(node))
        except TypeError:
            pass
    return tiles, nbytes


def _find_app(sim):
    import gc

    from companion.app import App

    apps = [o for o in gc.get_objects() if isinstance(o, App) and o.hw is sim.hw]
    return apps[-1]


def main():
    steps = micropython_figures()
    print("MicroPython 1.27 (WebAssembly): heap each step leaves in use after gc.collect(),")
    print("bytes (a module's bytecode, constants, functions and classes; compiling the .py")
    print("needs more for a moment, not shown).")
    print()
    sums = {"portable": 0, "device": 0}
    for label, n in steps:
        if label.startswith("import "):
            mod = label[7:]
            if mod not in PORTABLE + DEVICE:
                lib = (mod, n)
                continue
            part = "device" if mod in DEVICE else "portable"
            sums[part] += n
            print("  {:<34} {:>7}   {}".format(mod, n, part))
    code = sums["portable"] + sums["device"]
    print("  {:<34} {:>7}".format("= portable core + aqua_brunch", sums["portable"]))
    print("  {:<34} {:>7}".format("= device modules", sums["device"]))
    print("  {:<34} {:>7}".format("= all app code", code))
    print("  {:<34} {:>7}   (library; from .py here, .mpy on the device)".format(*lib))
    code += lib[1]
    print()
    print("The app running on MicroPython with the real adafruit_display_text (one TileGrid")
    print("stand-in per glyph, bitmaps holding their pixels), in use since the app started;")
    print("the 4 KB bytearray standing in for nvm is included (on the Pico nvm is not heap):")
    total = 0
    worst_run = 0
    for label, n in steps:
        if label.startswith("run ") or label.startswith("drop "):
            total += n
            if label.startswith("run "):
                worst_run = max(worst_run, total)
                print("  {:<34} {:>7}".format(label[4:], total))
            else:
                print("  {:<34} {:>7}   (after dropping the app: ~0)".format(label, total))
                total = 0
    print()
    print("Cross-check in the CPython simulator (real Blinka displayio): TileGrids and bitmap")
    print("bytes held by all screens on the stack plus the toast; ~{} B per TileGrid:"
          .format(TILEGRID_BYTES))
    for profile, what, tiles, nbytes in glyph_figures():
        print("  {:<18} {:<20} {:>4} TileGrids, {:>6} B of bitmaps  ~{:>6} B".format(
            profile, what, tiles, nbytes, tiles * TILEGRID_BYTES + nbytes))
    games = [(label[5:], n) for label, n in steps if label.startswith("game ")]
    print()
    print("Game engines for the screens to come (all of a game's shared_rules modules):")
    for game, n in games:
        print("  {:<34} {:>7}".format(game, n))
    engines = sum(n for game, n in games if game != "aqua_brunch")
    freed = -dict(steps).get("unload", 0)
    print("  opening Aqua Brunch unloads the others (menu.forget_other_games): {} of {} freed"
          .format(freed, engines))
    print("  (what stays is mostly interned names: MicroPython never frees a qstr)")
    biggest = max([n for _g, n in games] or [0])
    need = code + worst_run
    print()
    print("Estimate for a Pico (~{} KB free after CircuitPython boots):".format(PICO_FREE // 1024))
    print("  now (menu, Settings, the calculator):  code {} + running {} = ~{} KB".format(
        code, worst_run, need // 1024))
    print("  + one more game's engine (largest):    ~{} KB".format((need + biggest) // 1024))
    print("  + every game's engine kept imported:   ~{} KB".format((need + engines) // 1024))
    print("Not included: the display driver and neopixel libraries, the game screens still to")
    print("come, transient peaks (compiling a .py: its parse tree; a store compaction: ~16 KB)")
    print("and heap fragmentation. Figures move by a few hundred bytes to a few KB between runs")
    print("(the WebAssembly port's collector scans conservatively); the sums are steadier.")


if __name__ == "__main__":
    main()
