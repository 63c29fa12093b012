"""Aqua Brunch's menu entry: Scoreboard / Strength / Pass advisor, and the pass advisor.

The pass advisor: my three predators (OK adds one of a kind; the list starts on the walrus,
the commonest card), then, optionally, the cards I have seen (the face-up deal); for each card
I could pass, the expected strength after receiving an unknown card
(shared_rules.aqua_brunch.pass_advice), best first.
"""

from shared_rules.aqua_brunch import CARDS, LABELS, pass_advice

from .pickers import Chooser, Counter, LinesScreen, saved, tenths

WALRUS = 4
SCORE_ID = "aqua_score"
CALC_ID = "aqua_calc"  # menu.SCOREBOARDS: the calculator opened from this list


def open_game(app, game_id, payload=None):
    """Open the scoreboard or the calculator through the menu, so their modules are noted as
    theirs (and unloaded when another game opens) and this list's are unloaded."""
    from .menu import open_game as menu_open

    menu_open(app, game_id, payload)


def _is_scoreboard(payload):
    from shared_rules import games

    try:
        return games.game_id_of(payload) == SCORE_ID
    except ValueError:
        return False  # not a record: the calculator's own five bytes


def open(app, payload=None):  # noqa: A001 - the game-module entry point name
    """The Aqua Brunch list; a saved calculator hand (or scoreboard) opens straight away. The
    list closes when it opens something: a screen left under it would cost a Pico its widgets
    (13-16 KB)."""
    if payload is not None:  # resuming: the calculator's hand or the scoreboard's record
        open_game(app, SCORE_ID if _is_scoreboard(payload) else CALC_ID, payload)
        return
    kept = saved(app, SCORE_ID)
    rows = ["Resume scores" if kept else "Scoreboard", "Strength", "Pass advisor"]
    if kept:
        rows.append("New scoreboard")

    def chosen(i):
        if i == 0 or i == 3:
            open_game(app, SCORE_ID, kept if i == 0 else b"")  # b"": a new one
        elif i == 1:
            open_game(app, CALC_ID)
        else:
            advisor(app)

    app.push(Chooser(app, "Aqua Brunch", rows, chosen))


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
