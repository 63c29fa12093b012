"""Space Lunch for two players: "Who starts?" names a player (the rulebook's: who ate at a
restaurant most recently) or picks one at random with the race's own pick
(first_player.pick.TablePick), on both displays."""

import pytest
from test_space_lunch_screens import Watch, watching

from shared_rules.rng import Rng

__all__ = ("watching",)  # the fixture the Watch simulator needs (autouse)

WHO = "wait:3000 ok next*4 ok "  # Space Lunch, Two players


@pytest.fixture
def seed():
    import importlib

    fp = importlib.import_module("companion.first_player.pick")
    fp.SEED[0] = 4242
    yield 4242
    fp.SEED[0] = None


def run(simulate, profile, script):
    return simulate(profile, WHO + script, cls=Watch)


def test_the_list_offers_a_random_pick_and_starts_on_the_first_player(profile, simulate):
    sim = run(simulate, profile, "")
    assert sim.texts() == ["Who starts?", "Pick at random", "P1", "P2"]
    assert sim.layout_problems() == []
    top = sim.app().top
    assert top.menu.selected == 1  # naming the first player is one press, as before
    # the random pick is the race's own piece, loaded only when it is chosen
    assert top.pick is None
    top = run(simulate, profile, "prev ok").app().top
    assert type(top.pick).__name__ == "TablePick"


@pytest.mark.parametrize("row, seat", [("ok", 0), ("next ok", 1)])
def test_a_named_player_starts(profile, simulate, row, seat):
    top = run(simulate, profile, row + " wait:500").app().top
    assert type(top).__name__ == "DuelScreen" and top.game.params[:2] == (4, seat)


def test_a_random_pick_spins_and_starts_the_player_it_picked(profile, simulate, seed,
                                                              tmp_path):
    want = Rng(seed).randbelow(2)
    sim = run(simulate, profile, "prev ok wait:300 shot:{0}/a.png wait:4000 shot:{0}/b.png "
              "ok wait:500".format(tmp_path))
    spinning, picked = [c["texts"] for c in sim.captures]
    assert spinning == ["Who starts?", "P1", "P2"]  # the names only while it spins
    assert picked[0] == "P{} starts".format(want + 1)
    assert all(c["problems"] == [] for c in sim.captures)
    top = sim.app().top
    assert type(top).__name__ == "DuelScreen" and top.game.params[:2] == (4, want)
    assert sim.pixels is None or not any(sim.pixels.shown[i] != (0, 0, 0)
                                         for i in range(len(sim.pixels.shown)))


def test_back_steps_out_of_the_pick_then_to_the_list(profile, simulate):
    sim = run(simulate, profile, "prev ok wait:300 back wait:100 shot:x back wait:200")
    assert sim.captures[-1]["texts"][:2] == ["Who starts?", "Pick at random"]
    assert sim.texts()[0] == "Space Lunch" and sim.app().top.__class__.__name__ == "SetupScreen"
