"""Space Battle Lunchtime score race: seeded random games (many more in make soak), scripted
turns, bad input (CPython). Undo and record -> replay are checked for every game in
tests/portable/test_protocol.py, which also runs the engine's consistency check at every step."""

import pytest

from savefuzz import flip_every_byte
from shared_rules.rng import Rng
from shared_rules.space_battle.check import check_state, from_bytes
from shared_rules.space_battle.engine import (
    CHANCE,
    JSERVE,
    JUDGE,
    SETUP,
    TAKE,
    TURN,
    UPGRADE,
    SpaceBattle,
)
from shared_rules.space_battle.rules import FLAVORS, serve_level


def random_dish(rng):
    need = {}
    for _ in range(1 + rng.randbelow(3)):
        f = rng.choice(FLAVORS)
        need[f] = need.get(f, 0) + 1 + rng.randbelow(2)
    b = 1 + rng.randbelow(3)
    s = b + rng.randbelow(3)
    return (need, (s + 1 + rng.randbelow(4), s, b))


def random_action(g, rng, display):
    acts = g.legal_actions(display)
    serves = [a for a in acts if a[0] == "serve"]
    if serves and rng.randbelow(3):
        return rng.choice(serves)
    if g.is_chance():
        return g.sample_chance(rng)
    return rng.choice(acts)


def play(seed, players, checked=True):
    rng = Rng(seed)
    favs = [rng.choice(FLAVORS + (None,)) for _ in range(players)]
    g = SpaceBattle(players, favs)
    display = [random_dish(rng) for _ in range(4)]
    steps = 0
    while not g.is_over():
        a = random_action(g, rng, display)
        if checked:
            old_scores = g.scores()
        g.apply(a)
        steps += 1
        assert steps < 5000
        if a[0] == "serve":  # the served dish leaves the display; a new one is revealed
            for i in range(4):
                d = display[i]
                if d[1] == a[2] and serve_level(d[0], list(a[3])) is not None:
                    display[i] = random_dish(rng)
                    break
        if not checked:
            # lighter, still every step: from_bytes raises unless the state re-encodes to
            # exactly the same bytes
            from_bytes(g.to_bytes())
            assert len(g.hands[(g.cur - 1) % g.n]) <= 7 or g.phase != TURN or a[0] != "end"
            continue
        assert all(x >= y for x, y in zip(g.scores(), old_scores))
        data = g.to_bytes()
        h = from_bytes(data)
        assert h.to_bytes() == data
        assert h.legal_actions(display) == g.legal_actions(display)
        assert h.current_player() == g.current_player()
        if g.phase == TURN and a[0] == "end":
            prev = (g.cur - 1) % g.n
            assert len(g.hands[prev]) <= 7
    return g


def check_end(g):
    """A finished race: equal turns, someone reached 21 (or every dish is served), the
    winners have the top score, every hand is within the limit."""
    t = g.turns[0]
    assert all(x == t for x in g.turns)
    sc = g.scores()
    assert max(sc) >= 21 or g.served() == 40
    w = g.winners()
    assert w and all(sc[s] == max(sc) for s in w)
    for s in range(g.n):
        assert len(g.hands[s]) <= 7


def test_seeded_games_of_each_size():
    for players in (2, 3, 4, 5):
        for seed in range(3):
            check_end(play(seed * 7 + players, players))


@pytest.mark.soak
@pytest.mark.parametrize("chunk", range(8))
def test_thousands_of_games_round_trip_at_every_step(chunk):
    # 2,000 seeded games in 8 chunks (spread over the cores by make test)
    for seed in range(chunk * 250, chunk * 250 + 250):
        check_end(play(50000 + seed, 2 + seed % 4, checked=False))


def _setup(g, cards):
    """Deal two starting cards to each seat (round-robin)."""
    for j in range(2):
        for s in range(g.n):
            f, q = cards[s][j]
            g.apply(("deal", f, q))


def test_scripted_turns():
    g = SpaceBattle(2, ["sweet", "sour"])
    assert g.phase == SETUP and g.current_player() == CHANCE
    _setup(g, [[("sweet", 1), ("bitter", 2)], [("sour", 3), ("sour", 1)]])
    assert g.phase == TURN and g.current_player() == 0
    assert g.hand(0) == [("bitter", 2), ("sweet", 1)]
    dish = ({"bitter": 2, "sweet": 1}, (6, 3, 1))
    serve = ("serve", {"sweet": 1, "bitter": 2}, (6, 3, 1), [("sweet", 1), ("bitter", 2)])
    assert ("serve", (2, 0, 0, 0, 1), (6, 3, 1), (("bitter", 2), ("sweet", 1))) in \
        g.legal_actions([dish])
    g.apply(serve)
    assert g.scores() == [6, 0] and g.phase == JUDGE
    assert g.legal_actions() == [("reward", "steal"), ("reward", "serve"), ("reward", "other"),
                                 ("skip",)]
    g.apply(("reward", "steal"))
    assert g.phase == TAKE
    g.apply(("take", "spicy", 3))
    assert g.phase == TURN and g.hand(0) == [("spicy", 3)]
    # sweet was the chef's favourite in a dish needing sweet: the spatula may flip
    assert ("flip",) in g.legal_actions()
    g.apply(("flip",))
    assert g.spatula[0] == 1 and ("spatula",) not in g.legal_actions()  # once a turn
    g.apply(("end",))
    assert g.current_player() == 1 and g.turns == [1, 0]
    # seat 1 buys with its 3x sour: takes three larder cards
    g.apply(("buy", "sour", 3))
    assert g.phase == TAKE and g.pending == 3
    for c in (("sweet", 1), ("sweet", 2), ("savory", 1)):
        g.apply(("take",) + c)
    assert g.hand(1) == [("savory", 1), ("sour", 1), ("sweet", 1), ("sweet", 2)]
    g.apply(("end",))
    # seat 0 uses the spatula's bonus for a judge ability before its action
    assert ("spatula",) in g.legal_actions()
    g.apply(("spatula",))
    assert g.phase == JUDGE and g.spatula[0] == 0
    assert ("reward", "upgrade") not in g.legal_actions()  # its only dish is gold
    g.apply(("reward", "other"))
    assert g.phase == TURN and ("flip",) not in g.legal_actions()
    g.apply(("steal", "bitter", 1))
    g.apply(("end",))
    assert g.turns == [2, 1]


def test_hand_limit_at_the_end_of_the_turn():
    g = SpaceBattle(2)
    _setup(g, [[("sweet", 1), ("sweet", 1)], [("sour", 1), ("sour", 1)]])
    while len(g.hands[0]) < 7:  # both seats steal turn by turn
        g.apply(("steal", "spicy", 1))
        g.apply(("end",))
        g.apply(("steal", "bitter", 1))
        g.apply(("end",))
    # a buy of a 1-card for a 3-card keeps seat 0 at 7: no discard needed
    g.apply(("buy", "sweet", 1))
    g.apply(("take", "bitter", 3))
    assert ("end",) in g.legal_actions()
    g.apply(("end",))
    g.apply(("buy", "bitter", 1))  # seat 1 (also at 7) swaps a card
    g.apply(("take", "bitter", 2))
    g.apply(("end",))
    g.apply(("steal", "sour", 2))  # seat 0: eight cards
    assert len(g.hands[0]) == 8
    assert ("end",) not in g.legal_actions()
    with pytest.raises(ValueError, match="end"):
        g.apply(("end",))
    assert ("discard", "spicy", 1) in g.legal_actions()
    g.apply(("discard", "spicy", 1))
    assert ("end",) in g.legal_actions() and len(g.hands[0]) == 7
    assert ("discard", "spicy", 1) not in g.legal_actions()  # only the excess


def _force(g, seat_scores):
    # give seats gold dishes worth their target scores (test helper: state set directly)
    for s, pts in enumerate(seat_scores):
        g.piles[s] = [(pts, 0, 0, 0)] if pts else []


def test_race_ends_after_equal_turns():
    g = SpaceBattle(3)
    _setup(g, [[("sweet", 1), ("sweet", 2)], [("sour", 1), ("sour", 2)],
               [("spicy", 1), ("spicy", 2)]])
    # seat 1 reaches 21 during its turn: seat 2 still plays, then the game ends
    g.apply(("steal", "bitter", 1))
    g.apply(("end",))
    g.apply(("serve", {"sour": 3}, (21, 10, 5), [("sour", 1), ("sour", 2)]))
    assert g.scores()[1] == 21 and g.phase == JUDGE
    g.apply(("skip",))
    g.apply(("end",))
    assert not g.is_over() and g.current_player() == 2
    g.apply(("steal", "bitter", 1))
    g.apply(("end",))
    assert g.is_over() and g.turns == [1, 1, 1] and g.winners() == [1]
    assert g.legal_actions() == []


def test_tie_break_on_flavour_in_hand():
    g = SpaceBattle(3)
    _setup(g, [[("sweet", 3), ("sweet", 2)], [("sour", 3), ("sour", 3)],
               [("spicy", 1), ("spicy", 2)]])
    _force(g, [22, 22, 22])
    # seat 1 holds 6 flavour, seat 0 holds 5, seat 2 holds 3
    assert g.winners() == [1]
    g.hands[0].append(0)  # one more 1x bitter: 6 too, a shared win
    g.hands[0].sort()
    assert g.winners() == [0, 1]


def test_upgrade_and_judge_serve():
    g = SpaceBattle(2)
    _setup(g, [[("sweet", 1), ("sour", 2)], [("sour", 1), ("sour", 1)]])
    g.apply(("serve", {"sweet": 1, "sour": 1}, (5, 3, 1), [("sweet", 1), ("sour", 2)]))
    assert g.scores() == [3, 0] and g.phase == TURN  # silver: no judge reward
    g.apply(("end",))
    g.apply(("serve", {"sour": 2}, (4, 2, 1), [("sour", 1), ("sour", 1)]))
    assert g.phase == JUDGE
    g.apply(("reward", "serve"))
    assert g.phase == JSERVE and g.legal_actions() == [("skip",)]  # nothing left to serve
    g.apply(("skip",))
    g.apply(("end",))
    g.apply(("steal", "bitter", 2))
    g.apply(("end",))
    g.apply(("steal", "bitter", 1))
    g.apply(("end",))
    g.apply(("serve", {"bitter": 2}, (4, 2, 1), [("bitter", 2)]))
    g.apply(("reward", "upgrade"))
    assert g.phase == UPGRADE and g.legal_actions() == [("upgrade", 0)]
    g.apply(("upgrade", 0))
    assert g.scores() == [5 + 4, 4]


def _mid_game(seed, steps):
    rng = Rng(seed)
    g = SpaceBattle(3, ["sweet", None, "bitter"])
    display = [random_dish(rng) for _ in range(4)]
    for _ in range(steps):
        if g.is_over():
            break
        g.apply(random_action(g, rng, display))
    return g


@pytest.mark.parametrize("bad", [
    ("steal", "umami", 1), ("steal", "sweet", 4), ("steal", "sweet", True), ("buy", "sweet", 9),
    ("serve", {"sweet": 1}, (1, 1, 1), [("sweet", 3), ("sweet", 3), ("sweet", 3)]),
    ("serve", {"salty": 1}, (1, 1, 1), []), ("serve", {"sweet": 1}, (1, -1, 1), []),
    ("serve",), ("end", 1), ("upgrade", 7), ("deal", "sweet", 0), "end", None, 3, (),
    ("spatula", "x"), ["reward", "nap"], ("take", "sour", 2.0),
])
def test_illegal_actions_leave_the_state_unchanged(bad):
    for steps in (0, 3, 6, 20, 45, 120):
        g = _mid_game(9, steps)
        before = g.to_bytes()
        with pytest.raises(ValueError):
            g.apply(bad)
        assert g.to_bytes() == before


def test_bad_construction():
    for n in (1, 6, "2", None):
        with pytest.raises(ValueError, match=repr(n)):
            SpaceBattle(n)
    with pytest.raises(ValueError, match="'umami'"):
        SpaceBattle(2, ["sweet", "umami"])
    with pytest.raises(ValueError, match="one flavor"):
        SpaceBattle(2, ["sweet"])


def test_corrupt_bytes_are_rejected():
    rng = Rng(4)
    states = []
    for seed in range(3):
        g = _mid_game(seed, 40 + 30 * seed)
        states.append(g.to_bytes())
    rejected, accepted = flip_every_byte(from_bytes, check_state, states, (1, 77, 255))
    for data in states:
        for cut in range(len(data)):
            with pytest.raises(ValueError):
                from_bytes(data[:cut])
        with pytest.raises(ValueError):
            from_bytes(data + bytes([rng.randbelow(256)]))
    # hand cards and dish points may take many values: about half the flips stay consistent
    assert rejected > accepted // 2
    for bad in (b"", "text", None, b"\x02\x02" + bytes(20)):
        with pytest.raises(ValueError):
            from_bytes(bad)
