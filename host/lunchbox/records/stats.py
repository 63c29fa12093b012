"""`lunchbox stats`: what the pulled games say.

- Space Lunch solo: the win rate at each difficulty, with a 95% Wilson interval (honest for
  few games and for rates near 0 or 1, where the plain +-1.96 sd interval is not).
- Let's Do Lunch: every roll of every pulled game against fair dice (the same chi-square and
  words the board shows, shared_rules/lets_do_lunch/fair.py).
- Per player, per game: the win rate (a tie is a win for each winner), with the games and
  wins it comes from beside it, and the scores (mean, range, the last game's day).
- Time per player, per game, for the games played with the board's turn clock: the games
  timed, the time in all, a game's mean and a turn's mean (the seats the board plays left out).

``--plot DIR`` writes PNG charts (charts.py: win rates, Space Lunch by difficulty, the rolls,
Let's Do Lunch margins, scores over time; matplotlib, no display needed).
"""

import io
import math
import os
import time

from .. import outfile
from ..errors import LunchboxError, UsageError
from . import charts
from .game_names import name as game_name
from .game_names import order as game_order
from .gamerec import SOLO_OPPONENT, SPACE_LUNCH_MODES, clock_text, times
from .history import add_filters, selected, table
from .people import is_device_seat, namer

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
    """``{game_id: {player: [(unix, score, won)]}}``, oldest first; players as people.namer
    names them (two boards' "P1" are two players)."""
    out = {}
    who = namer(rows)
    for r in rows:
        per = out.setdefault(r["game_id"], {})
        for seat, name in enumerate(r["players"]):
            if name == SOLO_OPPONENT and r["game_id"] == "space_lunch":
                continue
            if seat < len(r["scores"]):
                per.setdefault(who(r, name), []).append((r["played_at"], r["scores"][seat],
                                                         seat in r["winners"]))
    return out


def time_per_player(rows):
    """``{game_id: {player: [games, seconds, turns]}}`` over the games with clock times."""
    out = {}
    who = namer(rows)
    for r in rows:
        t = times(r)
        if not t:
            continue
        per = out.setdefault(r["game_id"], {})
        for seat, name in enumerate(r["players"]):
            if seat >= len(t) or is_device_seat(name):
                continue
            got = per.setdefault(who(r, name), [0, 0, 0])
            got[0] += 1
            got[1] += t[seat][0]
            got[2] += t[seat][1]
    return out


def rate(wins, games):
    """A win rate as a person reads it: "67%" (the counts are in the columns beside it)."""
    return "{:.0%}".format(wins / games) if games else "-"


def report(rows):
    """The text of `lunchbox stats`."""
    from shared_rules.lets_do_lunch import fair

    parts = ["{} game{}".format(len(rows), "" if len(rows) == 1 else "s")]
    sl = space_lunch_solo(rows)
    if sl:
        parts.append("\nSpace Lunch solo: win rate against the Automa (95% interval)")
        parts.append(table([(name, str(n), str(w), rate(w, n),
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
    for gid, per in sorted(scores_over_time(rows).items(), key=lambda kv: game_order(kv[0])):
        parts.append("\n{}: scores per player, and how often each won".format(game_name(gid)))
        body = []
        for name, pts in sorted(per.items()):
            s = [p[1] for p in pts]
            wins = sum(1 for p in pts if p[2])
            body.append((name, str(len(pts)), str(wins), rate(wins, len(pts)),
                         "{:.1f}".format(sum(s) / len(s)), str(min(s)), str(max(s)),
                         time.strftime("%Y-%m-%d", time.localtime(pts[-1][0]))))
        parts.append(table(body, ("PLAYER", "GAMES", "WINS", "WIN RATE", "MEAN", "MIN", "MAX",
                                  "LAST")))
    for gid, per in sorted(time_per_player(rows).items(), key=lambda kv: game_order(kv[0])):
        parts.append("\n{}: time per player (turn clock)".format(game_name(gid)))
        body = []
        for name, (n, sec, turns) in sorted(per.items()):
            body.append((name, str(n), clock_text(sec), clock_text((sec + n // 2) // n),
                         str(turns), "{} s".format((sec + turns // 2) // turns) if turns
                         else "-"))
        parts.append(table(body, ("PLAYER", "GAMES", "TIME", "PER GAME", "TURNS",
                                  "PER TURN")))
    return "\n".join(parts)


def plots(rows, directory):
    """Write the PNGs (charts.py), all or none; returns their paths. A folder made for them is
    removed again when they cannot be written."""
    # (name, PNG bytes): all drawn before anything is made or written
    pngs = [(c["file"], png(charts.figure(c))) for c in chart_list(rows)]
    made = outfile.make_folders(directory, "--plot")
    items = [(os.path.join(directory, name), data) for name, data in pngs]
    try:
        outfile.write_all(items, what="--plot")
    except BaseException:
        outfile.remove_folders(made)
        raise
    return [path for path, _ in items]


def chart_list(rows):
    """What each PNG of ``plots`` shows (charts.charts)."""
    return charts.charts(rows, solo=space_lunch_solo(rows), rolls=ldl_rolls(rows))


def png(fig):
    """The figure's PNG bytes (no software tag: the same data draws the same file)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    return buf.getvalue()


def register(parser):
    parser.add_argument("--plot", metavar="DIR", help="also write PNG plots into DIR")
    add_filters(parser)


def run(args):
    if args.plot == "":
        raise UsageError("--plot names no folder", "give a folder for the PNGs")
    rows, _ = selected(args)
    if rows is None:
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
