"""`lunchbox export --format csv|json|bgstats`: the pulled games for a spreadsheet, a script or
the BG Stats app.

bgstats writes the JSON layout of BG Stats's own export file (games, players and plays linked
by RefIds, playerScores with score, winner and seatOrder), which the app imports. Each play has
a fixed uuid made from its board, epoch and sequence number, so importing the same games again
does not add them twice. The Space Lunch Automa is not a player there: a solo play lists the
one person, a winner or not.
"""

import csv
import io
import json
import os
import sys
import time
import uuid

from . import db as dbmod
from .errors import LunchboxError
from .gamerec import GAME_NAMES, SOLO_OPPONENT
from .history import add_filters, game_text, select

FORMATS = ("csv", "json", "bgstats")
NAMESPACE = uuid.UUID("6c756e63-6862-6f78-2d67-616d65730001")  # "lunchbox-games"
FIELDS = ("id", "board", "seq", "date", "date_source", "game_id", "game", "params", "players",
          "winners", "scores", "actions", "record_hex")


def iso(unix):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(unix))


def plain(row):
    """One game as plain data (the json format's item)."""
    return {
        "id": row["id"], "board": row["board_id"], "seq": row["seq"],
        "date": iso(row["played_at"]), "date_source": row["date_source"],
        "game_id": row["game_id"], "game": game_text(row), "params": row["params"],
        "players": row["players"], "winners": [row["players"][i] for i in row["winners"]],
        "scores": row["scores"], "actions": row["actions"], "record_hex": row["record"].hex(),
    }


def to_csv(rows):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(FIELDS)
    for row in rows:
        d = plain(row)
        w.writerow([" ".join(str(x) for x in d[k]) if isinstance(d[k], list) and k == "params"
                    else "; ".join(str(x) for x in d[k]) if isinstance(d[k], list)
                    else d[k] for k in FIELDS])
    return out.getvalue()


def to_json(rows):
    return json.dumps({"lunchbox_export": 1, "games": [plain(r) for r in rows]}, indent=2) + "\n"


def play_uuid(row):
    return str(uuid.uuid5(NAMESPACE, "{}/{}/{}".format(row["board_id"], row["epoch"],
                                                       row["seq"])))


def to_bgstats(rows):
    games, players, plays = [], [], []
    game_ref, player_ref = {}, {}
    for row in rows:
        name = GAME_NAMES.get(row["game_id"], row["game_id"])
        if name not in game_ref:
            game_ref[name] = len(games) + 1
            games.append({"id": game_ref[name], "name": name, "sourceGameId": row["game_id"],
                          "uuid": str(uuid.uuid5(NAMESPACE, "game/" + row["game_id"])),
                          "cooperative": False, "highestWins": True, "noPoints": False,
                          "usesTeams": False})
        scores = []
        for seat, pname in enumerate(row["players"]):
            if pname == SOLO_OPPONENT and row["game_id"] == "space_lunch":
                continue
            if pname not in player_ref:
                player_ref[pname] = len(players) + 1
                players.append({"id": player_ref[pname], "name": pname, "isAnonymous": False,
                                "uuid": str(uuid.uuid5(NAMESPACE, "player/" + pname))})
            s = row["scores"][seat] if seat < len(row["scores"]) else None
            scores.append({"playerRefId": player_ref[pname],
                           "score": "" if s is None else str(s),
                           "winner": seat in row["winners"], "newPlayer": False,
                           "startPlayer": seat == 0, "seatOrder": seat + 1, "rank": 0})
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(row["played_at"]))
        plays.append({"uuid": play_uuid(row), "gameRefId": game_ref[name], "playDate": when,
                      "entryDate": when, "durationMin": 0, "ignored": False,
                      "manualWinner": False, "rounds": 0, "usesTeams": False,
                      "comments": "Lunchbox {} record {}; {}{}".format(
                          row["board_id"], row["seq"], game_text(row),
                          "; date of the pull" if row["date_source"] == "pulled" else ""),
                      "playerScores": scores})
    return json.dumps({"sourceName": "Lunchbox", "games": games, "players": players,
                       "locations": [], "plays": plays}, indent=2) + "\n"


WRITERS = {"csv": to_csv, "json": to_json, "bgstats": to_bgstats}


def register(parser):
    parser.add_argument("--format", choices=FORMATS, default="csv", help="default: csv")
    parser.add_argument("--out", "-o", metavar="FILE", help="write here (default: stdout)")
    add_filters(parser)


def run(args):
    with dbmod.Database(args.db) as db:
        rows = select(db, args)
    text = WRITERS[args.format](rows)
    if not args.out or args.out == "-":
        sys.stdout.write(text)
        return 0
    try:
        tmp = args.out + ".tmp"
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, args.out)
    except OSError as e:
        raise LunchboxError("cannot write {}: {}".format(args.out, e.strerror or e),
                            "give a file in a folder you can write") from None
    print("{} games written to {} ({})".format(len(rows), args.out, args.format),
          file=sys.stderr)
    return 0
