"""Space Days: thousands of seeded random games (CPython only; the portable module has the rules).

At every step: the card totals hold, no card sits where it could never be, scores are the top
cards, the end is right, every listed action is legal, and to_bytes/from_bytes round-trips. On a
sample of steps: every listed action passes check() and nothing legal is missing from the list,
illegal actions are refused without a change, and corrupted saves are refused with ValueError
(or, if accepted, re-encode to the same bytes). Undo and record -> replay are checked for every
game in tests/portable/test_protocol.py.
"""

import pytest

from shared_rules.rng import Rng
from shared_rules.space_days import cards as sdc
from shared_rules.space_days.rules import CARD, CHANCE, DRAW, PASS, PLAY, REPLY, SpaceDays

GAMES = 1800
CHUNKS = 8
OPTION_SETS = (
    {},
    {"evil_cube_clears": "ends", "planet_killer_shields": True},
    {"scavenger_junk": "one_point", "planet_killer_score": 3, "tiebreak_covered": False},
)


def make_game(seed, rng):
    n = 2 + seed % 5
    opts = dict(OPTION_SETS[seed % len(OPTION_SETS)])
    if seed % 7 == 3:
        # Lopsided decks (many actions, few ships) reach the passing end and long stacks.
        opts["counts"] = [rng.randrange(4) for _ in range(sdc.KINDS)]
        opts["counts"][sdc.GASEOUS_CLOUD] = 3
        opts["decks"] = 1
    start = rng.randrange(4)
    g = SpaceDays(players=n, first=seed % n, start_hand=0, **opts)
    if start * n <= sum(g.total):
        g = SpaceDays(players=n, first=seed % n, start_hand=start, **opts)
    return g


def choose(g, rng, style, acts):
    if g.is_chance_node():
        return g.sample_chance(rng)
    if style == 1:  # play whenever possible: boards fill, actions get used
        plays = [a for a in acts if a[0] != DRAW]
        if plays and rng.randrange(5):
            return rng.choice(plays)
    return rng.choice(acts)


def check_invariants(g, legal=None):
    n = g.n
    held = [0] * sdc.KINDS
    for k in range(sdc.KINDS):
        held[k] += g.deck[k]
        for p in range(n):
            held[k] += g.hands[p][k]
    for p in range(n):
        for d, stack in enumerate(g.boards[p]):
            for k in stack:
                name, _, days, flags = sdc.CARDS[k]
                assert not flags & sdc.ACTION, "action card on a board"
                assert days >> d & 1, (name, d)
                held[k] += 1
    disc = g.discard_counts()
    for k in range(sdc.KINDS):
        assert held[k] + disc[k] == g.total[k]
        assert disc[k] >= 0
    expect = [sum(g.score_of(s[-1]) for s in g.boards[p] if s) for p in range(n)]
    assert g.scores() == expect
    full = any(all(g.boards[p]) for p in range(n))
    assert g.is_over() == (full or g.passes == n)
    if g.is_over():
        assert g.legal_actions() == [] and not g.is_chance_node()
        w = g.winners()
        assert g.winner() == (w[0] if len(w) == 1 else None)
        best = max(g.scores())
        assert all(g.scores()[p] == best for p in w)
    else:
        cp = g.current_player()
        assert cp == CHANCE or 0 <= cp < n
        assert g.legal_actions() if legal is None else legal, "a live game always has an action"


def check_round_trip(g, full=True):
    data = g.to_bytes()
    h = SpaceDays.from_bytes(data)
    assert h.to_bytes() == data
    assert h.current_player() == g.current_player()
    if full:
        assert h.legal_actions() == g.legal_actions()
    return data


def random_action(g, rng):
    op = rng.randrange(5)
    return (op, rng.randrange(sdc.KINDS), rng.randrange(g.n), rng.randrange(7),
            rng.randrange(3), rng.randrange(3))


def check_illegal_refused(g, rng, legal, data):
    for _ in range(6):
        a = random_action(g, rng)
        if a in legal:
            continue
        assert g.check(a) is not None, a
        with pytest.raises(ValueError):
            g.apply(a)
        assert g.to_bytes() == data


def check_complete(g, legal):
    """Every legal action is listed: try them all (plays of the cards in hand, every target)."""
    tried = set()
    most = max(len(s) for row in g.boards for s in row) + 1
    kinds = range(sdc.KINDS)
    if not g.is_chance_node():
        kinds = [k for k in kinds if g.hands[g.turn][k]] or [0]
    swaps = (sdc.TIME_WARP, sdc.HYPERSPACE_WEB)
    for op in range(5):
        for k in kinds if op in (CARD, PLAY) else (0,):
            two = op == REPLY or (op == PLAY and k in swaps)
            one = two or (op == PLAY and k == sdc.TELEPORT)
            for b in range(g.n) if op == PLAY else (0,):
                for d in range(7) if op in (PLAY, REPLY) else (0,):
                    for i in range(most) if one else (0,):
                        for j in range(most) if two else (0,):
                            a = (op, k, b, d, i, j)
                            if g.check(a) is None:
                                tried.add(a)
    if g.is_chance_node():
        for k in range(sdc.KINDS):
            if g.check((CARD, k)) is None:
                tried.add((CARD, k, 0, 0, 0, 0))
    assert tried == set(legal), (sorted(tried ^ set(legal)))


def check_corruption(rng, data):
    blob = bytearray(data)
    how = rng.randrange(3)
    if how == 0:
        blob[rng.randrange(len(blob))] = rng.randrange(256)
    elif how == 1:
        del blob[rng.randrange(len(blob)):]
    else:
        blob.insert(rng.randrange(len(blob) + 1), rng.randrange(256))
    try:
        h = SpaceDays.from_bytes(bytes(blob))
    except ValueError:
        return False
    assert h.to_bytes() == bytes(blob)
    check_invariants(h)
    return True


def play_games(seeds, stats):
    for seed in seeds:
        rng = Rng(seed + 1)
        g = make_game(seed, rng)
        style = seed % 2
        steps = 0
        limit = 8 * sum(g.total) + 4 * g.n
        data = check_round_trip(g)
        while not g.is_over():
            legal = g.legal_actions()
            check_invariants(g, legal)
            if steps % 6 == 0:
                for a in legal:
                    assert g.check(a) is None, a
            a = choose(g, rng, style, legal)
            if steps % 41 == 7:
                check_complete(g, legal)
            if steps % 8 == 0:
                check_illegal_refused(g, rng, legal, data)
                stats["accepted_corrupt"] += check_corruption(rng, data)
            g.apply(a)
            stats["ops"][a[0]] += 1
            if a[0] == PLAY:
                stats["played"][a[1]] += 1
            data = check_round_trip(g, steps % 4 == 1)
            steps += 1
            assert steps <= limit, "game {} does not end".format(seed)
        check_invariants(g)
        stats["ends"]["pass" if g.passes == g.n else "full"] += 1
        stats["draws"] += g.is_draw()
        stats["tiebreak"] += len(g.winners()) == 1 and g.scores().count(max(g.scores())) > 1


def fresh_stats():
    return {"ops": [0] * 5, "played": [0] * sdc.KINDS, "ends": {"pass": 0, "full": 0},
            "draws": 0, "tiebreak": 0, "accepted_corrupt": 0}


@pytest.mark.soak
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games(chunk):
    stats = fresh_stats()
    per = GAMES // CHUNKS
    play_games(range(chunk * per, (chunk + 1) * per), stats)
    # Not vacuous: every card was played, every kind of action and both ends were reached.
    assert all(stats["played"]), [sdc.card_name(k) for k in range(18) if not stats["played"][k]]
    assert all(stats["ops"][op] for op in (DRAW, CARD, PLAY, REPLY, PASS)), stats["ops"]
    assert stats["ends"]["pass"] and stats["ends"]["full"], stats["ends"]


@pytest.mark.soak
def test_whole_run_reaches_draws_and_tie_breaks():
    stats = fresh_stats()
    play_games(range(GAMES, GAMES + 200), stats)
    assert stats["draws"] and stats["tiebreak"], stats
