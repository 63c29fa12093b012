"""Settings > Check the box: a first box's self-test, a page at a time.

1. Buttons: each press named (its role and its pin), and the ones still to press; once all
   have been pressed, OK goes on (a held OK goes on at any time).
2. Screen: arrows to the four edges and colour bars: a picture upside down or mirrored, or
   colours swapped, is seen at once, with the profile setting that turns it over.
3. LEDs: each lit in turn, red, then green, then blue (on even if Settings switched them off).
4. Box: firmware version, free heap, time running, the battery's voltage and charge.

On pages 2-4 OK and next go on, prev goes back, Back leaves. Imported when the row is opened
and let go when the screen leaves (on the device), as Settings is. The
Box page's figures are settings/boxcheck.py's, which the data link's CHECK answers too (``lunchbox
doctor``)."""

import displayio

from .. import __version__
from ..app.buttons import BACK, LONG, NAMES, NEXT, OK, PRESS, PREV, UNDO
from ..screen.screens import Screen
from ..screen.text import wrap
from ..screen.ui import TitleBar, rect, text
from .boxcheck import readings, runtime

PAGES = ("Buttons", "Screen", "LEDs", "Box")
LED_MS = 400  # each LED lit this long
COLORS = ((255, 0, 0), (0, 255, 0), (0, 0, 255))
COLOR_NAMES = ("red", "green", "blue")


def clock_text(s):
    return "{}:{:02d}:{:02d}".format(s // 3600, s // 60 % 60, s % 60)


class SelfTest(Screen):
    title = "Check the box"

    def __init__(self, app):
        super().__init__(app)
        d = self.d
        hw = app.hw
        self.roles = [r for r, _p in hw.profile.get("buttons", ())]
        self.pins = {}
        for r, p in hw.profile.get("buttons", ()):
            self.pins[r] = p
        self.pressed = []
        self.said = "Press each button"
        self.page = 0
        self.step = -1  # the LED lit now (LEDs page)
        self.at = 0  # when it was lit
        self.second = -1  # the Box page's last update
        self.bar = TitleBar(d, "")
        self.rows = []
        for r in range(d.rows):
            lab = text(d, "", d.pad, d.title_h + r * d.row_h + d.row_h // 2)
            self.rows.append(lab)
        self.body = displayio.Group()
        self.body.append(self.bar.group)
        for lab in self.rows:
            self.body.append(lab)
        self.group.append(self.body)
        self.pattern = None  # the Screen page's group, made when shown
        self._show()

    def exit(self):
        app = self.app
        s = app.settings
        app.leds.configure(s.brightness, s.leds)
        app.leds.off()
        from ..app.unload import forget

        forget(__name__)

    # pages

    def _lines(self, title, lines):
        d = self.d
        self.bar.set(title, "{}/{}".format(self.page + 1, len(PAGES)))
        out = []
        for line in lines:
            out += wrap(line, d.cols - 1) if line else [""]
        for r in range(len(self.rows)):
            s = out[r] if r < len(out) else ""
            if self.rows[r].text != s:
                self.rows[r].text = s

    def _show(self):
        page = self.page
        self.body.hidden = page == 1
        if page == 1 and self.pattern is None:
            self.pattern = self._pattern()
            self.group.append(self.pattern)
        elif page != 1 and self.pattern is not None:
            self.group.remove(self.pattern)
            self.pattern = None
        if page == 0:
            left = [r for r in self.roles if r not in self.pressed]
            self._lines("Buttons", [
                self.said,
                ("To press: " + " ".join(left)) if left else "All {} work.".format(
                    len(self.roles)),
                "OK: next page" if not left else ""])
        elif page == 2:
            self._leds(self.app.hw.clock(), True)
        elif page == 3:
            self._box()
        self.changed()

    def _go(self, page):
        if page >= len(PAGES):
            self.app.pop()
            return
        was = self.page
        self.page = max(0, page)
        if was == 2 or self.page == 2:
            leds = self.app.leds
            leds.configure(self.app.settings.brightness, self.page == 2 or self.app.settings.leds)
            leds.off()
            self.step = -1
        self.app.whole = True  # a new page: drawn whole, once
        self._show()

    def _pattern(self):
        """Arrows at the four edges, colour bars, and what to set if they are wrong."""
        d = self.d
        hw = self.app.hw
        g = displayio.Group()
        g.append(text(d, "^ top ^", d.width // 2, 0, d.FG, None, (0.5, 0)))
        g.append(text(d, "v bottom v", d.width // 2, d.height, d.FG, None, (0.5, 1)))
        mid = d.height // 2
        g.append(text(d, "<", 0, mid, d.ACCENT, None, (0, 0.5)))
        g.append(text(d, ">", d.width, mid, d.ACCENT, None, (1, 0.5)))
        turn = (hw.profile.get("rotation", 0) + 180) % 360
        y = d.char_h + 2
        step = 12  # the words in the small font, between the side arrows
        if not d.mono:
            # three bars, named under them: a panel with red and blue swapped shows it
            w = (d.width - 2 * d.char_w - 4) // 3
            x0 = (d.width - 3 * w) // 2
            for i in range(3):
                c = COLORS[i]
                g.append(rect(x0 + i * w + 2, y, w - 4, 24, (c[0] << 16) | (c[1] << 8) | c[2]))
                g.append(text(d, COLOR_NAMES[i], x0 + i * w + w // 2, y + 30, d.FG, 1,
                              (0.5, 0.5)))
            y += 38
            lines = ["Upside down? set rotation = {}".format(turn),
                     "Mirrored? Colours off? Other panel"]
        else:
            y = d.char_h + 1
            step = 13  # the middle line beside the arrows, the others clear of them
            lines = ["Upside down? set", "rotation = {}".format(turn), "Mirrored? Other panel"]
        for i in range(len(lines)):
            g.append(text(d, lines[i], d.width // 2, y + i * step + step // 2, d.FG,
                          1, (0.5, 0.5)))
        return g

    def _leds(self, now, first=False):
        leds = self.app.leds
        n = leds.n
        if not n:
            self._lines("LEDs", ["This box has no LEDs", "(none in its profile)"])
            return
        if not first and now - self.at < LED_MS:
            return
        self.at = now
        self.step = (self.step + 1) % (3 * n)
        i, c = self.step % n, self.step // n
        frame = [(0, 0, 0)] * n
        frame[i] = COLORS[c]
        leds.wake(now)
        leds.show(frame)
        self._lines("LEDs", ["LED {} of {}: {}".format(i + 1, n, COLOR_NAMES[c]),
                             "each lit in turn", "OK: next page"])
        self.changed()

    def _box(self):
        hw = self.app.hw
        r = dict(readings(__version__, hw.profile.get("profile", "?"),
                          getattr(hw, "supply", None)))
        self.second = r["runtime_s"]
        heap = r["heap_free"]
        if r["battery"] == "none":
            power = "No battery reading"
        elif r["battery"] == "usb":
            power = "On USB power"
        elif r["battery_mv"] is not None:
            power = "Battery {}.{:02d} V {}%".format(r["battery_mv"] // 1000,
                                                     r["battery_mv"] % 1000 // 10,
                                                     r["battery_pct"])
        else:
            power = "Battery {}%".format(r["battery_pct"])
        self._lines("Box", ["Firmware " + r["firmware"],
                            "Free heap {} KB".format(heap // 1024) if heap is not None else
                            "Free heap unknown",
                            "Running " + clock_text(r["runtime_s"]), power])
        self.changed()

    # the app's side

    def tick(self, now):
        if self.page == 2:
            self._leds(now)
        elif self.page == 3 and runtime() != self.second:
            self._box()

    def on_button(self, button, kind):
        if self.page != 0:
            if button == BACK and kind == PRESS:
                self.app.pop()
            elif button in (OK, NEXT) and kind == PRESS:
                self._go(self.page + 1)
            elif button == PREV and kind == PRESS:
                self._go(self.page - 1)
            return
        left = [r for r in self.roles if r not in self.pressed]
        if button == OK and (kind == LONG or (kind == PRESS and not left)):
            self._go(1)
            return
        if button == BACK and kind == PRESS and not left:
            self.app.pop()
            return
        name = NAMES[button]
        if button == UNDO and "undo" not in self.roles:
            name = "back"  # a held Back is the undo of a box with four buttons
            said = "Pressed: back (held)"
        else:
            said = "Pressed: {}{}".format(name, " (held)" if kind == LONG else "")
        pin = self.pins.get(name)
        self.said = said + (" " + pin if pin else "")
        if name not in self.pressed:
            self.pressed.append(name)
        self._show()
