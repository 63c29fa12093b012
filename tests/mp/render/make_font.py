"""Write the glyph table of firmware/mplib/terminalio.py from the simulator's built-in font.

The simulator draws text with Blinka's terminalio.FONT (Terminus 6x12, the font CircuitPython
builds its own terminalio.FONT from), laid out as the board has it by host/lunchbox/sim/font.py:
printable ASCII, one 6x12 tile each, in code order. MicroPython gets the same pixels as one
bytes object: 12 bytes a glyph, a byte a row, the leftmost pixel in the top bit (framebuf's
MONO_HLSB, so a glyph is blitted straight from the table), and the same pixels as rectangles
(drawn with fill_rect when a Group scales the text up: fewer calls than pixels).

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


def glyph_rects(rows):
    """One glyph's lit pixels as rectangles: each row's runs, a run carried down while the
    rows below have the very same run. (x, y, w, h), sorted; they cover each lit pixel once."""
    done, open_ = [], {}
    for y in range(H + 1):
        runs = []
        bits = rows[y] if y < H else 0
        x = 0
        while x < W:
            if bits & (0x80 >> x):
                e = x
                while e < W and bits & (0x80 >> e):
                    e += 1
                runs.append((x, e))
                x = e
            else:
                x += 1
        for run in sorted(open_):
            if run not in runs:
                y0 = open_.pop(run)
                done.append((run[0], y0, run[1] - run[0], y - y0))
        for run in runs:
            open_.setdefault(run, y)
    return sorted(done, key=lambda r: (r[1], r[0]))


def rect_table(data):
    """(_RECTS, _RECT_AT): every glyph's rectangles, two bytes each (x << 4 | y, w << 4 | h),
    glyph after glyph; where each glyph's start, two bytes (big-endian) a glyph and one more
    for the end."""
    rects = bytearray()
    at = bytearray()
    for i in range(len(data) // H):
        at += (len(rects) // 2).to_bytes(2, "big")
        for x, y, w, h in glyph_rects(data[i * H:(i + 1) * H]):
            rects += bytes((x << 4 | y, w << 4 | h))
    at += (len(rects) // 2).to_bytes(2, "big")
    return bytes(rects), bytes(at)


def _lines(name, data, per, comment=None):
    out = [name + " = ("]
    for i in range(0, len(data), per):
        lit = "".join("\\x{:02x}".format(b) for b in data[i:i + per])
        tail = "  # {!r}".format(comment(i // per)) if comment else ""
        out.append('    b"{}"{}'.format(lit, tail))
    return out + [")"]


def block(data):
    rects, at = rect_table(data)
    lines = [BEGIN + " (tests/mp/render/make_font.py writes this block: do not edit)"]
    lines += _lines("_GLYPHS", data, H, lambda i: chr(FIRST + i))
    lines += _lines("_RECTS", rects, 20)
    lines += _lines("_RECT_AT", at, 20)
    lines.append(END)
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
