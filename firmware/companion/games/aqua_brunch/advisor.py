"""Aqua Brunch's pass advisor (opened from the Aqua Brunch list, aqua_tools.py).

My three predators (OK adds one of a kind; the list starts on the walrus, the commonest card),
then, optionally, the cards I have seen (the face-up deal); for each card I could pass, the
expected strength after receiving an unknown card (shared_rules.aqua_brunch.rules.pass_advice), best
first.
"""

from companion.screen.counters import Counter, LinesScreen, tenths
from shared_rules.aqua_brunch.rules import CARDS, LABELS, pass_advice

WALRUS = 4


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
        seen_cards(counts, (0,) * 8)

    def seen_cards(counts, seen):
        app.push(Counter(app, "Seen cards", LABELS, seen, 9,
                         lambda seen: show(counts, seen), _n, WALRUS))

    def show(counts, seen):
        hand = _cards(counts)
        try:
            advice = pass_advice(hand, _cards(seen))
        except ValueError:  # more copies than the deck holds: back to the seen cards
            app.notify("More of a card than the deck has")
            seen_cards(counts, seen)
            return
        advice = sorted(advice, key=lambda a: (-a[1] * 1000000 // a[2], hand.index(a[0])))
        lines = ["Pass " + LABELS[CARDS.index(c)] for c, _n, _d in advice]
        marks = [tenths(num, den) for _c, num, den in advice]
        app.push(LinesScreen(app, "Pass advisor", lines, marks, "expect"))

    app.push(Counter(app, "My 3 cards", LABELS, (0,) * 8, 3, hand_done, _n, WALRUS))


def _n(counts):
    return str(sum(counts))
