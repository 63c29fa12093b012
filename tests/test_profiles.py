"""Hardware profiles: the committed ones validate, broken ones are caught with a message naming
the pin and the conflict, and settings.toml renders exactly as docs/design.md says."""

import ast
import copy
import re
import tomllib
from pathlib import Path

import pytest

from lunchbox import pins, profiles
from lunchbox.errors import LunchboxError

ROOT = Path(__file__).resolve().parents[1]
EXPECTED_IDS = ["pico-display-pack", "pico-ssd1306-5btn", "pico2-display-pack",
                "pico2-ssd1306-5btn"]


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

def test_the_four_profiles_exist():
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

def test_pin_used_twice(pack):
    button(pack, "prev")["pin"] = "GP13"
    assert problems_mentioning(pack, "GP13", "used twice", "button prev", "button next")


def test_pin_used_by_display_and_button(oled):
    button(oled, "ok")["pin"] = "GP4"
    assert problems_mentioning(oled, "GP4", "used twice", "display sda", "button ok")


def test_bad_pin_name(pack):
    button(pack, "ok")["pin"] = "GPIO14"
    assert problems_mentioning(pack, "GPIO14", "not a pin name")


def test_pin_not_on_the_chip(pack):
    pack["leds"]["neopixel"] = "GP31"
    assert problems_mentioning(pack, "GP31", "not on the RP2040")


def test_pin_used_on_the_board(pack):
    pack["leds"]["neopixel"] = "GP25"
    assert problems_mentioning(pack, "GP25", "LED", "not on its header")


def test_pico_w_has_no_gp25():
    profile = profiles.load_profile("pico-display-pack")
    profile["board"] = "raspberry_pi_pico_w"
    assert profiles.validate(profile) == []
    profile["leds"]["neopixel"] = "GP24"
    assert problems_mentioning(profile, "GP24", "wireless chip")


def test_sck_and_mosi_on_different_spi_instances(pack):
    pack["display"]["pins"]["sck"] = "GP10"  # SPI1 SCK, while MOSI GP19 is SPI0 TX
    assert problems_mentioning(pack, "GP10", "GP19", "different SPI instances", "SPI1", "SPI0")


def test_sck_on_a_pin_that_is_not_sck(pack):
    pack["display"]["pins"]["sck"] = "GP21"  # SPI0 CSn
    assert problems_mentioning(pack, "GP21", "cannot be SPI SCK", "SPI0 CS")


def test_sda_and_scl_on_different_i2c_instances(oled):
    oled["display"]["pins"]["scl"] = "GP3"  # I2C1 SCL, while SDA GP4 is I2C0
    assert problems_mentioning(oled, "GP4", "GP3", "different I2C instances", "I2C0", "I2C1")


def test_sda_and_scl_swapped(oled):
    oled["display"]["pins"] = {"sda": "GP5", "scl": "GP4"}
    assert problems_mentioning(oled, "GP5", "cannot be I2C SDA")
    assert problems_mentioning(oled, "GP4", "cannot be I2C SCL")


def test_missing_role(pack):
    pack["buttons"] = [b for b in pack["buttons"] if b["role"] != "back"]
    assert problems_mentioning(pack, "'back'", "no button")


def test_role_twice(oled):
    button(oled, "undo")["role"] = "ok"
    assert problems_mentioning(oled, "'ok'", "two buttons", "GP12", "GP14")


def test_unknown_role(oled):
    button(oled, "undo")["role"] = "menu"
    assert problems_mentioning(oled, "GP14", "unknown role 'menu'")


def test_unknown_driver(pack):
    pack["display"]["driver"] = "ili9341"
    assert problems_mentioning(pack, "unknown display driver 'ili9341'")


@pytest.mark.parametrize("key,value", [("width", 1000), ("height", 0), ("width", "240")])
def test_insane_sizes(pack, key, value):
    pack["display"][key] = value
    assert problems_mentioning(pack, key, repr(value), "sane")


def test_missing_size_named(pack):
    del pack["display"]["width"]
    assert problems_mentioning(pack, "width is missing")
    assert not problems_mentioning(pack, "None")


def test_oled_bigger_than_the_panel(oled):
    oled["display"]["height"] = 128
    assert problems_mentioning(oled, "height 128")


def test_bad_i2c_address(oled):
    oled["display"]["address"] = 0x50
    assert problems_mentioning(oled, "address 80")


def test_missing_display_pin(pack):
    del pack["display"]["pins"]["dc"]
    assert problems_mentioning(pack, "st7789 needs a dc pin")


def test_board_and_chip_disagree(pack):
    pack["chip"] = "RP2350"
    assert problems_mentioning(pack, "raspberry_pi_pico", "RP2040", "not the RP2350")


def test_unknown_board(pack):
    pack["board"] = "arduino_uno"
    assert problems_mentioning(pack, "arduino_uno", "not supported")


def test_unknown_key_is_a_typo(pack):
    pack["leds"]["neopixels"] = "GP22"
    assert problems_mentioning(pack, "unknown key 'neopixels'")


def test_pwm_clash_between_backlight_and_rgb(pack):
    pack["leds"]["rgb"] = ["GP4", "GP7", "GP8"]  # GP4 drives PWM2A, like the backlight GP20
    assert problems_mentioning(pack, "GP4", "GP20", "PWM2A")


def test_neopixel_count(pack):
    pack["leds"]["neopixel_count"] = 0
    assert problems_mentioning(pack, "neopixel_count 0", "GP22")


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


def test_load_refuses_a_broken_profile_but_can_read_it(tmp_path):
    text = (profiles.PROFILES_DIR / "pico-display-pack.toml").read_text()
    path = tmp_path / "mine.toml"
    path.write_text(text.replace('pin = "GP15"', 'pin = "GP14"'))
    with pytest.raises(LunchboxError) as e:
        profiles.load_profile(str(path))
    assert "GP14 is used twice" in str(e.value)
    raw = profiles.load_profile(str(path), check=False)
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
        'LUNCHBOX_DISPLAY_PINS = "sck=GP18 mosi=GP19 cs=GP17 dc=GP16 backlight=GP20"\n'
        'LUNCHBOX_BUTTONS = "prev=GP12 next=GP13 ok=GP14 back=GP15"\n'
        'LUNCHBOX_RGB_LED = "GP6 GP7 GP8"\n'
        'LUNCHBOX_NEOPIXEL = "GP22"\n'
        "LUNCHBOX_NEOPIXEL_COUNT = 8\n"
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
    }


def test_rendered_keys_are_the_documented_ones():
    design = (ROOT / "docs" / "design.md").read_text()
    documented = set(re.findall(r"^(LUNCHBOX_[A-Z_]+) =", design, re.M))
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
    # The device parses settings.toml with companion.core.settings: it must read back every pin.
    settings = pytest.importorskip("companion.core.settings")
    profile = profiles.load_profile(pid)
    cfg = settings.read(tomllib.loads(profiles.render_settings(profile)).get)
    assert cfg["profile"] == pid
    assert cfg["display"] == profile["display"]["driver"]
    assert cfg["display_pins"] == profile["display"]["pins"]
    assert cfg["buttons"] == [(b["role"], b["pin"]) for b in profile["buttons"]]
    assert cfg["neopixel"] == profile["leds"].get("neopixel")
    assert (cfg["rgb_led"] or None) == profile["leds"].get("rgb")


@pytest.mark.parametrize("pid", EXPECTED_IDS)
def test_settings_round_trip_through_the_firmware_parser(pid):
    # What sync writes (the rendered keys below the user's own lines), read back the way the
    # device reads it (companion.core.settings: parse_toml, as the simulator does, then read),
    # must give back every value of the profile.
    settings = pytest.importorskip("companion.core.settings")
    from lunchbox import fileset

    profile = profiles.load_profile(pid)
    text = fileset.merge_settings('CIRCUITPY_WIFI_SSID = "home" # mine\n'
                                  'CIRCUITPY_WEB_API_PORT = 80\n',
                                  profiles.render_settings(profile))
    values = settings.parse_toml(text)
    assert values == tomllib.loads(text)  # the firmware's parser agrees with TOML
    cfg = settings.read(values.get)
    display, leds = profile["display"], profile["leds"]
    assert cfg == {
        "profile": pid, "board": profile["board"], "chip": profile["chip"],
        "display": display["driver"], "width": display["width"], "height": display["height"],
        "rotation": display.get("rotation", 0), "address": display.get("address", 0x3C),
        "display_pins": display["pins"],
        "buttons": [(b["role"], b["pin"]) for b in profile["buttons"]],
        "rgb_led": leds.get("rgb"), "neopixel": leds.get("neopixel"),
        "neopixel_count": leds.get("neopixel_count", 0) if leds.get("neopixel") else 0,
    }
