"""displayio for MicroPython: the part of CircuitPython's displayio the Lunchbox screens use.

The screens build a tree of Groups, TileGrids (over a Bitmap, coloured by a Palette) and
vectorio Rectangles, as on CircuitPython; fbdisplay.FramebufferDisplay draws the tree whole
into a framebuffer with ``framebuf`` (fill_rect and blit with a palette: C loops, not a
Python loop a pixel) and sends it once per refresh. Layers draw in list order, later ones
over earlier ones; a Palette's transparent entries leave what is under them. The errors are
CircuitPython's (shared-bindings/displayio/*.c), word for word.

A Bitmap keeps its pixels in a ``framebuf`` of its own (1, 2, 4 or 8 bits a pixel, as
displayio picks them from value_count), so fill, bitmaptools.fill_region and reading or
writing a pixel are C calls. A TileGrid draws each tile from what is cut from the sheet the
first time the tile is drawn (again only after the sheet changes): a few boxes of one value
each, filled (a toast's frame, a board's empty cell), or else a small framebuf of its own,
blitted through the palette. On a Pico a blit costs ~1.1 us a pixel, a fill_rect ~35 us
whatever its size (tests/mp/render/pico_check.py measured them).
"""

import framebuf

# framebuf's formats by bits a pixel (displayio rounds value_count up to these)
_FMT = (None, framebuf.MONO_HLSB, framebuf.GS2_HMSB, None, framebuf.GS4_HMSB,
        None, None, None, framebuf.GS8)
_IN_GROUP = "Layer already in a group"
_FB = framebuf.FrameBuffer


def release_displays():
    """Nothing to release: a FramebufferDisplay holds no bus of its own."""


def _index(i, n, what):
    # py/obj.c mp_get_index(type, len, index, false): no slices, negative from the end
    if not isinstance(i, int):
        if isinstance(i, slice):
            raise NotImplementedError("Slices not supported")
        raise TypeError("{} indices must be integers, not {}".format(what, type(i).__name__))
    j = i + n if i < 0 else i
    if not 0 <= j < n:
        raise IndexError("{} index out of range".format(what))
    return j


def _range(value, lo, hi, name):
    # py/argcheck.c mp_arg_validate_int_range
    if not lo <= value <= hi:
        raise ValueError("{} must be {}-{}".format(name, lo, hi))
    return value


def _size(w, h, bits):
    """Bytes of a framebuf of w x h at ``bits`` a pixel (rows padded to a byte)."""
    return ((w * bits + 7) >> 3) * h


def _scaled(px, w, h, s, bits):
    """A framebuf ``s`` times the size of the w x h picture ``px(x, y)`` gives: each run of
    equal pixels of a row is one fill_rect (done once per tile and scale, then cached)."""
    out = framebuf.FrameBuffer(bytearray(_size(w * s, h * s, bits)), w * s, h * s, _FMT[bits])
    rect = out.fill_rect
    for y in range(h):
        x = 0
        while x < w:
            v = px(x, y)
            e = x + 1
            while e < w and px(e, y) == v:
                e += 1
            if v:
                rect(x * s, y * s, (e - x) * s, s, v)
            x = e
    return out


def _packed(numbers):
    """Small numbers kept as bytes (a third of a tuple's heap), else as a tuple."""
    for n in numbers:
        if n > 255:
            return tuple(numbers)
    return bytes(numbers)


def _boxes(px, w, h, most):
    """The w x h picture ``px(x, y)`` as boxes of one value, (value, x, y, w, h, ...): each
    row's runs, a run carried down while the rows below have the very same (a list); None
    when it takes more than ``most``."""
    done = []
    live = []  # (x0, x1, value, first row)
    for y in range(h + 1):
        runs = []
        x = 0
        while y < h and x < w:
            v = px(x, y)
            e = x + 1
            while e < w and px(e, y) == v:
                e += 1
            runs.append((x, e, v))
            x = e
        carried = []
        for x0, x1, v, y0 in live:
            if (x0, x1, v) in runs:
                runs.remove((x0, x1, v))
                carried.append((x0, x1, v, y0))
            else:
                done += (v, x0, y0, x1 - x0, y - y0)
        if len(done) > 5 * most:
            return None
        for x0, x1, v in runs:
            carried.append((x0, x1, v, y))
        live = carried
    return done


class _Layer:
    """What a Group may hold: a Group, a TileGrid or a vectorio shape."""

    _in = False  # held by a group or a display (displayio's in_group flag)
    hidden = False

    def _draw(self, dsp, ox, oy, s):
        raise NotImplementedError


class Bitmap:
    _blank = -1  # a tile known to hold only 0s (none known)
    _fills = None  # a way of its own to draw a TileGrid over it scaled up (terminalio's)

    def __init__(self, width, height, value_count):
        _range(width, 0, 32767, "width")
        _range(height, 0, 32767, "height")
        _range(value_count, 1, 65536, "value_count")
        bits = 1
        while (value_count - 1) >> bits:  # shared-bindings/displayio/Bitmap.c
            bits = bits << 1 if bits < 8 else bits + 8
        if bits > 8:
            raise NotImplementedError("value_count over 256: not on MicroPython's framebuf")
        self.width = width
        self.height = height
        self._bits = bits
        self._fb = None
        if width and height:
            self._fb = framebuf.FrameBuffer(bytearray(_size(width, height, bits)), width,
                                            height, _FMT[bits])
        self._tc = None  # the tiles cut from it: {size and scale: [framebuf, boxes or None]}

    def _xy(self, i):
        w = self.width
        if isinstance(i, int):
            n = w * self.height
            if not 0 <= i < n:
                raise IndexError("index must be 0-{}".format(n - 1))
            return i % w, i // w
        if isinstance(i, slice):
            raise NotImplementedError("Slices not supported")
        x, y = i
        if not 0 <= x < w:
            raise IndexError("x must be 0-{}".format(w - 1))
        if not 0 <= y < self.height:
            raise IndexError("y must be 0-{}".format(self.height - 1))
        return x, y

    def _value(self, v, name="value"):
        top = (1 << self._bits) - 1
        if not 0 <= v <= top:
            raise ValueError("{} must be 0-{}".format(name, top))

    def __getitem__(self, i):
        x, y = self._xy(i)
        return self._fb.pixel(x, y)

    def __setitem__(self, i, v):
        w = self.width
        if isinstance(i, int) and 0 <= i < w * self.height:  # (the quick way: a pixel of
            x = i % w  # a board's header is four of these)
            y = i // w
        else:
            x, y = self._xy(i)
        if not 0 <= v < 1 << self._bits:
            self._value(v)
        self._fb.pixel(x, y, v)
        self._tc = None

    def fill(self, value):
        self._value(value)
        if self._fb is not None:
            self._fb.fill(value)
        self._tc = None

    def _fill_region(self, x1, y1, x2, y2, value):
        # bitmaptools.fill_region, its arguments checked there
        if self._fb is not None:
            self._fb.fill_rect(x1, y1, x2 - x1, y2 - y1, value)
        self._tc = None

    # the tiles, as a TileGrid draws them

    def _tiles(self, tw, th, s):
        """The list of tile sources for tiles tw x th drawn at scale s (None: not cut yet)."""
        key = tw | th << 12 | s << 24
        tc = self._tc
        if tc is None:
            tc = self._tc = {}
        src = tc.get(key)
        if src is None:
            src = tc[key] = [None] * ((self.width // tw) * (self.height // th))
        return src

    def _tile(self, src, t, tw, th, s):
        """Tile t as drawn at scale s: boxes of one value each (filled: a Pico fills a box
        in ~35 us, blits ~1.1 us a pixel), or a framebuf to blit when that is cheaper."""
        if tw == self.width and th == self.height:
            f = self._fb  # the whole bitmap (cut again after any change, as every tile)
        else:
            n = self.width // tw
            f = framebuf.FrameBuffer(bytearray(_size(tw, th, self._bits)), tw, th,
                                     _FMT[self._bits])
            f.blit(self._fb, -(t % n) * tw, -(t // n) * th)  # the raw values, no palette
        boxes = _boxes(f.pixel, tw, th, tw * th * s * s // 32)
        if boxes is not None:
            f = _packed([v if i % 5 == 0 else v * s for i, v in enumerate(boxes)])
        elif s > 1:
            f = _scaled(f.pixel, tw, th, s, self._bits)
        src[t] = f
        return f


class Palette:
    def __init__(self, color_count, *, dither=False):
        _range(color_count, 1, 32767, "color_count")
        self._c = [0] * color_count
        self._t = 0  # the transparent entries, a bit each
        self._p = None  # what the display made of it: (the display's era, size, plan)

    def __len__(self):
        return len(self._c)

    def __getitem__(self, i):
        return self._c[_index(i, len(self._c), "Palette")]

    def __setitem__(self, i, color):
        i = _index(i, len(self._c), "Palette")
        if isinstance(color, int):
            if not 0 <= color <= 0xFFFFFF:
                raise TypeError("color must be between 0x000000 and 0xffffff")
        elif isinstance(color, (tuple, list, bytes, bytearray)) and len(color) in (3, 4):
            color = color[0] << 16 | color[1] << 8 | color[2]
        else:
            raise TypeError("color buffer must be a buffer, tuple, list, or int")
        self._c[i] = color
        self._p = None

    def make_transparent(self, palette_index):
        self._t |= 1 << _index(palette_index, len(self._c), "Palette")
        self._p = None

    def make_opaque(self, palette_index):
        self._t &= ~(1 << _index(palette_index, len(self._c), "Palette"))
        self._p = None

    def _plan(self, dsp, n):
        """How a source of ``n`` values draws through this palette on ``dsp``: a tuple of
        (palette framebuf, transparent key) passes, () when nothing of it shows."""
        p = self._p
        if p is None or p[0] is not dsp.era or p[1] != n:
            p = self._p = (dsp.era, n, dsp._plan(self._c, self._t, n))
        return p[2]

    def _pen(self, dsp, i):
        """The display's pen for entry ``i``; None: transparent (or no such entry)."""
        p = self._p
        if p is None or p[0] is not dsp.era or p[1] != -1 - i:
            p = self._p = (dsp.era, -1 - i, self._make_pen(dsp, i))
        return p[2]

    def _pens(self, dsp):
        """The pens of entries 0 and 1 (as _pen): a 1-bit bitmap's two."""
        p = self._p
        if p is None or p[0] is not dsp.era or p[1] != -1000:
            p = self._p = (dsp.era, -1000, (self._make_pen(dsp, 0), self._make_pen(dsp, 1)))
        return p[2]

    def _make_pen(self, dsp, i):
        c = self._c
        if 0 <= i < len(c) and not self._t >> i & 1:
            return dsp.pen(c[i])
        return None


class TileGrid(_Layer):
    def __init__(self, bitmap, *, pixel_shader, width=1, height=1, tile_width=0,
                 tile_height=0, default_tile=0, x=0, y=0):
        if not isinstance(bitmap, Bitmap):
            raise TypeError("unsupported bitmap type")
        if not isinstance(pixel_shader, Palette):
            raise TypeError("unsupported pixel_shader type")
        tw = tile_width or bitmap.width
        th = tile_height or bitmap.height
        if not tw or bitmap.width % tw:
            raise ValueError("Tile width must exactly divide bitmap width")
        if not th or bitmap.height % th:
            raise ValueError("Tile height must exactly divide bitmap height")
        self._n = (bitmap.width // tw) * (bitmap.height // th)  # tiles in the bitmap
        _range(default_tile, 0, self._n - 1, "default_tile")
        if self._n > 256:
            import array

            self._tiles = array.array("H", [default_tile] * (width * height))
        else:
            self._tiles = bytearray(width * height)
            if default_tile:
                for i in range(width * height):
                    self._tiles[i] = default_tile
        self.bitmap = bitmap
        self.pixel_shader = pixel_shader
        self.width = width
        self.height = height
        self.tile_width = tw
        self.tile_height = th
        self.x = x
        self.y = y
        self.hidden = False

    def _at(self, i):
        w = self.width
        if isinstance(i, int):
            if not 0 <= i < w * self.height:
                raise IndexError("Tile index out of bounds")
            return i
        if isinstance(i, slice):
            raise NotImplementedError("Slices not supported")
        x, y = i
        if not (0 <= x < w and 0 <= y < self.height):
            raise IndexError("Tile index out of bounds")
        return y * w + x

    def __getitem__(self, i):
        return self._tiles[self._at(i)]

    def __setitem__(self, i, tile):
        i = self._at(i)
        self._tiles[i] = _range(tile, 0, self._n - 1, "tile")

    def _draw(self, dsp, ox, oy, s):
        if self.hidden:
            return
        bm = self.bitmap
        if not (bm.width and bm.height):
            return
        x = ox + self.x * s
        y = oy + self.y * s
        if s > 1 and bm._fills is not None and bm._fills(self, dsp, x, y, s):
            return  # (text drawn larger: terminalio)
        passes = self.pixel_shader._plan(dsp, 1 << bm._bits)
        if not passes:
            return
        src = bm._tiles(self.tile_width, self.tile_height, s)
        for i in range(len(passes)):  # (2 only on a 1-bit panel: no tiles overlap)
            pal, key, clear, pens = passes[i]  # (by index: no iterator made a refresh)
            self._blits(dsp, x, y, s, src, pal, key, bm._blank if clear else -1, pens)

    def _blits(self, dsp, x0, y, s, src, pal, key, blank, pens):
        # blank: a tile that draws nothing here (a space of a text on what is under it)
        bm = self.bitmap
        tw = self.tile_width
        th = self.tile_height
        tiles = self._tiles
        w = self.width
        sw = tw * s
        sh = th * s
        blit = dsp.fb.blit
        rect = dsp.fb.fill_rect
        top = dsp.height
        i = 0
        for _ in range(self.height):
            if y < top and y + sh > 0:
                x = x0
                k = i
                end = i + w
                while k < end:  # (blit clips, and skips a tile off the screen)
                    t = tiles[k]
                    k += 1
                    if t == blank:
                        x += sw
                        continue
                    f = src[t]
                    if f is None:
                        f = bm._tile(src, t, tw, th, s)
                    if type(f) is _FB:
                        blit(f, x, y, key, pal)
                    elif len(f) == 5:  # one value: with the same tiles after it, one box
                        n = sw
                        while k < end and tiles[k] == t:
                            k += 1
                            n += sw
                        p = pens[f[0]]
                        if p != key:
                            rect(x, y, n, sh, p)
                        x += n
                        continue
                    else:  # boxes: each value's pen, unless the key
                        for j in range(0, len(f), 5):
                            p = pens[f[j]]
                            if p != key:
                                rect(x + f[j + 1], y + f[j + 2], f[j + 3], f[j + 4], p)
                    x += sw
            i += w
            y += sh


class Group(_Layer):
    def __init__(self, *, scale=1, x=0, y=0):
        self._s = _range(scale, 1, 32767, "scale")
        self._l = []
        self.x = x
        self.y = y
        self.hidden = False

    @property
    def scale(self):
        return self._s

    @scale.setter
    def scale(self, value):
        if value < 1:
            raise ValueError("scale must be >= 1")
        self._s = value

    def _add(self, layer):
        # shared-module/displayio/Group.c _add_layer: checked before the layer goes anywhere
        if not isinstance(layer, _Layer):
            raise ValueError("Layer must be a Group or TileGrid subclass")
        if layer._in:
            raise ValueError(_IN_GROUP)

    def append(self, layer):
        self.insert(len(self._l), layer)

    def insert(self, index, layer):
        n = len(self._l)
        if index != n or not isinstance(index, int):
            index = _index(index, n, "Group")
        self._add(layer)
        self._l.insert(index, layer)
        layer._in = True

    def pop(self, i=-1):
        layer = self._l.pop(_index(i, len(self._l), "Group"))
        layer._in = False
        return layer

    def index(self, layer):
        items = self._l
        for i in range(len(items)):
            if items[i] is layer:
                return i
        raise ValueError("object not in sequence")

    def remove(self, layer):
        self.pop(self.index(layer))

    def __len__(self):
        return len(self._l)

    def __bool__(self):
        return len(self._l) != 0

    def __iter__(self):
        return iter(self._l)

    def __getitem__(self, i):
        return self._l[_index(i, len(self._l), "Group")]

    def __setitem__(self, i, layer):
        # common_hal_displayio_group_set: the new layer is checked (and refused when held,
        # even in this very slot) before the old one goes
        i = _index(i, len(self._l), "Group")
        self._add(layer)
        self._l[i]._in = False
        self._l[i] = layer
        layer._in = True

    def _draw(self, dsp, ox, oy, s):
        if self.hidden:
            return
        ox += self.x * s
        oy += self.y * s
        s *= self._s
        layers = self._l
        for i in range(len(layers)):  # (by index: no iterator made a group a refresh)
            layers[i]._draw(dsp, ox, oy, s)
