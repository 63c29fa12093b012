"""The Aqua Brunch table scoreboard (shared_rules.aqua_brunch.score): entries, the catch and its
tie rules, the six rounds, the final tie-break, records, undo and bad input.

Portable: runs on CPython and in the MicroPython lane."""

from _harness import raises, refuses
from shared_rules.aqua_brunch import rules as ab
from shared_rules.aqua_brunch.score import (
    AQUA,
    ASK_LUNCH,
    ASK_TAKE,
    FOOD,
    LUNCH,
    TAKE,
    AquaScore,
)
from shared_rules.protocol import TABLE, TERMINAL

C = {name: i for i, name in enumerate(ab.CARDS)}


def mask(*values):
    m = 0
    for v in values:
        m |= 1 << ab.AQUA_VALUES.index(v)
    return AQUA + m


def food(value):
    return FOOD + ab.FOOD_VALUES.index(value)


def seat(g, cards, aqua, value):
    for c in cards:
        g.apply(C[c])
    if aqua:
        g.apply(mask(*aqua))
    g.apply(food(value))


def test_rulebook_andrey_round():
    # Andrey (seat 0): walrus + shark 5/3/5 + baby orca = 9, aqua -2 and 0: 7.
    g = AquaScore(3)
    assert g.current_player() == 0 and g.step() == 0
    seat(g, ("walrus", "shark535", "baby"), (-2, 0), 7)
    assert g.strengths()[0] == 7
    seat(g, ("orca8", "orca8", "baby"), (), 2)  # 24
    seat(g, ("walrus", "walrus", "walrus"), (-1,), 5)  # 17
    assert g.round == 1
    st, foods, got, lunch = g.history[0]
    assert st == [7, 24, 17] and foods == [7, 2, 5] and lunch == -1
    assert got == [2, 7, 5]  # the strongest takes the perch, Andrey the lobster
    assert g.scores() == [2, 7, 5]
    assert g.own == [0, 0, 1]


def test_every_step_matches_the_rules_functions():
    from shared_rules.rng import Rng

    rng = Rng(7)
    for n in (3, 4, 5, 6, 7):
        g = AquaScore(n)
        while not g.is_terminal():
            p = g.current_player()
            legal = g.legal_actions()
            if p >= 0 and g.step() == 3 and rng.randbelow(3):
                legal = [a for a in legal if a >= FOOD]  # aqua cards now and then
            assert legal
            before = g.round
            g.apply(rng.choice(legal))
            if g.round != before:
                st, foods, got, lunch = g.history[-1]
                want = ab.divide_catch(st, foods, lunch if lunch >= 0 else 0)
                assert got == want, (st, foods, got, want)
            assert p == TABLE or 0 <= p < n
        assert g.current_player() == TERMINAL and len(g.history) == 6
        total = [0] * n
        for h in g.history:
            for s in range(n):
                total[s] += h[2][s]
        assert g.scores() == total
        # each player played six different food cards
        for s in range(n):
            played = [h[1][s] for h in g.history]
            assert len(set(played)) == 6
        assert g.winners()


def test_lunch_asked_only_for_a_full_tie():
    g = AquaScore(3)
    seat(g, ("walrus", "walrus", "walrus"), (), 5)  # 18
    seat(g, ("orca5", "orca8", "baby"), (), 5)  # 18, same food: the caller decides
    seat(g, ("octopus", "octopus", "octopus"), (), 7)  # 0
    assert g.state == ASK_LUNCH and g.current_player() == TABLE
    assert g.legal_actions() == [LUNCH, LUNCH + 1, LUNCH + 2]
    g.apply(LUNCH + 2)  # seat 2 called: seat 0 is nearer clockwise than seat 1
    got = g.history[0][2]
    assert got == [7, 5, 5] and g.history[0][3] == 2
    assert g.own == [0, 1, 0]  # seat 1 takes its own 5 (seat 0 took seat 2's perch)


def test_lunch_caller_itself_is_nearest():
    g = AquaScore(3)
    seat(g, ("walrus", "walrus", "walrus"), (), 5)
    seat(g, ("orca5", "orca8", "baby"), (), 5)
    seat(g, ("octopus", "octopus", "octopus"), (), 7)
    g.apply(LUNCH + 1)
    assert g.history[0][2] == [5, 7, 5]


def test_more_valuable_food_first_no_lunch_question():
    g = AquaScore(3)
    seat(g, ("walrus", "walrus", "walrus"), (), 4)  # 18
    seat(g, ("orca5", "orca8", "baby"), (), 5)  # 18, placed the 5: first
    seat(g, ("octopus", "octopus", "octopus"), (), 7)
    assert g.round == 1
    assert g.history[0][2] == [5, 7, 4]


def test_whose_colour_asked_when_it_matters():
    # seat 0 strongest, placed a 2; seats 1 and 2 both placed a perch: seat 0 takes one of
    # them, and which one decides a colour.
    g = AquaScore(4)
    seat(g, ("orca8", "orca8", "baby"), (), 2)  # 24
    seat(g, ("walrus", "walrus", "walrus"), (), 7)  # 18
    seat(g, ("walrus", "shark535", "baby"), (), 7)  # 9
    seat(g, ("octopus", "octopus", "octopus"), (), -1)  # 0
    assert g.state == ASK_TAKE and g.current_player() == TABLE
    assert g.legal_actions() == [TAKE + 1, TAKE + 2]
    with raises(ValueError, "whose food"):
        g.apply(TAKE + 3)
    g.apply(TAKE + 2)  # seat 0 takes seat 2's perch: seat 1 then takes its own
    assert g.history[0][2] == [7, 7, 2, -1]
    assert g.own == [0, 1, 0, 1]
    g.undo()
    g.apply(TAKE + 1)  # seat 0 takes seat 1's: seat 1 gets seat 2's
    assert g.own == [0, 0, 0, 1]


def test_own_colour_taken_when_among_equals():
    g = AquaScore(3)
    seat(g, ("orca8", "orca8", "baby"), (), 7)
    seat(g, ("walrus", "walrus", "walrus"), (), 7)
    seat(g, ("octopus", "octopus", "octopus"), (), 2)
    assert g.round == 1  # nothing asked
    assert g.own == [1, 1, 1]


def test_final_tie_break_most_own_colour():
    g = AquaScore(3)
    # six rounds: seat 0 and seat 1 end equal on points; seat 0 has more of its own colour
    strong = ("orca8", "orca8", "baby")
    mid = ("walrus", "walrus", "walrus")
    weak = ("octopus", "octopus", "octopus")
    # (hand, food) of seats 0, 1, 2 in each round; the takes worked by hand
    plan = [
        ((weak, 3), (mid, 4), (strong, 5)),  # each takes its own
        ((strong, 4), (weak, 7), (mid, 4)),  # 0 takes 1's 7, 2 its own 4, 1 takes 0's 4
        ((weak, 2), (strong, -1), (mid, -1)),  # 1 takes 0's 2, 2 its own -1, 0 takes 1's
        ((weak, 0), (mid, 3), (strong, 7)),  # each its own
        ((strong, 5), (mid, 5), (weak, 2)),  # each its own
        ((strong, 7), (mid, 0), (weak, 3)),  # 0 its own 7, 1 takes 2's 3, 2 takes 1's 0
    ]
    for row in plan:
        for hand, value in row:
            seat(g, hand, (), value)
    assert g.is_terminal()
    assert g.scores() == [21, 21, 17]
    assert g.own == [4, 3, 5]
    assert g.winners() == [0]


def test_entries_are_checked():
    g = AquaScore(3)
    seat(g, ("orca8", "orca8", "walrus"), (), 7)
    g.apply(C["orca8"])
    g.apply(C["orca8"])
    # four orca 8s are in: a fifth is refused, with the count in the message
    assert g.remaining(C["orca8"]) == 0
    with raises(ValueError, "all 4 Orca 8 cards"):
        g.apply(C["orca8"])
    assert C["orca8"] not in g.legal_actions()
    assert g.likely_card() == C["walrus"]


def test_aqua_card_with_one_seat_only_and_food_once():
    g = AquaScore(3)
    seat(g, ("walrus", "walrus", "walrus"), (-4,), 7)
    for c in ("walrus", "walrus", "walrus"):
        g.apply(C[c])
    with raises(ValueError, "aqua -4 is with another player"):
        g.apply(mask(-4, 0))
    before = g.to_bytes()
    with raises(ValueError, "no aqua card is the default"):
        g.apply(mask())
    assert g.to_bytes() == before
    g.apply(mask(0))
    with raises(ValueError, "aqua cards are in"):
        g.apply(mask(-1))
    assert g.strengths()[1] == 18
    g.apply(food(2))
    seat(g, ("orca5", "orca5", "orca5"), (), 3)
    assert g.round == 1
    for c in ("walrus", "walrus", "walrus"):
        g.apply(C[c])
    with raises(ValueError, "Perch was played in an earlier round"):
        g.apply(food(7))
    foods = [a for a in g.legal_actions() if a >= FOOD]
    assert food(7) not in foods and len(foods) == 6
    assert len(g.legal_actions()) == 6 + 15  # and any aqua cards (none given out yet)


def test_bad_numbers_and_settings():
    refuses(AquaScore, (2, 8), "3 to 7 players")
    g = AquaScore()
    assert g.n == 4
    refuses(g.apply, (-1, 45, 200))
    with raises(ValueError, "predator card 1 first"):
        g.apply(food(2))
    assert g.actions() == []


def test_record_round_trip_and_undo_to_start():
    from shared_rules import games

    g = games.new("aqua_score", 3)
    seat(g, ("walrus", "shark535", "baby"), (-2, 0), 7)
    seat(g, ("orca8", "orca8", "baby"), (), 2)
    g.apply(C["walrus"])
    data = games.record(g)
    assert games.game_id_of(data) == "aqua_score"
    h = games.from_bytes(data)
    assert h.actions() == g.actions() and h.to_bytes() == data
    assert h.seat == 2 and h.hands[2] == [C["walrus"]]
    while h.can_undo():
        h.undo()
    assert h.to_bytes() == games.new("aqua_score", 3).to_bytes()
    bad = bytearray(data)
    bad[6] ^= 1
    with raises(ValueError):
        games.from_bytes(bytes(bad))


def test_describe_is_short():
    g = AquaScore(7)
    for a in range(45):
        d = g.describe(a)
        assert 0 < len(d) <= 18, d
