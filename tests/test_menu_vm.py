"""What the menu's VM holds on the board (companion/app/menu.py, docs/firmware.md "What the heap
holds"): opening a game reloads into the game's own VM, so the menu keeps neither the loader,
the game VM's door, nor the catalog once its rows are read, and hwpico's setup code goes once
it has built ``hw``. Run in a fresh interpreter with the device's unloading switched on."""

import subprocess
import sys

from conftest import FIRMWARE

NOT_KEPT = ("companion.app.loader", "companion.app.launch", "companion.app.catalog",
            "shared_rules.registry", "companion.store.records", "companion.app.crash",
            "companion.app.keeping")

CODE = """
import sys
sys.path.append({firmware!r})
import companion.app.unload
companion.app.unload.UNLOAD = True  # as on the device
from lunchbox.sim import Simulator
sim = Simulator({profile!r}, mode="headless")
if {saved!r}:
    from companion.store.store import Store
    from shared_rules.space_days.score import DaysScore
    Store(sim.nvm).save_game("days_score", DaysScore().to_bytes())
sim.run_script({script!r})
print(" ".join(sorted(sys.modules)))
print("|".join(sim.texts()))
"""


def menu_vm(profile, script="wait:2000", saved=False):
    code = CODE.format(firmware=FIRMWARE, profile=profile, script=script, saved=saved)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    return set(out[-2].split()), out[-1].split("|")


def test_the_menu_keeps_no_game_opener(profile):
    loaded, texts = menu_vm(profile)
    assert texts[0] == "Lunchbox" and "Space Lunch" in texts
    for name in NOT_KEPT:
        assert name not in loaded, name


def test_the_menu_still_opens_a_game_and_names_the_saved_one(profile):
    # the loader and the catalog are imported again when wanted: a game opens (in its own
    # VM: the simulator's relaunch), the resume prompt names the saved game and resumes it
    loaded, texts = menu_vm(profile, "wait:2000 next*2 ok wait:500")
    assert texts[0] == "Aqua Brunch"
    loaded, texts = menu_vm(profile, saved=True)
    assert texts[0] == "Resume game?" and "Space Days scoring" in texts, texts
    for name in NOT_KEPT:
        assert name not in loaded, name
    loaded, texts = menu_vm(profile, "wait:2000 ok wait:500", saved=True)
    assert texts[0] != "Resume game?" and "companion.app.loader" in loaded, texts
