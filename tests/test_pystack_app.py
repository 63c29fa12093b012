"""The whole app on CircuitPython's fixed Python stack (CIRCUITPY_PYSTACK_SIZE, 1536 bytes by
default): every game played through the buttons on both displays, an evening with undos and
power cuts, and every heap flow, with each firmware frame costed as mpy-cross 9.2.2 compiles
it (tests/pystack_meter.py). The deepest moment must leave MARGIN_BYTES to spare.

The model is checked against the board first: on the real CircuitPython 9.2.2 (the Pico UF2 in
rp2040js) a chain of frames whose modelled sizes add up to just under 1536 bytes runs, and one
frame more raises "pystack exhausted". test_cp_pystack.py runs the Space Lunch hint search
itself on the board; test_cp_lane_soak.py walks the heap flows there (and found, in CI, the
path this test now guards: a dialog's answers opening a game deep under a list's first rows).
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import cplane
import mpy_frames
import pytest
from playthrough import PLAYS, Policy, Table, session
from profiles_under_test import PROFILES
from pystack_meter import ABOVE, PYSTACK_BYTES, Meter, table

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from heap_flows import FLOWS  # noqa: E402

# to spare under the deepest moment: two frames of a small method (what a change that adds
# a frame or a keyword somewhere deep can take before this test says so)
MARGIN_BYTES = 96

NEST = """
def nest(k):
    if k:
        return nest(k - 1)
    return 0
for n in range(20, 60):
    try:
        nest(n)
        print("RAN", n + 1)
    except RuntimeError as e:
        print("STOPPED", n + 1, e)
        break
"""


@pytest.fixture(scope="module")
def sizes():
    return table(str(cplane.MPY_CROSS))


def test_the_frame_model_stops_where_the_board_stops(tmp_path):
    for need in (cplane.MPY_CROSS, cplane.uf2_for("9.2.2"), ROOT / "node_modules" / "rp2040js"):
        assert need.exists(), "the real-CircuitPython test needs {}".format(need)
    src = tmp_path / "steps.py"
    src.write_text(NEST)
    got = mpy_frames.frames(str(cplane.MPY_CROSS), str(src))
    module, nest = got["<module>"], got["nest"]
    # how many nest frames fit by the model: module + n * nest <= 1536
    fits = (PYSTACK_BYTES - module) // nest
    assert 20 < fits < 60, (module, nest)
    cplane.fat_image({}, tmp_path / "fat.img")
    env = dict(os.environ, NODE_PATH=str(ROOT / "node_modules"))
    proc = subprocess.run(
        ["node", str(cplane.CP / "cpdrive.js"), "--uf2", str(cplane.uf2_for("9.2.2")), "--bootrom",
         str(cplane.CP / "bootrom.js"), "--fs", str(tmp_path / "fat.img"), "--quiet",
         "--timeout", "120", str(src)], capture_output=True, text=True, timeout=240, env=env)
    out = proc.stdout
    stopped = re.search(r"^STOPPED (\d+) (.*)$", out, re.M)
    assert stopped, out[-2000:]
    assert "pystack exhausted" in stopped.group(2), stopped.group(0)
    ran = [int(n) for n in re.findall(r"^RAN (\d+)", out, re.M)]
    print("board: {} frames of {} B under a {} B module run, {} do not; model: {} fit".format(
        max(ran), nest, module, int(stopped.group(1)), fits))
    assert max(ran) == fits and int(stopped.group(1)) == fits + 1, (max(ran), fits)


def check(meter, what):
    print("{}: deepest\n{}".format(what, meter.report()))
    assert not meter.unknown, "frames mpy-cross does not name: {}".format(meter.unknown)
    assert meter.stack[0][:2] == ("code.py", "<module>"), meter.stack  # a board-shaped path
    assert meter.deepest + MARGIN_BYTES <= PYSTACK_BYTES, (
        "{} takes {} B of the Python stack's {} (want {} B to spare):\n{}".format(
            what, meter.deepest, PYSTACK_BYTES, MARGIN_BYTES, meter.report()))


@pytest.mark.parametrize("profile", PROFILES)
def test_every_game_and_an_evening_fit_the_python_stack(profile, sizes):
    with Meter(None, sizes) as m:
        t = Table(profile, seed=3)
        try:
            t.run([(k, 2) for k in PLAYS] + [("settings", 1)])
        finally:
            t.box.close()
        t = session(profile, seed=11, policy=Policy(suggest=0.5, undo=0.08, cut=0.03), rounds=1)
        t.box.close()
    assert sorted({k for k, _w, _s in t.log}) == sorted(PLAYS)
    # the board's entry points were all seen, so each path was costed from code.py down
    assert set(ABOVE) - {("companion/app/main.py", "run")} <= m.entries
    check(m, "the games on {}".format(profile))


@pytest.mark.parametrize("profile", PROFILES)
def test_every_heap_flow_fits_the_python_stack(profile, sizes, tmp_path):
    from lunchbox.sim import Simulator

    with Meter(None, sizes) as m:
        for i, flow in enumerate(FLOWS):
            keys = " ".join(k for _s, k, _t in flow["steps"] if k)
            sim = Simulator(profile, nvm_path=str(tmp_path / "nvm{}.bin".format(i)))
            sim.run_script(keys + " wait:500")
    assert ("companion/app/main.py", "run") in m.entries
    check(m, "the heap flows on {}".format(profile))
