"""The heap and time table from the real-CircuitPython lane (tests/cplane.py): every flow of
bench/heap_flows.py on both display profiles, on CircuitPython 9.2.2's own interpreter in the
rp2040js emulator, from the drive `lunchbox sync` builds (.mpy by default), with 24 KB held
back from the start (LUNCHBOX_TRACE_HOLD), flows in parallel processes. With
``--runtime micropython``: the same flows on the MicroPython lane (the -mp profiles: plain
MicroPython 1.24.1 for the OLED, Pimoroni's 1.23 for the Display Pack, the file set sync puts
on their littlefs), the same trace and figures (bench/data/mp_lane.json;
bench/lanes_side_by_side.py sets the two runtimes' figures side by side).

    .venv/bin/python bench/cp_heap.py [--runtime R] [--py] [--hold BYTES] [--jobs N]
                                      [--json OUT] [FLOW...]

Per flow: whether it ran to its end with the bytes held (no MemoryError, no pystack, every
step on the screen it names), the least heap left free beside them (gc.mem_free() after a
collect, at every screen; "garbage": the least free before that collect), the slowest
pass (press to refreshed screen, ms of emulated time at 125 MHz), and the game open (the OK
on the menu to the game's first screen in its fresh VM, in seconds). Also: power-on to the
menu. docs/firmware.md's table is this output. Under it, for a flow where the computer moves,
its move (the trace's ``move=``: the search alone) and the rest of that pass (placing,
saving, drawing the board again), worst and mean.
"""

import argparse
import json
import os
import re
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

import cplane  # noqa: E402
import heap_flows  # noqa: E402

PROFILES = ("pico-display-pack", "pico-ssd1306-5btn")
MP_PROFILES = ("pico-display-pack-mp", "pico-ssd1306-5btn-mp")


def opens(run):
    """Seconds from each press that started a game's VM to that game's first screen."""
    out = []
    last_key = None
    booted = set()  # the boots (power-ons) whose first pass was seen: that one is no game open
    for e in run.events:
        if e["t"] == "key" and not e["word"].startswith(("mark:", "wait:", "shot:")):
            last_key = e
        elif e["t"] == "line":
            m = cplane._LBX.search(e["text"])
            if not m:
                continue
            if e["boot"] not in booted:
                booted.add(e["boot"])
            elif (last_key is not None and e["boot"] == last_key["boot"] and m.group(1) == "0"
                  and m.group(2) != "MainMenu"):
                # to the game's first screen on the panel (its last pixel: cplane.Pass.drawn),
                # from the key's release
                drawn = e.get("drawn")
                at = drawn if drawn is not None and drawn > last_key["emu"] else e["emu"]
                out.append(round(at - last_key["emu"] - 0.05, 2))
    return out


_MOVE = re.compile(r"LBX .* ms=(-?\d+) move=(\d+)")


def moves(run):
    """[(the pass's ms, the move's ms)] for each pass in which the computer moved."""
    out = []
    for e in run.events:
        if e["t"] == "line":
            m = _MOVE.search(e["text"])
            if m:
                out.append((int(m.group(1)) % (1 << 29), int(m.group(2))))  # ticks wrap
    return out


def move_lines(r):
    """The computer's moves in a flow: the search alone, and the rest of its pass."""
    got = r.get("moves")
    if not got:
        return []
    n = len(got)
    alone = [mv for _, mv in got]
    rest = [ms - mv for ms, mv in got]
    return ["    computer move: worst {} ms, mean {:.0f} ms over {} moves; the rest of its pass "
            "(placing, saving, redrawing): worst {} ms, mean {:.0f} ms; the pass: worst {} ms"
            .format(max(alone), sum(alone) / n, n, max(rest), sum(rest) / n,
                    max(ms for ms, _ in got))]


def jobs_of(flows, profiles=PROFILES):
    """(flow, profile) for each flow on each profile whose display it runs on."""
    return [(f, p) for f in flows for p in profiles
            if ("st7789" if "display" in p else "ssd1306") in f.get("displays",
                                                                     ("st7789", "ssd1306"))]


def one(job):
    flow_name, profile, mpy, hold = job
    flow = next(f for f in heap_flows.FLOWS if f["flow"] == flow_name)
    r = cplane.run_flow(flow, profile, mpy=mpy, hold=hold)
    passes = r.run.passes
    return {
        "flow": flow_name, "profile": profile, "mpy": mpy, "hold": hold,
        "complete": r.complete, "error": r.run.error, "crashes": r.run.crashes[:2],
        "least_free": min((p.free for p in passes), default=None),
        "least_pre": min((p.pre for p in passes), default=None),
        "slowest_ms": max((p.ms for p in passes if p.handled), default=None),
        "median_ms": sorted(p.ms for p in passes)[len(passes) // 2] if passes else None,
        "menu_s": r.run.menu_s, "open_s": opens(r.run), "moves": moves(r.run),
        "rows": r.rows,
    }


def markdown(results):
    """The table docs/firmware.md shows."""
    out = ["| flow | display | ends with 24 KB held | least free beside it | slowest pass | "
           "median pass | game opens |", "|---|---|---|---:|---:|---:|---|"]
    for r in results:
        slowest = r["slowest_ms"]  # None: no press in the flow (power-on alone)
        out.append("| {} | {} | {} | {:.1f} KB | {} | {} ms | {} |".format(
            r["flow"], "st7789" if "display" in r["profile"] else "ssd1306",
            "yes" if r["complete"] else "**no**", (r["least_free"] or 0) / 1024,
            "-" if slowest is None else "{} ms".format(slowest), r["median_ms"],
            ", ".join("{} s".format(s) for s in r["open_s"]) or "-"))
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("flows", nargs="*")
    ap.add_argument("--py", action="store_true", help=".py files, not .mpy")
    ap.add_argument("--hold", type=int, default=cplane.HOLD)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--json", metavar="OUT")
    ap.add_argument("--profile", choices=PROFILES + MP_PROFILES)
    ap.add_argument("--runtime", choices=("circuitpython", "micropython"),
                    default="circuitpython")
    a = ap.parse_args(argv)
    unknown = [f for f in a.flows if f not in [g["flow"] for g in heap_flows.FLOWS]]
    if unknown:
        ap.error("no flow called {} (bench/heap_flows.py lists them)".format(
            ", ".join(repr(f) for f in unknown)))
    flows = [f for f in heap_flows.FLOWS if not a.flows or f["flow"] in a.flows]
    mp = a.runtime == "micropython"
    profiles = [a.profile] if a.profile else MP_PROFILES if mp else PROFILES
    jobs = [(f["flow"], p, not a.py, a.hold) for f, p in jobs_of(flows, profiles)]
    with ProcessPoolExecutor(a.jobs) as ex:
        results = list(ex.map(one, jobs))
    if mp:
        print("MicroPython 1.24.1 (OLED), Pimoroni's 1.23 (Display Pack) (rp2040js), {}, {} B "
              "held back".format(".py" if a.py else ".mpy", a.hold))
    else:
        print("CircuitPython {} (rp2040js), {}, {} B held back".format(
            cplane.CP_VERSION, ".py" if a.py else ".mpy", a.hold))
    print("{:30} {:18} {:>5} {:>8} {:>8} {:>7} {:>7}  {}".format(
        "flow", "profile", "ends", "free", "garbage", "slow ms", "med ms", "opens s"))
    for r in results:
        print("{:30} {:18} {:>5} {:>8} {:>8} {:>7} {:>7}  {}".format(
            r["flow"], r["profile"], "yes" if r["complete"] else "NO",
            r["least_free"] or "-", r["least_pre"] or "-", r["slowest_ms"] or "-",
            r["median_ms"] or "-", " ".join(str(s) for s in r["open_s"]) or "-"))
        for line in move_lines(r):
            print(line)
        if not r["complete"]:
            print("   ", r["error"] or "", (r["crashes"] or [""])[0].replace("\n", " | ")[:300])
    menus = [r["menu_s"] for r in results if r["menu_s"]]
    if menus:
        print("power-on to menu: {:.2f}-{:.2f} s".format(min(menus), max(menus)))
    if a.json:
        Path(a.json).write_text(json.dumps(results, indent=1))
    print()
    print(markdown(results))
    return 0 if all(r["complete"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
