"""Let's Do Lunch: how much better than greedy can any computer player be? (the 65% goal:
docs/lets-do-lunch.md)

Run from the repo root: ``.venv/bin/python bench/lets_do_lunch_ceiling.py [--games N]
[--positions P --n1 N1 --n2 N2]``. Needs a C compiler (``cc``, or ``CC``); takes about two minutes
with the defaults.

The Python engine plays about 70 games a second, too few to tell apart players that differ by a
point or to roll a position out thousands of times. ``lets_do_lunch_ceiling.c`` is a C port of
the game, the greedy baseline and the shipped HARD, made for measuring only. It prints:

1. Agreement: the C port and ``shared_rules`` play the same seeded games (dice, tie-breaks and
   HARD's choices); every game's winner must match, or the figures below mean nothing.
2. HARD against greedy over N seeded games (default 40,000: 95% margin about +-0.5 points), for
   the shipped root weights and for the weights shipped before they were tuned.
3. The ceiling probe. At one HARD decision in each of P seeded games, every candidate placement is
   valued by N1 rollouts (HARD against greedy to the end of the game, the same dice for every
   candidate), and the rollout-best one and HARD's own choice are valued again by N2 fresh
   rollouts. The mean gain is how much win chance a player that rolls every position out
   thousands of times (one step of policy improvement over HARD, some 10^5 times the Pico's move
   budget) would add per decision; times HARD's decisions per game it estimates how far such a
   player would get. It is an estimate of the ceiling, not a proof: a deeper improvement could
   add a little more.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import lets_do_lunch_ai as python_bench  # noqa: E402  (the seeded games, in shared_rules)

ai = python_bench.ai

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lets_do_lunch_ceiling.c")
SHIPPED = (ai.H_MINE, ai.H_THEIRS, ai.H_ENEMY_THREATS, ai.H_OWN_NEIGHBOURS, ai.H_EDGE_ROW)
BEFORE_TUNING = (4, 1, 0, 0, 0)  # the root weights shipped until 2026-11-30


def build(workdir):
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        raise SystemExit("no C compiler found (set CC): this bench needs one")
    exe = os.path.join(workdir, "ceiling")
    subprocess.run([cc, "-O2", "-o", exe, SOURCE, "-lm"], check=True)
    return exe


def c_rate(exe, first, games, weights):
    out = subprocess.run([exe, "rate", str(first), str(games)] + [str(w) for w in weights],
                         check=True, capture_output=True, text=True).stdout.split()
    return int(out[1])


def run_parallel(commands):
    """Run the commands at once (one per core helps on long runs); their outputs in order."""
    procs = [subprocess.Popen(c, stdout=subprocess.PIPE, text=True) for c in commands]
    outs = [p.communicate()[0] for p in procs]
    for c, p in zip(commands, procs):
        if p.returncode:
            raise SystemExit("{} failed ({})".format(" ".join(c), p.returncode))
    return outs


def rate_split(exe, first, games, weights, jobs):
    """(HARD's wins, its decisions with a choice) over the seeds, one process per job."""
    step = -(-games // jobs)
    cmds = []
    for k in range(jobs):
        a = first + k * step
        n = min(step, first + games - a)
        if n > 0:
            cmds.append([exe, "rate", str(a), str(n)] + [str(w) for w in weights])
    outs = [o.split() for o in run_parallel(cmds)]
    return sum(int(o[1]) for o in outs), sum(int(o[7]) for o in outs)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check-games", type=int, default=300,
                        help="seeded games played by both engines to check they agree")
    parser.add_argument("--games", type=int, default=40000, help="games for the win rates")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--positions", type=int, default=40,
                        help="positions for the ceiling probe (0 to skip; 200 for the docs)")
    parser.add_argument("--n1", type=int, default=500, help="rollouts per candidate to pick")
    parser.add_argument("--n2", type=int, default=2000, help="fresh rollouts to value the pick")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        exe = build(tmp)

        wrong = []
        for seed in range(args.check_games):
            if python_bench.strength(1, first=seed) != c_rate(exe, seed, 1, SHIPPED):
                wrong.append(seed)
        print("1. agreement: the C port and shared_rules agree on {} of {} seeded games".format(
            args.check_games - len(wrong), args.check_games))
        if wrong:
            raise SystemExit("   they differ on seeds {}: fix the port before trusting it".format(
                wrong[:10]))

        print("2. HARD against greedy, seeds {}..{}:".format(
            args.first_seed, args.first_seed + args.games - 1))
        per = None
        for name, weights in (("shipped root weights {}".format(SHIPPED), SHIPPED),
                              ("before tuning {}".format(BEFORE_TUNING), BEFORE_TUNING)):
            wins, choices = rate_split(exe, args.first_seed, args.games, weights, args.jobs)
            if per is None:
                per = choices / args.games  # the shipped HARD's decisions with a choice
            low, high = python_bench.interval(wins, args.games)
            print("   {}: {} of {} = {:.2%} (95% interval {:.2%}..{:.2%})".format(
                name, wins, args.games, wins / args.games, low, high))

        if args.positions > 0:
            jobs = max(1, min(args.jobs, args.positions))
            share = -(-args.positions // jobs)
            cmds = []
            left = args.positions
            for k in range(jobs):
                n = min(share, left)
                left -= n
                if n > 0:
                    cmds.append([exe, "gap", str(100000 * k), str(n), str(args.n1),
                                 str(args.n2)])
            gains = []
            differ = 0
            for out in run_parallel(cmds):
                for line in out.splitlines():
                    if line.startswith("position"):
                        gains.append(float(line.split()[-1]))
                    elif line.startswith("mean gain"):
                        differ += int(line.split("differs in ")[1].rstrip(")"))
            mean = sum(gains) / len(gains)
            sd = (sum((g - mean) ** 2 for g in gains) / max(len(gains) - 1, 1)) ** 0.5
            se = sd / len(gains) ** 0.5
            print("3. ceiling probe: {} positions, {} rollouts per candidate to pick, {} to value"
                  .format(len(gains), args.n1, args.n2))
            print("   rollouts chose another placement than HARD in {} of {}".format(
                differ, len(gains)))
            print("   win chance gained per decision: {:+.2%} (standard error {:.2%})".format(
                mean, se))
            print("   HARD has {:.1f} decisions with a choice per game: such a player would "
                  "gain about {:+.1f} points per game over HARD (95% margin +-{:.1f})".format(
                      per, 100 * mean * per, 196 * se * per))


if __name__ == "__main__":
    main()
