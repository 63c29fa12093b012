"""The game protocol, OpenSpiel style, for every row of the registry (the games and the table
scoreboards) through the registry alone: seeded random games with invariants at every step,
every illegal action's ValueError leaves the bytes unchanged, undo then redo gives the same
bytes, and record -> replay gives the same state at every step. Runs on CPython and (fewer
games) on real MicroPython."""

import sys

from _harness import raises
from shared_rules import games
from shared_rules.registry import ROWS
from shared_rules.rng import Rng

ON_MP = sys.implementation.name != "cpython"
ROW_IDS = tuple([r[0] for r in ROWS])  # the games, then the scoreboards
GAMES = 2 if ON_MP else 6  # seeded games per row (the soak plays many more)
# A Let's Do Lunch match or a Space Battle race can run long: MAX_STEPS is enough to check
MAX_STEPS = 120 if ON_MP else 250
# Per-game hook: games that need more steps to reach their end (six Aqua Brunch rounds of three
# players take about 240 actions): the first seeded game of each runs that long, so the lane
# sees them end too.
STEPS = {"aqua_brunch": 300}


def _space_battle_move(g, legal):
    """Space Battle serves are typed part by part; a random part almost never makes a dish
    that the hand serves, so this player serves its lowest card as a dish needing exactly it."""
    from shared_rules.space_battle import game as sb

    s = g.serving
    if s is None:
        return None
    e = g.engine
    if len(s) < 5:
        c = min(e.hands[e.cur])
        need = [0] * 5
        need[c // 3] = c % 3 + 1
        return sb.AMOUNT + need[len(s)]
    if len(s) < 8:
        return sb.POINTS + (3, 2, 1)[len(s) - 5]
    if len(s) == 8:
        f = [i for i in range(5) if s[i]][0]
        return sb.PICK + f * 3 + s[f] - 1
    return sb.DONE if sb.DONE in legal else sb.CANCEL


# Per-game hooks. STATE: the engine's own state, kept beside the record at every step so undo
# and replay are compared on the state itself, not only on the log (a scoreboard, which has no
# engine, by what the protocol shows of it). CHECK: the engine's own consistency check, run at
# every step.
def _space_lunch_state(e):
    extra = (e.coupons, e.solo) if e.mode == 0 else (
        [list(d) for d in e.drinks], list(e.coupon_used), e.grant)
    return (list(e.grid), e.deck, list(e.bottom), list(e.pending), [list(t) for t in e.taken],
            e.pick, e.turn, e.acted, e.winner, e.reason, extra)


def _engine_bytes(e):
    return e.to_bytes()


def _shown(g):
    return (g.current_player(), g.legal_actions(), g.scores(), g.winners() if g.is_terminal()
            else None, [g.describe(a) for a in g.legal_actions()[:12]])


def _aqua_brunch_check(e):
    from shared_rules.aqua_brunch.check import check_state

    check_state(e)


def _space_battle_check(e):
    from shared_rules.space_battle.check import check_state

    check_state(e)


STATE = {"space_lunch": _space_lunch_state, "lets_do_lunch": _engine_bytes,
         "aqua_brunch": _engine_bytes, "space_battle": _engine_bytes, "space_days": _engine_bytes}
CHECK = {"aqua_brunch": _aqua_brunch_check, "space_battle": _space_battle_check}


def snap(g):
    """The record (the log) and the engine's state."""
    if g.game_id in STATE:
        return (g.to_bytes(), STATE[g.game_id](g.engine))
    return (g.to_bytes(), _shown(g))


def choose(g, rng):
    if g.current_player() == games.CHANCE:
        return rng.weighted(g.chance_outcomes())
    legal = g.legal_actions()
    if g.game_id == "space_battle":
        a = _space_battle_move(g, legal)
        if a is not None:
            return a
    return rng.choice(legal)


def check_state(g, seats):
    p = g.current_player()
    assert g.is_terminal() == (p == games.TERMINAL)
    assert p in (games.CHANCE, games.TABLE, games.TERMINAL) or 0 <= p < seats, p
    legal = g.legal_actions()
    if g.is_terminal():
        assert legal == []
        w = g.winners()
        assert w and all(0 <= s < seats for s in w), w
    else:
        assert legal, "no legal action in a live state"
        assert all(type(a) is int and a >= 0 for a in legal)
    outs = g.chance_outcomes()
    if p == games.CHANCE:
        assert outs and all(w > 0 and type(w) is int for _, w in outs)
        assert sorted(a for a, _ in outs) == sorted(legal)
    else:
        assert outs == []
    assert len(g.scores()) == seats
    for a in legal[:12]:
        d = g.describe(a)
        assert 0 < len(d) <= 48, (g.game_id, d)
    if g.game_id in CHECK:
        CHECK[g.game_id](g.engine)


def check_illegal(g, rng):
    """An int that is not legal now is refused with a message and changes nothing."""
    legal = g.legal_actions()
    before = snap(g)
    for bad in (rng.randbelow(400), max(legal + [0]) + 1, -1, "1", None):
        if bad in legal:
            continue
        with raises(ValueError) as r:
            g.apply(bad)
        assert str(r.value), "a refusal says why"
        assert snap(g) == before


def check_record(states):
    """``states[-1]`` is a record: replayed step by step it passes through every earlier state,
    and ``replay(data, k)`` stops at state k."""
    data = states[-1][0]
    r = games.replay(data, 0)
    assert snap(r) == states[0]
    actions = games.parse(data)[3]
    for k in range(len(actions)):
        r.apply(actions[k])
        assert snap(r) == states[k + 1]
    for k in range(0, len(states), max(1, len(states) // 8)):
        assert snap(games.replay(data, k)) == states[k]


def play(game_id, seed):
    rng = Rng(seed)
    g = games.new(game_id)
    seats = len(g.scores())  # one score a seat, at the default number of players
    states = [snap(g)]
    steps = 0
    limit = STEPS.get(game_id, MAX_STEPS) if seed == 0 else MAX_STEPS
    while not g.is_terminal() and steps < limit:
        check_state(g, seats)
        check_illegal(g, rng)
        a = choose(g, rng)
        g.apply(a)
        assert g.moves() == len(g.actions())
        steps += 1
        data = snap(g)
        if not g.can_undo():  # a new record began (Let's Do Lunch's next game)
            states = [data]
            continue
        states.append(data)
        if steps % 7 == 0:  # undo then redo: the same bytes
            g.undo()
            assert snap(g) == states[-2]
            g.apply(a)
            assert snap(g) == data
    check_state(g, seats)
    check_record(states)
    # restored from bytes, the game still undoes (at least 32 steps or to the record's start)
    r = games.from_bytes(g.to_bytes())
    for i in range(min(32, len(r.actions()))):
        r.undo()
        assert snap(r) == states[-2 - i]
    return g


def test_random_games_every_row():
    for game_id in ROW_IDS:
        ended = 0
        for seed in range(GAMES):
            g = play(game_id, seed)
            ended += g.is_terminal()
        assert ended or game_id in ("lets_do_lunch", "space_battle"), game_id


def test_ids_and_defaults():
    assert games.IDS == ("space_lunch", "lets_do_lunch", "aqua_brunch", "space_battle",
                         "space_days")
    assert ROW_IDS[:5] == games.IDS  # rows only append: a row's position is its record index
    for game_id in ROW_IDS:
        g = games.new(game_id)
        assert g.game_id == game_id
        assert games.game_id_of(games.record(g)) == game_id
        assert g.actions() == [] and not g.can_undo()


def test_bad_ids_and_settings():
    with raises(ValueError, "no game called"):
        games.new("chess")
    for game_id, bad in (("space_lunch", (5,)), ("lets_do_lunch", (0,)),
                         ("lets_do_lunch", (20, 0, 4)), ("lets_do_lunch", (20, 0, 9)),
                         ("lets_do_lunch", (20, 0, 3, 2)), ("aqua_brunch", (2,)),
                         ("aqua_brunch", (8,)), ("space_battle", (6,)), ("space_days", (1,)),
                         ("space_days", (2, 2)), ("space_lunch", (0,) * 7),
                         ("space_lunch", (-1,)), ("space_lunch", (True,))):
        with raises(ValueError):
            games.new(game_id, *bad)


def test_corrupt_records_are_refused():
    g = games.new("space_lunch", 2)
    rng = Rng(5)
    for _ in range(20):
        g.apply(choose(g, rng))
    data = g.to_bytes()
    for bad in (b"", b"\x01", data[:-1], data[:5], bytes([3]) + data[1:], bytes([1]) + data[1:],
                data[:1] + bytes([9]) + data[2:], "text", None, bytearray(40)):
        with raises(ValueError):
            games.replay(bad)
    for i in range(len(data)):  # any one byte changed is caught
        for flip in (1, 0x80):
            b = bytearray(data)
            b[i] ^= flip
            with raises(ValueError):
                games.replay(bytes(b))
    with raises(ValueError, "steps"):
        games.replay(data, len(g.actions()) + 1)


def test_an_illegal_action_inside_a_record_is_refused():
    # a well-framed record whose third action is not legal where it stands
    from shared_rules._codec import checksum

    body = bytes([1, 0, 2, 0, 0, 0, 0, 5, 5, 5, 5])  # Space Lunch Easy: food 5 four times
    with raises(ValueError, "action 4"):
        games.replay(body + checksum(body))


def test_undo_walks_back_to_the_start_and_no_further():
    g = games.new("aqua_brunch", 4)
    rng = Rng(9)
    seen = [g.to_bytes()]
    for _ in range(40):
        g.apply(choose(g, rng))
        seen.append(g.to_bytes())
    for i in range(40):
        g.undo()
        assert g.to_bytes() == seen[-2 - i]
    assert not g.can_undo()
    with raises(ValueError, "nothing to undo"):
        g.undo()


def test_lets_do_lunch_each_game_is_a_record():
    g = games.new("lets_do_lunch", 5)
    rng = Rng(3)
    records = []
    while not g.is_terminal():
        if g.current_player() == games.TABLE and g.ended is not None:
            records.append(g.to_bytes())
            assert g.legal_actions() == [0] and g.describe(0) == "next game"
            g.apply(0)
            assert not g.can_undo() and g.actions() == []
            continue
        g.apply(choose(g, rng))
    records.append(g.to_bytes())
    assert len(records) == g.engine.games
    for i, data in enumerate(records):
        r = games.replay(data)
        assert r.ended is not None and r.to_bytes() == data
        if i + 1 < len(records):  # the next record starts where this one's game left the match
            nxt = games.parse(records[i + 1])[2]
            assert r.engine.scores == games.replay(records[i + 1], 0).engine.scores
            assert len(nxt) > 0


def test_records_are_read_in_their_one_written_form():
    from shared_rules._codec import checksum

    g = games.new("space_lunch")
    for a in (3, 7, 7):
        g.apply(a)
    data = g.to_bytes()
    body = data[:-2]
    # the action 3 written in two bytes (0x83 0x00) instead of one
    at = 4 + len(g.params)  # format, game, count, the parameters, base length
    odd = body[:at] + bytes([0x83, 0x00]) + body[at + 1:]
    with raises(ValueError, "written form"):
        games.replay(odd + checksum(odd))
    # the empty base's length written in two bytes
    odd = body[:at - 1] + bytes([0x80, 0x00]) + body[at:]
    with raises(ValueError, "written form"):
        games.replay(odd + checksum(odd))
    # a Let's Do Lunch record with actions after its game's end
    ldl = games.new("lets_do_lunch")
    rng = Rng(2)
    while not (ldl.current_player() == games.TABLE and ldl.ended is not None):
        ldl.apply(choose(ldl, rng))
    end = ldl.to_bytes()[:-2]
    for more in (bytes([0x8F]), bytes([0x00, 0x0F])):
        if end[-1] & 15 == 15:  # an odd number of symbols: the next one fills the pad
            inner = end[:-1] + bytes([end[-1] & 0xF0 | more[0] >> 4]) + more[1:]
        else:
            inner = end + more
        with raises(ValueError, "game is over"):
            games.replay(inner + checksum(inner))
    for not_zero in (False, 0.0):
        with raises(ValueError):
            ldl.apply(not_zero)
    assert ldl.ended is not None
