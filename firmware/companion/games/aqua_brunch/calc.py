"""Aqua Brunch: the strength calculator. Pick three predators and the aqua cards drawn; the
strength (shared_rules.aqua_brunch.rules.strength) updates live in the title bar and on the LEDs.

Rows: the three predator slots, "Aqua cards", "Clear". OK on a slot starts editing it:
prev/next cycle the card, OK goes on to the next slot (and stops after the third), Back stops.
"Aqua" opens a list of the four aqua cards to tick. A long Back undoes (GameScreen).
The hand is saved as the current game, so it survives a power cut.
"""

from companion.app.buttons import BACK, LONG, NEXT, OK, PREV, UNDO
from companion.screen.game import GameScreen
from companion.screen.screens import ListScreen
from companion.screen.ui import ListMenu, TitleBar

from .calc_state import AQUA_VALUES, CLEAR, CYCLE, SLOTS, TOGGLE, AquaCalc

FULL = 24  # a strength that lights the whole LED strip
LED_COLOR = (0, 120, 255)
ROW_AQUA = SLOTS


def open(app, payload=None):  # the game-module entry point name
    calc = AquaCalc.from_bytes(payload) if payload is not None else None
    app.push(AquaScreen(app, calc))


def strength_text(calc):
    s = calc.strength()
    return "?" if s is None else str(s)


class AquaScreen(GameScreen):
    title = "Strength"

    def __init__(self, app, calc=None):
        super().__init__(app, calc if calc is not None else AquaCalc())
        self.editing = False
        self.bar = TitleBar(self.d, self.title, self.status())
        self.menu = ListMenu(self.d, self.items())
        self.group.append(self.bar.group)
        self.group.append(self.menu.group)

    @property
    def calc(self):
        return self.game

    def items(self):
        rows = ["{} {}".format(k + 1, self.calc.slot_label(k)) for k in range(SLOTS)]
        return rows + ["Aqua", "Clear"]

    def marks(self):
        marks = ["<>" if self.editing and k == self.menu.selected else "" for k in range(SLOTS)]
        values = self.calc.aqua_values()
        marks.append(" ".join([str(v) for v in values]) if values else "none")
        marks.append("")
        return marks

    def status(self):
        return strength_text(self.calc)

    def show(self):
        self.menu.set_items(self.items(), self.marks())
        self.bar.set(self.title, self.status())
        self.leds()
        self.changed()

    def exit(self):
        self.app.leds.off()

    def leds(self):
        s = self.calc.strength()
        if s is None:
            self.app.leds.off()
        else:
            self.app.leds.bar(s, FULL, LED_COLOR)

    def change(self, action):
        """One calculator key. Clear on an empty hand changes nothing and is not kept, so undo
        never has to step over it."""
        if action == CLEAR and not self.calc.cards() and not self.calc.aqua_values():
            return
        self.act(action)

    def _stop_editing(self):
        self.editing = False
        self.menu.set_editing(False)
        self.show()

    def on_game_button(self, button, kind):
        sel = self.menu.selected
        if self.editing:
            if button == PREV or button == NEXT:
                self.change(CYCLE + 2 * sel + (1 if button == PREV else 0))
            elif button == OK and sel + 1 < SLOTS:
                self.menu.move(1)  # straight on to the next predator, still editing
                self.show()
            else:  # OK on the last slot, or Back
                self._stop_editing()
            return
        if button == PREV or button == NEXT:
            self.menu.move(-1 if button == PREV else 1, kind == 0)
            self.changed()
        elif button == OK and kind != LONG:
            if sel < SLOTS:
                self.editing = True
                self.menu.set_editing(True)
                self.show()
            elif sel == ROW_AQUA:
                self.app.push(AquaCardsScreen(self.app, self))
            else:
                self.change(CLEAR)
        elif button == BACK and kind != LONG:
            self.app.pop()


class AquaCardsScreen(ListScreen):
    """Tick the aqua cards drawn this round; the strength in the title follows."""

    title = "Strength"

    def __init__(self, app, calc_screen):
        self.parent = calc_screen
        super().__init__(app)

    def items(self):
        return ["Aqua {}".format(v) for v in AQUA_VALUES]

    def marks(self):
        return ["[x]" if on else "[ ]" for on in self.parent.calc.aqua]

    def status(self):
        return strength_text(self.parent.calc)

    def activate(self, index):
        self.parent.change(TOGGLE + index)
        self.refresh_items()

    def on_button(self, button, kind):
        if button == UNDO:
            self.parent.undo()
            self.refresh_items()
            return
        super().on_button(button, kind)
