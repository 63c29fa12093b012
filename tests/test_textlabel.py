"""companion/textlabel.Label: one TileGrid a line over the built-in font's glyph sheet, placed
by its anchor like adafruit_display_text's label."""

from lunchbox.sim import setup_environment

setup_environment("headless")

import terminalio  # noqa: E402

from companion.screen.textlabel import Label  # noqa: E402


def tiles(row):
    return [row[k] for k in range(row.width)]


def test_one_tilegrid_a_line_and_the_glyphs_are_the_fonts():
    lab = Label(terminalio.FONT, text="Hi\nthere", color=0x00FF00)
    assert len(lab) == 2 and [r.width for r in lab._rows] == [2, 5]
    assert tiles(lab._rows[0]) == [terminalio.FONT.get_glyph(ord(c)).tile_index for c in "Hi"]
    assert lab.bounding_box == (0, 0, 30, 24)
    assert lab.color == 0x00FF00
    lab.color = 0xFF0000
    assert lab._palette[1] == 0xFF0000


def test_text_grows_shrinks_and_blanks():
    lab = Label(terminalio.FONT, text="ab")
    first = lab._rows[0]
    lab.text = "a"
    assert lab._rows[0] is first and tiles(first)[1] == lab._space  # reused, padded
    assert lab.bounding_box == (0, 0, 6, 12)
    lab.text = "longer text"
    assert lab._rows[0].width == 11 and lab.text == "longer text"
    lab.text = "one\ntwo\nthree"
    lab.text = "one"
    assert len(lab) == 1 and len(lab._rows) == 1
    lab.text = ""
    assert lab.bounding_box == (0, 0, 0, 0)
    lab.text = "\u2603"  # not in the font: shown as "?"
    row = tiles(lab._rows[0])
    assert row[0] == terminalio.FONT.get_glyph(ord("?")).tile_index
    assert set(row[1:]) == {lab._space}  # the rest of the wider grid is blank


def test_anchor_places_the_box_in_scaled_pixels():
    lab = Label(terminalio.FONT, text="abcd", scale=2, anchor_point=(0.5, 0.5),
                anchored_position=(100, 50))
    assert (lab.x, lab.y) == (100 - 24, 50 - 12)
    lab.anchor_point = (1, 0)
    assert (lab.x, lab.y) == (100 - 48, 50)
    lab.anchored_position = (60, 10)
    assert (lab.x, lab.y) == (12, 10)
    lab.text = "ab"  # the anchor holds when the text changes
    assert (lab.x, lab.y) == (60 - 24, 10)


def test_line_spacing():
    lab = Label(terminalio.FONT, text="a\nb\nc", line_spacing=1.25)
    assert [r.y for r in lab._rows] == [0, 15, 30]
    assert lab.bounding_box == (0, 0, 6, 42)


def test_background_turns_opaque_and_back():
    lab = Label(terminalio.FONT, text="ab")
    assert lab.background is None and lab._palette.is_transparent(0)
    lab.background = 0x123456
    assert lab.background == 0x123456 and not lab._palette.is_transparent(0)
    assert lab._palette[0] == 0x123456
    lab.background = None
    assert lab.background is None and lab._palette.is_transparent(0)
    assert not Label(terminalio.FONT, text="x", background=0)._palette.is_transparent(0)


def test_cells_is_the_grids_width_blanks_included():
    lab = Label(terminalio.FONT, text="abcd")
    assert lab.cells == 4
    lab.text = "ab"  # the grid keeps its width, the rest blank
    assert lab.cells == 4
    lab.text = "abcdef"
    assert lab.cells == 6



def test_every_character_gets_the_fonts_own_tile():
    """The built-in font's printable ASCII is written without a get_glyph() a character (its
    tiles are in code order); each is still the tile the font gives, and a character the font
    has not is "?"."""
    printable = "".join(chr(o) for o in range(32, 127))
    lab = Label(terminalio.FONT, text=printable + "\u00e9")
    font = terminalio.FONT
    want = [font.get_glyph(ord(c)).tile_index for c in printable] + [font.get_glyph(63).tile_index]
    assert tiles(lab._rows[0]) == want


def test_a_font_with_its_own_order_is_asked_for_each_tile():
    class Reversed:
        """A font whose sheet holds printable ASCII backwards."""

        bitmap = terminalio.FONT.bitmap

        def get_bounding_box(self):
            return terminalio.FONT.get_bounding_box()

        def get_glyph(self, codepoint):
            class Glyph:
                tile_index = 126 - codepoint if 32 <= codepoint <= 126 else None
            return Glyph() if 32 <= codepoint <= 126 else None

    lab = Label(Reversed(), text="A~ ")
    assert tiles(lab._rows[0]) == [126 - 65, 0, 94]
    lab = Label(terminalio.FONT, text="A")  # the built-in font after it: in order again
    assert tiles(lab._rows[0]) == [33]
