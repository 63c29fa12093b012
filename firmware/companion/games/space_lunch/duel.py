"""Space Lunch for two players: the device keeps the table (grid, deck, beverage stacks, both
players' cards, beverages and coupons), says whose turn it is, and judges the end with the full
tie-break. Same grid, cursor and food wheel as the solo game (space_lunch_table); the panel
shows each player's sets, beverages (Hot Drink, Jelly Bubbles, Chill Jar) and coupon.

At five beverages the turn starts with the forced return: prev/next choose the type, OK
returns it (three or more returned: that action may follow, free).
"""

import displayio

from companion.app.buttons import NEXT, OK, PREV
from companion.screen.text import count
from companion.screen.ui import text
from shared_rules.space_lunch.actions import RETURN, where

from . import view as V
from .table import SpaceLunchScreen

SHORT = ("Hot Drink", "Jelly", "Chill Jar")
# the end screen's second line (at most 19 characters: the colour display's dialog)
REASONS = {"triplets": "three triplets", "doubles": "more pairs",
           "coupon": "tie: coupon unused", "beverages": "tie: more drinks",
           "shared": "tied all the way"}


def drinks(counts):
    """A player's beverages by type, in 19 characters ("Chill" would make it 21)."""
    return "Hot {} Jelly {} Jar {}".format(*counts)


class DuelScreen(SpaceLunchScreen):
    def _panel(self, d, lay):
        g = displayio.Group()
        n = 3 if d.mono else 7  # the colour display: seven rows of twelve beside the grid
        for i in range(n):
            lab = text(d, "", lay.panel, lay.top + i * 12 + 6, d.FG, 1)
            self.stat.append(lab)
            g.append(lab)
        return g

    def names(self):
        return self.app.settings.names[:2]

    def _reset(self):
        super()._reset()
        e = self.e
        if not e.is_over() and not e.pending and e.must_return():
            self.stops = [RETURN + t for t in range(3) if e.drinks[e.turn][t]]
            self.sel = 0

    def _stats(self):
        """In words: ten characters a line on the OLED (the player to move, named in the top
        line: their sets and the deck; their drinks on the bottom line), twenty on the colour
        display (both players: sets, coupon, drinks; then the deck and the row stacks)."""
        e = self.e
        if self.d.mono:
            s = e.turn if e.turn < 2 else 0
            return (count(e.triplets(s), "triplet"), count(e.pairs(s), "pair"),
                    "Deck {}".format(e.deck))
        names = self.names()
        out = []
        for s in (0, 1):
            out.append("{} {}".format(names[s], count(e.triplets(s), "triplet")))
            out.append("{}, {}".format(count(e.pairs(s), "pair"),
                                       "no coupon" if e.coupon_used[s] else "1 coupon"))
            out.append(drinks(e.drinks[s]))
        out.append("Deck {} Stacks {} {} {}".format(e.deck, e.stack(0), e.stack(1), e.stack(2)))
        return out

    def draw(self):
        e = self.e
        d = self.d
        self.grid.tokens(e.pick, None)
        names = self.names()
        cursor = -1
        if e.is_over():
            title, line = self.end_lines()
        elif e.pending:
            cursor = e.pending[0]
            title, line = self.entry_lines()
        elif e.must_return():
            t = self.stops[self.sel % len(self.stops)] - RETURN
            title = "{}: 5 drinks".format(names[e.turn])
            line = "Return {} x{}".format(SHORT[t], e.drinks[e.turn][t])
            if not d.mono:
                line += ": OK"
        else:
            title, line, cursor = self._turn_lines()
        if d.mono and not e.is_over() and not e.pending and line == "OK: take":
            line = drinks(e.drinks[e.turn])
        self.draw_grid(cursor, -1)
        self.bar.set(title)
        self._line(line)
        def color_of(i):  # the seat to move in the accent colour (the OLED shows that seat)
            seat = e.turn if d.mono else i // 3
            return d.ACCENT if seat == e.turn and seat < 2 and not e.is_over() else d.FG

        self.wheel_or_panel(color_of)

    def _turn_lines(self):
        e = self.e
        name = self.names()[e.turn]
        if self.coupon is not None or self.options is not None:
            return self.coupon_lines()
        stop = self.stops[self.sel % len(self.stops)] if self.stops else -1
        if stop == V.COUPON:
            return "{}: beverage".format(name), "OK: choose the action", -1
        line = "OK: take" if self.d.mono else "OK: take  </>: move"
        at, food = where(stop), e.grid[stop]
        return (("{}: {} ({})".format(name, at, food), "{}: {}".format(name, at),
                 "{}: the {}".format(name, food)), line, stop)

    def turn_button(self, button):
        e = self.e
        if e.must_return():
            if button in (PREV, NEXT):
                self.move(button, len(self.stops))
            elif button == OK:
                self.act(self.stops[self.sel % len(self.stops)])
            return
        super().turn_button(button)

    def coupon_menu(self):
        e = self.e
        options = []
        for i in range(3):
            kind = V.KINDS[i]
            for paid in (False, True):
                if V.kind_cells(e, kind, -1, paid):
                    how = "coupon"
                    if paid:
                        how = "free" if e.grant == i else "drinks"  # i: the beverage type
                    options.append(("{}: {}".format(SHORT[i], how), kind, paid))
        self.choose_action(options)

    def result_lines(self):
        e = self.e
        names = self.names()
        if e.winner == 2:
            return ["Shared victory", REASONS["shared"]]
        why = REASONS.get(e.reason, e.reason)
        if e.reason == "doubles":
            why = "more pairs ({} to {})".format(e.pairs(e.winner), e.pairs(1 - e.winner))
        elif e.reason == "beverages":
            why = "tie: drinks {} to {}".format(sum(e.drinks[e.winner]),
                                               sum(e.drinks[1 - e.winner]))
        return ["{} wins".format(names[e.winner]), why]

