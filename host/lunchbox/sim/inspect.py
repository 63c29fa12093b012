"""Read what is on the simulated screen from the display group tree: the visible texts and
their boxes in screen pixels (layouts are tested by boxes, not pixels: Blinka's displayio is
not the device's: its font metrics differ and it has no memory limit)."""


def _is_label(node):
    return hasattr(node, "bounding_box") and hasattr(node, "text")


def walk(node, ox=0, oy=0, scale=1, out=None):
    """[(kind, text, (x0, y0, x1, y1))] for every visible label ("text") and tile grid
    ("tiles") under ``node``; boxes are half-open screen pixel ranges."""
    if out is None:
        out = []
    if getattr(node, "hidden", False):
        return out
    x = ox + getattr(node, "x", 0) * scale
    y = oy + getattr(node, "y", 0) * scale
    if _is_label(node):
        s = scale * node.scale
        bx, by, bw, bh = node.bounding_box
        if node.text and bw and bh:
            out.append(("text", node.text, (x + bx * s, y + by * s,
                                             x + (bx + bw) * s, y + (by + bh) * s)))
        return out
    if hasattr(node, "tile_width") and hasattr(node, "width"):
        w = node.width * node.tile_width * scale
        h = node.height * node.tile_height * scale
        out.append(("tiles", "", (x, y, x + w, y + h)))
        return out
    inner = scale * getattr(node, "scale", 1)
    try:
        children = list(node)
    except TypeError:
        return out
    for child in children:
        walk(child, x, y, inner, out)
    return out


def texts(root):
    """The visible texts, layer by layer (the screen, then overlays such as a toast), each
    top to bottom then left to right."""
    out = []
    for layer in (list(root) if len(root) else []):
        items = [(box[1], box[0], t) for kind, t, box in walk(layer) if kind == "text"]
        out += [t for _y, _x, t in sorted(items)]
    return out


def layout_problems(root, width, height):
    """Texts that stick out of the screen or overlap another text, as messages.

    Each child of the root group is a layer (the screen, then overlays such as the toast,
    which paints its own opaque box): overlaps count only within a layer."""
    problems = []
    for layer in (list(root) if len(root) else []):
        problems += _layer_problems(layer, width, height)
    return problems


def _layer_problems(layer, width, height):
    problems = []
    boxes = [(t, box) for kind, t, box in walk(layer) if kind == "text"]
    for t, (x0, y0, x1, y1) in boxes:
        if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
            problems.append("{!r} at {} is off the {}x{} screen".format(
                t, (x0, y0, x1, y1), width, height))
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            (ta, a), (tb, b) = boxes[i], boxes[j]
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                problems.append("{!r} {} overlaps {!r} {}".format(ta, a, tb, b))
    return problems
