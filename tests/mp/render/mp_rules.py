"""firmware/mplib's displayio rules, run on MicroPython (tests/test_mp_render.py runs every
test_ function here): what is drawn where, and bad input refused with CircuitPython's own
exception and words (shared-bindings/displayio/*.c, py/argcheck.c)."""

import bitmaptools
import displayio
import framebuf
import terminalio
import vectorio
from fbdisplay import FramebufferDisplay
from mp_shots import Panel

RED, GREEN, BLUE, WHITE = 0xFF0000, 0x00FF00, 0x0000FF, 0xFFFFFF


def raises(exc, words, fn, *args):
    try:
        fn(*args)
    except exc as e:
        got = str(e)
        if got != words:
            raise AssertionError("{}: {!r}, not {!r}".format(exc.__name__, got, words)) from None
        return
    raise AssertionError("no {} ({!r})".format(exc.__name__, words))


def colour_display(w=16, h=8):
    panel = Panel(w, h, "P8")
    return panel, FramebufferDisplay(panel)


def rgb(panel, x, y):
    i = y * panel.width + x
    if panel.format == "P4":  # two pixels a byte, the first in the high half
        return panel.colors[panel.buffer[i >> 1] >> (0 if i & 1 else 4) & 15]
    return panel.colors[panel.buffer[i]]


def bit(panel, x, y):
    return panel.buffer[(y >> 3) * panel.width + x] >> (y & 7) & 1


def rect(color, w, h, x=0, y=0):
    p = displayio.Palette(1)
    p[0] = color
    return vectorio.Rectangle(pixel_shader=p, width=w, height=h, x=x, y=y)


def setitem(obj, i, v):
    obj[i] = v


# --- bad input ------------------------------------------------------------------------------

def test_a_layer_added_twice_is_refused():
    g, h = displayio.Group(), displayio.Group()
    r = rect(RED, 2, 2)
    g.append(r)
    raises(ValueError, "Layer already in a group", g.append, r)
    raises(ValueError, "Layer already in a group", h.insert, 0, r)
    # even into the slot it already holds (Group.c adds before it removes)
    raises(ValueError, "Layer already in a group", setitem, g, 0, r)
    assert len(g) == 1 and len(h) == 0 and g[0] is r
    g.remove(r)
    h.append(r)  # free again once taken out
    raises(ValueError, "Layer must be a Group or TileGrid subclass", g.append, "text")
    raises(IndexError, "Group index out of range", g.pop)
    raises(IndexError, "Group index out of range", g.insert, 5, rect(RED, 1, 1))
    raises(ValueError, "object not in sequence", g.remove, r)


def test_a_group_shown_twice_is_refused():
    _, drv = colour_display()
    g = displayio.Group()
    drv.root_group = g
    drv.root_group = g  # the group it shows: accepted
    other = displayio.Group()
    other.append(displayio.Group())
    raises(ValueError, "Group already used", setattr, drv, "root_group", other[0])
    raises(ValueError, "Layer already in a group", other.append, g)
    drv.root_group = None
    other.append(g)  # let go by the display


def test_an_unknown_palette_index_is_refused():
    p = displayio.Palette(2)
    raises(IndexError, "Palette index out of range", setitem, p, 2, RED)
    raises(IndexError, "Palette index out of range", p.__getitem__, 5)
    raises(IndexError, "Palette index out of range", p.make_transparent, 2)
    raises(TypeError, "color must be between 0x000000 and 0xffffff", setitem, p, 0, 0x1000000)
    p[-1] = GREEN  # from the end, as displayio allows
    assert p[1] == GREEN and len(p) == 2


def test_a_tile_out_of_range_is_refused():
    sheet = displayio.Bitmap(8, 4, 2)  # two 4x4 tiles
    grid = displayio.TileGrid(sheet, pixel_shader=displayio.Palette(2), width=3, height=2,
                              tile_width=4, tile_height=4)
    raises(ValueError, "tile must be 0-1", setitem, grid, (0, 0), 2)
    raises(IndexError, "Tile index out of bounds", setitem, grid, (3, 0), 1)
    raises(IndexError, "Tile index out of bounds", setitem, grid, 6, 1)
    raises(IndexError, "Tile index out of bounds", grid.__getitem__, (0, 2))
    grid[5] = 1
    assert grid[2, 1] == 1 and grid[0, 0] == 0
    raises(ValueError, "Tile width must exactly divide bitmap width",
           lambda: displayio.TileGrid(sheet, pixel_shader=displayio.Palette(2), tile_width=3))


def test_a_bitmap_value_or_place_out_of_range_is_refused():
    b = displayio.Bitmap(5, 3, 3)  # 2 bits a value: 0-3
    raises(ValueError, "value must be 0-3", setitem, b, (0, 0), 4)
    raises(IndexError, "x must be 0-4", setitem, b, (5, 0), 1)
    raises(IndexError, "y must be 0-2", b.__getitem__, (0, 3))
    raises(IndexError, "index must be 0-14", b.__getitem__, 15)
    raises(ValueError, "out of range of target", bitmaptools.fill_region, b, 0, 0, 2, 2, 4)
    raises(ValueError, "x2 must be 3-5", bitmaptools.fill_region, b, 3, 0, 2, 2, 1)
    bitmaptools.fill_region(b, 1, 1, 4, 3, 3)
    assert [b[x, 2] for x in range(5)] == [0, 3, 3, 3, 0] and b[1, 0] == 0


def test_the_font_is_read_only():
    b = terminalio.FONT.bitmap
    raises(RuntimeError, "Read-only", setitem, b, (0, 0), 1)
    raises(RuntimeError, "Read-only", bitmaptools.fill_region, b, 0, 0, 1, 1, 1)


def test_a_shape_is_at_least_a_pixel():
    raises(ValueError, "width must be >= 1", rect, RED, 0, 2)
    r = rect(RED, 2, 2)
    raises(ValueError, "height must be >= 1", setattr, r, "height", 0)
    raises(ValueError, "scale must be >= 1", setattr, displayio.Group(), "scale", 0)


def test_a_panel_of_another_format_is_refused():
    panel = Panel(8, 8, "P8")
    panel.format = "RGB565"
    raises(ValueError, "panel format must be 'P8', 'P4' or 'MONO', not 'RGB565'",
           FramebufferDisplay, panel)


# --- what is drawn ----------------------------------------------------------------------------

def test_layers_draw_in_order_offset_by_their_groups():
    panel, drv = colour_display()
    root = displayio.Group()
    root.append(rect(BLUE, 16, 8))
    g = displayio.Group(x=3, y=2)
    inner = displayio.Group(x=1, y=1)
    inner.append(rect(RED, 2, 2, x=1))  # at 3 + 1 + 1, 2 + 1
    g.append(inner)
    root.append(g)
    drv.root_group = root
    drv.refresh()
    assert rgb(panel, 5, 3) == RED and rgb(panel, 6, 4) == RED
    assert rgb(panel, 4, 3) == BLUE and rgb(panel, 7, 3) == BLUE and rgb(panel, 5, 5) == BLUE
    g.hidden = True
    drv.refresh()
    assert rgb(panel, 5, 3) == BLUE
    g.hidden = False
    root.append(rect(GREEN, 1, 1, x=5, y=3))  # later layers over earlier ones
    drv.refresh()
    assert rgb(panel, 5, 3) == GREEN and rgb(panel, 6, 3) == RED
    assert panel.shows == 3


def test_transparent_entries_and_values_past_the_palette_leave_what_is_under():
    panel, drv = colour_display()
    root = displayio.Group()
    root.append(rect(BLUE, 16, 8))
    b = displayio.Bitmap(4, 1, 4)
    for x in range(4):
        b[x, 0] = x  # 0 transparent, 1 red, 2 green, 3: past the 3-entry palette
    p = displayio.Palette(3)
    p[1] = RED
    p[2] = GREEN
    p.make_transparent(0)
    root.append(displayio.TileGrid(b, pixel_shader=p))
    drv.root_group = root
    drv.refresh()
    assert [rgb(panel, x, 0) for x in range(4)] == [BLUE, RED, GREEN, BLUE]
    # palette changes after a draw show at the next refresh
    p[1] = WHITE
    p.make_opaque(0)
    drv.refresh()
    assert [rgb(panel, x, 0) for x in range(3)] == [0, WHITE, GREEN]


def test_tiles_are_cut_again_when_the_sheet_changes():
    panel, drv = colour_display()
    sheet = displayio.Bitmap(4, 2, 2)  # two 2x2 tiles
    p = displayio.Palette(2)
    p[1] = RED
    grid = displayio.TileGrid(sheet, pixel_shader=p, width=2, height=1, tile_width=2,
                              tile_height=2, default_tile=1)
    root = displayio.Group()
    root.append(grid)
    drv.root_group = root
    drv.refresh()
    assert rgb(panel, 0, 0) == 0 and rgb(panel, 3, 1) == 0
    sheet[2, 0] = 1  # tile 1's top left pixel
    drv.refresh()
    assert rgb(panel, 0, 0) == RED and rgb(panel, 2, 0) == RED and rgb(panel, 1, 0) == 0
    grid[0] = 0
    drv.refresh()
    assert rgb(panel, 0, 0) == 0 and rgb(panel, 2, 0) == RED


def test_a_scaled_group_scales_its_tiles_and_places_its_shapes():
    panel, drv = colour_display(24, 12)
    b = displayio.Bitmap(2, 1, 2)
    b[1, 0] = 1
    p = displayio.Palette(2)
    p[1] = RED
    g = displayio.Group(scale=3, x=1, y=1)
    g.append(displayio.TileGrid(b, pixel_shader=p, x=1))  # pixel (1, 0) -> 3x3 at 7, 1
    g.append(rect(GREEN, 2, 1, x=5, y=2))  # placed at 1 + 15, 1 + 6; its size unscaled
    root = displayio.Group()
    root.append(g)
    drv.root_group = root
    drv.refresh()
    lit = [(x, y) for y in range(12) for x in range(24) if rgb(panel, x, y) == RED]
    assert lit == [(x, y) for y in range(1, 4) for x in range(7, 10)]
    assert [(x, y) for y in range(12) for x in range(24) if rgb(panel, x, y) == GREEN] == [
        (16, 7), (17, 7)]


def test_text_at_scale_1_and_2_is_the_font():
    from companion.screen.textlabel import Label

    panel, drv = colour_display(40, 30)
    root = displayio.Group()
    root.append(Label(terminalio.FONT, text="A", color=WHITE))
    root.append(Label(terminalio.FONT, text="A", color=RED, scale=2, anchored_position=(10, 4)))
    drv.root_group = root
    drv.refresh()
    sheet = terminalio.FONT.bitmap
    t = ord("A") - 32
    for y in range(12):
        for x in range(6):
            on = sheet[t * 6 + x, y]
            assert rgb(panel, x, y) == (WHITE if on else 0)
            for dy in (0, 1):
                for dx in (0, 1):
                    assert rgb(panel, 10 + 2 * x + dx, 4 + 2 * y + dy) == (RED if on else 0)


def test_mono_black_white_and_transparent_in_one_palette():
    panel = Panel(8, 8, "MONO")
    drv = FramebufferDisplay(panel)
    root = displayio.Group()
    root.append(rect(WHITE, 8, 4))  # the top half lit
    b = displayio.Bitmap(3, 8, 3)
    for y in range(8):
        b[1, y] = 1
        b[2, y] = 2
    p = displayio.Palette(3)
    p.make_transparent(0)
    p[1] = 0x000000
    p[2] = 0xC0C0C0  # lit (displayio's luma >= 128)
    root.append(displayio.TileGrid(b, pixel_shader=p, x=2))
    drv.root_group = root
    drv.refresh()
    assert [bit(panel, x, 1) for x in range(8)] == [1, 1, 1, 0, 1, 1, 1, 1]
    assert [bit(panel, x, 6) for x in range(8)] == [0, 0, 0, 0, 1, 0, 0, 0]


def test_tiles_filled_as_boxes_draw_as_blitted_ones():
    """A tile of few boxes of one value is filled box by box (displayio.Bitmap._tile): the
    same picture as a blit, transparent values included, on both panel formats."""
    sheet = displayio.Bitmap(64, 8, 3)  # two 32x8 tiles
    bitmaptools.fill_region(sheet, 0, 0, 32, 8, 1)  # tile 0: 1 with a 2 band and a 0 hole
    bitmaptools.fill_region(sheet, 0, 2, 32, 4, 2)
    bitmaptools.fill_region(sheet, 10, 5, 20, 7, 0)
    for x in range(32, 64):  # tile 1: a checkerboard (too many boxes: blitted)
        for y in range(8):
            sheet[x, y] = (x + y) % 3
    for fmt in ("P8", "P4", "MONO"):
        panel = Panel(80, 8, fmt)
        drv = FramebufferDisplay(panel)
        p = displayio.Palette(3)
        p[1] = WHITE
        p[2] = 0x000000 if fmt == "MONO" else RED
        p.make_transparent(0)
        root = displayio.Group()
        root.append(rect(WHITE if fmt == "MONO" else GREEN, 80, 8))
        grid = displayio.TileGrid(sheet, pixel_shader=p, width=2, tile_width=32,
                                  tile_height=8, x=3)
        grid[1] = 1
        root.append(grid)
        drv.root_group = root
        drv.refresh()
        src = sheet._tiles(32, 8, 1)
        assert type(src[0]) is bytes and type(src[1]) is framebuf.FrameBuffer
        under = 1 if fmt == "MONO" else GREEN
        for y in range(8):
            for x in range(80):
                v = sheet[x - 3, y] if 3 <= x < 67 else 0
                if fmt != "MONO":
                    want = (under, WHITE, RED)[v]
                    assert rgb(panel, x, y) == want, (x, y)
                else:
                    assert bit(panel, x, y) == (1, 1, 0)[v], (x, y)


def test_a_row_of_one_value_tiles_is_one_box():
    sheet = displayio.Bitmap(64, 8, 2)  # tile 0 all 1, tile 1 all 0 (transparent)
    bitmaptools.fill_region(sheet, 0, 0, 32, 8, 1)
    p = displayio.Palette(2)
    p[1] = RED
    p.make_transparent(0)
    grid = displayio.TileGrid(sheet, pixel_shader=p, width=5, height=2, tile_width=32,
                              tile_height=8)
    for i in (2, 4, 5, 6):
        grid[i] = 1
    panel, drv = colour_display(160, 16)
    root = displayio.Group()
    root.append(rect(BLUE, 160, 16))
    root.append(grid)
    drv.root_group = root
    drv.refresh()
    for y, row in ((0, (RED, RED, BLUE, RED, BLUE)), (8, (BLUE, BLUE, RED, RED, RED))):
        for cell in range(5):
            for x in (cell * 32, cell * 32 + 31):
                assert rgb(panel, x, y) == row[cell] and rgb(panel, x, y + 7) == row[cell]


def test_brightness_goes_to_the_panel_or_raises_attribute_error():
    panel, drv = colour_display()
    raises(AttributeError, "this panel cannot dim", setattr, drv, "brightness", 0.5)
    got = []
    panel.brightness = got.append
    drv.brightness = 0.25
    assert got == [0.25] and drv.brightness == 0.25
    raises(ValueError, "brightness must be 0-1", setattr, drv, "brightness", 1.5)
    assert drv.bus is None and drv.width == 16 and drv.height == 8


def test_nothing_shown_is_black():
    panel, drv = colour_display()
    root = displayio.Group()
    root.append(rect(RED, 16, 8))
    drv.root_group = root
    drv.refresh()
    root.hidden = True
    drv.refresh()
    assert rgb(panel, 3, 3) == 0
    drv.root_group = None
    drv.refresh()
    assert rgb(panel, 3, 3) == 0


def _stripes(colors):
    """A 2-pixel-wide stripe of each colour, side by side."""
    root = displayio.Group()
    for i in range(len(colors)):
        root.append(rect(colors[i], 2, 4, x=2 * i))
    return root


def test_a_4_bit_panel_gives_its_16_pens_to_the_frame_that_needs_them():
    """P4 (the Display Pack's PicoGraphics pen type): 16 pens. A frame bringing colours when
    all are taken is drawn again on pens given to its own colours: each shows exactly."""
    panel = Panel(64, 4, "P4")
    drv = FramebufferDisplay(panel)
    first = [0x000000] + [0x100000 * i + 0x0F for i in range(1, 15)]  # 15 colours, black first
    drv.root_group = _stripes(first)
    drv.refresh()
    assert drv.redraws == 0 and len(panel.colors) == 15
    assert [rgb(panel, 2 * i, 0) for i in range(15)] == first
    # another screen of 12 colours, 10 of them new: 25 in all, 12 on the glass
    second = [0x000000, first[1]] + [0x00FF00 + i for i in range(10)]
    drv.root_group = _stripes(second)
    drv.refresh()
    assert drv.redraws == 1 and not panel.pens.spilled
    assert [rgb(panel, 2 * i, 0) for i in range(12)] == second
    assert len(panel.colors) == 16 and sorted(set(panel.colors[:12])) == sorted(second)
    # the first screen again: its colours back, exactly
    drv.root_group = _stripes(first)
    drv.refresh()
    assert drv.redraws == 2
    assert [rgb(panel, 2 * i, 0) for i in range(15)] == first
    # a frame of 18 colours: 16 shown exactly, the last two in their nearest pen (no error)
    many = [0x000000] + [0x0F0F00 * i for i in range(1, 18)]
    drv.root_group = _stripes(many)
    drv.refresh()
    assert [rgb(panel, 2 * i, 0) for i in range(16)] == many[:16]
    assert rgb(panel, 32, 0) == many[15] and rgb(panel, 34, 0) == many[15]
