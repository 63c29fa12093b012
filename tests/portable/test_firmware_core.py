"""The firmware's hardware-free core: settings parsing, button timing, the event queue, text
fitting. Runs on CPython and on MicroPython (the lane)."""

from _harness import raises
from companion.core import settings
from companion.core.buttons import (
    BACK,
    LONG,
    NEXT,
    OK,
    PRESS,
    PREV,
    REPEAT,
    UNDO,
    Buttons,
    EventQueue,
    button_id,
    ticks_diff,
)
from companion.core.text import fit, wrap

# What lunchbox.profiles.render_settings writes for the two reference builds.
DISPLAY_PACK = """LUNCHBOX_PROFILE = "pico-display-pack"
LUNCHBOX_BOARD = "raspberry_pi_pico"
LUNCHBOX_CHIP = "RP2040"
LUNCHBOX_DISPLAY = "st7789"
LUNCHBOX_DISPLAY_WIDTH = 240
LUNCHBOX_DISPLAY_HEIGHT = 135
LUNCHBOX_DISPLAY_ROTATION = 270
LUNCHBOX_DISPLAY_PINS = "sck=GP18 mosi=GP19 cs=GP17 dc=GP16 backlight=GP20"
LUNCHBOX_BUTTONS = "prev=GP12 next=GP13 ok=GP14 back=GP15"
LUNCHBOX_RGB_LED = "GP6 GP7 GP8"
LUNCHBOX_NEOPIXEL = "GP22"
LUNCHBOX_NEOPIXEL_COUNT = 8
"""

SSD1306 = """# rendered from hardware/profiles/pico-ssd1306-5btn.toml
LUNCHBOX_PROFILE = "pico-ssd1306-5btn"
LUNCHBOX_BOARD = "raspberry_pi_pico"
LUNCHBOX_CHIP = "RP2040"
LUNCHBOX_DISPLAY = "ssd1306"
LUNCHBOX_DISPLAY_WIDTH = 128
LUNCHBOX_DISPLAY_HEIGHT = 64
LUNCHBOX_DISPLAY_ROTATION = 0
LUNCHBOX_DISPLAY_ADDRESS = 60
LUNCHBOX_DISPLAY_PINS = "sda=GP4 scl=GP5"
LUNCHBOX_BUTTONS = "prev=GP10 next=GP11 ok=GP12 back=GP13 undo=GP14"
LUNCHBOX_NEOPIXEL = "GP22"  # the optional stick
LUNCHBOX_NEOPIXEL_COUNT = 8
"""


def read(text):
    return settings.read(settings.parse_toml(text).get)


def test_display_pack_settings():
    hw = read(DISPLAY_PACK)
    assert hw["profile"] == "pico-display-pack"
    assert hw["display"] == "st7789"
    assert (hw["width"], hw["height"], hw["rotation"]) == (240, 135, 270)
    assert hw["display_pins"]["dc"] == "GP16"
    assert hw["display_pins"]["backlight"] == "GP20"
    assert hw["buttons"] == [("prev", "GP12"), ("next", "GP13"), ("ok", "GP14"), ("back", "GP15")]
    assert hw["rgb_led"] == ["GP6", "GP7", "GP8"]
    assert hw["neopixel"] == "GP22" and hw["neopixel_count"] == 8


def test_ssd1306_settings():
    hw = read(SSD1306)
    assert hw["display"] == "ssd1306"
    assert hw["address"] == 0x3C
    assert hw["display_pins"] == {"sda": "GP4", "scl": "GP5"}
    assert hw["buttons"][4] == ("undo", "GP14")
    assert hw["rgb_led"] is None


def test_getenv_strings_are_accepted():
    # os.getenv on the device may hand back strings for numbers in older CircuitPython
    values = settings.parse_toml(SSD1306)
    values["LUNCHBOX_DISPLAY_WIDTH"] = "128"
    assert settings.read(values.get)["width"] == 128


def test_settings_errors_name_the_value():
    with raises(ValueError, "LUNCHBOX_DISPLAY"):
        read(DISPLAY_PACK.replace('"st7789"', '"ili9341"'))
    with raises(ValueError, "'back'"):
        read(DISPLAY_PACK.replace(" back=GP15", ""))
    with raises(ValueError, "'jump'"):
        read(DISPLAY_PACK.replace("back=GP15", "back=GP15 jump=GP21"))
    with raises(ValueError, "nope"):
        read(DISPLAY_PACK.replace("ok=GP14", "nope"))
    with raises(ValueError, "sda"):
        read(SSD1306.replace("sda=GP4 ", ""))
    with raises(ValueError, "ROTATION"):
        read(DISPLAY_PACK.replace("= 270", "= 45"))
    with raises(ValueError, "LUNCHBOX_DISPLAY_WIDTH"):
        read(DISPLAY_PACK.replace("LUNCHBOX_DISPLAY_WIDTH = 240\n", ""))
    with raises(ValueError, "line 2"):
        settings.parse_toml('A = 1\nB = oops\n')
    with raises(ValueError, "RGB"):
        read(DISPLAY_PACK.replace('"GP6 GP7 GP8"', '"GP6 GP7"'))


def test_button_ids():
    assert [button_id(n) for n in ("prev", "next", "ok", "back", "undo")] == [0, 1, 2, 3, 4]
    with raises(ValueError, "jump"):
        button_id("jump")


def test_short_presses():
    b = Buttons()
    assert b.feed(PREV, True, 1000) == [(PREV, PRESS)]  # navigation reacts on the way down
    assert b.feed(PREV, False, 1080) == []
    assert b.feed(OK, True, 1200) == []  # OK and Back wait: they could become long presses
    assert b.feed(OK, False, 1300) == [(OK, PRESS)]
    assert b.feed(BACK, True, 1400) == []
    assert b.feed(BACK, False, 1500) == [(BACK, PRESS)]


def test_long_back_is_undo_and_fires_while_held():
    b = Buttons(long_ms=700)
    b.feed(BACK, True, 0)
    assert b.tick(699) == []
    assert b.tick(700) == [(UNDO, PRESS)]
    assert b.tick(2000) == []  # once only
    assert b.feed(BACK, False, 2100) == []  # and no Back on release


def test_long_ok():
    b = Buttons(long_ms=500)
    b.feed(OK, True, 10)
    assert b.feed(OK, False, 600) == [(OK, LONG)]  # the late tick inside feed still fires it


def test_auto_repeat_while_held():
    b = Buttons(repeat_delay_ms=400, repeat_ms=100)
    assert b.feed(NEXT, True, 0) == [(NEXT, PRESS)]
    assert b.tick(399) == []
    assert b.tick(400) == [(NEXT, REPEAT)]
    assert b.tick(450) == []
    assert b.tick(500) == [(NEXT, REPEAT)]
    b.feed(NEXT, False, 520)
    assert b.tick(5000) == []


def test_repeat_catch_up_is_bounded():
    b = Buttons(repeat_delay_ms=400, repeat_ms=100)
    b.feed(PREV, True, 0)
    assert len(b.tick(10000)) == 3  # a busy app does not get a burst of 96 repeats
    assert b.tick(10050) == []
    assert b.tick(10100) == [(PREV, REPEAT)]


def test_dedicated_undo_and_stray_transitions():
    b = Buttons()
    assert b.feed(UNDO, True, 0) == [(UNDO, PRESS)]
    assert b.feed(UNDO, False, 50) == []
    assert b.feed(OK, False, 60) == []  # a release with no press (held at boot)
    b.feed(OK, True, 100)
    assert b.feed(OK, True, 120) == []  # a second "down" without a release
    assert b.feed(OK, False, 200) == [(OK, PRESS)]
    with raises(ValueError, "7"):
        b.feed(7, True, 0)


def test_reset_forgets_held_buttons():
    b = Buttons()
    b.feed(BACK, True, 0)
    b.reset()
    assert b.tick(5000) == []
    assert b.feed(BACK, False, 5001) == []


def test_ticks_wrap():
    top = (1 << 29) - 10
    assert ticks_diff(5, top) == 15
    assert ticks_diff(top, 5) == -15
    b = Buttons(long_ms=700)
    b.feed(BACK, True, top)
    assert b.tick((top + 699) & ((1 << 29) - 1)) == []
    assert b.tick((top + 700) & ((1 << 29) - 1)) == [(UNDO, PRESS)]


def test_event_queue_is_bounded_fifo():
    q = EventQueue(3)
    assert q.get() is None
    q.extend([1, 2, 3, 4])
    assert len(q) == 3 and q.dropped == 1
    assert [q.get(), q.get(), q.get(), q.get()] == [2, 3, 4, None]
    q.put(5)
    q.clear()
    assert len(q) == 0


def test_fit():
    assert fit("Aqua Brunch", 20) == "Aqua Brunch"
    assert fit("Space Battle Lunchtime", 10) == "Space Bat~"
    assert len(fit("Space Battle Lunchtime", 10)) == 10
    assert fit("abc", 1) == "~"
    assert fit("abc", 0) == ""
    assert fit(42, 5) == "42"


def test_wrap():
    assert wrap("Saved data was corrupt - starting fresh", 20) == [
        "Saved data was", "corrupt - starting", "fresh"]
    for line in wrap("a verylongwordthatdoesnotfit here", 8):
        assert len(line) <= 8
    assert wrap("one\ntwo", 10) == ["one", "two"]
    cut = wrap("one two three four five six", 9, 2)
    assert len(cut) == 2 and cut[-1].endswith("~") and len(cut[-1]) <= 9
    assert wrap("x", 0) == []
