"""Space Lunch: setting up a coupon (or, two players, a beverage) action on the game screen:
choosing the action in place, then its card(s) with the same cursor, and stepping back out.
A mixin of the game screen (space_lunch_table.SpaceLunchScreen)."""

from shared_rules.space_lunch.actions import decode, where

from . import view as V


class Coupons:
    def back_out(self):
        if self.options is not None:
            self.options = None
            self.sel = self.stops.index(V.COUPON) if V.COUPON in self.stops else 0
            self.draw()
            self.changed()
            return
        kind, first, paid = self.coupon
        if kind == "jelly" and first >= 0:
            self.coupon = (kind, -1, paid)
            cells = V.kind_cells(self.e, kind, -1, paid)
            self.sel = cells.index(first) if first in cells else 0
        else:
            self.coupon = None
            self.sel = self.stops.index(V.COUPON) if V.COUPON in self.stops else 0
        self.draw()
        self.changed()

    def coupon_cell(self, c):
        kind, first, paid = self.coupon
        if kind == "jelly" and first < 0:
            self.coupon = (kind, c, paid)
            cells = V.kind_cells(self.e, kind, c, paid)
            self.sel = self._preset(cells, second=True)
            self.draw()
            self.changed()
            return
        if kind == "jelly":
            self.act(V.action(kind, first, c, paid))
        else:
            self.act(V.action(kind, c, -1, paid))

    def start_coupon(self, kind, paid=False):
        self.coupon = (kind, -1, paid)
        self.sel = self._preset(V.kind_cells(self.e, kind, -1, paid))
        self.draw()
        self.changed()

    def _preset(self, cells, second=False):
        """Where the cell cursor starts: on the suggested action's card when there is one."""
        want = self._suggested()
        if want is None or not cells:
            return 0
        kind, a, b, _ = decode(want)
        if kind != self.coupon[0]:
            return 0
        first = self.coupon[1]
        c = a
        if second:
            c = b if a == first else a
        return cells.index(c) if c in cells else 0

    def coupon_menu(self):
        pass

    def choose_action(self, options, sel=0, hinted=-1):
        """The beverage actions possible now, chosen in place (a list screen on top would
        cost its widgets' heap at the game's deepest moment): prev/next, OK, Back."""
        self.options = options
        self.hinted = hinted
        self.sel = sel
        self.draw()
        self.changed()

    def coupon_lines(self):
        """Top and bottom lines and the cursor cell while a coupon action is set up."""
        if self.options is not None:
            i = self.sel % len(self.options)
            line = "OK: this  </>: other"
            if i == self.hinted:
                line = ("hint! " if self.d.mono else "suggested. ") + ("OK" if self.d.mono
                                                                      else line)
            return self.options[i][0], line, -1
        kind, first, paid = self.coupon
        cells = V.kind_cells(self.e, kind, first, paid)
        c = cells[self.sel % len(cells)] if cells else -1
        # titles: the longest phrasing that fits (screen.text.fit); the cursor marks the card
        g = self.e.grid
        if kind == "jelly":
            if first >= 0:
                return (("Jelly: {} and {}".format(where(first), where(c)),
                         "Jelly: {} and {}".format(g[first], g[c])), "swap with: OK", c)
            return (("Jelly: {} and ?".format(where(c)), "Jelly: {} and ?".format(g[c])),
                    "1st card to swap: OK", c)
        name = V.KIND_NAMES[V.KINDS.index(kind)]
        line = "OK: use  Back: cancel" if self.d.mono else "OK: use it  Back: cancel"
        return ("{}: {}".format(name, where(c)), "{}: the {}".format(name, g[c])), line, c

