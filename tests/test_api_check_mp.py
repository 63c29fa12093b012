"""The MicroPython API check, beside the CircuitPython one (tests/test_api_check.py): what runs
only on MicroPython (firmware/main.py, companion/board/hwmp.py and mpparts.py, the renderer in
firmware/mplib/) type-checked with mypy against the rp2 Pico's own stubs
(micropython-rp2-rpi-pico-stubs at the lane's MicroPython, 1.24.1, with MicroPython's stdlib
stubs as the typeshed) and Pimoroni's (pimoroni-pico-stubs: picographics), installed beside the
venv on first use (they would shadow CPython's own modules for the CircuitPython check). A call
to a module, class or function that MicroPython does not have, or with arguments its signature
does not take, fails; general typing complaints about the app's own code do not count, as in
the CircuitPython check.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_api_check import ALWAYS, LINE, NAMED, report

ROOT = Path(__file__).resolve().parent.parent
STUBS = ("micropython-rp2-rpi-pico-stubs==1.24.1.post2", "micropython-stdlib-stubs==1.29.0.post2",
         "pimoroni-pico-stubs==1.21.0")
STUBS_DIR = ROOT / ".venv" / "mp-stubs-1.24.1"
# what is checked: MicroPython's side of the board layer, its entry and the renderer
MODULES = ("companion.board.hwmp", "companion.board.mpparts", "main_mp", "displayio", "fbdisplay",
           "terminalio", "vectorio", "bitmaptools")


def stubs():
    """The stubs folder (installed on first use); the test fails with the reason when pip
    cannot install them (no package index)."""
    site = STUBS_DIR / "site"
    if not (site / "machine.pyi").exists():
        shutil.rmtree(STUBS_DIR, ignore_errors=True)
        proc = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                               "--target", str(site)] + list(STUBS),
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, "the MicroPython stubs could not be installed:\n" + (
            proc.stdout + proc.stderr)
    return site


def api_names(site):
    """Module, class and function names of MicroPython and Pimoroni's modules (their stubs)."""
    names = set()
    for p in site.rglob("*.pyi"):
        rel = p.relative_to(site)
        if rel.parts[0] in ("stdlib", "_mpy_shed"):
            continue
        names.add(rel.parts[0][:-4] if rel.suffix == ".pyi" and len(rel.parts) == 1
                  else rel.parts[0])
        names.update(re.findall(r"^\s*(?:class|def)\s+(\w+)", p.read_text(), re.M))
    return names - {"__init__", "__getitem__", "__setitem__", "__len__", "__iter__", "Any",
                    "Optional", "Union", "List", "Tuple", "Dict", "deinit", "__enter__",
                    "__exit__", "__repr__", "__str__", "fill", "show", "append", "pop", "write",
                    "read", "value", "init", "update", "set", "clear", "get"}


def checked_tree(tmp):
    """What a MicroPython board runs, as mypy sees it: the renderer's modules at the top (as
    in /lib), companion/, shared_rules/, main.py as main_mp.py."""
    shutil.copytree(ROOT / "firmware" / "companion", tmp / "companion",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "shared_rules", tmp / "shared_rules",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for p in (ROOT / "firmware" / "mplib").glob("*.py"):
        shutil.copy(p, tmp / p.name)
    shutil.copy(ROOT / "firmware" / "main.py", tmp / "main_mp.py")
    return tmp


def mypy(tree, site, cache):
    env = dict(os.environ)
    env["MYPYPATH"] = str(site)
    cmd = [sys.executable, "-m", "mypy", "--custom-typeshed-dir", str(site),
           "--python-version", "3.11", "--check-untyped-defs", "--no-strict-optional",
           "--follow-imports=silent", "--no-error-summary", "--show-error-codes",
           "--no-color-output", "--hide-error-context",
           "--cache-dir", str(ROOT / ".venv" / ("mypy-cache-micropython-" + cache))]
    for m in MODULES:
        cmd += ["-m", m]
    proc = subprocess.run(cmd, cwd=str(tree), env=env, capture_output=True, text=True,
                          timeout=600)
    if proc.returncode not in (0, 1):
        raise RuntimeError("mypy did not run:\n" + proc.stdout + proc.stderr)
    errors = []
    for line in proc.stdout.splitlines():
        m = LINE.match(line.strip())
        # errors inside the stubs themselves (they are written for a newer mypy) are not ours
        if m and not Path(m["file"]).is_absolute():
            errors.append((m["file"], int(m["line"]), m["code"], m["msg"]))
    return errors


def api_errors(errors, names):
    out = []
    for file, line, code, msg in errors:
        if code in ALWAYS:
            out.append((file, line, code, msg))
        elif code in NAMED:
            # every name inside the message's quotes ("type[Pin]" names Pin)
            quoted = set(re.findall(r"\w+", " ".join(re.findall(r'"([^"]+)"', msg))))
            if msg.startswith("Module ") or quoted & names:
                out.append((file, line, code, msg))
    # the firmware's own seams typed for CircuitPython (display.make's BusDisplay, hwbase's
    # PixelBuf) are not MicroPython API calls
    return [e for e in out if not re.search(r'expected "(BusDisplay|PixelBuf)', e[3])]


@pytest.fixture(scope="module")
def site():
    return stubs()


def test_micropython_side_matches_micropython_1_24(site, tmp_path):
    names = api_names(site)
    assert {"machine", "framebuf", "picographics", "neopixel"} <= names
    errors = api_errors(mypy(checked_tree(tmp_path), site, "ok"), names)
    assert not errors, "calls MicroPython 1.24 does not have:\n" + report(errors)


def test_the_check_catches_a_wrong_call(site, tmp_path):
    """A constant that is not there, a keyword a constructor does not take and a function a
    module does not have all fail the check."""
    tree = checked_tree(tmp_path)
    changed = []
    for name in ("hwmp.py", "mpparts.py"):
        p = tree / "companion" / "board" / name
        src = p.read_text()
        new = (src.replace("Pin.PULL_UP", "Pin.PULLUP")
               .replace("time.ticks_ms()", "time.ticks_msec()")
               .replace("WDT(timeout=", "WDT(timeout_ms="))
        if new != src:
            changed.append(name)
            p.write_text(new)
    assert changed, "the mutations found nothing to change: update them to hwmp's calls"
    text = report(api_errors(mypy(tree, site, "broken"), api_names(site)))
    for wrong in ("PULLUP", "ticks_msec", "timeout_ms"):
        assert wrong in text, text
