"""Who starts the Space Battle race (games/space_battle/entry.py), on both displays.

The race's rules take no start player yet: seat 0 plays first and closes the round. The
screen offers "Who starts?" once they take it as their second setting; until then it must
not (the race would say one player starts and play another). These tests run the screen
over ``StartedRace``, the rules with that setting as proposed for
shared_rules/space_battle/race.py, so the screen's side is checked now."""

import os

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from lunchbox.sim import Simulator, setup_environment  # after the SDL settings
from shared_rules.rng import Rng
from shared_rules.space_battle.race import TARGET, BattleRace

TO_BATTLE = "wait:3000 next*3 ok "  # main menu row 3: the Space Battle list
WHO = TO_BATTLE + "prev ok "  # its last row, "Who starts?": then the player count
NAMES = ["ANNABELL", "BARTHOLO", "CORNELIA", "DEMETRIU", "EVANGELI", "FLORENTI", "GWENDOLY"]


class StartedRace(BattleRace):
    """The race with its start player as a second setting: that seat plays first, and the
    round closes before it comes round again (the rulebook's equal turns)."""

    defaults = (2, 0)

    def _check(self, params):
        if params[1] >= params[0]:
            raise ValueError("the start player is one of the {} players".format(params[0]))

    def _start(self):
        BattleRace._start(self)
        self.turn = self.params[1]

    def ended(self):
        first = self.params[1]
        return self.turn == first and not self.mid and self.turns[first] > 0 and \
            max(self.points) >= TARGET


@pytest.fixture
def entry(monkeypatch):
    setup_environment("headless")
    from companion.games.space_battle import entry

    monkeypatch.setattr(entry, "STARTS", True)
    monkeypatch.setattr(entry.RaceScreen, "rules", StartedRace)
    return entry


@pytest.fixture
def seed():
    setup_environment("headless")
    import importlib

    fp = importlib.import_module("companion.first_player.pick")
    fp.SEED[0] = 777
    yield 777
    fp.SEED[0] = None


def run(profile, script, nvm=None):
    sim = Simulator(profile, nvm_path=nvm, mode="headless")
    sim.run_script(script)
    return sim


def clean(sim):
    t = sim.texts()
    assert sim.layout_problems() == [], t
    assert [s for s in t if "~" in s] == [], t
    return t


def count(n):
    return "next*{} ok ".format(n - 2) if n > 2 else "ok "


def test_not_offered_while_the_rules_take_no_start_player(profile):
    setup_environment("headless")
    from companion.games.space_battle import entry

    assert entry.STARTS == (len(BattleRace.defaults) > 1)
    t = run(profile, TO_BATTLE).texts()
    assert ("Who starts?" in t) == entry.STARTS


def test_the_list_keeps_its_rows_and_adds_who_starts_last(profile, entry):
    t = clean(run(profile, TO_BATTLE + "prev"))
    assert t[0] == "Space Battle"
    assert t[-1] == "Who starts?"
    assert run(profile, TO_BATTLE + "ok").texts()[1] == "2 players"  # Race to 21 as before


@pytest.mark.parametrize("n", range(2, 6))
def test_a_random_pick_starts_the_race_with_that_player(profile, entry, seed, n, tmp_path):
    want = Rng(seed).randbelow(n)
    sim = run(profile, WHO + count(n) + "shot:{0}/a.png ok wait:300 shot:{0}/b.png wait:4000 "
              "shot:{0}/c.png ok".format(tmp_path))
    asked, spinning, picked = [c["texts"] for c in sim.captures]
    assert asked[:3] == ["Who starts?", "Pick at random", "P1"]
    assert spinning[0] == "Who starts?" and "starts" not in spinning
    assert picked[0] == "P{} starts".format(want + 1)
    for c in sim.captures:
        assert c["problems"] == []
    t = clean(sim)
    assert t[0] == "P{}'s turn".format(want + 1)  # the race begins with the player picked


def test_a_named_start_player_and_the_equal_turns_after(profile, entry, tmp_path):
    nvm = str(tmp_path / "nvm.bin")
    from companion.store.appsettings import AppSettings
    from companion.store.store import Store

    sim = Simulator(profile, nvm_path=nvm, mode="headless")
    Store(sim.nvm).save_settings(AppSettings(names=NAMES).to_bytes())
    # 3 players, CORNELIA starts (named, as the rulebook's "most recently cooked" would)
    t = clean(run(profile, WHO + count(3) + "next*3 ok", nvm))
    assert t[0] == "CORNELIA's turn"
    # CORNELIA scores 12 (the last of the high rows): ANNABELL is next
    sim = run(profile, WHO + count(3) + "next*3 ok next*8 ok", nvm)
    assert clean(sim)[0] == "ANNABELL's turn"
    kept = Store(sim.nvm).load_game()
    assert kept is not None
    assert kept[1][2:5] == bytes((2, 3, 2))  # two settings: 3 players, seat 2 starts


def test_back_steps_out_of_the_pick(profile, entry, seed):
    t = clean(run(profile, WHO + count(4) + "ok wait:300 back"))
    assert t[:2] == ["Who starts?", "Pick at random"]  # the spin is cancelled: nothing picked
    sim = run(profile, WHO + count(4) + "ok wait:300 back wait:5000")
    assert sim.texts()[0] == "Who starts?"
    assert [p for p in sim.pixels.shown if p != (0, 0, 0)] == []  # and the strip is dark
    t = clean(run(profile, WHO + count(4) + "back"))
    assert t[0] == "Space Battle" and "4 players" in t  # the count again
    assert run(profile, WHO + count(4) + "back back").texts()[0] == "Lunchbox"


def test_no_key_moves_the_list_while_it_spins(profile, entry, seed):
    want = Rng(seed).randbelow(5)
    sim = run(profile, WHO + count(5) + "ok wait:100 next next ok ok wait:4000")
    assert sim.texts()[0] == "P{} starts".format(want + 1)


def test_the_proposed_rules_close_the_round_before_the_start_player():
    """What the screen relies on from the rules (the change asked of race.py): the start
    player plays first, and once someone has 21 the round is played out to the seat before."""
    g = StartedRace(3, 2)
    assert g.current_player() == 2
    for a in (12, 0, 0, 12):  # seat 2 has 24 after its second turn
        g.apply(a)
    assert not g.is_terminal() and g.current_player() == 0
    g.apply(0)
    g.apply(0)  # seats 0 and 1 have had their equal turns
    assert g.is_terminal() and g.winners() == [2]
    assert BattleRace(3).current_player() == 0  # the rules as they are: P1 starts
    with pytest.raises(ValueError):
        StartedRace(3, 3)


def test_the_module_stays_for_the_pick_and_goes_when_the_race_begins(profile, entry, seed,
                                                                     monkeypatch):
    """On the device (unload.UNLOAD): first_player/pick.py is compiled once the Space Battle
    list has gone, kept while the count and the pick are shown (Back to the count keeps it:
    compiling it again under the race's widgets would need more heap), and let go when the
    race begins or the screen is left."""
    import sys

    from companion.app import unload

    monkeypatch.setattr(unload, "UNLOAD", True)
    loaded = "companion.first_player.pick"
    run(profile, WHO)
    assert loaded in sys.modules
    run(profile, WHO + count(3) + "ok wait:300 back back")  # the spin, the choice, the count
    assert loaded in sys.modules
    t = run(profile, WHO + count(3) + "ok wait:4000 ok").texts()
    assert t[0].endswith("'s turn") and loaded not in sys.modules
    run(profile, WHO + count(3) + "next ok")  # named: the race begins
    assert loaded not in sys.modules
    assert run(profile, WHO + "back").texts()[0] == "Lunchbox"  # no race: left
    assert loaded not in sys.modules
