"""The heap budget: does every screen of every flow leave room on a Pico?

Run from the repo root: .venv/bin/python bench/firmware_memory.py   (tests/test_heap_budget.py
runs the same measurement and fails below the budget.)

For every flow in bench/heap_flows.py, on both displays, the firmware runs on MicroPython 1.27
(the WebAssembly port the test lane uses, its heap bounded: tests/mp/runner.mjs --bounded),
started the way code.py starts it: ``hwpico.build()`` (the real hwpico, display driver and
neopixel libraries as .py, as `lunchbox sync` ships them) against stand-ins of CircuitPython's
C modules (displayio, busio, keypad, ...), then Store and App, then the flow's buttons. At
every screen:

- in use: heap in use after gc.collect(), since the stand-ins were loaded (their own cost is
  not counted: on the device they are C in flash);
- import peak: the free heap needed to import the largest module the flow has still to import
  at that moment (a module's "peak" below);
- C objects: what the stand-ins leave out, estimated from CircuitPython's structs (see
  C_SIZES): each displayio TileGrid, Bitmap, Palette and Group the app holds, counted at that
  screen, at its real size less the stand-in's measured size; keypad.Keys and the NeoPixel
  buffers; the display, its bus and usb_cdc live in static memory (CircuitPython allocates
  displays and buses in a fixed table), so they cost no heap;
- need = in use + import peak + C objects; headroom = 190 KB - need.

A module's peak is measured, not estimated: in a bounded heap, with its dependencies already
imported, the bench fills the heap with ballast so that only F bytes stay free and tries the
import, searching for the smallest F that works (512 B steps), plus the interned names the
first import added (MicroPython never frees those, so later tries need less). The port's
collector frees nothing during one interpreter call, so this is all the import allocates
(compiling and keeping): an upper bound of the true peak, within ~2 KB of the peaks measured
on a real CircuitPython interpreter (docs/firmware.md).
"""

import json
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "host"))

PICO_FREE = 190 * 1024  # CircuitPython 9/10 on an RP2040 after boot, roughly
BUDGET = 24 * 1024  # every screen must leave at least this much free
SPLIT = 1 << 27  # the port's gc.mem_free() adds the largest new heap area it could add
FLOW_HEAP = 2048 * 1024  # a flow runs bounded too, with room for a step's garbage (the port
# frees what one interpreter call allocated only in a later call; the figures are what it keeps)
PEAK_HEAP = 512 * 1024  # the bounded heap the module peaks are searched in (the interned
# names of ~90 modules and ~1500 step files stay in it: 384 KB no longer held them)
STEP = 512  # peak search resolution, bytes
DISPLAYS = {"st7789": "pico-display-pack", "ssd1306": "pico-ssd1306-5btn"}

# CircuitPython's heap objects (32-bit; the collector allocates 16-byte blocks), from
# shared-module/displayio/*.h (CircuitPython 10): (bytes per object, bytes per element).
C_SIZES = {
    # displayio_tilegrid_t: 84 B -> 96; a 1x1 grid keeps its tile index inline
    "TileGrid": (96, 0),
    # displayio_bitmap_t: 36 B -> 48, plus its pixel rows (the stand-in holds those too)
    "Bitmap": (48, 0),
    # displayio_palette_t: 16 B, plus an array of _displayio_color_t (16 B each)
    "Palette": (16, 16),
    # displayio_group_t: 44 B -> 48, plus its mp_obj_list_t (16 B) and the item array
    "Group": (64, 4),
}
# Fixed C allocations on the heap, estimated from the same sources:
FIXED = (
    # keypad.Keys: object, a DigitalInOut per key, two bool arrays, the EventQueue and its
    # ring buffer of 64 two-byte events
    ("keypad.Keys (5 keys)", 96 + 5 * 32 + 32 + 48 + 144),
    # busio.SPI / busio.I2C object
    ("busio bus object", 64),
    # adafruit_pixelbuf: object + two 8x3-byte buffers (pre- and post-brightness)
    ("NeoPixel buffers (8 pixels)", 64 + 2 * 32),
    # the battery's analogio.AnalogIn and digitalio.DigitalInOut objects (hwpico.Supply)
    ("AnalogIn + DigitalInOut (battery)", 2 * 32),
)

# Stand-ins for CircuitPython's C modules: enough for hwpico, the drivers, neopixel and the
# real adafruit_display_text to run. A Bitmap holds its pixels as CircuitPython does (rows of
# 32-bit words); the other objects are small Python objects, measured and corrected by
# C_SIZES.
STANDINS = {
    "displayio": '''
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
    def __init__(self, n, dither=False):
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
    def is_transparent(self, i):
        return False
class TileGrid:
    def __init__(self, bitmap, pixel_shader=None, x=0, y=0, width=1, height=1, tile_width=None,
                 tile_height=None, default_tile=0):
        self.bitmap = bitmap
        self.pixel_shader = pixel_shader
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.tile_width = tile_width or bitmap.width
        self.tile_height = tile_height or bitmap.height
        self.hidden = False
        self._tiles = bytearray(width * height)  # the device keeps a byte a tile
    def __setitem__(self, i, v):
        if type(i) is tuple:
            i = i[1] * self.width + i[0]
        self._tiles[i] = v
def release_displays():
    pass
''',
    "vectorio": '''
class Rectangle:
    def __init__(self, pixel_shader=None, width=1, height=1, x=0, y=0, color_index=0):
        self.pixel_shader = pixel_shader
        self.width = width
        self.height = height
        self.x = x
        self.y = y
        self.hidden = False
''',
    "terminalio": '''
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
        return _Glyph(self.bitmap, code)
FONT = _Font()
''',
    "board": "\n".join("GP{0} = 'GP{0}'".format(i) for i in range(29)) + (
        "\nVOLTAGE_MONITOR = 'GP29'\nVBUS_SENSE = 'GP24'\n"),
    # the battery's ADC: 0, as on USB or in the emulator (no gauge is built)
    "analogio": "class AnalogIn:\n    value = 0\n    def __init__(self, pin):\n        pass\n",
    "busio": '''
class SPI:
    def __init__(self, clock, MOSI=None, MISO=None):
        pass
class I2C:
    def __init__(self, scl, sda, frequency=100000):
        pass
''',
    "fourwire": '''
class FourWire:
    def __init__(self, spi_bus, command=None, chip_select=None, reset=None, baudrate=24000000,
                 polarity=0, phase=0):
        pass
    def send(self, command, data, *, toggle_every_byte=False):
        pass
''',
    "i2cdisplaybus": '''
class I2CDisplayBus:
    def __init__(self, i2c_bus, device_address, reset=None):
        pass
    def send(self, command, data):
        pass
''',
    "busdisplay": '''
class BusDisplay:
    def __init__(self, bus, init_sequence, **kwargs):
        self.auto_refresh = kwargs.get("auto_refresh", True)
        self.root_group = None
        self.brightness = 1.0
    def refresh(self, target_frames_per_second=None, minimum_frames_per_second=0):
        return True
''',
    "keypad": '''
PENDING = []
class Event:
    def __init__(self, key_number=0, pressed=True, timestamp=None):
        self.key_number = key_number
        self.pressed = pressed
        self.timestamp = timestamp
class _Events:
    overflowed = False
    def clear(self):
        PENDING.clear()
    def get_into(self, event):
        if not PENDING:
            return False
        # pressed between the bench's passes: its time is when the app reads it (None)
        event.key_number, event.pressed = PENDING.pop(0)
        event.timestamp = None
        return True
class Keys:
    def __init__(self, pins, value_when_pressed, pull=True):
        self.events = _Events()
    def reset(self):
        pass
''',
    "microcontroller": '''
class _Watchdog:
    timeout = 0
    mode = None
    def feed(self):
        pass
watchdog = _Watchdog()
nvm = None  # the bench sets a bytearray before the heap is measured (nvm is not heap)
class _Cpu:
    uid = bytearray(b"\\xe6\\x61\\x38\\x10\\x43\\x2b\\x61\\x2f")
cpu = _Cpu()
''',
    "watchdog": "class WatchDogMode:\n    RAW = 0\n    RESET = 1\n",
    "supervisor": '''
NOW = [0]
def ticks_ms():
    return NOW[0] & ((1 << 29) - 1)
''',
    "digitalio": '''
class Direction:
    INPUT = 0
    OUTPUT = 1
class DigitalInOut:
    def __init__(self, pin):
        self.value = False
    def switch_to_output(self, value=False, drive_mode=None):
        self.value = value
''',
    "usb_cdc": '''
class _Serial:
    in_waiting = 0
    def read(self, n=1):
        return b""
    def write(self, data):
        return len(data)
data = _Serial()
''',
    "neopixel_write": "def neopixel_write(pin, buf):\n    pass\n",
    "bitmaptools": (
        "def blit(dest, source, x, y, **kw):\n    pass\n"
        "def replace_color(bitmap, old, new):\n    pass\n"
        "def fill_region(bitmap, x1, y1, x2, y2, value):\n    pass\n"),
    "adafruit_pixelbuf": '''
class PixelBuf:
    def __init__(self, n, *, byteorder="BGR", brightness=1.0, auto_write=False,
                 header=None, trailer=None):
        self._n = n
        self.brightness = brightness
        self.auto_write = auto_write
    def __len__(self):
        return self._n
    def __setitem__(self, i, v):
        pass
    def __getitem__(self, i):
        return (0, 0, 0)
    def fill(self, color):
        pass
    def show(self):
        self._transmit(b"")
''',
}
# The Adafruit libraries the firmware imports, copied as .py (what `lunchbox sync` ships).
LIBRARIES = ("adafruit_display_text", "adafruit_st7789", "adafruit_displayio_ssd1306",
             "neopixel", "adafruit_ticks")

# Runs in the interpreter: the flow driver.
DRIVE = '''
import gc
import os
import sys

import keypad
import microcontroller
import supervisor

from fwbench import data

microcontroller.nvm = bytearray(b"\\xff" * 4096)
S = {"hw": None, "app": None, "marks": 0, "seed": 12345}
NAMES = {"prev": 0, "next": 1, "ok": 2, "back": 3, "undo": 4}


def _urandom(n):
    """os.urandom, seeded: the games seed their deals from it, and a flow's keys must replay
    the same game every run."""
    out = bytearray(n)
    for i in range(n):
        S["seed"] = (S["seed"] * 1103515245 + 12345) & 0x7FFFFFFF
        out[i] = (S["seed"] >> 16) & 0xFF
    return bytes(out)


os.urandom = _urandom
FREE_SPLIT = 1 << 27


def free():
    f = gc.mem_free()
    return f - FREE_SPLIT if f > FREE_SPLIT else f


def count(node, out):
    name = type(node).__name__
    for base in ("TileGrid", "Bitmap", "Palette"):
        if name == base:
            out[base] += 1
            if base == "TileGrid":
                bm = node.bitmap
                if id(bm) not in out["seen"]:
                    out["seen"][id(bm)] = 1
                    count(bm, out)
                if node.pixel_shader is not None and id(node.pixel_shader) not in out["seen"]:
                    out["seen"][id(node.pixel_shader)] = 1
                    out["Palette"] += 1
                    out["colors"] += len(node.pixel_shader)
            return
    if hasattr(node, "_c"):
        out["Group"] += 1
        out["items"] += len(node._c)
        for child in node._c:
            count(child, out)


def forget_steps(current):
    """Drop the step modules run so far (each is a module object on the heap)."""
    import fwbench

    for name in [k for k in sys.modules if k.startswith("fwbench.s") and k != current]:
        del sys.modules[name]
        short = name[len("fwbench."):]
        if hasattr(fwbench, short):
            delattr(fwbench, short)


def mark(label):
    """Print the heap in use now (after the step before it) with what the screen holds."""
    gc.collect()
    used = gc.mem_alloc()
    app = S["app"]
    top = type(app.top).__name__ if app is not None and app.top is not None else "-"
    objs = {"TileGrid": 0, "Bitmap": 0, "Palette": 0, "Group": 0, "colors": 0, "items": 0,
            "seen": {}}
    if app is not None:  # every screen on the stack holds its widgets, shown or not
        for group in [s.group for s in app.stack] + [app.toast.group]:
            count(group, objs)
    elif S["hw"] is not None:
        count(S["hw"].display.root, objs)
    del objs["seen"]
    print("@@MARK", label, "|", used, "|", top, "|",
          ",".join("{}={}".format(k, objs[k]) for k in sorted(objs)), "|",
          ",".join(sorted(sys.modules.keys())))


def boot(kind):
    from companion.board import hwpico

    S["hw"] = hwpico.build(data.ENV[kind].get)
    S["hw"].watchdog.start(8)
    # one VM for the whole flow (no supervisor.reload here): a game opens over the menu, so
    # this bench is the pessimistic case of the board, which gives each game a fresh VM
    S["hw"].relaunch = None


def start():
    from companion.app.loop import App
    from companion.app.main import open_store  # code.py imports main: its code is on the heap
    from companion.app.menu import start as home

    S["app"] = None
    gc.collect()
    store = open_store(S["hw"].nvm)
    S["app"] = App(S["hw"], store, home, notice=store.status)


def step(ms):
    supervisor.NOW[0] += ms
    S["app"].step()


def press(name, hold=60):
    ids = S["hw"].buttons.ids
    b = NAMES[name]
    if b not in ids:
        raise ValueError("this build has no {} button".format(name))
    k = ids.index(b)
    keypad.PENDING.append((k, True))
    step(0)
    if hold > 60:
        step(hold)  # a tick while held: the long press fires
        hold = 0
    supervisor.NOW[0] += hold
    keypad.PENDING.append((k, False))
    step(0)
    step(100)


def keys(words):
    for word in words.replace(",", " ").split():
        n = 1
        if "*" in word:
            word, times = word.split("*")
            n = int(times)
        for _ in range(n):
            if word == "reset":
                start()
            elif word.startswith("wait:"):
                step(int(word[5:]))
            elif word.startswith("long:"):
                press(word[5:], 1000)
            else:
                press(word)


def run(i):
    label, words, top = data.STEPS[i]
    keys(words)
    got = type(S["app"].top).__name__
    if top and got != top:
        raise AssertionError("{}: the top screen is {}, not {}".format(label, got, top))
'''

# The module-peak search, one action per interpreter call (the port's collector cannot free
# what the call it runs in allocated, so each try is cleaned up by the next call).
PEAK = '''
import gc
import sys

import micropython

from fwbench import data

FREE_SPLIT = 1 << 27
S = {"i": 0, "phase": "warm", "lo": 0, "hi": 0, "before": 0}


def free():
    f = gc.mem_free()
    return f - FREE_SPLIT if f > FREE_SPLIT else f


def _unload(name):
    if name in sys.modules:
        unload(name)  # the firmware's own, appended below (firmware_unload)


def _fill(target):
    """Ballast so that about ``target`` bytes stay free (small pieces fill the holes too)."""
    # small pieces: a stale pointer on the C stack then keeps at most 1 KB alive
    out = [None] * 1024  # the list must not grow while the heap fills
    n = 0
    for size in (1024, 256, 64):
        while free() - target > size + 64 and n < len(out):
            try:
                out[n] = bytearray(size - 16)
            except MemoryError:  # no hole that big left: go on with smaller pieces
                break
            n += 1
    return out


def step():
    """One action. Whatever an action loads it unloads before returning, so that the next
    call's collection (which can free it) starts from a clean heap."""
    if S["i"] >= len(data.MODULES):
        return
    name = data.MODULES[S["i"]]
    gc.collect()
    phase = S["phase"]
    if phase == "warm":  # the first import: its dependencies stay, and its interned names
        print("@@QSTR", name)
        micropython.qstr_info()
        try:
            __import__(name)
        except ImportError as e:
            print("@@PEAKSKIP", name, repr(e))
            S["i"] += 1
            return
        micropython.qstr_info()
        _unload(name)
        S["phase"] = "own"
        return
    if phase == "own":  # again, its dependencies loaded: what the module alone keeps
        S["before"] = gc.mem_alloc()
        __import__(name)
        S["phase"] = "kept"
        return
    if phase == "kept":
        print("@@KEPT", name, gc.mem_alloc() - S["before"])
        _unload(name)
        S["phase"] = "search"
        # below ~4 KB free the runner's own next import can fail (stale pointers on the C
        # stack keep a few ballast pieces alive for a call or two): tiny modules read 4 KB
        S["lo"] = data.FLOOR
        S["hi"] = min(free() - 4096, data.HI.get(name, 200 * 1024))
        return
    lo, hi = S["lo"], S["hi"]
    if hi - lo <= data.STEP:
        print("@@PEAK", name, hi)
        S["i"] += 1
        S["phase"] = "warm"
        return
    mid = (lo + hi) // 2
    ballast = _fill(mid)
    try:
        __import__(name)
        S["hi"] = mid
    except MemoryError:
        S["lo"] = mid
    _unload(name)
    # Empty the list first: the collector scans the C stack conservatively, and a stale
    # pointer to the list would keep every piece alive.
    for i in range(len(ballast)):
        ballast[i] = None
    ballast = None  # noqa: F841
'''


def firmware_unload():
    """The source of the firmware's ``unload`` (companion/app/unload.py), for the peak script:
    a module of its own there would add its heap to every peak."""
    import ast

    text = (ROOT / "firmware" / "companion" / "app" / "unload.py").read_text()
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef) and node.name == "unload":
            return ast.get_source_segment(text, node) + "\n"
    raise LookupError("companion/app/unload.py has no unload()")


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def lane_files(tmp):
    """The stand-ins and libraries as the runner's --lib items."""
    import importlib.util

    libs = []
    for name, text in STANDINS.items():
        _write(tmp / "standins" / (name + ".py"), text)
        libs.append(tmp / "standins" / (name + ".py"))
    for name in LIBRARIES:
        spec = importlib.util.find_spec(name)
        if spec.submodule_search_locations:
            src = Path(list(spec.submodule_search_locations)[0])
            dst = tmp / "libs" / name
            dst.mkdir(parents=True)
            for f in src.glob("*.py"):
                shutil.copy(f, dst / f.name)
        else:
            dst = tmp / "libs" / (name + ".py")
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(spec.origin, dst)
        libs.append(dst)
    return libs


def _env():
    """The LUNCHBOX_* values of each display's profile, as settings.toml would hold them."""
    from lunchbox.hardware import profiles

    sys.path.insert(0, str(ROOT / "firmware"))
    from companion.board.settings import parse_toml

    out = {}
    for kind, profile in DISPLAYS.items():
        text = profiles.render_settings(profiles.load_profile(profile))
        out[kind] = parse_toml(text)
    return out


# Levers: source changes the bench can measure without making them (--lever NAME); each maps
# a companion/ file's text to the changed text.
LEVERS = {
    # adafruit_display_text's bitmap_label: one bitmap per label instead of a TileGrid per glyph
    "bitmap_label": lambda name, text: text.replace(
        "from adafruit_display_text import label\n",
        "from adafruit_display_text import bitmap_label as label\n"),
}
# neopixel.py is a 5 KB wrapper around CircuitPython's own adafruit_pixelbuf: the same in
# a few lines of hwpico (GRB order, the pin driven by neopixel_write)
_STRIP_OLD = """        import neopixel

        pixels = neopixel.NeoPixel(_pin(cfg["neopixel"]), cfg["neopixel_count"],
                                   brightness=0.2, auto_write=False)
"""
_STRIP_NEW = """        import adafruit_pixelbuf
        import digitalio
        from neopixel_write import neopixel_write

        class Strip(adafruit_pixelbuf.PixelBuf):
            def __init__(self, pin, n):
                super().__init__(n, byteorder="GRB", brightness=0.2, auto_write=False)
                self.pin = digitalio.DigitalInOut(pin)
                self.pin.direction = digitalio.Direction.OUTPUT

            def _transmit(self, buf):
                neopixel_write(self.pin, buf)

        pixels = Strip(_pin(cfg["neopixel"]), cfg["neopixel_count"])
"""
LEVERS["pixelbuf_strip"] = lambda name, text: text.replace(_STRIP_OLD, _STRIP_NEW)


_FIRMWARE = [ROOT / "firmware" / "companion"]


def firmware_copy(tmp, lever):
    """companion/ with ``lever`` applied, in ``tmp``; the lane then runs that copy."""
    src = ROOT / "firmware" / "companion"
    dst = tmp / "lever" / "companion"
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__"))
    changed = []
    for path in sorted(dst.rglob("*.py")):
        text = path.read_text()
        new = LEVERS[lever](path.name, text)
        if new != text:
            path.write_text(new)
            changed.append(path.relative_to(dst).as_posix())
    if not changed:
        raise RuntimeError("lever {} changes nothing".format(lever))
    return dst


def _run(tmp, libs, names, heap, timeout=300, retry_ok=False):
    """Import ``names`` one by one (one interpreter call each) in a bounded heap.
    ``retry_ok``: a step whose own file could not be compiled for want of memory (the search
    left the heap nearly full and the collector had not freed it yet) is not a failure: it
    ran nothing, and the next step does the same action."""
    import mplane

    base = (ROOT / "shared_rules",) + tuple(_FIRMWARE)
    res = mplane.run(libs=base + tuple(libs) + (tmp / "fwbench",),
                     imports=names, heap=heap, timeout=timeout, bounded=True)
    failed = dict(res.failed)
    if retry_ok:
        for name, tb in list(failed.items()):
            lines = [line for line in tb.strip().splitlines() if line.strip()]
            if lines[-1].startswith("MemoryError") and "/lib/fwbench/" not in tb:
                del failed[name]
    if failed:
        res.failed = failed
        raise RuntimeError(res.report())
    return res.output


def run_flow(flow, kind, tmp, libs):
    """[(screen, in use, top, {object counts}, [modules])] for one flow on one display."""
    pkg = tmp / "fwbench"
    if pkg.exists():
        shutil.rmtree(pkg)
    steps = [tuple(s) for s in flow["steps"]]
    _write(pkg / "__init__.py", "")
    _write(pkg / "data.py", "ENV = {!r}\nSTEPS = {!r}\n".format(_ENV, steps))
    _write(pkg / "drive.py", DRIVE)
    names = []

    def step(body):
        n = "s{:02d}".format(len(names))
        _write(pkg / (n + ".py"), "from fwbench import drive as D\nD.forget_steps(__name__)\n"
               + body + "\n")
        names.append("fwbench." + n)

    # the stand-ins (C modules on the device) and the driver: the base line
    step("import " + ", ".join(sorted(STANDINS)))
    step("D.mark('base')\nD.boot({!r})".format(kind))
    step("D.mark('hardware built')\nD.start()")
    prev = "app started"
    for i, (label, _keys, _top) in enumerate(steps):
        step("D.mark({!r})\nD.run({})".format(prev, i))
        prev = label
    step("D.mark({!r})".format(prev))
    marks = []
    for line in _run(tmp, libs, names, FLOW_HEAP).splitlines():
        if line.startswith("@@MARK "):
            label, used, top, objs, mods = [p.strip() for p in line[7:].split("|")]
            counts = dict((k, int(v)) for k, v in (kv.split("=") for kv in objs.split(",")))
            marks.append((label, int(used), top, counts, mods.split(",")))
    base = marks[0][1]
    return [(label, used - base, top, counts, mods) for label, used, top, counts, mods in
            marks[1:]]


def standin_sizes(tmp, libs):
    """Bytes one stand-in object of each kind takes on MicroPython, measured."""
    pkg = tmp / "fwbench"
    if pkg.exists():
        shutil.rmtree(pkg)
    _write(pkg / "__init__.py", "")
    body = ("import gc\nimport displayio\ngc.collect()\nb = displayio.Bitmap(1, 1, 1)\n"
            "p = displayio.Palette(1)\ngc.collect()\nfor name, make in ("
            "('TileGrid', lambda: displayio.TileGrid(b, pixel_shader=p)),"
            "('Bitmap', lambda: displayio.Bitmap(1, 1, 1)),"
            "('Palette', lambda: displayio.Palette(1)),"
            "('Group', lambda: displayio.Group())):\n"
            "    gc.collect()\n    a = gc.mem_alloc()\n    keep = [make() for i in range(64)]\n"
            "    gc.collect()\n    print('@@SIZE', name, (gc.mem_alloc() - a) // 64)\n"
            "    keep = None\n")
    _write(pkg / "sizes.py", body)
    out = {}
    for line in _run(tmp, libs, ["fwbench.sizes"], FLOW_HEAP).splitlines():
        if line.startswith("@@SIZE "):
            _tag, name, n = line.split()
            out[name] = int(n)
    return out


def module_peaks(modules, tmp, libs):
    """{module: (kept bytes, peak bytes)} measured in a bounded heap, in the given order."""
    pkg = tmp / "fwbench"
    if pkg.exists():
        shutil.rmtree(pkg)
    # search up to 4x the source (every module measured so far needs less than 3.5x)
    hi = dict((m, 4 * source_size(m) + 16384) for m in modules)
    _write(pkg / "__init__.py", "")
    _write(pkg / "data.py", "MODULES = {!r}\nHI = {!r}\nSTEP = {}\nFLOOR = 4096\n".format(
        list(modules), hi, STEP))
    _write(pkg / "peak.py", PEAK + "\n\n" + firmware_unload())
    _write(pkg / "go.py", "from fwbench import peak\npeak.step()\n")
    # one call per action: about 12 per module; the same file name cannot be imported twice
    names = []
    for i in range(len(modules) * 16 + 40):
        n = "t{:03d}".format(i)
        _write(pkg / (n + ".py"), "from fwbench import peak\npeak.step()\n")
        names.append("fwbench." + n)
    out = _run(tmp, libs, names, PEAK_HEAP, timeout=600, retry_ok=True)
    kept, peak, qstr = {}, {}, {}
    current, qlines = None, []
    for line in out.splitlines():
        if line.startswith("@@QSTR "):
            current, qlines = line.split()[1], []
        elif line.startswith("qstr pool:") and current is not None:
            # the names' text plus a pool entry each (hash, length, pointer); the pools'
            # own growth comes in lumps and is left out
            f = dict(kv.split("=") for kv in line[len("qstr pool:"):].replace(" ", "").split(","))
            qlines.append(int(f["n_str_data_bytes"]) + 8 * int(f["n_qstr"]))
            if len(qlines) == 2:
                qstr[current] = qlines[1] - qlines[0]
        elif line.startswith("@@KEPT "):
            _t, name, n = line.split()
            kept[name] = int(n)
        elif line.startswith("@@PEAK "):
            _t, name, n = line.split()
            peak[name] = int(n) + qstr.get(name, 0)
    missing = [m for m in modules if m not in peak]
    if missing:
        raise RuntimeError("no peak measured for {}".format(", ".join(missing)))
    return dict((m, (kept[m], peak[m])) for m in modules)


_ENV = None


def c_objects(counts, sizes):
    """Bytes of C objects the stand-ins leave out at one screen (see C_SIZES, FIXED)."""
    n = 0
    for kind, (each, _per) in C_SIZES.items():
        n += counts[kind] * (each - sizes[kind])
    n += counts["colors"] * C_SIZES["Palette"][1] + counts["items"] * C_SIZES["Group"][1]
    return n + sum(b for _what, b in FIXED)


def source_size(module):
    rel = module.replace(".", "/")
    for base in (ROOT / "firmware", ROOT):
        for p in (base / (rel + ".py"), base / rel / "__init__.py"):
            if p.exists():
                return p.stat().st_size
    import importlib.util

    spec = importlib.util.find_spec(module)
    return Path(spec.origin).stat().st_size if spec and spec.origin else 0


def measure(flows=None, lever=None):
    """The whole budget: {"rows": [...], "modules": {...}, "sizes": {...}}. A row:
    (flow, display, screen, in use, import peak, peak module, C objects, need, headroom).
    ``lever``: a name in LEVERS, measured on a changed copy of companion/."""
    global _ENV
    if flows is None:
        from heap_flows import FLOWS as flows
    _ENV = _env()
    tmp = Path(tempfile.mkdtemp(prefix="fwheap-"))
    _FIRMWARE[:] = [ROOT / "firmware" / "companion"]
    try:
        if lever is not None:
            _FIRMWARE[:] = [firmware_copy(tmp, lever)]
        libs = lane_files(tmp)
        sizes = standin_sizes(tmp, libs)
        runs = []
        order = []
        for flow in flows:
            for kind in flow.get("displays", DISPLAYS):
                marks = run_flow(flow, kind, tmp, libs)
                runs.append((flow["flow"], kind, marks))
                for m in marks[-1][4]:
                    if m not in order:
                        order.append(m)
        # the modules with a source file: the app's, the rules' and the libraries'
        ours = {"companion", "shared_rules"} | set(LIBRARIES)
        modules = [m for m in order if m.split(".")[0] in ours]
        peaks = module_peaks(modules, tmp, libs)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    rows = []
    for flow, kind, marks in runs:
        final = set(marks[-1][4])
        for label, used, _top, counts, mods in marks:
            later = [m for m in final - set(mods) if m in peaks]
            big = max(later, key=lambda m: peaks[m][1]) if later else None
            peak = peaks[big][1] if big else 0
            extra = c_objects(counts, sizes)
            need = used + peak + extra
            rows.append((flow, kind, label, used, peak, big, extra, need, PICO_FREE - need))
    return {"rows": rows, "modules": peaks, "sizes": sizes}


def summary(rows):
    """The tightest screen of each flow on each display, in flow order."""
    out = {}
    for r in rows:
        key = (r[0], r[1])
        if key not in out or r[8] < out[key][8]:
            out[key] = r
    return list(out.values())


def print_summary(rows):
    print("The tightest screen of each flow (KB):")
    print()
    print("| flow | display | tightest screen | in use | import peak | C objects | need | "
          "headroom |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    for flow, kind, label, used, peak, _big, extra, need, head in summary(rows):
        print("| {} | {} | {} | {} | {} | {} | {} | {}{} |".format(
            flow, kind, label, kb(used), kb(peak), kb(extra), kb(need), kb(head),
            " **LOW**" if head < BUDGET else ""))


def kb(n):
    return "{:.1f}".format(n / 1024)


def main():
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lever", choices=sorted(LEVERS),
                        help="measure a change without making it (on a copy of companion/)")
    parser.add_argument("--flow", action="append",
                        help="only this flow (repeatable; default: every flow)")
    args = parser.parse_args()
    from heap_flows import FLOWS

    flows = [f for f in FLOWS if not args.flow or f["flow"] in args.flow]
    result = measure(flows, lever=args.lever)
    if args.lever:
        print("LEVER {}: measured on a changed copy of companion/".format(args.lever))
    rows = result["rows"]
    print("Heap budget: every screen of every flow (bench/heap_flows.py), KB of a Pico's {} KB"
          .format(PICO_FREE // 1024))
    print("need = in use + import peak (largest module still to import) + C objects")
    print()
    print("| flow | display | screen | in use | import peak (module) | C objects | need | "
          "headroom |")
    print("|---|---|---|---:|---|---:|---:|---:|")
    for flow, kind, label, used, peak, big, extra, need, head in rows:
        print("| {} | {} | {} | {} | {} | {} | {} | {}{} |".format(
            flow, kind, label, kb(used), "{} ({})".format(kb(peak), big) if big else "0",
            kb(extra), kb(need), kb(head), " **LOW**" if head < BUDGET else ""))
    print()
    print_summary(rows)
    worst = min(rows, key=lambda r: r[8])
    print()
    print("Least headroom: {} KB ({} on {}, {}); the budget is {} KB.".format(
        kb(worst[8]), worst[0], worst[1], worst[2], BUDGET // 1024))
    print()
    print("Modules the flows import: source, heap kept, import peak (bytes), peak/source:")
    print()
    print("| module | source | kept | peak | peak/source |")
    print("|---|---:|---:|---:|---:|")
    for m, (kept, peak) in sorted(result["modules"].items(), key=lambda kv: -kv[1][1]):
        src = source_size(m)
        print("| {} | {} | {} | {}{} | {} |".format(
            m, src, kept, peak, " **>32 KB**" if peak > 32 * 1024 else "",
            "{:.1f}".format(peak / src) if src else "-"))
    print()
    print("Stand-in object sizes on MicroPython (bytes):", json.dumps(result["sizes"]))


if __name__ == "__main__":
    main()
