"""The firmware's hardware-free core: settings parsing, button timing, the event queue, text
fitting. Runs on CPython and on MicroPython (the lane)."""

from _harness import raises
from companion.app.buttons import (
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
from companion.board import settings
from companion.screen.text import fit, wrap

# What lunchbox.hardware.profiles.render_settings writes for the two reference builds.
DISPLAY_PACK = """LUNCHBOX_PROFILE = "pico-display-pack"
LUNCHBOX_BOARD = "raspberry_pi_pico"
LUNCHBOX_CHIP = "RP2040"
LUNCHBOX_DISPLAY = "st7789"
LUNCHBOX_DISPLAY_WIDTH = 240
LUNCHBOX_DISPLAY_HEIGHT = 135
LUNCHBOX_DISPLAY_ROTATION = 270
LUNCHBOX_DISPLAY_SPI_HZ = 62500000
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
    assert hw["spi_hz"] == 62500000
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
    assert hw["spi_hz"] == 24000000  # not set: FourWire's own (an I2C display never uses it)


def test_getenv_strings_are_accepted():
    # os.getenv on the device may hand back strings for numbers in older CircuitPython
    values = settings.parse_toml(SSD1306)
    values["LUNCHBOX_DISPLAY_WIDTH"] = "128"
    assert settings.read(values.get)["width"] == 128


# (what the error names, a profile's settings, a text in them, what replaces it)
BAD_SETTINGS = (
    ("LUNCHBOX_DISPLAY", DISPLAY_PACK, '"st7789"', '"ili9341"'),
    ("'back'", DISPLAY_PACK, " back=GP15", ""),
    ("'jump'", DISPLAY_PACK, "back=GP15", "back=GP15 jump=GP21"),
    ("nope", DISPLAY_PACK, "ok=GP14", "nope"),
    ("sda", SSD1306, "sda=GP4 ", ""),
    ("ROTATION", DISPLAY_PACK, "= 270", "= 45"),
    ("LUNCHBOX_DISPLAY_WIDTH", DISPLAY_PACK, "LUNCHBOX_DISPLAY_WIDTH = 240\n", ""),
    ("RGB", DISPLAY_PACK, '"GP6 GP7 GP8"', '"GP6 GP7"'),
    ("LUNCHBOX_DISPLAY_SPI_HZ = 80000000", DISPLAY_PACK, "= 62500000", "= 80000000"),
)


def test_settings_errors_name_the_value():
    for said, text, old, new in BAD_SETTINGS:
        assert old in text, old  # else the committed settings would be read
        with raises(ValueError, said):
            read(text.replace(old, new))
    with raises(ValueError, "line 2"):
        settings.parse_toml('A = 1\nB = oops\n')


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
    # phrasings, longest first: the first that fits, else the last one cut
    say = ("Take bottom middle (12)", "Take bottom middle")
    assert fit(say, 23) == say[0] and fit(say, 19) == say[1] and fit(say, 10) == "Take bott~"


def test_wrap():
    assert wrap("Saved data was corrupt - starting fresh", 20) == [
        "Saved data was", "corrupt - starting", "fresh"]
    for line in wrap("a verylongwordthatdoesnotfit here", 8):
        assert len(line) <= 8
    assert wrap("one\ntwo", 10) == ["one", "two"]
    cut = wrap("one two three four five six", 9, 2)
    assert len(cut) == 2 and cut[-1].endswith("~") and len(cut[-1]) <= 9
    assert wrap("x", 0) == []


# ---- the turn clock (companion/turn_clock/: state.py, setting.py, envelope.py) -------------

def _diff(a, b):
    return ticks_diff(a, b)


def test_turn_clock_chess_with_a_bonus():
    from companion.turn_clock.state import CHESS, NONE, TurnClock

    c = TurnClock(CHESS, 600, 5, 2)
    assert c.seat == NONE and c.shown(0, 0, _diff) == 600000
    c.turn(0, 1000, _diff)  # P1's clock runs from 1 s
    assert c.shown(0, 21000, _diff) == 580000 and c.shown(1, 21000, _diff) == 600000
    assert c.turn(1, 21000, _diff) and c.turns == [1, 0]  # P1's turn done: +5 s
    assert c.shown(0, 30000, _diff) == 585000 and c.shown(1, 30000, _diff) == 591000
    c.pause(30000, _diff)
    assert c.shown(1, 90000, _diff) == 591000  # paused: nothing runs
    c.resume(90000)
    assert c.shown(1, 100000, _diff) == 581000
    assert not c.turn(1, 100000, _diff) and not c.turn(7, 100000, _diff)  # same seat, no seat
    c.stop(700000, _diff)  # past its time: below 0
    assert c.seat == NONE and c.turns == [1, 1] and c.shown(1, 0, _diff) == -19000 + 5000


def test_turn_clock_counts_up_across_the_tick_wrap():
    from companion.turn_clock.state import COUNT_UP, TurnClock

    wrap_at = (1 << 29) - 500  # the app's ticks wrap at 2**29 ms
    c = TurnClock(COUNT_UP, 600, 30, 3)
    assert c.bonus == 0  # no bonus counting up
    c.turn(2, wrap_at, _diff)
    assert c.shown(2, 1500, _diff) == 2000  # 500 ms before the wrap and 1500 after
    c.seats(2)  # a scoreboard's count chosen later: the running seat is gone
    assert c.seat == 255 and len(c.used) == 2
    c.seats(4)
    assert c.used == [0, 0, 0, 0]


def test_turn_clock_bytes_and_records():
    from companion.turn_clock.state import CHESS, TurnClock

    c = TurnClock(CHESS, 60, 10, 2)
    c.turn(0, 0, _diff)
    c.turn(1, 75000, _diff)  # P1 past its minute by 15 s
    c.pause(80000, _diff)
    raw = c.to_bytes(80000, _diff)
    d = TurnClock.from_bytes(raw, 123)
    assert (d.mode, d.limit, d.bonus, d.seat, d.paused) == (CHESS, 60, 10, 1, True)
    assert (d.bank, d.used, d.turns) == (c.bank, c.used, c.turns)
    assert d.to_bytes(123, _diff) == raw
    assert c.record(80000, _diff) == [(75, 1), (5, 0)]
    assert c.used == [0, 0] and c.shown(0, 80000, _diff) == -5000  # carried on as a bank
    e = TurnClock.from_bytes(c.to_bytes(80000, _diff), 0)
    assert e.bank == [-5000, 55000]  # a negative bank survives the bytes
    for bad in (raw[:5], b"\x02" + raw[1:], raw + b"\x00", raw[:3] + b"\x05" + raw[4:],
                raw[:1] + b"\x03" + raw[2:]):
        with raises(ValueError, "turn clock"):
            TurnClock.from_bytes(bad, 0)
    for n in range(len(raw)):
        try:
            TurnClock.from_bytes(raw[:n], 0)
        except ValueError:
            pass


def test_turn_clock_texts():
    from companion.turn_clock.state import CHESS, COUNT_UP, text

    assert text(598200, CHESS) == "9:59" and text(598200, COUNT_UP) == "9:58"
    assert text(0, CHESS) == "0:00" and text(-12300, CHESS) == "-0:12"
    assert text(4335000, COUNT_UP) == "72:15"
    assert text(598200, CHESS, True) == "10m" and text(45100, CHESS, True) == "46s"
    assert text(598200, COUNT_UP, True) == "9m" and text(-130000, CHESS, True) == "-2m"


def test_clock_setting_byte():
    from companion.store.appsettings import AppSettings
    from companion.turn_clock.setting import CHESS, COUNT_UP, make_setting, setting

    default = AppSettings().to_bytes()
    assert AppSettings(clock=0).to_bytes() == default  # off: the same bytes as before
    for mode, minutes, bonus in ((CHESS, 10, 0), (CHESS, 90, 30), (COUNT_UP, 10, 0),
                                 (CHESS, 1, 5)):
        b = make_setting(mode, minutes, bonus)
        assert setting(b) == (mode, minutes, bonus)
        raw = AppSettings(clock=b).to_bytes()
        assert raw == default + bytes((b,))
        assert AppSettings.from_bytes(raw).clock == b
    for bad in (3, 2 | 10 << 2, 1 | 15 << 2):  # mode 3, no 11th or 16th chess time
        with raises(ValueError, "not a clock setting"):
            AppSettings.from_bytes(default + bytes((bad,)))
    with raises(ValueError, "after the names"):
        AppSettings.from_bytes(default + b"\x00")  # 0 is never written: off has no byte
    with raises(ValueError, "after the names"):
        AppSettings.from_bytes(default + b"\x02\x02")


def test_envelope_with_the_times_and_without():
    from companion.store import records
    from companion.turn_clock.envelope import untimed
    from companion.turn_clock.state import timed

    rec = bytes((1, 0, 1, 4, 0, 0, 9, 0xAB, 0xCD))
    old = records.envelope(rec, 1767225600, ["ANNA", "BO"])
    new = timed(old, [(130, 7), (200000, 6)])
    assert new[0] == 2 and len(new) == len(old) + 1 + 3 + 4
    assert untimed(new) == (old, [(130, 7), (200000, 6)])
    assert records.open_envelope(records.KIND_GAME, untimed(new)[0]) == (
        1767225600, ["ANNA", "BO"], rec)
    assert untimed(old) == (old, None)  # format 1, as kept before the clock: as it was
    assert untimed(rec) == (rec, None)  # kind 1, a bare record
    bare = timed(records.envelope(rec), [(5, 1)])
    assert untimed(bare)[1] == [(5, 1)]
    with raises(ValueError, "version"):  # records.py itself reads format 1 only
        records.open_envelope(records.KIND_GAME, new)
    for n in range(6, len(new) - len(rec)):
        with raises(ValueError, "version 2"):
            untimed(new[:n])
    with raises(ValueError, "no game record"):
        untimed(new[:-len(rec)])
    with raises(ValueError, "version 2"):
        untimed(b"\x02\x00\x00\x00\x00\x00\x08" + rec)  # more times than seats


class _Store:
    def __init__(self):
        self.game = None

    def load_game(self):
        return self.game

    def save_game(self, gid, payload):
        self.game = (gid, payload)
        return True

    def records(self):
        return ["the store's"]


def test_saves_hide_the_clock_from_the_games_code():
    from companion.turn_clock.state import SAVED, Saves, unwrap, wrap

    store = _Store()
    saves = Saves(store)
    assert saves.load_game() is None and saves.records() == ["the store's"]
    rec = b"\x01\x00\x01\x04\x00\x00\x09\xab\xcd"
    saves.save_game("space_lunch", rec)
    assert store.game == ("space_lunch", rec) and saves.clock_of("space_lunch", rec) is None
    saves.wrap = lambda gid, payload: wrap(b"STATE", payload)
    saves.save_game("space_lunch", rec)
    assert store.game[1][0] == SAVED and unwrap(store.game[1]) == (b"STATE", rec)
    assert saves.load_game() == ("space_lunch", rec)  # what the games' code reads
    assert saves.clock_of("space_lunch", rec) == b"STATE"
    assert saves.clock_of("space_lunch", rec + b"x") is None  # another game of that id
    assert saves.clock_of("lets_do_lunch", rec) is None
    assert unwrap(rec) == (None, rec)
