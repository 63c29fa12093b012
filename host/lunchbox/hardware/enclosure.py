"""A case for each build: laser-cut (or 3D-printed) plates stacked into a sandwich, drawn from
the parts' sizes, written as hardware/enclosure/<build>.svg by `lunchbox profile docs`.

The stack, bottom to top: a solid base, frames (rings) as many as the parts are tall, and a
lid with windows for the screen and the buttons; four M3 bolts through the corners hold it.
The LiPo cell lies on the base, the electronics on it (a foam pad between), and one frame
few frames have a notch at the Pico's USB end for the cable (and the LiPo SHIM's button
beside it).

Sizes are millimetres, from the parts' datasheets and sellers' drawings (PART_SIZES); none of
it has been cut and tried yet (hardware/README.md says so): print the SVG at 100 % on paper
first and hold it over your build.
"""

MATERIAL = 3.0  # plate thickness: 3 mm acrylic or plywood
WALL = 8.0  # the ring's width: room for the bolt holes
BOLT_HOLE = 3.2  # M3 clearance
BOLT_INSET = 4.0  # a bolt hole's centre from the plate's corner edges
CLEAR = 2.0  # between a part and the wall, each side
CORNER = 2.0  # the plates' corner radius

# (length, width, height) in mm: what the cavity must hold
PART_SIZES = {
    # Raspberry Pi Pico / Pico 2 datasheets: 51 x 21 mm board; with the Display Pack on its
    # headers Pimoroni gives about 53 x 25 x 9 mm (the pack is a little larger than the Pico)
    "display pack on a Pico": (53.0, 25.0, 9.5),
    # the LiPo cell in the BOM: Adafruit's 1200 mAh LP-503562 is 62 x 35 x 5 mm
    "LiPo cell": (62.0, 35.0, 5.0),
    "foam pad": (0.0, 0.0, 1.0),
    # a half-size breadboard (400 holes) 82.5 x 54.5 x 8.5 mm; on it the OLED module on its
    # header pins (its glass about 11 mm over the board) and the 12 mm buttons with caps
    "half-size breadboard": (82.5, 54.5, 8.5),
    "OLED and buttons over the breadboard": (0.0, 0.0, 11.0),
}

BUILDS = (
    {
        "id": "display-pack",
        "title": "Display Pack build, with the LiPo cell",
        "profiles": ("pico-display-pack", "pico2-display-pack"),
        "stack": ("LiPo cell", "foam pad", "display pack on a Pico"),
        # the lid's one window: the pack's whole face (its screen and its four buttons A B X
        # Y at the corners) sits in it, so no hole has to meet a button exactly
        "windows": (("the Display Pack's face", 54.0, 26.0),),
        "buttons": (),
        # the pack lies against the USB wall (the cable comes in there)
        "electronics": (53.0, 25.0),
    },
    {
        "id": "oled",
        "title": "OLED build, with the LiPo cell",
        "profiles": ("pico-ssd1306-5btn", "pico2-ssd1306-5btn"),
        "stack": ("LiPo cell", "foam pad", "half-size breadboard",
                  "OLED and buttons over the breadboard"),
        # the SSD1306 0.96" module's glass is about 26.7 x 19.3 mm on a 27.3 x 27.8 mm board
        "windows": (("the OLED's glass", 27.0, 20.0),),
        # five 12 mm button caps in a row, six breadboard columns apart (15.24 mm)
        "buttons": (5, 13.0, 15.24),
        "electronics": (82.5, 54.5),
    },
)
NOTCH = 16.0  # the USB notch's width: a micro-B plug and a finger beside it
NOTCH_FRAMES = 3  # frames notched: 9 mm, a micro-B plug's moulding is about 8 mm tall


def _size(build):
    """The cavity (length, width, height) and the plates' outer (length, width)."""
    length = max(PART_SIZES[p][0] for p in build["stack"]) + 2 * CLEAR
    width = max(PART_SIZES[p][1] for p in build["stack"]) + 2 * CLEAR
    height = sum(PART_SIZES[p][2] for p in build["stack"])
    return (length, width, height), (length + 2 * WALL, width + 2 * WALL)


def frames(build):
    """How many ring frames the stack needs: the parts' height, rounded up to plates, and at
    least the notched ones."""
    height = _size(build)[0][2]
    n = int(height // MATERIAL)
    return max(NOTCH_FRAMES, n + 1 if n * MATERIAL < height else n)


def outer(build):
    """The case's outside (length, width, height) in mm: base + frames + lid."""
    (_, _, _), (ol, ow) = _size(build)
    return ol, ow, (frames(build) + 2) * MATERIAL


def size_text(build):
    ol, ow, oh = outer(build)
    return "{:g} x {:g} x {:g} mm".format(ol, ow, oh)


def bolt_length(build):
    """The M3 bolts: through the stack and a nut, in the 5 mm steps they are sold in."""
    need = outer(build)[2] + 4
    return int(-(-need // 5) * 5)


def bolt_holes(build):
    _, (ol, ow) = _size(build)
    return [(x, y) for x in (BOLT_INSET, ol - BOLT_INSET) for y in (BOLT_INSET, ow - BOLT_INSET)]


def lid_cuts(build):
    """The lid's openings: ``[("rect", x, y, w, h, what)]`` and ``[("circle", x, y, r,
    what)]``, in plate coordinates (x along the length, from the USB end)."""
    (cl, cw, _), (ol, ow) = _size(build)
    el, ew = build["electronics"]
    # the electronics lie CLEAR from the USB wall (x = WALL) and centred across
    x0, y0 = WALL + CLEAR, (ow - ew) / 2
    cuts = []
    for what, w, h in build["windows"]:
        if build["buttons"]:  # the OLED sits towards the far end, the buttons in front of it
            x = x0 + el - 12.0 - w
            y = (ow - h) / 2 - 8.0
        else:  # the pack's face over the pack itself
            x, y = x0 + (el - w) / 2, y0 + (ew - h) / 2
        cuts.append(("rect", x, y, w, h, what))
    if build["buttons"]:
        n, d, pitch = build["buttons"]
        y = ow / 2 + 14.0
        first = x0 + el / 2 - (n - 1) * pitch / 2
        for i in range(n):
            cuts.append(("circle", first + i * pitch, y, d / 2, "button {}".format(i + 1)))
    return cuts


def svg(build):
    """The cutting drawing: lid, frames (one drawn, 'cut N'), notched frame, base; red lines
    are cuts (0.1 mm), black text and dimensions are for reading, not cutting."""
    (cl, cw, ch), (ol, ow) = _size(build)
    n = frames(build)
    gap = 10.0
    plates = [("lid", "lid"), ("frame", "frame, cut {}".format(n - NOTCH_FRAMES)),
              ("notched", "frame with the USB notch, cut {}".format(NOTCH_FRAMES)),
              ("base", "base")]
    page_w = max(2 * ol + 3 * gap, 200.0)
    page_h = 2 * ow + 3 * gap + 70.0
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<svg xmlns="http://www.w3.org/2000/svg" width="{0:g}mm" height="{1:g}mm" '
           'viewBox="0 0 {0:g} {1:g}" font-family="DejaVu Sans, Arial, sans-serif">'.format(
               page_w, page_h),
           '<rect width="{:g}" height="{:g}" fill="#ffffff"/>'.format(page_w, page_h),
           _label(gap, 8, "Lunchbox case: " + build["title"], 4.2, "bold"),
           _label(gap, 14, "Profiles {}. Generated by `lunchbox profile docs` (host/lunchbox/"
                  "hardware/enclosure.py).".format(", ".join(build["profiles"])), 2.6),
           _label(gap, 18, "Millimetres. Print at 100 % on paper and hold it over your build "
                  "before cutting: red lines are cuts.", 2.6)]
    for k, (kind, name) in enumerate(plates):
        px = gap + (k % 2) * (ol + gap)
        py = 26 + (k // 2) * (ow + gap + 8)
        out.append(_label(px, py - 2, name, 3.2, "bold"))
        out.append(_cut_rect(px, py, ol, ow, CORNER))
        for bx, by in bolt_holes(build):
            out.append(_cut_circle(px + bx, py + by, BOLT_HOLE / 2))
        if kind in ("frame", "notched"):
            inner = _cut_rect(px + WALL, py + WALL, cl, cw, 1.0)
            if kind == "notched":  # the USB wall (x = 0) opened in the middle
                nw = NOTCH
                y0 = py + (ow - nw) / 2
                out.append(inner)
                out.append('<rect x="{:g}" y="{:g}" width="{:g}" height="{:g}" fill="none" '
                           'stroke="#ff0000" stroke-width="0.1"/>'.format(
                               px - 0.0, y0, WALL, nw))
                out.append(_label(px + 1, y0 - 1.5, "USB", 2.4))
            else:
                out.append(inner)
        if kind == "lid":
            for cut in lid_cuts(build):
                if cut[0] == "rect":
                    _, x, y, w, h, what = cut
                    out.append(_cut_rect(px + x, py + y, w, h, 0.5))
                    out.append(_label(px + x, py + y + h + 3.2, "{} {:g} x {:g}".format(
                        what, w, h), 2.4))
                else:
                    _, x, y, r, what = cut
                    out.append(_cut_circle(px + x, py + y, r))
            out.append(_label(px + WALL + 1, py + WALL - 2, "USB end (left)", 2.4))
        out.append(_label(px, py + ow + 4.5, "{:g} x {:g}".format(ol, ow), 2.6))
    ty = 26 + 2 * (ow + gap + 8) + 2
    lines = [
        "Cut from {:g} mm sheet: 1 lid, {} frames ({} plain, {} with the USB notch), 1 base; "
        "4 x M3 bolts {:g} mm long with nuts.".format(MATERIAL, n, n - NOTCH_FRAMES,
                                                     NOTCH_FRAMES, bolt_length(build)),
        "Inside: {:g} x {:g} mm, {:g} mm tall; outside: {}.".format(
            cl, cw, n * MATERIAL, size_text(build)),
        "The parts, bottom up: {}.".format(", ".join(
            "{} {:g} mm".format(p, PART_SIZES[p][2]) for p in build["stack"])),
        "The notched frames go where the Pico's USB socket is, the plain ones above and below;",
        "a thicker foam pad brings the top of the parts up to the lid.",
    ]
    for i, line in enumerate(lines):
        out.append(_label(gap, ty + i * 5, line, 2.8))
    return "\n".join(out + ["</svg>"]) + "\n"


def _label(x, y, text, size, weight="normal"):
    text = str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return ('<text x="{:g}" y="{:g}" font-size="{:g}" font-weight="{}" fill="#000000">{}'
            '</text>'.format(round(x, 2), round(y, 2), size, weight, text))


def _cut_rect(x, y, w, h, r):
    return ('<rect x="{:g}" y="{:g}" width="{:g}" height="{:g}" rx="{:g}" fill="none" '
            'stroke="#ff0000" stroke-width="0.1"/>'.format(round(x, 2), round(y, 2),
                                                          round(w, 2), round(h, 2), r))


def _cut_circle(x, y, r):
    return ('<circle cx="{:g}" cy="{:g}" r="{:g}" fill="none" stroke="#ff0000" '
            'stroke-width="0.1"/>'.format(round(x, 2), round(y, 2), round(r, 2)))


def files(directory):
    """``{path: text}`` of every case drawing, for `lunchbox profile docs`."""
    return {directory / "{}.svg".format(b["id"]): svg(b) for b in BUILDS}
