"""What a redraw costs on the Display Pack, on the real-CircuitPython lane (tests/cplane.py):
displayio's refresh() timed on CircuitPython 9.2.2 itself in the emulator, through the lane's
ST7789 (SPI at 62.5 MHz), for a few made-up screens, both with the panel turning the picture
(what the firmware does) and with displayio turning it (Adafruit's settings).

    .venv/bin/python bench/cp_redraw_costs.py [--json OUT]

The drive holds the firmware as `lunchbox sync` builds it (for companion/screen/textlabel.py and the
panel's settings in companion/board/hwpico.py) with bench/cp_redraw_board.py as its code.py. Prints
ms of emulated time at 125 MHz a refresh, and per layer and piece the cost of the walk
displayio makes of the whole tree for each piece of each area it draws (an area goes out in
pieces of at most 256 pixels). docs/firmware.md, "Screens and redraws", quotes it.
"""

import argparse
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import cplane  # noqa: E402

PROFILE = "pico-display-pack"
_COST = re.compile(r"COST (\S+) \| (.+) \| (-?[\d.]+)")
PIECES = {"panel": 135, "displayio": 240}  # a whole screen's pieces: rows of 240 or 135 px


def run():
    board = (HERE / "cp_redraw_board.py").read_bytes()
    lane = cplane.run(PROFILE, [], files={"code.py": board})
    got = {}
    for line in lane.lines:
        m = _COST.search(line)
        if m:
            got.setdefault(m.group(1), {})[m.group(2)] = float(m.group(3))
    if not got.get("panel") or not got.get("displayio"):
        raise SystemExit("the board printed no figures:\n" + lane.transcript())
    return got


def layer_costs(figures, way):
    """us a layer and piece, from the whole-screen refreshes with 20 layers more."""
    base = figures["4 rows of 18 characters, whole (20,736 px of text)"]
    out = {}
    for name, ms in figures.items():
        m = re.match(r"4 rows \+ 20 of (.+), whole", name)
        if m:
            out[m.group(1)] = (ms - base) * 1000 / 20 / PIECES[way]
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", metavar="OUT")
    a = ap.parse_args(argv)
    got = run()
    for way in ("panel", "displayio"):
        print("the {} turns the picture ({} pieces a whole screen):".format(way, PIECES[way]))
        for name, ms in got[way].items():
            print("  {:70} {:6.1f} ms".format(name, ms))
        for name, us in layer_costs(got[way], way).items():
            print("  a piece's walk over {:49} {:6.1f} us".format(name, us))
    for name, us in got.get("python", {}).items():
        print("{:72} {:6.1f}".format(name, us))
    if a.json:
        Path(a.json).write_text(json.dumps(got, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
