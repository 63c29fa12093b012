"""The real-MicroPython lane, short run (make test): the MicroPython images for the Pico in
tests/mp (micropython.org's 1.24.1, Pimoroni's 1.23.0 with PicoGraphics) boot in the same
emulator and driver as the CircuitPython lane (tests/cp/lane.js --runtime micropython), from a
littlefs image of the file set a MicroPython board gets (tests/mplane_board.py).

What it shows: the lane's own parts are right (each image mounts the littlefs the lane builds,
with the geometry the image reports; what PicoGraphics and framebuf draw is what the panel
models read back, pixel for pixel), then the firmware itself on each MicroPython profile, with
24 KB held back from the start: it reaches the menu, whose glass is the simulator's screenshot
of the same moment, and opens each game in its own VM and comes back, with no traceback. The
long run: tests/test_mp_lane_soak.py. How the lane works: tests/cplane.py."""

import json
import re
import sys

import cplane
import mplane_board
import pytest
from test_cp_lane import OPEN_EACH, open_each_words

from lunchbox.hardware import profiles

MP_PROFILES = ("pico-display-pack-mp", "pico-ssd1306-5btn-mp")
BUILDS = {  # build -> a profile that boots it, and its banner (Ctrl-B at the REPL)
    "micropython": ("pico-ssd1306-5btn-mp",
                    "MicroPython v1.24.1 on 2024-11-29; Raspberry Pi Pico with RP2040"),
    "micropython-pimoroni": ("pico-display-pack-mp",
                             "MicroPython v1.23.0, pico v1.23.0-1 on 2024-06-06; "
                             "Raspberry Pi Pico with RP2040"),
}
# Pimoroni's ST7789 driver (PicoGraphics, in C in their build) sends DISPON straight after
# SLPOUT, where the ST7789V datasheet asks for 5 ms first (then waits its own 100 ms). The
# lane reports it as it would any firmware's; it is the vendor's, not ours, and the only one.
PIMORONI_DISPON = re.compile(r"^command 0x29 \d+\.\d ms after SLPOUT at [\d.]+ s$")


def _lane():
    why = cplane.available("pico-display-pack-mp") or cplane.available("pico-ssd1306-5btn-mp")
    assert why is None, why  # the lane is part of make test: npm ci installs rp2040js


def _own_faults(profile, faults):
    if profiles.firmware_build(profiles.load_profile(profile)) == "micropython-pimoroni":
        return [f for f in faults if not PIMORONI_DISPON.match(f)]
    return list(faults)


# --- the lane's own parts --------------------------------------------------------------------

@pytest.mark.parametrize("build", sorted(BUILDS))
def test_the_image_mounts_the_lanes_littlefs(build, tmp_path):
    """The littlefs the lane builds is the one MicroPython mounts at /: the block geometry
    the image reports is mplane_board's, and the files are there, byte for byte."""
    _lane()
    profile, banner = BUILDS[build]
    assert mplane_board.uf2_for(profiles.load_profile(profile)) == mplane_board.UF2[build]
    # a name and a text beyond ASCII, typed with escapes (the REPL's line editor takes ASCII)
    name = "\\u00fcn\\u00efcode.txt"
    run = cplane.run(profile, [
        "type:\x02", "expect:" + banner,
        "type:import os, rp2\n",
        "type:print('GEO', rp2.Flash().ioctl(4, 0), rp2.Flash().ioctl(5, 0))\n",
        "expect:GEO ",
        "type:print('LS', sorted(os.listdir('/')), os.listdir('lib/probe') == ['{}'])\n".format(
            name), "expect:LS ",
        "type:print('TEXT', open('lib/probe/{}').read() == 'an {}')\n".format(
            name, name.replace(".txt", " line\\n")), "expect:TEXT ",
    ], files={"lib/probe/ünïcode.txt": "an ünïcode line\n".encode()}, bare=True, app=False,
        out=tmp_path, timeout=120)
    assert run.error is None and run.done, (run.error, run.transcript())
    text = "\n".join(run.lines)
    assert banner in text
    assert "GEO {} {}".format(mplane_board.BLOCK_COUNT, mplane_board.BLOCK_SIZE) in text
    assert "LS ['lib', 'settings.toml'] True" in text
    assert "TEXT True" in text


PACK_PROBE = b'''
import gc
import time

import framebuf
from picographics import DISPLAY_PICO_DISPLAY, PEN_P4, PicoGraphics

buf = bytearray(240 * 135 // 2)  # the board's pen type (mpparts.PicoGraphicsPanel)
d = PicoGraphics(display=DISPLAY_PICO_DISPLAY, pen_type=PEN_P4, rotate=0, buffer=buf)
pens = [d.create_pen(*rgb) for rgb in ((0, 0, 0), (255, 0, 0), (0, 255, 0), (0, 0, 255),
                                       (255, 255, 255))]
d.set_pen(pens[0])
d.clear()
d.set_pen(pens[1])
d.rectangle(0, 0, 40, 20)
d.set_pen(pens[2])
d.rectangle(200, 0, 40, 30)
fb = framebuf.FrameBuffer(buf, 240, 135, framebuf.GS4_HMSB)  # the buffer PicoGraphics sends
fb.fill_rect(0, 115, 60, 20, pens[3])
fb.fill_rect(101, 60, 29, 10, pens[4])  # odd edges: each half of a byte on its pixel
d.update()
gc.collect()
print("LBX 0 Probe free={} pre={} ms=0".format(gc.mem_free(), gc.mem_free()))
while True:
    time.sleep_ms(50)
'''
# what the probe drew, in the landscape PicoGraphics draws: (x, y, w, h, rgb)
PACK_RECTS = [(0, 0, 40, 20, (255, 0, 0)), (200, 0, 40, 30, (0, 255, 0)),
              (0, 115, 60, 20, (0, 0, 255)), (101, 60, 29, 10, (255, 255, 255))]

OLED_PROBE = b'''
import gc
import time

import framebuf
from machine import I2C, Pin

i2c = I2C(0, sda=Pin(4), scl=Pin(5), freq=400_000)
print("SCAN", i2c.scan())
for cmd in (0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, 63, 0xC8, 0xD3, 0x00, 0xDA, 0x12, 0xD5, 0x80,
            0xD9, 0xF1, 0xDB, 0x30, 0x81, 0xFF, 0xA4, 0xA6, 0x8D, 0x14, 0xAF):
    i2c.writeto(0x3C, bytes((0x80, cmd)))
buf = bytearray(128 * 8)
fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
fb.fill_rect(0, 0, 20, 10, 1)
fb.fill_rect(100, 50, 28, 14, 1)
fb.rect(40, 20, 30, 20, 1)
for cmd in (0x21, 0, 127, 0x22, 0, 7):
    i2c.writeto(0x3C, bytes((0x80, cmd)))
i2c.writevto(0x3C, (b"\\x40", buf))
gc.collect()
print("LBX 0 Probe free={} pre={} ms=0".format(gc.mem_free(), gc.mem_free()))
while True:
    time.sleep_ms(50)
'''


def _expected(size, rects, outline=()):
    from PIL import Image, ImageDraw

    im = Image.new("RGB", size)
    draw = ImageDraw.Draw(im)
    for x, y, w, h, rgb in rects:
        draw.rectangle((x, y, x + w - 1, y + h - 1), fill=rgb)
    for x, y, w, h, rgb in outline:
        draw.rectangle((x, y, x + w - 1, y + h - 1), outline=rgb)
    return im


def test_picographics_draws_what_the_glass_shows(tmp_path):
    """Pimoroni's driver, as it is (MADCTL, its window, RAMWR over SPI with DMA), read back by
    the lane's ST7789: what PicoGraphics drew, and what framebuf drew into the buffer
    PicoGraphics shares, is on the glass pixel for pixel, turned as the CircuitPython lane's
    Display Pack is (the glass is portrait)."""
    from PIL import ImageChops

    _lane()
    run = cplane.run("pico-display-pack-mp", ["shot:probe"], files={"main.py": PACK_PROBE},
                     bare=True, out=tmp_path, timeout=120)
    assert run.error is None and run.done and run.crashes == [], (run.error, run.transcript())
    shot = run.shots["probe"]
    assert shot["shows"] and _own_faults("pico-display-pack-mp", shot["faults"]) == [], shot
    from PIL import Image

    glass = Image.open(shot["path"]).convert("RGB")
    assert glass.size == (135, 240)
    landscape = glass.rotate(90, expand=True)
    assert ImageChops.difference(landscape, _expected((240, 135), PACK_RECTS)).getbbox() is None


def test_framebuf_over_i2c_draws_what_the_glass_shows(tmp_path):
    """Plain MicroPython's machine.I2C (its zero-length probe bit-banged, as CircuitPython's)
    and framebuf's MONO_VLSB page layout, read back by the lane's SSD1306, pixel for pixel."""
    from PIL import Image, ImageChops

    _lane()
    run = cplane.run("pico-ssd1306-5btn-mp", ["shot:probe"], files={"main.py": OLED_PROBE},
                     bare=True, out=tmp_path, timeout=120)
    assert run.error is None and run.done and run.crashes == [], (run.error, run.transcript())
    assert "SCAN [60]" in run.lines
    shot = run.shots["probe"]
    assert shot["shows"] and shot["faults"] == [], shot
    glass = Image.open(shot["path"]).convert("RGB")
    want = _expected((128, 64), [(0, 0, 20, 10, (255,) * 3), (100, 50, 28, 14, (255,) * 3)],
                     [(40, 20, 30, 20, (255,) * 3)])
    assert ImageChops.difference(glass, want).getbbox() is None


# --- the firmware ----------------------------------------------------------------------------

# one emulator run per profile: each profile's tests on one xdist worker (make test runs
# --dist loadgroup), the two profiles side by side
@pytest.fixture(scope="module", params=[
    pytest.param(p, marks=pytest.mark.xdist_group("mp-" + p)) for p in MP_PROFILES])
def opened(request, tmp_path_factory):
    _lane()
    return request.param, cplane.run(request.param, open_each_words(), hold=cplane.HOLD,
                                     out=tmp_path_factory.mktemp("shots"), timeout=900)


def test_the_board_draws_what_the_simulator_draws(opened, tmp_path):
    """The menu, cursor on the second game, as the MicroPython renderer (firmware/mplib) sent
    it to the panel, against the simulator's screenshot of the same moment: the same pixels
    (the renderer draws CircuitPython's own glyphs; the ST7789's 16-bit colours within their
    rounding)."""
    from PIL import Image

    from lunchbox.sim import Simulator

    profile, run = opened
    shot = run.shots["menu"]
    assert shot["path"], "the display controller was never written"
    assert shot["shows"] and _own_faults(profile, shot["faults"]) == [], shot
    board = Image.open(shot["path"]).convert("RGB")
    if profiles.load_profile(profile)["display"]["driver"] == "st7789":
        board = board.rotate(90, expand=True)  # the glass is portrait (lane.js keeps it so)
    sim = Simulator(profile, nvm_path=None, mode="headless")
    try:
        sim.run_script("wait:3000 next shot:{}".format(tmp_path / "sim.png"))
    finally:
        sim.close()
    picture = Image.open(tmp_path / "sim.png").convert("RGB")
    assert picture.size == board.size
    off = [(x, y) for y in range(board.size[1]) for x in range(board.size[0])
           if max(abs(p - q) for p, q in zip(board.getpixel((x, y)),
                                             picture.getpixel((x, y)))) > 8]
    assert off == [], "{} pixels differ, first {}".format(len(off), off[:5])


def test_boots_to_the_menu_and_opens_each_game(opened):
    profile, run = opened
    assert run.error is None and run.done, (run.error, run.transcript())
    assert run.crashes == [] and not [line for line in run.lines if "crash in" in line], (
        run.transcript())
    assert run.watchdogs == [], run.watchdogs
    assert run.passes and run.passes[0].top == "MainMenu"
    assert run.panel_shows and _own_faults(profile, run.panel_faults) == [], run.panel_faults
    want = []
    for _keys, top in OPEN_EACH:
        want += [("open", top), ("menu", "MainMenu")]
    assert cplane.tops_at_marks(run) == want, run.transcript()


def test_each_game_starts_in_a_fresh_vm(opened):
    """Each game open and each way back is a soft reset ("MPY: soft reboot"), and the menu's
    heap is the same every time it comes back: nothing of a game stays."""
    profile, run = opened
    assert sum(line.count("MPY: soft reboot") for line in run.lines) == 2 * len(OPEN_EACH)
    # the menu's first pass in each VM
    menus = [p.free for i, p in enumerate(run.passes)
             if p.top == "MainMenu" and (i == 0 or run.passes[i - 1].top != "MainMenu")]
    assert len(menus) == len(OPEN_EACH) + 1, menus
    # the power-on menu shows the first boot's "No saved data" toast (the renderer keeps what
    # it drew of it): the menus the games come back to are compared
    # compared: within 512 B (a game's module left behind would be kilobytes; what the menu
    # reads of the games' saves and where the collector last ran move it by up to ~300 B:
    # 272 B seen in a loaded run)
    back = menus[1:]
    assert max(back) - min(back) <= 512 and menus[0] <= min(back), menus
    print("menu free beside 24 KB held:", menus)


def test_the_docs_set_the_two_lanes_figures_side_by_side():
    """docs/firmware.md's side-by-side table is bench/lanes_side_by_side.py's, from the two
    lanes' recorded figures (bench/data/cp_lane.json, bench/data/mp_lane.json: bench/cp_heap.py
    with and without --runtime micropython), every flow on every profile of both: the docs'
    numbers are the lanes'."""
    sys.path.insert(0, str(cplane.ROOT / "bench"))
    import cp_heap
    import lanes_side_by_side as sbs

    recorded = json.loads(sbs.MP.read_text())
    assert {(r["flow"], r["profile"]) for r in recorded} == {
        (f["flow"], p) for f, p in cp_heap.jobs_of(cp_heap.heap_flows.FLOWS, MP_PROFILES)}
    assert all(r["hold"] == cplane.HOLD and r["mpy"] for r in recorded)
    docs = (cplane.ROOT / "docs" / "firmware.md").read_text()
    assert sbs.markdown(sbs.load(sbs.CP), sbs.load(sbs.MP)) in docs
    for line in sbs.summary(sbs.load(sbs.CP), sbs.load(sbs.MP)):
        assert line in docs


# --- what the lane boots: the profiles' runtime and the board's file set (no emulator) -------

def test_the_micropython_profiles_name_their_runtime_and_build():
    import tomllib

    for pid, build in (("pico-display-pack-mp", "micropython-pimoroni"),
                       ("pico-ssd1306-5btn-mp", "micropython")):
        p = profiles.load_profile(pid)
        assert profiles.firmware_build(p) == build
        settings = tomllib.loads(profiles.render_settings(p))
        assert settings["LUNCHBOX_RUNTIME"] == "micropython"
        assert "CIRCUITPY_HEAP_START_SIZE" not in settings  # CircuitPython's own key
    cp = profiles.load_profile("pico-display-pack")
    assert profiles.firmware_build(cp) == "circuitpython"
    assert "LUNCHBOX_RUNTIME" not in profiles.render_settings(cp)


@pytest.mark.parametrize("change,message", [
    ({"runtime": "lua"}, "runtime 'lua' is not one the firmware runs on (circuitpython, "
                         "micropython)"),
    ({"runtime": 1}, "runtime 1 is not one"),
    ({"chip": "RP2350", "board": "raspberry_pi_pico2"},
     "the firmware runs on MicroPython on the RP2040 only, not the RP2350"),
    ({"display": "320x240"}, "an st7789 is driven by Pimoroni's PicoGraphics "
                             "(DISPLAY_PICO_DISPLAY, the Pico Display Pack's 240x135), not "
                             "320x240"),
])
def test_a_runtime_the_firmware_cannot_use_is_named(change, message):
    import copy

    p = copy.deepcopy(profiles.load_profile("pico-display-pack-mp"))
    for key, value in change.items():
        if key == "display":
            p["display"]["width"], p["display"]["height"] = 320, 240
        else:
            p[key] = value
    problems = profiles.validate(p)
    assert [m for m in problems if message in m], problems


def test_the_profile_list_says_each_runtime(capsys):
    from lunchbox import cli

    assert cli.main(["profile", "list"]) == 0
    rows = {line.split()[0]: line.split()[1] for line in capsys.readouterr().out.splitlines()}
    assert rows["pico-display-pack-mp"] == rows["pico-ssd1306-5btn-mp"] == "micropython"
    assert rows["pico-display-pack"] == "circuitpython"
    assert cli.main(["profile", "show", "pico-display-pack-mp"]) == 0
    assert "runtime: MicroPython, Pimoroni's build (with PicoGraphics)" in (
        capsys.readouterr().out)


def test_the_board_file_set(tmp_path):
    """mpfiles.board_files: main.py as .py, the rest as MicroPython .mpy (v6.3), the renderer
    under lib/, settings.toml rendered; a CircuitPython profile, a tree without main.py and a
    compiler that is not MicroPython's each get one clear message."""
    from lunchbox.device import mpfiles
    from lunchbox.errors import LunchboxError

    files = mpfiles.board_files("pico-ssd1306-5btn-mp")
    assert files["main.py"].startswith(b'"""')
    assert files["lib/displayio.mpy"][:2] == b"M\x06"
    assert files["companion/app/loop.mpy"][:2] == b"M\x06"
    assert b'LUNCHBOX_RUNTIME = "micropython"' in files["settings.toml"]
    assert not [rel for rel in files if rel.endswith(".py") and rel != "main.py"]
    assert "code.py" not in files and "boot.py" not in files
    with pytest.raises(LunchboxError, match="runs on CircuitPython, not MicroPython"):
        mpfiles.board_files("pico-display-pack")
    (tmp_path / "firmware").mkdir()
    with pytest.raises(LunchboxError, match="main.py is missing"):
        mpfiles.board_files("pico-ssd1306-5btn-mp", root=tmp_path)
    with pytest.raises(LunchboxError, match="not MicroPython's mpy-cross"):
        mpfiles.find(cplane.MPY_CROSS)  # CircuitPython's
