"""Space Days end-of-game scoring and "Can I play this here?" (shared_rules.space_days.score),
checked against the engine (shared_rules.space_days.rules).

Portable: runs on CPython and in the MicroPython lane."""

from _harness import raises
from shared_rules.protocol import TABLE, TERMINAL
from shared_rules.space_days.cards import card_id
from shared_rules.space_days.rules import SpaceDays
from shared_rules.space_days.score import COUNT, DaysScore, fits


def enter(g, boards):
    """Boards as 7 names or None per seat (the top cards)."""
    for row in boards:
        for name in row:
            g.apply(0 if name is None else card_id(name) + 1)


A = ["solar_probe", "space_elevator", "hospital_ship", "space_junk_3", "evil_cube",
     "rocket_ship", "gaseous_cloud"]  # 4 3 2 3 7 2 0 = 21
B = [None, "flying_saucer", None, "reusable_ship", "space_station", "hospital_ship",
     "planet_killer"]  # 0 6 0 2 5 2 0 = 15


def test_scores_match_the_engine():
    g = DaysScore(2)
    assert g.current_player() == 0
    enter(g, (A, B))
    assert g.scores() == [21, 15] and g.is_terminal() and g.winners() == [0]
    # the engine, with the cloud on top of a perch it hides and a card under B's station
    e = SpaceDays(2)
    a = [[c] for c in A]
    a[6] = ["hospital_ship", "gaseous_cloud"]
    b = [[] if c is None else [c] for c in B]
    e.arrange(boards=[a, b])
    assert e.scores() == g.scores()


def test_most_cards_tie_break():
    g = DaysScore(3)
    same = ["solar_probe", "hospital_ship", None, None, None, None, None]  # 6
    other = ["solar_probe", None, None, None, None, "rocket_ship", None]  # 6
    enter(g, (same, other, [None] * 7))
    assert g.current_player() == TABLE
    legal = g.legal_actions()
    assert legal[0] == COUNT + 2  # two occupied days: at least two cards
    with raises(ValueError, "at least 2 cards"):
        g.apply(COUNT + 1)
    g.apply(COUNT + 3)  # seat 0: a card under one of them
    g.apply(COUNT + 2)
    assert g.is_terminal() and g.winners() == [0]
    g.undo()
    g.apply(COUNT + 3)
    assert g.winners() == [0, 1]  # a draw


def test_gaseous_cloud_counts_two_cards_and_hides_the_score():
    g = DaysScore(2)
    enter(g, (["gaseous_cloud"] + [None] * 6, [None] * 7))
    assert g.scores() == [0, 0] and g.min_cards(0) == 2
    assert g.current_player() == TABLE  # 0-0: the card counts decide
    assert g.legal_actions()[0] == COUNT + 2


def test_only_cards_that_fit_the_day():
    g = DaysScore(2)
    legal = g.legal_actions()  # Monday
    assert 0 in legal and card_id("solar_probe") + 1 in legal
    assert card_id("rocket_ship") + 1 not in legal and card_id("wormhole") + 1 not in legal
    with raises(ValueError, "Rocket Ship cannot be on monday"):
        g.apply(card_id("rocket_ship") + 1)
    with raises(ValueError, "top card first"):
        g.apply(COUNT + 3)
    for k in range(18):
        for d in range(7):
            e = SpaceDays(2)
            try:
                e.arrange(boards=[[[k] if x == d else [] for x in range(7)], [[]] * 7])
                ok = True
            except ValueError:
                ok = False
            assert ok == bool(fits(k, d)), (k, d)


def test_can_i_play_here():
    g = DaysScore(2)
    enter(g, (["space_junk", None, "hospital_ship", None, None, None, None],
              [None, "planet_killer", None, None, None, None, None]))
    names = ["ANN", "BOB"]
    sid = card_id
    assert g.can_play(0, sid("space_scavenger"), 0, 1, names) is None  # beside the junk
    assert "next to space junk" in g.can_play(0, sid("space_scavenger"), 0, 4, names)
    why = g.can_play(0, sid("space_station"), 0, 1, names)
    assert why is None  # Monday and Wednesday occupied
    why = g.can_play(0, sid("space_station"), 0, 3, names)
    assert "both days beside" in why
    why = g.can_play(0, sid("hospital_ship"), 1, 1, names)
    assert why == "a planet killer blocks BOB's tuesday", why
    assert "own board only" in g.can_play(0, sid("flying_saucer"), 1, 3, names)
    assert "only sat, sun" in g.can_play(0, sid("rocket_ship"), 0, 3, names)
    assert g.can_play(0, sid("gaseous_cloud"), 0, 0, names) is None
    assert "goes on top of a card" in g.can_play(0, sid("gaseous_cloud"), 0, 1, names)
    assert g.can_play(0, sid("space_pirate"), 1, 0, names) is None
    assert "not yourself" in g.can_play(0, sid("space_pirate"), 0, 0, names)
    # against the engine for every card, board and day, on a position the engine holds
    e = SpaceDays(2)
    e.arrange(boards=[[[c] if c else [] for c in ("space_junk", None, "hospital_ship", None,
                                                  None, None, None)],
                      [[c] if c else [] for c in (None, "planet_killer", None, None, None,
                                                  None, None)]])
    from shared_rules.space_days.legal import play_reason

    for k in range(18):
        if k == sid("space_pirate"):
            continue
        for b in range(2):
            for d in range(7):
                assert g.can_play(0, k, b, d) == play_reason(e, 0, k, b, d, 0, 0), (k, b, d)


def test_record_and_bad_settings():
    from shared_rules import games

    with raises(ValueError, "2 to 7 players"):
        DaysScore(8)
    g = games.new("days_score", 2)
    enter(g, (A, B[:3]))
    data = games.record(g)
    assert games.game_id_of(data) == "days_score"
    h = games.from_bytes(data)
    assert h.entering() == (1, 3) and h.to_bytes() == data
    assert h.current_player() == 1 and not h.is_terminal()
    for a in range(0, 100, 3):
        assert 0 < len(g.describe(a)) <= 18
    enter(h, ([None],))
    assert h.current_player() == 1
    while not h.is_terminal():
        h.apply(0)
    assert h.current_player() == TERMINAL and h.winners() == [0]


def test_the_scoreboard_takes_as_many_players_as_the_engine():
    from shared_rules import games
    from shared_rules.rng import Rng
    from shared_rules.space_days.cards import MAX_PLAYERS, MIN_PLAYERS

    assert (MIN_PLAYERS, MAX_PLAYERS) == (2, 7)  # the limit docs/scoring.md states
    for gid, name in (("space_days", "Space Days"), ("days_score", "Space Days scoring")):
        for n in (MIN_PLAYERS - 1, MAX_PLAYERS + 1):
            with raises(ValueError, name + " is for 2 to 7 players"):
                games.new(gid, n)
    # the most players: an engine game played at random, saved and replayed as it stands,
    # and the scoreboard given its boards scores them as the engine does
    rng = Rng(7)
    e = games.new("space_days", MAX_PLAYERS)
    for _ in range(400):
        if e.is_terminal():
            break
        e.apply(rng.choice(e.legal_actions()))
    assert games.replay(games.record(e)).to_bytes() == e.to_bytes()
    assert games.from_bytes(e.to_bytes()).to_bytes() == e.to_bytes()
    boards = e.engine.boards
    g = DaysScore(MAX_PLAYERS)
    for s in range(MAX_PLAYERS):
        for d in range(7):
            g.apply(boards[s][d][-1] + 1 if boards[s][d] else 0)
    assert g.scores() == e.scores() and len(g.scores()) == MAX_PLAYERS
