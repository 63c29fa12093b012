"""The firmware core's models: app settings bytes, the Aqua Brunch calculator state, the
crash payload (the data link: test_link.py). Runs on CPython and on MicroPython (the lane)."""

from _harness import raises
from companion.games.aqua_brunch.calc_state import CARDS, AquaCalc
from companion.store.appsettings import MAX_PLAYERS, AppSettings
from companion.store.records import crash_payload


def test_settings_round_trip():
    s = AppSettings(70, False, ["ANNA", "BO", "P3", "P4", "P5", "P6", "ZED-9"])
    t = AppSettings.from_bytes(s.to_bytes())
    assert (t.brightness, t.leds, t.names) == (70, False, s.names)
    d = AppSettings()
    assert d.brightness == 50 and d.leds and len(d.names) == MAX_PLAYERS


def test_settings_keep_space_lunch_hints_and_cards():
    s = AppSettings(70, False, ["ANNA", "BO", "P3", "P4", "P5", "P6", "P7"], hints=False,
                    deal=True)
    t = AppSettings.from_bytes(s.to_bytes())
    assert (t.hints, t.deal, t.leds, t.names) == (False, True, False, s.names)
    for hints in (True, False):
        for deal in (True, False):
            u = AppSettings.from_bytes(AppSettings(hints=hints, deal=deal).to_bytes())
            assert (u.hints, u.deal, u.leds) == (hints, deal, True)
    d = AppSettings()
    assert d.hints and not d.deal  # hints on, cards typed


def test_settings_saved_before_hints_and_cards_read_as_the_defaults():
    # the bytes format 1 wrote before the two switches: version, 60%, LEDs off, two names...
    old = bytes((1, 60, 0, 7)) + b"".join(bytes((len(n),)) + n.encode() for n in
                                         ("ANNA", "BO", "P3", "P4", "P5", "P6", "P7"))
    s = AppSettings.from_bytes(old)
    assert (s.brightness, s.leds, s.names[:2], s.hints, s.deal) == (60, False, ["ANNA", "BO"],
                                                                    True, False)
    assert s.to_bytes() == old  # at the defaults: the same bytes (older firmware reads them)
    with raises(ValueError, "bad flags"):
        # a screen-off time no firmware wrote (bits 5-7 past the last choice)
        AppSettings.from_bytes(old[:2] + bytes((0xA0,)) + old[3:])


def test_settings_reject_bad_values():
    with raises(ValueError, "brightness"):
        AppSettings(55)
    with raises(ValueError, "bad character"):
        AppSettings(names=["a"] * MAX_PLAYERS)
    with raises(ValueError, "player name"):
        AppSettings(names=["TOOLONGNAME"] + ["P"] * (MAX_PLAYERS - 1))


def test_settings_from_corrupt_bytes_raise_valueerror():
    good = AppSettings().to_bytes()
    with raises(ValueError, "version"):
        AppSettings.from_bytes(b"\x09" + good[1:])
    with raises(ValueError, "short"):
        AppSettings.from_bytes(b"\x01")
    # every truncation and every single-byte corruption is either valid or a ValueError
    for n in range(len(good)):
        try:
            AppSettings.from_bytes(good[:n])
        except ValueError:
            pass
    for i in range(len(good)):
        for v in (0, 1, 0x7F, 0xFF):
            raw = bytearray(good)
            raw[i] = v
            try:
                AppSettings.from_bytes(bytes(raw))
            except ValueError:
                pass


def test_calc_cycles_through_every_card_and_empty():
    c = AquaCalc()
    seen = []
    for _ in range(len(CARDS) + 1):
        c.cycle(0, 1)
        seen.append(c.slots[0])
    assert seen == list(range(len(CARDS))) + [None]
    c.cycle(0, -1)
    assert c.slots[0] == len(CARDS) - 1


def test_calc_strength_matches_rulebook_examples():
    c = AquaCalc()
    assert c.strength() is None
    c.slots = [CARDS.index("walrus"), CARDS.index("shark717"), CARDS.index("octopus")]
    assert c.strength() == 11  # the rulebook: walrus + shark (7,1,7) + octopus = 11
    c.toggle_aqua(2)  # the -2 card
    assert c.aqua_values() == [-2]
    assert c.strength() == 9
    c.slots = [CARDS.index("orca5"), CARDS.index("orca8"), CARDS.index("baby")]
    c.toggle_aqua(2)
    assert c.strength() == 18


def test_calc_bytes_round_trip_and_validation():
    c = AquaCalc()
    c.slots = [1, None, 7]
    c.aqua = [True, False, False, True]
    d = AquaCalc.from_bytes(c.to_bytes())
    assert d.slots == [1, None, 7] and d.aqua == [True, False, False, True]
    with raises(ValueError, "card index"):
        AquaCalc.from_bytes(b"\x01\x09\xff\xff\x00")
    with raises(ValueError, "aqua flags"):
        AquaCalc.from_bytes(b"\x01\xff\xff\xff\x10")
    with raises(ValueError, "version"):
        AquaCalc.from_bytes(b"\x02\xff\xff\xff\x00")
    with raises(ValueError, "5 bytes"):
        AquaCalc.from_bytes(b"\x01")
    c.clear()
    assert c.slots == [None, None, None] and not c.complete()


def test_crash_payload_is_short():
    p = crash_payload("ValueError", "x" * 500, "AquaScreen")
    assert p.startswith(b"AquaScreen|ValueError: x") and len(p) <= 96
