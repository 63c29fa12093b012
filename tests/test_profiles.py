"""Hardware profiles: the committed ones validate, broken ones are caught with a message naming
the pin and the conflict, and settings.toml renders exactly as docs/design.md says."""

import ast
import copy
import re
import tomllib
from pathlib import Path

import pytest

from companion.board import settings as device_settings
from lunchbox.errors import LunchboxError
from lunchbox.hardware import pins, profiles

ROOT = Path(__file__).resolve().parents[1]
EXPECTED_IDS = ["pico-display-pack", "pico-display-pack-mp", "pico-ssd1306-5btn",
                "pico-ssd1306-5btn-mp", "pico2-display-pack", "pico2-ssd1306-5btn"]


@pytest.fixture
def pack():
    return profiles.load_profile("pico-display-pack")


@pytest.fixture
def oled():
    return profiles.load_profile("pico-ssd1306-5btn")


def button(profile, role):
    return next(b for b in profile["buttons"] if b["role"] == role)


def problems_mentioning(profile, *words):
    """The validator's messages that mention every one of ``words``."""
    found = profiles.validate(profile)
    assert found, "the broken profile validated"
    return [m for m in found if all(w in m for w in words)]


# --- the committed profiles ------------------------------------------------------------------

def test_the_six_profiles_exist():
    assert profiles.list_profiles() == EXPECTED_IDS
    assert profiles.PROFILES_DIR == ROOT / "hardware" / "profiles"


@pytest.mark.parametrize("pid", EXPECTED_IDS)
def test_committed_profile_validates(pid):
    profile = profiles.load_profile(pid)
    assert profile["id"] == pid
    assert profiles.validate(profile) == []


def test_pico2_profiles_are_the_pico_ones_on_the_rp2350():
    for a, b in (("pico-display-pack", "pico2-display-pack"),
                 ("pico-ssd1306-5btn", "pico2-ssd1306-5btn")):
        pa, pb = profiles.load_profile(a), profiles.load_profile(b)
        assert (pa["board"], pa["chip"]) == ("raspberry_pi_pico", "RP2040")
        assert (pb["board"], pb["chip"]) == ("raspberry_pi_pico2", "RP2350")
        for key in ("display", "buttons", "leds"):
            assert pa[key] == pb[key]


def test_display_pack_uses_the_packs_real_pins(pack):
    # Pimoroni's pinout: A/B/X/Y on GP12-15, LCD DC 16 CS 17 SCK 18 MOSI 19 BL 20, LED 6-8.
    assert [b["pin"] for b in pack["buttons"]] == ["GP12", "GP13", "GP14", "GP15"]
    assert [b["label"] for b in pack["buttons"]] == ["A", "B", "X", "Y"]
    assert pack["display"]["pins"] == {"sck": "GP18", "mosi": "GP19", "cs": "GP17",
                                       "dc": "GP16", "backlight": "GP20"}
    assert pack["leds"]["rgb"] == ["GP6", "GP7", "GP8"]
    assert pack["leds"]["neopixel_optional"] is True


def test_oled_build_has_five_buttons_including_undo(oled):
    assert [b["role"] for b in oled["buttons"]] == ["prev", "next", "ok", "back", "undo"]
    assert oled["display"]["driver"] == "ssd1306"
    assert (oled["display"]["width"], oled["display"]["height"]) == (128, 64)


def test_pins_are_written_nowhere_in_the_firmware():
    # The profile is the single source of pins: the firmware gets them from settings.toml.
    # Examples in docstrings and comments are fine; a pin name as a value or board.GPn is not.
    offenders = []
    for path in sorted((ROOT / "firmware").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and re.fullmatch(r"GP\d+", node.attr):
                offenders.append("{}:{} board.{}".format(path.name, node.lineno, node.attr))
            elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and re.fullmatch(r"GP\d+", node.value)):
                offenders.append("{}:{} {!r}".format(path.name, node.lineno, node.value))
    assert offenders == []


# --- pin tables against the datasheets' GPIO function tables ----------------------------------

@pytest.mark.parametrize("gpio,expected", [
    (0, (0, "miso")), (1, (0, "cs")), (2, (0, "sck")), (3, (0, "mosi")),
    (10, (1, "sck")), (11, (1, "mosi")), (12, (1, "miso")), (13, (1, "cs")),
    (16, (0, "miso")), (17, (0, "cs")), (18, (0, "sck")), (19, (0, "mosi")),
    (26, (1, "sck")), (27, (1, "mosi")), (28, (1, "miso")),
])
def test_spi_function_table(gpio, expected):
    assert pins.spi_function(gpio) == expected


@pytest.mark.parametrize("gpio,expected", [
    (0, (0, "sda")), (1, (0, "scl")), (2, (1, "sda")), (3, (1, "scl")), (4, (0, "sda")),
    (5, (0, "scl")), (14, (1, "sda")), (15, (1, "scl")), (18, (1, "sda")), (19, (1, "scl")),
    (20, (0, "sda")), (21, (0, "scl")), (26, (1, "sda")), (27, (1, "scl")), (28, (0, "sda")),
])
def test_i2c_function_table(gpio, expected):
    assert pins.i2c_function(gpio) == expected


def test_board_pin_sets():
    ok = [n for n in range(30) if pins.check_pin("raspberry_pi_pico", "GP{}".format(n)) is None]
    assert ok == list(range(0, 23)) + [26, 27, 28]
    assert "LED" in pins.check_pin("raspberry_pi_pico", "GP25")
    assert "wireless" in pins.check_pin("raspberry_pi_pico_w", "GP25")
    assert "not on the RP2350" in pins.check_pin("raspberry_pi_pico2", "GP30")
    assert pins.BOARDS["raspberry_pi_pico_w"]["led"] == "LED"
    assert pins.header_pin("GP0") == 1 and pins.header_pin("GP22") == 29
    assert pins.header_pin("GP28") == 34 and pins.header_pin("GP25") is None


# --- broken profiles: each message names the pin and the conflict ----------------------------

GONE = object()  # an edit's value: the key removed

# name: (profile, the key path edited, its new value, words one problem must hold); a path's
# parts are keys, a button named by its role ("button prev")
BROKEN = {
    "pin used twice": ("pack", "button prev/pin", "GP13",
                       ("GP13", "used twice", "button prev", "button next")),
    "pin used by display and button": ("oled", "button ok/pin", "GP4",
                                       ("GP4", "used twice", "display sda", "button ok")),
    "bad pin name": ("pack", "button ok/pin", "GPIO14", ("GPIO14", "not a pin name")),
    "pin not on the chip": ("pack", "leds/neopixel", "GP31", ("GP31", "not on the RP2040")),
    "pin used on the board": ("pack", "leds/neopixel", "GP25",
                              ("GP25", "LED", "not on its header")),
    # SPI1 SCK, while MOSI GP19 is SPI0 TX
    "sck and mosi on different spi instances": (
        "pack", "display/pins/sck", "GP10",
        ("GP10", "GP19", "different SPI instances", "SPI1", "SPI0")),
    "sck on a pin that is not sck": ("pack", "display/pins/sck", "GP21",  # SPI0 CSn
                                     ("GP21", "cannot be SPI SCK", "SPI0 CS")),
    # I2C1 SCL, while SDA GP4 is I2C0
    "sda and scl on different i2c instances": (
        "oled", "display/pins/scl", "GP3",
        ("GP4", "GP3", "different I2C instances", "I2C0", "I2C1")),
    "role twice": ("oled", "button undo/role", "ok", ("'ok'", "two buttons", "GP12", "GP14")),
    "unknown role": ("oled", "button undo/role", "menu", ("GP14", "unknown role 'menu'")),
    "unknown driver": ("pack", "display/driver", "ili9341",
                       ("unknown display driver 'ili9341'",)),
    "insane width": ("pack", "display/width", 1000, ("width", "1000", "sane")),
    "insane height": ("pack", "display/height", 0, ("height", "0", "sane")),
    "width not a number": ("pack", "display/width", "240", ("width", "'240'", "sane")),
    "oled bigger than the panel": ("oled", "display/height", 128, ("height 128",)),
    # the firmware lays its screens out on 32 pixels a side at least (board/settings.py)
    "oled too small for the screens": ("oled", "display/height", 16, ("height", "16", "32..64")),
    "bad i2c address": ("oled", "display/address", 0x50, ("address 80",)),
    # the ST7789V's serial write cycle is 16 ns at least
    "spi clock over the panel's": ("pack", "display/spi_hz", 80000000,
                                   ("spi_hz", "80000000", "1000000..62500000 Hz")),
    "spi clock not a number": ("pack", "display/spi_hz", "fast", ("spi_hz", "'fast'")),
    "spi clock on an i2c display": ("oled", "display/spi_hz", 400000,
                                    ("spi_hz is only for SPI displays", "ssd1306")),
    "missing display pin": ("pack", "display/pins/dc", GONE, ("st7789 needs a dc pin",)),
    "board and chip disagree": ("pack", "chip", "RP2350",
                                ("raspberry_pi_pico", "RP2040", "not the RP2350")),
    "unknown board": ("pack", "board", "arduino_uno", ("arduino_uno", "not supported")),
    "unknown key is a typo": ("pack", "leds/neopixels", "GP22", ("unknown key 'neopixels'",)),
    # GP4 drives PWM2A, like the backlight GP20
    "pwm clash between backlight and rgb": ("pack", "leds/rgb", ["GP4", "GP7", "GP8"],
                                            ("GP4", "GP20", "PWM2A")),
    "neopixel count": ("pack", "leds/neopixel_count", 0, ("neopixel_count 0", "GP22")),
}


def edit(profile, path, value):
    *parents, key = path.split("/")
    d = profile
    for part in parents:
        d = button(d, part[len("button "):]) if part.startswith("button ") else d[part]
    if value is GONE:
        del d[key]
    else:
        d[key] = value


@pytest.mark.parametrize("case", list(BROKEN))
def test_a_broken_profile_is_named(case, pack, oled):
    which, path, value, words = BROKEN[case]
    profile = {"pack": pack, "oled": oled}[which]
    assert profiles.validate(profile) == []  # the edit alone breaks it
    edit(profile, path, value)
    assert problems_mentioning(profile, *words), profiles.validate(profile)


def test_pico_w_has_no_gp25():
    profile = profiles.load_profile("pico-display-pack")
    profile["board"] = "raspberry_pi_pico_w"
    assert profiles.validate(profile) == []
    profile["leds"]["neopixel"] = "GP24"
    assert problems_mentioning(profile, "GP24", "wireless chip")


def test_sda_and_scl_swapped(oled):
    oled["display"]["pins"] = {"sda": "GP5", "scl": "GP4"}
    assert problems_mentioning(oled, "GP5", "cannot be I2C SDA")
    assert problems_mentioning(oled, "GP4", "cannot be I2C SCL")


def test_missing_role(pack):
    pack["buttons"] = [b for b in pack["buttons"] if b["role"] != "back"]
    assert problems_mentioning(pack, "'back'", "no button")


def test_missing_size_named(pack):
    del pack["display"]["width"]
    assert problems_mentioning(pack, "width is missing")
    assert not problems_mentioning(pack, "None")


def test_leds_are_optional(oled):
    del oled["leds"]
    assert profiles.validate(oled) == []
    assert "NEOPIXEL" not in profiles.render_settings(oled)


# --- loading ---------------------------------------------------------------------------------

def test_missing_profile_names_the_choices():
    with pytest.raises(LunchboxError) as e:
        profiles.load_profile("pico-nothing")
    assert "pico-nothing" in str(e.value)
    assert "pico-display-pack" in e.value.hint


def test_invalid_toml(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text('name = "x\n')
    with pytest.raises(LunchboxError, match="not valid TOML"):
        profiles.load_profile(path)


def test_load_refuses_a_broken_profile_but_can_read_it(user_profile):
    path = user_profile("pico-display-pack", ('pin = "GP15"', 'pin = "GP14"'))
    with pytest.raises(LunchboxError) as e:
        profiles.load_profile(path)
    assert "GP14 is used twice" in str(e.value)
    raw = profiles.load_profile(path, check=False)
    assert raw["id"] == "mine"
    assert any("GP14" in m for m in profiles.validate(raw))


# --- settings.toml ---------------------------------------------------------------------------

def test_render_settings_display_pack(pack):
    assert profiles.render_settings(pack) == (
        'LUNCHBOX_PROFILE = "pico-display-pack"\n'
        'LUNCHBOX_BOARD = "raspberry_pi_pico"\n'
        'LUNCHBOX_CHIP = "RP2040"\n'
        'LUNCHBOX_DISPLAY = "st7789"\n'
        "LUNCHBOX_DISPLAY_WIDTH = 240\n"
        "LUNCHBOX_DISPLAY_HEIGHT = 135\n"
        "LUNCHBOX_DISPLAY_ROTATION = 270\n"
        "LUNCHBOX_DISPLAY_SPI_HZ = 62500000\n"
        'LUNCHBOX_DISPLAY_PINS = "sck=GP18 mosi=GP19 cs=GP17 dc=GP16 backlight=GP20"\n'
        'LUNCHBOX_BUTTONS = "prev=GP12 next=GP13 ok=GP14 back=GP15"\n'
        'LUNCHBOX_RGB_LED = "GP6 GP7 GP8"\n'
        'LUNCHBOX_NEOPIXEL = "GP22"\n'
        "LUNCHBOX_NEOPIXEL_COUNT = 8\n"
        'LUNCHBOX_BATTERY = "lipo"\n'
        "CIRCUITPY_HEAP_START_SIZE = 163840\n"
    )


def test_render_settings_oled(oled):
    settings = tomllib.loads(profiles.render_settings(oled))
    assert settings == {
        "LUNCHBOX_PROFILE": "pico-ssd1306-5btn",
        "LUNCHBOX_BOARD": "raspberry_pi_pico",
        "LUNCHBOX_CHIP": "RP2040",
        "LUNCHBOX_DISPLAY": "ssd1306",
        "LUNCHBOX_DISPLAY_WIDTH": 128,
        "LUNCHBOX_DISPLAY_HEIGHT": 64,
        "LUNCHBOX_DISPLAY_ROTATION": 0,
        "LUNCHBOX_DISPLAY_ADDRESS": 60,
        "LUNCHBOX_DISPLAY_PINS": "sda=GP4 scl=GP5",
        "LUNCHBOX_BUTTONS": "prev=GP10 next=GP11 ok=GP12 back=GP13 undo=GP14",
        "LUNCHBOX_NEOPIXEL": "GP22",
        "LUNCHBOX_NEOPIXEL_COUNT": 8,
        "LUNCHBOX_BATTERY": "lipo",
        "CIRCUITPY_HEAP_START_SIZE": 163840,
    }


def test_heap_start_size_only_where_measured(pack):
    """The heap's one first area is written for the RP2040, whose heap the lane measures; a
    Pico 2 (RP2350, 520 KB) keeps CircuitPython's own growth."""
    pico2 = profiles.load_profile("pico2-display-pack")
    assert "CIRCUITPY_HEAP_START_SIZE" not in profiles.render_settings(pico2)
    assert "CIRCUITPY_HEAP_START_SIZE = 163840\n" in profiles.render_settings(pack)


def test_rendered_keys_are_the_documented_ones():
    design = (ROOT / "docs" / "design.md").read_text()
    documented = set(re.findall(r"^((?:LUNCHBOX|CIRCUITPY)_[A-Z_]+) =", design, re.M))
    rendered = set()
    for pid in EXPECTED_IDS:
        rendered |= set(tomllib.loads(profiles.render_settings(profiles.load_profile(pid))))
    assert rendered == documented


def test_render_settings_refuses_a_broken_profile(pack):
    pack["display"]["pins"]["mosi"] = "GP18"
    with pytest.raises(LunchboxError, match="GP18"):
        profiles.render_settings(pack)


def test_profile_is_not_modified_by_validation(pack):
    before = copy.deepcopy(pack)
    profiles.validate(pack)
    profiles.render_settings(pack)
    assert pack == before


@pytest.mark.parametrize("pid", EXPECTED_IDS)
def test_firmware_reads_the_rendered_settings(pid):
    # The device parses settings.toml with companion.board.settings: it must read back every pin.
    profile = profiles.load_profile(pid)
    cfg = device_settings.read(tomllib.loads(profiles.render_settings(profile)).get)
    assert cfg["profile"] == pid
    assert cfg["display"] == profile["display"]["driver"]
    assert cfg["display_pins"] == profile["display"]["pins"]
    assert cfg["buttons"] == [(b["role"], b["pin"]) for b in profile["buttons"]]
    assert cfg["neopixel"] == profile["leds"].get("neopixel")
    assert (cfg["rgb_led"] or None) == profile["leds"].get("rgb")


@pytest.mark.parametrize("pid", EXPECTED_IDS)
def test_settings_round_trip_through_the_firmware_parser(pid):
    # What sync writes (the rendered keys below the user's own lines), read back the way the
    # device reads it (companion.board.settings: parse_toml, as the simulator does, then read),
    # must give back every value of the profile.
    from lunchbox.device import fileset

    profile = profiles.load_profile(pid)
    text = fileset.merge_settings('CIRCUITPY_WIFI_SSID = "home" # mine\n'
                                  'CIRCUITPY_WEB_API_PORT = 80\n',
                                  profiles.render_settings(profile))
    values = device_settings.parse_toml(text)
    assert values == tomllib.loads(text)  # the firmware's parser agrees with TOML
    cfg = device_settings.read(values.get)
    display, leds = profile["display"], profile["leds"]
    assert cfg == {
        "profile": pid, "board": profile["board"], "chip": profile["chip"],
        "display": display["driver"], "width": display["width"], "height": display["height"],
        "rotation": display.get("rotation", 0), "address": display.get("address", 0x3C),
        "spi_hz": display.get("spi_hz", 24000000),
        "display_pins": display["pins"],
        "buttons": [(b["role"], b["pin"]) for b in profile["buttons"]],
        "rgb_led": leds.get("rgb"), "neopixel": leds.get("neopixel"),
        "neopixel_count": leds.get("neopixel_count", 0) if leds.get("neopixel") else 0,
    }


@pytest.mark.parametrize("side", [profiles.MIN_SIDE - 1, profiles.MIN_SIDE])
def test_the_least_display_side_is_the_firmwares(side, oled):
    """A profile the host accepts starts on the box: the firmware's settings reader takes
    the least height the profile check allows, and refuses one pixel less, as the check does."""
    from companion.board import settings

    env = settings.parse_toml(profiles.render_settings(oled))
    env["LUNCHBOX_DISPLAY_HEIGHT"] = side
    oled["display"]["height"] = side
    try:
        settings.read(env.get)
        started = True
    except ValueError:
        started = False
    assert (profiles.validate(oled) == []) == started == (side >= profiles.MIN_SIDE)


@pytest.mark.parametrize("hz", [999999, 1000000, 62500000, 62500001])
def test_the_spi_clocks_the_host_takes_are_the_firmwares(hz, pack):
    """The SPI clock a profile may ask is the one the firmware's settings reader starts on."""
    from companion.board import settings

    env = settings.parse_toml(profiles.render_settings(pack))
    env["LUNCHBOX_DISPLAY_SPI_HZ"] = hz
    pack["display"]["spi_hz"] = hz
    try:
        started = settings.read(env.get)["spi_hz"] == hz
    except ValueError:
        started = False
    assert (profiles.validate(pack) == []) == started == (1000000 <= hz <= 62500000)
