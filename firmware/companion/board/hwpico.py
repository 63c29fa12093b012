"""Build ``hw`` on the Pico from settings.toml: the pins, the display's bus and panel, the
LEDs. Run once in each VM, then unloaded (``build`` drops the module): what the app uses
while it runs is in picoparts.py, and only that stays in the heap."""

import os

import displayio
import microcontroller
import supervisor

from ..app.unload import forget
from ..screen import display as displays
from .hwbase import Hardware
from .picoparts import MARK, KeypadButtons, Supply, Watchdog, buses, pin, relaunch


def _display(cfg, warm=False):
    """``warm``: this VM was started by relaunch(), so the panel was set up by the VM before
    and has stayed powered."""
    displayio.release_displays()
    pins = cfg["display_pins"]
    # the panel's RST line, when the profile wires one: the bus pulses it before the init
    reset = pin(pins["reset"]) if "reset" in pins else None
    wake = None
    if cfg["display"] == "st7789":
        driver, wake = _st7789(cfg, pins, reset, warm and reset is None)
    else:
        driver = _ssd1306(cfg, pins, reset)
    d = displays.make(cfg["display"], driver, cfg["width"], cfg["height"])
    d.wake = wake
    return d


# ST7789 init sequences for busdisplay.BusDisplay: command, argument count (| 0x80: a delay
# follows the arguments), arguments, delay in ms (255: 500 ms); a command without a delay is
# followed by 10 ms (shared-module/busdisplay/BusDisplay.c). adafruit_st7789's commands (bgr,
# invert) with the ST7789V datasheet's waits instead of its 1.2 s of delays: 120 ms after
# SWRESET before SLPOUT, 5 ms after SLPOUT before the next command, none after the rest
# (tests/cp/lane.js's panel checks them).
# After a power-on or a reset, BusDisplay sends SWRESET alone, and the rest (st7789_awake)
# goes before the first refresh (panelwake.py): the 120 ms pass while the app and
# the menu are built. Power-on to the menu was 4.2 s with the library's delays.
# CircuitPython's sleeps count 1/1024 s ticks from a tick already under way, so a wait can
# end up to ~1.2 ms early (the lane's panel saw SLPOUT's 5 ms last 4.3): each wait asks 2 ms
# more than the datasheet's least.
_ST7789_RESET = b"\x01\x80\x00"
_ST7789_RESET_MS = 122


def st7789_awake(madctl):
    """The modes the panel is left in, ``madctl`` its addressing (below). A panel already set
    up (a VM started by relaunch) is only told them again, without delays (SLPOUT 7 ms, in
    case): those delays were most of a game's opening."""
    return (b"\x11\x80\x07" b"\x3a\x81\x55\x00" b"\x36\x81" + bytes((madctl,)) + b"\x00"
            b"\x21\x80\x00" b"\x13\x80\x00" b"\x29\x80\x00")


# How each rotation addresses the glass (135 columns by 240 rows, a window of the controller's
# 240 x 320): (MADCTL, displayio's rotation, colstart, rowstart). The two landscape ones turn
# the picture in the panel itself (MV, the row/column exchange, as Pimoroni's own driver does
# for the Display Pack), so displayio draws rows 240 pixels long: a whole screen goes out in
# 135 pieces instead of 240, and displayio walks the screen's layers once for each piece
# (~20 % of a whole screen's redraw on the lane). The picture is the same as with displayio
# turning it (MX|MY, rotation 270 or 90, colstart 53, rowstart 40, Adafruit's settings), which
# portrait (0, 180) keeps (tests/test_cp_lane.py compares the glass with the simulator).
ST7789_ROTATIONS = {270: (0x70, 0, 40, 53), 90: (0xB0, 0, 40, 52), 0: (0xC0, 0, 53, 40),
                     180: (0xC0, 180, 53, 40)}


def _st7789(cfg, pins, reset, awake):
    """``awake``: the panel was set up by the VM before this one (released, not reset: a
    release sends the panel nothing, and no RST line is wired). BusDisplay with the sequence
    itself, not adafruit_st7789.ST7789 (which adds only its sequence), so the menu's VM holds
    the same heap after a power-on as after a game (the library's code was ~700 B of it).
    Returns the driver and what is left to send before its first refresh (or None)."""
    import busio
    from busdisplay import BusDisplay
    from fourwire import FourWire  # CircuitPython 9+; the drivers need 9+ anyway

    spi = busio.SPI(pin(pins["sck"]), MOSI=pin(pins["mosi"]))
    buses.append(spi)
    bus = FourWire(spi, command=pin(pins["dc"]), chip_select=pin(pins["cs"]), reset=reset,
                   baudrate=cfg["spi_hz"])
    backlight = pin(pins["backlight"]) if "backlight" in pins else None
    madctl, rotation, colstart, rowstart = ST7789_ROTATIONS[cfg["rotation"]]
    steps = st7789_awake(madctl)
    # the Display Pack's 240x135 window sits at an offset in the controller's RAM
    driver = BusDisplay(bus, steps if awake else _ST7789_RESET, width=cfg["width"],
                        height=cfg["height"], rotation=rotation, rowstart=rowstart,
                        colstart=colstart, backlight_pin=backlight, auto_refresh=False)
    if awake:
        return driver, None
    from .panelwake import panel_wake

    return driver, panel_wake(bus, steps, supervisor.ticks_ms(), _ST7789_RESET_MS)


def _ssd1306(cfg, pins, reset):
    """BusDisplay with the SSD1306's set-up itself, not adafruit_displayio_ssd1306.SSD1306:
    the same commands and BusDisplay settings without the library's 130 ms of waits and its
    code in the heap (the screen's sleep and wake are display.MonoDisplay's)."""
    import busio
    from busdisplay import BusDisplay
    from i2cdisplaybus import I2CDisplayBus

    where = "SDA {} / SCL {}".format(pins["sda"], pins["scl"])
    try:
        i2c = busio.I2C(pin(pins["scl"]), pin(pins["sda"]), frequency=400000)
        buses.append(i2c)
    except RuntimeError as e:  # "No pull up found on SDA or SCL; check your wiring"
        raise RuntimeError("display: no pull-ups on {} - is the OLED connected there? "
                           "({})".format(where, e)) from None
    try:
        bus = I2CDisplayBus(i2c, device_address=cfg["address"], reset=reset)
    except ValueError as e:  # "Unable to find I2C Display at 3c": nothing answered
        raise ValueError("display: no OLED answers at address 0x{:02x} on {} - check the "
                         "wiring and LUNCHBOX_DISPLAY_ADDRESS ({})".format(
                             cfg["address"], where, e)) from None
    from .ssd1306 import setup  # shared with hwmp (MicroPython); let go with hwpico

    seq, width, height, colstart, rowstart = setup(cfg["width"], cfg["height"], cfg["rotation"])
    forget("companion.board.ssd1306")
    return BusDisplay(bus, seq, width=width, height=height, rotation=cfg["rotation"],
                      colstart=colstart, rowstart=rowstart, color_depth=1, grayscale=True,
                      pixels_in_byte_share_row=False, set_column_command=0x21,
                      set_row_command=0x22, data_as_commands=True, brightness_command=0x81,
                      single_byte_bounds=True, auto_refresh=False)


def _status_led_off(cfg):
    # the Display Pack's RGB LED is active low: drive it high so it stays dark
    if not cfg["rgb_led"]:
        return
    import digitalio

    for name in cfg["rgb_led"]:
        led = digitalio.DigitalInOut(pin(name))
        led.switch_to_output(value=True)


def _read_settings(getenv):
    """The profile from settings.toml; then the parser is unloaded (on the device): nothing
    else needs it, and its code is ~4 KB of heap (bench/firmware_memory.py)."""
    from . import settings

    cfg = settings.read(getenv if getenv is not None else os.getenv)
    forget("companion.board.settings")
    return cfg


def _launched():
    """What the last VM asked this one to start (a game id, or "" for the menu), or None
    after a power-on or a reset: alarm.sleep_memory lives through a soft reload only."""
    try:
        import alarm

        mem = alarm.sleep_memory
        reason = supervisor.runtime.run_reason
    except (ImportError, AttributeError):
        return None
    if mem[0:2] != MARK:
        return None
    mem[0:2] = b"\0\0"  # taken: a later reset must not start the game again
    if reason != supervisor.RunReason.SUPERVISOR_RELOAD:
        return None
    n = mem[2]
    return str(bytes(mem[3:3 + n]), "utf-8")


def build(getenv=None):
    """``getenv``: where the LUNCHBOX_* values come from (os.getenv reads settings.toml)."""
    getenv = getenv if getenv is not None else os.getenv
    # the heap trace (companion/app/trace.py): bytes held back from the start, as a margin
    trace = getenv("LUNCHBOX_TRACE") or 0
    hold = getenv("LUNCHBOX_TRACE_HOLD") or 0
    held = bytearray(hold) if trace and hold else None
    cfg = _read_settings(getenv)
    pixels = None
    if cfg["neopixel"]:
        import neopixel

        pixels = neopixel.NeoPixel(pin(cfg["neopixel"]), cfg["neopixel_count"],
                                   brightness=0.2, auto_write=False)
    _status_led_off(cfg)
    launched = _launched()
    link = None
    try:
        import usb_cdc

        link = usb_cdc.data
    except ImportError:
        pass
    buttons = KeypadButtons(cfg["buttons"])
    hw = Hardware(
        display=_display(cfg, launched is not None),
        buttons=buttons,
        clock=supervisor.ticks_ms,
        nvm=microcontroller.nvm,
        profile=cfg,
        pixels=pixels,
        link=link,
        watchdog=Watchdog(),
        idle=buttons.idle,
        uid=bytes(microcontroller.cpu.uid),
    )
    if getenv("LUNCHBOX_BATTERY") == "lipo":
        hw.supply = Supply()
    hw.trace = trace
    hw.held = held
    hw.relaunch = relaunch
    hw.launched = launched
    # this module goes too (code.py holds no name of it): the app never runs its setup code
    forget(__name__)
    return hw
