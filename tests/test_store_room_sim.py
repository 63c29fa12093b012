"""Room at a game's start, through the simulator (the same path as the board's fresh VM for
each game: companion/app/main.py, hwbase.Relaunch): opening a game compacts a sector that has
less than main.GAME_ROOM free, before the game is built; the menu alone does not."""

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from _flash import FlashNVM

from companion.app.main import GAME_ROOM
from companion.store.store import KIND_GAME, Store
from lunchbox.sim import Simulator  # after the SDL settings


def nearly_full(path):
    """A sector with records the host has pulled, and less than GAME_ROOM free."""
    nvm = FlashNVM()
    s = Store(nvm)
    s.save_settings(b"")  # the first-start notice seen
    while s.stats()["free"] >= GAME_ROOM - 300:
        s.append_record(KIND_GAME, b"R" * 90)
    s.ack_records(s.records()[-1][0])
    with open(path, "wb") as f:
        f.write(bytes(nvm.mem))
    return s.stats()["compactions"]


def mounted(path):
    with open(path, "rb") as f:
        return Store(FlashNVM(data=f.read()))


def test_opening_a_game_makes_room(tmp_path):
    path = str(tmp_path / "nvm.bin")
    before = nearly_full(path)
    sim = Simulator("pico-ssd1306-5btn", nvm_path=path, mode="headless")
    sim.run_script("wait:500")  # the menu: nothing written
    s = mounted(path)
    assert s.stats()["compactions"] == before and s.stats()["free"] < GAME_ROOM
    sim = Simulator("pico-ssd1306-5btn", nvm_path=path, mode="headless")
    sim.run_script("ok wait:500")  # Space Lunch: its new-game list, in a game's App
    assert sim.texts()[0] != "Lunchbox"
    s = mounted(path)
    assert s.stats()["compactions"] == before + 1
    assert s.stats()["free"] >= GAME_ROOM and s.status is None
    # back to the menu and into the game again: room enough, no second compaction
    sim = Simulator("pico-ssd1306-5btn", nvm_path=path, mode="headless")
    sim.run_script("ok wait:500 back wait:500 ok wait:500")
    assert mounted(path).stats()["compactions"] == before + 1


def test_settings_and_records_lost_fit_the_message_screen(tmp_path):
    """The longest notice (settings and records lost in one cut rewrite) is shown in full on
    both displays."""
    import pytest
    from _flash import PowerCut

    from companion.store.store import MSG_CUT_SETTINGS_RECORDS

    nvm = FlashNVM()
    s = Store(nvm)
    s.save_settings(b"")
    while s.stats()["free"] >= 300:
        s.append_record(KIND_GAME, b"R" * 90)
    # a save too long for the log: the rewrite, cut once its game record is programmed
    nvm.cut_after = 27 + 12 + 1 + 11 + 300 + 3
    with pytest.raises(PowerCut):
        s.save_game("aqua_brunch", b"\x00" * 300)
    nvm.power_on()
    assert Store(nvm.copy()).status == MSG_CUT_SETTINGS_RECORDS
    path = str(tmp_path / "nvm.bin")
    for profile in ("pico-display-pack", "pico-ssd1306-5btn"):
        with open(path, "wb") as f:
            f.write(bytes(nvm.mem))
        sim = Simulator(profile, nvm_path=path, mode="headless")
        sim.run_script("wait:500")
        t = sim.texts()
        assert t[0] == "Saved data", (profile, t)
        assert " ".join(t[1:]).split() == MSG_CUT_SETTINGS_RECORDS.split(), (profile, t)
        assert sim.layout_problems() == [], profile
