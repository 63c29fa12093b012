"""Every screen of the app, on both reference displays, checked by the boxes of what is drawn:
no text off-screen, no two texts on top of each other, nothing cut short ('~' is what
screen.text.fit leaves when it has to cut), and something visible on the screen."""

import pytest

from lunchbox.hardware import profiles
from lunchbox.sim.inspect import walk

EVERY_PROFILE = profiles.list_profiles()  # the Pico 2 builds too: the same screens, checked
AQUA = "next next ok next ok "  # Aqua Brunch, then Strength in its list
HAND = "ok next*6 ok next*7 ok next*8 ok "  # Shark 6/2/6, Shark 7/1/7 twice: the longest names
SETTINGS = "next*6 ok "  # menu row 6 (row 5 is First player)

# (name, script that ends on the screen, the text that proves we are on it)
SCREENS = (
    ("first start toast", "", "No saved data -"),
    ("menu", "wait:3000", "Lunchbox"),
    ("menu scrolled", "prev", "Settings"),
    ("space lunch", "ok", "Space Lunch"),
    ("lets do lunch", "next ok", "Let's Do Lunch"),
    ("space battle", "next*3 ok", "Space Battle"),
    ("space days", "next*4 ok", "Space Days"),
    ("aqua empty", AQUA, "Strength"),
    ("aqua editing", AQUA + "ok next*6", "<>"),
    ("aqua full hand", AQUA + HAND + "next", "none"),
    ("aqua all cards ticked", AQUA + HAND + "next ok ok next ok next ok next ok back",
     "0 -1 -2 -4"),
    ("aqua cards", AQUA + HAND + "next ok ok next ok", "Aqua -2"),
    ("aqua clear row", AQUA + "next*4", "Clear"),
    ("nothing to undo toast", AQUA + "long:back", "Nothing to undo"),
    ("undone toast", AQUA + "ok next long:back", "Undone"),
    ("settings", SETTINGS, "Brightness"),
    ("brightness picker", SETTINGS + "ok", "< 50% >"),
    ("brightness at max", SETTINGS + "ok next*6", "< 100%"),
    ("leds switched off", SETTINGS + "next ok", "off"),
    ("players", SETTINGS + "next next ok prev", "7 P7"),
    ("name editor", SETTINGS + "next next ok ok", "hold OK: save"),
    ("name editor last letter", SETTINGS + "next next ok ok ok*7 prev", "^"),
    ("about", SETTINGS + "prev prev ok", "Firmware 0.1.0"),
    ("check the box", SETTINGS + "prev ok", "Press each button"),
    ("resume prompt", AQUA + "ok next reset", "Resume game?"),
    ("discarded toast", AQUA + "ok next reset next ok", "Saved game discarded"),
    ("full-length name", SETTINGS + "next next ok ok " + "prev ok " * 8, "1 O0------"),
    ("full-length name editor", SETTINGS + "next next ok ok " + "prev ok " * 8 + "ok",
     "O0------"),
)


def check(sim, marker):
    t = sim.texts()
    assert marker in " ".join(t), t
    assert sim.layout_problems() == []
    cut = [s for s in t if "~" in s]
    assert cut == [], "text cut short: {}".format(cut)
    assert sim.pixels_lit() > 100
    # every drawn tile grid (bars, boxes, the board) is on the screen too
    w, h = sim.cfg["width"], sim.cfg["height"]
    for kind, _t, (x0, y0, x1, y1) in walk(sim.display.root):
        if kind == "tiles":
            assert x0 >= 0 and y0 >= 0 and x1 <= w and y1 <= h, (x0, y0, x1, y1)


@pytest.mark.parametrize("profile", EVERY_PROFILE)
@pytest.mark.parametrize("name,script,marker", SCREENS, ids=[s[0] for s in SCREENS])
def test_screen_layout(profile, name, script, marker, simulate, nvm):
    check(simulate(profile, script, nvm), marker)


def test_crash_screen_layout(profile, tmp_path, monkeypatch, simulate, nvm):
    import companion.games.aqua_brunch.calc as aqua

    def boom(self, button, kind):
        raise ZeroDivisionError("a rather long message about what went wrong, " * 3)

    monkeypatch.setattr(aqua.AquaScreen, "on_button", boom)
    sim = simulate(profile, AQUA + "ok wait:500 shot:{}".format(tmp_path / "c.png"), nvm)
    shot = sim.captures[0]
    assert shot["texts"][0] == "Oops - restarting"
    assert shot["problems"] == []
    # a long message is cut to the lines there are, visibly
    assert shot["texts"][-1].endswith("~")


def _store_messages():
    from lunchbox.sim import setup_environment

    setup_environment("headless")
    from companion.store import store

    return [getattr(store, n) for n in sorted(dir(store)) if n.startswith("MSG_")]


def test_every_store_message_is_shown_whole(profile, simulate, nvm):
    """What the store reports at start (corrupt memory, a lost game...) is shown in full."""
    from companion.app.loop import App
    from companion.app.menu import start
    from companion.store.store import MSG_BLANK

    sim = simulate(profile, "", nvm)
    for message in _store_messages():
        app = App(sim.hw, _StoreStub(), start, notice=message)
        app.refresh()
        t = sim.texts()
        assert [s for s in t if "~" in s] == [], (message, t)
        assert message.split()[-1] in " ".join(t)
        assert sim.layout_problems() == []
        if message != MSG_BLANK:
            assert t[0] == "Saved data" and " ".join(t[1:]).split() == message.split()


def test_every_toast_fits_in_its_two_lines(profile, simulate):
    """Every literal the app passes to notify() wraps into the toast without a cut."""
    import ast
    from pathlib import Path

    from companion.screen.text import wrap

    root = Path(__file__).resolve().parents[1] / "firmware" / "companion"
    found = []
    for path in sorted(root.rglob("*.py")):  # the games' folders too
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "notify"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                found.append(node.args[0].value)
    assert len(found) >= 4
    cols = simulate(profile, None).display.cols - 1  # as ui.Toast wraps
    for message in found:
        lines = wrap(message, cols, 2)
        assert not lines[-1].endswith("~"), (profile, message, lines)


class _StoreStub:
    """An empty store: no game, no settings, nothing recorded."""

    status = None

    def load_game(self):
        return None

    def load_settings(self):
        return None

    def records(self, acked=False):
        return []

    def waiting(self):
        return 0
