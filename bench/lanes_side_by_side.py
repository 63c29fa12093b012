"""CircuitPython and MicroPython side by side, from the two lanes' recorded figures: every flow
of bench/heap_flows.py on each display, as bench/cp_heap.py measured it on CircuitPython 9.2.2
(bench/data/cp_lane.json) and on MicroPython (``--runtime micropython``: plain 1.24.1 for the
OLED, Pimoroni's 1.23 with PicoGraphics for the Display Pack; bench/data/mp_lane.json), 24 KB
held back in both. docs/firmware.md's side-by-side table is this output (a test checks it).

    .venv/bin/python bench/lanes_side_by_side.py        # the markdown table

Record the figures again with:

    .venv/bin/python bench/cp_heap.py --json bench/data/cp_lane.json
    .venv/bin/python bench/cp_heap.py --runtime micropython --json bench/data/mp_lane.json
"""

import json
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
CP = DATA / "cp_lane.json"
MP = DATA / "mp_lane.json"


def display(profile):
    return "st7789" if "display" in profile else "ssd1306"


def load(path):
    """{(flow, display): figures} of one lane's recording."""
    rows = json.loads(Path(path).read_text())
    return {(r["flow"], display(r["profile"])): r for r in rows}


def _cell(r):
    """One runtime's figures for a flow: ends with 24 KB held, least free, median pass."""
    if r is None:
        return "-", "-", "-"
    ends = "yes" if r["complete"] else "**no**"
    free = "{:.1f} KB".format(r["least_free"] / 1024) if r["least_free"] else "-"
    median = "{} ms".format(r["median_ms"]) if r["median_ms"] is not None else "-"
    return ends, free, median


def markdown(cp, mp):
    """The table: each flow on each display, CircuitPython's figures then MicroPython's."""
    out = ["| flow | display | CircuitPython: ends | least free | median pass | "
           "MicroPython: ends | least free | median pass |",
           "|---|---|---|---:|---:|---|---:|---:|"]
    for key in list(cp) + [k for k in mp if k not in cp]:
        out.append("| {} | {} | {} | {} | {} | {} | {} | {} |".format(
            key[0], key[1], *(_cell(cp.get(key)) + _cell(mp.get(key)))))
    return "\n".join(out)


def summary(cp, mp):
    """Per runtime and display: flows carried to their end, and the menu's heap (the least
    free at the power-on flow's menu)."""
    out = []
    for name, lane in (("CircuitPython 9.2.2", cp), ("MicroPython", mp)):
        for disp in ("st7789", "ssd1306"):
            rows = [r for (f, d), r in lane.items() if d == disp]
            if not rows:
                continue
            ends = sum(1 for r in rows if r["complete"])
            start = lane.get(("start", disp))
            menu = "{:.1f} KB".format(start["least_free"] / 1024) if start else "-"
            out.append("{} on the {}: {} of {} flows to their end with 24 KB held; the menu "
                       "keeps {} beside it".format(name, "Display Pack" if disp == "st7789"
                                                   else "OLED", ends, len(rows), menu))
    return out


def main():
    cp, mp = load(CP), load(MP)
    print(markdown(cp, mp))
    print()
    for line in summary(cp, mp):
        print(line)


if __name__ == "__main__":
    main()
