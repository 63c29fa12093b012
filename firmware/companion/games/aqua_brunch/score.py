"""Aqua Brunch at the table: the six-round scoreboard (shared_rules.aqua_brunch.score).

After each Lunch, seat by seat: the three predators (the list starts on the card with the most
copies left this round), then the food card (only the ones that player still holds), with
"Aqua cards" at the end of that list for a player who drew some (tick them, then "Done").
The device asks who called Lunch, or which of equal-valued cards a player took (the list
starts on their own colour), only when that decides something, then shows the round:
strengths and what each took. Six rounds, then the winner with the own-colour tie-break.
A long Back undoes one entry at a time.
"""

from companion.screen.tally import TallyScreen, ask_players, resumed
from companion.screen.ui import TitleBar
from shared_rules.aqua_brunch.rules import AQUA_VALUES, FOOD_VALUES, LABELS
from shared_rules.aqua_brunch.score import (
    AQUA,
    ASK_LUNCH,
    ASK_TAKE,
    CHOICE,
    FOOD,
    FOOD_NAMES,
    LUNCH,
    ROUNDS,
    TAKE,
    AquaScore,
    aqua_text,
)

_FOOD_ORDER = (6, 5, 4, 3, 2, 1, 0)  # the most valuable first


def open(app, payload=None):  # the game-module entry point name
    """Resume ``payload``; None or b"" (the Aqua Brunch list's "New scoreboard"): a new one."""
    if payload:
        app.push(AquaScoreScreen(app, resumed(payload)))
        return
    ask_players(app, AquaScoreScreen, "Aqua Brunch", 3, 7, 4)


class AquaScoreScreen(TallyScreen):
    tie_words = "on colour"
    rules = AquaScore
    rules_params = (CHOICE,)  # the taker says which of equal cards they took

    def __init__(self, app, game):
        self.ticks = 0  # aqua cards ticked, not entered yet
        super().__init__(app, game)

    def view(self):
        g = self.game
        nm = self.names()
        mode = self.mode
        if mode == "scores":
            order = sorted(range(g.n), key=lambda s: (-g.points[s], -g.own[s], s))
            # points; beside tied points the tie-break too, the cards of their own colour
            # (the "on colour" of the end: always there, it would cut a long name)
            pts = g.points
            marks = []
            for s in order:
                m = "{}, colour {}".format(pts[s], g.own[s])
                tied = pts.count(pts[s]) > 1 and len(m) <= 12
                marks.append(self.beside(nm[s], m, str(pts[s])) if tied else str(pts[s]))
            return self.lines("Scores", "round {}".format(min(g.round + 1, ROUNDS)),
                              [nm[s] for s in order], marks)
        if mode is not None and mode[0] == "round":
            r = mode[1]
            st, _foods, got, _lunch = g.history[r]
            # beside each name its strength; at the right what it got and its total
            return self.lines("Round {}".format(r + 1), "strength",
                              ["{} {}".format(nm[s], st[s]) for s in range(g.n)],
                              ["{:+d} ={}".format(got[s], self._total(s, r))
                               for s in range(g.n)])
        if mode == "aqua":
            return self._aqua_view(nm)
        rnd = "round {}".format(g.round + 1)
        if g.state == ASK_LUNCH:
            st = g.strengths()
            rows = [(nm[s], "{} {}".format(st[s], FOOD_VALUES[g.food[s]]), LUNCH + s)
                    for s in range(g.n)]
            return "Who called Lunch?", "", rows + [self._scores_row()], 0
        if g.state == ASK_TAKE:
            t, v, cands = g.pending_take()
            # the taker's own colour in words (a mark beside a long name would cut it)
            rows = [("Own colour" if s == t else nm[s] + "'s", "", TAKE + s) for s in cands]
            return ("{} takes".format(nm[t]), "{}".format(v), rows + [self._scores_row()],
                    cands.index(g.default_take()))
        if g.is_terminal():
            return "Aqua Brunch", "over", [self._scores_row()], 0
        s = g.seat
        step = g.step()
        if step < 3:
            legal = g.legal_actions()
            rows = [(LABELS[k], str(g.remaining(k)), k) for k in legal]
            start = legal.index(g.likely_card())
            title = "{} card {}".format(nm[s], step + 1)
            if len(title) + len(rnd) >= self.d.title_cols or TitleBar.clock is not None:
                # a long name, or the turn clock's corner (whose turn, and the time: it needs
                # the room more): the round is on the scores (a name is never cut)
                rnd = ""
        else:
            left = g.foods_left(s)
            rows = [("{} {}".format(FOOD_NAMES[i], FOOD_VALUES[i]), "", FOOD + i)
                    for i in _FOOD_ORDER if i in left]
            if g.aqua[s] < 0 and g.aqua_taken() != 15:  # some aqua card is still free
                rows.append(("Aqua cards", "none", self._aqua))
            start = 0
            title = "{} food".format(nm[s])
            rnd = str(g.strengths()[s])  # the strength so far
        return title, rnd, rows + [self._scores_row()], start

    def _aqua_view(self, nm):
        """Tick the aqua cards the player drew (those no other player has); Done enters them;
        the title shows the strength they make."""
        g = self.game
        taken = g.aqua_taken()
        base = g.strengths()[g.seat]
        rows = [("Done", aqua_text(self.ticks), self._aqua_done)]
        for i in range(4):
            if self.ticks >> i & 1:
                base += AQUA_VALUES[i]
            if not taken >> i & 1:
                rows.append(("Aqua {}".format(AQUA_VALUES[i]),
                             "[x]" if self.ticks >> i & 1 else "[ ]", self._tick(i)))
        return "{} aqua".format(nm[g.seat]), str(base), rows, 1

    def _tick(self, i):
        def flip():
            self.ticks ^= 1 << i
            self.show()

        return flip

    def _aqua_done(self):
        if self.ticks:
            self.act(AQUA + self.ticks)
        else:
            self.leave_mode()

    def _aqua(self):
        self.ticks = 0
        self.set_mode("aqua")

    def _scores_row(self):
        return ("Scores", "", self.scores)

    def scores(self):
        self.set_mode("scores")

    def act(self, action):
        before = self.game.round
        ok = super().act(action)
        if ok and self.game.round != before and not self.game.is_terminal():
            self.set_mode(("round", self.game.round - 1))  # the round's result
        return ok

    def _total(self, s, upto):
        t = 0
        for r in range(upto + 1):
            t += self.game.history[r][2][s]
        return t
