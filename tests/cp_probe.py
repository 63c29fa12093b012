"""Typed probe: what the firmware does with the parts that reach it through untyped
parameters (``hw.nvm``, ``hw.link``, ``hw.pixels``, the display driver), written with the
real CircuitPython types so tests/test_api_check.py checks those calls against the stubs.
Never imported at run time. Keep it in step with the calls in companion/ (each line says
where the call is made); companion/screen/display.py, leds.py and hwbase.py carry type comments for
their own parameters."""

import busdisplay
import fourwire
import i2cdisplaybus
import microcontroller
import neopixel
import nvm
import usb_cdc
from adafruit_st7789 import ST7789

from companion.board.hwbase import Hardware
from companion.board.leds import Leds
from companion.screen import display as displays
from companion.store.store import Store


def store_on_nvm(memory: nvm.ByteArray) -> None:
    # store/store.py, store/nvmlog.py (and nvmscan.py at mount): the log lives in
    # microcontroller.nvm
    Store(memory)
    head: bytearray = memory[0:16]
    memory[0:4] = bytes(4)
    memory[len(memory) - 4:len(memory)] = bytearray(4)
    memory[0] = head[0]


def data_link(link: usb_cdc.Serial) -> None:
    # app/loop.py _serve_link: read what waits, answer
    n = link.in_waiting
    if n:
        data = link.read(n)
        if data:
            link.write(bytes(data))


def driver(d: busdisplay.BusDisplay, st: ST7789) -> None:
    # display.py: what _Display does with its driver
    displays.make("st7789", st, 240, 135)
    d.auto_refresh = False
    d.root_group = displays.displayio.Group()
    d.brightness = 0.5
    d.refresh()


def panel_commands(d: busdisplay.BusDisplay, spi_bus: fourwire.FourWire,
                   i2c_bus: i2cdisplaybus.I2CDisplayBus) -> None:
    # display.py MonoDisplay._panel: the SSD1306's sleep and wake, through its display's bus
    d.bus.send(0xAE, b"")
    i2c_bus.send(0xAF, b"")
    # panelwake.panel_wake: the rest of the ST7789's power-on, before the first refresh
    spi_bus.send(0x11, bytearray(b"\x11\x80\x07")[2:2])


def pixels(p: neopixel.NeoPixel) -> None:
    # leds.py: a frame at a brightness, one show()
    Leds(p, 50, True)
    p.brightness = 0.25
    p[0] = (0, 120, 255)
    p.show()


def hardware(memory: nvm.ByteArray, link: usb_cdc.Serial, p: neopixel.NeoPixel,
             d: ST7789) -> Hardware:
    # hwpico.build() and main.run: the parts as the app gets them
    nv = microcontroller.nvm
    assert nv is not None
    return Hardware(displays.make("st7789", d, 240, 135), None, lambda: 0, memory, {},
                    pixels=p, link=link)
