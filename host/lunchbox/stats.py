"""`lunchbox stats`: what the pulled games say.

- Space Lunch solo: the win rate at each difficulty, with a 95% Wilson interval (honest for
  few games and for rates near 0 or 1, where the plain +-1.96 sd interval is not).
- Let's Do Lunch: every roll of every pulled game against fair dice (the same chi-square and
  words the board shows, shared_rules/lets_do_lunch_fair.py).
- Scores per player over time, per game.

``--plot DIR`` writes the same as PNG pictures (matplotlib, no display needed).
"""

import math
import os
import time

from . import db as dbmod
from .errors import LunchboxError
from .gamerec import GAME_NAMES, SOLO_OPPONENT, SPACE_LUNCH_MODES
from .history import add_filters, nothing_to_show, select, table

Z95 = 1.959964


def wilson(wins, n, z=Z95):
    """The 95% Wilson score interval ``(low, high)`` for ``wins`` of ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def space_lunch_solo(rows):
    """``[(difficulty name, games, wins, low, high)]`` for the levels played."""
    out = []
    for mode, name in enumerate(SPACE_LUNCH_MODES[:4]):
        games = [r for r in rows if r["game_id"] == "space_lunch" and r["params"][:1] == [mode]]
        if not games:
            continue
        wins = sum(1 for r in games if r["winners"] == [0])
        low, high = wilson(wins, len(games))
        out.append((name, len(games), wins, low, high))
    return out


def ldl_rolls(rows):
    """Counts of the sums 3..9 over every roll in the pulled Let's Do Lunch games."""
    from shared_rules import games

    counts = [0] * 7
    for r in rows:
        if r["game_id"] != "lets_do_lunch":
            continue
        for a in games.parse(r["record"])[3]:
            if 111 <= a <= 333:  # a roll: the three dice, sorted, as digits
                counts[a // 100 + a // 10 % 10 + a % 10 - 3] += 1
    return counts


def scores_over_time(rows):
    """``{game_id: {player: [(unix, score, won)]}}``, oldest first."""
    out = {}
    for r in rows:
        per = out.setdefault(r["game_id"], {})
        for seat, name in enumerate(r["players"]):
            if name == SOLO_OPPONENT and r["game_id"] == "space_lunch":
                continue
            if seat < len(r["scores"]):
                per.setdefault(name, []).append((r["played_at"], r["scores"][seat],
                                                 seat in r["winners"]))
    return out


def report(rows):
    """The text of `lunchbox stats`."""
    from shared_rules import lets_do_lunch_fair as fair

    parts = ["{} game{}".format(len(rows), "" if len(rows) == 1 else "s")]
    sl = space_lunch_solo(rows)
    if sl:
        parts.append("\nSpace Lunch solo: win rate against the Automa (95% interval)")
        parts.append(table([(name, str(n), str(w), "{:.0%}".format(w / n),
                             "{:.0%} - {:.0%}".format(lo, hi)) for name, n, w, lo, hi in sl],
                           ("LEVEL", "GAMES", "WINS", "RATE", "95% INTERVAL")))
    counts = ldl_rolls(rows)
    if sum(counts):
        parts.append("\nLet's Do Lunch: {} rolls of the dice against fair dice".format(
            sum(counts)))
        parts.append(table([(str(s), str(n), fair.tenths(e10), "{}/27".format(w))
                            for s, n, e10, w in fair.rows(counts)],
                           ("SUM", "ROLLED", "EXPECTED", "CHANCE")))
        word, sentence = fair.verdict(counts)
        parts.append("{} {}".format(fair.chi_text(counts), sentence))
    for gid, per in sorted(scores_over_time(rows).items()):
        parts.append("\n{}: scores per player".format(GAME_NAMES.get(gid, gid)))
        body = []
        for name, pts in sorted(per.items()):
            s = [p[1] for p in pts]
            wins = sum(1 for p in pts if p[2])
            body.append((name, str(len(pts)), str(wins), "{:.1f}".format(sum(s) / len(s)),
                         str(min(s)), str(max(s)),
                         time.strftime("%Y-%m-%d", time.localtime(pts[-1][0]))))
        parts.append(table(body, ("PLAYER", "GAMES", "WINS", "MEAN", "MIN", "MAX", "LAST")))
    return "\n".join(parts)


def plots(rows, directory):
    """Write the PNGs; returns their paths."""
    import matplotlib

    matplotlib.use("Agg")  # files only: no display
    import matplotlib.pyplot as plt

    from shared_rules import lets_do_lunch_fair as fair

    os.makedirs(directory, exist_ok=True)
    paths = []
    sl = space_lunch_solo(rows)
    if sl:
        fig, ax = plt.subplots(figsize=(6, 3.6), dpi=100)
        x = range(len(sl))
        rates = [w / n for _, n, w, _, _ in sl]
        err = [[r - lo for r, (_, _, _, lo, _) in zip(rates, sl)],
               [hi - r for r, (_, _, _, _, hi) in zip(rates, sl)]]
        ax.bar(x, rates, color="#4a90d9", yerr=err, capsize=6)
        ax.set_xticks(list(x), ["{}\n{} games".format(name, n) for name, n, _, _, _ in sl])
        ax.set_ylim(0, 1)
        ax.set_ylabel("win rate")
        ax.set_title("Space Lunch solo against the Automa (95% interval)")
        paths.append(_save(fig, directory, "space-lunch-win-rate.png"))
    counts = ldl_rolls(rows)
    if sum(counts):
        fig, ax = plt.subplots(figsize=(6, 3.6), dpi=100)
        r = fair.rows(counts)
        ax.bar([s for s, _, _, _ in r], [n for _, n, _, _ in r], color="#d98c4a", label="rolled")
        ax.plot([s for s, _, _, _ in r], [e / 10 for _, _, e, _ in r], "k_", markersize=28,
                markeredgewidth=2, label="fair dice")
        ax.set_xlabel("sum of the three dice")
        ax.set_ylabel("rolls")
        ax.set_title("Let's Do Lunch: {} rolls; {}".format(sum(counts), fair.verdict(counts)[0]))
        ax.legend()
        paths.append(_save(fig, directory, "lets-do-lunch-rolls.png"))
    for gid, per in sorted(scores_over_time(rows).items()):
        fig, ax = plt.subplots(figsize=(6, 3.6), dpi=100)
        for name, pts in sorted(per.items()):
            ax.plot(range(1, len(pts) + 1), [p[1] for p in pts], marker="o", label=name)
        ax.set_xlabel("game (oldest first)")
        ax.set_ylabel("score")
        ax.set_title("{}: scores per player".format(GAME_NAMES.get(gid, gid)))
        ax.legend(fontsize="small")
        paths.append(_save(fig, directory, "scores-{}.png".format(gid.replace("_", "-"))))
    return paths


def _save(fig, directory, name):
    import matplotlib.pyplot as plt

    path = os.path.join(directory, name)
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)
    return path


def register(parser):
    parser.add_argument("--plot", metavar="DIR", help="also write PNG plots into DIR")
    add_filters(parser)


def run(args):
    with dbmod.Database(args.db) as db:
        rows = select(db, args)
        if nothing_to_show(db, rows):
            return 0
    print(report(rows))
    if args.plot:
        try:
            for path in plots(rows, args.plot):
                print("wrote", path)
        except OSError as e:
            raise LunchboxError("cannot write plots into {}: {}".format(
                args.plot, e.strerror or e), "give a folder you can write") from None
    return 0
