"""Space Battle Lunchtime calculators: the rulebook's serving examples, best_serve, bad input.

Portable: runs on CPython and in the MicroPython lane."""

from _harness import raises
from shared_rules.space_battle.rules import (
    best_serve,
    card_code,
    code_card,
    need_vector,
    presiding_judges,
    serve_level,
)


def test_rulebook_gold_example():
    # two Bitter, two Savory, one Sweet: two 1x Savory, a 1x Sweet and a 2x Bitter
    dish = {"bitter": 2, "savory": 2, "sweet": 1}
    cards = [("savory", 1), ("savory", 1), ("sweet", 1), ("bitter", 2)]
    assert serve_level(dish, cards) == "gold"


def test_rulebook_silver_example():
    # 1 Bitter, 2 Spicy, 2 Sweet served as 3x Bitter, 3x Spicy, 1x Sweet
    dish = {"bitter": 1, "spicy": 2, "sweet": 2}
    assert serve_level(dish, [("bitter", 3), ("spicy", 3), ("sweet", 1)]) == "silver"


def test_rulebook_bronze_example():
    # 1 Bitter, 1 Savory, 1 Sour served as 3x Spicy
    dish = {"bitter": 1, "savory": 1, "sour": 1}
    assert serve_level(dish, [("spicy", 3)]) == "bronze"


def test_levels_in_detail():
    dish = {"sweet": 2, "sour": 1}
    assert serve_level(dish, [("sweet", 2), ("sour", 1)]) == "gold"
    assert serve_level(dish, [("sour", 1), ("sweet", 1), ("sweet", 1)]) == "gold"
    # same flavours, wrong amounts (even the same total): silver
    assert serve_level(dish, [("sweet", 1), ("sour", 2)]) == "silver"
    assert serve_level(dish, [("sweet", 3), ("sour", 3)]) == "silver"
    # a flavour missing or an extra flavour is not silver; the right total makes it bronze
    assert serve_level(dish, [("sweet", 3)]) == "bronze"
    assert serve_level(dish, [("sweet", 1), ("sour", 1), ("bitter", 1)]) == "bronze"
    assert serve_level(dish, [("sweet", 2), ("sour", 1), ("bitter", 1)]) is None
    assert serve_level(dish, [("spicy", 2)]) is None
    assert serve_level(dish, []) is None
    # the tuple form of a requirement and lists as cards work the same
    assert serve_level((0, 0, 1, 0, 2), [["sweet", 2], ["sour", 1]]) == "gold"


def test_bad_cards_and_dishes():
    dish = {"sweet": 2}
    with raises(ValueError, "'umami'"):
        serve_level(dish, [("umami", 1)])
    with raises(ValueError, "4"):
        serve_level(dish, [("sweet", 4)])
    with raises(ValueError, "0"):
        serve_level(dish, [("sweet", 0)])
    with raises(ValueError, "'2'"):
        serve_level(dish, [("sweet", "2")])
    with raises(ValueError, "True"):
        serve_level(dish, [("sweet", True)])
    with raises(ValueError, "'sweet'"):
        serve_level(dish, ["sweet"])
    with raises(ValueError, "'salty'"):
        serve_level({"salty": 1}, [("sweet", 1)])
    with raises(ValueError, "-1"):
        serve_level({"sweet": -1}, [("sweet", 1)])
    with raises(ValueError, "at least one"):
        serve_level({}, [("sweet", 1)])
    with raises(ValueError, "None"):
        serve_level({"sweet": 1}, None)
    with raises(ValueError, "names"):
        serve_level({"sweet": 1, 3: 1}, [("sweet", 1)])
    with raises(ValueError, "3"):
        serve_level({3: 1}, [("sweet", 1)])


def test_card_codes_round_trip():
    for code in range(15):
        assert card_code(code_card(code)) == code
    assert need_vector({"spicy": 3}) == (0, 0, 0, 3, 0)


def test_presiding_judges():
    # The rulebook's example: Goops (judge 0) presides over Choco Gems (position 0) and Pizza
    # Orb (1); Gatorax (judge 1) over Pizza Orb and Chickenish (2). A gold Pizza Orb may take
    # either reward, a gold Choco Gems only Goops'.
    assert presiding_judges(0) == (0,)
    assert presiding_judges(1) == (0, 1)
    assert presiding_judges(2) == (1, 2)
    assert presiding_judges(3) == (2,)


def test_best_serve_options_and_judges():
    hand = [("savory", 1), ("savory", 1), ("sweet", 1), ("bitter", 2), ("spicy", 3)]
    dishes = [
        ({"bitter": 2, "savory": 2, "sweet": 1}, (8, 5, 2)),
        ({"bitter": 1, "savory": 1, "sour": 1}, (6, 4, 3)),
        None,
        ({"spicy": 3}, (4, 2, 1)),
    ]
    options, best = best_serve(hand, dishes, favorite="sweet")
    assert best.dish == 0 and best.level == "gold" and best.points == 8
    assert best.cards == (0, 1, 2, 3)
    assert best.judges == (0,) and best.spatula
    # options are sorted best first and each is a real serve of its cards
    for o in options:
        assert o.level == serve_level(dishes[o.dish][0], [hand[i] for i in o.cards])
        assert o.points == dishes[o.dish][1][("gold", "silver", "bronze").index(o.level)]
        assert (o.judges != ()) == (o.level == "gold")
    keys = [o._key() for o in options]
    assert keys == sorted(keys)
    # the spicy dish at gold presides under judge 2 only; no spatula (sweet not needed)
    spicy = [o for o in options if o.dish == 3 and o.level == "gold"]
    assert len(spicy) == 1 and spicy[0].cards == (4,) and spicy[0].judges == (2,)
    assert not spicy[0].spatula
    # the duplicate savory cards are not listed twice
    singles = [o.cards for o in options if o.dish == 1 and len(o.cards) == 1]
    assert singles == [(4,)]  # 3x spicy is a bronze (3 total); nothing else single makes 3
    pairs = [o.cards for o in options if o.dish == 1 and len(o.cards) == 2]
    assert (0, 3) in pairs and (1, 3) not in pairs


def test_best_prefers_fewer_cards_on_equal_points():
    hand = [("sweet", 1), ("sweet", 1), ("sweet", 2)]
    dish = [({"sweet": 2}, (5, 3, 1))]
    options, best = best_serve(hand, dish)
    assert best.cards == (2,) and best.level == "gold"
    # a single 1x sweet is a silver too: 3 points for one card comes before two-card silvers
    assert [o.cards for o in options] == [(2,), (0, 1), (0,), (0, 2), (0, 1, 2)]
    assert [o.level for o in options] == ["gold", "gold", "silver", "silver", "silver"]


def test_spatula_needs_the_flavour_in_the_dish_and_used():
    hand = [("sour", 2), ("sweet", 2)]
    # the dish requires sour but the sweet card is served as a bronze: no spatula
    options, _ = best_serve(hand, [({"sour": 2}, (3, 2, 1))], favorite="sour")
    by_cards = dict((o.cards, o) for o in options)
    assert by_cards[(0,)].spatula and not by_cards[(1,)].spatula
    options, _ = best_serve(hand, [({"bitter": 2}, (3, 2, 1))], favorite="sour")
    assert [o.spatula for o in options] == [False, False]


def test_nothing_servable():
    options, best = best_serve([("sweet", 1)], [({"sour": 3}, (3, 2, 1)), None])
    assert options == [] and best is None
    assert best_serve([], [({"sour": 3}, (3, 2, 1))]) == ([], None)


def test_best_serve_bad_input():
    with raises(ValueError, "'umami'"):
        best_serve([("umami", 1)], [])
    with raises(ValueError, "'salty'"):
        best_serve([("sweet", 1)], [({"salty": 1}, (1, 1, 1))])
    with raises(ValueError, "-2"):
        best_serve([("sweet", 1)], [({"sweet": 1}, (1, -2, 1))])
    with raises(ValueError, "'umami'"):
        best_serve([("sweet", 1)], [], favorite="umami")
    with raises(ValueError, "at most 4"):
        best_serve([("sweet", 1)], [None] * 5)
    with raises(ValueError, "at most 10"):
        best_serve([("sweet", 1)] * 11, [])


def test_seven_card_hand_is_fast_enough():
    hand = [("sweet", 1), ("sour", 2), ("spicy", 3), ("bitter", 1), ("savory", 2),
            ("sweet", 3), ("sour", 1)]
    dishes = [({"sweet": 2, "sour": 2}, (7, 4, 2)), ({"spicy": 3, "bitter": 1}, (6, 3, 1)),
              ({"savory": 2, "sweet": 1, "sour": 1}, (9, 5, 2)), ({"bitter": 4}, (5, 3, 2))]
    options, best = best_serve(hand, dishes, favorite="savory")
    assert best.points == 9 and best.level == "gold" and best.dish == 2
    assert best.judges == (1, 2) and best.spatula
    assert len(options) > 20


def test_seeded_engine_game_round_trips():
    # A whole score race on the engine (also on MicroPython): every state survives to_bytes.
    from shared_rules.rng import Rng
    from shared_rules.space_battle.check import from_bytes
    from shared_rules.space_battle.engine import SpaceBattle

    rng = Rng(7)
    g = SpaceBattle(3, ["sweet", "sour", None])
    display = [({"sweet": 2}, (4, 2, 1)), ({"sour": 1, "spicy": 2}, (6, 3, 2)),
               ({"bitter": 1, "savory": 1, "sweet": 1}, (7, 4, 2)), ({"spicy": 3}, (5, 3, 1))]
    steps = 0
    while not g.is_over():
        acts = g.legal_actions(display)
        serves = [a for a in acts if a[0] == "serve"]
        if g.is_chance():
            a = g.sample_chance(rng)
        elif serves and rng.randbelow(2):
            a = rng.choice(serves)
        else:
            a = rng.choice(acts)
        g.apply(a)
        steps += 1
        data = g.to_bytes()
        assert from_bytes(data).to_bytes() == data
        assert steps < 3000
    assert max(g.scores()) >= 21
    assert g.turns == [g.turns[0]] * 3


def test_best_only_finds_the_same_best_serve_with_no_list():
    # the race's best-serve tool asks for the best alone (a Pico's heap): the same option
    from shared_rules.rng import Rng

    rng = Rng(11)
    names = ("bitter", "savory", "sour", "spicy", "sweet")
    found = 0
    for _ in range(120):
        hand = [(names[rng.randrange(5)], 1 + rng.randrange(3)) for _ in range(rng.randrange(11))]
        dishes = []
        for _ in range(1 + rng.randrange(4)):
            need = {names[rng.randrange(5)]: 1 + rng.randrange(4)}
            gold = 3 + rng.randrange(4)
            dishes.append((need, (gold, gold - 1, gold - 2)))
        options, best = best_serve(hand, dishes)
        alone = best_serve(hand, dishes, best_only=True)
        assert alone[0] == [] and repr(alone[1]) == repr(best)
        found += best is not None
        # each set of cards once, by its first subset: no two options hold the same cards
        seen = [(o.dish, sorted(hand[i] for i in o.cards)) for o in options]
        assert len(seen) == len(set(repr(s) for s in seen))
    assert found > 40
