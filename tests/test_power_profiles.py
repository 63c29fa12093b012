"""Which builds can read their battery: the profiles' [power] table, as the validator checks
it, as settings.toml carries it, and as companion/board/hwpico.py reads the board's VSYS and USB
pins (against stand-ins of CircuitPython's modules, as tests/test_firmware_hwpico.py)."""

import copy
import re
import sys
import types
from pathlib import Path

import pytest
from test_firmware_core import DISPLAY_PACK, SSD1306  # the rendered profiles
from test_firmware_hwpico import Pin, fake_modules

from lunchbox.hardware import pins, profiles

SITE = Path(pytest.__file__).resolve().parent.parent


@pytest.mark.parametrize("pid", profiles.list_profiles())
def test_every_build_reads_its_lipo_and_says_so_in_settings_toml(pid):
    p = profiles.load_profile(pid)
    assert p["power"] == {"battery": "lipo"}
    assert 'LUNCHBOX_BATTERY = "lipo"\n' in profiles.render_settings(p)
    # the BOM names the charger and the cell, both optional
    parts = [b["part"] for b in p["bom"] if b.get("optional")]
    assert any("LiPo SHIM" in part and "PIM557" in part for part in parts)
    assert any("LiPo cell" in part and "JST-PH" in part for part in parts)


def test_a_profile_without_power_renders_no_battery():
    p = copy.deepcopy(profiles.load_profile("pico-ssd1306-5btn"))
    del p["power"]
    assert profiles.validate(p) == []
    assert "LUNCHBOX_BATTERY" not in profiles.render_settings(p)


@pytest.mark.parametrize("power,message", [
    ({"battery": "aa"}, "battery 'aa' is not one the firmware reads (lipo)"),
    ({"battery": 1}, "battery 1 is not one"),
    ({"battery": ["lipo"]}, "is not one"),
    ({"battery": "lipo", "cells": 2}, "[power]: unknown key 'cells'"),
    ("lipo", "[power] must be a table"),
])
def test_bad_power_tables_are_named(power, message):
    p = copy.deepcopy(profiles.load_profile("pico-display-pack"))
    p["power"] = power
    problems = profiles.validate(p)
    assert any(message in m for m in problems), problems


def test_a_board_without_the_two_pins_cannot_have_a_battery(monkeypatch):
    board = dict(pins.BOARDS["raspberry_pi_pico"], name="A board without VSYS sense")
    monkeypatch.setitem(pins.BOARDS, "some_rp2040_board", board)
    p = copy.deepcopy(profiles.load_profile("pico-display-pack"))
    p["board"] = "some_rp2040_board"
    assert any("has no VOLTAGE_MONITOR and VBUS_SENSE" in m for m in profiles.validate(p))
    del p["power"]
    assert profiles.validate(p) == []


@pytest.mark.parametrize("board", profiles.BATTERY_BOARDS)
def test_the_battery_boards_have_both_pins_in_circuitpython(board):
    """circuitpython-stubs' board definitions: VOLTAGE_MONITOR is GPIO29 on every Pico (on the
    W boards shared with the wireless chip's clock); VBUS_SENSE GPIO24, or the wireless chip's
    CYW2 on a W. Neither is a header pin, so no profile pin can take them."""
    text = (SITE / "board_definitions" / board / "__init__.pyi").read_text()
    assert re.search(r"^VOLTAGE_MONITOR: microcontroller.Pin  # GPIO29$", text, re.M)
    sense = re.search(r"^VBUS_SENSE: microcontroller.Pin  # (\w+)$", text, re.M).group(1)
    assert sense == ("CYW2" if board.endswith("_w") else "GPIO24")
    assert 24 not in pins.BOARDS[board]["header"] and 29 not in pins.BOARDS[board]["header"]


class FakeAnalogIn:
    value = 0

    def __init__(self, pin):
        self.pin = pin
        self.reads = 0


class FakeDigitalIn:
    value = False

    def __init__(self, pin):
        self.pin = pin


def fake_power(monkeypatch, settings_text):
    fake_modules(monkeypatch, settings_text)
    board = sys.modules["board"]
    board.VOLTAGE_MONITOR = Pin("GPIO29")
    board.VBUS_SENSE = Pin("GPIO24")
    analogio = types.ModuleType("analogio")
    analogio.AnalogIn = FakeAnalogIn
    monkeypatch.setitem(sys.modules, "analogio", analogio)
    digital = sys.modules["digitalio"].DigitalInOut

    def dio(pin):  # the status LED's pins keep the stand-in of test_firmware_hwpico
        return FakeDigitalIn(pin) if pin.name == "GPIO24" else digital(pin)

    monkeypatch.setattr(sys.modules["digitalio"], "DigitalInOut", dio)


def adc_for(mv):
    """The 16-bit AnalogIn value for VSYS at ``mv`` (through the 1/3 divider, 3.3 V ref)."""
    return (mv * 65535 + 9899) // 9900


@pytest.mark.parametrize("settings", [DISPLAY_PACK, SSD1306])
def test_the_pico_reads_vsys_and_usb_when_the_profile_says_so(monkeypatch, settings):
    fake_power(monkeypatch, settings)
    from companion.board import hwpico

    assert hwpico.build().supply is None  # no LUNCHBOX_BATTERY: nothing read
    fake_power(monkeypatch, settings + 'LUNCHBOX_BATTERY = "lipo"\n')
    from companion.board import hwpico

    supply = hwpico.build().supply
    assert supply.adc.pin.name == "GPIO29" and supply.vbus.pin.name == "GPIO24"
    supply.vbus.value = True  # on USB
    supply.adc.value = adc_for(3800)
    assert supply.level() is None
    supply.vbus.value = False
    assert supply.level() == 50
    supply.adc.value = adc_for(3690)
    assert supply.level() in (20, 21)  # LOW, give or take the ADC's last step
    supply.adc.value = adc_for(4300)
    assert supply.level() == 100
    supply.adc.value = 0  # nothing on VSYS (the emulator's ADC): no reading
    assert supply.level() is None
    supply.adc.value = 65535  # the largest reading
    assert supply.level() == 100
