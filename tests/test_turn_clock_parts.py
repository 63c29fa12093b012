"""The turn clock's code in parts, for a game's heap on the board (companion/clock.py): the
app's start loads only the light part, the view comes with the game's screen, and what only
starts a clock is let go once it has (on the device: a PC keeps modules the tests share)."""

import subprocess
import sys
import types
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
HEAVY = ("companion.clockview", "companion.clockstart", "companion.clockcorner",
         "companion.core.clock", "companion.core.clockbytes", "companion.core.clockset",
         "companion.core.catalog", "companion.ui")


def test_the_apps_start_loads_only_the_light_part():
    code = ("import sys; sys.path.append({!r}); import companion.clock; "
            "print(' '.join(sorted(sys.modules)))").format(str(FIRMWARE))
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout.split()
    assert "companion.core.clocksave" in loaded
    for name in HEAVY:
        assert name not in loaded, name


def _board_sys(modules):
    return types.SimpleNamespace(implementation=types.SimpleNamespace(name="circuitpython"),
                                 modules=modules)


def test_what_starts_a_clock_is_let_go_unless_it_was_loaded_before():
    from companion.clockstart import drop

    core = types.SimpleNamespace(catalog=object(), clockset=object())
    mods = {"companion.core": core, "companion.core.catalog": core.catalog,
            "companion.core.clockset": core.clockset}
    board = _board_sys(mods)
    drop(board, "companion.core.catalog", [])
    drop(board, "companion.core.clockset", ["companion.core.clockset"])  # the menu's, kept
    drop(board, "companion.core.clockbytes", [])  # not loaded: nothing to do
    assert "companion.core.catalog" not in mods and not hasattr(core, "catalog")
    assert "companion.core.clockset" in mods and hasattr(core, "clockset")
    pc = types.SimpleNamespace(implementation=sys.implementation, modules=mods)
    drop(pc, "companion.core.clockset", [])
    assert "companion.core.clockset" in mods  # a PC keeps them
