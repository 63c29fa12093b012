"""lunchbox push: the settings change is checked with the board's own rules on the host, and
again by the board (tests/test_pull_sim.py pushes to the simulated board end to end)."""

import linkloop
import pytest

from lunchbox.errors import UsageError
from lunchbox.records import linkproto as lp
from lunchbox.records import push


def settings_of(raw):
    a = push.appsettings()
    return a.AppSettings.from_bytes(raw)


def test_change_keeps_what_is_not_changed():
    raw = push.change(b"", names=["anna", "Bo"], brightness=70)
    s = settings_of(raw)
    assert (s.names[:3], s.brightness, s.leds) == (["ANNA", "BO", "P3"], 70, True)
    s2 = settings_of(push.change(raw, set_names=[(3, "cy")], leds=False))
    assert (s2.names[:3], s2.brightness, s2.leds) == (["ANNA", "BO", "CY"], 70, False)
    assert push.describe(raw).startswith("brightness 70%, LEDs on, players: ANNA, BO, P3")


@pytest.mark.parametrize("kw, msg", [
    ({"brightness": 55}, "brightness"),
    ({"names": ["Zoë"]}, "bad character"),
    ({"names": ["TOOLONGNAME"]}, "1 to 8 characters"),
    ({"set_names": [(9, "X")]}, "player 9"),
    ({"names": list("ABCDEFGH")}, "at most 7"),
])
def test_bad_values_are_refused_with_the_boards_words(kw, msg):
    with pytest.raises(UsageError, match=msg):
        push.change(b"", **kw)


def test_the_board_refuses_what_it_would_not_accept():
    board = linkloop.Board()
    link = board.link()
    good = push.change(b"", names=["ANNA"])
    link.set_settings(good)
    assert board.store.load_settings() == good
    with pytest.raises(lp.DeviceError, match="brightness"):
        link.set_settings(good[:1] + bytes((55,)) + good[2:])
    assert board.store.load_settings() == good
