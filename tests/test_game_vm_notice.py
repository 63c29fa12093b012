"""On a box with nothing saved yet, the menu's VM says "No saved data - starting fresh" once,
at power-on; the game's own VM (a fresh one, reloaded into when the game opens) does not say
it again (its toast lay over the game's first screen, a second time in a minute)."""

import pytest
from profiles_under_test import PROFILES

BLANK = "No saved data - starting fresh"


@pytest.mark.parametrize("profile", PROFILES)
def test_the_blank_store_notice_is_the_menus_alone(profile):
    from lunchbox.sim import Simulator

    sim = Simulator(profile, nvm_path=None, mode="headless")
    try:
        sim.run_script("wait:500")
        said = " ".join(sim.texts())
        assert "No saved data" in said, said  # at power-on, on the menu
        sim.run_script("wait:3000")
        sim.run_script("ok")  # Space Lunch, in its own VM
        sim.run_script("wait:500")
        shown = " ".join(sim.texts())
        assert "Space Lunch" in shown and "Easy" in shown, shown
        assert "No saved data" not in shown, shown
    finally:
        sim.close()
