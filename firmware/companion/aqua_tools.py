"""Aqua Brunch's menu entry: Scoreboard / Strength / Pass advisor (a list that stays under
what it opens), and the pass advisor.

The pass advisor: my three predators (OK adds one of a kind; the list starts on the walrus,
the commonest card), then, optionally, the cards I have seen (the face-up deal); for each card
I could pass, the expected strength after receiving an unknown card
(shared_rules.aqua_brunch.pass_advice), best first.
"""

from shared_rules.aqua_brunch import CARDS, LABELS, pass_advice

from .pickers import Counter, LinesScreen, saved, tenths
from .screens import ListScreen

WALRUS = 4
SCORE_ID = "aqua_score"


def _is_scoreboard(payload):
    from shared_rules import games

    try:
        return games.game_id_of(payload) == SCORE_ID
    except ValueError:
        return False  # not a record: the calculator's own five bytes


def open(app, payload=None):  # noqa: A001 - the game-module entry point name
    """The Aqua Brunch list; a saved scoreboard or calculator hand opens over it, so Back from
    either comes back to the list."""
    app.push(AquaList(app))
    if payload is not None:  # resuming: the scoreboard's record or the calculator's hand
        if _is_scoreboard(payload):
            from . import aqua_score

            aqua_score.open(app, payload)
        else:
            from . import aqua

            aqua.open(app, payload)


class AquaList(ListScreen):
    """Scoreboard (Resume scores / New scoreboard when one is saved), Strength, Pass advisor.
    It stays under what it opens."""

    title = "Aqua Brunch"

    def items(self):
        if saved(self.app, SCORE_ID):
            return ["Resume scores", "Strength", "Pass advisor", "New scoreboard"]
        return ["Scoreboard", "Strength", "Pass advisor"]

    def activate(self, index):
        app = self.app
        if index == 0 or index == 3:
            from . import aqua_score

            aqua_score.open(app, saved(app, SCORE_ID) if index == 0 else None)
        elif index == 1:
            from . import aqua

            aqua.open(app, None)
        else:
            advisor(app)


def _cards(counts):
    out = []
    for k in range(len(CARDS)):
        out += [CARDS[k]] * counts[k]
    return out


def advisor(app):
    def hand_done(counts):
        if sum(counts) != 3:
            app.notify("Pick exactly 3 cards ({} now)".format(sum(counts)))
            app.push(Counter(app, "My 3 cards", LABELS, counts, 3, hand_done, _n, WALRUS))
            return
        app.push(Counter(app, "Seen cards", LABELS, (0,) * 8, 9,
                         lambda seen: show(_cards(counts), _cards(seen)), _n, WALRUS))

    def show(hand, seen):
        try:
            advice = pass_advice(hand, seen)
        except ValueError as e:  # more copies than the deck holds
            app.notify(str(e))
            return
        advice = sorted(advice, key=lambda a: (-a[1] * 1000000 // a[2], hand.index(a[0])))
        lines = ["Pass " + LABELS[CARDS.index(c)] for c, _n, _d in advice]
        marks = [tenths(num, den) for _c, num, den in advice]
        app.push(LinesScreen(app, "Pass advisor", lines, marks, "expect"))

    app.push(Counter(app, "My 3 cards", LABELS, (0,) * 8, 3, hand_done, _n, WALRUS))


def _n(counts):
    return str(sum(counts))
