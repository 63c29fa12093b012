"""Space Battle Lunchtime at the table: the race to 21, the serve check and the best serve
(shared_rules.space_battle.race).

Race: each turn is "No serve" (a steal or a buy; the list starts there) or the serve's points,
one row each around it: "Scored 5" next, up to 12, then 4 down to 1 above it (the list wraps),
so the usual values are one to four presses away (docs/scoring.md, "Presses"). Between the
two: more points (a picker), the serve check, the scores, and points whose turn goes on (a
judge's reward: the same rows again). The equal-turns end and the flavour tie-break are asked
for when they come. Serve check: the dish's needs (OK adds one), what I would serve (it starts
as the dish's needs, the gold serve), then the points of the level reached. Best serve: my
hand, the dish, its three points: the best serve and the cards it uses.
"Who starts?" (where the race's rules take a start player): the count, then the start player,
named or picked at random (first_player.pick.TablePick, loaded only then).
"""

import shared_rules.space_battle.rules  # noqa: F401 - serve check; here: unloaded with us
from companion.screen.counters import Counter, LinesScreen
from companion.screen.pickers import Chooser, Number, saved
from companion.screen.tally import TallyScreen, ask_players, resume, resumed
from companion.screen.text import count
from shared_rules.space_battle.race import (
    FLAVORS,
    FLAVOUR,
    MORE,
    TARGET,
    BattleRace,
    best_for_dish,
    check_serve,
)
from shared_rules.space_battle.rules import LEVELS

try:  # names for the type comments, for mypy only (tests/test_api_check.py)
    from typing import TYPE_CHECKING
except ImportError:  # CircuitPython has no typing module
    TYPE_CHECKING = False  # type: ignore[misc]
if TYPE_CHECKING:  # the picker is imported on the board only when a race asks who starts
    from typing import Optional  # noqa: F401

    from companion.first_player.pick import TablePick  # noqa: F401

GAME_ID = "battle_race"
NAMES = [f[0].upper() + f[1:] for f in FLAVORS]  # "Bitter"...: the rules' names, capitalised
LEVEL_TITLES = ("Gold points", "Silver points", "Bronze points")
CARD_LABELS = ["{} {}".format(NAMES[i // 3], i % 3 + 1) for i in range(15)]
# The start player plays first and closes each round (equal turns at the end): the rules'
# second setting where they take one; until then the race starts with P1, and no pick.
STARTS = len(BattleRace.defaults) > 1


def open(app, payload=None):  # the game-module entry point name
    if payload is not None:
        app.push(RaceScreen(app, resumed(payload)))
        return

    kept = saved(app, GAME_ID)
    rows = ["Resume race" if kept else "Race to 21", "Serve check", "Best serve"]
    if kept:
        rows.append("New race")
    if STARTS:
        rows.append("Who starts?")  # last: the rows above keep their places

    def chosen(i):
        if i == 0 and kept:
            resume(app, RaceScreen, kept,
                   lambda: ask_players(app, RaceScreen, "Space Battle", 2, 5, 2))
        elif i == 1:
            serve_check(app, None)
        elif i == 2:
            best_serve(app)
        elif STARTS and i == len(rows) - 1:
            # once this list has gone (app.later): the pick's module is compiled while the
            # heap is at its emptiest, not under the race's widgets
            app.later(lambda: who_starts(app))
        else:
            ask_players(app, RaceScreen, "Space Battle", 2, 5, 2)

    app.push(Chooser(app, "Space Battle", rows, chosen))


def who_starts(app):
    """A new race that asks the count, then who starts (first_player.pick.TablePick)."""
    from companion.first_player.pick import TablePick

    ask_players(app, RaceScreen, "Space Battle", 2, 5, 2)
    scr = app.top
    scr.pick = TablePick(scr, scr._begin)
    scr.show()


def level_text(lv):
    return "none" if lv is None else LEVELS[lv]


def serve_check(app, then):
    """Needs, served, points; ``then(points, lines)`` offers it to the race (None: just show
    ``lines``, the level's points and the judge reward)."""

    def needs_done(need):
        if not sum(need):
            app.notify("A dish needs a flavour")
            return
        app.push(Counter(app, "Served", NAMES, need, 9, lambda have: served(need, have),
                         lambda have: level_text(check_serve(need, have))))

    def served(need, have):
        lv = check_serve(need, have)
        if lv is None:
            app.push(LinesScreen(app, "No serve", ["Not gold, silver", "or bronze: no",
                                                   "points"]))
            return
        app.push(Number(app, LEVEL_TITLES[lv], sum(need), 0, 99, lambda p: result(lv, p)))

    def result(lv, p):
        lines = ["{} {} points".format(LEVELS[lv], p),
                 "Judge reward" if lv == 0 else "No judge reward"]
        if then is None:
            app.push(LinesScreen(app, "Serve check", lines))
        else:
            then(p, lines)

    app.push(Counter(app, "Dish needs", NAMES, (0,) * 5, 9, needs_done))


def best_serve(app):
    def hand_done(counts):
        hand = []
        for i in range(15):
            for _ in range(counts[i]):
                hand.append((FLAVORS[i // 3], i % 3 + 1))
        if not hand or len(hand) > 10:
            app.notify("A hand is 1 to 10 cards")
            return
        app.push(Counter(app, "Dish needs", NAMES, (0,) * 5, 9,
                         lambda need: needs_done(hand, need)))

    def needs_done(hand, need):
        if not sum(need):
            app.notify("A dish needs a flavour")
            return
        t = sum(need)
        app.push(Number(app, "Gold points", t, 0, 99, lambda g: app.push(Number(
            app, "Silver points", max(0, g - 2), 0, 99, lambda s: app.push(Number(
                app, "Bronze points", max(0, s - 2), 0, 99,
                lambda b: show(hand, need, (g, s, b))))))))

    def show(hand, need, points):
        best = best_for_dish(hand, need, points)
        if best is None:
            app.push(LinesScreen(app, "Best serve", ["Nothing serves", "this dish"]))
            return
        opt, cards = best
        lines = ["{} {} points".format(opt.level, opt.points)]
        lines += ["{} {}".format(NAMES[FLAVORS.index(f)], q) for f, q in cards]
        lines.append("Judge reward" if opt.judges else "No judge reward")
        app.push(LinesScreen(app, "Best serve", lines))

    app.push(Counter(app, "My hand", CARD_LABELS, (0,) * 15, 9, hand_done))


# The serve's points rows: SPLIT..TOP after "No serve", 1..SPLIT-1 above it (the list wraps).
# SPLIT is about the middle of what a serve scores (bench/race_presses.py: a gold, silver or
# bronze level of a dish); TOP covers the dishes' levels, "More points" the rest.
SPLIT = 5
TOP = 12


class RaceScreen(TallyScreen):
    tie_words = "on flavours"
    rules = BattleRace
    # a new race that asks who starts after the count; set with mode "first"
    pick = None  # type: Optional[TablePick]

    def view(self):
        g = self.game
        nm = self.names()
        pick = self.pick
        if self.mode == "first" and pick is not None:  # mode "first" comes with its pick
            return pick.view(nm)
        if self.mode is not None and self.mode[0] == "serve":
            # the serve check's points, scored from the race's own list (a chooser over it
            # would cost a Pico its widgets); OK on a line of the result scores nothing
            p, lines = self.mode[1], self.mode[2]
            rows = [("Score, end turn", "", p), ("Score, go on", "", MORE + p)]
            return "Serve check", "", rows + [(t, "", self.leave_mode) for t in lines], 0
        if self.mode == "scores":
            # the turns played too, where the name keeps its room
            marks = [self.beside(nm[s], "{}, {}".format(g.points[s], count(g.turns[s], "turn")),
                                 str(g.points[s])) for s in range(g.n)]
            return self.lines("Scores", "to {}".format(TARGET), nm, marks)
        s = g.asking()
        if s is not None:
            rows = [("Flavours in hand", "", self._flavours), self._scores_row()]
            return "{} tie".format(nm[s]), str(g.points[s]), rows, 0
        if g.is_terminal():
            return "Race over", "", [self._scores_row()], 0
        s = g.turn
        status = str(g.points[s])  # short: a long name must fit beside it
        if self.mode == "go on":
            # a judge's reward: these points and the turn goes on; Back: not this
            high, low = self._points_rows(g.points[s], MORE)
            rows = high + [("More points", "", self._more_on)] + low
            return "{} goes on".format(nm[s]), status, rows, 0
        title = "{}'s turn".format(nm[s])
        if g.leader_reached():
            title = "{}'s last".format(nm[s])  # someone has 21: the round is played out
        high, low = self._points_rows(g.points[s], 0)
        rows = [("End turn" if g.mid else "No serve", "", 0)] + high
        rows += [("More points", "", self._points),
                 ("Serve check", "", self._serve),
                 self._scores_row(),
                 ("Scored, go on", "", self._go_on)] + low
        return title, status, rows, 0

    def _players_view(self):
        view = TallyScreen._players_view(self)
        if self.pick is not None:  # the same rows; a count then asks who starts
            lo = self.asking[1]
            view[2][:] = [(r[0], r[1], self._who(lo + i)) for i, r in enumerate(view[2])]
        return view

    def _who(self, n):
        def chosen():
            self.game = self.rules(n)
            self.set_mode("first")

        return chosen

    def _begin(self, seat):
        self.pick = None
        self.game = self.rules(self.game.n, seat)
        self.leave_mode()

    def tick(self, now):
        super().tick(now)
        if self.pick is not None:
            self.pick.tick(now)

    def on_game_button(self, button, kind):
        pick = self.pick
        if self.mode != "first" or pick is None or not pick.button(button, kind):
            super().on_game_button(button, kind)

    def exit(self):
        if self.pick is not None:  # left before the race began: LEDs off, the module let go
            from companion.first_player.pick import release

            self.pick.stop()
            release()

    def _points_rows(self, total, base):
        """The rows of a serve's points (``base`` + points): SPLIT..TOP and 1..SPLIT-1, each
        marked with the seat's total after it."""
        def row(p):
            return ("Scored {}".format(p), "={}".format(total + p), base + p)

        return ([row(p) for p in range(SPLIT, TOP + 1)],
                [row(p) for p in range(1, SPLIT)])

    def _scores_row(self):
        return ("Scores", "", self.scores)

    def _flavours(self):
        self.app.push(Number(self.app, "Flavours", 0, 0, 21,
                             lambda v: self.act(FLAVOUR + v)))

    def _serve(self):
        serve_check(self.app, lambda p, lines: self.set_mode(("serve", p, lines)))

    def _points(self):
        self.app.push(Number(self.app, "Points", TOP + 1, 0, 99, lambda p: self.act(p)))

    def _go_on(self):
        self.set_mode("go on")

    def _more_on(self):
        self.app.push(Number(self.app, "Points, go on", TOP + 1, 0, 99,
                             lambda p: self.act(MORE + p)))

    def scores(self):
        self.set_mode("scores")
