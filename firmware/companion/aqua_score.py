"""Aqua Brunch at the table: the six-round scoreboard (shared_rules.aqua_brunch_score).

After each Lunch, seat by seat: the three predators (the list starts on the card with the most
copies left this round), the aqua cards (tick, then "Done"), the food card (only the ones that
player still holds). The device asks who called Lunch or whose card is taken only when that
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

from .tally import LinesScreen, TallyScreen, ask_players

GAME_ID = "aqua_score"
_FOOD_ORDER = (6, 5, 4, 3, 2, 1, 0)  # the most valuable first


def open(app, payload=None):  # noqa: A001 - the game-module entry point name
    if payload is not None:
        app.push(AquaScoreScreen(app, games.from_bytes(payload)))
        return
    ask_players(app, "Aqua Brunch", 3, 7, 4,
                lambda n: app.push(AquaScoreScreen(app, games.new(GAME_ID, n))))


class AquaScoreScreen(TallyScreen):
    def __init__(self, app, game):
        self.ticks = 0  # aqua cards ticked, not entered yet
        super().__init__(app, game)

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
        elif step == 3:
            taken = g.aqua_taken()
            rows = [("Done", aqua_text(self.ticks), self._aqua_done)]
            for i in range(4):
                if not taken >> i & 1:
                    on = self.ticks >> i & 1
                    rows.append(("Aqua {}".format(AQUA_VALUES[i]), "[x]" if on else "[ ]",
                                 self._toggle(i)))
            start = 0
            title = "{} aqua".format(nm[s])
        else:
            left = g.foods_left(s)
            rows = [("{} {}".format(FOOD_NAMES[i], FOOD_VALUES[i]), "", FOOD + i)
                    for i in _FOOD_ORDER if i in left]
            start = 0
            title = "{} food".format(nm[s])
            rnd = "str {}".format(g.strengths()[s])
        return title, rnd, rows + [self._scores_row()], start

    def reset_entry(self):
        self.ticks = 0

    def _scores_row(self):
        return ("Scores", "", self.scores)

    def _toggle(self, i):
        def flip():
            self.ticks ^= 1 << i
            self.show()

        return flip

    def _aqua_done(self):
        self.act(AQUA + self.ticks)

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

    def result_lines(self):
        g = self.game
        nm = self.names()
        w = g.winners()
        if len(w) == 1:
            head = "{} wins".format(nm[w[0]])
        else:
            head = "Shared: " + " ".join(nm[s] for s in w)
        order = sorted(range(g.n), key=lambda s: (-g.points[s], -g.own[s], s))
        return [head] + ["{} {} ({} own)".format(nm[s], g.points[s], g.own[s]) for s in order]
