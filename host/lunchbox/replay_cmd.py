"""`lunchbox replay ID`: step through a pulled game in the terminal, drawing the grid or the
board after each action with the game's own describe() words.

The game is rebuilt from its record by shared_rules.games (the same rules code the board ran),
one action at a time; the final state is checked against the record, so what is shown is what
the board saw.
"""

import sys

from . import db as dbmod
from .errors import LunchboxError
from .history import add_db, date_text, game_text, score_text, winner_text


def view(game):
    """Lines drawing the game's state (a board or grid when the game has one)."""
    lines = []
    eng = getattr(game, "engine", None)
    board = getattr(eng, "board", None)
    if game.game_id == "lets_do_lunch" and board is not None and hasattr(board, "to_text"):
        rows = board.to_text().splitlines()
        lines.append("    3 4 5 6 7 8 9")
        lines += ["  {} {}".format(i + 1, " ".join(r)) for i, r in enumerate(rows)]
    elif game.game_id == "space_lunch" and isinstance(getattr(eng, "grid", None), list):
        grid = eng.grid
        pick = getattr(eng, "pick", None)
        lines.append("    " + " ".join("{:>3}".format("v" if c == pick else "")
                                       for c in range(3)).rstrip())
        for r in range(3):
            lines.append("    " + " ".join("{:>3}".format(grid[r * 3 + c] or ".")
                                           for c in range(3)))
    lines.append("  scores " + " ".join(str(s) for s in game.scores()))
    return lines


def steps(record):
    """Yields ``(n, player, words, game)`` after each action of the record: the game object is
    the same one, moved on each time (draw it before asking for the next)."""
    from shared_rules import games

    game = games.replay(record, 0)
    for n, action in enumerate(games.parse(record)[3], 1):
        player = game.current_player()
        words = game.describe(action)
        game.apply(action)
        yield n, player, words, game


def who(row, player):
    from shared_rules import games

    if player == games.CHANCE:
        return "chance"
    if player == games.TABLE:
        return "table"
    names = row["players"] or []
    return names[player] if 0 <= player < len(names) else "seat {}".format(player + 1)


def register(parser):
    parser.add_argument("id", type=int, help="the game's ID in lunchbox history")
    parser.add_argument("--step", action="store_true",
                        help="wait for Enter after each action (q then Enter stops)")
    parser.add_argument("--final", action="store_true", help="show only the final state")
    add_db(parser)


def run(args, stdin=None, out=None):
    out = out or sys.stdout
    stdin = stdin or sys.stdin
    with dbmod.Database(args.db) as db:
        row = db.get(args.id)
    if row is None or row["kind"] not in (1, 3):
        raise LunchboxError("no game with ID {}".format(args.id),
                            "lunchbox history lists the IDs")
    if row["status"] != "ok":
        raise LunchboxError("game {} is a corrupt record ({})".format(args.id, row["error"]))
    from shared_rules import games

    print("{}  {}  {}  (board {}, record {})".format(date_text(row), game_text(row),
                                                      ", ".join(row["players"]), row["board_id"],
                                                      row["seq"]), file=out)
    final, count = games.replay(row["record"], 0), 0
    for n, player, words, game in steps(row["record"]):
        final, count = game, n
        if args.final:
            continue
        print("{:>4}. {:<8} {}".format(n, who(row, player), words), file=out)
        for line in view(game):
            print(line, file=out)
        if args.step:
            out.flush()
            if stdin.readline().strip().lower() == "q":
                return 0
    if final.to_bytes() != games.replay(row["record"]).to_bytes():
        raise LunchboxError("game {}: stepping through it does not end where the board "
                            "ended".format(args.id))
    if args.final:
        for line in view(final):
            print(line, file=out)
    print("end: winner {}, score {}, {} actions".format(winner_text(row), score_text(row),
                                                         count), file=out)
    return 0
