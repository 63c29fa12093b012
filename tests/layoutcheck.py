"""The layout check: what a screen draws, read from the displayio tree the firmware built,
box by box in draw order (layouts are checked by boxes, not by Blinka's pixels, which are
not the device's: ARCHITECTURE.md; a bitmap's own pixels are read only where its box meets a
text).

``problems(root, width, height)`` lists, as messages:

- a text cut by the screen's edge (its box not wholly on the screen);
- a text drawn partly over a shape: what is under a text is its background, under all of it
  or none of it (a column marker reaching into a hint line);
- two texts whose boxes overlap (in any layer: a toast's text over a row it leaves visible);
- a shape drawn after a text (later in the tree: over it) that covers part of the text's ink
  or comes nearer its side than three blank pixels: a marker over a hint line, a toast's box
  cutting a row in half, the battery gauge touching the title. A shape that covers a text
  whole hides it (a toast over the rows it takes): that text is then not on the screen, and
  is not checked further.

Shapes: vectorio rectangles, tile grids (their opaque pixels), and text labels with opaque
cells (ui.text(bg=...)). Hidden layers are skipped."""

import displayio

GAP = 3  # blank pixels a later shape keeps from a text's ink at its sides


def _opaque(shader, index):
    try:
        return not shader.is_transparent(index)
    except AttributeError:  # a ColorConverter: every colour drawn
        return True


def _is_label(node):
    return hasattr(node, "bounding_box") and hasattr(node, "text")


_INK = {}  # (font, character) -> its ink's box in its cell, or None (a blank)


def _glyph_ink(font, ch):
    key = (id(font), ch)
    if key not in _INK:
        cw, chh = font.get_bounding_box()[:2]
        glyph = font.get_glyph(ord(ch)) or font.get_glyph(63)
        bmp = font.bitmap
        per = bmp.width // cw
        t = glyph.tile_index
        ink = None
        for y in range(chh):
            for x in range(cw):
                if bmp[(t % per) * cw + x, (t // per) * chh + y]:
                    ink = [x, y, x + 1, y + 1] if ink is None else [
                        min(ink[0], x), min(ink[1], y), max(ink[2], x + 1), max(ink[3], y + 1)]
        _INK[key] = ink
    return _INK[key]


def ink_box(node, text, box, scale):
    """The box of the pixels a text label inks of ``text`` (its lines from ``box``'s top
    left; the cells' blank margins left out), or ``box`` for a label whose font cannot be
    read."""
    font = getattr(node, "_font", None)
    if font is None or not hasattr(font, "bitmap"):
        return box
    cw = node._cw
    step = node._step
    out = None
    lines = text.split("\n")
    for i in range(len(lines)):
        for k in range(len(lines[i])):
            g = _glyph_ink(font, lines[i][k])
            if g is None:
                continue
            b = (k * cw + g[0], i * step + g[1], k * cw + g[2], i * step + g[3])
            out = list(b) if out is None else [min(out[0], b[0]), min(out[1], b[1]),
                                               max(out[2], b[2]), max(out[3], b[3])]
    if out is None:
        return None
    return (box[0] + out[0] * scale, box[1] + out[1] * scale, box[0] + out[2] * scale,
            box[1] + out[3] * scale)


def items(root):
    """[(kind, text, box, node, scale)] in draw order; kind "text" or "shape", a box the
    half-open screen pixels (x0, y0, x1, y1)."""
    out = []
    _walk(root, 0, 0, 1, out)
    return out


def _walk(node, ox, oy, scale, out):
    if getattr(node, "hidden", False):
        return
    x = ox + getattr(node, "x", 0) * scale
    y = oy + getattr(node, "y", 0) * scale
    if _is_label(node):
        s = scale * node.scale
        bx, by, bw, bh = node.bounding_box
        rows = list(node) if isinstance(node, displayio.Group) else []
        if len(rows) > 1 or any(r.hidden for r in rows):
            # several lines (a TileGrid each), some perhaps hidden (ui.Toast.cover): each
            # line shown on its own
            lines = node.text.split("\n")
            for i in range(min(len(rows), len(lines))):
                r = rows[i]
                if r.hidden or not lines[i]:
                    continue
                x0, y0 = x + r.x * s, y + r.y * s
                box = (x0, y0, x0 + len(lines[i]) * r.tile_width * s,
                       y0 + r.tile_height * s)
                out.append(("text", lines[i], box, node, s))
            return
        if node.text and bw and bh:
            box = (x + bx * s, y + by * s, x + (bx + bw) * s, y + (by + bh) * s)
            out.append(("text", node.text, box, node, s))
            if getattr(node, "background", None) is not None:  # its cells are opaque
                out.append(("shape", "cells of " + repr(node.text), box, node, s))
        return
    if isinstance(node, displayio.TileGrid):
        w = node.width * node.tile_width * scale
        h = node.height * node.tile_height * scale
        out.append(("shape", "tiles", (x, y, x + w, y + h), node, scale))
        return
    if hasattr(node, "pixel_shader") and hasattr(node, "width"):  # a vectorio Rectangle
        if _opaque(node.pixel_shader, getattr(node, "color_index", 0)):
            out.append(("shape", "rectangle", (x, y, x + node.width * scale,
                                               y + node.height * scale), None, scale))
        return
    if isinstance(node, displayio.Group):
        inner = scale * node.scale
        for child in node:
            _walk(child, x, y, inner, out)


def _meets(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _covers(a, b):
    """Does box ``a`` hold box ``b`` whole?"""
    return a[0] <= b[0] and a[1] <= b[1] and a[2] >= b[2] and a[3] >= b[3]


def _grid_pixels(grid, box, scale, area):
    """The screen pixels of ``area`` where the tile grid at ``box`` draws an opaque colour,
    as a box around them (None: none there)."""
    bmp = grid.bitmap
    tw, th = grid.tile_width, grid.tile_height
    per_row = bmp.width // tw
    shader = grid.pixel_shader
    x0, y0 = max(area[0], box[0]), max(area[1], box[1])
    x1, y1 = min(area[2], box[2]), min(area[3], box[3])
    found = None
    for py in range(y0, y1):
        gy = (py - box[1]) // scale
        for px in range(x0, x1):
            gx = (px - box[0]) // scale
            t = grid[gx // tw, gy // th]
            v = bmp[(t % per_row) * tw + gx % tw, (t // per_row) * th + gy % th]
            if _opaque(shader, v):
                if found is None:
                    found = [px, py, px + 1, py + 1]
                else:
                    found = [min(found[0], px), min(found[1], py), max(found[2], px + 1),
                             max(found[3], py + 1)]
    return found


def _shape_at(item, area):
    """The box of the opaque pixels a shape item draws in ``area`` (None: none)."""
    _kind, _t, box, node, scale = item
    if node is not None and not _is_label(node):
        return _grid_pixels(node, box, scale, area)
    if not _meets(box, area):
        return None
    return [max(box[0], area[0]), max(box[1], area[1]), min(box[2], area[2]),
            min(box[3], area[3])]


def problems(root, width, height):
    out = []
    drawn = items(root)
    texts = []  # [index in drawn, text, its ink's box, hidden, its cells' box]
    for i in range(len(drawn)):
        kind, t, box, node, scale = drawn[i]
        if kind == "text":
            tb = ink_box(node, t, box, scale)
            if tb is None:  # blanks only
                continue
            # a shape under it (earlier) is its background: it holds the whole text or none;
            # what lies under a shape that holds it whole is not seen (a label with opaque
            # cells brings its own background)
            opaque = getattr(node, "background", None) is not None
            for k in range(i - 1 if not opaque else -1, -1, -1):
                under = drawn[k]
                if under[0] != "shape" or under[3] is node or not _meets(under[2], tb):
                    continue
                hit = _shape_at(under, tb)
                if hit is None:
                    continue
                if _covers(hit, tb):
                    break
                if not under[1].startswith("cells of"):
                    out.append("{!r} {} is drawn half over {} {}".format(t, tb, under[1],
                                                                         tuple(hit)))
            texts.append([i, t, tb, False, box])
            continue
        for entry in texts:
            j, tt, tb, hidden, _cells = entry
            if hidden or drawn[j][3] is node:
                continue
            # a shape beside a text keeps three blank pixels from its ink; above and below, the
            # rows of a list sit edge to edge
            gap = 0 if t.startswith("cells of") else GAP
            near = (tb[0] - gap, tb[1], tb[2] + gap, tb[3])
            if not _meets(box, near):
                continue
            hit = _shape_at(drawn[i], near)
            if hit is None:
                continue
            if _covers(hit, tb):
                entry[3] = True  # hidden under it whole
            elif t.startswith("cells of") and _meets(box, tb):
                pass  # a text's own opaque cells over another text: an overlap, below
            else:
                out.append("{} {} drawn over or against {!r} {}".format(t, tuple(hit), tt, tb))
    shown = [(t, cells) for _i, t, _ink, hidden, cells in texts if not hidden]
    for t, (x0, y0, x1, y1) in shown:
        if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
            out.append("{!r} at {} is cut by the edge of the {}x{} screen".format(
                t, (x0, y0, x1, y1), width, height))
    for i in range(len(shown)):
        for j in range(i + 1, len(shown)):
            (ta, a), (tb, b) = shown[i], shown[j]
            if _meets(a, b):
                out.append("{!r} {} overlaps {!r} {}".format(ta, a, tb, b))
    return out


def _tiles(node):
    # a small grid's tiles (a board): the same boxes may draw other pixels
    if isinstance(node, displayio.TileGrid) and node.width * node.height <= 100:
        return tuple(node[i] for i in range(node.width * node.height))
    return None


class Watch:
    """Checks the screen at every refresh of a simulator's display (every frame the firmware
    draws); each distinct screen once. ``found``: {problem: the texts of the screen it was
    on}; ``screens``: how many distinct screens were checked."""

    def __init__(self, sim):
        self.sim = sim
        self.found = {}
        self.seen = set()
        self.screens = 0
        d = sim.display
        self.refresh = d.refresh
        d.refresh = self.check_after

    def check_after(self):
        self.refresh()
        self.check()

    def check(self):
        sim = self.sim
        root = sim.display.root
        if root.hidden:
            return
        drawn = items(root)
        key = tuple((k, t, b, _tiles(n)) for k, t, b, n, _s in drawn)
        if key in self.seen:
            return
        self.seen.add(key)
        self.screens += 1
        for p in problems(root, sim.cfg["width"], sim.cfg["height"]):
            if p not in self.found:
                self.found[p] = [t for k, t, _b, _n, _s in drawn if k == "text"]
