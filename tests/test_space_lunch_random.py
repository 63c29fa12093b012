"""Space Lunch, heavy random checks (CPython only): thousands of seeded random games per
difficulty with the card invariants, saved-game round trips, bad input and the hints checked
against what really happens. Undo and record -> replay for every game are in
tests/portable/test_protocol.py."""

import os

import _space_lunch
import pytest

from shared_rules import games
from shared_rules.rng import Rng
from shared_rules.space_lunch.hints import DANGER, LATER, RISK, SAFE, WIN, hints
from shared_rules.space_lunch.rules import (
    AUTOMA,
    AUTOMA_SEAT,
    HUMAN,
    SHARED,
    Solo,
    decode,
)

# 10,000 games per difficulty, each round-tripped through its saved bytes at every step
# (docs/space-lunch.md): about a minute per difficulty on one core (make test spreads them
# over the cores).
# For a quick local run: SPACE_LUNCH_GAMES=500 SPACE_LUNCH_ROUND_TRIP_EVERY=5.
GAMES = int(os.environ.get("SPACE_LUNCH_GAMES", "10000"))
HINT_GAMES = int(os.environ.get("SPACE_LUNCH_HINT_GAMES", "60"))
# Which games round-trip at every step (a load replays the game: quadratic in its length).
ROUND_TRIP_EVERY = int(os.environ.get("SPACE_LUNCH_ROUND_TRIP_EVERY", "1"))


def state(g):
    extra = (g.coupons, g.solo) if isinstance(g, Solo) else (
        [list(d) for d in g.drinks], list(g.coupon_used), g.grant)
    return (list(g.grid), g.deck, list(g.bottom), list(g.pending), [list(t) for t in g.taken],
            g.pick, g.turn, g.acted, g.winner, g.reason, extra)


def check_invariants(g, deck):
    assert g.deck == len(deck)  # the engine's count is the real deck
    assert deck[len(deck) - len(g.bottom):] == g.bottom  # remembered cards are at the bottom
    seen = [a + b for a, b in zip(g.taken[0], g.taken[1])]
    on_grid = 0
    for t in g.grid:
        if t:
            seen[t] += 1
            on_grid += 1
    assert on_grid + g.deck + sum(seen) - on_grid == 36
    for t in g.bottom:
        seen[t] += 1
    assert max(seen[1:]) <= 3  # no food is known in four places
    for t in deck:
        seen[t] += 1
    for t in g.bottom:
        seen[t] -= 1
    assert seen[1:] == [3] * 12  # and each is really somewhere exactly three times
    if not g.is_over():
        assert g.grid_cards() >= 7
    assert len(g.pending) <= 1 or g.deck == 27 + len(g.pending)  # only the opening waits for more


def _want(g, action):
    """How much a collecting human wants a take: foods it holds, that the Automa lacks."""
    kind, c = decode(action)[:2]
    if kind != "take":
        return -1
    food = g.grid[c]
    return g.taken[HUMAN][food] if not g.taken[AUTOMA_SEAT][food] else -1


def random_game(game, rng, round_trip=False, probe=False, thrifty=False, collect=False):
    """Play the protocol game to the end with random legal actions; the real deck is shuffled
    by rng. Returns its engine."""
    g = game.engine
    deck = [t for t in range(1, 13) for _ in range(3)]
    rng.shuffle(deck)
    while not g.is_over():
        acts = g.legal_actions()
        assert acts
        if g.pending:
            action = deck.pop(0)
            assert action in acts
        else:
            action = rng.choice(acts)
            if thrifty and rng.randbelow(8):  # spend coupons and drinks rarely
                plain = [a for a in acts if a < 30 or a in (AUTOMA,)]
                action = rng.choice(plain)
            if collect and g.turn == HUMAN and rng.randbelow(2):
                action = max(acts, key=lambda a: _want(g, a))  # collect towards triplets
            kind, c = decode(action)[:2]
            if kind == "hot":
                deck.append(g.grid[c])
        if probe and rng.randbelow(4) == 0:
            before = state(g)
            bad = rng.choice([a for a in range(0, 256) if a not in acts])
            with pytest.raises(ValueError):
                game.apply(bad)
            assert state(g) == before
        game.apply(action)
        check_invariants(g, deck)
        if round_trip:
            h = games.from_bytes(game.to_bytes())
            assert state(h.engine) == state(g)
    assert g.legal_actions() == []
    return g


@pytest.mark.soak
@pytest.mark.parametrize("difficulty", [0, 1, 2, 3])
def test_random_solo_games(difficulty):
    rng = Rng(1000 + difficulty)
    ends = {}
    for i in range(GAMES):
        g = random_game(games.new("space_lunch", difficulty), rng,
                        round_trip=i % ROUND_TRIP_EVERY == 0, probe=i % 50 == 0,
                        collect=i % 2 == 0)
        ends[g.reason] = ends.get(g.reason, 0) + 1
        if g.winner == HUMAN:
            assert g.triplets(HUMAN) == 3
        elif g.reason == "pairs":
            assert g.pairs(AUTOMA_SEAT) == g.pairs_needed()
        else:
            assert g.reason == "persistence" and g.grid_cards() == 6 and g.deck == 0
    assert sorted(ends) == ["pairs", "persistence", "triplets"]


@pytest.mark.soak
def test_random_duels_and_the_tie_break_chain():
    rng = Rng(99)
    ends = {}
    for i in range(2000):
        g = random_game(games.new("space_lunch", 4, i % 2), rng, round_trip=i % 40 == 0,
                        probe=i % 50 == 0, thrifty=i % 2 == 0)
        for d in range(3):
            assert 0 <= g.stack(d) <= 5
        ends[g.reason] = ends.get(g.reason, 0) + 1
        if g.reason == "triplets":
            assert g.triplets(g.winner) == 3
            continue
        assert g.grid_cards() == 6
        p = [g.pairs(0), g.pairs(1)]
        used = list(g.coupon_used)
        drinks = [sum(g.drinks[0]), sum(g.drinks[1])]
        if p[0] != p[1]:
            expect = 0 if p[0] > p[1] else 1
        elif used[0] != used[1]:
            expect = 1 if used[0] else 0
        elif drinks[0] != drinks[1]:
            expect = 0 if drinks[0] > drinks[1] else 1
        else:
            expect = SHARED
        assert g.winner == expect
    assert sorted(ends) == ["beverages", "coupon", "doubles", "shared", "triplets"]


@pytest.mark.soak
def test_hints_tell_the_truth():
    """For each take and Chill Jar the hints rate, play it out with the real cards."""
    rng = Rng(5)
    checked = {}

    def choose(g):
        rated = hints(g)
        for action, verdict, foods in rated:
            kind = decode(action)[0]
            if kind not in ("take", "chill"):
                continue
            h = g.copy()
            d = list(deck)
            h.apply(action)
            if verdict == WIN:
                assert h.winner == HUMAN
                checked[WIN] = checked.get(WIN, 0) + 1
                continue
            assert not h.is_over()
            refill = h.pending and d[0]
            refilled = set(h.pending)
            while h.pending:
                h.apply(d.pop(0))
            h.apply(AUTOMA)
            checked[verdict] = checked.get(verdict, 0) + 1
            if foods and refill not in foods:
                checked["other refill"] = checked.get("other refill", 0) + 1
                continue  # the verdict is the worst case over the refills listed
            if verdict == DANGER:
                assert h.winner == AUTOMA_SEAT
            elif verdict == RISK:
                assert (h.winner == AUTOMA_SEAT) == (refill in foods)
            elif verdict in (SAFE, LATER):
                assert h.winner is None
                # Next: the human just takes (no coupon); does the Automa win then?
                refilled.update(h.pending)
                while h.pending:
                    h.apply(d.pop(0))
                takes = [a for a in h.legal_actions() if decode(a)[0] == "take"]
                if any(_wins(h, a) for a in takes):
                    continue
                h.apply(takes[0])
                refilled.update(h.pending)
                while h.pending:
                    h.apply(d.pop(0))
                second = h.automa_cell()
                h.apply(AUTOMA)
                if verdict == LATER:
                    assert h.winner == AUTOMA_SEAT
                elif h.winner == AUTOMA_SEAT and h.reason == "pairs":
                    # SAFE vouches only for cards known now: the winning card must be
                    # one that came up after this turn began.
                    assert second in refilled
                    checked["safe, refill won"] = checked.get("safe, refill won", 0) + 1
        acts = g.legal_actions()
        a = rng.choice(acts if not rng.randbelow(8) else [x for x in acts if x < 30])
        if rng.randbelow(2):  # play one of the best-rated actions half the time
            best = min(v for _, v, _ in rated)
            tops = [x for x, v, _ in rated if v == best]
            a = rng.choice([x for x in tops if x < 30] or tops)  # coupons when needed
        return a

    for i in range(HINT_GAMES):
        deck = _space_lunch.deck(rng)  # the cards still to come: choose() looks ahead in them
        _space_lunch.play_solo(i % 4, rng, choose, deck)
    for v in (WIN, SAFE, LATER, RISK, DANGER):
        assert checked.get(v, 0) > 0, checked


def _wins(g, action):
    h = g.copy()
    h.apply(action)
    return h.winner == HUMAN


@pytest.mark.soak
def test_hint_shortcuts_agree_with_the_full_rating():
    """hints() shares work between actions that must rate alike; rate every action in full
    (space_lunch_hints._rate, no shortcuts) on many positions and compare."""
    from shared_rules.space_lunch.hints import _rate

    rng = Rng(31)
    compared = [0]

    def choose(g):
        fast = hints(g)
        full = [(a,) + _rate(g, a) for a in g.legal_actions()]
        assert fast == full
        compared[0] += len(full)
        acts = g.legal_actions()
        a = rng.choice(acts if not rng.randbelow(6) else [x for x in acts if x < 30])
        if rng.randbelow(3) == 0:  # sometimes collect, to reach positions near triplets
            a = max(acts, key=lambda x: _want(g, x))
        return a

    for i in range(HINT_GAMES // 4):
        _space_lunch.play_solo(i % 4, rng, choose)
    assert compared[0] > 1000
