"""Space Days at the table: end-of-game scoring and "Can I play this here?"
(shared_rules.space_days_score).

Scoring: for each player, Monday to Sunday, the top card of the day (only the cards that may
sit on that day are listed; a Gaseous Cloud scores 0 and hides what is under it). When the top
scores tie, the tied players' cards on their boards decide. "Can I play here?" (a row of the
same list) answers yes or no with the reason, over the tops entered so far.
"""

import shared_rules.space_days_legal  # noqa: F401 - "Can I play here?"; here: unloaded with us
from shared_rules import games
from shared_rules.space_days_cards import DEFAULT_COUNTS, KINDS, card_score
from shared_rules.space_days_score import COUNT, DAY_LABELS, LABELS, MAX_COUNT, fits

from .pickers import Chooser, Number, ask_players, saved
from .screens import MessageScreen
from .tally import TallyScreen

GAME_ID = "days_score"
DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def open(app, payload=None):  # noqa: A001 - the game-module entry point name
    if payload is not None:
        app.push(DaysScreen(app, games.from_bytes(payload)))
        return
    kept = saved(app, GAME_ID)

    def new():
        ask_players(app, "Space Days", 2, 5, 2,
                    lambda n: app.push(DaysScreen(app, games.new(GAME_ID, n))))

    if kept is None:
        new()
        return

    def chosen(i):
        if i == 0:
            app.push(DaysScreen(app, games.from_bytes(kept)))
        else:
            new()

    app.push(Chooser(app, "Space Days", ["Resume scoring", "New scoring"], chosen))


def likely(day):
    """The card the picker starts on: the one with the most copies in a deck that fits."""
    best = None
    for k in range(KINDS):
        if fits(k, day) and (best is None or DEFAULT_COUNTS[k] > DEFAULT_COUNTS[best]):
            best = k
    return best


class DaysScreen(TallyScreen):
    tie_words = "on cards"

    def view(self):
        g = self.game
        nm = self.names()
        if self.mode == "scores":
            return self.lines("Scores", "", nm, ["{} ({}d)".format(g.score(s), len(g.tops[s]))
                                                 for s in range(g.n)])
        e = g.entering()
        tail = [("Can I play here?", "", self.can_i), ("Scores", "", self.scores)]
        if e is not None:
            s, day = e
            rows = [("Empty", "", 0)]
            start = 0
            for k in range(KINDS):
                if fits(k, day):
                    if k == likely(day):
                        start = len(rows)
                    rows.append((LABELS[k], str(card_score(k)), k + 1))
            return "{} {}".format(nm[s], DAY_LABELS[day]), str(g.score(s)), rows + tail, start
        s = g.asking()
        if s is not None:
            rows = [("Cards on board", "", self._count)]
            return "{} tie".format(nm[s]), str(g.score(s)), rows + tail, 0
        return "Space Days", "", tail, 1

    def _count(self):
        s = self.game.asking()
        lo = max(1, self.game.min_cards(s))
        self.app.push(Number(self.app, "Cards on board", lo, lo, MAX_COUNT,
                             lambda v: self.act(COUNT + v)))

    def scores(self):
        self.set_mode("scores")

    def can_i(self):
        app = self.app
        g = self.game
        nm = self.names()
        cards = list(LABELS)

        def who(p):
            app.push(Chooser(app, "Card", cards, lambda k: card(p, k)))

        def card(p, k):
            opts = ["{}'s board".format(nm[b]) for b in range(g.n)]
            app.push(Chooser(app, "On whose board?", opts, lambda b: board(p, k, b), p))

        def board(p, k, b):
            app.push(Chooser(app, "Which day?", list(DAY_NAMES), lambda d: answer(p, k, b, d)))

        def answer(p, k, b, d):
            why = g.can_play(p, k, b, d, nm)
            what = "{} on {}'s {}".format(LABELS[k], nm[b], DAY_NAMES[d])
            if why is None:
                app.push(MessageScreen(app, "Yes", what + ": yes."))
            else:
                app.push(MessageScreen(app, "No", why.replace("_", " ") + "."))

        app.push(Chooser(app, "Who plays?", nm, who))
