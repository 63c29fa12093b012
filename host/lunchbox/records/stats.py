"""`lunchbox stats`: what the pulled games say.

- Per player, per game: the win rate (a tie is a win for each winner), with the games and
  wins it comes from beside it, and the scores (mean, range, the last game's day).
- Time per player, per game, for the games played with the board's turn clock: the games
  timed, the time in all, a game's mean and a turn's mean (the seats the board plays left out).
- What each game's descriptor declares of its own (shared_rules/<game>/about.json, "stats";
  docs/adding-a-game.md), one of the kinds in KINDS:
  ``rate_by``, one seat's win rate at each value of a setting with a 95% Wilson interval
  (honest for few games and for rates near 0 or 1, where the plain +-1.96 sd interval is not;
  Space Lunch solo by difficulty); ``dice``, every roll of every pulled game against fair
  dice, in the words of the game's own module the board shows them with (Let's Do Lunch's
  fair.py); ``margins``, the winner's points in each game (a chart: Let's Do Lunch).

``--plot DIR`` writes PNG charts (charts.py: win rates, the declared statistics, scores over
time; matplotlib, no display needed).
"""

import io
import math
import os
import time

from .. import outfile
from ..errors import LunchboxError, UsageError
from . import charts
from .game_names import about
from .game_names import name as game_name
from .game_names import order as game_order
from .gamerec import clock_text, solo_opponent, times, variant
from .history import add_filters, selected, table
from .people import is_device_seat, namer

Z95 = 1.959964
NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def wilson(wins, n, z=Z95):
    """The 95% Wilson score interval ``(low, high)`` for ``wins`` of ``n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


# ---- the statistics a game declares ----------------------------------------------------

# kind -> {field: (type, required)}: what a declaration may hold (docs/adding-a-game.md)
KINDS = {
    "rate_by": {"title": (str, True), "by": (str, True), "seat": (int, False),
                "param": (int, False), "values": (list, False)},
    "dice": {"module": (str, True), "actions": (list, True)},
    "margins": {"axis": (str, False)},
}


def _bad(game_id, what):
    return LunchboxError("{} (shared_rules/{}/about.json): {}".format(
        game_name(game_id), _folder(game_id), what),
        "fix the game's descriptor: its \"stats\" are in docs/adding-a-game.md")


def _folder(game_id):
    from shared_rules import games

    return games.module_of(game_id).split(".")[1]


def declared(game_id):
    """The statistics ``game_id``'s descriptor declares (a list of dicts), each checked
    against KINDS: LunchboxError, naming the file, for one that is not right."""
    out = (about(game_id) or {}).get("stats") or []
    if not isinstance(out, list):
        raise _bad(game_id, '"stats" is not a list')
    for stat in out:
        kind = stat.get("kind") if isinstance(stat, dict) else None
        if kind not in KINDS:
            raise _bad(game_id, "no statistic of kind {!r} here (the kinds: {})".format(
                kind, ", ".join(sorted(KINDS))))
        for field, (typ, required) in KINDS[kind].items():
            value = stat.get(field)
            if (value is None and required) or (value is not None and (
                    not isinstance(value, typ) or isinstance(value, bool))):
                raise _bad(game_id, "its {} statistic needs {!r} as {}".format(
                    kind, field, typ.__name__))
        unknown = sorted(set(stat) - set(KINDS[kind]) - {"kind"})
        if unknown:
            raise _bad(game_id, "its {} statistic has no field {!r}".format(kind, unknown[0]))
        if not all(_whole(v) for v in stat.get("values") or ()):
            raise _bad(game_id, "its rate_by statistic's values are not all whole numbers")
        if kind == "dice" and not _rolls(stat["actions"]):
            raise _bad(game_id, "its dice statistic's actions are not [low, high], each a "
                                "roll's dice as digits 1-9 (111, 333)")
    return out


def _whole(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _rolls(actions):
    """True for ``[low, high]``: as many digits each, 1-9, low first (111, 333)."""
    if len(actions) != 2 or not all(_whole(a) and a > 0 for a in actions):
        return False
    low, high = str(actions[0]), str(actions[1])
    return len(low) == len(high) and "0" not in low + high and low <= high


def each_declared(rows):
    """``[(game_id, n, statistic, its rows)]`` for every statistic the pulled games declare,
    games in the registry's order, ``n`` counting a game's statistics of one kind from 0."""
    by_game = {}
    for r in rows:
        by_game.setdefault(r["game_id"], []).append(r)
    out = []
    for gid in sorted(by_game, key=game_order):
        seen = {}
        for stat in declared(gid):
            n = seen.get(stat["kind"], 0)
            seen[stat["kind"]] = n + 1
            out.append((gid, n, stat, by_game[gid]))
    return out


def rates_by(rows, game_id, stat):
    """``[(value's word, games, wins, low, high)]``: how often seat ``stat["seat"]`` won alone
    at each value of setting ``stat["param"]`` (its ``values``, else those played), with the
    95% Wilson interval."""
    k, seat = stat.get("param", 0), stat.get("seat", 0)
    played = [r for r in rows if r["game_id"] == game_id and len(r["params"]) > k]
    values = stat.get("values")
    if values is None:
        values = sorted({r["params"][k] for r in played})
    out = []
    for value in values:
        games = [r for r in played if r["params"][k] == value]
        if not games:
            continue
        wins = sum(1 for r in games if r["winners"] == [seat])
        low, high = wilson(wins, len(games))
        out.append((_word(game_id, k, value), len(games), wins, low, high))
    return out


def _word(game_id, k, value):
    """Setting ``k``'s value as the game's descriptor words it ("Hard", "to 10"), when its
    ``variant`` is that setting; else the number."""
    if ((about(game_id) or {}).get("variant") or {}).get("param", 0) != k:
        return str(value)
    return variant(game_id, [0] * k + [value]) or str(value)


def dice_module(game_id, stat):
    """The game's own module that judges the dice (``stat["module"]`` in its folder)."""
    name = "shared_rules.{}.{}".format(_folder(game_id), stat["module"])
    try:
        return __import__(name, None, None, [stat["module"]])
    except ImportError as e:
        raise _bad(game_id, "its dice statistic names {} ({})".format(name, e)) from None


def dice_counts(rows, game_id, stat=None):
    """How often each sum was rolled, lowest sum first, over every roll in the pulled games
    of ``game_id``: the actions in ``stat["actions"]`` (low, high) are rolls, written as their
    dice, one digit a die (Let's Do Lunch's 111..333: three dice of 1-3)."""
    from shared_rules import games

    if stat is None:
        (stat,) = [s for s in declared(game_id) if s["kind"] == "dice"]
    low, high = stat["actions"]
    n, sides = len(str(low)), high % 10
    counts = [0] * (n * (sides - 1) + 1)
    for r in rows:
        if r["game_id"] != game_id:
            continue
        for a in games.parse(r["record"])[3]:
            dice = str(a)
            if low <= a <= high and all("1" <= d <= str(sides) for d in dice):
                counts[sum(int(d) for d in dice) - n] += 1
    return counts


def _rate_by(game_id, n, stat, rows):
    got = rates_by(rows, game_id, stat)
    if not got:
        return [], None
    text = ["\n{} (95% interval)".format(stat["title"]), table(
        [(word, str(g), str(w), rate(w, g), "{:.0%} - {:.0%}".format(lo, hi))
         for word, g, w, lo, hi in got],
        (stat["by"].upper(), "GAMES", "WINS", "RATE", "95% INTERVAL"))]
    chart = {"file": "{}-win-rate{}.png".format(charts.file_part(game_id), _nth(n)),
             "kind": "levels", "levels": got, "game_id": game_id,
             "title": "{}, by {}".format(stat["title"], stat["by"])}
    return text, chart


def _dice(game_id, n, stat, rows):
    counts = dice_counts(rows, game_id, stat)
    if not sum(counts):
        return [], None
    judge = dice_module(game_id, stat)
    got = judge.rows(counts)
    ways = sum(w for _, _, _, w in got)
    dice = len(str(stat["actions"][0]))
    text = ["\n{}: {} rolls of the dice against fair dice".format(game_name(game_id),
                                                                  sum(counts)),
            table([(str(s), str(c), judge.tenths(e10), "{}/{}".format(w, ways))
                   for s, c, e10, w in got], ("SUM", "ROLLED", "EXPECTED", "CHANCE")),
            "{} {}".format(judge.chi_text(counts), judge.verdict(counts)[1])]
    chart = {"file": "{}-rolls{}.png".format(charts.file_part(game_id), _nth(n)),
             "kind": "rolls", "rows": got, "game_id": game_id,
             "dice": NUMBERS[dice] if dice < len(NUMBERS) else str(dice),
             "title": "{}: {} rolls; {}".format(game_name(game_id), sum(counts),
                                               judge.verdict(counts)[0])}
    return text, chart


def _margins(game_id, n, stat, rows):
    got = charts.margins(rows, game_id)
    if not got:
        return [], None
    return [], {"file": "{}-margins{}.png".format(charts.file_part(game_id), _nth(n)),
                "kind": "margins", "games": got, "game_id": game_id,
                "axis": stat.get("axis") or "points",
                "title": "{}: points per game".format(game_name(game_id))}


def _nth(n):
    """A file name's part for a game's second statistic of a kind and on: "", "-2", ..."""
    return "-{}".format(n + 1) if n else ""


MAKERS = {"rate_by": _rate_by, "dice": _dice, "margins": _margins}


def declared_parts(rows):
    """``[(text parts, chart or None)]`` of every declared statistic the rows give."""
    return [MAKERS[stat["kind"]](gid, n, stat, game_rows)
            for gid, n, stat, game_rows in each_declared(rows)]


def scores_over_time(rows):
    """``{game_id: {player: [(unix, score, won)]}}``, oldest first; players as people.namer
    names them (two boards' "P1" are two players)."""
    out = {}
    who = namer(rows)
    for r in rows:
        per = out.setdefault(r["game_id"], {})
        board = solo_opponent(r["game_id"])
        for seat, name in enumerate(r["players"]):
            if name == board:
                continue  # the board's own score
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
    parts = ["{} game{}".format(len(rows), "" if len(rows) == 1 else "s")]
    for text, _chart in declared_parts(rows):
        parts += text
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
    return charts.charts(rows, [chart for _text, chart in declared_parts(rows) if chart])


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
