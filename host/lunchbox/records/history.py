"""`lunchbox history`: the pulled games as a table (date, game, players, winner, score, and
each player's time for a game played with the board's turn clock), with filters by game,
player and board. The filters and the words for a row are shared by
`export`, `stats` and `replay`."""

import time

from ..errors import LunchboxError, shown
from . import db as dbmod
from .game_names import NAMES, about, lookup, name
from .gamerec import clock_text, match_text, times, variant

PULLED_MARK = "~"  # a date that is the pull's, not the board's


def add_db(parser):
    parser.add_argument("--db", help="games database file (default: in your user data folder; "
                        "or $" + dbmod.DB_ENV + ")")


def recorded_names():
    """The names ``--game`` offers: every game that keeps records, as players say it."""
    return ", ".join(n for gid, n, _ in NAMES if (about(gid) or {}).get("recorded", True))


def add_filters(parser):
    parser.add_argument("--game", help="only this game, by its name in any case, its id, or a "
                        "part that fits one game ('lets do', race): " + recorded_names())
    parser.add_argument("--player", help="only games this player played (a name from the "
                        "board's Settings)")
    parser.add_argument("--board", help="only games from this board (its id or the start of it)")
    add_db(parser)


def game_id(text):
    """The game id for what a user typed (game_names.lookup); None for no filter."""
    return None if text is None else lookup(text)


def nothing_to_show(db, rows):
    """True, after saying so, when the filters left no game; LunchboxError when no game was
    ever pulled (then the fix is to pull, not to change the filters)."""
    if rows:
        return False
    if db.count() == 0:
        raise LunchboxError("no games pulled yet ({})".format(shown(db.path)),
                            "finish a game on the Lunchbox, then: lunchbox pull")
    print("no games match")
    return True


def select(db, args):
    return db.games(game=game_id(getattr(args, "game", None)),
                    player=getattr(args, "player", None), board=getattr(args, "board", None))


def selected(args, say_none=True):
    """``(rows, path)``: the games the filters pick from the database ``args.db`` names, and
    that database's path. With ``say_none``, rows is None when the filters left no game, after
    saying so (nothing_to_show)."""
    with dbmod.Database(args.db) as db:
        rows = select(db, args)
        if say_none and nothing_to_show(db, rows):
            rows = None
        return rows, db.path


def date_text(row, fmt="%Y-%m-%d %H:%M"):
    if row.get("played_at") is None:
        return "?"
    text = time.strftime(fmt, time.localtime(row["played_at"]))
    return text + (PULLED_MARK if row.get("date_source") == "pulled" else "")


def game_text(row):
    v = variant(row["game_id"], row["params"])
    return "{} ({})".format(name(row["game_id"]), v) if v else name(row["game_id"])


def winner_text(row):
    w = row.get("winners") or []
    players = row.get("players") or []
    if not w:
        return "-"
    if len(w) == len(players) and len(w) > 1:
        return "tie"
    return " & ".join(players[i] if i < len(players) else "P{}".format(i + 1) for i in w)


def score_text(row):
    return ":".join(str(s) for s in row.get("scores") or [])


def time_text(row):
    """Each seat's time on the turn clock, in the seats' order ("9:58 12:03"); "" without."""
    t = times(row)
    return " ".join(clock_text(s) for s, _ in t) if t else ""


def table(rows, headers):
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    line = "  ".join("{{:<{}}}".format(w) for w in widths)
    out = [line.format(*headers).rstrip(), line.format(*("-" * w for w in widths)).rstrip()]
    out += [line.format(*r).rstrip() for r in rows]
    return "\n".join(out)


def register(parser):
    add_filters(parser)
    parser.add_argument("--crashes", action="store_true",
                        help="list the crash reports pulled off the boards instead")
    parser.add_argument("--corrupt", action="store_true",
                        help="also list records that did not replay (kept aside at pull)")


def run(args):
    with dbmod.Database(args.db) as db:
        if args.crashes:
            rows = db.crashes()
            if not rows:
                print("no crash reports")
                return 0
            print(table([(str(r["id"]), r["board_id"], str(r["seq"]),
                          time.strftime("%Y-%m-%d %H:%M", time.localtime(r["pulled_at"])),
                          r["error"] or "") for r in rows],
                        ("ID", "BOARD", "SEQ", "PULLED", "WHERE|WHAT")))
            return 0
        rows = select(db, args)
        if args.corrupt:
            rows += [r for r in db.games(include_bad=True) if r["status"] == "corrupt"]
        if nothing_to_show(db, rows):
            return 0
        out = []
        for r in rows:
            if r["status"] != "ok":
                out.append((str(r["id"]), "-", "corrupt record {} of board {}".format(
                    r["seq"], r["board_id"]), "", "", r["error"] or "", "", ""))
                continue
            out.append((str(r["id"]), date_text(r), game_text(r), ", ".join(r["players"]),
                        winner_text(r), score_text(r), time_text(r), match_text(r)))
        # TIME: each player's time on the turn clock; MATCH: a Let's Do Lunch game's match
        # score after it, beside the game's own score. Each only when a game has it.
        headers = ("ID", "DATE", "GAME", "PLAYERS", "WINNER", "SCORE", "TIME", "MATCH")
        keep = [i for i in range(len(headers)) if i < 6 or any(row[i] for row in out)]
        print(table([tuple(row[i] for i in keep) for row in out],
                    tuple(headers[i] for i in keep)))
        if any(r.get("date_source") == "pulled" for r in rows):
            print("{} the board's clock was not set: the date is when the game was pulled"
                  .format(PULLED_MARK))
    return 0
