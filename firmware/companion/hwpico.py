"""Build ``hw`` on the Pico from settings.toml. The only module that imports ``board``."""

import os
import time

import board
import displayio
import keypad
import microcontroller
import supervisor

from . import display as displays
from .core.buttons import button_id
from .hwbase import Hardware


def _pin(name):
    try:
        return getattr(board, name)
    except AttributeError:
        raise ValueError("settings.toml names pin {} which this board lacks".format(name)) from None


class KeypadButtons:
    """keypad.Keys (debounced in the background) -> (button id, pressed, time) transitions;
    the time is the event's timestamp (supervisor.ticks_ms's clock, as hw.clock), None for a
    release made up after an overflow (the app takes the time it reads it)."""

    def __init__(self, buttons):
        self.ids = [button_id(role) for role, _pin in buttons]
        pins = [_pin(pin) for _role, pin in buttons]
        self.keys = keypad.Keys(pins, value_when_pressed=False, pull=True)
        self.event = keypad.Event()
        self.held = []  # button ids down, as the events said

    def poll(self):
        out = []
        events = self.keys.events
        if events.overflowed:
            # The queue (64 events) filled while the app was busy and dropped the rest: a
            # release may be lost, and a button taken as held forever would auto-repeat.
            # Release what was held, and let keypad report what is down now.
            events.clear()
            self.keys.reset()
            out = [(b, False, None) for b in self.held]
            self.held = []
        while events.get_into(self.event):
            b = self.ids[self.event.key_number]
            pressed = self.event.pressed
            if pressed and b not in self.held:
                self.held.append(b)
            elif not pressed and b in self.held:
                self.held.remove(b)
            out.append((b, pressed, self.event.timestamp))
        return out


class Supply:
    """The charge of a LiPo cell on VSYS (LUNCHBOX_BATTERY = "lipo"): the Pico and Pico 2
    read VSYS through a 1/3 divider on GPIO29 (board.VOLTAGE_MONITOR, ADC3) and see USB power
    on GPIO24 (board.VBUS_SENSE); on a Pico W / Pico 2 W both go through the wireless chip,
    and CircuitPython's AnalogIn and DigitalInOut handle that. Neither pin is on the header,
    so no profile pin can take them."""

    SAMPLES = 8  # the RP2040's ADC is noisy with the SMPS in power-save mode

    def __init__(self):
        import analogio
        import digitalio

        self.adc = analogio.AnalogIn(_pin("VOLTAGE_MONITOR"))
        self.vbus = digitalio.DigitalInOut(_pin("VBUS_SENSE"))  # an input, driven by the board

    def level(self):
        if self.vbus.value:
            return None  # on USB: the battery (if any) is charging, nothing to show
        from .core.charge import percent  # on the battery only

        total = 0
        for _ in range(self.SAMPLES):
            total += self.adc.value
        # 16-bit reading of VSYS/3 against the 3.3 V reference, in millivolts
        return percent(total // self.SAMPLES * 9900 // 65535)


class Watchdog:
    def __init__(self):
        self.wd = microcontroller.watchdog

    def start(self, seconds):
        from watchdog import WatchDogMode

        self.wd.timeout = seconds
        self.wd.mode = WatchDogMode.RESET

    def feed(self):
        self.wd.feed()


# the display's SPI or I2C bus: a display bus keeps it claimed through a reload (FourWire marks
# it never-reset), so relaunch() lets it go, or the next VM finds its pins "in use"
_buses = []


def _display(cfg, warm=False):
    """``warm``: this VM was started by relaunch(), so the panel was set up by the VM before
    and has stayed powered."""
    displayio.release_displays()
    pins = cfg["display_pins"]
    # the panel's RST line, when the profile wires one: the bus pulses it before the init
    reset = _pin(pins["reset"]) if "reset" in pins else None
    if cfg["display"] == "st7789":
        driver = _st7789(cfg, pins, reset, warm and reset is None)
    else:
        driver = _ssd1306(cfg, pins, reset)
    return displays.make(cfg["display"], driver, cfg["width"], cfg["height"])


# ST7789 init sequences for busdisplay.BusDisplay: command, argument count (| 0x80: a delay
# follows the arguments), arguments, delay in ms (255: 500 ms); a command without a delay is
# followed by 10 ms. After power-on or a reset: adafruit_st7789's commands (bgr, invert) with
# the ST7789V datasheet's waits instead of its 1.2 s of delays: 120 ms after SWRESET before
# SLPOUT (150 here), 5 ms after SLPOUT before the next command (120 here, also the least
# before a later SLPIN), none after the rest. Power-on to the menu was 4.2 s, the delays most
# of the Display Pack's extra second over the OLED.
_ST7789_POWER_ON = (b"\x01\x80\x96" b"\x11\x80\x78" b"\x3a\x81\x55\x0a" b"\x36\x81\x08\x00"
                    b"\x13\x80\x00" b"\x29\x80\x0a" b"\x36\x81\xc0\x00" b"\x21\x80\x00")
# A panel already set up is only told the same modes again, without delays (SLPOUT 5 ms, in
# case): those delays were most of a game's opening in its fresh VM.
_ST7789_AWAKE = (b"\x11\x80\x05" b"\x3a\x81\x55\x00" b"\x36\x81\xc0\x00" b"\x21\x80\x00"
                 b"\x13\x80\x00" b"\x29\x80\x00")


def _st7789(cfg, pins, reset, awake):
    """``awake``: the panel was set up by the VM before this one (released, not reset: a
    release sends the panel nothing, and no RST line is wired). BusDisplay with the sequence
    itself, not adafruit_st7789.ST7789 (which adds only its sequence), so the menu's VM holds
    the same heap after a power-on as after a game (the library's code was ~700 B of it)."""
    import busio
    from busdisplay import BusDisplay
    from fourwire import FourWire  # CircuitPython 9+; the drivers need 9+ anyway

    spi = busio.SPI(_pin(pins["sck"]), MOSI=_pin(pins["mosi"]))
    _buses.append(spi)
    bus = FourWire(spi, command=_pin(pins["dc"]), chip_select=_pin(pins["cs"]), reset=reset)
    backlight = _pin(pins["backlight"]) if "backlight" in pins else None
    # the Display Pack's 240x135 window sits at an offset in the controller's RAM
    return BusDisplay(bus, _ST7789_AWAKE if awake else _ST7789_POWER_ON, width=cfg["width"],
                      height=cfg["height"], rotation=cfg["rotation"], rowstart=40, colstart=53,
                      backlight_pin=backlight, auto_refresh=False)


def _ssd1306(cfg, pins, reset):
    import busio
    from adafruit_displayio_ssd1306 import SSD1306
    from i2cdisplaybus import I2CDisplayBus

    where = "SDA {} / SCL {}".format(pins["sda"], pins["scl"])
    try:
        i2c = busio.I2C(_pin(pins["scl"]), _pin(pins["sda"]), frequency=400000)
        _buses.append(i2c)
    except RuntimeError as e:  # "No pull up found on SDA or SCL; check your wiring"
        raise RuntimeError("display: no pull-ups on {} - is the OLED connected there? "
                           "({})".format(where, e)) from None
    try:
        bus = I2CDisplayBus(i2c, device_address=cfg["address"], reset=reset)
    except ValueError as e:  # "Unable to find I2C Display at 3c": nothing answered
        raise ValueError("display: no OLED answers at address 0x{:02x} on {} - check the "
                         "wiring and LUNCHBOX_DISPLAY_ADDRESS ({})".format(
                             cfg["address"], where, e)) from None
    return SSD1306(bus, width=cfg["width"], height=cfg["height"], rotation=cfg["rotation"],
                   auto_refresh=False)


def _status_led_off(cfg):
    # the Display Pack's RGB LED is active low: drive it high so it stays dark
    if not cfg["rgb_led"]:
        return
    import digitalio

    for name in cfg["rgb_led"]:
        led = digitalio.DigitalInOut(_pin(name))
        led.switch_to_output(value=True)


def _read_settings(getenv):
    """The profile from settings.toml; then the parser is unloaded: nothing else on the
    device needs it, and its code is ~4 KB of heap (bench/firmware_memory.py)."""
    import sys

    from .core import settings

    cfg = settings.read(getenv if getenv is not None else os.getenv)
    if sys.implementation.name != "cpython":  # a PC process may share the module
        del sys.modules["companion.core.settings"]
        del sys.modules["companion.core"].settings
    return cfg


_MARK = b"LB"  # sleep_memory[0:2] when a VM was asked for by relaunch()


def _launched():
    """What the last VM asked this one to start (a game id, or "" for the menu), or None
    after a power-on or a reset: alarm.sleep_memory lives through a soft reload only."""
    try:
        import alarm

        mem = alarm.sleep_memory
        reason = supervisor.runtime.run_reason
    except (ImportError, AttributeError):
        return None
    if mem[0:2] != _MARK:
        return None
    mem[0:2] = b"\0\0"  # taken: a later reset must not start the game again
    if reason != supervisor.RunReason.SUPERVISOR_RELOAD:
        return None
    n = mem[2]
    return str(bytes(mem[3:3 + n]), "utf-8")


def relaunch(target):
    """Start a fresh VM for ``target`` (a game id, or "" for the menu): the heap the last
    game or the menu held is all free again (companion/launch.py). Never returns."""
    import alarm

    data = target.encode()
    alarm.sleep_memory[0:3 + len(data)] = _MARK + bytes((len(data),)) + data
    # a display left configured lives on into the next VM (CircuitPython 9.2.2 keeps it, its
    # bus and pins, but gives Python no way back to it), and the Pico allows one display
    # bus: the next VM could build none. Released, the panel keeps its setup (_st7789).
    displayio.release_displays()
    for bus in _buses:
        bus.deinit()
    supervisor.reload()
    while True:  # the reload is raised at the next bytecode check
        time.sleep(0.01)


def build(getenv=None):
    """``getenv``: where the LUNCHBOX_* values come from (os.getenv reads settings.toml)."""
    getenv = getenv if getenv is not None else os.getenv
    # the heap trace (companion/trace.py): bytes held back from the start, as a margin
    trace = getenv("LUNCHBOX_TRACE") or 0
    hold = getenv("LUNCHBOX_TRACE_HOLD") or 0
    held = bytearray(hold) if trace and hold else None
    cfg = _read_settings(getenv)
    pixels = None
    if cfg["neopixel"]:
        import neopixel

        pixels = neopixel.NeoPixel(_pin(cfg["neopixel"]), cfg["neopixel_count"],
                                   brightness=0.2, auto_write=False)
    _status_led_off(cfg)
    launched = _launched()
    link = None
    try:
        import usb_cdc

        link = usb_cdc.data
    except ImportError:
        pass
    hw = Hardware(
        display=_display(cfg, launched is not None),
        buttons=KeypadButtons(cfg["buttons"]),
        clock=supervisor.ticks_ms,
        nvm=microcontroller.nvm,
        profile=cfg,
        pixels=pixels,
        link=link,
        watchdog=Watchdog(),
        idle=lambda: time.sleep(0.005),
        uid=bytes(microcontroller.cpu.uid),
    )
    if getenv("LUNCHBOX_BATTERY") == "lipo":
        hw.supply = Supply()
    hw.trace = trace
    hw.held = held
    hw.relaunch = relaunch
    hw.launched = launched
    return hw
