"""What the real CircuitPython modules raise where Blinka and the stand-ins would not, and
how the firmware copes: the simulator raises what the device raises (lunchbox.sim.hw), and
these tests drive the firmware into each case. The behaviours are taken from CircuitPython's
source (shared-bindings and shared-module, CircuitPython 10)."""

import pytest

from lunchbox.sim import hw as sim_hw


@pytest.fixture
def no_backlight(user_profile):
    """A custom Display Pack build whose ST7789 has no backlight pin (always on)."""
    return user_profile("pico-display-pack", ('backlight = "GP20"\n', ""), name="no-backlight")


def test_the_simulator_refuses_brightness_without_a_backlight(no_backlight, simulate):
    sim = simulate(no_backlight, None)
    with pytest.raises(RuntimeError, match="Brightness not adjustable"):
        sim.driver.brightness = 0.5
    with pytest.raises(ValueError):
        sim.driver.brightness = 1.5
    sim = simulate("pico-display-pack", None)
    sim.driver.brightness = 0.5  # a backlight pin: dims
    assert sim.driver.brightness == 0.5


def test_an_st7789_without_backlight_starts_and_keeps_running(no_backlight, simulate, nvm):
    """The app sets the brightness at start and from Settings: on a panel that cannot dim
    that must not crash (it did: a crash loop, the menu never shown)."""
    sim = simulate(no_backlight, "wait:3000")
    assert sim.texts()[0] == "Lunchbox"  # not "Oops - restarting"
    # Settings > Brightness: change it, OK: saved, and still in Settings
    sim = simulate(no_backlight, "wait:3000 prev ok ok prev prev ok", nvm)
    assert sim.texts()[0] == "Settings"
    assert "30%" in sim.texts()  # 50% less two steps, saved
    assert sim.hw.display.dimmable  # a RuntimeError is not taken as final (a busy I2C bus)


# microcontroller.nvm: shared-bindings/nvm/ByteArray.c


def test_nvm_refuses_a_slice_and_value_of_different_lengths(nvm):
    nvm = sim_hw.FileNvm(nvm)
    with pytest.raises(ValueError, match="different lengths"):
        nvm[0:4] = b"abc"  # a bytearray would shrink to 4095 bytes
    with pytest.raises(ValueError, match="different lengths"):
        nvm[4090:4100] = bytes(10)  # cut to 4090:4096 first, as the device does; no growth
    with pytest.raises(NotImplementedError):
        nvm[0:4:2] = b"ab"
    with pytest.raises(NotImplementedError):
        nvm[0:2] = [1, 2]
    with pytest.raises(ValueError):
        nvm[0] = 256
    assert len(nvm) == 4096 and nvm.writes == 0 and nvm[0:4] == b"\xff" * 4
    nvm[4092:4096] = b"abcd"
    nvm[0] = 7
    assert nvm[4092:] == b"abcd" and nvm[0] == 7 and nvm.writes == 2


def test_the_store_writes_nvm_as_the_device_accepts(simulate, nvm):
    """The store's saves, records and compactions go through the device's rules: a whole run
    of the calculator with saves, a power cut and a resume."""
    sim = simulate("pico-ssd1306-5btn", "next next ok next ok ok " + "next ok " * 3
                   + ("next ok prev ok " * 40) + "reset ok", nvm)
    assert sim.texts()[0].startswith("Strength")
    assert sim.nvm.writes > 80


# neopixel (adafruit_pixelbuf, shared-module/adafruit_pixelbuf/PixelBuf.c)


def test_pixel_colours_are_read_as_the_device_reads_them():
    px = sim_hw.SimPixels(8)
    px[0] = (300, 120, 255)  # truncated to 8 bits on the device: 300 shows as 44
    px[1] = 0x0078FF
    px[2] = (1, 2, 3, 4)  # RGBW tuple: white ignored on an RGB strip
    assert px[0] == (44, 120, 255) and px[1] == (0, 120, 255) and px[2] == (1, 2, 3)
    with pytest.raises(ValueError):
        px[3] = (1, 2)
    with pytest.raises(TypeError):
        px[3] = ("red", 0, 0)


def test_the_led_colours_the_firmware_uses_are_valid():
    """Every colour the LED helpers send is a 3-tuple of 0..255 (what the strip shows is what
    the firmware meant)."""
    from companion.board.leds import Leds

    px = sim_hw.SimPixels(8)
    leds = Leds(px, 100, True)
    leds.bar(18, 24, (0, 120, 255))
    px.show()
    assert px.shown[:6] == [(0, 60, 127)] * 6 and px.shown[6:] == [(0, 0, 0)] * 2


def test_the_strip_is_written_only_when_what_it_shows_changes():
    """A game asks for its LEDs at every press, mostly unchanged: each write to the strip is a
    PIO state machine set up on the board (~25 ms of the press on the lane), so the helpers
    send a frame only when the colours or the brightness change, and every change still goes
    out at once."""
    from companion.board.leds import Leds

    class Counting(sim_hw.SimPixels):
        sent = 0

        def show(self):
            self.sent += 1
            super().show()

    px = Counting(8)
    leds = Leds(px, 100, True)
    assert px.sent == 1  # the strip dark from the start
    for _ in range(5):
        leds.off()
    assert px.sent == 1
    red = (255, 0, 0)
    leds.show([red] * 8)
    leds.show([red] * 8)
    assert px.sent == 2 and px.shown == [(127, 0, 0)] * 8
    leds.configure(50, True)  # the brightness changes: sent again, at the new brightness
    assert px.sent == 3 and px.shown == [(63, 0, 0)] * 8
    leds.configure(50, False)  # switched off in Settings: dark
    assert px.sent == 4 and px.shown == [(0, 0, 0)] * 8
    leds.show([red])  # a frame while switched off changes nothing on the strip
    assert px.sent == 4
    leds.configure(50, True)
    assert px.sent == 5 and px.shown == [(63, 0, 0)] + [(0, 0, 0)] * 7
    leds.wake(0)
    leds.tick(10 ** 6, lambda a, b: a - b)  # idle: dark; the wake shows the frame again
    assert px.shown == [(0, 0, 0)] * 8
    leds.wake(10 ** 6)
    assert px.sent == 7 and px.shown[0] == (63, 0, 0)


# watchdog (ports/raspberrypi/common-hal/watchdog/WatchDogTimer.c)


def test_the_watchdog_takes_at_most_8_seconds_as_on_the_pico():
    from companion.app import main

    wd = sim_hw.SimWatchdog(sim_hw.VirtualClock())
    with pytest.raises(ValueError):
        wd.start(9)
    wd.start(main.WATCHDOG_S)  # what the firmware asks for is accepted
    assert wd.timeout == 8
