"""Build ``hw`` on a Pico running MicroPython, from /settings.toml (the file `lunchbox sync`
renders from a profile, the same keys as on CircuitPython): the display's panel wrapped in the
framebuffer renderer (lib/fbdisplay.py), the buttons, the LEDs, the watchdog, the battery.
Run once in each VM, then unloaded: what the app uses while it runs is in mpparts.py.

What is missing for the profile (Pimoroni's build for the Display Pack, the renderer's /lib, a
settings.toml at all) is said in one line on the console, with what to run; build() then
returns None and main.py stops there: the board stays at the REPL for mpremote, with no
watchdog running and no restart loop."""

from ..app.unload import forget
from . import mpparts
from .hwbase import Hardware

SETTINGS = "/settings.toml"
# MicroPython collects only when the heap is full: until then each import's short-lived
# objects sit between its code, all the way up the heap, and the collect leaves the code
# scattered in small holes (a game's first screen then found 97 KB free but no 4.6 KB piece
# to load into). Collecting after every 12 KB allocated keeps what stays packed low (after
# every 32 KB, Let's Do Lunch on the Display Pack still found no 2.9 KB piece in 76 KB; after
# every 16 KB, once the firmware's folders cost 1.3 KB, a Space Lunch save found no 1,148 B
# piece for its file in 11 KB). The cost is time (docs/firmware.md, "On MicroPython").
GC_EVERY = 12 * 1024
# PicoGraphics' rotations for CircuitPython's (the profile's): the same picture, the buttons
# beside it. Pimoroni's ST7789 driver (drivers/st7789/st7789.cpp) sets up the 240x135 panel
# with MADCTL 0x70 and row 53 at its ROTATE_0, which is hwpico's rotation 270 (MX|MV|ML, rowstart
# 53, colstart 40); its ROTATE_180 (0xB0, row 52) is hwpico's 90; ROTATE_90 (0xC0, column 53)
# and ROTATE_270 (0x00, column 52) are the portrait ones, 0 and 180.
PICOGRAPHICS_ROTATE = {270: 0, 90: 180, 0: 90, 180: 270}


class Missing(Exception):
    """Something the board lacks for this profile: the message says what to run."""


def _settings(path=SETTINGS):
    from . import settings

    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        raise Missing("no {} on the board - run: lunchbox sync --profile <profile> (a "
                      "MicroPython one: lunchbox profile lists them)".format(path)) from None
    values = settings.parse_toml(text)
    if values.get("LUNCHBOX_RUNTIME") != "micropython":
        raise Missing("settings.toml is for CircuitPython (profile {0}) - run: lunchbox "
                      "sync --profile <a MicroPython profile> (lunchbox profile lists them), "
                      "or lunchbox flash --uf2 <CircuitPython .uf2> --profile {0}".format(
                          values.get("LUNCHBOX_PROFILE", "?")))
    cfg = settings.read(values.get)
    forget("companion.board.settings")
    return cfg, values


def _picographics(cfg):
    try:
        import picographics
        from pimoroni_bus import SPIBus
    except ImportError:
        raise Missing("this MicroPython has no picographics: the Display Pack needs "
                      "Pimoroni's build - run: lunchbox flash --uf2 <Pimoroni's pico .uf2> "
                      "--profile {}".format(cfg["profile"])) from None
    p = cfg["display_pins"]
    g = mpparts.gpio
    bus = SPIBus(cs=g(p["cs"]), dc=g(p["dc"]), sck=g(p["sck"]), mosi=g(p["mosi"]),
                 bl=g(p["backlight"]) if "backlight" in p else None)
    w, h = cfg["width"], cfg["height"]
    buffer = bytearray(w * h // 2)  # PEN_P4: half a byte a pixel (mpparts.PicoGraphicsPanel)
    gfx = picographics.PicoGraphics(display=picographics.DISPLAY_PICO_DISPLAY, bus=bus,
                                    pen_type=picographics.PEN_P4,
                                    rotate=PICOGRAPHICS_ROTATE[cfg["rotation"]], buffer=buffer)
    bw, bh = gfx.get_bounds()
    if (bw, bh) != (w, h):
        raise ValueError("display: PicoGraphics gives {}x{} for rotation {}, the profile says "
                         "{}x{}".format(bw, bh, cfg["rotation"], w, h))
    from fbdisplay import Pens16  # firmware/mplib, on the board's /lib

    # (a class, not a function made here: that would keep this module, unloaded after the
    # build, alive beside the app: 4 KB at the menu)
    return mpparts.PicoGraphicsPanel(gfx, buffer, w, h, Pens16)


def ssd1306_commands(width, height, rotation):
    """(commands, width, height, colstart): the set-up bytes hwpico sends to the SSD1306
    through BusDisplay, as plain commands (its sequence without the argument counts and
    delays)."""
    from .ssd1306 import setup  # the sequence hwpico gives BusDisplay on CircuitPython

    seq, width, height, colstart, _rowstart = setup(width, height, rotation)
    out = bytearray()
    i = 0
    while i < len(seq):
        n = seq[i + 1] & 0x7F
        out += seq[i:i + 1] + seq[i + 2:i + 2 + n]
        i += 2 + n + (1 if seq[i + 1] & 0x80 else 0)
    return bytes(out), width, height, colstart


def turned(cmds):
    """The set-up with the segment and COM scans the other way (0xA0, 0xC0): the picture
    turned half round by the controller, as displayio's rotation 180 turns it."""
    out = bytearray(cmds)
    i = 0
    while i < len(out):
        c = out[i]
        if c == 0xA1 or c == 0xC8:
            out[i] = 0xA0 if c == 0xA1 else 0xC0
        i += 1 + _ARGS.get(c, 0)
    return bytes(out)


# the argument count of each set-up command (the rest take none)
_ARGS = {0x20: 1, 0x81: 1, 0xA8: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1, 0x8D: 1, 0xAD: 1}


def _ssd1306(cfg):
    import machine

    if cfg["rotation"] not in (0, 180):
        raise ValueError("display: the SSD1306 on MicroPython takes rotation 0 or 180 "
                         "(LUNCHBOX_DISPLAY_ROTATION = {})".format(cfg["rotation"]))
    p = cfg["display_pins"]
    sda, scl = mpparts.gpio(p["sda"]), mpparts.gpio(p["scl"])
    # the RP2040's I2C block for these pins: SDA on GP0, 4, 8... is I2C0; GP2, 6, 10... I2C1
    i2c = machine.I2C((sda // 2) % 2, sda=machine.Pin(sda), scl=machine.Pin(scl), freq=400000)
    addr = cfg["address"]
    try:  # the set-up's first command (display off) asks whether anything answers there
        i2c.writeto(addr, b"\x80\xae")
    except OSError:  # ENODEV / ETIMEDOUT: no ACK (a scan would probe every other address)
        raise ValueError("display: no OLED answers at address 0x{:02x} on SDA {} / SCL {} - "
                         "check the wiring and LUNCHBOX_DISPLAY_ADDRESS".format(
                             addr, p["sda"], p["scl"])) from None
    cmds, w, h, colstart = ssd1306_commands(cfg["width"], cfg["height"], cfg["rotation"])
    if cfg["rotation"] == 180:
        cmds = turned(cmds)
    panel = mpparts.SSD1306Panel(i2c, addr, w, h, colstart)
    for c in cmds:
        panel.send(c)
    return panel


def _display(cfg):
    if cfg["display"] == "st7789":
        panel = _picographics(cfg)
    else:
        panel = _ssd1306(cfg)
    try:
        from fbdisplay import FramebufferDisplay
    except ImportError:
        raise Missing("no renderer in /lib (fbdisplay, displayio...) - run: lunchbox sync "
                      "--profile {}".format(cfg["profile"])) from None
    from ..screen import display as displays

    return displays.make(cfg["display"], FramebufferDisplay(panel), panel.width, panel.height)


def _rgb_led_off(cfg):
    # the Display Pack's RGB LED is active low: PWM at full duty keeps it dark (the app
    # does not use it, as on CircuitPython)
    if not cfg["rgb_led"]:
        return
    import machine

    for name in cfg["rgb_led"]:
        pwm = machine.PWM(machine.Pin(mpparts.gpio(name)))
        pwm.freq(1000)
        pwm.duty_u16(65535)


def build(settings_path=SETTINGS):
    """``hw`` for this board, or None when it lacks something (said on the console)."""
    import gc

    gc.collect()
    gc.threshold(GC_EVERY)  # for this VM: a soft reset sets it back
    try:
        return _build(settings_path)
    except Missing as e:
        print("Lunchbox:", e)
        return None
    finally:
        forget(__name__)  # the setup code goes: main.py holds no name of this module


def _build(settings_path):
    import time

    from ..app.buttons import button_id

    cfg, values = _settings(settings_path)
    display = _display(cfg)  # first: what the board lacks is mostly the display's driver
    import machine

    pixels = None
    if cfg["neopixel"]:
        pixels = mpparts.Pixels(cfg["neopixel"], cfg["neopixel_count"])
    _rgb_led_off(cfg)
    ids = [button_id(role) for role, _name in cfg["buttons"]]
    buttons = mpparts.PinButtons(cfg["buttons"], ids)
    hw = Hardware(
        display=display,
        buttons=buttons,
        clock=time.ticks_ms,
        nvm=None,  # saves are files (store/filestore.py): main.open_store
        profile=cfg,
        pixels=pixels,
        link=None,  # no second USB channel: the host reads the record files with mpremote
        watchdog=mpparts.Watchdog(),
        idle=buttons.idle,
        uid=bytes(machine.unique_id()),
    )
    if values.get("LUNCHBOX_BATTERY") == "lipo":
        hw.supply = mpparts.Supply()
    hw.trace = values.get("LUNCHBOX_TRACE") or 0
    hold = values.get("LUNCHBOX_TRACE_HOLD") or 0
    hw.held = bytearray(hold) if hw.trace and hold else None
    hw.relaunch = mpparts.relaunch
    return hw
