# The turn clock out of the title bar (view.py): in a corner of the screen where nothing
# is drawn. Imported only when the top screen's bar has no room for it.


def corner(view):
    # out of the title bar: the bottom right corner, else the top right one, when nothing
    # the top screen draws is there (nor in the cell before it: it is not read as part of
    # a text), else hidden
    d = view.d
    lab = view.lab
    was = (lab.hidden, lab.text, lab.anchored_position)
    view._color()
    lab.hidden = True
    x1 = d.width - d.pad
    for y1 in (d.height - 1, 13):
        for i in (0, 2, 1):
            s = view.forms[i]
            if s and _free(view.app.top.group, (x1 - len(s) * 6 - 6, y1 - 12, x1, y1)):
                view.form = (i << 2) | 1
                lab.anchor_point = (1, 1)
                lab.anchored_position = (x1, y1)
                view._show()
                break
        if not lab.hidden:
            break
    if (lab.hidden, lab.text, lab.anchored_position) != was:
        view.app.dirty = True


def _free(group, box):
    # True when nothing visible under group (texts by their boxes, tile grids by their size)
    # overlaps box (x0, y0, x1, y1) in screen pixels. A list, not recursion: the board's
    # Python stack is small.
    x0, y0, x1, y1 = box
    todo = [(group, 0, 0, 1)]
    while todo:
        node, ox, oy, scale = todo.pop()
        if node.hidden:
            continue
        x = ox + node.x * scale
        y = oy + node.y * scale
        bb = getattr(node, "bounding_box", None)
        tw = getattr(node, "tile_width", None)
        if bb is not None:
            s = scale * node.scale
            w = bb[2] * s if node.text else 0
            x += bb[0] * s
            y += bb[1] * s
            h = bb[3] * s
        elif tw is not None:
            w = node.width * tw * scale
            h = node.height * node.tile_height * scale
        else:
            try:
                for child in node:
                    todo.append((child, x, y, scale * node.scale))
            except TypeError:
                pass  # a shape (vectorio): the app draws none
            continue
        if w and x < x1 and x + w > x0 and y < y1 and y + h > y0:
            return False
    return True
