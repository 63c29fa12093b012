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
    """keypad.Keys (debounced in the background) -> (button id, pressed) transitions."""

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
            out = [(b, False) for b in self.held]
            self.held = []
        while events.get_into(self.event):
            b = self.ids[self.event.key_number]
            pressed = self.event.pressed
            if pressed and b not in self.held:
                self.held.append(b)
            elif not pressed and b in self.held:
                self.held.remove(b)
            out.append((b, pressed))
        return out


class Watchdog:
    def __init__(self):
        self.wd = microcontroller.watchdog

    def start(self, seconds):
        from watchdog import WatchDogMode

        self.wd.timeout = seconds
        self.wd.mode = WatchDogMode.RESET

    def feed(self):
        self.wd.feed()


def _display(cfg):
    displayio.release_displays()
    pins = cfg["display_pins"]
    # the panel's RST line, when the profile wires one: the bus pulses it before the init
    reset = _pin(pins["reset"]) if "reset" in pins else None
    make = _st7789 if cfg["display"] == "st7789" else _ssd1306
    return displays.make(cfg["display"], make(cfg, pins, reset), cfg["width"], cfg["height"])


def _st7789(cfg, pins, reset):
    import busio
    from adafruit_st7789 import ST7789
    from fourwire import FourWire  # CircuitPython 9+; the drivers need 9+ anyway

    spi = busio.SPI(_pin(pins["sck"]), MOSI=_pin(pins["mosi"]))
    bus = FourWire(spi, command=_pin(pins["dc"]), chip_select=_pin(pins["cs"]), reset=reset)
    backlight = _pin(pins["backlight"]) if "backlight" in pins else None
    # the Display Pack's 240x135 window sits at an offset in the controller's RAM
    return ST7789(bus, width=cfg["width"], height=cfg["height"], rotation=cfg["rotation"],
                  rowstart=40, colstart=53, backlight_pin=backlight, auto_refresh=False)


def _ssd1306(cfg, pins, reset):
    import busio
    from adafruit_displayio_ssd1306 import SSD1306
    from i2cdisplaybus import I2CDisplayBus

    where = "SDA {} / SCL {}".format(pins["sda"], pins["scl"])
    try:
        i2c = busio.I2C(_pin(pins["scl"]), _pin(pins["sda"]), frequency=400000)
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


def build(getenv=None):
    """``getenv``: where the LUNCHBOX_* values come from (os.getenv reads settings.toml)."""
    cfg = _read_settings(getenv)
    pixels = None
    if cfg["neopixel"]:
        import neopixel

        pixels = neopixel.NeoPixel(_pin(cfg["neopixel"]), cfg["neopixel_count"],
                                   brightness=0.2, auto_write=False)
    _status_led_off(cfg)
    link = None
    try:
        import usb_cdc

        link = usb_cdc.data
    except ImportError:
        pass
    return Hardware(
        display=_display(cfg),
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
