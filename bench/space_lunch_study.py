"""Monte Carlo study of the Space Lunch solo game: how often a sensible, hint-using human beats
the Automa at each difficulty.

    .venv/bin/python bench/space_lunch_study.py                 # 500 games per difficulty
    .venv/bin/python bench/space_lunch_study.py --games 10000   # the figures in docs/space-lunch.md
    .venv/bin/python bench/space_lunch_study.py --games 10000 --difficulty 2

Game i of a difficulty shuffles its deck with Rng(seed + i), so every figure can be replayed.
The human policy (``choose``) is documented in docs/space-lunch.md.
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
# _space_lunch: the seeded games, shared with the portable tests
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "portable"))
# the firmware's portable view: its suggestion is the policy studied
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "firmware"))

import _space_lunch

from companion.games.space_lunch.view import suggest
from shared_rules.rng import Rng
from shared_rules.space_lunch.hints import hints
from shared_rules.space_lunch.rules import (
    AUTOMA,
    AUTOMA_SEAT,
    DIFFICULTIES,
    HUMAN,
    Solo,
    decode,
)


def choose(game):
    """The policy, the device's own suggestion (companion/games/space_lunch/view.py suggest):
    win if any action wins; otherwise the best-rated take (by the hints), using a coupon only
    when it wins, when no take is safe, or to grab the last card of a triplet with Chill Jar
    while that is safe."""
    return suggest(game)


def play(difficulty, seed):
    """One game; returns the finished Solo state."""
    return _space_lunch.play_solo(difficulty, Rng(seed), choose)


def study(difficulty, games, seed):
    wins, reasons, coupons, turns = 0, {}, 0, 0
    for i in range(games):
        g = play(difficulty, seed + i)
        wins += g.winner == HUMAN
        key = ("human " if g.winner == HUMAN else "Automa ") + g.reason
        reasons[key] = reasons.get(key, 0) + 1
        coupons += DIFFICULTIES[difficulty][1] - g.coupons
        turns += sum(g.taken[HUMAN])
    return wins, reasons, coupons, turns


def time_hints(positions=200, seed=12345):
    """Average time of hints() (all actions, and takes only) over positions of seeded games."""
    rng = Rng(seed)
    states = []
    while len(states) < positions:
        deck = [t for t in range(1, 13) for _ in range(3)]
        rng.shuffle(deck)
        g = Solo(rng.randbelow(4))
        while not g.is_over() and len(states) < positions:
            if g.pending:
                g.apply(deck.pop(0))
            elif g.turn == AUTOMA_SEAT:
                g.apply(AUTOMA)
            else:
                states.append(g.copy())
                a = choose(g)
                g.apply(a)
                if g.pending and decode(a)[0] == "hot":
                    deck.append(g.bottom[-1])
    out = []
    for coupons in (True, False):
        t0 = time.time()
        for g in states:
            hints(g, coupons)
        out.append(1000 * (time.time() - t0) / len(states))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=500, help="games per difficulty (default 500)")
    p.add_argument("--seed", type=int, default=1, help="seed of game 0 (default 1)")
    p.add_argument("--difficulty", type=int, choices=range(4), action="append",
                   help="0 Easy, 1 Medium, 2 Hard, 3 Extreme (default: all)")
    args = p.parse_args(argv)
    print("Space Lunch solo, hint-using human, {} games per difficulty, seeds {}..{}".format(
        args.games, args.seed, args.seed + args.games - 1))
    print("| Difficulty | Coupons | Automa needs | Human wins | Win rate | How games end | "
          "Coupons used/game | Cards taken/game | s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for d in args.difficulty or range(4):
        t0 = time.time()
        wins, reasons, coupons, taken = study(d, args.games, args.seed)
        name, n_coupons, pairs = DIFFICULTIES[d]
        ends = ", ".join("{} {:.1f}%".format(k, 100 * v / args.games)
                         for k, v in sorted(reasons.items()))
        print("| {} | {} | {} pairs | {} | {:.1f}% | {} | {:.2f} | {:.1f} | {:.0f} |".format(
            name, n_coupons, pairs, wins, 100 * wins / args.games, ends,
            coupons / args.games, taken / args.games, time.time() - t0))
    full, takes = time_hints()
    print("hints() on this machine: {:.1f} ms per position with coupon actions, {:.1f} ms for "
          "the takes only (a Pico is roughly 50-100x slower)".format(full, takes))


if __name__ == "__main__":
    main()
