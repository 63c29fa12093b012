"""The device-only files (boot.py, code.py, companion/board/hwpico.py) against stand-ins of the
CircuitPython modules they use: the right pins reach the right drivers for both displays, the
keypad's key numbers map to the profile's roles, and the data channel is enabled."""

import os
import sys
import types
from pathlib import Path

import pytest
from test_firmware_core import DISPLAY_PACK, SSD1306  # the rendered profiles

ROOT = Path(__file__).resolve().parent.parent
calls = {}


class Pin:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name


class FakeDriver:
    """What busdisplay.BusDisplay / adafruit_displayio_ssd1306.SSD1306 look like to the app."""

    def __init__(self, bus, **kw):
        self.bus = bus
        self.kw = kw
        self.auto_refresh = True
        self.root_group = None
        self.brightness = 1.0
        self.refreshes = 0
        calls["driver"] = self

    def refresh(self):
        self.refreshes += 1


class FakeBusDisplay(FakeDriver):
    """busdisplay.BusDisplay, which the ST7789 is built as, with its init sequence."""

    def __init__(self, bus, init_sequence, **kw):
        super().__init__(bus, **kw)
        self.init_sequence = init_sequence


class FakeFourWire(tuple):
    """fourwire.FourWire with the real signature (CircuitPython 10 shared-bindings: reset is
    a keyword, None if unwired; baudrate's default 24 MHz); what is sent through it
    (``send``) is kept in calls["sent"] with the fake clock's time."""

    def __new__(cls, spi, *, command, chip_select, reset=None, baudrate=24000000, polarity=0,
                phase=0):
        return super().__new__(cls, ("FourWire", spi, command, chip_select) + (
            (("reset", reset),) if reset else ()) + (
            (("baudrate", baudrate),) if baudrate != 24000000 else ()))

    def send(self, command, data):
        calls.setdefault("sent", []).append((command, bytes(data), clock[0]))


class FakeI2CDisplayBus(FakeFourWire):
    """i2cdisplaybus.I2CDisplayBus: its signature, and what is sent through it."""

    def __new__(cls, i2c, *, device_address, reset=None):
        return tuple.__new__(cls, ("I2C bus", i2c, device_address) + (
            (("reset", reset),) if reset else ()))


clock = [0]  # the fake supervisor.ticks_ms; panelwake's sleeps move it on (_sleeps)


def _sleeps(monkeypatch):
    """panelwake's time.sleep moves the fake clock on instead of sleeping (its module only:
    other threads of the test run sleep for real)."""
    monkeypatch.setattr(sys.modules["companion.board.panelwake"], "time", types.SimpleNamespace(
        sleep=lambda s: clock.__setitem__(0, clock[0] + round(s * 1000))))


class FakeEvent:
    def __init__(self):
        self.key_number = 0
        self.pressed = False
        self.timestamp = 0


class FakeKeys:
    def __init__(self, pins, value_when_pressed, pull):
        calls["keys"] = (pins, value_when_pressed, pull)
        self.pending = []
        outer = self

        class Events:
            overflowed = False

            def clear(self):
                outer.pending = []
                self.overflowed = False

            def get_into(self, event):
                if not outer.pending:
                    return False
                event.key_number, event.pressed, event.timestamp = outer.pending.pop(0)
                return True

        self.events = Events()
        self.resets = 0
        calls["keys_obj"] = self

    def reset(self):
        self.resets += 1


def fake_modules(monkeypatch, settings_text):
    from companion.board.settings import parse_toml

    values = parse_toml(settings_text)
    monkeypatch.setattr(os, "getenv", lambda k, d=None: values.get(k, d))
    board = types.ModuleType("board")
    for i in range(29):
        setattr(board, "GP{}".format(i), Pin("GP{}".format(i)))
    keypad = types.ModuleType("keypad")
    keypad.Keys = FakeKeys
    keypad.Event = FakeEvent
    micro = types.ModuleType("microcontroller")
    micro.nvm = bytearray(b"\xff" * 4096)
    micro.cpu = types.SimpleNamespace(uid=bytearray(b"\xe6\x61\x38\x10\x43\x2b\x61\x2f"))

    class WD:
        timeout = None
        mode = None
        fed = 0

        def feed(self):
            self.fed += 1

    micro.watchdog = WD()
    supervisor = types.ModuleType("supervisor")
    supervisor.ticks_ms = lambda: clock[0]
    clock[0] = 1234
    busio = types.ModuleType("busio")
    busio.SPI = lambda sck, MOSI: ("SPI", sck, MOSI)
    busio.I2C = lambda scl, sda, frequency: ("I2C", scl, sda, frequency)
    fourwire = types.ModuleType("fourwire")
    fourwire.FourWire = FakeFourWire
    i2cbus = types.ModuleType("i2cdisplaybus")
    i2cbus.I2CDisplayBus = FakeI2CDisplayBus
    bd = types.ModuleType("busdisplay")
    bd.BusDisplay = FakeBusDisplay
    ssd = types.ModuleType("adafruit_displayio_ssd1306")
    ssd.SSD1306 = FakeDriver
    neo = types.ModuleType("neopixel")
    neo.NeoPixel = lambda pin, n, brightness, auto_write: calls.setdefault(
        "neopixel", ("NeoPixel", pin, n, auto_write))
    dio = types.ModuleType("digitalio")

    class DigitalInOut:
        def __init__(self, pin):
            self.pin = pin

        def switch_to_output(self, value):
            calls.setdefault("leds_off", []).append((self.pin.name, value))

    dio.DigitalInOut = DigitalInOut
    usb = types.ModuleType("usb_cdc")
    usb.data = "the data port"
    usb.enable = lambda **kw: calls.setdefault("usb", kw)
    wdmod = types.ModuleType("watchdog")
    wdmod.WatchDogMode = types.SimpleNamespace(RESET="RESET")
    for name, mod in (("board", board), ("keypad", keypad), ("microcontroller", micro),
                      ("supervisor", supervisor), ("busio", busio), ("fourwire", fourwire),
                      ("i2cdisplaybus", i2cbus), ("busdisplay", bd),
                      ("adafruit_displayio_ssd1306", ssd), ("neopixel", neo),
                      ("digitalio", dio), ("usb_cdc", usb), ("watchdog", wdmod)):
        monkeypatch.setitem(sys.modules, name, mod)
    # the modules that read the board at import, and the package's attributes, or
    # `from companion.board import hwpico` finds the old module (built on another test's fake
    # board)
    import companion.board

    for name in ("hwpico", "picoparts", "panelwake"):
        monkeypatch.delitem(sys.modules, "companion.board." + name, raising=False)
        monkeypatch.delattr(companion.board, name, raising=False)
    calls.clear()
    return micro


def test_display_pack_build(monkeypatch):
    micro = fake_modules(monkeypatch, DISPLAY_PACK)
    from companion.board import hwpico

    hw = hwpico.build()
    d = calls["driver"]
    # SPI(sck=GP18, MOSI=GP19), FourWire(command=dc GP16, chip_select=cs GP17) at the
    # profile's clock, the ST7789V's fastest
    assert repr(d.bus) == repr(("FourWire", ("SPI", Pin("GP18"), Pin("GP19")), Pin("GP16"),
                                Pin("GP17"), ("baudrate", 62500000)))
    # the Display Pack's window, in the panel's landscape addressing (MV): displayio turns
    # nothing
    assert (d.kw["rowstart"], d.kw["colstart"]) == (53, 40)
    assert d.kw["width"] == 240 and d.kw["height"] == 135 and d.kw["rotation"] == 0
    assert d.kw["backlight_pin"].name == "GP20"
    assert d.auto_refresh is False and d.root_group is hw.display.root
    assert type(hw.display).__name__ == "ColorDisplay"
    assert hw.uid == b"\xe6\x61\x38\x10\x43\x2b\x61\x2f"  # cpu.uid: the board id records carry
    pins, pressed_value, pull = calls["keys"]
    assert [p.name for p in pins] == ["GP12", "GP13", "GP14", "GP15"]
    assert pressed_value is False and pull is True  # buttons to GND, internal pull-ups
    calls["keys_obj"].pending = [(2, True, 10), (2, False, 90), (3, True, 400)]
    # each transition with keypad's timestamp: a tap read late is still a tap
    assert hw.buttons.poll() == [(2, True, 10), (2, False, 90), (3, True, 400)]
    assert calls["neopixel"][1].name == "GP22" and calls["neopixel"][2] == 8
    assert calls["neopixel"][3] is False  # auto_write off: one show() per frame
    assert sorted(calls["leds_off"]) == [("GP6", True), ("GP7", True), ("GP8", True)]
    assert hw.nvm is micro.nvm and hw.link == "the data port" and hw.clock() == 1234
    hw.watchdog.start(8)
    hw.watchdog.feed()
    assert micro.watchdog.timeout == 8 and micro.watchdog.mode == "RESET"
    assert micro.watchdog.fed == 1


def test_on_the_board_build_lets_its_setup_code_go(monkeypatch):
    """hwpico's setup code (the pins, the panels' init sequences) runs once: on the board
    build() drops the module, and nothing the app keeps refers to it (a function of it in
    ``hw`` would keep all of it in the heap). The parts the app runs are picoparts.py's."""
    import gc
    import weakref

    fake_modules(monkeypatch, DISPLAY_PACK + 'LUNCHBOX_BATTERY = "lipo"\n')
    sys.modules["board"].VOLTAGE_MONITOR = Pin("GPIO29")
    sys.modules["board"].VBUS_SENSE = Pin("GPIO24")
    monkeypatch.setitem(sys.modules, "analogio", types.SimpleNamespace(AnalogIn=Pin))
    import companion.board
    from companion.app import unload
    from companion.board.hwpico import build

    monkeypatch.setattr(unload, "UNLOAD", True)  # as on the device

    module = weakref.ref(sys.modules["companion.board.hwpico"])
    hw = build()
    del build
    gc.collect()
    assert "companion.board.hwpico" not in sys.modules
    assert not hasattr(companion.board, "hwpico")
    assert module() is None  # freed: hw holds nothing of it
    for part in (hw.buttons, hw.watchdog, hw.supply, hw.relaunch, hw._idle):
        owner = getattr(part, "__module__", None) or type(part).__module__
        assert owner == "companion.board.picoparts", part
    hw.idle()
    assert hw.launched is None and type(hw.display).__name__ == "ColorDisplay"
    # the rest of the ST7789's power-on runs at the first refresh, and then its code goes too
    _sleeps(monkeypatch)  # (which holds the module itself until the test ends)
    hw.display.refresh()
    assert "companion.board.panelwake" not in sys.modules
    assert not hasattr(companion.board, "panelwake")
    assert hw.display.wake is None and [c for c, _a, _t in calls["sent"]][0] == 0x11


def test_ssd1306_build_maps_the_fifth_button_to_undo(monkeypatch):
    fake_modules(monkeypatch, SSD1306)
    from companion.board import hwpico

    hw = hwpico.build()
    d = calls["driver"]
    assert repr(d.bus) == repr(("I2C bus", ("I2C", Pin("GP5"), Pin("GP4"), 400000), 0x3C))
    assert (d.kw["width"], d.kw["height"]) == (128, 64)
    assert type(hw.display).__name__ == "MonoDisplay"
    assert hw.buttons.ids == [0, 1, 2, 3, 4]
    assert "leds_off" not in calls


def _library_ssd1306(monkeypatch, **kw):
    """What adafruit_displayio_ssd1306.SSD1306 gives BusDisplay: (init sequence, settings)."""
    monkeypatch.setitem(sys.modules, "busdisplay", types.SimpleNamespace(
        BusDisplay=FakeBusDisplay))
    monkeypatch.delitem(sys.modules, "adafruit_displayio_ssd1306", raising=False)
    import adafruit_displayio_ssd1306

    monkeypatch.delitem(sys.modules, "adafruit_displayio_ssd1306")  # not left for other tests
    lib = adafruit_displayio_ssd1306.SSD1306(None, **kw)
    return lib.init_sequence, lib.kw


@pytest.mark.parametrize("size", [(128, 64, 0), (128, 64, 180), (128, 32, 0), (64, 128, 90),
                                  (64, 32, 0), (32, 64, 90), (64, 48, 0), (64, 48, 90),
                                  (72, 40, 0), (72, 40, 270), (128, 32, 180)])
def test_the_ssd1306_gets_the_library_setup_without_its_waits(monkeypatch, size):
    """The OLED is set up as adafruit_displayio_ssd1306 sets it up (the same commands and
    arguments, the same BusDisplay settings: window, colour depth, addressing, brightness
    command), without the 10 ms BusDisplay waits after each of its 13 commands."""
    width, height, rotation = size
    text = SSD1306
    for key, was, now in (("WIDTH", 128, width), ("HEIGHT", 64, height), ("ROTATION", 0, rotation)):
        text = text.replace("LUNCHBOX_DISPLAY_{} = {}".format(key, was),
                            "LUNCHBOX_DISPLAY_{} = {}".format(key, now))
    fake_modules(monkeypatch, text)
    from companion.board import hwpico

    hw = hwpico.build()
    d = calls["driver"]
    seq, kw = _library_ssd1306(monkeypatch, width=width, height=height, rotation=rotation)
    ours = _commands(d.init_sequence)
    assert [(c, a) for c, a, _ms in ours] == [(c, a) for c, a, _ms in _commands(seq)]
    # the library: BusDisplay's 10 ms after each of its commands (13; 14 for the 72x40)
    assert sum(ms for _c, _a, ms in ours) == 0
    assert sum(ms for *_x, ms in _commands(seq)) == 10 * len(ours) >= 130
    assert dict(d.kw, auto_refresh=None) == dict(kw, auto_refresh=None)
    assert type(hw.display).__name__ == "MonoDisplay"


def test_the_oled_sleeps_while_the_screen_is_off(monkeypatch):
    """Screen off: the SSD1306's sleep mode (0xAE, as the library's sleep() sends it); the
    press that wakes it sends 0xAF before the screen is drawn again. Dim sends neither."""
    from companion.power.idle import AWAKE, DIM, OFF

    fake_modules(monkeypatch, SSD1306)
    from companion.board import hwpico

    d = hwpico.build().display
    d.set_power(DIM, 50)
    assert "sent" not in calls
    d.set_power(OFF, 50)
    assert [c for c, _a, _t in calls["sent"]] == [0xAE]
    d.set_power(AWAKE, 50)
    assert [c for c, _a, _t in calls["sent"]] == [0xAE, 0xAF]
    assert d.root.hidden is False


def test_a_pin_the_board_lacks_is_named(monkeypatch):
    fake_modules(monkeypatch, DISPLAY_PACK.replace("ok=GP14", "ok=GP40"))
    from companion.board import hwpico

    with pytest.raises(ValueError, match="GP40"):
        hwpico.build()


def test_boot_enables_the_data_channel(monkeypatch):
    fake_modules(monkeypatch, DISPLAY_PACK)
    exec(compile((ROOT / "firmware" / "boot.py").read_text(), "boot.py", "exec"), {})
    assert calls["usb"] == {"console": True, "data": True}


def test_code_py_runs_the_app_only_on_circuitpython(monkeypatch):
    source = compile((ROOT / "firmware" / "code.py").read_text(), "code.py", "exec")
    ran = []
    fake_main = types.SimpleNamespace(run=lambda hw: ran.append(hw))
    fake_hw = types.SimpleNamespace(build=lambda: "hw")
    import companion.app
    import companion.board

    monkeypatch.setattr(companion.app, "main", fake_main, raising=False)
    monkeypatch.setattr(companion.board, "hwpico", fake_hw, raising=False)
    monkeypatch.setitem(sys.modules, "companion.app.main", fake_main)
    monkeypatch.setitem(sys.modules, "companion.board.hwpico", fake_hw)
    exec(source, {})
    assert ran == []  # CPython: importing it (as the stdlib's "code") does nothing
    monkeypatch.setattr(sys, "implementation", types.SimpleNamespace(name="circuitpython"))
    exec(source, {})
    assert ran == ["hw"]


@pytest.mark.parametrize("profile,pin", [("display-pack", "GP21"), ("ssd1306", "GP3")])
def test_a_display_reset_pin_reaches_the_bus(monkeypatch, profile, pin):
    """The profile's display reset pin (RST on a GPIO) is passed to FourWire / I2CDisplayBus:
    without it a panel whose RST is wired to the Pico can stay blank."""
    text = DISPLAY_PACK if profile == "display-pack" else SSD1306
    key = 'LUNCHBOX_DISPLAY_PINS = "'
    text = text.replace(key, key + "reset={} ".format(pin))
    fake_modules(monkeypatch, text)
    from companion.board import hwpico

    hwpico.build()
    bus = calls["driver"].bus
    assert repr(("reset", Pin(pin))) in [repr(part) for part in bus]


def test_no_circuitpython_8_fallbacks():
    # displayio.FourWire / displayio.I2CDisplay are gone in CircuitPython 10 (and the
    # drivers need 9+): the firmware must not name them
    src = (ROOT / "firmware" / "companion" / "board" / "hwpico.py").read_text()
    assert "displayio.FourWire" not in src and "I2CDisplay as" not in src
    assert "from displayio import FourWire" not in src


def test_a_lost_release_after_a_full_event_queue_is_not_a_stuck_button(monkeypatch):
    """keypad's queue holds 64 events; when the app is busy longer it drops the rest and sets
    ``overflowed``. A dropped release would leave a button held (auto-repeating next/prev):
    the held buttons are released, the queue cleared and the scanner reset."""
    fake_modules(monkeypatch, DISPLAY_PACK)
    from companion.board import hwpico

    hw = hwpico.build()
    keys = calls["keys_obj"]
    keys.pending = [(1, True, 5), (2, True, 6), (2, False, 7)]  # next down, OK tapped
    assert hw.buttons.poll() == [(1, True, 5), (2, True, 6), (2, False, 7)]
    keys.pending = [(0, True, 8)] * 10  # ... and the queue overflowed: next's release lost
    keys.events.overflowed = True
    assert hw.buttons.poll() == [(1, False, None)]  # its time: when the app reads it
    assert keys.resets == 1 and keys.pending == [] and not keys.events.overflowed
    keys.pending = [(3, True, 9), (3, False, 10)]
    assert hw.buttons.poll() == [(3, True, 9), (3, False, 10)]


def test_an_oled_that_does_not_answer_is_named(monkeypatch):
    """busio.I2C raises RuntimeError without pull-ups (nothing wired), I2CDisplayBus raises
    ValueError when no device answers at the address: the message says what to check."""
    fake_modules(monkeypatch, SSD1306)

    def no_pullups(scl, sda, frequency):
        raise RuntimeError("No pull up found on SDA or SCL; check your wiring")

    sys.modules["busio"].I2C = no_pullups
    from companion.board import hwpico

    with pytest.raises(RuntimeError, match="no pull-ups on SDA GP4 / SCL GP5"):
        hwpico.build()

    def nobody(i2c, *, device_address, reset=None):
        raise ValueError("Unable to find I2C Display at 3c")

    sys.modules["busio"].I2C = lambda scl, sda, frequency: "i2c"
    sys.modules["i2cdisplaybus"].I2CDisplayBus = nobody
    with pytest.raises(ValueError, match="no OLED answers at address 0x3c"):
        hwpico.build()


def test_no_data_channel_until_boot_py_has_run(monkeypatch):
    """usb_cdc.data is None until boot.py has enabled it (a hard reset after the first sync):
    the app then runs without the link."""
    fake_modules(monkeypatch, DISPLAY_PACK)
    sys.modules["usb_cdc"].data = None
    from companion.board import hwpico

    assert hwpico.build().link is None



def _warm(monkeypatch, text, target=b"aqua_brunch"):
    """The stand-ins as a VM started by relaunch() finds them: the marker in sleep memory,
    a supervisor reload as the run reason."""
    fake_modules(monkeypatch, text)
    alarm = types.ModuleType("alarm")
    alarm.sleep_memory = bytearray(b"LB" + bytes((len(target),)) + target + b"\0" * 20)
    monkeypatch.setitem(sys.modules, "alarm", alarm)
    sup = sys.modules["supervisor"]
    sup.RunReason = types.SimpleNamespace(SUPERVISOR_RELOAD="reload", STARTUP="startup")
    sup.runtime = types.SimpleNamespace(run_reason="reload")
    return sup


def _commands(seq):
    """BusDisplay's reading of an init sequence: [(command, args, delay ms)]; a command
    without the delay bit is followed by 10 ms."""
    out = []
    i = 0
    while i < len(seq):
        n = seq[i + 1] & 0x7F
        delay = 10
        if seq[i + 1] & 0x80:
            delay = seq[i + 2 + n]
            delay = 500 if delay == 255 else delay
        out.append((seq[i], bytes(seq[i + 2:i + 2 + n]), delay))
        i += 2 + n + (1 if seq[i + 1] & 0x80 else 0)
    return out


def _library_sequence(monkeypatch):
    """The sequence adafruit_st7789.ST7789 (as lunchbox sync ships it, its defaults) gives
    BusDisplay."""
    monkeypatch.setitem(sys.modules, "busdisplay", types.SimpleNamespace(
        BusDisplay=FakeBusDisplay))
    monkeypatch.delitem(sys.modules, "adafruit_st7789", raising=False)
    import adafruit_st7789

    monkeypatch.delitem(sys.modules, "adafruit_st7789")  # not left for other tests
    return adafruit_st7789.ST7789(None, width=240, height=135).init_sequence


# MADCTL for the Display Pack's landscape (rotation 270): MX|MV|ML, the picture turned in the
# panel (Pimoroni's own driver's value), where adafruit_st7789's MX|MY leaves displayio to
# turn it (docs/firmware.md, "Screens and redraws")
LANDSCAPE_MADCTL = b"\x70"


def _modes(cmds, madctl=None):
    """What each mode command was last told (``madctl``: MADCTL's argument in its place)."""
    got = {c: a for c, a, _ms in cmds if c in (0x11, 0x3A, 0x36, 0x21, 0x13, 0x29)}
    if madctl is not None:
        got[0x36] = madctl
    return got


def _datasheet_power_on(hw, monkeypatch):
    """A power-on: BusDisplay sends SWRESET alone, without a wait; the display's first
    refresh sends the rest first: SLPOUT no sooner than the datasheet's 120 ms after the
    reset (the time the app and the menu take to build pass first), then the modes
    adafruit_st7789's sequence leaves the panel in, without its 1.2 s of delays."""
    _sleeps(monkeypatch)
    built = clock[0]
    driver = calls["driver"]
    got = _commands(driver.init_sequence)
    assert got == [(0x01, b"", 0)]  # SWRESET, no wait
    lib = _commands(_library_sequence(monkeypatch))
    assert "sent" not in calls  # nothing before the first refresh
    clock[0] += 40  # the app built in 40 ms: the refresh waits the rest of the 120
    hw.display.refresh()
    sent = calls["sent"]
    assert [c for c, _a, _t in sent] == [0x11, 0x3A, 0x36, 0x21, 0x13, 0x29]
    # SLPOUT's waits, with 2 ms for the board's sleeps ending up to a tick early
    assert sent[0][2] - built >= 122 and sent[1][2] - sent[0][2] >= 7
    assert sum(ms for _c, _a, ms in lib) >= 1000 and clock[0] - built <= 132
    assert {c: a for c, a, _t in sent} == _modes(lib, LANDSCAPE_MADCTL)
    assert driver.refreshes == 1
    hw.display.refresh()  # once only
    assert len(calls["sent"]) == 6 and driver.refreshes == 2
    return True


def test_after_a_power_on_the_st7789_gets_the_library_sequence(monkeypatch):
    """A power-on or a reset (no marker, or another run reason) sets the panel up with
    adafruit_st7789's commands, waiting what the datasheet asks."""
    sup = _warm(monkeypatch, DISPLAY_PACK)
    sup.runtime.run_reason = "startup"
    from companion.board import hwpico

    hw = hwpico.build()
    assert hw.launched is None
    assert _datasheet_power_on(hw, monkeypatch)


def test_the_st7789_reset_wait_passes_while_the_app_is_built(monkeypatch):
    """An app that took longer than 120 ms to build does not wait again before SLPOUT."""
    fake_modules(monkeypatch, DISPLAY_PACK)
    from companion.board import hwpico

    hw = hwpico.build()
    _sleeps(monkeypatch)
    built = clock[0]
    clock[0] += 300
    hw.display.refresh()
    assert calls["sent"][0][:2] == (0x11, b"") and calls["sent"][0][2] == built + 300
    assert clock[0] - built == 300 + 7  # only SLPOUT's 5 ms (and 2 for the board's sleeps)


def test_a_relaunched_vm_does_not_wait_for_the_st7789_again(monkeypatch):
    """In a VM started by relaunch() the ST7789 was set up by the VM before (a release sends
    the panel nothing): BusDisplay gets a short sequence that leaves the panel in the modes
    the library's leaves it in, without its 1.2 s of delays; the same window and pins."""
    _warm(monkeypatch, DISPLAY_PACK)
    from companion.board import hwpico

    hw = hwpico.build()
    d = calls["driver"]
    assert hw.launched == "aqua_brunch"
    assert (d.kw["rowstart"], d.kw["colstart"], d.kw["rotation"]) == (53, 40, 0)
    assert d.kw["backlight_pin"].name == "GP20" and d.kw["auto_refresh"] is False
    assert d.auto_refresh is False and d.root_group is hw.display.root
    short = _commands(d.init_sequence)
    assert sum(ms for _c, _a, ms in short) <= 7  # SLPOUT's 5 ms, 2 for the board's sleeps
    assert 0x01 not in [c for c, _a, _ms in short]  # no SWRESET: the panel keeps its RAM
    full = _commands(_library_sequence(monkeypatch))
    assert sum(ms for _c, _a, ms in full) >= 1000
    assert _modes(short) == _modes(full, LANDSCAPE_MADCTL)


def test_a_wired_reset_line_gets_the_full_sequence_after_a_relaunch(monkeypatch):
    """FourWire pulses a wired RST when the bus is made: the panel is reset, so it is set up
    from the start even in a relaunched VM."""
    key = 'LUNCHBOX_DISPLAY_PINS = "'
    _warm(monkeypatch, DISPLAY_PACK.replace(key, key + "reset=GP21 "))
    from companion.board import hwpico

    hw = hwpico.build()
    assert hw.launched == "aqua_brunch"
    assert _datasheet_power_on(hw, monkeypatch)
