"""Aqua Brunch at the table: the six-round scoreboard (shared_rules.aqua_brunch_score).

After each Lunch, seat by seat: the three predators (the list starts on the card with the most
copies left this round), then the food card (only the ones that player still holds), with
"Aqua cards" at the end of that list for a player who drew some (tick them, then "Done"). The device asks who called Lunch or whose card is taken only when that
decides something, then shows the round: strengths and what each took. Six rounds, then the
winner with the own-colour tie-break. A long Back undoes one entry at a time.
"""

from shared_rules import games
from shared_rules.aqua_brunch import AQUA_VALUES, FOOD_VALUES
from shared_rules.aqua_brunch_score import (
    AQUA,
    ASK_LUNCH,
    ASK_TAKE,
    FOOD,
    FOOD_NAMES,
    LABELS,
    LUNCH,
    ROUNDS,
    TAKE,
    aqua_text,
)

from .pickers import LinesScreen, ask_players
from .screens import ListScreen
from .tally import TallyScreen

GAME_ID = "aqua_score"
_FOOD_ORDER = (6, 5, 4, 3, 2, 1, 0)  # the most valuable first


def open(app, payload=None):  # noqa: A001 - the game-module entry point name
    if payload is not None:
        app.push(AquaScoreScreen(app, games.from_bytes(payload)))
        return
    ask_players(app, "Aqua Brunch", 3, 7, 4,
                lambda n: app.push(AquaScoreScreen(app, games.new(GAME_ID, n))))


class AquaScoreScreen(TallyScreen):
    tie_words = "on colour"

    def view(self):
        g = self.game
        nm = self.names()
        rnd = "R{}/{}".format(g.round + 1, ROUNDS)
        if g.state == ASK_LUNCH:
            st = g.strengths()
            rows = [(nm[s], "{} {}".format(st[s], FOOD_VALUES[g.food[s]]), LUNCH + s)
                    for s in range(g.n)]
            return "Who called Lunch?", "", rows + [self._scores_row()], 0
        if g.state == ASK_TAKE:
            t, v, cands = g.pending_take()
            rows = [(nm[s] + "'s", "", TAKE + s) for s in cands]
            return "{} takes".format(nm[t]), "{}".format(v), rows + [self._scores_row()], 0
        if g.is_terminal():
            return "Aqua Brunch", "over", [self._scores_row()], 0
        s = g.seat
        step = g.step()
        if step < 3:
            legal = g.legal_actions()
            rows = [(LABELS[k], str(g.remaining(k)), k) for k in legal]
            start = legal.index(g.likely_card())
            title = "{} card {}".format(nm[s], step + 1)
        else:
            left = g.foods_left(s)
            rows = [("{} {}".format(FOOD_NAMES[i], FOOD_VALUES[i]), "", FOOD + i)
                    for i in _FOOD_ORDER if i in left]
            if g.aqua[s] < 0:
                rows.append(("Aqua cards", "none", self._aqua))
            start = 0
            title = "{} food".format(nm[s])
            rnd = "str {}".format(g.strengths()[s])
        return title, rnd, rows + [self._scores_row()], start

    def _scores_row(self):
        return ("Scores", "", self.scores)

    def _aqua(self):
        self.app.push(AquaTicks(self.app, self))

    def act(self, action):
        before = self.game.round
        ok = super().act(action)
        if ok and self.game.round != before and not self.game.is_terminal():
            self.round_result(self.game.round - 1)
        return ok

    def round_result(self, r):
        g = self.game
        st, foods, got, _lunch = g.history[r]
        nm = self.names()
        lines = ["{} {}".format(nm[s], st[s]) for s in range(g.n)]
        marks = ["{:+d} ={}".format(got[s], self._total(s, r)) for s in range(g.n)]
        self.app.push(LinesScreen(self.app, "Round {}".format(r + 1), lines, marks,
                                  "str, got"))

    def _total(self, s, upto):
        t = 0
        for r in range(upto + 1):
            t += self.game.history[r][2][s]
        return t

    def scores(self):
        g = self.game
        nm = self.names()
        order = sorted(range(g.n), key=lambda s: (-g.points[s], -g.own[s], s))
        lines = [nm[s] for s in order]
        marks = ["{} own {}".format(g.points[s], g.own[s]) for s in order]
        self.app.push(LinesScreen(self.app, "Scores", lines, marks,
                                  "R{}".format(min(g.round + 1, ROUNDS))))


class AquaTicks(ListScreen):
    """Tick the aqua cards a player drew (those not with another player); "Done" enters them.
    The title shows the strength they make."""

    def __init__(self, app, board):
        self.board = board
        g = board.game
        taken = g.aqua_taken()
        self.free = [i for i in range(4) if not taken >> i & 1]
        self.ticks = 0
        super().__init__(app, "{} aqua".format(board.names()[g.seat]), 1)

    def items(self):
        return ["Done"] + ["Aqua {}".format(AQUA_VALUES[i]) for i in self.free]

    def marks(self):
        return [aqua_text(self.ticks)] + ["[x]" if self.ticks >> i & 1 else "[ ]"
                                          for i in self.free]

    def status(self):
        g = self.board.game
        base = g.strengths()[g.seat]
        for i in range(4):
            if self.ticks >> i & 1:
                base += AQUA_VALUES[i]
        return "str {}".format(base)

    def activate(self, index):
        if index == 0:
            self.app.pop()
            if self.ticks:
                self.board.act(AQUA + self.ticks)
            return
        self.ticks ^= 1 << self.free[index - 1]
        self.refresh_items()
