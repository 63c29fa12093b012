"""Aqua Brunch scoreboard: "if several cards have the same value, they take any one of them of
their choice" (the rulebook). With the CHOICE rules (new scoreboards) the table says which card
was taken whenever it changes an own-colour count, the default is the taker's own colour, and
the final tie-break counts what was really taken; alike cards ask nothing. A record made
before the setting (rules 0, own colour taken without a question) still replays as it was.

Portable: runs on CPython and in the MicroPython lane."""

from _harness import raises
from shared_rules import games
from shared_rules.aqua_brunch import rules as ab
from shared_rules.aqua_brunch.score import (
    ASK_LUNCH,
    ASK_TAKE,
    CHOICE,
    FOOD,
    TAKE,
    AquaScore,
    choices,
)

C = {name: i for i, name in enumerate(ab.CARDS)}
HANDS = {"strong": ("orca8", "orca8", "baby"),  # 24
         "mid": ("walrus", "walrus", "walrus"),  # 18
         "low": ("walrus", "shark535", "baby"),  # 9
         "weak": ("octopus", "octopus", "octopus")}  # 0


def seat(g, hand, value):
    for c in HANDS[hand]:
        g.apply(C[c])
    g.apply(FOOD + ab.FOOD_VALUES.index(value))


def test_own_colour_among_equals_is_asked_default_own():
    # seats 0 and 1 placed a perch; seat 0 takes first, seat 1 next: own or seat 1's
    g = AquaScore(3, CHOICE)
    seat(g, "strong", 7)
    seat(g, "mid", 7)
    seat(g, "weak", 2)
    assert g.state == ASK_TAKE
    assert g.pending_take() == (0, 7, [0, 1])
    assert g.legal_actions() == [TAKE + 0, TAKE + 1] and g.default_take() == 0
    g.apply(TAKE + 0)  # the default: each then has their own
    assert g.round == 1 and g.own == [1, 1, 1]
    g.undo()
    g.apply(TAKE + 1)  # seat 0 took seat 1's perch: seat 1 gets seat 0's
    assert g.own == [0, 0, 1] and g.history[0][2] == [7, 7, 2]
    # the records' first rules took the own colour without a question
    old = AquaScore(3)
    seat(old, "strong", 7)
    seat(old, "mid", 7)
    seat(old, "weak", 2)
    assert old.round == 1 and old.own == [1, 1, 1]


def test_own_or_an_other_colour():
    # seats 0 and 2 placed a perch; seat 1 takes the second one, seat 2 takes last: seat 0's
    # choice changes only its own count
    g = AquaScore(3, CHOICE)
    seat(g, "strong", 7)
    seat(g, "mid", 3)
    seat(g, "weak", 7)
    assert g.pending_take() == (0, 7, [0, 2]) and g.default_take() == 0
    g.apply(TAKE + 2)
    assert g.own == [0, 0, 0]
    assert g.history[0][2] == [7, 7, 3]


def test_alike_cards_ask_nothing():
    # seats 1 and 2 placed a perch, seat 0 takes one and seat 3 the other: neither owner
    # takes from them, so which one is alike (the records' first rules asked)
    g = AquaScore(4, CHOICE)
    seat(g, "strong", 2)
    seat(g, "low", 7)
    seat(g, "weak", 7)
    seat(g, "mid", 3)
    assert g.round == 1 and g.state != ASK_TAKE
    assert g.history[0][2] == [7, 3, 2, 7] and g.own == [0, 0, 0, 0]
    old = AquaScore(4)
    seat(old, "strong", 2)
    seat(old, "low", 7)
    seat(old, "weak", 7)
    seat(old, "mid", 3)
    assert old.state == ASK_TAKE


def test_choices():
    assert choices(0, [0, 1], [1]) == [0, 1]
    assert choices(0, [1, 2], [3]) == [1]  # alike: one of them
    assert choices(0, [1, 2, 3], [2, 4]) == [2, 1]  # seat 2 takes later; 1 and 3 alike
    assert choices(5, [5, 6], []) == [5, 6]


# a game where the question decides the winner: seats 1 and 2 end on 19 points
PLAN = [
    (("weak", 3), ("mid", 4), ("strong", 7)),
    (("strong", 2), ("weak", -1), ("mid", 0)),
    (("mid", 5), ("strong", 0), ("weak", 5)),
    (("weak", 4), ("strong", 2), ("mid", 2)),
    (("weak", -1), ("mid", 3), ("strong", 3)),
    (("weak", 0), ("mid", 7), ("strong", 4)),
]


def play(other_at):
    """PLAN with the default answer, except question ``other_at`` (0-based): another card."""
    g = AquaScore(3, CHOICE)
    asked = 0
    for row in PLAN:
        for hand, value in row:
            seat(g, hand, value)
            while g.state == ASK_TAKE:
                d = g.default_take()
                pick = d
                if asked == other_at:
                    pick = [c for c in g.pending_take()[2] if c != d][0]
                g.apply(TAKE + pick)
                asked += 1
            assert g.state != ASK_LUNCH
    return g, asked


def test_the_tie_break_counts_what_was_taken():
    g, asked = play(-1)
    assert asked == 3 and g.is_terminal()
    assert g.scores() == [11, 19, 19] and g.own == [4, 3, 4]
    assert g.winners() == [2]
    h, _ = play(1)  # seat 2 took another colour than its own
    assert h.scores() == [11, 19, 19] and h.own == [4, 3, 3]
    assert h.winners() == [1, 2]
    data = games.record(h)
    r = games.replay(data)
    assert r.params == (3, CHOICE) and r.own == [4, 3, 3] and r.to_bytes() == data


def unhex(text):
    return bytes([int(text[i:i + 2], 16) for i in range(0, len(text), 2)])


# A 4-player record written before the rules setting existed (its settings: one byte, the
# players), by the scoreboard of commit 901b853: own colours taken without a question, five
# other-colour questions.
OLD_RECORD = unhex(
    "0105010400000607021e0404051d0102051e0206041e1f2829050600190202021e0602011b06040418000401"
    "18030104180206011a0601011a1f29270205011c0607031c0606051d0204031d270501061d0100031a000000"
    "190703061b0403001b0200051b0206011c00060719fe8a")


def test_an_old_record_replays_as_it_was():
    g = games.replay(OLD_RECORD)
    assert g.params == (4, 0) and g.is_terminal()
    assert g.scores() == [17, 16, 25, 17] and g.own == [2, 0, 3, 1] and g.winners() == [2]
    # the same entries under the choice rules stop at a question the old rules did not ask
    h = AquaScore(4, CHOICE)
    with raises(ValueError, "whose food card"):
        for a in g.actions():
            h.apply(a)


def test_bad_rules_setting():
    with raises(ValueError, "rules 2 unknown"):
        AquaScore(4, 2)
