"""vectorio for MicroPython: Rectangle, a filled box in one palette colour (one fill_rect).

As on CircuitPython, a Rectangle in a scaled Group is placed at the scaled position and
keeps its own size in pixels.
"""

import displayio


def _min1(value, name):
    if value < 1:
        raise ValueError("{} must be >= 1".format(name))
    return value


class Rectangle(displayio._Layer):
    def __init__(self, *, pixel_shader, width, height, x=0, y=0, color_index=0):
        if not isinstance(pixel_shader, displayio.Palette):
            raise TypeError("unsupported pixel_shader type")
        self.pixel_shader = pixel_shader
        self._w = _min1(width, "width")
        self._h = _min1(height, "height")
        self.x = x
        self.y = y
        self.color_index = color_index
        self.hidden = False

    @property
    def width(self):
        return self._w

    @width.setter
    def width(self, value):
        self._w = _min1(value, "width")

    @property
    def height(self):
        return self._h

    @height.setter
    def height(self, value):
        self._h = _min1(value, "height")

    def _draw(self, dsp, ox, oy, s):
        if self.hidden:
            return
        pen = self.pixel_shader._pen(dsp, self.color_index)
        if pen is not None:
            dsp.fb.fill_rect(ox + self.x * s, oy + self.y * s, self._w, self._h, pen)
