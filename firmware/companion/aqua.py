"""Aqua Brunch: the strength calculator. Pick three predators and the aqua cards drawn; the
strength (shared_rules.aqua_brunch.strength) updates live in the title bar and on the LEDs.

Rows: the three predator slots, "Aqua cards", "Clear". OK on a slot starts editing it:
prev/next cycle the card, OK goes on to the next slot (and stops after the third), Back stops.
"Aqua" opens a list of the four aqua cards to tick. A long Back undoes.
The hand is saved as the current game, so it survives a power cut.
"""

from .core.aqua_calc import AQUA_VALUES, SLOTS, AquaCalc
from .core.buttons import NEXT, OK, PREV, UNDO
from .screens import ListScreen

GAME_ID = "aqua_brunch"
FULL = 24  # a strength that lights the whole LED strip
UNDO_DEPTH = 16
LED_COLOR = (0, 120, 255)
ROW_AQUA = SLOTS
ROW_CLEAR = SLOTS + 1


def open(app, payload=None):  # noqa: A001 - the game-module entry point name
    calc = AquaCalc.from_bytes(payload) if payload is not None else None
    app.push(AquaScreen(app, calc))


def strength_text(calc):
    s = calc.strength()
    return "?" if s is None else str(s)


class AquaScreen(ListScreen):
    title = "Strength"

    def __init__(self, app, calc=None):
        self.calc = calc if calc is not None else AquaCalc()
        self.editing = False
        self.history = []
        super().__init__(app)

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

    def enter(self):
        super().enter()
        self.leds()

    def exit(self):
        self.app.leds.off()

    def leds(self):
        s = self.calc.strength()
        if s is None:
            self.app.leds.off()
        else:
            self.app.leds.bar(s, FULL, LED_COLOR)

    def change(self, action):
        """Apply ``action`` to the hand; on a real change keep an undo step and save."""
        before = self.calc.to_bytes()
        action()
        if self.calc.to_bytes() != before:
            self.history.append(before)
            if len(self.history) > UNDO_DEPTH:
                self.history.pop(0)
            self.saved()

    def saved(self):
        self.app.store.save_game(GAME_ID, self.calc.to_bytes())
        self.refresh_items()
        self.leds()

    def undo(self):
        if self.history:
            self.calc = AquaCalc.from_bytes(self.history.pop())
            self.saved()
            self.app.notify("Undone")
        else:
            self.app.notify("Nothing to undo")

    def on_button(self, button, kind):
        sel = self.menu.selected
        if button == UNDO:
            self.undo()
            return
        if self.editing:
            if button == PREV or button == NEXT:
                step = -1 if button == PREV else 1
                self.change(lambda: self.calc.cycle(sel, step))
            elif button == OK and sel + 1 < SLOTS:
                self.menu.move(1)  # straight on to the next predator, still editing
                self.refresh_items()
            else:  # OK on the last slot, or Back
                self.editing = False
                self.menu.set_editing(False)
                self.refresh_items()
            return
        if button == OK:
            if sel < SLOTS:
                self.editing = True
                self.menu.set_editing(True)
                self.refresh_items()
            elif sel == ROW_AQUA:
                self.app.push(AquaCardsScreen(self.app, self))
            else:
                self.change(self.calc.clear)
            return
        super().on_button(button, kind)


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
        self.parent.change(lambda: self.parent.calc.toggle_aqua(index))
        self.refresh_items()

    def on_button(self, button, kind):
        if button == UNDO:
            self.parent.undo()
            self.refresh_items()
            return
        super().on_button(button, kind)
