"""Space Lunch for two players on the device, through the simulator on both displays: seeded
games where both players pick at random among everything the screens offer (takes, coupon and
paid beverage actions, the forced return), checked against the engine after every key, the
end announced with the tie-break that decided it."""

import random

import pytest
from test_space_lunch_screens import Watch, check_steps, stepwise, watching

from companion.games.space_lunch import view as V
from shared_rules import games
from shared_rules.space_lunch.actions import RETURN, TAKE, decode

__all__ = ("watching",)  # the fixture, used by every test here (autouse)
SHORT = ("Hot Drink", "Jelly", "Chill Jar")


class DuelPlan:
    def __init__(self, first, seed):
        self.words = []
        self.counts = []
        self.game = games.new("space_lunch", 4, first)

    def add(self, keys):
        before = self.counts[-1] if self.counts else 0
        self.counts += [before] * (len(keys) - 1) + [len(self.game.actions())]
        self.words += keys


def _to(n, i):
    """From index 0 of a wrapping list of n to index i, the short way."""
    back = (n - i) % n
    return ["next"] * i if i <= back else ["prev"] * back


def _wheel(e, food):
    choices = V.card_choices(e)
    start = V.picker_start(choices, V.weights(e, choices))
    n = len(choices)
    fwd = (choices.index(food) - start) % n
    return (["next"] * fwd if fwd <= n - fwd else ["prev"] * (n - fwd)) + ["ok"]


def plan_duel(first, seed, coupon_rate=0.3):
    rng = random.Random(seed)
    p = DuelPlan(first, seed)
    g = p.game
    e = g.engine
    deck = [t for t in range(1, 13) for _ in range(3)]
    rng.shuffle(deck)
    p.add(["wait:3000", "ok"] + ["next"] * 4 + ["ok"] + (["next"] if first else []) + ["ok"])
    while not e.is_over():
        if e.pending:
            food = deck.pop(0)
            keys = _wheel(e, food)
            g.apply(food)
        elif e.must_return():
            types = [t for t in range(3) if e.drinks[e.turn][t]]
            i = rng.randrange(len(types))
            keys = _to(len(types), i) + ["ok"]
            g.apply(RETURN + types[i])
        else:
            stops = V.stops(e)
            if stops[-1] == V.COUPON and rng.random() < coupon_rate:
                options = []
                for k in range(3):
                    for paid in (False, True):
                        if V.kind_cells(e, V.KINDS[k], -1, paid):
                            options.append((V.KINDS[k], paid))
                o = rng.randrange(len(options))
                kind, paid = options[o]
                keys = _to(len(stops), len(stops) - 1) + ["ok"] + _to(len(options), o) + ["ok"]
                cells = V.kind_cells(e, kind, -1, paid)
                a = rng.choice(cells)
                keys += _to(len(cells), cells.index(a)) + ["ok"]
                if kind == "jelly":
                    second = V.kind_cells(e, kind, a, paid)
                    b = rng.choice(second)
                    keys += _to(len(second), second.index(b)) + ["ok"]
                    action = V.action(kind, a, b, paid)
                else:
                    action = V.action(kind, a, -1, paid)
                    if kind == "hot":
                        deck.append(e.grid[a])
                assert action in e.legal_actions()
                g.apply(action)
            else:
                takes = stops[:-1] if stops[-1] == V.COUPON else stops
                i = rng.randrange(len(takes))
                keys = _to(len(stops), i) + ["ok"]
                g.apply(TAKE + takes[i])
        p.add(keys)
    return p


def test_duel_plans_cover_every_kind_of_action():
    kinds = set()
    reasons = set()
    for seed in range(40):
        p = plan_duel(seed % 2, seed)
        for a in p.game.actions():
            kind, _, _, paid = decode(a)
            kinds.add(kind + ("$" if paid and kind != "return" else ""))
        reasons.add(p.game.engine.reason)
    assert {"card", "take", "hot", "jelly", "chill", "return", "hot$", "jelly$", "chill$"} <= kinds
    assert "doubles" in reasons and len(reasons) >= 3  # random play: tie-breaks too


@pytest.mark.parametrize("seed", [3, 8])
def test_two_player_games_follow_the_engine_at_every_key(seed, profile, simulate, apps):
    p = plan_duel(seed % 2, seed)
    sim = simulate(profile, stepwise(p), cls=Watch)
    check_steps(sim, p)
    e = p.game.engine
    end = " ".join(sim.texts())
    if e.winner == 2:
        assert "Shared victory" in end
    else:
        assert "P{} wins".format(e.winner + 1) in end
    assert {"triplets": "three triplets", "doubles": "more pairs", "coupon": "coupon unused",
            "beverages": "tie: drinks", "shared": "tied all the way"}[e.reason] in end
    from companion.store.store import Store

    records = [bytes(r[2]) for r in Store(sim.nvm).records() if r[1] in (1, 3)]
    assert records and records[-1].endswith(games.record(p.game))
    assert apps


def test_forced_return_screen(profile, simulate):
    # find a seeded game that reaches the forced return, and stop there
    for seed in range(100):
        p = plan_duel(0, seed, coupon_rate=0.0)
        acts = p.game.actions()
        at = [i for i, a in enumerate(acts) if RETURN <= a < RETURN + 3]
        if at:
            break
    n = at[0]
    i = p.counts.index(n)
    sim = simulate(profile, " ".join(p.words[:i + 1]), cls=Watch)
    t = sim.texts()
    # the panel in words: on colour both players' sets, coupon and drinks, then the table's;
    # on the OLED the player to move (named on top): their sets, the deck
    e = games.replay(games.record(p.game), n).engine  # the table at the return
    from companion.games.space_lunch.duel import drinks
    from companion.screen.text import count

    mine = [count(e.triplets(0), "triplet"), count(e.pairs(0), "pair")]
    if profile == "pico-display-pack":
        for s in (0, 1):
            assert "P{} {}".format(s + 1, count(e.triplets(s), "triplet")) in t
            assert "{}, 1 coupon".format(count(e.pairs(s), "pair")) in t
            assert drinks(e.drinks[s]) in t
        assert drinks(e.drinks[0]) == "Hot {} Jelly {} Jar {}".format(*e.drinks[0])
        assert "Deck {} Stacks {} {} {}".format(e.deck, *[e.stack(k) for k in range(3)]) in t
    else:
        assert e.turn == 0 and mine[0] in t and mine[1] in t and "Deck {}".format(e.deck) in t
    assert t[0].endswith(": 5 drinks")
    assert any(s.startswith("Return ") for s in t)
    assert sim.layout_problems() == []
