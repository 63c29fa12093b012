"""`lunchbox replay ID`: step through a pulled game in the terminal, drawing the grid or the
board after each action with the game's own describe() words.

The game is rebuilt from its record by shared_rules.games (the same rules code the board ran),
one action at a time; the final state is checked against the record, so what is shown is what
the board saw.
"""

import os
import sys

from .. import outfile
from ..errors import LunchboxError, UsageError
from . import db as dbmod
from .gamerec import match_text
from .history import add_db, date_text, game_text, score_text, winner_text


def view(game):
    """Lines drawing the game's state (a board or grid when the game has one)."""
    lines = []
    from .game_names import about

    eng = getattr(game, "engine", None)
    picture = (about(game.game_id) or {}).get("replay")  # the descriptor's: board, grid, none
    if picture == "board":
        # the game's own board: its final position once over (the match has dealt anew)
        rows = game.board().to_text().splitlines()
        lines.append("    3 4 5 6 7 8 9")
        lines += ["  {} {}".format(i + 1, " ".join(r)) for i, r in enumerate(rows)]
    elif picture == "grid" and isinstance(getattr(eng, "grid", None), list):
        grid = eng.grid
        pick = getattr(eng, "pick", None)
        lines.append("    " + " ".join("{:>3}".format("v" if c == pick else "")
                                       for c in range(3)).rstrip())
        for r in range(3):
            lines.append("    " + " ".join("{:>3}".format(grid[r * 3 + c] or ".")
                                           for c in range(3)))
    lines.append("  scores " + " ".join(str(s) for s in game.scores()))
    if hasattr(game, "match_scores"):  # a game that is one of a match (Let's Do Lunch)
        lines.append("  match {} (game {})".format(
            ":".join(str(s) for s in game.match_scores()), game.game_number()))
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


class SimScreen:
    """The firmware's own game screen in a headless simulator, opened on the state after each
    step (a saved game is the same bytes as a record: the screen resumes it)."""

    def __init__(self, game_id, profile):
        from ..sim import Simulator

        self.sim = Simulator(profile, nvm_path=None, mode="headless")
        # the game opens over this App, not in a fresh VM (companion/app/launch.py: an App built
        # by hand has no relaunch)
        self.sim.hw.relaunch = None
        from companion.app import loader, menu
        from companion.app.loop import App
        from companion.store.store import Store

        self.loader = loader
        self.app = App(self.sim.hw, Store(self.sim.nvm), menu.start, resume=False)
        self.game_id = game_id

    def show(self, game, shot=None):
        """The texts on the screen for ``game``'s state (and a PNG at ``shot``, written as
        outfile.py writes: never through a link, never half)."""
        app = self.app
        if len(app.stack) > 1:
            app.home()
        self.loader.open_game(app, self.game_id, game.to_bytes())
        app.refresh()
        if shot:
            self.sim.screenshot(shot, 2, what="--shots")
        return self.sim.texts()

    def close(self):
        self.sim.close()


def screen_lines(texts, width=96):
    """The screen's texts, in reading order, wrapped into a few lines."""
    lines, cur = [], "  |"
    for t in texts:
        t = " ".join(t.split())
        if len(cur) + 3 + len(t) > width and cur != "  |":
            lines.append(cur)
            cur = "  |"
        cur += " " + t + " |"
    lines.append(cur)
    return lines


def shot_path(folder, n):
    return os.path.join(folder, "{:03d}.png".format(n))


def register(parser):
    parser.add_argument("id", type=int, help="the game's ID in lunchbox history")
    parser.add_argument("--step", action="store_true",
                        help="wait for Enter after each action (q then Enter stops)")
    parser.add_argument("--final", action="store_true", help="show only the final state")
    parser.add_argument("--upto", type=int, metavar="N", help="stop after action N")
    parser.add_argument("--sim", action="store_true",
                        help="show each step on the simulated board's screen (its texts here)")
    parser.add_argument("--shots", metavar="DIR",
                        help="with --sim: also save the screen after each step as DIR/NNN.png")
    parser.add_argument("--profile", default="pico-display-pack",
                        help="with --sim: the hardware profile (default: %(default)s)")
    add_db(parser)


def run(args, stdin=None, out=None):
    out = out or sys.stdout
    stdin = stdin or sys.stdin
    if getattr(args, "shots", None) is not None and not getattr(args, "sim", False):
        raise UsageError("--shots saves the simulated screen: it needs --sim",
                         "add --sim, or leave out --shots")
    if getattr(args, "shots", None) == "":
        raise UsageError("--shots names no folder", "give a folder for the PNGs")
    if getattr(args, "upto", None) is not None and args.upto < 0:
        raise UsageError("--upto {} is no action number".format(args.upto),
                         "give 0 or more: the number of actions to show")
    with dbmod.Database(args.db) as db:
        row = db.get(args.id)
    if row is None or row["kind"] not in (1, 3):
        raise LunchboxError("no game with ID {}".format(args.id),
                            "lunchbox history lists the IDs")
    if row["status"] != "ok":
        raise LunchboxError("game {} is a corrupt record ({})".format(args.id, row["error"]))
    from shared_rules import games

    sim = getattr(args, "sim", False)
    if sim and args.shots:  # every file it will write, checked before the first
        outfile.make_folders(args.shots, "--shots")
        for n in range(1, len(games.parse(row["record"])[3]) + 1):
            outfile.check_target(shot_path(args.shots, n), "--shots")
    print("{}  {}  {}  (board {}, record {})".format(date_text(row), game_text(row),
                                                      ", ".join(row["players"]), row["board_id"],
                                                      row["seq"]), file=out)
    screen = None
    if sim:
        screen = SimScreen(row["game_id"], args.profile)
    try:
        final, count = games.replay(row["record"], 0), 0
        for n, player, words, game in steps(row["record"]):
            final, count = game, n
            if args.final:
                continue
            if getattr(args, "upto", None) is not None and n > args.upto:
                return 0
            print("{:>4}. {:<8} {}".format(n, who(row, player), words), file=out)
            if screen is not None:
                shot = None
                if args.shots:
                    shot = shot_path(args.shots, n)
                lines = screen_lines(screen.show(game, shot))
            else:
                lines = view(game)
            for line in lines:
                print(line, file=out)
            if args.step:
                out.flush()
                if stdin.readline().strip().lower() == "q":
                    return 0
    finally:
        if screen is not None:
            screen.close()
    if final.to_bytes() != games.replay(row["record"]).to_bytes():
        raise LunchboxError("game {}: stepping through it does not end where the board "
                            "ended".format(args.id))
    if args.final:
        for line in view(final):
            print(line, file=out)
    match = match_text(row)
    print("end: winner {}, score {}{}, {} actions".format(
        winner_text(row), score_text(row), ", match " + match if match else "", count),
        file=out)
    return 0
