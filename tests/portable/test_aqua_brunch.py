"""Aqua Brunch calculators: every worked example of the rulebook, edge cases, bad input.

Portable: runs on CPython and in the MicroPython lane."""

from _harness import raises
from shared_rules.aqua_brunch.rules import (
    CARDS,
    DECK_COUNTS,
    best_pass,
    card_strengths,
    divide_catch,
    pass_advice,
    strength,
    take_order,
    unseen_counts,
)

# The rulebook's "Examples of Predator Combinations and Their Strength", card by card.
RULEBOOK_EXAMPLES = [
    (["walrus", "shark717", "octopus"], [2, 7, 2], 11),
    (["orca5", "walrus", "walrus"], [5, 4, 4], 13),
    (["shark717", "shark535", "octopus"], [1, 3, 0], 4),
    (["orca5", "orca8", "baby"], [5, 8, 5], 18),
    (["orca8", "shark717", "walrus"], [8, 0, 2], 10),
    (["baby", "shark717", "octopus"], [2, 7, 2], 11),
    (["shark717", "shark717", "shark535"], [7, 7, 5], 19),
    (["octopus", "octopus", "shark535"], [0, 0, 5], 5),
    (["walrus", "walrus", "walrus"], [6, 6, 6], 18),
]


def test_rulebook_examples():
    for cards, each, total in RULEBOOK_EXAMPLES:
        assert card_strengths(cards) == each, cards
        assert strength(cards) == total, cards


def test_rulebook_examples_in_any_order():
    for cards, each, total in RULEBOOK_EXAMPLES:
        rev = [cards[2], cards[1], cards[0]]
        assert strength(rev) == total
        assert card_strengths(rev) == [each[2], each[1], each[0]]


def test_andrey_aqua_example():
    # walrus + shark + baby orca = 9 (2 + 5 + 2); aqua -2 and 0 make it 7.
    assert card_strengths(["walrus", "shark535", "baby"]) == [2, 5, 2]
    assert strength(["walrus", "shark535", "baby"], (-2, 0)) == 7
    assert strength(("walrus", "shark535", "baby"), [0, -2]) == 7


def test_octopus_with_only_sharks():
    assert strength(["octopus", "shark626", "shark717"]) == 0 + 2 + 1
    assert strength(["octopus", "octopus", "shark717"]) == 7
    assert strength(["octopus", "octopus", "octopus"]) == 0


# (cards, each card's strength): the octopus copying, the baby orca with 0, 1 or 2 adults
OCTOPUS_COPIES = (
    (["octopus", "orca8", "walrus"], [2, 8, 2]),
    (["octopus", "orca8", "orca5"], [5, 8, 5]),
    # orca + baby: the baby is 5 (copies), the octopus copies that 5
    (["octopus", "orca8", "baby"], [8, 8, 8]),
    # two walruses are 4 each, the octopus copies 4
    (["walrus", "octopus", "walrus"], [4, 4, 4]),
    # the shark beside an adult orca is 0, but the octopus still never copies it
    (["octopus", "orca5", "shark535"], [5, 5, 0]),
)
BABY_ORCAS = (
    (["baby", "walrus", "shark535"], [2, 2, 5]),
    (["baby", "baby", "baby"], [2, 2, 2]),
    (["baby", "orca8", "walrus"], [8, 8, 2]),
    (["baby", "baby", "orca5"], [5, 5, 5]),
    (["baby", "orca8", "orca8"], [8, 8, 8]),
    (["orca8", "baby", "orca5"], [8, 5, 5]),
)


def check_strengths(cases):
    """Each hand's card strengths, in its order and reversed (a hand has no order)."""
    for cards, each in cases:
        assert card_strengths(cards) == each, cards
        assert card_strengths(cards[::-1]) == each[::-1], cards


def test_octopus_copies_the_lowest_non_shark():
    check_strengths(OCTOPUS_COPIES)


def test_baby_with_zero_one_two_adults():
    check_strengths(BABY_ORCAS)


def test_three_sharks_of_mixed_kinds():
    assert strength(["shark535", "shark626", "shark717"]) == 5 + 6 + 7
    assert strength(["shark626", "shark626", "shark535"]) == 17
    assert card_strengths(["shark535", "shark626"] + ["baby"]) == [3, 2, 2]
    assert card_strengths(["shark535", "walrus", "walrus"]) == [5, 4, 4]


def test_shark_beside_adult_orca():
    assert card_strengths(["orca5", "shark717", "shark717"]) == [5, 0, 0]
    assert card_strengths(["shark626", "orca8", "baby"]) == [0, 8, 8]
    assert strength(["orca8", "orca8", "shark535"]) == 16


def test_aqua_values():
    hand = ["orca8", "orca8", "orca8"]
    assert strength(hand) == 24
    assert strength(hand, (0, -1, -2, -4)) == 17
    assert strength(["octopus", "octopus", "octopus"], [-4]) == -4


def test_every_hand_is_consistent():
    # The per-card breakdown always sums to the strength, and strengths stay in 0..24.
    n = len(CARDS)
    for a in range(n):
        for b in range(a, n):
            for c in range(b, n):
                hand = [CARDS[a], CARDS[b], CARDS[c]]
                s = strength(hand)
                assert sum(card_strengths(hand)) == s
                assert 0 <= s <= 24


def test_bad_cards():
    with raises(ValueError, "'dolphin'"):
        strength(["orca8", "dolphin", "walrus"])
    with raises(ValueError, "exactly 3"):
        strength(["orca8", "walrus"])
    with raises(ValueError, "exactly 3"):
        strength(["orca8", "walrus", "baby", "baby"])
    with raises(ValueError, "'orca8'"):
        strength("orca8")
    with raises(ValueError, "7"):
        strength(["orca8", 7, "walrus"])
    with raises(ValueError, "None"):
        strength(None)


def test_bad_aqua():
    hand = ["walrus", "walrus", "walrus"]
    with raises(ValueError, "-3"):
        strength(hand, (-3,))
    with raises(ValueError, "1"):
        strength(hand, [1])
    with raises(ValueError, "twice"):
        strength(hand, (-1, -1))
    with raises(ValueError, "'0'"):
        strength(hand, ("0",))
    with raises(ValueError, "True"):
        strength(hand, (True,))
    with raises(ValueError, "5"):
        strength(hand, 5)


def test_divide_stronger_first():
    assert divide_catch([10, 20, 5], [7, -1, 3], 0) == [3, 7, -1]


def test_divide_equal_strength_more_valuable_food_first():
    # seats 0 and 1 tie on strength: seat 1 placed the perch, so it takes first
    assert divide_catch([9, 9, 1], [2, 7, 4], 0) == [4, 7, 2]
    assert take_order([9, 9, 1], [2, 7, 4], 0) == [1, 0, 2]


def test_divide_equal_strength_and_food_nearest_to_lunch_caller():
    # seats 1, 2 and 3 tie on strength and food; caller is seat 2 (nearest), then 3, then 1
    assert take_order([0, 5, 5, 5], [7, 3, 3, 3], 2) == [2, 3, 1, 0]
    assert divide_catch([0, 5, 5, 5], [7, 3, 3, 3], 2) == [3, 3, 7, 3]
    # caller seat 0 is not among the tied: seat 1 is nearest clockwise
    assert take_order([0, 5, 5, 5], [4, 3, 3, 3], 0) == [1, 2, 3, 0]
    # the wrap: caller 3 of 4 seats, tied seats 0 and 2: 0 comes right after 3
    assert take_order([5, 1, 5, 1], [2, 0, 2, 0], 3) == [0, 2, 3, 1]


def test_divide_negative_strength_and_seven_seats():
    got = divide_catch([-4, 0, 3, 3, 12, 7, 0], [-1, 0, 2, 3, 4, 5, 7], 6)
    # order: 4 (12), 5 (7), 3 (3, crab), 2 (3, lobster), 6 (0, perch), 1 (0), 0 (-4)
    assert got == [-1, 0, 3, 4, 7, 5, 2]
    assert sorted(got) == [-1, 0, 2, 3, 4, 5, 7]


def test_divide_bad_input():
    with raises(ValueError, "6"):
        divide_catch([1, 2, 3], [2, 6, 3], 0)
    with raises(ValueError, "lunch seat 3"):
        divide_catch([1, 2, 3], [2, 3, 4], 3)
    with raises(ValueError, "-1"):
        divide_catch([1, 2, 3], [2, 3, 4], -1)
    with raises(ValueError, "2 seats"):
        divide_catch([1, 2], [2, 3], 0)
    with raises(ValueError, "8 seats"):
        divide_catch([1] * 8, [2] * 8, 0)
    with raises(ValueError, "3 strengths but 4 foods"):
        divide_catch([1, 2, 3], [2, 3, 4, 5], 0)
    with raises(ValueError, "'x'"):
        divide_catch([1, "x", 3], [2, 3, 4], 0)


def test_unseen_counts():
    assert sum(DECK_COUNTS) == 55
    c = unseen_counts(["orca8", "orca8", "walrus"], ["orca8", "shark717"])
    assert c == [1, 6, 5, 6, 13, 8, 7, 4]
    with raises(ValueError, "orca8"):
        unseen_counts(["orca8", "orca8", "orca8"], ["orca8", "orca8"])


def _expected_by_hand(hand, seen, i):
    # The same expectation by brute force over the 55 physical cards.
    pool = []
    for k in range(len(CARDS)):
        pool += [CARDS[k]] * DECK_COUNTS[k]
    for c in list(hand) + list(seen):
        pool.remove(c)
    keep = [hand[j] for j in range(3) if j != i]
    return sum(strength(keep + [c]) for c in pool), len(pool)


def test_pass_advice_exact_fractions():
    hand = ["orca8", "shark717", "walrus"]
    seen = ["baby", "walrus", "walrus"]
    got = pass_advice(hand, seen)
    assert [g[0] for g in got] == hand
    for i in range(3):
        num, den = _expected_by_hand(hand, seen, i)
        assert got[i][1] * den == num * got[i][2]
        # reduced: no common factor
        a, b = got[i][1], got[i][2]
        while b:
            a, b = b, a % b
        assert a == 1 or got[i][1] == 0


def test_pass_advice_known_value():
    # Keep walrus+walrus, receive one of the 52 unseen: walrus (12 left) makes 18,
    # an octopus makes 12, an orca8 8+4+4, orca5 13, baby 2+4+4, each shark its single value+8.
    got = pass_advice(["walrus", "walrus", "shark717"])
    assert got[0][0] == "walrus" and got[1][0] == "shark717" and len(got) == 2
    num = 4 * 16 + 6 * 13 + 5 * 10 + 6 * 12 + 12 * 18 + 8 * 13 + 7 * 14 + 4 * 15
    den = 52
    assert got[1][1] * den == num * got[1][2]
    best = best_pass(["walrus", "walrus", "shark717"])
    assert best[0] == "shark717"


def test_best_pass_prefers_the_first_on_ties():
    best = best_pass(["walrus", "walrus", "walrus"])
    assert best[0] == "walrus"
    # a hand of three octopuses: passing any one is the same
    assert best_pass(["octopus", "octopus", "octopus"])[0] == "octopus"


def test_pass_advice_bad_input():
    with raises(ValueError, "'squid'"):
        pass_advice(["orca8", "orca8", "walrus"], ["squid"])
    with raises(ValueError, "shark717"):
        pass_advice(["shark717", "shark717", "walrus"], ["shark717"] * 4)
    with raises(ValueError, "exactly 3"):
        pass_advice(["orca8"])


def test_seeded_engine_game_round_trips():
    # A short whole game on the engine (also on MicroPython): every state survives to_bytes.
    from shared_rules.aqua_brunch.check import from_bytes
    from shared_rules.aqua_brunch.engine import LUNCH, AquaBrunch
    from shared_rules.rng import Rng

    rng = Rng(2024)
    g = AquaBrunch(4)
    steps = 0
    while not g.is_over():
        if g.is_chance():
            a = g.sample_chance(rng)
        elif g.phase == LUNCH:
            a = ("lunch", rng.randbelow(4)) if rng.randbelow(2) else ("again",)
        else:
            a = rng.choice(g.legal_actions())
        g.apply(a)
        steps += 1
        if steps % 5 == 0:
            data = g.to_bytes()
            assert from_bytes(data).to_bytes() == data
    assert len(g.winners()) >= 1 and sum(len(t) for t in g.taken) == 24
