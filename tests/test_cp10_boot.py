"""CircuitPython 10.0.0 (tests/cp, Adafruit's UF2 for the Pico) boots in the lane's emulator
(tests/cp/lane.js) to its REPL over USB, and the REPL answers, and opens the app's menu on it
from the .py drive: all in make soak (the next major, not the one the box is built for; make
test boots 9.2.2 in the lane).

CircuitPython 10 reads the BOOTSEL button at start-up through the flash's chip select (QSPI
SS, SIO GPIO_HI_IN bit 1) and waits while it reads low; the bare rp2040js reads that pin low,
so CircuitPython 10 hung there before USB started. lane.js pulls SS up as the Pico's resistor
does (tests/cp/README.md). The lane's figures stay CircuitPython 9.2.2's: our mpy-cross is
9.2.2's, so CP 10 runs here from .py (cplane.run(..., mpy=False))."""

import json
import os
import subprocess

import cplane
import pytest

pytestmark = pytest.mark.soak

UF2_10 = cplane.uf2_for("10.0.0")
BANNER = "Adafruit CircuitPython 10.0.0 on 2025-10-01; Raspberry Pi Pico with rp2040"

# no code.py on the drive: CircuitPython waits at "Press any key"; a key enters the REPL
REPL_WORDS = [
    "expect:Press any key to enter the REPL", "type:\r", "expect:>>> ", "mark:repl",
    "type:import sys; print(sys.implementation.version, 6 * 7)\n", "expect:42\r\n>>> ",
    "mark:answered",
]


@pytest.fixture(scope="module")
def repl(tmp_path_factory):
    why = cplane.available()
    assert why is None, why
    d = tmp_path_factory.mktemp("cp10")
    image = cplane.fat_image({}, d / "empty.img")
    script = d / "keys.json"
    script.write_text(json.dumps(REPL_WORDS))
    cmd = ["node", str(cplane.DRIVER), "--uf2", str(UF2_10), "--bootrom", str(cplane.BOOTROM),
           "--fs", str(image), "--script", str(script), "--app", "0", "--out", str(d),
           "--timeout", "240"]
    env = dict(os.environ, NODE_PATH=str(cplane.NODE_MODULES))
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    return [json.loads(line) for line in proc.stdout.splitlines()], proc


def test_cp10_boots_to_its_repl(repl):
    events, proc = repl
    lines = [e["text"] for e in events if e["t"] == "line"]
    assert not [e for e in events if e["t"] == "error"], (lines[-20:], proc.stderr[-2000:])
    assert BANNER in lines
    # booted: CircuitPython's prompt on the console (2.3 emulated s on 10.0.0, 9.2.2: 2.6 s).
    # Not the REPL's mark: while the chip sleeps waiting for the typed key, the lane lets
    # emulated time pass as the driver waits in real time, so that figure follows the machine
    prompt = [e["emu"] for e in events if e["t"] == "line" and "Press any key" in e["text"]]
    assert prompt and prompt[0] < 10, prompt


def test_cp10_repl_answers(repl):
    events, _proc = repl
    lines = [e["text"] for e in events if e["t"] == "line"]
    assert "(10, 0, 0, '') 42" in lines
    assert any(e["t"] == "done" for e in events)


def test_cp10_runs_the_app_to_its_menu(monkeypatch, tmp_path):
    """The app from the .py drive on CircuitPython 10 (the default lane stays on 9.2.2)."""
    monkeypatch.setattr(cplane, "UF2", UF2_10)
    run = cplane.run("pico-display-pack", ["wait:1000", "next", "prev"], mpy=False,
                     out=tmp_path, timeout=600)
    assert run.done, run.transcript()
    assert not run.crashes, run.crashes
    assert run.passes and run.passes[0].top == "MainMenu", run.transcript()
    assert "10.0.0" in "\n".join(run.lines[:5])
