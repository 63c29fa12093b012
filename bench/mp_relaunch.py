"""A fresh heap per game on MicroPython: a soft reset (the target in a file, main.py reads it:
companion/mpparts.relaunch) against staying in the VM and dropping the menu's modules before
the game's are imported (sys.modules emptied, gc.collect). Measured on the real MicroPython
(the lane's WebAssembly port, heap bounded at a Pico's): the heap free, and its largest free
run, once a game's modules are in, after a collect:

- reset: a fresh interpreter imports the game's modules;
- dropped: the interpreter first imports the menu's (main menu, app, renderer), then forgets
  every companion and shared_rules module and collects, then imports the game's.

What dropping cannot give back is what stays behind a module: the names it interned (MicroPython
never frees an interned string), and the holes between what is still held.

    .venv/bin/python bench/mp_relaunch.py
"""

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import mplane  # noqa: E402

HEAP = 200 * 1024  # about what plain MicroPython 1.24 leaves free on a Pico at start
MPLIB = sorted((ROOT / "firmware" / "mplib").glob("*.py"))
LIBS = (ROOT / "firmware" / "companion", ROOT / "shared_rules") + tuple(MPLIB)
MENU = ["companion.app.main", "companion.app.loop", "companion.app.menu", "companion.settings.menu"]
GAMES = {
    "space_lunch": ["companion.app.main", "companion.app.loop", "companion.app.launch",
                    "companion.app.loader", "companion.games.space_lunch.entry",
                    "companion.games.space_lunch.solo", "shared_rules.space_lunch"],
    "lets_do_lunch": ["companion.app.main", "companion.app.loop", "companion.app.launch",
                      "companion.app.loader", "companion.games.lets_do_lunch.entry",
                      "shared_rules.lets_do_lunch"],
}
DROP = '''import sys, gc
for name in list(sys.modules):
    if name.startswith("companion") or name.startswith("shared_rules"):
        del sys.modules[name]
gc.collect()
'''
# micropython.mem_info(): the heap's free bytes and its largest free run in 16-byte blocks (this
# port's gc.mem_free() adds the room it could still grow by, which the bounded run refuses)
MEASURE = "import gc, micropython\ngc.collect()\nmicropython.mem_info()\n"


def free(imports, libs):
    """(free bytes, largest free run in bytes) after ``imports`` and a collect."""
    r = mplane.run(libs=libs, imports=imports, code=MEASURE, heap=HEAP, bounded=True)
    if r.failed:
        raise SystemExit(r.report())
    total = run = None
    for line in r.output.splitlines():
        if line.startswith("GC: total:"):
            total = int(line.split("free:")[1].split(",")[0])
        if "max free sz:" in line:
            run = int(line.split("max free sz:")[1]) * 16
    if total is None or run is None:
        raise SystemExit(r.output)
    return total, run


def main():
    with tempfile.TemporaryDirectory() as tmp:
        drop = Path(tmp) / "_drop_menu.py"
        drop.write_text(DROP)
        libs = LIBS + (drop,)
        print("heap {} KB (bounded), once the game's modules are in: free bytes (largest "
              "free run)".format(HEAP // 1024))
        print("{:>14} {:>18} {:>18} {:>10}".format("game", "soft reset", "modules dropped",
                                                   "lost"))
        for game, mods in GAMES.items():
            reset = free(mods, libs)
            dropped = free(MENU + ["_drop_menu"] + mods, libs)
            print("{:>14} {:>18} {:>18} {:>10}".format(
                game, "{} ({})".format(*reset), "{} ({})".format(*dropped),
                reset[0] - dropped[0]))

if __name__ == "__main__":
    main()
