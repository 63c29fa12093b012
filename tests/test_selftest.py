"""Settings > Check the box (companion/settings/selftest.py) in the simulator, on both displays,
through its buttons: each press named with its pin, the screen's test pattern with the rotation that
turns it over, the LEDs lit in turn (even when Settings switched them off), the box's figures,
and Back to Settings with the LEDs as Settings has them. The same figures over the data link
(app/link.py CHECK, settings/boxcheck.py). Its layout: tests/test_layout_check.py."""

import re

from lunchbox.sim import Simulator

OPEN = "wait:3000 prev ok prev ok"  # Settings (the menu's last row), then its last row


class Shots(Simulator):
    """Each shot: the texts, and the LEDs as they were shown."""

    def capture(self, path):
        shot = super().capture(path)
        shot["leds"] = list(self.pixels.shown) if self.pixels is not None else []
        return shot


def _run(simulate, profile, script, tmp_path, **kw):
    n = [0]

    def shot(words):
        n[0] += 1
        return "{} shot:{}".format(words, tmp_path / "s{}.png".format(n[0]))

    parts = script.split("|")
    sim = simulate(profile, " ".join(shot(p) for p in parts), cls=Shots, **kw)
    return sim, [c["texts"] for c in sim.captures], sim.captures


def _presses(sim):
    """Every button of the profile, once, as the key script names them."""
    return [role for role, _pin in sim.cfg["buttons"]]


def test_every_page_through_the_buttons(profile, simulate, tmp_path):
    probe = simulate(profile, None)
    roles = _presses(probe)
    pins = dict(probe.cfg["buttons"])
    # all but OK (which would go on once all are pressed), then OK, Screen, LEDs, Box, Back
    others = [r for r in roles if r != "ok"]
    script = "|".join([OPEN] + others + ["ok", "ok", "ok", "wait:1000", "ok", "back"])
    sim, texts, shots = _run(simulate, profile, script, tmp_path)
    first = texts[0]
    assert first[:2] == ["Buttons", "1/4"] and first[2] == "Press each button", first
    assert "To press: " in " ".join(first)
    for i, role in enumerate(others):
        t = " ".join(texts[1 + i])
        assert "Pressed: {} {}".format(role, pins[role]) in t, t
    k = 1 + len(others)
    assert "Pressed: ok {}".format(pins["ok"]) in " ".join(texts[k]) and "All {} work.".format(
        len(roles)) in texts[k], texts[k]
    screen = texts[k + 1]
    turn = (sim.cfg["rotation"] + 180) % 360
    assert "^ top ^" in screen and "v bottom v" in screen and "<" in screen and ">" in screen
    assert "rotation = {}".format(turn) in " ".join(screen), screen
    leds = texts[k + 2]
    assert leds[:2] == ["LEDs", "3/4"] and leds[2] == "LED 1 of {}: red".format(
        len(shots[k + 2]["leds"])), leds
    assert shots[k + 2]["leds"][0][0] > 0 and shots[k + 2]["leds"][0][1:] == (0, 0)
    assert all(c == (0, 0, 0) for c in shots[k + 2]["leds"][1:])
    later = texts[k + 3][2]  # a second on: the next LEDs in turn
    assert later != leds[2] and later.startswith("LED "), later
    lit = [i for i, c in enumerate(shots[k + 3]["leds"]) if c != (0, 0, 0)]
    assert len(lit) == 1 and "LED {} of".format(lit[0] + 1) in later
    box = texts[k + 4]
    assert box[:2] == ["Box", "4/4"] and box[2] == "Firmware 0.1.0", box
    # the time running is the board's clock since power-on (the simulator's: the computer's)
    assert box[3].startswith("Free heap") and re.match(r"Running (\d+:)?\d+:\d\d$", box[4]), box
    assert box[5] in ("On USB power", "No battery reading"), box
    back = texts[k + 5]
    assert back[0] == "Settings" and all(c == (0, 0, 0) for c in shots[k + 5]["leds"])
    assert sim.layout_problems() == []


def test_back_and_prev_between_pages_and_a_held_ok(profile, simulate, tmp_path):
    # a held OK leaves the buttons page before every button is pressed; prev goes back; on
    # the buttons page Back is a button to name, on the others it leaves
    sim, texts, _shots = _run(simulate, profile, OPEN + " long:ok|ok|prev|prev|back|long:ok back",
                              tmp_path)
    assert "^ top ^" in texts[0]
    assert texts[1][:2] == ["LEDs", "3/4"]
    assert "^ top ^" in texts[2]
    assert texts[3][0] == "Buttons" and "Pressed: " not in " ".join(texts[3])
    assert texts[4][0] == "Buttons" and "Pressed: back " in texts[4][2], texts[4]
    assert texts[5][0] == "Settings"


def test_the_leds_light_though_settings_switched_them_off(profile, simulate, tmp_path):
    # Settings > LEDs (row 1) off, then the self-test's LEDs page
    sim, texts, shots = _run(simulate, profile, "wait:3000 prev ok next ok prev prev ok long:ok "
                                                "ok|back", tmp_path)
    assert texts[0][2].startswith("LED 1 of"), texts[0]
    assert any(c != (0, 0, 0) for c in shots[0]["leds"])
    assert texts[1][0] == "Settings" and all(c == (0, 0, 0) for c in shots[1]["leds"])


def test_the_box_page_on_a_battery(profile, simulate, tmp_path):
    sim, texts, _shots = _run(simulate, profile, OPEN + " long:ok ok ok", tmp_path, battery=60)
    assert texts[0][-1] == "Battery 60%", texts[0]  # the simulator's supply has no ADC


def test_the_box_figures(profile, simulate):
    """settings/boxcheck.readings, as the Box page and the link's CHECK give them."""
    from companion.settings.boxcheck import encode, readings
    from lunchbox.sim.hw import SimSupply

    r = dict(readings("0.1.0", profile, None))
    assert r["firmware"] == "0.1.0" and r["profile"] == profile and r["battery"] == "none"
    assert isinstance(r["runtime_s"], int) and r["runtime_s"] >= 0
    r = dict(readings("0.1.0", profile, SimSupply(None)))
    assert r["battery"] == "usb" and r["battery_pct"] is None
    r = dict(readings("0.1.0", profile, SimSupply(42)))
    assert r["battery"] == "on" and r["battery_pct"] == 42 and r["battery_mv"] is None
    text = encode(readings("0.1.0", profile, SimSupply(42))).decode()
    assert "firmware=0.1.0\n" in text and "battery=on\n" in text and "battery_pct=42\n" in text
    assert "battery_mv" not in text  # unknown: left out
    assert all("=" in line for line in text.splitlines())


def test_the_link_answers_check(profile, tmp_path):
    """A CHECK frame gets the box's figures back, as "key=value" lines (lunchbox doctor)."""
    from companion.app import link
    from companion.store.store import Store
    from lunchbox.sim.hw import FileNvm, SimSupply

    server = link.LinkServer(Store(FileNvm(str(tmp_path / "nvm.bin"))), "0.1.0", profile)
    server.supply = SimSupply(None)
    out = server.feed(link.frame(link.CHECK, 7), 0)
    got = link.FrameReader(link.TX_MAX).feed(out, 0)
    assert [(t, tag) for t, tag, _p in got] == [(link.CHECK | 0x80, 7)]
    lines = dict(line.split("=", 1) for line in got[0][2].decode().splitlines())
    assert lines["firmware"] == "0.1.0" and lines["profile"] == profile
    assert lines["battery"] == "usb" and int(lines["runtime_s"]) >= 0
