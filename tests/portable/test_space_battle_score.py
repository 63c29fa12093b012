"""The Space Battle Lunchtime race to 21 and serve check (shared_rules.space_battle.race):
the rulebook's serve examples, equal turns, the flavour tie-break, records and bad input.

Portable: runs on CPython and in the MicroPython lane."""

from _harness import raises, refuses
from shared_rules.protocol import TABLE, TERMINAL
from shared_rules.space_battle.race import (
    FLAVOUR,
    MORE,
    BattleRace,
    best_for_dish,
    check_serve,
    requirement,
    totals_cards,
)
from shared_rules.space_battle.rules import FLAVORS, serve_level


def vec(**kw):
    return tuple(kw.get(f, 0) for f in FLAVORS)


def test_rulebook_serve_examples():
    # Gold: two bitter, two savory, one sweet, served as 2x savory(1), sweet(1), bitter(2)
    assert check_serve(vec(bitter=2, savory=2, sweet=1), vec(bitter=2, savory=2, sweet=1)) == 0
    # Silver: 1 bitter 2 spicy 2 sweet, served 3 bitter 3 spicy 1 sweet
    assert check_serve(vec(bitter=1, spicy=2, sweet=2), vec(bitter=3, spicy=3, sweet=1)) == 1
    # Bronze: 1 bitter 1 savory 1 sour, served 3 spicy
    assert check_serve(vec(bitter=1, savory=1, sour=1), vec(spicy=3)) == 2
    assert check_serve(vec(bitter=1, savory=1, sour=1), vec(spicy=2)) is None
    assert check_serve(vec(bitter=1), vec()) is None


def test_check_serve_agrees_with_serve_level():
    from shared_rules.rng import Rng

    rng = Rng(5)
    for _ in range(300):
        need = tuple(rng.randbelow(3) for _ in range(5))
        if not sum(need):
            continue
        have = tuple(rng.randbelow(4) for _ in range(5))
        cards = totals_cards(have)
        assert all(1 <= q <= 3 for _, q in cards)
        lv = serve_level(requirement(need), cards)
        got = check_serve(need, have)
        assert (lv is None and got is None) or ("gold", "silver", "bronze")[got] == lv


def test_best_serve_names_the_cards():
    hand = [("bitter", 2), ("savory", 1), ("spicy", 3), ("savory", 1), ("sweet", 1)]
    opt, cards = best_for_dish(hand, vec(bitter=2, savory=2, sweet=1), (9, 5, 2))
    assert opt.level == "gold" and opt.points == 9 and opt.judges
    assert sorted(cards) == [("bitter", 2), ("savory", 1), ("savory", 1), ("sweet", 1)]
    opt, cards = best_for_dish([("spicy", 3)], vec(bitter=1, savory=1, sour=1), (6, 4, 2))
    assert opt.level == "bronze" and opt.points == 2 and cards == [("spicy", 3)]
    assert best_for_dish([("spicy", 1)], vec(bitter=3), (6, 4, 2)) is None


def test_race_equal_turns():
    g = BattleRace(3)
    assert g.current_player() == 0
    for a in (8, 0, 5, 8, 4, 5, 6):  # seat 0 reaches 22 on its third turn
        g.apply(a)
    assert g.scores() == [22, 4, 10] and g.current_player() == 1
    assert g.leader_reached() and not g.is_terminal()
    g.apply(MORE + 3)  # a judge reward serve: the turn goes on
    assert g.current_player() == 1
    g.apply(7)
    g.apply(9)  # seat 2 ends the round: equal turns
    assert g.scores() == [22, 14, 19]
    assert g.current_player() == TERMINAL and g.winners() == [0]
    with raises(ValueError, "over"):
        g.apply(3)


def test_a_later_seat_can_overtake_in_the_last_round():
    g = BattleRace(2)
    g.apply(21)
    assert g.current_player() == 1
    g.apply(25)
    assert g.is_terminal() and g.winners() == [1]


def test_flavour_tie_break():
    g = BattleRace(3)
    for a in (21, 10, 21):
        g.apply(a)
    assert g.current_player() == TABLE
    assert g.legal_actions()[0] == FLAVOUR and len(g.legal_actions()) == 22
    g.apply(FLAVOUR + 9)  # seat 0's hand
    assert g.current_player() == TABLE and not g.winners()
    g.apply(FLAVOUR + 12)  # seat 2's
    assert g.is_terminal() and g.winners() == [2]
    g.undo()
    g.apply(FLAVOUR + 9)
    assert g.winners() == [0, 2]  # still tied: both win (race to the kitchen)


def test_bad_entries():
    refuses(BattleRace, (6, 1), "2 to 5 players")
    g = BattleRace()
    refuses(g.apply, (FLAVOUR + 3,), "flavour tie-break comes at the end")
    refuses(g.apply, (-1, 222, 1000))
    assert g.actions() == [] and g.scores() == [0, 0]


def test_record_and_resume():
    from shared_rules import games

    g = games.new("battle_race", 4)
    for a in (3, MORE + 2, 5, 0, 9):
        g.apply(a)
    data = games.record(g)
    assert games.game_id_of(data) == "battle_race"
    h = games.from_bytes(data)
    assert h.scores() == g.scores() == [3, 7, 0, 9] and h.current_player() == 0
    assert h.to_bytes() == data
    for a in range(0, 222, 7):
        assert 0 < len(g.describe(a)) <= 18


def test_the_start_player_plays_first_and_closes_each_round():
    g = BattleRace(3, 2)  # the third seat starts
    assert g.current_player() == 2
    for a in (21, 4, 5):  # seat 2 reaches 21, then seats 0 and 1 have their turn
        g.apply(a)
    assert g.is_terminal() and g.winners() == [2]
    h = BattleRace(3, 2)
    for a in (21, 4):
        h.apply(a)
    assert h.current_player() == 1 and not h.is_terminal()  # seat 1 has not played yet
    with raises(ValueError, "start player is one of the 3 players"):
        BattleRace(3, 3)


def test_a_record_from_before_the_start_player_starts_at_seat_0():
    from shared_rules import games
    from shared_rules.protocol import encode

    old = encode(BattleRace.index, (3,), b"", [21, 4, 5])  # one setting: the player count
    g = games.from_bytes(old)
    assert g.params == (3, 0) and g.is_terminal() and g.winners() == [0]
