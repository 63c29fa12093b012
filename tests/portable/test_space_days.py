"""Space Days: cards, where they may go (with reasons), effects, the end, scores, tie-breaks.

Portable: runs on CPython and in the MicroPython lane. Positions are set up with ``arrange``;
undo goes through the protocol (games.new("space_days", ...)).
"""

from _harness import raises
from shared_rules import games
from shared_rules.rng import Rng
from shared_rules.space_days import cards as sdc
from shared_rules.space_days import game as sdg
from shared_rules.space_days.rules import CARD, CHANCE, DRAW, PASS, PLAY, REPLY, SpaceDays

DAY3 = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


def board(**days):
    """7 stacks from keywords like ``mon="space_junk", tue=["hospital_ship", "gaseous_cloud"]``."""
    out = []
    for d in DAY3:
        v = days.get(d, [])
        out.append([v] if isinstance(v, str) else list(v))
    return out


def empty():
    return board()


def game(boards=None, hands=None, turn=0, **opts):
    g = SpaceDays(**opts)
    n = g.n
    g.arrange(boards or [empty() for _ in range(n)], hands or [[] for _ in range(n)], turn)
    return g


def names(stack):
    return [sdc.card_name(k) for k in stack]


def legal(g, action):
    return g.check(action) is None


def why(g, action):
    r = g.check(action)
    assert r is not None, "expected {} to be illegal".format(action)
    return r


def assert_rejected(g, action, text):
    """Illegal: the reason contains ``text``, apply raises it, and the state is unchanged."""
    before = g.to_bytes()
    r = why(g, action)
    assert text in r, "{!r} not in {!r}".format(text, r)
    with raises(ValueError, text):
        g.apply(action)
    assert g.to_bytes() == before


# -- the cards ------------------------------------------------------------------------------


def test_scores_as_printed():
    printed = (
        ("space_scavenger", 6), ("space junk", 1), ("Evil Cube", 7), ("gaseous_cloud", 0),
        ("flying_saucer", 6), ("solar_probe", 4), ("space_elevator", 3), ("space_station", 5),
        ("hospital_ship", 2), ("rocket_ship", 2), ("space_junk_3", 3), ("Re-usable Ship", 2),
        ("planet_killer", 0),
    )
    for name, score in printed:
        assert sdc.card_score(name) == score, name
    assert sdc.card_score("planet killer", planet_killer_score=3) == 3
    assert len(sdc.CARDS) == sdc.KINDS == 18


def test_allowed_days_as_printed():
    expect = (
        ("planet_killer", (1, 2, 5, 6)), ("solar_probe", (0,)), ("space_elevator", (1, 2, 6)),
        ("space_station", (1, 2, 3, 4, 5)), ("hospital_ship", (1, 2, 3, 4, 5, 6)),
        ("rocket_ship", (5, 6)), ("space_junk_3", (3, 4)), ("reusable_ship", (1, 2, 3, 4)),
        ("space_junk", tuple(range(7))), ("evil_cube", tuple(range(7))),
        ("flying_saucer", tuple(range(7))), ("space_scavenger", tuple(range(7))),
    )
    for name, days in expect:
        assert sdc.allowed_days(name) == days, name
    for name in ("wormhole", "time_warp", "hyperspace_web", "space_pirate", "teleport"):
        assert sdc.is_action(name)
    assert not sdc.is_action("gaseous_cloud")


def test_names_aliases_and_unknowns():
    assert sdc.card_id("SPACE JUNK") == sdc.SPACE_JUNK == sdc.card_id("space_junk_1")
    assert sdc.card_id("re-usable ship") == sdc.REUSABLE_SHIP == sdc.card_id(17)
    with raises(ValueError, "death star"):
        sdc.card_id("death star")
    with raises(ValueError, "18"):
        sdc.card_id(18)
    with raises(ValueError, "True"):
        sdc.card_id(True)
    assert sdc.day_index("Tue") == 1 and sdc.day_index("sunday") == 6 and sdc.day_index(0) == 0
    with raises(ValueError, "funday"):
        sdc.day_index("funday")
    with raises(ValueError, "7"):
        sdc.day_index(7)


def test_deck_size_and_options():
    g = SpaceDays()
    assert sum(g.deck) == 39 and g.decks == 1
    assert sum(SpaceDays(players=3).deck) == 78
    assert sum(SpaceDays(players=5, decks=2).deck) == 78
    g = SpaceDays(counts={"wormhole": 5})
    assert g.deck[sdc.WORMHOLE] == 5 and sum(g.deck) == 42
    with raises(ValueError, "ufo"):
        SpaceDays(counts={"ufo": 1})
    with raises(ValueError, "counts needs 18"):
        SpaceDays(counts=(1, 2))
    with raises(ValueError, "players"):
        SpaceDays(players=1)
    with raises(ValueError, "seat 2"):
        SpaceDays(first=2)
    with raises(ValueError, "evil_cube_clears"):
        SpaceDays(evil_cube_clears="corners")
    with raises(ValueError, "scavenger_junk"):
        SpaceDays(scavenger_junk="shiny")


# -- turns: draw, chance, pass ----------------------------------------------------------------


def test_draw_is_a_chance_action():
    g = SpaceDays()
    assert g.current_player() == 0
    assert g.legal_actions() == [(DRAW, 0, 0, 0, 0, 0)]
    g.apply(("draw",))
    assert g.current_player() == CHANCE and g.is_chance_node()
    outs = g.chance_outcomes()
    assert sum(w for _, w in outs) == 39 and len(outs) == 18
    assert_rejected(g, ("play", "space_junk", 0, "mon"), "waiting for the card drawn")
    g.apply(("card", "evil cube"))
    assert g.hand(0) == [sdc.EVIL_CUBE] and g.current_player() == 1
    assert g.deck[sdc.EVIL_CUBE] == 1
    p = games.new("space_days")  # the same two actions on the protocol, then undone
    p.apply(sdg.encode((DRAW, 0, 0, 0, 0, 0)))
    p.apply(sdg.encode((CARD, sdc.EVIL_CUBE, 0, 0, 0, 0)))
    p.undo()
    assert p.current_player() == CHANCE and p.engine.hand(0) == []
    p.undo()
    assert p.current_player() == 0 and sum(p.engine.deck) == 39
    with raises(ValueError, "nothing to undo"):
        p.undo()


def test_drawn_card_must_be_in_the_deck():
    g = game(counts={"evil_cube": 1}, hands=[["evil_cube"], []])
    g.apply((DRAW,))
    assert_rejected(g, (CARD, sdc.EVIL_CUBE), "no evil_cube is left in the deck")
    assert_rejected(g, (CARD, "warp drive"), "warp drive")


def test_sample_chance_is_seeded():
    a, b = SpaceDays(), SpaceDays()
    a.apply((DRAW,))
    b.apply((DRAW,))
    assert a.sample_chance(Rng(3)) == b.sample_chance(Rng(3))
    with raises(ValueError, "not a chance node"):
        SpaceDays().sample_chance(Rng(1))


def test_start_hand_is_dealt_by_chance():
    g = SpaceDays(start_hand=2, first=1)
    assert g.current_player() == CHANCE
    for k in (sdc.SPACE_JUNK, sdc.WORMHOLE, sdc.TELEPORT, sdc.ROCKET_SHIP):
        g.apply((CARD, k))
    assert g.hand(1) == [sdc.TELEPORT, sdc.SPACE_JUNK]  # sorted by kind
    assert g.hand(0) == [sdc.WORMHOLE, sdc.ROCKET_SHIP]
    assert g.current_player() == 1
    assert SpaceDays.from_bytes(g.to_bytes()).to_bytes() == g.to_bytes()


def test_pass_only_when_nothing_else_and_a_round_ends_it():
    counts = [0] * 18
    counts[sdc.SOLAR_PROBE] = 2
    g = game(counts=counts, hands=[["solar_probe"], []], boards=[board(mon="solar_probe"),
                                                                 empty()])
    assert sum(g.deck) == 0
    assert_rejected(g, (DRAW,), "the deck is empty")
    assert g.legal_actions() == [(PASS, 0, 0, 0, 0, 0)]
    g.apply(("pass",))
    assert not g.is_over() and g.current_player() == 1
    g.apply(("pass",))
    assert g.is_over() and g.winner() == 0 and g.scores() == [4, 0]
    assert g.legal_actions() == []
    assert_rejected(g, (PASS,), "the game is over")
    g2 = SpaceDays()
    assert_rejected(g2, (PASS,), "you may pass only when")


# -- placement cards --------------------------------------------------------------------------


def test_own_board_cards_and_days():
    g = game(hands=[["solar_probe", "space_elevator", "rocket_ship", "space_junk_3",
                     "reusable_ship", "hospital_ship"], []])
    assert_rejected(g, (PLAY, "solar_probe", 0, "tue"), "solar_probe cannot be played on tuesday")
    assert_rejected(g, (PLAY, "solar_probe", 1, "mon"), "your own board only")
    assert legal(g, (PLAY, "solar_probe", 0, "mon"))
    assert "only tue, wed, sun" in why(g, (PLAY, "space_elevator", 0, "thu"))
    assert legal(g, (PLAY, "space_elevator", 0, "sun"))
    assert legal(g, (PLAY, "rocket_ship", 0, "sat")) and not legal(g, (PLAY, "rocket_ship", 0, 4))
    assert legal(g, (PLAY, "space_junk_3", 0, "fri")) and not legal(g, (PLAY, "space_junk_3", 0, 1))
    assert legal(g, (PLAY, "reusable_ship", 0, "tue"))
    assert not legal(g, (PLAY, "reusable_ship", 0, "sat"))
    assert not legal(g, (PLAY, "reusable_ship", 1, "tue"))
    assert legal(g, (PLAY, "hospital_ship", 1, "sun"))  # any board
    assert not legal(g, (PLAY, "hospital_ship", 1, "mon"))
    assert_rejected(g, (PLAY, "evil_cube", 0, "mon"), "player 0 has no evil_cube in hand")
    g.apply((PLAY, "solar_probe", 0, "mon"))
    assert g.board(0)[0] == [sdc.SOLAR_PROBE] and g.hand(0).count(sdc.SOLAR_PROBE) == 0
    assert g.current_player() == 1


def test_empty_day_needed():
    g = game(boards=[board(tue="space_junk"), empty()],
             hands=[["reusable_ship", "space_junk"], []])
    assert_rejected(g, (PLAY, "reusable_ship", 0, "tue"), "your tuesday is not empty")
    assert_rejected(g, (PLAY, "space_junk", 0, "tue"), "is not empty")
    assert legal(g, (PLAY, "space_junk", 1, "tue"))


def test_flying_saucer_needs_empty_neighbours():
    g = game(boards=[board(wed="space_junk"), empty()], hands=[["flying_saucer"], []])
    assert_rejected(g, (PLAY, "flying_saucer", 0, "tue"), "needs the days beside")
    assert_rejected(g, (PLAY, "flying_saucer", 0, "thu"), "needs the days beside")
    assert legal(g, (PLAY, "flying_saucer", 0, "mon"))  # Monday has one neighbour: Tuesday
    assert legal(g, (PLAY, "flying_saucer", 0, "sat"))
    assert_rejected(g, (PLAY, "flying_saucer", 1, "mon"), "own board only")


def test_space_station_needs_both_neighbours():
    g = game(boards=[board(mon="space_junk", wed="space_junk", fri="space_junk"), empty()],
             hands=[["space_station"], []])
    assert legal(g, (PLAY, "space_station", 0, "tue"))
    assert legal(g, (PLAY, "space_station", 0, "thu"))
    assert_rejected(g, (PLAY, "space_station", 0, "sat"), "needs both days beside")
    assert "cannot be played on sunday" in why(g, (PLAY, "space_station", 0, "sun"))


def test_space_scavenger_next_to_junk():
    g = game(boards=[board(thu="space_junk_3"), board(mon="space_junk")],
             hands=[["space_scavenger"], []])
    assert legal(g, (PLAY, "space_scavenger", 0, "wed"))
    assert legal(g, (PLAY, "space_scavenger", 0, "fri"))
    assert legal(g, (PLAY, "space_scavenger", 1, "tue"))  # any board
    assert_rejected(g, (PLAY, "space_scavenger", 0, "sat"), "must go next to space junk")
    assert_rejected(g, (PLAY, "space_scavenger", 1, "sun"), "next to space junk")
    g = game(boards=[board(thu="space_junk_3"), board(mon="space_junk")],
             hands=[["space_scavenger"], []], scavenger_junk="one_point")
    assert not legal(g, (PLAY, "space_scavenger", 0, "wed"))
    assert legal(g, (PLAY, "space_scavenger", 1, "tue"))
    # Junk covered by a cloud is no longer there to scavenge.
    g = game(boards=[board(mon=["space_junk", "gaseous_cloud"]), empty()],
             hands=[["space_scavenger"], []])
    assert not legal(g, (PLAY, "space_scavenger", 0, "tue"))


def test_gaseous_cloud_goes_on_top_and_scores_zero():
    g = game(boards=[empty(), board(fri="evil_cube")], hands=[["gaseous_cloud"], []])
    assert g.scores() == [0, 7]
    assert_rejected(g, (PLAY, "gaseous_cloud", 0, "fri"), "goes on top of a card")
    g.apply((PLAY, "gaseous_cloud", 1, "fri"))
    assert names(g.board(1)[4]) == ["evil_cube", "gaseous_cloud"]
    assert g.scores() == [0, 0]


def test_evil_cube_clears_neighbouring_days():
    opp = board(mon="space_junk", tue=["hospital_ship", "gaseous_cloud"], thu="space_junk",
                sun="hospital_ship")
    g = game(boards=[empty(), opp], hands=[["evil_cube"], []])
    assert_rejected(g, (PLAY, "evil_cube", 1, "tue"), "is not empty")
    g.apply((PLAY, "evil_cube", 1, "wed"))
    after = g.board(1)
    assert after[1] == [] and after[3] == [] and after[2] == [sdc.EVIL_CUBE]
    assert after[0] == [sdc.SPACE_JUNK] and after[6] == [sdc.HOSPITAL_SHIP]
    assert g.discard_counts()[sdc.GASEOUS_CLOUD] == 1 and g.scores()[1] == 1 + 7 + 2
    # The other reading of "board sides": Monday and Sunday.
    g = game(boards=[empty(), opp], hands=[["evil_cube"], []], evil_cube_clears="ends")
    g.apply((PLAY, "evil_cube", 1, "wed"))
    after = g.board(1)
    assert after[0] == [] and after[6] == [] and after[3] == [sdc.SPACE_JUNK]
    assert len(after[1]) == 2


def test_planet_killer_blocks_and_finishes():
    g = game(boards=[empty(), board(wed="hospital_ship")],
             hands=[["planet_killer", "planet_killer"], ["gaseous_cloud", "space_junk"]])
    assert_rejected(g, (PLAY, "planet_killer", 1, "mon"), "cannot be played on monday")
    assert_rejected(g, (PLAY, "planet_killer", 1, "wed"), "is not empty")
    g.apply((PLAY, "planet_killer", 1, "sat"))  # on an opponent's board
    assert_rejected(g, (PLAY, "gaseous_cloud", 1, "sat"), "a planet killer blocks your saturday")
    assert g.scores() == [0, 2]
    g.apply((PLAY, "space_junk", 0, "mon"))
    # Played on your own board it counts as an item for finishing, and scores nothing.
    full = board(mon="solar_probe", tue="hospital_ship", wed="hospital_ship",
                 thu="space_junk_3", fri="space_junk", sat="rocket_ship")
    g = game(boards=[full, empty()], hands=[["planet_killer"], []])
    before = g.scores()[0]
    g.apply((PLAY, "planet_killer", 0, "sun"))
    assert g.is_over() and g.scores()[0] == before and g.winner() == 0
    g = game(boards=[full, empty()], hands=[["planet_killer"], []], planet_killer_score=2)
    g.apply((PLAY, "planet_killer", 0, "sun"))
    assert g.scores()[0] == before + 2


# -- action cards -----------------------------------------------------------------------------


def test_wormhole_clears_the_day_on_every_board():
    g = game(players=3,
             boards=[board(tue="reusable_ship"), board(tue=["evil_cube", "gaseous_cloud"]),
                     board(tue="planet_killer", wed="hospital_ship")],
             hands=[["wormhole", "wormhole"], [], []])
    assert_rejected(g, (PLAY, "wormhole", 1, "tue"), "wormhole is played on your own board")
    g.apply((PLAY, "wormhole", 0, "tue"))
    for p in range(3):
        assert g.board(p)[1] == []
    assert g.board(2)[2] == [sdc.HOSPITAL_SHIP]
    assert g.discard_counts()[sdc.WORMHOLE] == 1
    # On an empty day of your own: the other boards still lose that day.
    g = game(boards=[empty(), board(sun="evil_cube")], hands=[["wormhole"], []])
    g.apply((PLAY, "wormhole", 0, "sun"))
    assert g.board(1)[6] == []


def test_planet_killer_shields_option():
    b = [board(tue="planet_killer"), board(tue="planet_killer", wed="space_junk")]
    g = game(boards=b, hands=[["wormhole", "evil_cube"], []], planet_killer_shields=True)
    assert_rejected(g, (PLAY, "wormhole", 0, "tue"), "a planet killer blocks your tuesday")
    g.apply((PLAY, "evil_cube", 1, "mon"))
    assert g.board(1)[1] == [sdc.PLANET_KILLER]
    g = game(boards=b, hands=[["wormhole"], []])
    g.apply((PLAY, "wormhole", 0, "tue"))
    assert g.board(0)[1] == [] and g.board(1)[1] == []


def test_time_warp_swaps_any_item_keeping_positions():
    g = game(boards=[board(thu=["space_junk_3", "gaseous_cloud"]),
                     board(thu=["evil_cube", "gaseous_cloud"], fri="space_junk")],
             hands=[["time_warp"], []])
    assert_rejected(g, (PLAY, "time_warp", 0, "thu", 0, 0), "not your own")
    assert_rejected(g, (PLAY, "time_warp", 1, "fri", 0, 0), "your friday is empty")
    assert_rejected(g, (PLAY, "time_warp", 1, "thu", 2, 0), "your thursday has no item 2")
    assert_rejected(g, (PLAY, "time_warp", 1, "thu", 0, 5), "player 1's thursday has no item 5")
    g.apply((PLAY, "time_warp", 1, "thu", 1, 0))  # my cloud for their Evil Cube
    assert names(g.board(0)[3]) == ["space_junk_3", "evil_cube"]
    assert names(g.board(1)[3]) == ["gaseous_cloud", "gaseous_cloud"]
    assert g.scores() == [7, 1] and g.hand(0) == []


def test_hyperspace_web_and_the_forced_reply():
    mine = board(mon="solar_probe", tue="reusable_ship", wed="space_elevator")
    theirs = board(mon="space_junk", tue="planet_killer", thu="space_junk_3")
    g = game(boards=[mine, theirs], hands=[["hyperspace_web"], []])
    g.apply((PLAY, "hyperspace_web", 1, "tue", 0, 0))  # give them... take their Planet Killer
    assert g.board(0)[1] == [sdc.PLANET_KILLER] and g.board(1)[1] == [sdc.REUSABLE_SHIP]
    assert g.current_player() == 1
    assert g.legal_actions() == [(REPLY, 0, 0, 0, 0, 0)]  # Monday is the only other shared day
    assert_rejected(g, (REPLY, 0, 0, "tue", 0, 0), "other than tuesday")
    assert_rejected(g, (REPLY, 0, 0, "wed", 0, 0), "your wednesday is empty")  # said to player 1
    assert_rejected(g, (DRAW,), "must answer the hyperspace web")
    mid = SpaceDays.from_bytes(g.to_bytes())
    assert mid.current_player() == 1 and mid.legal_actions() == g.legal_actions()
    g.apply((REPLY, 0, 0, "mon", 0, 0))
    assert g.board(0)[0] == [sdc.SPACE_JUNK] and g.board(1)[0] == [sdc.SOLAR_PROBE]
    assert g.current_player() == 1 and g.scores() == [1 + 0 + 3, 4 + 2 + 3]
    assert_rejected(g, (REPLY, 0, 0, "mon", 0, 0), "no hyperspace web to answer")


def test_hyperspace_web_without_a_second_day_skips_the_reply():
    g = game(boards=[board(fri="space_junk_3", sat="rocket_ship"), board(fri="space_junk")],
             hands=[["hyperspace_web"], []])
    g.apply((PLAY, "hyperspace_web", 1, "fri", 0, 0))
    assert g.current_player() == 1 and g.legal_actions()[0] == (DRAW, 0, 0, 0, 0, 0)


def test_space_pirate_steals_by_chance():
    g = game(players=3, hands=[["space_pirate"], [], ["rocket_ship", "rocket_ship", "wormhole"]])
    assert_rejected(g, (PLAY, "space_pirate", 1), "player 1 has no cards in hand")
    assert_rejected(g, (PLAY, "space_pirate", 0), "not yourself")
    assert_rejected(g, (PLAY, "space_pirate", 9), "no seat 9")
    g.apply((PLAY, "space_pirate", 2))
    assert g.current_player() == CHANCE
    outs = g.chance_outcomes()
    assert outs == [((CARD, sdc.WORMHOLE, 0, 0, 0, 0), 1), ((CARD, sdc.ROCKET_SHIP, 0, 0, 0, 0), 2)]
    assert_rejected(g, (CARD, "teleport"), "player 2 has no teleport in hand")
    g.apply((CARD, "rocket_ship"))
    assert g.hand(0) == [sdc.ROCKET_SHIP] and g.hand(2) == [sdc.WORMHOLE, sdc.ROCKET_SHIP]
    assert g.current_player() == 1 and g.discard_counts()[sdc.SPACE_PIRATE] == 1


def test_teleport_takes_any_item_to_your_empty_day():
    g = game(boards=[board(sat="rocket_ship"),
                     board(sat=["hospital_ship", "gaseous_cloud"], sun="evil_cube")],
             hands=[["teleport"], []])
    assert_rejected(g, (PLAY, "teleport", 1, "sat", 0), "teleport needs your saturday empty")
    assert_rejected(g, (PLAY, "teleport", 1, "fri", 0), "player 1's friday is empty")
    assert_rejected(g, (PLAY, "teleport", 1, "sun", 1), "has no item 1")
    g.apply((PLAY, "teleport", 1, "sun", 0))
    assert g.board(0)[6] == [sdc.EVIL_CUBE] and g.board(1)[6] == []
    g = game(boards=[empty(), board(sat=["hospital_ship", "gaseous_cloud"])],
             hands=[["teleport"], []])
    g.apply((PLAY, "teleport", 1, "sat", 0))  # from under the cloud
    assert g.board(0)[5] == [sdc.HOSPITAL_SHIP] and g.board(1)[5] == [sdc.GASEOUS_CLOUD]


# -- the end, scores, tie-breaks --------------------------------------------------------------


def test_filling_an_opponents_board_ends_the_game():
    nearly = board(mon="solar_probe", tue="hospital_ship", wed="hospital_ship",
                   thu="space_junk_3", fri="space_junk", sat="rocket_ship")
    g = game(boards=[board(mon="space_junk"), nearly], hands=[["space_junk"], []])
    assert not g.is_over() and not g.is_full(1)
    g.apply((PLAY, "space_junk", 1, "sun"))
    assert g.is_over() and g.is_full(1)
    assert g.scores() == [1, 4 + 2 + 2 + 3 + 1 + 2 + 1]
    assert g.winner() == 1 and not g.is_draw()
    assert_rejected(g, (DRAW,), "the game is over")


def test_only_top_cards_score():
    g = game(boards=[board(tue=["evil_cube", "gaseous_cloud", "hospital_ship"],
                           wed=["space_junk", "gaseous_cloud"], sun="space_elevator"),
                     empty()])
    assert g.scores() == [2 + 0 + 3, 0]


def test_tie_break_most_cards_then_draw():
    a = board(tue=["evil_cube", "gaseous_cloud"], wed="space_junk")  # 1 point, 3 cards
    b = board(mon="space_junk")  # 1 point, 1 card
    g = game(boards=[a, b])
    assert g.winners() == [0]
    assert g.winner() is None  # not over yet
    g = game(boards=[a, board(mon="space_junk", tue="gaseous_cloud")], tiebreak_covered=False)
    assert g.winners() == [0, 1]
    g = game(players=3, boards=[board(mon="space_junk"), board(tue="space_junk"),
                                board(sun="hospital_ship")])
    assert g.scores() == [1, 1, 2] and g.winners() == [2]


def test_draw_at_the_end():
    counts = [0] * 18
    counts[sdc.SPACE_JUNK] = 2
    g = game(counts=counts, boards=[board(mon="space_junk"), board(tue="space_junk")])
    g.apply((PASS,))
    g.apply((PASS,))
    assert g.is_over() and g.is_draw() and g.winner() is None and g.winners() == [0, 1]


# -- input checks and persistence -------------------------------------------------------------


def test_bad_input_names_the_bad_value():
    g = game(hands=[["space_junk"], []])
    before = g.to_bytes()
    for action, text in (
        (("play", "moon base", 0, "mon"), "moon base"),
        (("play", "space_junk", 5, "mon"), "no seat 5"),
        (("play", "space_junk", 0, "someday"), "someday"),
        (("fly",), "fly"),
        (("play", "space_junk", 0, "mon", -1), "-1"),
        ((), "1..6 fields"),
        ("draw", "tuple"),
    ):
        with raises(ValueError, text):
            g.apply(action)
        assert text in g.check(action)
    assert g.to_bytes() == before
    with raises(ValueError, "no seat 3"):
        g.hand(3)
    with raises(ValueError, "ufo"):
        g.arrange(hands=[["ufo"], []])
    with raises(ValueError, "solar_probe cannot be on tuesday"):
        g.arrange(boards=[board(tue="solar_probe"), empty()])
    with raises(ValueError, "more evil_cube"):
        g.arrange(hands=[["evil_cube"] * 3, []])
    assert g.to_bytes() == before


def test_round_trip_and_corrupt_bytes():
    g = game(players=3, boards=[board(tue=["hospital_ship", "gaseous_cloud"]), empty(), empty()],
             hands=[["teleport"], ["space_junk"], []], planet_killer_score=1,
             evil_cube_clears="ends", scavenger_junk="one_point", planet_killer_shields=True)
    data = g.to_bytes()
    h = SpaceDays.from_bytes(data)
    assert h.to_bytes() == data and h.pk_score == 1 and h.cube_ends and h.pk_shields
    assert h.legal_actions() == g.legal_actions()
    bad = (
        b"", data[:-1], data + b"\x00", b"\x02" + data[1:], data[:1] + b"\x09" + data[2:],
        data[:3] + b"\x10" + data[4:],
    )
    for blob in bad:
        with raises(ValueError, "saved Space Days game"):
            SpaceDays.from_bytes(blob)
    with raises(ValueError, "bytes"):
        SpaceDays.from_bytes("text")
    # An action card on a board, and more cards than the deck holds.
    tail = bytearray(data)
    tail[-1] = 1  # the last day (seat 2, Sunday) was empty: its length byte 0
    tail.append(sdc.WORMHOLE)
    with raises(ValueError, "wormhole cannot sit on a board"):
        SpaceDays.from_bytes(bytes(tail))
    tail[-1] = sdc.SOLAR_PROBE
    with raises(ValueError, "solar_probe cannot be on day 6"):
        SpaceDays.from_bytes(bytes(tail))
    one = SpaceDays(counts={"hospital_ship": 1})
    one.arrange(boards=[board(tue="hospital_ship"), empty()])
    blob = bytearray(one.to_bytes())
    blob[-1] = 1
    blob.append(sdc.HOSPITAL_SHIP)
    with raises(ValueError, "more hospital_ship"):
        SpaceDays.from_bytes(bytes(blob))


def test_short_seeded_game_round_trips_and_undoes():
    rng = Rng(2024)
    p = games.new("space_days", 3, 0, 2)  # 3 players, seat 0 first, 2 cards dealt each
    steps = 0
    while not p.is_terminal() and steps < 400:
        before = p.engine.to_bytes()
        if p.current_player() == CHANCE:
            a = rng.weighted(p.chance_outcomes())
        else:
            a = rng.choice(p.legal_actions())
        p.apply(a)
        after = p.engine.to_bytes()
        assert SpaceDays.from_bytes(after).to_bytes() == after
        if steps % 10 == 0:  # undo replays the log: now and then is enough here
            p.undo()
            assert p.engine.to_bytes() == before
            p.apply(a)
        steps += 1
    g = p.engine
    assert g.is_over()
    total = list(g.discard_counts())
    assert min(total) >= 0


def test_legal_actions_list_a_small_position():
    g = game(boards=[board(sat="rocket_ship"), board(sat="hospital_ship")],
             hands=[["time_warp", "solar_probe"], []])
    assert g.legal_actions() == [
        (DRAW, 0, 0, 0, 0, 0),
        (PLAY, sdc.TIME_WARP, 1, 5, 0, 0),
        (PLAY, sdc.SOLAR_PROBE, 0, 0, 0, 0),
    ]


def test_describe_and_names_in_actions():
    g = game(hands=[["space_junk", "time_warp"], []])
    assert g.normalize(("play", "Space Junk", 1, "Tue")) == (PLAY, sdc.SPACE_JUNK, 1, 1, 0, 0)
    assert g.describe(("play", "space_junk", 1, "tue")) == "space junk on player 1's tuesday"
    assert g.describe((DRAW,)) == "draw"
    assert g.describe((PLAY, "time_warp", 1, "sat", 1, 0)) == (
        "time warp with player 1 on saturday: item 1 with item 0")
    assert g.describe((CARD, "teleport")) == "card: teleport"
