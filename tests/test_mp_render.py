"""The MicroPython renderer (firmware/mplib) draws what the simulator draws, pixel for pixel.

Each scene of tests/mp/render/scenes.py (the firmware's own screens and widgets, driven by
its own App) is drawn twice: by MicroPython's WebAssembly port with firmware/mplib's
displayio on an in-memory panel (fbdisplay.FramebufferDisplay, P8 or MONO), and by the
simulator's display on CPython (Blinka's displayio, as `lunchbox sim` shows it). Every pixel
must be the same colour (the simulator's RGB565, the colour panel's pens turned into RGB565
the same way; on the mono panel, the bit displayio makes of the simulator's colour).

Also: the font table is the simulator's font (tests/mp/render/make_font.py), and bad input
raises what CircuitPython's displayio raises.
"""

import ast
import binascii
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import mplane

ROOT = Path(__file__).resolve().parent.parent
MPLIB = ROOT / "firmware" / "mplib"
RENDER = ROOT / "tests" / "mp" / "render"
sys.path.insert(0, str(RENDER))

import make_font  # noqa: E402 (tests/mp/render)
import scenes  # noqa: E402

LIBS = mplane.PORTABLE_LIBS + tuple(sorted(MPLIB.glob("*.py")))
HEAP = 1024 * 1024


def mp_run(code, timeout=900):
    """``code`` on the lane's interpreter (tests/mp/runner.mjs), firmware/mplib's modules in
    its /lib. Its output goes to a file, not a pipe: runner.mjs exits right after writing,
    and Node then drops what a pipe has not taken yet (64 KB), where a picture is 65 KB."""
    cmd = [mplane.node(), str(mplane.RUNNER), "--heap", str(HEAP), "--tests", str(RENDER),
           "--code", code]
    for lib in LIBS:
        cmd += ["--lib", str(lib)]
    with tempfile.TemporaryFile() as out:
        proc = subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, timeout=timeout,
                              cwd=str(ROOT))
        out.seek(0)
        output = out.read().decode()
    assert "@@CRASH" not in output and proc.returncode == 0, output[-4000:]
    return output


class Shot:
    def __init__(self, head):
        _, self.name, self.kind, w, h, self.format, warm, cold, shows = head.split()
        self.width, self.height = int(w), int(h)
        self.warm_us, self.cold_us, self.shows = int(warm), int(cold), int(shows)
        self.pens = []
        self.hex = []
        self.error = None

    @property
    def buffer(self):
        return binascii.unhexlify("".join(self.hex))


def parse_shots(output):
    shots = {}
    cur = None
    for line in output.splitlines():
        if line.startswith("@@SHOT "):
            cur = Shot(line)
        elif line.startswith("@@FAILED "):
            _, name, kind = line.split()
            cur = Shot("@@SHOT {} {} 0 0 - 0 0 0".format(name, kind))
            cur.error = []
        elif cur is not None and line.startswith("@@PENS"):
            cur.pens = [int(p, 16) for p in line.split()[1:]]
        elif cur is not None and line.startswith("@@HEX "):
            cur.hex.append(line[6:])
        elif cur is not None and line == "@@DONE":
            shots[(cur.name, cur.kind)] = cur
            cur = None
        elif cur is not None and cur.error is not None:
            cur.error.append(line)
    return shots


@pytest.fixture(scope="module")
def mp_shots():
    """Every scene on both displays, drawn on MicroPython (one interpreter run)."""
    return parse_shots(mp_run("import mp_shots\nmp_shots.all_shots()"))


# --- the simulator's picture --------------------------------------------------------------

def sim_picture(name, kind, width, height):
    """The scene on the simulator's display: {(x, y): (r, g, b)} as a flat RGB bytes."""
    import displayio
    import pygame

    from companion.screen import display as displays
    from lunchbox.sim import font
    from lunchbox.sim import hw as sim_hw

    font.install()
    displayio.release_displays()
    driver = sim_hw.make_display_class()(width, height, lazy=True, auto_refresh=False)
    try:
        d = displays.make(kind, driver, width, height)
        scenes.build(name, d)
        d.redraw()  # the whole screen, once, as a new screen is drawn
        d.refresh()
        driver.render()
        return pygame.image.tostring(driver.frame, "RGB")
    finally:
        displayio.release_displays()


def rgb565_seen(rgb):
    """A colour as the simulator shows it: RGB565 (Blinka's ColorConverter), widened again
    as blinka_displayio_pygamedisplay does."""
    r5, g6, b5 = rgb >> 19, (rgb >> 10) & 0x3F, (rgb >> 3) & 0x1F
    return (int(r5 * 255.0 / 31.0), int(g6 * 255.0 / 63.0), int(b5 * 255.0 / 31.0))


def luma_bit(r, g, b):
    return 1 if (r * 19 + g * 182 + b * 54) // 255 >= 128 else 0


def differences(shot, sim):
    """The pixels that differ: [(x, y, MicroPython's, the simulator's)]."""
    w, h = shot.width, shot.height
    buf = shot.buffer
    out = []
    if shot.format in ("P8", "P4"):
        seen = [rgb565_seen(c) for c in shot.pens]
        p4 = shot.format == "P4"  # two pixels a byte, the first in the high half
        for y in range(h):
            for x in range(w):
                i = y * w + x
                want = tuple(sim[3 * i:3 * i + 3])
                got = seen[buf[i >> 1] >> (0 if i & 1 else 4) & 15 if p4 else buf[i]]
                if got != want:
                    out.append((x, y, got, want))
    else:
        for y in range(h):
            for x in range(w):
                got = buf[(y >> 3) * w + x] >> (y & 7) & 1
                i = y * w + x
                want = luma_bit(*sim[3 * i:3 * i + 3])
                if got != want:
                    out.append((x, y, got, want))
    return out


# the colour panel as the Display Pack has it (P4, 16 pens), and a few scenes at P8 too
CASES = [(name, kind, w, h) for kind, w, h in scenes.DISPLAYS for name in scenes.SCENES]
CASES += [(name, "st7789-P8", 240, 135) for name in scenes.P8_SCENES]


@pytest.mark.parametrize("name,kind,width,height", CASES,
                         ids=["{}-{}".format(c[0], c[1]) for c in CASES])
def test_micropython_draws_what_the_simulator_draws(mp_shots, name, kind, width, height):
    shot = mp_shots.get((name, kind))
    assert shot is not None, "MicroPython printed no picture of {} on {}".format(name, kind)
    assert shot.error is None, "\n".join(shot.error)
    assert (shot.width, shot.height) == (width, height)
    assert shot.format == ("P8" if kind.endswith("-P8") else "P4" if kind == "st7789"
                           else "MONO")
    sim = sim_picture(name, kind.split("-")[0], width, height)
    lit = sum(1 for i in range(0, len(sim), 3) if sim[i:i + 3] != b"\0\0\0")
    assert lit > width * height // 50, "the simulator's picture is (nearly) black"
    diff = differences(shot, sim)
    assert not diff, "{} pixels differ, the first: {}".format(len(diff), diff[:10])
    assert shot.shows >= 2  # each refresh sent the buffer once


# --- the font -------------------------------------------------------------------------------

def shipped(name):
    tree = ast.parse((MPLIB / "terminalio.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and node.targets[0].id == name:
            return ast.literal_eval(node.value)
    raise AssertionError("terminalio.py has no " + name)


def test_the_font_table_is_the_simulators_font():
    made = make_font.glyph_rows()
    assert len(made) == 95 * 12
    assert made[:12] == bytes(12)  # the space is blank (terminalio._Sheet._blank)
    assert shipped("_GLYPHS") == made
    assert (shipped("_RECTS"), shipped("_RECT_AT")) == make_font.rect_table(made)
    # and the file is exactly what the generator writes (the block, its comments)
    assert make_font.main(["--check"]) == 0


def test_the_rectangles_cover_each_glyph_exactly():
    """Scaled-up text is filled from _RECTS: each lit pixel once, nothing else."""
    rows = shipped("_GLYPHS")
    rects, at = shipped("_RECTS"), shipped("_RECT_AT")
    for g in range(95):
        count = [[0] * 6 for _ in range(12)]
        a, b = int.from_bytes(at[2 * g:2 * g + 2], "big"), int.from_bytes(at[2 * g + 2:2 * g + 4],
                                                                          "big")
        for j in range(2 * a, 2 * b, 2):
            x, y, w, h = rects[j] >> 4, rects[j] & 15, rects[j + 1] >> 4, rects[j + 1] & 15
            assert w and h and x + w <= 6 and y + h <= 12, (g, x, y, w, h)
            for yy in range(y, y + h):
                for xx in range(x, x + w):
                    count[yy][xx] += 1
        for y in range(12):
            for x in range(6):
                lit = rows[g * 12 + y] >> (7 - x) & 1
                assert count[y][x] == lit, (chr(32 + g), x, y)


def test_the_font_reads_back_as_the_simulators_sheet():
    """terminalio.FONT on MicroPython: its bitmap's pixels, tiles and glyphs as the
    simulator's font has them."""
    import displayio  # noqa: F401 (Blinka's, for SheetFont)
    import terminalio

    from lunchbox.sim.font import SheetFont

    font = terminalio.FONT if isinstance(terminalio.FONT, SheetFont) else SheetFont(
        terminalio.FONT)
    sheet = font.bitmap
    # the pixels of a few glyphs read back through FONT.bitmap[x, y] on MicroPython
    picks = "A g~|"
    code = "\n".join([
        "import terminalio",
        "F = terminalio.FONT",
        "b = F.bitmap",
        "print('@@BOX', F.get_bounding_box(), b.width, b.height)",
        "for c in {!r}:".format(picks),
        "    t = F.get_glyph(ord(c)).tile_index",
        "    print('@@G', t, ''.join(str(b[t * 6 + x, y]) for y in range(12) for x in range(6)))",
        "print('@@NONE', F.get_glyph(0xe9), F.get_glyph(31), F.get_glyph(127))",
    ])
    out = mp_run(code)
    assert "@@BOX (6, 12) 570 12" in out
    assert "@@NONE None None None" in out
    got = [line.split()[1:] for line in out.splitlines() if line.startswith("@@G ")]
    assert len(got) == len(picks)
    for c, (t, bits) in zip(picks, got):
        assert int(t) == ord(c) - 32 == font.get_glyph(ord(c)).tile_index
        want = "".join(str(sheet[int(t) * 6 + x, y]) for y in range(12) for x in range(6))
        assert bits == want, c


# --- displayio's rules on MicroPython ------------------------------------------------------

def rule_names():
    tree = ast.parse((RENDER / "mp_rules.py").read_text())
    return sorted(n.name for n in tree.body
                  if isinstance(n, ast.FunctionDef) and n.name.startswith("test_"))


@pytest.fixture(scope="module")
def mp_rules():
    return mplane.run(libs=LIBS, tests_dir=RENDER, module="mp_rules", heap=HEAP, timeout=600)


@pytest.mark.parametrize("name", rule_names())
def test_micropython_displayio_rule(mp_rules, name):
    """tests/mp/render/mp_rules.py, each on MicroPython: bad input (a layer added twice, an
    unknown palette index, a tile out of range, ...) raises CircuitPython's exception and
    words; what is drawn where (order, offsets, scale, transparency, changes)."""
    assert name in mp_rules.passed, mp_rules.failed.get(name) or mp_rules.output[-3000:]


def test_the_simulator_refuses_a_layer_twice_in_the_same_words():
    """The words the MicroPython test expects are the simulator's too (its displayio made
    as strict as the board's: host/lunchbox/sim/strict.py)."""
    from lunchbox.sim import hw as sim_hw

    sim_hw.make_display_class()  # installs the strict rules
    import displayio
    import vectorio

    g = displayio.Group()
    p = displayio.Palette(1)
    r = vectorio.Rectangle(pixel_shader=p, width=2, height=2)
    g.append(r)
    with pytest.raises(ValueError, match="^Layer already in a group$"):
        g.append(r)
    with pytest.raises(ValueError, match="^Layer already in a group$"):
        g[0] = r
    with pytest.raises(IndexError, match="^Group index out of range$"):
        displayio.Group().pop()


def test_the_rules_hold_on_a_pico_build_of_micropython():
    """The same checks on plain MicroPython 1.24.1 for the Pico (in rp2040js), mplib as the
    .mpy files a board gets: the WebAssembly port has more than a Pico build (bytearray's
    str methods, blit from a (buffer, w, h, format) tuple), so this is where using one of
    those would fail."""
    import mpboard
    import pico_check

    out = pico_check.run(mpboard.PLAIN_UF2, True, pico_check.RULES)
    n = len(rule_names())
    assert "rules: {} of {} passed".format(n, n) in out, out
