"""The main menu, Settings, and the resume prompt."""

from . import __version__
from .core.appsettings import BRIGHTNESS_STEP, NAME_CHARS, NAME_LEN
from .core.buttons import BACK, LONG, NEXT, OK, PREV
from .core.text import fit
from .screens import ConfirmDialog, ItemPicker, ListScreen, MessageScreen, NumberPicker, Screen
from .ui import TitleBar, text

# (game id, menu label, full name, module with open(app, payload) or None until it exists)
GAMES = (
    ("space_lunch", "Space Lunch", "Space Lunch", "companion.space_lunch"),
    ("lets_do_lunch", "Let's Do Lunch", "Let's Do Lunch", "companion.ldl"),
    ("aqua_brunch", "Aqua Brunch", "Aqua Brunch", "companion.aqua_tools"),
    ("space_battle", "Space Battle", "Space Battle Lunchtime", "companion.battle_screens"),
    ("space_days", "Space Days", "Space Days", "companion.days_screens"),
)
# The table scoreboards (docs/scoring.md) save and record under their own ids; a saved one
# opens with its module, named as its game: (id, its game's row, module).
SCOREBOARDS = (
    ("aqua_score", "aqua_brunch", "companion.aqua_score"),
    ("battle_race", "space_battle", "companion.battle_screens"),
    ("days_score", "space_days", "companion.days_screens"),
)


def game_info(game_id):
    for board, game, module in SCOREBOARDS:
        if board == game_id:
            info = game_info(game)
            return (board, info[1], info[2], module)
    for info in GAMES:
        if info[0] == game_id:
            return info
    return None


def _on_device():
    import sys

    return sys.implementation.name != "cpython"


UNLOAD = _on_device()
_loaded = [None, ()]  # the game whose code is in memory, and the modules its opening imported


def forget_other_games(game_id):
    """Unload the modules that opening another game imported (its screens and its rules):
    one game's code fits a Pico's heap beside the app, all five games' do not
    (bench/firmware_memory.py). Which modules those are is recorded when the game opens, so no
    naming convention is needed. Returns the names dropped. Only on the device (``UNLOAD``):
    on a PC there is room, and the simulator may share its process with other users of
    shared_rules (pytest), whose modules must not be swapped under them."""
    import sys

    if not UNLOAD or _loaded[0] is None or _loaded[0] == game_id:
        return []
    dropped = [name for name in _loaded[1] if name in sys.modules]
    for name in dropped:
        _unload(sys, name)
    _loaded[0] = None
    _loaded[1] = ()
    return dropped


def _import_game(game_id, module_name):
    """Import a game's screen module, noting every module the import brings in."""
    import sys

    before = set(sys.modules)
    module = __import__(module_name, None, None, ["open"])
    if _loaded[0] != game_id:
        _loaded[0] = game_id
        _loaded[1] = ()
    added = sorted([n for n in sys.modules if n not in before])
    _loaded[1] = tuple(sorted(set(_loaded[1]) | set(added)))
    return module


def _unload(sys, name):
    del sys.modules[name]
    # the parent package keeps the submodule as an attribute too
    dot = name.rfind(".")
    parent = sys.modules.get(name[:dot]) if dot > 0 else None
    if parent is not None and hasattr(parent, name[dot + 1:]):
        delattr(parent, name[dot + 1:])


def open_game(app, game_id, payload=None):
    """Push the game's screen (resuming ``payload`` when given)."""
    forget_other_games(game_id)
    info = game_info(game_id)
    if info is None or info[3] is None:
        label, name = (info[1], info[2]) if info else (game_id, game_id)
        app.push(MessageScreen(app, label, name + " is coming in a later update."))
        return
    if payload is None:
        saved = app.store.load_game()
        if saved is not None and saved[0] == game_id:
            payload = saved[1]  # opening the game from the menu carries on the saved one
    module = _import_game(game_id, info[3])
    try:
        module.open(app, payload)
        if payload is None:
            _warn_if_memory_is_full(app, game_id)
    except ValueError:
        # a saved game this firmware cannot read: say so and start that game fresh
        app.store.clear_game()
        app.notify("Save unreadable - new game")  # a toast: two short lines at most
        module.open(app, None)


def _warn_if_memory_is_full(app, game_id):
    """Before a new game, say so when its record would push out a game not yet pulled (an
    unpulled record is never dropped without this having been on screen)."""
    from .core.records import warning

    ids = [g[0] for g in GAMES]
    note = warning(app.store, ids.index(game_id) if game_id in ids else -1)
    if note:
        app.push(MessageScreen(app, "Memory", note))


def start(app, resume):
    """The app's first screens: the main menu, and the resume prompt over it."""
    app.push(MainMenu(app))
    if resume:
        resume_prompt(app)


def resume_prompt(app):
    saved = app.store.load_game()
    if saved is None:
        return
    game_id, payload = saved
    info = game_info(game_id)
    name = info[2] if info else game_id

    def yes():
        open_game(app, game_id, payload)

    def no():
        app.store.clear_game()
        app.notify("Saved game discarded")

    def later():
        pass  # Back keeps the saved game: it is offered again from the menu and at restart

    app.push(ConfirmDialog(app, "Resume game?", name, yes, no, "Resume", "Discard", later))


class MainMenu(ListScreen):
    title = "Lunchbox"

    def items(self):
        return [g[1] for g in GAMES] + ["Settings"]

    def status(self):
        from .core.records import waiting

        n = waiting(self.app.store)
        return "{} to pull".format(n) if n else "v" + __version__

    def activate(self, index):
        if index < len(GAMES):
            open_game(self.app, GAMES[index][0])
        else:
            self.app.push(SettingsScreen(self.app))

    def on_button(self, button, kind):
        if button == BACK:
            return  # nowhere to go back to
        super().on_button(button, kind)


class SettingsScreen(ListScreen):
    title = "Settings"

    def items(self):
        return ["Brightness", "LEDs", "Player names", "About"]

    def marks(self):
        s = self.app.settings
        return ["{}%".format(s.brightness), "on" if s.leds else "off", "", ""]

    def activate(self, index):
        app = self.app
        s = app.settings
        if index == 0:
            def preview(v):
                app.d.set_brightness(v)
                app.leds.configure(v, s.leds)

            def done(v):
                s.brightness = v
                app.save_settings()

            app.push(NumberPicker(app, "Brightness", s.brightness, 10, 100, BRIGHTNESS_STEP,
                                  done, preview, "%"))
        elif index == 1:
            def chosen(i):
                s.leds = i == 0
                app.save_settings()

            app.push(ItemPicker(app, "LEDs", ["On", "Off"], 0 if s.leds else 1, chosen))
        elif index == 2:
            app.push(PlayersScreen(app))
        else:
            app.push(AboutScreen(app))


class PlayersScreen(ListScreen):
    title = "Player names"

    def items(self):
        return ["{} {}".format(i + 1, n) for i, n in enumerate(self.app.settings.names)]

    def activate(self, index):
        self.app.push(NameEditor(self.app, index))


class AboutScreen(ListScreen):
    """What runs here: firmware version, hardware profile, records kept, save status."""

    title = "About"

    def items(self):
        app = self.app
        return ["Firmware " + __version__,
                app.hw.profile.get("profile", "?"),
                "{} records kept".format(len(app.store.records())),
                "Saves: " + ("check nvm" if app.store.status else "ok")]

    def activate(self, index):
        if index == 3 and self.app.store.status:
            from .app import NOTICE_TITLE

            self.app.push(MessageScreen(self.app, NOTICE_TITLE, self.app.store.status))


class NameEditor(Screen):
    """Spell a name with four buttons: prev/next change the letter under the cursor, OK moves
    on, a long OK (or OK past the last letter) saves, Back steps back (cancels at the start)."""

    def __init__(self, app, player):
        super().__init__(app)
        d = self.d
        self.player = player
        self.chars = list(app.settings.names[player])
        self.pos = 0
        self.bar = TitleBar(d, "Player {}".format(player + 1))
        big = d.scale * 2 if d.cols >= NAME_LEN * 2 + 2 else d.scale
        self.big = big
        cw = 6 * big
        self.x0 = (d.width - cw * NAME_LEN) // 2
        # title, then the name with a caret row under it, then the hint on the last row
        avail = d.height - d.title_h - d.char_h
        top = d.title_h + (avail - 12 * big - d.char_h) // 2
        self.caret_dx = (cw - d.char_w) // 2  # centre the caret under the letter
        self.name = text(d, "", self.x0, top, d.FG, big, (0, 0))
        self.cursor = text(d, "^", self.x0, top + 12 * big, d.ACCENT, None, (0, 0))
        self.hint = text(d, fit("hold OK: save", d.cols), d.width // 2,
                         d.height - d.char_h // 2, d.DIM, anchor=(0.5, 0.5))
        for part in (self.bar.group, self.name, self.cursor, self.hint):
            self.group.append(part)
        self._show()

    def _show(self):
        s = "".join(self.chars)
        self.name.text = s + " " * (NAME_LEN - len(s))
        self.name.anchored_position = (self.x0, self.name.anchored_position[1])
        self.cursor.anchored_position = (self.x0 + self.pos * 6 * self.big + self.caret_dx,
                                         self.cursor.anchored_position[1])
        self.changed()

    def _cycle(self, step):
        while len(self.chars) <= self.pos:
            self.chars.append(" ")
        i = NAME_CHARS.find(self.chars[self.pos])
        self.chars[self.pos] = NAME_CHARS[(i + step) % len(NAME_CHARS)]
        self._show()

    def _save(self):
        name = "".join(self.chars).strip()
        if name:
            self.app.settings.names[self.player] = name
            self.app.save_settings()
        self.app.pop()

    def on_button(self, button, kind):
        if button == PREV:
            self._cycle(-1)
        elif button == NEXT:
            self._cycle(1)
        elif button == OK:
            if kind == LONG or self.pos >= NAME_LEN - 1:
                self._save()
            else:
                self.pos += 1
                self._show()
        elif button == BACK:
            if self.pos == 0:
                self.app.pop()
            else:
                self.pos -= 1
                self._show()

