"""bitmaptools for MicroPython: fill_region, the one function the screens use."""

import displayio


def _int(v, name):
    if not isinstance(v, int):
        raise TypeError("{} must be of type int, not {}".format(name, type(v).__name__))
    return v


def fill_region(dest_bitmap, x1, y1, x2, y2, value):
    """Fill x1 <= x < x2, y1 <= y < y2 of ``dest_bitmap`` with ``value`` (one framebuf
    fill_rect). Checked as shared-bindings/bitmaptools/__init__.c checks it."""
    if not isinstance(dest_bitmap, displayio.Bitmap):
        raise TypeError("dest_bitmap must be of type Bitmap, not {}".format(
            type(dest_bitmap).__name__))
    if not 0 <= value < 1 << dest_bitmap._bits:
        raise ValueError("out of range of target")
    w = dest_bitmap.width
    h = dest_bitmap.height
    displayio._range(_int(x1, "x1"), 0, w, "x1")
    displayio._range(_int(x2, "x2"), x1, w, "x2")
    displayio._range(_int(y1, "y1"), 0, h, "y1")
    displayio._range(_int(y2, "y2"), y1, h, "y2")
    dest_bitmap._fill_region(x1, y1, x2, y2, value)
