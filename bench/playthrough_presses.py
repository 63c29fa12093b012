"""Presses per entry (an action the device applied) and per game, for every menu game on a
display, as a table plays it through the buttons (tests/playthrough.py): the suggested move
half the time, else a random one the screen offers; no undos, no power cuts.

    .venv/bin/python bench/playthrough_presses.py [--games 100] [--profile pico-display-pack]
"""

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from playthrough import PLAYS, Policy, Table


def measure(profile, kind, games, suggest):
    total = None
    seed = 1
    while total is None or total.games < games:
        t = Table(profile, seed, Policy(suggest=suggest, undo=0, cut=0))
        try:
            t.run([(kind, min(10, games))])
        finally:
            t.box.close()
        st = t.stats[kind]
        if total is None:
            total = st
        else:
            total.games += st.games
            total.entries += st.entries
            total.presses += st.presses
        seed += 1
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--profile", default="pico-display-pack")
    ap.add_argument("--suggest", type=float, default=0.5,
                    help="chance the table takes the suggested move (default 0.5)")
    args = ap.parse_args()
    print("{} games each on {}, the suggestion taken {:.0%} of the time".format(
        args.games, args.profile, args.suggest))
    print("{:<16}{:>7}{:>9}{:>9}{:>12}{:>12}".format(
        "game", "games", "entries", "presses", "per entry", "per game"))
    for kind in PLAYS:
        g, e, p, per, pg = measure(args.profile, kind, args.games, args.suggest).row()
        print("{:<16}{:>7}{:>9}{:>9}{:>12.2f}{:>12.1f}".format(kind, g, e, p, per, pg))


if __name__ == "__main__":
    main()
