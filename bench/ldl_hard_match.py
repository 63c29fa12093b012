"""Hard's move over a match, on the real-CircuitPython lane (tests/cplane.py): Let's Do Lunch
against the computer at Hard with the box's dice, OK on everything (the human places where the
cursor starts) for N presses, on both display profiles, 24 KB held back (the lane's margin).

    .venv/bin/python bench/ldl_hard_match.py [--presses 60] [--json bench/data/ldl_hard_match.json]

Prints, per display, every Hard move's search alone (the trace's ``move=``, companion/app/trace.py)
and its whole pass (placing, saving, redrawing), worst and mean, in ms of emulated time at
125 MHz. Too long for `make soak` (about 15 minutes of the emulator per display); the flows
there play one Hard move each. docs/firmware.md and the README quote its last run.
"""

import argparse
import json
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

import cp_heap  # noqa: E402
import cplane  # noqa: E402

WAIT_MS = 1200  # after each OK: the computer's roll (600 ms on screen) and its search


def flow(presses):
    return {"flow": "lets_do_lunch against Hard, a match", "steps": [
        ("main menu", "", "MainMenu"),
        ("board", "next ok ok", "PlayScreen"),  # Let's Do Lunch, against Hard, the box's dice
        ("the match", "ok wait:{} ".format(WAIT_MS) * presses, "PlayScreen"),
    ]}


def one(job):
    profile, presses = job
    r = cplane.run_flow(flow(presses), profile)
    moves = cp_heap.moves(r.run)
    return {"profile": profile, "presses": presses, "complete": r.complete,
            "error": r.run.error, "crashes": r.run.crashes[:1],
            "least_free": r.least_free(), "moves": moves}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--presses", type=int, default=60)
    ap.add_argument("--json", metavar="OUT")
    a = ap.parse_args(argv)
    jobs = [(p, a.presses) for p in cp_heap.PROFILES]
    with ProcessPoolExecutor(len(jobs)) as ex:
        results = list(ex.map(one, jobs))
    for r in results:
        print("{}: {} Hard moves in {} presses, ran to its end with 24 KB held: {}; least "
              "free beside them {} B".format(r["profile"], len(r["moves"]), r["presses"],
                                             "yes" if r["complete"] else "NO",
                                             r["least_free"]))
        for line in cp_heap.move_lines(r):
            print(line)
        if not r["complete"]:
            print("   ", r["error"] or "", (r["crashes"] or [""])[0][:300])
    if a.json:
        Path(a.json).write_text(json.dumps(results, indent=1))
    return 0 if all(r["complete"] and r["moves"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
