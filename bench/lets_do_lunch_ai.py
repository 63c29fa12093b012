"""Let's Do Lunch computer opponent: move time on MicroPython and strength against greedy.

Run from the repo root:
``.venv/bin/python bench/lets_do_lunch_ai.py [--games N] [--pico-ref-ms MS]``
(``--first-seed`` and ``--depth`` for other seed blocks and search depths; ``--mp-games 0`` to
skip the MicroPython timing; ``--matches N`` adds N whole matches to 20 points, item 3).

1. Move time. The strongest level plays a few seeded games inside the real MicroPython
   interpreter (the WebAssembly port the test lane uses); every decision is timed in CPU time
   (node's process.cpuUsage through the port's ``js`` module, so other load on this computer
   barely moves it; the fastest of three identical runs) next to a fixed reference loop timed
   the same way. The ratio of the two does not depend on how fast this computer is, so it
   carries over to a Pico: Pico move time ~= ratio x (the reference loop's time on a Pico).
   ASSUMPTION (stated, not measured here): the reference loop below takes about 100 ms on a
   Raspberry Pi Pico (RP2040 at 125 MHz, CircuitPython 9), i.e. ~5 us per iteration of an
   8-bytecode body. Time REFERENCE on a real board and pass ``--pico-ref-ms`` to replace it.
2. Strength. N seeded games (default 1000) of the strongest level against a greedy one-ply
   player (takes the most cannibals now, ties at random) on CPython, sides alternating (who
   has the first turn is the starting roll's; the split is printed).
3. Matches (``--matches N``, off by default: ~0.15 s CPU each). The same player, seeds and
   alternating sides, but each seed plays a whole match (the Digestif: games until a player's
   running score, won points less lost ones, reaches 20), as the Match engine plays it.
"""

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))

from shared_rules.lets_do_lunch import ai  # noqa: E402
from shared_rules.lets_do_lunch.match import Match  # noqa: E402
from shared_rules.lets_do_lunch.rules import TARGET, roll_dice  # noqa: E402
from shared_rules.rng import Rng  # noqa: E402

BUDGET_MS = 300
ASSUMED_PICO_REF_MS = 100

REFERENCE = """
def reference():
    x = 0
    for i in range(20000):
        x = (x * 31 + i) & 0xFFFF
    return x
"""

MP_CODE = REFERENCE + """
import time, gc
try:
    import js  # the WebAssembly port's bridge to node: CPU time, which other load barely moves

    def clock_us():
        u = js.process.cpuUsage()
        return u.user + u.system

    def elapsed_ms(t):
        return (clock_us() - t) / 1000
except ImportError:
    def clock_us():
        return time.ticks_ms()

    def elapsed_ms(t):
        return time.ticks_diff(time.ticks_ms(), t)
from shared_rules.rng import Rng
from shared_rules.lets_do_lunch.rules import roll_dice
from shared_rules.lets_do_lunch.match import Match
from shared_rules.lets_do_lunch import ai

def ref_ms():
    t = clock_us()
    reference()
    return elapsed_ms(t)

refs = [ref_ms() for _ in range(3)]
moves = []
for seed in range(GAMES):
    m = Match(target=1)
    dice = Rng(seed)
    rng = Rng(seed + 100)
    while not m.is_over():
        if m.is_chance():
            m.roll(roll_dice(dice))
            continue
        if m.player == seed % 2:
            # the fastest of three identical runs: another process on this computer can only
            # add time, so the minimum is the interpreter's own cost
            best = None
            state = rng.state
            for _ in range(3):
                rng.state = state
                gc.collect()
                t = clock_us()
                a = ai.choose(m, ai.HARD, rng)
                dt = elapsed_ms(t)
                if best is None or dt < best:
                    best = dt
            moves.append(best)
            refs.append(ref_ms())
        else:
            a = ai.choose(m, ai.MEDIUM, rng)
        m.apply(a)
    refs.append(ref_ms())
print('@@REF', ' '.join([str(r) for r in refs]))
print('@@MOVES', ' '.join([str(v) for v in moves]))
"""


def micropython_times(games):
    import mplane

    code = MP_CODE.replace("GAMES", str(games))
    result = mplane.run(libs=(os.path.join(ROOT, "shared_rules"),), code=code)
    refs = moves = None
    for line in result.output.splitlines():
        if line.startswith("@@REF "):
            refs = [float(v) for v in line.split()[1:]]
        elif line.startswith("@@MOVES "):
            moves = [float(v) for v in line.split()[1:]]
    if refs is None or moves is None:
        raise SystemExit("MicroPython run failed:\n" + result.output)
    return refs, moves


def strength(games, level=ai.HARD, first=0, depth=ai.HARD_DEPTH, starts=None, target=1,
             lengths=None):
    """How many of ``games`` seeded games (seeds ``first`` onwards) ``level`` wins against
    greedy, sides alternating. ``starts``, a list, receives for each game whether ``level``
    had the first turn (the starting roll decides) and whether it won. With ``target`` 20 each
    "game" is a whole match (the Digestif, first to 20 points); ``lengths``, a list, receives
    how many games each one took."""
    wins = 0
    for seed in range(first, first + games):
        hard = seed % 2
        m = Match(target=target)
        dice = Rng(seed)
        rng = Rng(seed * 7 + 1)
        started = None
        while not m.is_over():
            if m.is_chance():
                m.roll(roll_dice(dice))
            else:
                if started is None:
                    started = m.current_player() == hard
                if m.current_player() == hard:
                    m.apply(ai.choose(m, level, rng, depth))
                else:
                    m.apply(ai.greedy_action(m, rng))
        won = m.winner() == hard
        wins += won
        if lengths is not None:
            lengths.append(m.games)
        if starts is not None:
            starts.append((started, won))
    return wins


def interval(wins, games):
    """The normal-approximation 95% interval of a win rate, as (low, high)."""
    rate = wins / games
    half = 1.96 * (rate * (1 - rate) / games) ** 0.5
    return rate - half, rate + half


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="strength games (0 to skip)")
    parser.add_argument("--mp-games", type=int, default=6, help="games timed on MicroPython")
    parser.add_argument("--pico-ref-ms", type=float, default=ASSUMED_PICO_REF_MS,
                        help="the reference loop's time on a real Pico, if measured")
    parser.add_argument("--first-seed", type=int, default=0,
                        help="first seed of the strength games (another block checks the noise)")
    parser.add_argument("--depth", type=int, default=ai.HARD_DEPTH,
                        help="HARD's search depth for the strength games (3 is ~20x slower)")
    parser.add_argument("--matches", type=int, default=0,
                        help="also play N seeded whole matches to 20 points (0: none)")
    args = parser.parse_args()

    if args.mp_games > 0:
        refs, moves = micropython_times(args.mp_games)
        refs.sort()
        ref = refs[0]  # the fastest run, for the same reason as the moves
        moves.sort()
        mean = sum(moves) / len(moves)
        p90 = moves[(len(moves) * 9) // 10]
        worst = moves[-1]
        print("Let's Do Lunch AI (level HARD, expectimax depth {}) on MicroPython 1.27 "
              "(WebAssembly)"
              .format(ai.HARD_DEPTH))
        print("  reference loop: {:.1f} ms CPU (fastest of {} runs; median {:.1f} ms)".format(
            ref, len(refs), refs[len(refs) // 2]))
        print("  {} decisions (each the fastest of 3 runs): mean {:.1f} ms, "
              "90th percentile {:.1f} ms, worst {:.1f} ms (CPU time)".format(
            len(moves), mean, p90, worst))
        print("  ratio to the reference loop: mean {:.2f}, p90 {:.2f}, worst {:.2f}".format(
            mean / ref, p90 / ref, worst / ref))
        source = "ASSUMED" if args.pico_ref_ms == ASSUMED_PICO_REF_MS else "measured"
        print("  Pico estimate ({} reference loop on a Pico = {:.0f} ms): mean {:.0f} ms, "
              "p90 {:.0f} ms, worst {:.0f} ms (budget {} ms: {})".format(
                  source, args.pico_ref_ms, mean / ref * args.pico_ref_ms,
                  p90 / ref * args.pico_ref_ms, worst / ref * args.pico_ref_ms, BUDGET_MS,
                  "OK" if worst / ref * args.pico_ref_ms <= BUDGET_MS
                  else "OVER on the worst move"))
        print("  reference loop, to time on a real board:" + REFERENCE.rstrip().replace(
            "\n", "\n      "))

    if args.games > 0:
        t = time.time()
        starts = []
        wins = strength(args.games, ai.HARD, args.first_seed, args.depth, starts)
        low, high = interval(wins, args.games)
        print("Strength: HARD (depth {}) beat the greedy one-ply player in {} of {} seeded games "
              "(seeds {}..{}): {:.1%} (95% interval {:.1%}..{:.1%}), {:.0f} s".format(
                  args.depth, wins, args.games, args.first_seed,
                  args.first_seed + args.games - 1, wins / args.games, low, high,
                  time.time() - t))
        first = [won for started, won in starts if started]
        second = [won for started, won in starts if not started]
        print("          HARD had the first turn in {} games and won {:.1%} of them; {:.1%} of "
              "the {} others".format(len(first), sum(first) / max(len(first), 1),
                                     sum(second) / max(len(second), 1), len(second)))
        n = max(args.games // 5, 1)
        for name, level in (("MEDIUM", ai.MEDIUM), ("EASY", ai.EASY)):
            w = strength(n, level, args.first_seed)
            print("          {} against the same greedy player: {} of {} ({:.1%})".format(
                name, w, n, w / n))

    if args.matches > 0:
        t = time.process_time()
        starts = []
        lengths = []
        wins = strength(args.matches, ai.HARD, args.first_seed, args.depth, starts, TARGET,
                        lengths)
        low, high = interval(wins, args.matches)
        lengths.sort()
        print("Matches: HARD (depth {}) beat the greedy one-ply player in {} of {} seeded "
              "matches to {} points (seeds {}..{}): {:.1%} (95% interval {:.1%}..{:.1%}), "
              "{:.0f} s CPU".format(
                  args.depth, wins, args.matches, TARGET, args.first_seed,
                  args.first_seed + args.matches - 1, wins / args.matches, low, high,
                  time.process_time() - t))
        first = [won for started, won in starts if started]
        print("         games per match: mean {:.2f}, median {}, 90th percentile {}, {}..{}; "
              "HARD had the first turn of the first game in {} matches".format(
                  sum(lengths) / len(lengths), lengths[len(lengths) // 2],
                  lengths[(len(lengths) * 9) // 10], lengths[0], lengths[-1], len(first)))


if __name__ == "__main__":
    main()
