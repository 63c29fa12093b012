"""`lunchbox export --format csv|json|bgstats`: the pulled games for a spreadsheet, a script or
the BG Stats app.

csv and json carry the schema version ``lunchbox_export`` (docs/records.md, "Export
formats"): a column of every row, a key of the document. bgstats is BG Stats' own import file
(bgstats.py). ``-o FILE`` replaces only a regular file, atomically (outfile.py).
"""

import csv
import io
import json
import os
import sys
import time

from .. import outfile
from ..errors import LunchboxError, UsageError
from . import bgstats
from .gamerec import times
from .history import add_filters, game_text, selected

FORMATS = ("csv", "json", "bgstats")
SCHEMA = 1  # the csv and json layout's version: raised when a field changes meaning or goes
FIELDS = ("id", "board", "seq", "date", "date_source", "game_id", "game", "params", "players",
          "winners", "scores", "actions", "record_hex", "seconds", "turns", "lunchbox_export")


def iso(unix):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(unix))


def plain(row):
    """One game as plain data (the json format's item). ``seconds`` and ``turns``: each
    seat's time and turns on the board's turn clock, None (an empty CSV cell) without it."""
    clock = times(row)
    return {
        "id": row["id"], "board": row["board_id"], "seq": row["seq"],
        "date": iso(row["played_at"]), "date_source": row["date_source"],
        "game_id": row["game_id"], "game": game_text(row), "params": row["params"],
        "players": row["players"], "winners": [row["players"][i] for i in row["winners"]],
        "scores": row["scores"], "actions": row["actions"], "record_hex": row["record"].hex(),
        "seconds": [t[0] for t in clock] if clock else None,
        "turns": [t[1] for t in clock] if clock else None,
        "lunchbox_export": SCHEMA,
    }


def to_csv(rows):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(FIELDS)
    for row in rows:
        d = plain(row)
        w.writerow([" ".join(str(x) for x in d[k]) if isinstance(d[k], list) and k == "params"
                    else "; ".join(str(x) for x in d[k]) if isinstance(d[k], list)
                    else "" if d[k] is None else d[k] for k in FIELDS])
    return out.getvalue()


def to_json(rows):
    games = [{k: v for k, v in plain(r).items() if k != "lunchbox_export"} for r in rows]
    return json.dumps({"lunchbox_export": SCHEMA, "games": games}, indent=2) + "\n"


WRITERS = {"csv": to_csv, "json": to_json}


def _same_file(a, b):
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):  # one of them is not there: not the same
        return False


def register(parser):
    parser.add_argument("--format", choices=FORMATS, default="csv", help="default: csv")
    parser.add_argument("--out", "-o", metavar="FILE",
                        help="write here (default: stdout); replaces only a regular file")
    parser.add_argument("--me", metavar="NAME", help="bgstats: the player who is you in the "
                        "app (default: the person in the most plays)")
    add_filters(parser)


def run(args):
    if args.out == "":
        raise UsageError("-o names no file", "give a file name, or '-o -' for stdout")
    rows, database = selected(args, say_none=False)  # no games: an empty export
    if args.format == "bgstats":
        text = bgstats.to_bgstats(rows, me=getattr(args, "me", None))
    else:
        text = WRITERS[args.format](rows)
    if not args.out or args.out == "-":
        sys.stdout.write(text)
        return 0
    if _same_file(args.out, database):
        raise LunchboxError("cannot write {} (-o): it is the games database itself; left as it "
                            "is".format(args.out), "give another file name")
    outfile.write(args.out, text.encode("utf-8"))
    print("{} games written to {} ({})".format(len(rows), args.out, args.format),
          file=sys.stderr)
    return 0
