"""The charts of `lunchbox stats --plot`: first what each one shows, as plain data
(``charts(rows)``), then the picture (``figure(chart)``), so a test checks both.

- ``win-rate-<game>.png`` (the game's name: ``win-rate-space-battle-race.png``): each
  player's win rate in a game, a bar each, "2 of 5" on it (a player who never won still has a
  bar's place and its count);
- the charts of the statistics a game's descriptor declares (stats.py: their data is made
  there, the picture here): ``<game>-win-rate.png`` (a ``rate_by``: Space Lunch solo per
  difficulty), games won and lost stacked, with the win rate and its 95% interval under each
  value; ``<game>-rolls.png`` (``dice``): every roll against fair dice;
  ``<game>-margins.png`` (``margins``): each game's points to its winner (Let's Do Lunch's
  cannibals left in the loser's hand), coloured by who won;
- ``scores-<game>.png``: each player's score per game over time (game 1 the oldest; players at
  the same table share the game's number). Not for a game with margins (they are its scores,
  plus and minus), and without the score of the seat the board plays alone against a player
  (the Space Lunch Automa's: gamerec.solo_opponent).

Counts have whole-number ticks; titles name games by name (game_names.py), not by id; players
are told apart as people.py says (two boards' "P1" are two players).

One colour, one meaning, in every chart of a run: each player (the Automa and the computer
too) has a colour of PLAYER_COLOURS, the same in the win rates, the margins and the scores
(``player_colours``); what is not a player has a colour no player gets (WON, LOST, ROLLED,
FAIR, TIE). With more players than colours, a colour comes back with a hatch (bars) or a
dashed line, so no two players look the same.
"""

import time

from .game_names import name, order, words
from .gamerec import solo_opponent
from .people import namer

SIZE = (6.4, 3.8)  # inches, at DPI: 640 x 380 pixels
DPI = 100
# players: matplotlib's tab10 without its green, grey and olive (kept for what is no player)
PLAYER_COLOURS = ("#1f77b4", "#ff7f0e", "#d62728", "#9467bd", "#8c564b", "#e377c2",
                  "#17becf")
WON = "#2ca02c"  # games won by the seat a rate_by follows (Space Lunch's player)
LOST = "#c7c7c7"  # ... and lost
ROLLED = "#bcbd22"  # the dice as rolled
FAIR = "#000000"  # what fair dice give
TIE = "#7f7f7f"  # a game both won, in the margins
HATCHES = ("", "//", "..", "xx")  # bars of the players past the colours' count
LINES = ("-", "--", ":", "-.")  # lines of the same
MAX_BAR_LABELS = 40  # more bars than this and the numbers on them would overlap


def file_part(game_id):
    """The game's name as a file name: "Space Battle race" -> space-battle-race."""
    return "-".join(words(name(game_id))) or "unknown"


def win_rates(rows):
    """``{game_id: [(player, games, wins)]}``, players by name; a tie is a win for each
    winner. The board's own seats (the Automa, the computer) are players too."""
    out = {}
    who = namer(rows)
    for r in rows:
        per = out.setdefault(r["game_id"], {})
        for seat, player in enumerate(r["players"]):
            player = who(r, player)
            n, w = per.get(player, (0, 0))
            per[player] = (n + 1, w + (1 if seat in r["winners"] else 0))
    return {g: [(p, n, w) for p, (n, w) in sorted(per.items())] for g, per in out.items()}


def margins(rows, game_id):
    """``[(game number, winner, points)]`` for the games of ``game_id``, oldest first ("tie"
    and 0 for a game both won)."""
    out = []
    who = namer(rows)
    games = sorted((r for r in rows if r["game_id"] == game_id and r["winners"]),
                   key=lambda r: (r["played_at"], r.get("id") or 0))
    for i, r in enumerate(games):
        w = r["winners"][0]
        if len(r["winners"]) > 1:
            out.append((i + 1, "tie", 0))
            continue
        out.append((i + 1, who(r, r["players"][w]) if w < len(r["players"])
                    else "P{}".format(w + 1), r["scores"][w]))
    return out


def scores_by_game(rows):
    """``{game_id: {player: [(game number, score)]}}``: a game's number among that game's
    games, oldest first (the score of a solo game's board seat left out: it is the board's)."""
    out = {}
    who = namer(rows)
    ordered = sorted(rows, key=lambda r: (r["played_at"], r.get("id") or 0))
    counts = {}
    for r in ordered:
        gid = r["game_id"]
        counts[gid] = counts.get(gid, 0) + 1
        per = out.setdefault(gid, {})
        board = solo_opponent(gid)
        for seat, player in enumerate(r["players"]):
            if player == board:
                continue
            if seat < len(r["scores"]):
                per.setdefault(who(r, player), []).append((counts[gid], r["scores"][seat]))
    return {g: per for g, per in out.items() if per}


def _dates(rows, gid):
    days = sorted(r["played_at"] for r in rows if r["game_id"] == gid)
    first, last = (time.strftime("%Y-%m-%d", time.localtime(d)) for d in (days[0], days[-1]))
    return first if first == last else "{} to {}".format(first, last)


def player_colours(rows):
    """``{player: (colour, style)}`` for every player of ``rows`` (as win_rates names them),
    in name order: style 0 for the first len(PLAYER_COLOURS) players, then 1, 2..."""
    names = sorted({p for players in win_rates(rows).values() for p, _, _ in players})
    n = len(PLAYER_COLOURS)
    return {p: (PLAYER_COLOURS[i % n], i // n) for i, p in enumerate(names)}


def charts(rows, declared=()):
    """Every chart the rows give, in the order written: dicts with ``file``, ``title``,
    ``kind`` and the data drawn. ``declared``: the charts (with their ``game_id``) of the
    statistics the games' descriptors declare (stats.declared_parts: the text report
    computes them too)."""
    out = []
    colours = player_colours(rows)
    for gid, players in sorted(win_rates(rows).items(), key=lambda kv: order(kv[0])):
        out.append({"file": "win-rate-{}.png".format(file_part(gid)), "kind": "win_rate",
                    "title": "{}: win rate per player".format(name(gid)), "players": players})
    out += [dict(chart) for chart in declared]
    # a game whose margins are drawn: they are its scores, plus and minus
    margined = {c["game_id"] for c in declared if c["kind"] == "margins"}
    for gid, per in sorted(scores_by_game(rows).items(), key=lambda kv: order(kv[0])):
        if gid in margined:
            continue
        out.append({"file": "scores-{}.png".format(file_part(gid)), "kind": "scores",
                    "title": "{}: scores over time ({})".format(name(gid), _dates(rows, gid)),
                    "players": sorted(per.items())})
    for chart in out:
        chart["colours"] = colours
    return out


def _style(chart, player):
    """(colour, hatch, line style) of a player in ``chart``."""
    colour, style = chart["colours"][player]
    return colour, HATCHES[style % len(HATCHES)], LINES[style % len(LINES)]


def figure(chart):
    """The matplotlib Figure of one chart (not yet saved)."""
    import matplotlib

    matplotlib.use("Agg")  # files only: no display
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator, PercentFormatter

    fig = Figure(figsize=SIZE, dpi=DPI)
    ax = fig.add_subplot()

    def whole():  # a locator per axis (one shared by two ticks only the last); min_n_ticks=1:
        return MaxNLocator(integer=True, min_n_ticks=1)  # never fractions on a short axis

    kind = chart["kind"]
    if kind == "win_rate":
        players = chart["players"]
        x = list(range(len(players)))
        looks = [_style(chart, p) for p, _, _ in players]
        bars = ax.bar(x, [w / n for _, n, w in players], color=[c for c, _, _ in looks],
                      edgecolor="#333333")
        for bar, (_, hatch, _) in zip(bars, looks):
            bar.set_hatch(hatch)
        ax.bar_label(bars, ["{} of {}".format(w, n) for _, n, w in players], padding=2)
        ax.set_xticks(x, [p for p, _, _ in players])
        ax.set_ylim(0, 1.12)  # room for the count over a bar at 100%
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax.set_ylabel("games won")
    elif kind == "levels":
        levels = chart["levels"]
        x = list(range(len(levels)))
        wins = [w for _, _, w, _, _ in levels]
        won = ax.bar(x, wins, color=WON, label="won")
        lost = ax.bar(x, [n - w for _, n, w, _, _ in levels], bottom=wins, color=LOST,
                      label="lost")
        for bars in (won, lost):
            ax.bar_label(bars, [str(int(b.get_height())) if b.get_height() else ""
                                for b in bars], label_type="center")
        ax.set_xticks(x, ["{}\n{:.0%} ({:.0%}-{:.0%})".format(lv, w / n, lo, hi)
                          for lv, n, w, lo, hi in levels])
        ax.set_ylim(0, max(n for _, n, _, _, _ in levels) * 1.25)  # room for the legend
        ax.yaxis.set_major_locator(whole())
        ax.set_ylabel("games")
        ax.set_xlabel("win rate (95% interval)")
        ax.legend(fontsize="small")
    elif kind == "rolls":
        r = chart["rows"]
        ax.bar([s for s, _, _, _ in r], [n for _, n, _, _ in r], color=ROLLED, label="rolled")
        ax.plot([s for s, _, _, _ in r], [e / 10 for _, _, e, _ in r], "_", color=FAIR,
                markersize=28, markeredgewidth=2, linestyle="none", label="fair dice")
        ax.xaxis.set_major_locator(whole())
        ax.yaxis.set_major_locator(whole())
        ax.set_xlabel("sum of the {} dice".format(chart["dice"]))
        ax.set_ylabel("rolls")
        ax.legend()
    elif kind == "margins":
        games = chart["games"]
        winners = sorted({w for _, w, _ in games})
        for who in winners:
            mine = [(g, p) for g, w, p in games if w == who]
            colour, hatch, _ = _style(chart, who) if who in chart["colours"] else (TIE, "", "")
            bars = ax.bar([g for g, _ in mine], [p for _, p in mine], color=colour,
                          hatch=hatch, label="tie" if who == "tie" else "{} won".format(who))
            if len(games) <= MAX_BAR_LABELS:
                ax.bar_label(bars, [str(p) for _, p in mine], padding=1, fontsize="small")
        ax.set_ylim(0, max([p for _, _, p in games] + [1]) * 1.3)  # the legend, the labels
        ax.xaxis.set_major_locator(whole())
        ax.yaxis.set_major_locator(whole())
        ax.set_xlabel("game (oldest first)")
        ax.set_ylabel(chart["axis"])
        ax.legend(fontsize="small")
    elif kind == "scores":
        for name_, pts in chart["players"]:
            colour, _, line = _style(chart, name_)
            ax.plot([g for g, _ in pts], [s for _, s in pts], marker="o", color=colour,
                    linestyle=line, label=name_)
        ax.set_xlim(0.5, max(g for _, pts in chart["players"] for g, _ in pts) + 0.5)
        ax.xaxis.set_major_locator(whole())
        ax.yaxis.set_major_locator(whole())
        ax.set_xlabel("game (oldest first)")
        ax.set_ylabel("score")
        ax.legend(fontsize="small")
    else:
        raise ValueError("no chart of kind {!r}".format(kind))
    ax.set_title(chart["title"], fontsize="medium")
    fig.tight_layout()
    return fig
