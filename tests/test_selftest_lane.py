"""Settings > Check the box on the real-CircuitPython lane (tests/cplane.py): CircuitPython
9.2.2 runs the synced drive with 24 KB held back, through the self-test's pages by the
board's button GPIOs: every button pressed and named, the test pattern on the panel (its red,
green and blue bars in the pixels real displayio sent it, on the colour display), the LEDs
page, the box's figures, and Back to Settings; no traceback, and the heap beside the 24 KB is
printed for the record."""

import cplane
import pytest
from profiles_under_test import PROFILES

PATTERN = "screen"


def presses(profile):
    """Each button of the profile once (OK last: once all are pressed, OK goes on)."""
    from lunchbox.hardware import profiles

    roles = [r for r, _pin, _label in profiles.button_roles(profiles.load_profile(profile))]
    return ["next", "prev", "back"] + (["undo"] if "undo" in roles else []) + ["ok"]


def words(profile):
    return (["wait:3000", "prev", "ok", "prev", "ok", "mark:buttons"] + presses(profile) +
            ["mark:pressed", "ok", "wait:500", "shot:" + PATTERN, "mark:screen", "ok",
             "wait:1500", "mark:leds", "ok", "wait:1500", "mark:box", "back", "wait:500",
             "mark:settings"])


@pytest.fixture(scope="module", params=[
    pytest.param(p, marks=pytest.mark.xdist_group("cp-" + p)) for p in PROFILES])
def checked(request, tmp_path_factory):
    why = cplane.available()
    assert why is None, why
    return request.param, cplane.run(request.param, words(request.param), hold=cplane.HOLD,
                                     out=tmp_path_factory.mktemp("shots"), timeout=900)


def test_every_page_runs_on_circuitpython(checked):
    profile, run = checked
    assert run.error is None and run.done, (run.error, run.transcript())
    assert run.crashes == [], run.crashes
    assert cplane.tops_at_marks(run) == [
        ("buttons", "SelfTest"), ("pressed", "SelfTest"), ("screen", "SelfTest"),
        ("leds", "SelfTest"), ("box", "SelfTest"), ("settings", "SettingsScreen")], \
        run.transcript()
    # its opening, each button, then three pages on: each a pass it handled
    handled = [p for p in run.passes if p.top == "SelfTest"]
    assert len(handled) == 1 + len(presses(profile)) + 3, handled


def test_the_pattern_reaches_the_panel(checked):
    from PIL import Image

    profile, run = checked
    shot = run.shots[PATTERN]
    assert shot["path"] and shot["shows"], shot
    im = Image.open(shot["path"]).convert("RGB")
    px = im.load()
    w, h = im.size
    seen = {"red": 0, "green": 0, "blue": 0, "lit": 0}
    for y in range(h):
        for x in range(w):
            r, g, b = px[x, y]
            seen["lit"] += r + g + b > 300
            seen["red"] += r > 200 and g < 60 and b < 60
            seen["green"] += g > 200 and r < 60 and b < 60
            seen["blue"] += b > 200 and r < 60 and g < 60
    assert seen["lit"] > 200, seen
    if "display" in profile:  # the colour bars, 24 px tall and ~70 wide each
        assert min(seen["red"], seen["green"], seen["blue"]) > 1000, seen


def test_the_self_test_keeps_the_margin(checked):
    """It ran with 24 KB held back; what it left beside them, printed."""
    profile, run = checked
    least = min(p.free for p in run.passes if p.top == "SelfTest")
    assert least > 0
    print("\n{}: Check the box, least free beside 24 KB held: {} B".format(profile, least))
