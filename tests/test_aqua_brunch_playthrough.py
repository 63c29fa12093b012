"""Aqua Brunch engine: seeded random playthroughs (make soak), scripted rounds, bad input
(CPython only). Undo and record -> replay are checked for every game in
tests/portable/test_protocol.py, which also runs the engine's consistency check at every step."""

import pytest

from savefuzz import flip_every_byte
from shared_rules.aqua_brunch.check import check_state, from_bytes
from shared_rules.aqua_brunch.engine import (
    ASK,
    CHANCE,
    DEAL,
    DRAW,
    FOOD,
    LUNCH,
    OVER,
    PASS,
    TABLE,
    TAKE,
    AquaBrunch,
)
from shared_rules.aqua_brunch.rules import DECK_COUNTS, divide_catch, strength
from shared_rules.rng import Rng


def _random_action(g, rng):
    if g.is_chance():
        return g.sample_chance(rng)
    acts = g.legal_actions()
    if g.phase == LUNCH:
        # call Lunch about a third of the time, so rounds have several passes
        return rng.choice(acts[:-1]) if rng.randbelow(3) == 0 else acts[-1]
    return rng.choice(acts)


def _invariants(g):
    # (check_state runs inside from_bytes at every step)
    # every predator is somewhere
    total = sum(g.deck) + sum(g.discard) + sum(len(h) for h in g.hands)
    total += sum(1 for p in g.passing if p != 255)
    assert total == 55
    assert g.legal_actions() or g.is_over()
    if g.phase in (FOOD, TAKE):
        for s in range(g.n):
            assert len(g.hand(s)) == 3


def play(seed, players, check_every=True):
    rng = Rng(seed)
    g = AquaBrunch(players)
    steps = 0
    while not g.is_over():
        a = _random_action(g, rng)
        g.apply(a)
        steps += 1
        if not check_every:
            # the lighter mode still checks every step: invariants, and a round trip (from_bytes
            # raises unless the state re-encodes to exactly the same bytes)
            _invariants(g)
            from_bytes(g.to_bytes())
        if check_every:
            _invariants(g)
            data = g.to_bytes()
            h = from_bytes(data)
            assert h.to_bytes() == data
            assert h.legal_actions() == g.legal_actions()
            assert h.current_player() == g.current_player()
        assert steps < 20000
    return g


def check_end(g):
    """A finished game: every seat collected 6 cards, no food left, each colour gave 6."""
    players = g.n
    assert g.is_over()
    assert g.current_player() < 0 and g.legal_actions() == []
    for s in range(players):
        assert len(g.taken[s]) == 6
        assert g.food_hand(s) == []
    for c in range(players):
        assert sum(1 for s in range(players) for col, _ in g.collected(s) if col == c) == 6
    sc = g.scores()
    w = g.winners()
    assert w and all(sc[s] == max(sc) for s in w)


def test_a_seeded_game_of_each_size():
    for players in (3, 4, 5, 6, 7):
        check_end(play(players, players))


@pytest.mark.soak
@pytest.mark.parametrize("chunk", range(8))
def test_thousands_of_games_round_trip_at_every_step(chunk):
    # 2,000 seeded games in 8 chunks (so make test spreads them over the cores): invariants and
    # a to_bytes/from_bytes round trip at every step, and every game ends
    for seed in range(chunk * 250, chunk * 250 + 250):
        players = 3 + seed % 5
        check_end(play(100000 + seed, players, check_every=False))


def _deal(g, cards_by_seat):
    """Deal the given 3 cards to each seat (round-robin as the engine deals)."""
    n = g.n
    for j in range(3):
        for s in range(n):
            g.apply(("card", cards_by_seat[s][j]))


def test_scripted_round():
    g = AquaBrunch(3)
    assert g.phase == DEAL and g.current_player() == CHANCE
    _deal(g, [["orca8", "orca8", "baby"], ["walrus", "walrus", "shark717"],
              ["octopus", "shark535", "shark626"]])
    assert g.phase == PASS and g.current_player() == 0
    assert g.legal_actions() == [("pass", "orca8"), ("pass", "baby")]
    g.apply(("pass", "baby"))  # to seat 1
    g.apply(("pass", "shark717"))  # to seat 2
    g.apply(("pass", "octopus"))  # to seat 0
    assert g.phase == LUNCH and g.current_player() == TABLE
    assert g.hand(0) == ["orca8", "orca8", "octopus"]
    assert g.hand(1) == ["baby", "walrus", "walrus"]
    assert g.hand(2) == ["shark535", "shark626", "shark717"]
    g.apply(("lunch", 0))
    assert g.phase == ASK and g.current_player() == 1
    g.apply(("stop",))
    assert g.current_player() == 2
    g.apply(("aqua",))
    assert g.phase == DRAW
    assert sorted(a[1] for a in g.legal_actions()) == [-4, -2, -1, 0]
    g.apply(("aqua", -1))
    assert g.aqua_cards(2) == [-1]
    assert g.phase == PASS
    g.apply(("pass", "octopus"))
    g.apply(("pass", "baby"))
    g.apply(("pass", "shark535"))
    # seat 0: orca8 orca8 shark535 = 16; seat 1: walrus walrus octopus = 12;
    # seat 2: shark626 shark717 baby = 2 + 1 + 2 = 5, minus 1 = 4
    assert g.strengths() == [16, 12, 4]
    g.apply(("lunch", 2))
    g.apply(("stop",))  # seat 0
    g.apply(("stop",))  # seat 1: nobody said Aqua
    assert g.phase == FOOD and g.current_player() == 0
    g.apply(("food", 7))
    g.apply(("food", 3))
    g.apply(("food", -1))
    # no equal values: division is automatic; next round starts
    assert g.round == 1 and g.phase == DEAL
    assert g.collected(0) == [(0, 7)] and g.collected(1) == [(1, 3)]
    assert g.collected(2) == [(2, -1)]
    assert g.aqua_left == 15 and g.aqua_cards(2) == []
    assert sum(g.discard) == 9 and sum(g.deck) == 46
    assert g.food_hand(0) == [-1, 0, 2, 3, 4, 5]


def test_equal_food_values_give_the_taker_a_choice():
    g = AquaBrunch(3)
    _deal(g, [["orca8", "orca8", "orca8"], ["walrus", "walrus", "walrus"],
              ["baby", "baby", "octopus"]])
    for _ in range(3):
        g.apply(g.legal_actions()[0])
    g.apply(("lunch", 1))
    g.apply(("stop",))
    g.apply(("stop",))
    g.apply(("food", 4))
    g.apply(("food", 4))
    g.apply(("food", 0))
    assert g.phase == TAKE
    taker = g.current_player()
    strengths = g.strengths()
    assert taker == strengths.index(max(strengths))
    assert g.legal_actions() == [("take", 0), ("take", 1)]
    g.apply(("take", taker))
    assert g.collected(taker) == [(taker, 4)]
    # the next taker gets the other clownfish without a choice, the fishbone goes last
    assert g.phase == DEAL
    assert sorted(v for s in range(3) for _, v in g.collected(s)) == [0, 4, 4]
    got = [g.collected(s)[0][1] for s in range(3)]
    assert got == divide_catch(strengths, [4, 4, 0], 1)


def test_no_aqua_left_ends_phase_one_at_lunch():
    g = AquaBrunch(3)
    _deal(g, [["orca8"] * 3, ["walrus"] * 3, ["baby"] * 3])
    for value in (0, -1, -2, -4):
        for _ in range(3):
            g.apply(g.legal_actions()[0])
        g.apply(("lunch", 0))
        g.apply(("aqua",))  # seat 1 plays on every time
        g.apply(("aqua", value))
    assert g.aqua_cards(1) == [0, -1, -2, -4]
    for _ in range(3):
        g.apply(g.legal_actions()[0])
    g.apply(("lunch", 2))
    assert g.phase == FOOD  # nobody is asked: the stack is empty


def test_deck_reshuffles_from_the_discard_pile():
    g = AquaBrunch(7)
    rng = Rng(5)
    while g.round < 2:
        g.apply(_random_action(g, rng))
    # 55 cards, 21 a round: the third round's deal needs the discard pile
    assert g.phase == DEAL and sum(g.deck) == 13 and sum(g.discard) == 42
    while g.phase == DEAL:
        g.apply(g.sample_chance(rng))
    assert sum(g.discard) == 0  # all of rounds 1 and 2 went back into the deck
    assert sum(g.deck) == 55 - 21


def test_winners_tie_break_on_own_colour():
    g = AquaBrunch(3)
    g.phase = OVER
    g.food = [0, 0, 0]
    # food cards are colour * 7 + index into FOOD_VALUES (-1 0 2 3 4 5 7)
    g.taken = [
        [0, 6, 12, 7 + 1, 14 + 1, 14 + 0],
        [7 + 6, 5, 7 + 0, 14 + 2, 14 + 3, 7 + 2],
        [14 + 4, 14 + 5, 14 + 6, 1, 2, 3],
    ]
    assert g.scores() == [-1 + 7 + 5 + 0 + 0 - 1, 7 + 5 - 1 + 2 + 3 + 2, 4 + 5 + 7 + 0 + 2 + 3]
    assert g.own_colour(0) == 2 and g.winners() == [2]
    # make a real tie between seats 1 and 2 on points: 18 and 21 -> adjust seat 1
    g.taken[1] = [7 + 6, 5, 7 + 4, 14 + 2, 14 + 3, 7 + 2]  # 7 5 4 2 3 2 = 23
    g.taken[2] = [14 + 4, 14 + 5, 14 + 6, 1, 4, 3]  # 4 5 7 0 4 3 = 23
    assert g.scores()[1] == g.scores()[2] == 23
    assert g.own_colour(1) == 3 and g.own_colour(2) == 3
    assert g.winners() == [1, 2]  # still tied: a shared victory
    g.taken[2] = [14 + 4, 14 + 5, 7 + 6, 1, 4, 3]
    assert g.scores()[2] == 23 and g.own_colour(2) == 2
    assert g.winners() == [1]


def _prefix_state(seed=3, steps=60):
    rng = Rng(seed)
    g = AquaBrunch(4)
    for _ in range(steps):
        if g.is_over():
            break
        g.apply(_random_action(g, rng))
    return g


@pytest.mark.parametrize("bad", [
    ("card", "dolphin"), ("pass", "orca8"), ("lunch", 9), ("lunch", True), ("food", 7.0),
    ("again", 1), ("take", 0), "again", None, 5, ("aqua", -3), (), ["food"],
])
def test_illegal_actions_leave_the_state_unchanged(bad):
    for steps in (0, 13, 15, 40, 60, 200):
        g = _prefix_state(steps=steps)
        before = g.to_bytes()
        with pytest.raises(ValueError):
            g.apply(bad)
        assert g.to_bytes() == before


def test_bad_construction():
    for n in (2, 8, "3", 3.0, None):
        with pytest.raises(ValueError, match=repr(n)):
            AquaBrunch(n)


def test_corrupt_bytes_are_rejected():
    rng = Rng(77)
    states = []
    g = AquaBrunch(5)
    while not g.is_over():
        g.apply(_random_action(g, rng))
        if rng.randbelow(5) == 0:
            states.append(g.to_bytes())
    states.append(g.to_bytes())
    rejected, accepted = flip_every_byte(from_bytes, check_state, states, (1, 128, 254))
    assert rejected > 20 * accepted
    for bad in (b"", b"\x01", b"\x02\x03", b"\x01\x03" + bytes(10), "text", None,
                states[0] + b"\x00", states[0][:-1]):
        with pytest.raises(ValueError):
            from_bytes(bad)


def test_strengths_use_the_calculator():
    rng = Rng(11)
    g = AquaBrunch(6)
    checked = 0
    while not g.is_over():
        if g.phase == FOOD:
            checked += 1
            for s in range(g.n):
                assert g.strengths()[s] == strength(g.hand(s), g.aqua_cards(s))
        g.apply(_random_action(g, rng))
    assert checked


def test_chance_weights_follow_the_deck():
    g = AquaBrunch(3)
    outs = g.chance_outcomes()
    assert [w for _, w in outs] == list(DECK_COUNTS)
    g.apply(("card", "shark717"))
    assert dict(g.chance_outcomes())[("card", "shark717")] == 4
    assert g.phase == DEAL and ASK != DRAW
