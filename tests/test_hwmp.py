"""The MicroPython board layer off the board: what runs without the Pico's pins, on CPython and
on the real MicroPython (WebAssembly port). The settings of every MicroPython profile read into
the hardware description; a CircuitPython settings.toml, none at all, or a build without
Pimoroni's picographics each end in one console line saying what to run; the buttons'
debouncing with real edge sequences (bounces, a glitch, a tap, a ring gone round, ticks_ms
wrapping); the SSD1306 set-up and the Display Pack's rotations against hwpico's; the relaunch
file; boot.py and main.py on both runtimes. What needs the pins (the panels on the glass, the
interrupts) the MicroPython lane proves by booting firmware/main.py in rp2040js."""

import sys
import types
from pathlib import Path

import pytest

import mplane
from lunchbox.hardware import profiles

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
MP_PROFILES = ("pico-display-pack-mp", "pico-ssd1306-5btn-mp")


def settings_text(name):
    return profiles.render_settings(profiles.load_profile(name))


@pytest.fixture
def hwmp():
    from companion.board import hwmp as module

    yield module
    sys.modules.pop("companion.board.hwmp", None)  # build() lets it go on the board; not here


@pytest.mark.parametrize("name", MP_PROFILES)
def test_every_micropython_profile_reads_into_the_hardware_description(hwmp, tmp_path, name):
    path = tmp_path / "settings.toml"
    path.write_text(settings_text(name))
    cfg, values = hwmp._settings(str(path))
    profile = profiles.load_profile(name)
    assert cfg["profile"] == name and values["LUNCHBOX_RUNTIME"] == "micropython"
    assert cfg["display"] == profile["display"]["driver"]
    assert (cfg["width"], cfg["height"]) == (profile["display"]["width"],
                                             profile["display"]["height"])
    assert [pin for _role, pin in cfg["buttons"]] == [b["pin"] for b in profile["buttons"]]
    for _role, pin in cfg["buttons"]:
        assert 0 <= hwmp.mpparts.gpio(pin) <= 29
    assert cfg["rotation"] in hwmp.PICOGRAPHICS_ROTATE


def test_a_circuitpython_settings_file_says_what_to_run(hwmp, tmp_path):
    path = tmp_path / "settings.toml"
    path.write_text(settings_text("pico-display-pack"))
    with pytest.raises(hwmp.Missing, match="is for CircuitPython .*lunchbox sync --profile"):
        hwmp._settings(str(path))
    with pytest.raises(hwmp.Missing, match="no .*nothing.toml on the board - run: lunchbox sync"):
        hwmp._settings(str(tmp_path / "nothing.toml"))


def test_pin_names_outside_gp0_to_gp29_are_named(hwmp):
    for bad in ("D5", "GP", "board.GP3"):
        with pytest.raises(ValueError, match=bad):
            hwmp.mpparts.gpio(bad)


# Pimoroni's ST7789 driver (drivers/st7789/st7789.cpp, configure_display) for the 240x135
# panel: rotation -> (MADCTL, first column, first row) it sets
PIMORONI_PICO_DISPLAY = {0: (0x70, 40, 53), 180: (0xB0, 40, 52), 90: (0xC0, 53, 40),
                         270: (0x00, 52, 40)}


def _hwpico(monkeypatch):
    from test_firmware_core import DISPLAY_PACK
    from test_firmware_hwpico import fake_modules

    fake_modules(monkeypatch, DISPLAY_PACK)
    from companion.board import hwpico

    return hwpico


def test_the_display_pack_rotations_give_circuitpython_s_picture(hwmp, monkeypatch):
    hwpico = _hwpico(monkeypatch)
    for rotation, (madctl, turn, colstart, rowstart) in hwpico.ST7789_ROTATIONS.items():
        pg_madctl, pg_col, pg_row = PIMORONI_PICO_DISPLAY[hwmp.PICOGRAPHICS_ROTATE[rotation]]
        if turn == 180:  # displayio turns it over on top: MX and MY undone, the same window
            madctl ^= 0xC0
            colstart, rowstart = 52, 40  # 239 - (53 + 134), 319 - (40 + 239): columns 52-186
        assert (pg_madctl, pg_col, pg_row) == (madctl, colstart, rowstart), rotation


SIZES = [(128, 64, 0), (128, 32, 0), (96, 16, 0), (64, 48, 0), (72, 40, 0), (64, 32, 0),
         (128, 64, 180), (64, 128, 90), (48, 64, 270), (40, 72, 90)]


@pytest.mark.parametrize("size", SIZES)
def test_the_ssd1306_gets_hwpico_s_set_up(hwmp, size):
    """The commands hwmp sends are the sequence hwpico gives BusDisplay (one copy, in
    companion/board/ssd1306.py; tests/test_firmware_hwpico.py holds it to the library's)."""
    from companion.board import ssd1306

    seq, w, h, colstart, _ = ssd1306.setup(*size)
    cmds, mw, mh, mcol = hwmp.ssd1306_commands(*size)
    assert (mw, mh, mcol) == (w, h, colstart)
    # every command of the sequence, its arguments after it, nothing else
    want = bytearray()
    i = 0
    while i < len(seq):
        n = seq[i + 1] & 0x7F
        want += bytes(seq[i:i + 1]) + bytes(seq[i + 2:i + 2 + n])
        i += 2 + n + (seq[i + 1] >> 7)
    assert cmds == bytes(want) and cmds[0] == 0xAE and cmds[-1] == 0xAF


def test_the_ssd1306_turned_over_scans_the_other_way(hwmp):
    cmds = hwmp.ssd1306_commands(128, 64, 180)[0]
    over = hwmp.turned(cmds)
    assert b"\xa1" in cmds and b"\xc8" in cmds
    assert over.replace(b"\xa0", b"\xa1").replace(b"\xc0", b"\xc8") == cmds
    assert over.count(b"\xa0") == 1 and over.count(b"\xc0") == 1  # arguments untouched
    assert hwmp.turned(hwmp.ssd1306_commands(128, 64, 0)[0]) != cmds


def test_mono_pens_are_displayio_s():
    from companion.board import mpparts
    from companion.screen import display

    d = display.MonoDisplay
    assert mpparts.mono_pen(d.FG) == 1 and mpparts.mono_pen(d.BG) == 0
    assert mpparts.mono_pen(0x808080) == 1 and mpparts.mono_pen(0x7F7F7F) == 0
    assert mpparts.mono_pen(0xFF0000) == 0  # luma 19: dark on a 1-bit panel, as on displayio
    assert mpparts.mono_pen(0x00FF00) == 1


# Edge sequences through mpparts.Debouncer and drain(), as the interrupt fills the ring: run
# on CPython and on the real MicroPython, which must print the same.
DEBOUNCE = r"""
from array import array
from companion.app.buttons import ticks_diff
from companion.board.mpparts import Debouncer, drain, RING

def run(edges, polls):
    # edges: (time, button, pressed) as the interrupt saw them; polls: (time, levels)
    deb = Debouncer(2)
    times = array("i", [0] * RING)
    codes = bytearray(RING)
    head = tail = 0
    out = []
    k = 0
    for now, levels in polls:
        while k < len(edges) and ticks_diff(now, edges[k][0]) >= 0:
            t, b, p = edges[k]
            times[head % RING] = t
            codes[head % RING] = b * 2 + p
            head += 1
            k += 1
        got = []
        tail = drain(times, codes, tail, head, deb, got)
        for i in range(2):
            deb.settle(i, levels[i], now, got)
        out.append(got)
    return out

up = (False, False)
down = (True, False)
# a press bouncing for 5 ms, held, released with a bounce: one press at 1000, one release at 1200
print(run([(1000, 0, 1), (1002, 0, 0), (1003, 0, 1), (1005, 0, 0), (1006, 0, 1),
           (1200, 0, 0), (1201, 0, 1), (1203, 0, 0)],
          [(1001, down), (1010, down), (1100, down), (1202, down), (1250, up)]))
# a glitch: down at 2000, back up at 2004 inside the bounce time; the pin's level settles it
print(run([(2000, 0, 1), (2004, 0, 0)], [(2010, up), (2030, up)]))
# a quick tap between two polls: both, with their own times
print(run([(3000, 1, 1), (3030, 1, 0)], [(2990, up), (3100, up)]))
# a press whose interrupt has not run yet when its level is read: taken at the poll, not at
# the last release 2 s before (that would be a 2-second hold: a long press, an auto-repeat)
print(run([(1000, 0, 1), (1050, 0, 0), (3000, 0, 1), (3050, 0, 0)],
          [(1010, down), (1100, up), (2999, down), (3100, up)]))
# a press whose edge comes in between the poll's level read and its look at the ring: the
# (older) level is not a release; one press, not two (an OK read twice confirmed a dialog)
print(run([(6000, 0, 1), (6050, 0, 0)], [(6000, up), (6010, down), (6100, up)]))
# a press after a release that bounced: the level's change is not dated at that old bounce
print(run([(7000, 0, 1), (7100, 0, 0), (7102, 0, 1), (7104, 0, 0), (9000, 0, 1), (9050, 0, 0)],
          [(7010, down), (7200, up), (8999, down), (9100, up)]))
# held at power-on: no edge, taken when first polled
print(run([], [(50, down)]))
# more edges than the ring holds between two polls: the newest kept, the level right
edges = [(4000 + 25 * i, 0, (i + 1) % 2) for i in range(RING + 7)]
print(run(edges, [(5000, (edges[-1][2] == 1, False))])[0][-1])
# ticks_ms wrapping (2**30 on MicroPython): a bounce across the wrap is still a bounce
w = (1 << 30) - 3
print(run([(w, 0, 1), ((w + 4) & ((1 << 30) - 1), 0, 0), ((w + 6) & ((1 << 30) - 1), 0, 1)],
          [(10, down), (30, down)]))
"""

DEBOUNCE_WANT = [
    "[[(0, True, 1000)], [], [], [(0, False, 1200)], []]",
    "[[(0, True, 2000)], [(0, False, 2004)]]",
    "[[], [(1, True, 3000), (1, False, 3030)]]",
    "[[(0, True, 1000)], [(0, False, 1050)], [(0, True, 2999)], [(0, False, 3050)]]",
    "[[(0, True, 6000)], [], [(0, False, 6050)]]",
    "[[(0, True, 7000)], [(0, False, 7100)], [(0, True, 8999)], [(0, False, 9050)]]",
    "[[(0, True, 50)]]",
    "(0, True, 4950)",  # the last edge, i = 38: pressed
    "[[(0, True, 1073741821)], []]",
]


def test_debouncing_real_edge_sequences_on_cpython(capsys):
    exec(compile(DEBOUNCE, "debounce", "exec"), {})
    assert capsys.readouterr().out.splitlines() == DEBOUNCE_WANT


def test_debouncing_real_edge_sequences_on_micropython():
    result = mplane.run(libs=(FIRMWARE / "companion", ROOT / "shared_rules"),
                        code="import sys\nsys.path.insert(0, '/lib')\n" + DEBOUNCE)
    assert not result.failed, result.report()
    assert result.output.splitlines()[:len(DEBOUNCE_WANT)] == DEBOUNCE_WANT, result.output


def _boot_main(settings, extra=""):
    """firmware/main.py on the real MicroPython, with ``settings`` as /settings.toml (None:
    none). What it prints, and "@@RETURNED" when it came back to the prompt."""
    code = "import sys\nsys.path.insert(0, '/lib')\n"
    if settings is not None:
        code += "open('/settings.toml', 'w').write({!r})\n".format(settings)
    code += extra
    code += ("exec(open('/lib/main.py').read(), {'__name__': '__main__'})\n"
             "print('@@RETURNED')\n")
    return mplane.run(libs=(FIRMWARE / "companion", ROOT / "shared_rules", FIRMWARE / "main.py"),
                      code=code)


def test_main_on_micropython_without_picographics_says_what_to_flash():
    out = _boot_main(settings_text("pico-display-pack-mp"))
    lines = [ln for ln in out.output.splitlines() if ln.strip()]
    assert lines == ["Lunchbox: this MicroPython has no picographics: the Display Pack needs "
                     "Pimoroni's build - run: lunchbox flash --uf2 <Pimoroni's pico .uf2> "
                     "--profile pico-display-pack-mp", "@@RETURNED"], out.output


def test_main_on_micropython_without_settings_says_what_to_sync():
    out = _boot_main(None)
    lines = [ln for ln in out.output.splitlines() if ln.strip()]
    assert len(lines) == 2 and lines[1] == "@@RETURNED", out.output
    assert lines[0].startswith("Lunchbox: no /settings.toml on the board - run: lunchbox sync")


def test_main_on_micropython_with_circuitpython_settings_says_so():
    out = _boot_main(settings_text("pico-ssd1306-5btn"))
    lines = [ln for ln in out.output.splitlines() if ln.strip()]
    assert lines[0] == ("Lunchbox: settings.toml is for CircuitPython (profile "
                        "pico-ssd1306-5btn) - run: lunchbox sync --profile <a MicroPython "
                        "profile> (lunchbox profile lists them), or lunchbox flash --uf2 "
                        "<CircuitPython .uf2> --profile pico-ssd1306-5btn"), out.output
    assert lines[1:] == ["@@RETURNED"]


def test_the_relaunch_file_is_read_once_on_micropython():
    code = ("import sys\nsys.path.insert(0, '/lib')\n"
            "from companion.board import mpparts\n"
            "print(mpparts.launched())\n"
            "open(mpparts.LAUNCH, 'w').write('space_lunch')\n"
            "print(mpparts.launched())\n"
            "print(mpparts.launched())\n"
            "open(mpparts.LAUNCH, 'w').write('')\n"
            "print(repr(mpparts.launched()))\n")
    out = mplane.run(libs=(FIRMWARE / "companion", ROOT / "shared_rules"), code=code)
    assert out.output.splitlines()[:4] == ["None", "space_lunch", "None", "''"], out.output


def test_boot_py_runs_on_micropython_without_usb_cdc():
    code = "exec(open('/lib/boot.py').read())\nprint('booted')\n"
    out = mplane.run(libs=(FIRMWARE / "boot.py",), code=code)
    assert out.output.strip() == "booted", out.output


def test_main_py_does_nothing_on_cpython(monkeypatch):
    ran = []
    fake = types.SimpleNamespace(build=lambda: ran.append("build"))
    import companion

    monkeypatch.setattr(companion, "hwmp", fake, raising=False)
    monkeypatch.setitem(sys.modules, "companion.board.hwmp", fake)
    exec(compile((FIRMWARE / "main.py").read_text(), "main.py", "exec"), {})
    assert ran == []


def test_open_store_on_micropython_is_the_file_store_in_data():
    libs = (FIRMWARE / "companion", ROOT / "shared_rules") + tuple(
        sorted((FIRMWARE / "mplib").glob("*.py")))
    code = ("import sys, os\nsys.path.insert(0, '/lib')\n"
            "from companion.app.main import open_store\n"
            "s = open_store(None)\n"
            "s.append_record(3, b'a game')\n"
            "print(type(s).__name__, s.status, sorted(os.listdir('/data/rec')))\n")
    out = mplane.run(libs=libs, code=code)
    assert out.output.splitlines()[0] == ("FileStore No saved data - starting fresh "
                                          "['00000001.rec']"), out.output


def test_the_vm_after_a_crash_starts_at_the_menu_on_the_game_that_crashed():
    """On MicroPython a crash ends its VM (main._after_crash: hw.relaunch); the next VM reads
    the crash streak and the game it was in, and its menu puts the cursor on that game's row
    (as after leaving the game), so one press opens it again. A crash at power-on or in the
    menu names no game; what the crashed VM could not show comes along."""
    code = (
        "import sys\nsys.path.insert(0, '/lib')\n"
        "from companion.app import main\n"
        "class HW:\n"
        "    def __init__(self, launched):\n"
        "        self.launched = launched\n"
        "    def relaunch(self, target):\n"
        "        raise SystemExit(target)\n"
        "main._crashed = lambda hw, store, exc, where, record: False\n"
        "for launched in ('lets_do_lunch', '@aqua_brunch', None, '!1 space_days'):\n"
        "    hw = HW(launched)\n"
        "    try:\n"
        "        main._after_crash(hw, None, MemoryError('no room'), 'Door', 2)\n"
        "    except SystemExit as e:\n"
        "        target = e.args[0]\n"
        "    nxt = HW(target)\n"
        "    streak, left = main._crash_streak(nxt)\n"
        "    print(repr(target.split(chr(10))[0]), streak, repr(nxt.launched), left[1],\n"
        "          type(left[0]).__name__, left[0])\n")
    libs = (FIRMWARE / "companion", ROOT / "shared_rules") + tuple(
        sorted((FIRMWARE / "mplib").glob("*.py")))
    out = mplane.run(libs=libs, code=code)
    assert out.output.splitlines()[:4] == [
        "'!2 lets_do_lunch' 2 '@lets_do_lunch' Door MemoryError no room",
        "'!2 aqua_brunch' 2 '@aqua_brunch' Door MemoryError no room",
        "'!2' 2 None Door MemoryError no room",
        "'!2' 2 None Door MemoryError no room"], out.output
