"""Write the glyph table of firmware/mplib/terminalio.py from the simulator's built-in font.

The simulator draws text with Blinka's terminalio.FONT (Terminus 6x12, the font CircuitPython
builds its own terminalio.FONT from), laid out as the board has it by host/lunchbox/sim/font.py:
printable ASCII, one 6x12 tile each, in code order. MicroPython gets the same pixels as one
bytes object: 12 bytes a glyph, a byte a row, the leftmost pixel in the top bit (framebuf's
MONO_HLSB, so a glyph is blitted straight from the table).

    .venv/bin/python tests/mp/render/make_font.py          # rewrite the table
    .venv/bin/python tests/mp/render/make_font.py --check  # exit 1 if it differs

tests/test_mp_render.py checks that the shipped table is what this makes.
"""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
TARGET = ROOT / "firmware" / "mplib" / "terminalio.py"
BEGIN = "# BEGIN GLYPHS"
END = "# END GLYPHS"
FIRST, LAST = 0x20, 0x7E
W, H = 6, 12


def glyph_rows():
    """The table: for each of ' '..'~', 12 row bytes (bit 7 = the cell's left pixel)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    for extra in (ROOT / "host", ROOT / "firmware"):
        if str(extra) not in sys.path:
            sys.path.append(str(extra))
    import terminalio

    from lunchbox.sim.font import SheetFont

    font = terminalio.FONT
    if not isinstance(font, SheetFont):
        font = SheetFont(font)
    if tuple(font.get_bounding_box()[:2]) != (W, H):
        raise SystemExit("the simulator's font is not {}x{}".format(W, H))
    sheet = font.bitmap
    out = bytearray()
    for cp in range(FIRST, LAST + 1):
        t = font.get_glyph(cp).tile_index
        for y in range(H):
            row = 0
            for x in range(W):
                if sheet[t * W + x, y]:
                    row |= 0x80 >> x
            out.append(row)
    return bytes(out)


def block(data):
    lines = [BEGIN + " (tests/mp/render/make_font.py writes this block: do not edit)",
             "_GLYPHS = ("]
    for i in range(len(data) // H):
        chunk = data[i * H:(i + 1) * H]
        lit = "".join("\\x{:02x}".format(b) for b in chunk)
        lines.append('    b"{}"  # {!r}'.format(lit, chr(FIRST + i)))
    lines += [")", END]
    return "\n".join(lines) + "\n"


def render(text, data):
    start = text.index(BEGIN)
    stop = text.index(END, start) + len(END) + 1
    return text[:start] + block(data) + text[stop:]


def main(argv):
    text = TARGET.read_text()
    new = render(text, glyph_rows())
    if "--check" in argv:
        if new != text:
            print("{} differs from the simulator's font: run {}".format(TARGET, __file__))
            return 1
        return 0
    TARGET.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
