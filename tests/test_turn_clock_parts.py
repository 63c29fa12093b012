"""The turn clock's code in parts, for a game's heap on the board (companion/turn_clock/): the
app's start loads only the light part, the view comes with the game's screen, and what only
starts a clock is let go once it has (on the device: a PC keeps modules the tests share)."""

import subprocess
import sys
import types
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
HEAVY = ("companion.turn_clock.view", "companion.turn_clock.start",
         "companion.turn_clock.corner", "companion.turn_clock.rare", "companion.turn_clock.state",
         "companion.turn_clock.statebytes", "companion.turn_clock.setting",
         "companion.app.catalog", "companion.screen.ui")


def test_the_apps_start_loads_only_the_light_part():
    code = ("import sys; sys.path.append({!r}); import companion.turn_clock.clocks; "
            "print(' '.join(sorted(sys.modules)))").format(str(FIRMWARE))
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout.split()
    assert "companion.turn_clock.saves" in loaded
    for name in HEAVY:
        assert name not in loaded, name


def test_what_starts_a_clock_is_let_go_unless_it_was_loaded_before(monkeypatch):
    from companion.turn_clock.saves import let_go

    pkg = types.SimpleNamespace(once=object(), kept=object())
    for name, mod in (("pkg", pkg), ("pkg.once", pkg.once), ("pkg.kept", pkg.kept)):
        monkeypatch.setitem(sys.modules, name, mod)
    let_go("pkg.once")  # a PC keeps them: the tests share the modules
    assert "pkg.once" in sys.modules
    from companion.app import unload

    monkeypatch.setattr(unload, "UNLOAD", True)  # as on the device
    let_go("pkg.once")
    let_go("pkg.kept", ["pkg.kept"])  # loaded before (the menu's VM): kept
    let_go("pkg.gone")  # not loaded: nothing to do
    assert "pkg.once" not in sys.modules and not hasattr(pkg, "once")
    assert "pkg.kept" in sys.modules and hasattr(pkg, "kept")
