"""Settings: brightness, LEDs, player names, Space Lunch's hints and cards, when the idle
screen dims and goes off, About, Check the box (selftest.py). Imported when Settings opens and
let go when it closes (on the device), so a game never carries its code."""

# the turn clock's two rows: their pickers in turn_clock/menu.py, loaded when one is opened

from .. import __version__
from ..app.buttons import BACK, LONG, NEXT, OK, PREV
from ..screen.screens import ItemPicker, ListScreen, MessageScreen, NumberPicker, Screen
from ..screen.text import fit, wrap
from ..screen.ui import TitleBar, text
from ..store.appsettings import BRIGHTNESS_STEP, DIM_S, NAME_CHARS, NAME_LEN, OFF_S


class SettingsScreen(ListScreen):
    title = "Settings"
    shed = True  # under its pickers and lists (screens.ListScreen)

    def exit(self):
        from ..app.unload import forget

        # freed with the last Settings screen, with its Clock rows' (and their table)
        forget(__name__, "companion.turn_clock.menu", "companion.turn_clock.setting")

    def items(self):
        # "Lunch cards": "Space Lunch cards" and its mark do not fit a row (18 characters on
        # the colour display)
        # "Check the box" last: one press back from the first row (a first builder's)
        return ["Brightness", "LEDs", "Player names", "Hints", "Lunch cards", "Dim screen",
                "Screen off", "Clock", "Clock bonus", "About", "Check the box"]

    def marks(self):
        s = self.app.settings
        return ["{}%".format(s.brightness), "on" if s.leds else "off", "",
                "on" if s.hints else "off", "dealt" if s.deal else "typed", after(s.dim),
                after(s.off)] + clock_marks(s.clock) + ["", ""]

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
        elif index == 2:
            app.push(PlayersScreen(app))
        elif index in (5, 6):
            # the choices from the shortest to never; saved at once, and counted from the
            # last press (app.save_settings)
            dim = index == 5
            choices = sorted(DIM_S if dim else OFF_S, key=_order)

            def done(i):
                if dim:
                    s.dim = choices[i]
                else:
                    s.off = choices[i]
                app.save_settings()

            now = s.dim if dim else s.off
            app.push(ItemPicker(app, "Dim screen" if dim else "Screen off",
                                [after(c) for c in choices], choices.index(now), done))
        elif index in (7, 8):
            from ..turn_clock.menu import choose

            choose(app, index == 8)
        elif index in (1, 3, 4):
            # the switches: one press flips one, saved at once (Space Lunch's new-game list
            # shows and flips the same two of them)
            if index == 1:
                s.leds = not s.leds
            elif index == 3:
                s.hints = not s.hints
            else:
                s.deal = not s.deal
            app.save_settings()
            self.refresh_items()
        elif index == 9:
            app.push(AboutScreen(app))
        else:
            from .selftest import SelfTest

            app.push(SelfTest(app))


def after(seconds):
    """A time as the Settings rows say it: "30 s", "5 min", "never"."""
    if not seconds:
        return "never"
    if seconds < 60:
        return "{} s".format(seconds)
    return "{} min".format(seconds // 60)


def clock_marks(c):
    # the Clock and Clock bonus rows' values (the byte: turn_clock/setting.py), short enough
    # beside their names on the colour display
    from ..turn_clock.setting import setting

    mode, minutes, bonus = setting(c)
    return ["{} min".format(minutes) if mode == 2 else ("count up" if mode else "off"),
            "+{} s".format(bonus) if bonus else "none"]


def _order(seconds):
    return seconds or 1 << 20  # never after the longest


class PlayersScreen(ListScreen):
    title = "Player names"
    shed = True  # under the name editor

    def items(self):
        return ["{} {}".format(i + 1, n) for i, n in enumerate(self.app.settings.names)]

    def activate(self, index):
        self.app.push(NameEditor(self.app, index))


class AboutScreen(ListScreen):
    """What runs here: firmware version, hardware profile, records kept, save status."""

    title = "About"

    def items(self):
        app = self.app
        # the profile's name on as many rows as it takes (a row is 18 characters in colour)
        return (["Firmware " + __version__] +
                wrap(app.hw.profile.get("profile", "?"), app.d.cols - 1) +
                ["{} records kept".format(len(app.store.records())),
                 "Saves: " + ("check saves" if app.store.status else "ok")])

    def activate(self, index):
        if index == len(self.menu.items) - 1 and self.app.store.status:
            from ..app.loop import NOTICE_TITLE

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

