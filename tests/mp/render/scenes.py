"""Lunchbox screens built by the firmware's own classes, the same on CPython and MicroPython.

tests/test_mp_render.py builds each scene twice: on CPython over the simulator's display
(Blinka's displayio, what `lunchbox sim` shows) and on MicroPython's WebAssembly port over
firmware/mplib (fbdisplay.FramebufferDisplay on an in-memory panel), and compares the two
pictures pixel for pixel. A scene gets a companion.screen.display ColorDisplay or MonoDisplay and
leaves on it what is to be compared; the app's buttons are pressed as the board's are
(press and release, the app's step after each), on a clock that moves only when told.
"""

DISPLAYS = (("st7789", 240, 135), ("ssd1306", 128, 64))
_BUTTONS = ("prev", "next", "ok", "back")


class Buttons:
    def __init__(self):
        self.pending = []

    def poll(self):
        out = self.pending
        self.pending = []
        return out


class Clock:
    def __init__(self):
        self.now = 1000

    def __call__(self):
        return self.now


class Supply:
    def __init__(self, percent):
        self.percent = percent

    def level(self):
        return self.percent


def make_app(d, supply=None, game=None):
    """The app at its main menu on ``d`` (``game``: in the game's own VM, as the board
    starts a game: companion/app/launch.py), over an erased nvm, its dice seeded the same on
    both interpreters (Hardware.seed takes os.urandom on a board)."""
    from companion.app.loop import App
    from companion.board.hwbase import Hardware
    from companion.store.store import Store

    nvm = bytearray(b"\xff" * 4096)
    hw = Hardware(d, Buttons(), Clock(), nvm, {"profile": "render-test"}, supply=supply)
    hw.seed = lambda: 20240601
    if game is None:
        from companion.app.menu import start
    else:
        from companion.app.main import _start_game as start

        hw.launched = game
    app = App(hw, Store(nvm), start, resume=False)
    step(app)
    return app


def step(app, ms=0):
    app.hw.clock.now += ms
    app.step()


def press(app, name, hold=60):
    b = _BUTTONS.index(name)
    app.hw.buttons.pending.append((b, True, None))
    step(app)
    if hold > 60:
        step(app, hold)
        hold = 0
    app.hw.clock.now += hold
    app.hw.buttons.pending.append((b, False, None))
    step(app)
    step(app, 100)


def keys(app, words):
    for word in words.split():
        n = 1
        if "*" in word:
            word, times = word.split("*")
            n = int(times)
        for _ in range(n):
            if word.startswith("wait:"):
                step(app, int(word[5:]))
            elif word.startswith("long:"):
                press(app, word[5:], 1000)
            else:
                press(app, word)


def _top(app, name):
    got = type(app.top).__name__
    if got != name:
        raise AssertionError("the top screen is {}, not {}".format(got, name))


# --- the scenes -------------------------------------------------------------------------------

def menu(d):
    return make_app(d)


def menu_moved(d):
    app = make_app(d)
    keys(app, "next next")
    return app


def settings_scrolled(d):
    """A list with marks (the settings' values) scrolled down: its scroll bar shows."""
    app = make_app(d)
    keys(app, "prev ok next*7")
    _top(app, "SettingsScreen")
    return app


def toast(d):
    app = make_app(d)
    app.notify("Saved game discarded")
    app.refresh()
    return app


def dialog(d):
    from companion.screen.screens import ConfirmDialog

    app = make_app(d)
    app.push(ConfirmDialog(app, "Resume game?", "Space Lunch", lambda: None, lambda: None,
                           "Resume", "Discard", lambda: None))
    app.refresh()
    return app


def number_picker(d):
    """Settings > Brightness: the value in big digits (scale 4 on the colour display)."""
    app = make_app(d)
    keys(app, "prev ok ok")
    _top(app, "NumberPicker")
    return app


def gauge(d):
    """The title bar with the battery gauge, half full."""
    return make_app(d, Supply(55))


def gauge_low(d):
    """The gauge at 10 % (its fill red on colour) and the low-battery warning."""
    return make_app(d, Supply(10))


def crash(d):
    from companion.app.crash import show_crash

    show_crash(d, "ValueError: a long message that wraps onto the lines below the bar")


def ldl_widget(d):
    """The Let's Do Lunch board widget alone, every kind of tile on it: both sides' pieces,
    the last one placed, eaten ones, the lit column, the cursor, the River."""
    from companion.games.lets_do_lunch.board import BoardWidget

    w = BoardWidget(d)
    d.root.append(w.group)
    cells = bytearray(49)
    for i, v in ((0, 1), (8, 2), (10, 1), (17, 2), (24, 1), (30, 2), (33, 1), (46, 2),
                 (3, 1), (38, 2)):
        cells[i] = v
    w.show(cells, lit=5, last=24, eaten=((16, 0), (40, 1)), cursor=23, mover=1)
    return w


def ldl_play(d):
    """Let's Do Lunch on the device's dice, a few turns in: the board and its panel."""
    app = make_app(d, game="lets_do_lunch")
    keys(app, "ok")
    keys(app, "ok wait:2000 " * 6)
    _top(app, "PlayScreen")
    return app


def sl_solo(d):
    """Space Lunch solo at Easy: the grid dealt, the first turn's hints."""
    app = make_app(d, game="space_lunch")
    keys(app, "ok ok*9")
    _top(app, "SoloScreen")
    return app


def build(name, d):
    """Scene ``name`` on ``d``, from a clean start (the title bar's class-wide gauge, top bar
    and clock are an app's: a scene without an app must not see another scene's); returns
    what drives it (the app, or the widget), to be kept while the scene is looked at."""
    from companion.screen.ui import TitleBar

    TitleBar.gauge = TitleBar.top = TitleBar.clock = None
    return globals()[name](d)


SCENES = ("menu", "menu_moved", "settings_scrolled", "toast", "dialog", "number_picker",
          "gauge", "gauge_low", "crash", "ldl_widget", "ldl_play", "sl_solo")
P8_SCENES = ("menu", "ldl_play")  # also drawn a byte a pixel (P8), not only as the board (P4)
