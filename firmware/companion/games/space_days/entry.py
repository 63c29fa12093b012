"""Space Days at the table: end-of-game scoring and "Can I play this here?"
(shared_rules.space_days.score).

Scoring: for each player, Monday to Sunday, the top card of the day (only the cards that may
sit on that day are listed; a Gaseous Cloud scores 0 and hides what is under it). When the top
scores tie, the tied players' cards on their boards decide. "Can I play here?" (a row of the
same list) answers yes or no with the reason, over the tops entered so far.
"""

import shared_rules.space_days.legal  # noqa: F401 - "Can I play here?"; here: unloaded with us
from companion.screen.pickers import Chooser, Number, saved
from companion.screen.tally import TallyScreen, ask_players, resume, resumed
from companion.screen.text import count, wrap
from shared_rules.space_days.cards import (
    DEFAULT_COUNTS,
    KINDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    card_score,
)
from shared_rules.space_days.score import COUNT, DAY_LABELS, LABELS, MAX_COUNT, DaysScore, fits

GAME_ID = "days_score"
DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def open(app, payload=None):  # the game-module entry point name
    if payload is not None:
        app.push(DaysScreen(app, resumed(payload)))
        return
    kept = saved(app, GAME_ID)

    def new():
        ask_players(app, DaysScreen, "Space Days", MIN_PLAYERS, MAX_PLAYERS, MIN_PLAYERS)

    if kept is None:
        new()
        return

    def chosen(i):
        if i == 0:
            resume(app, DaysScreen, kept, new)
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
    rules = DaysScore

    def view(self):
        g = self.game
        nm = self.names()
        if self.mode is not None and self.mode[0] == "can":
            return self._can_view(nm)
        if self.mode == "scores":
            # the days entered too, where the name keeps its room
            marks = [self.beside(nm[s], "{}, {}".format(g.score(s), count(len(g.tops[s]), "day")),
                                 str(g.score(s))) for s in range(g.n)]
            return self.lines("Scores", "", nm, marks)
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
        self.set_mode(("can",))

    def _can_view(self, nm):
        """"Can I play here?" in the list itself, one question at a time (who plays, the card,
        whose board, the day), then the answer; stacked pickers would cost a Pico their
        widgets beside the board's."""
        m = self.mode
        g = self.game
        if len(m) == 5:
            _c, p, k, b, d = m
            why = g.can_play(p, k, b, d, nm)
            if why is None:
                title = "Yes"
                words = "{} on {}'s {}: yes.".format(LABELS[k], nm[b], DAY_NAMES[d])
            else:
                title = "No"
                words = why.replace("_", " ") + "."
            lines = wrap(words, self.d.cols - 1)
            return self.lines(title, "", lines, [""] * len(lines))
        if len(m) == 1:
            title, opts, start = "Who plays?", nm, 0
        elif len(m) == 2:
            title, opts, start = "Card", LABELS, 0
        elif len(m) == 3:
            title, opts, start = "On whose board?", ["{}'s board".format(n) for n in nm], m[1]
        else:
            title, opts, start = "Which day?", DAY_NAMES, 0
        return title, "", [(opts[i], "", self._pick(i)) for i in range(len(opts))], start

    def _pick(self, i):
        def pick():
            self.set_mode(self.mode + (i,))

        return pick
