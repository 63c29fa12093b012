"""The Pico's parts the app uses while it runs on MicroPython: the panels (what fbdisplay draws
into and sends), the buttons, the NeoPixels, the battery's reading, the watchdog and the
relaunch into the next VM. hwmp.build() makes them and is then unloaded (as hwpico and
picoparts on CircuitPython): its set-up code is not kept beside the app."""

import time

try:
    import machine
except ImportError:  # off the board (the WebAssembly port, CPython): Debouncer, drain, pens
    machine = None

from ..app.buttons import IDLE_MS, ticks_diff

LAUNCH = "/launch.txt"  # the game (or menu) the next VM opens: written by relaunch()
DEBOUNCE_MS = 20  # a switch's contacts bounce for a few ms; a press is longer than 20
RING = 32  # raw edges kept between two polls (a pass of the main loop)


def gpio(name):
    """A profile's pin name ("GP12") -> its number."""
    if name[:2] != "GP" or not name[2:].isdigit():
        raise ValueError("settings.toml names pin {} - MicroPython takes GP0..GP29".format(name))
    return int(name[2:])


class PicoGraphicsPanel:
    """The Display Pack's ST7789 through Pimoroni's PicoGraphics (its MicroPython build):
    pen type P4, half a byte a pixel, an index into 16 pens, in a framebuffer this object
    owns and gives PicoGraphics (``buffer=``) so framebuf draws into the same bytes; update()
    turns the palette into RGB565 as it sends. P4 rather than P8: its 16 KB buffer where P8's
    is 32 KB, on the same heap as the app (the games' screens need about 20 KB more than P8
    left them, and show fewer than 16 colours); docs/firmware.md has the figures."""

    format = "P4"
    bus = None

    def __init__(self, gfx, buffer, width, height, pens16):
        """``pens16``: the class that gives out the 16 pens (fbdisplay.Pens16, which hwmp
        passes: this module is also on CircuitPython boards, where /lib has no fbdisplay)."""
        self.gfx = gfx
        self.buffer = buffer
        self.width = width
        self.height = height
        self.brightness = gfx.set_backlight  # 0..1, gamma-corrected by the driver
        self.pens = pens16(self._set)
        self.pen = self.pens.pen

    def _set(self, i, rgb):
        self.gfx.update_pen(i, (rgb >> 16) & 255, (rgb >> 8) & 255, rgb & 255)

    def show(self):
        self.gfx.update()


def mono_pen(rgb):
    """0 or 1 for colour 0xRRGGBB as displayio makes it for a 1-bit display: its luma
    (shared-module/displayio/ColorConverter.c), 128 and over on."""
    luma = (((rgb >> 16) & 255) * 19 + ((rgb >> 8) & 255) * 182 + (rgb & 255) * 54) // 255
    return 1 if luma >= 128 else 0


class SSD1306Panel:
    """An SSD1306 on machine.I2C: a framebuf.MONO_VLSB buffer (a byte is 8 rows of a column,
    the controller's own page layout) sent whole with horizontal addressing."""

    format = "MONO"

    def __init__(self, i2c, address, width, height, colstart):
        self.brightness = self.contrast
        self.i2c = i2c
        self.address = address
        self.width = width
        self.height = height
        self.colstart = colstart
        self.buffer = bytearray(width * height // 8)
        self.bus = self  # fbdisplay's bus.send(0xAE / 0xAF): the panel's sleep and wake
        self._window = bytes((0x21, colstart, colstart + width - 1,
                              0x22, 0, height // 8 - 1))

    def pen(self, rgb):
        return mono_pen(rgb)

    def contrast(self, level):
        # as CircuitPython's BusDisplay dims it: its brightness command (0x81) with 255 x level
        self.send(0x81, bytes((int(255 * level),)))

    def send(self, cmd, data=b""):
        self.i2c.writeto(self.address, bytes((0x80, cmd)))
        for d in data:
            self.i2c.writeto(self.address, bytes((0x80, d)))

    def show(self):
        for c in self._window:
            self.i2c.writeto(self.address, bytes((0x80, c)))
        # one transfer: the data control byte, then the whole buffer (writevto: no copy)
        self.i2c.writevto(self.address, (b"\x40", self.buffer))


class Debouncer:
    """Raw edges in, (index, pressed, ms) transitions out. An edge that changes a button's
    state is taken at once with its own time; edges within DEBOUNCE_MS of the last change
    are bounces. A bounce can leave the pin at the other level: settle() then takes that level,
    with the time of the pin's last edge, once it has been still for DEBOUNCE_MS."""

    def __init__(self, n, ms=DEBOUNCE_MS):
        self.ms = ms
        self.state = [False] * n
        self.since = [None] * n  # when the state last changed
        self.edge_at = [None] * n  # the last raw edge: when, and to which level
        self.edge_to = [None] * n
        self.fresh = [False] * n  # an edge came in this poll

    def edge(self, i, pressed, t, out):
        self.edge_at[i] = t
        self.edge_to[i] = pressed
        self.fresh[i] = True
        if pressed == self.state[i]:
            return
        s = self.since[i]
        if s is not None and ticks_diff(t, s) < self.ms:
            return
        self.state[i] = pressed
        self.since[i] = t
        out.append((i, pressed, t))

    def settle(self, i, pressed, now, out):
        if self.fresh[i]:
            # the level was read before this poll's edges came in, and may be older than
            # them (taken as a change, a tap read twice): the next poll's level is newer
            self.fresh[i] = False
            return
        if pressed == self.state[i]:
            return
        t = self.edge_at[i]
        if t is None or self.edge_to[i] != pressed:
            # no edge explains the level (a button held at start-up, an interrupt not yet
            # run): the change is now, not at an old edge (a tap would read as held)
            t = now
        elif ticks_diff(now, t) < self.ms:
            return  # still bouncing
        self.state[i] = pressed
        self.since[i] = t
        out.append((i, pressed, t))


class PinButtons:
    """The buttons on machine.Pin with pull-ups (pressed = low). A hard interrupt on both
    edges stores the pin and ticks_ms into a preallocated ring, so each press has the time it
    happened, not the time the app got round to it (a full redraw takes a while)."""

    def __init__(self, buttons, ids):
        from array import array

        self.ids = ids
        self.pins = [machine.Pin(gpio(name), machine.Pin.IN, machine.Pin.PULL_UP)
                     for _role, name in buttons]
        self.deb = Debouncer(len(self.pins))
        self.times = array("i", [0] * RING)
        self.codes = bytearray(RING)
        self.head = 0  # written by the interrupt
        self.tail = 0
        for i in range(len(self.pins)):
            self.pins[i].irq(self._handler(i), machine.Pin.IRQ_FALLING | machine.Pin.IRQ_RISING,
                             hard=True)

    def _handler(self, i):
        def irq(pin):
            h = self.head
            self.times[h % RING] = time.ticks_ms()
            self.codes[h % RING] = i * 2 + (pin.value() == 0)
            self.head = h + 1
        return irq

    def idle(self):
        """The pause between two passes: up to IDLE_MS, over at the first edge not yet
        polled (the interrupt fills the ring), so a press is handled as it happens."""
        for _ in range(IDLE_MS):
            if self.head != self.tail:
                return
            time.sleep_ms(1)

    def poll(self):
        out = []
        # the levels before the ring: an edge after them is in the ring or in the next poll,
        # never a level the ring has not explained yet
        now = time.ticks_ms()
        levels = [pin.value() == 0 for pin in self.pins]
        state = machine.disable_irq()
        head = self.head
        machine.enable_irq(state)
        self.tail = drain(self.times, self.codes, self.tail, head, self.deb, out)
        for i in range(len(levels)):
            self.deb.settle(i, levels[i], now, out)
        return [(self.ids[i], p, t) for i, p, t in out]


def drain(times, codes, tail, head, deb, out):
    """Feed the ring's edges from ``tail`` up to ``head`` (counts, not indexes: the ring
    holds the last RING of them) to ``deb``; returns the new tail. When the ring went round
    (more than RING edges since the last poll) the oldest are lost: the pins' levels, read
    after (Debouncer.settle), put the buttons right."""
    ring = len(codes)
    if head - tail > ring:
        tail = head - ring
    while tail != head:
        k = tail % ring
        c = codes[k]
        deb.edge(c >> 1, bool(c & 1), times[k], out)
        tail += 1
    return tail


class Pixels:
    """neopixel.NeoPixel as the app drives it (companion/board/leds.py): ``brightness``, colours by
    index, show(); MicroPython's NeoPixel has no brightness, so show() scales."""

    def __init__(self, pin, n):
        from neopixel import NeoPixel

        self.np = NeoPixel(machine.Pin(gpio(pin)), n)
        self.n = n
        self.brightness = 1.0
        self.colors = [(0, 0, 0)] * n

    def __len__(self):
        return self.n

    def __setitem__(self, i, c):
        self.colors[i] = c

    def __getitem__(self, i):
        return self.colors[i]

    def show(self):
        b = self.brightness
        for i in range(self.n):
            c = self.colors[i]
            self.np[i] = (int(c[0] * b), int(c[1] * b), int(c[2] * b))
        self.np.write()


class Supply:
    """The LiPo on VSYS (LUNCHBOX_BATTERY = "lipo"): VSYS/3 on GPIO29 (ADC 3), USB power on
    GPIO24, as picoparts.Supply reads them on CircuitPython (Pico and Pico 2; not a Pico W)."""

    SAMPLES = 8

    def __init__(self):
        self.adc = machine.ADC(29)
        self.vbus = machine.Pin(24, machine.Pin.IN)

    def level(self):
        if self.vbus.value():
            return None
        from ..power.charge import percent

        total = 0
        for _ in range(self.SAMPLES):
            total += self.adc.read_u16()
        return percent(total // self.SAMPLES * 9900 // 65535)


class Watchdog:
    """machine.WDT: once started it cannot be stopped (nor across a soft reset)."""

    MAX_MS = 8388  # the RP2040's longest

    def __init__(self):
        self.wd = None

    def start(self, seconds):
        self.wd = machine.WDT(timeout=min(self.MAX_MS, int(seconds * 1000)))

    def feed(self):
        if self.wd is not None:
            self.wd.feed()


def relaunch(target):
    """Start a fresh VM for ``target`` (a game id, or "" for the menu): the target goes to a
    small file that main.py reads (and removes) after the soft reset. Never returns; with no
    room left to open the file (a crash's: littlefs wants 1.3 KB in one piece), the fresh VM
    starts as after a power-on, at the menu."""
    try:
        with open(LAUNCH, "w") as f:
            f.write(target)
    except (OSError, MemoryError):
        pass
    machine.soft_reset()


def launched():
    """What the last VM asked this one to open, or None after a power-on or a reset: the
    file is removed as it is read, so a later reset starts at the menu."""
    import os

    try:
        with open(LAUNCH) as f:
            target = f.read()
    except OSError:
        return None
    try:
        os.remove(LAUNCH)
    except OSError:
        pass
    return target
