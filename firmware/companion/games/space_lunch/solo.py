"""Space Lunch solo: the human against the Automa. The side panel shows both sides' sets
against what each needs, the deck and the coupons; the bottom line the hint; the LEDs turn red
on a threat and green when a take wins. With hints off (Settings) there is no suggestion, no
advice and no threat warning, in words or on the LEDs."""

import displayio

from companion.screen.text import count
from companion.screen.ui import text
from shared_rules.space_lunch.actions import AUTOMA_SEAT, decode, where

from . import view as V
from .table import SpaceLunchScreen

THINKING = "Thinking..."
RED = (255, 0, 0)
GREEN = (0, 200, 0)


class SoloScreen(SpaceLunchScreen):
    rated = None  # the takes' ratings while the coupons' wait for the board to be drawn

    def _panel(self, d, lay):
        g = displayio.Group()
        if d.mono:
            rows = ((1, 0), (1, 1), (1, 2))
        else:
            rows = ((2, 0), (1, 24), (2, 36), (1, 60), (1, 74))
        for scale, dy in rows:
            h = 12 * scale
            y = lay.top + (dy + h // 2 if not d.mono else dy * 12 + 6)
            lab = text(d, "", lay.panel, y, d.FG, scale)
            self.stat.append(lab)
            g.append(lab)
        return g

    def _automa_turn(self):
        e = self.e
        return not e.is_over() and not e.pending and e.turn == AUTOMA_SEAT

    def _advice(self):
        """(key, suggested action, advice words, LED state) for the state, computed once: the
        hints play the game forward hundreds of times (tenths of a second on a Pico)."""
        if self.hint is None or self.hint[0] != self.key:
            self._think()
        return self.hint

    def _think(self):
        self.rated = None
        if not self.app.settings.hints:
            return  # no hints: no suggestion, no words, no LEDs (asked for only with hints on)
        e = self.e
        want, words, led = None, "", V.LED_OFF
        if not e.is_over() and not e.pending:
            if e.turn != AUTOMA_SEAT:
                rated = V.rate_takes(e)
                if V.rates_coupons(e, rated):
                    # rating the coupons takes half a second on the board: the press's board
                    # is drawn first ("Thinking..."), the advice and the cursor come in the
                    # same pass (tick), or before the next press is handled (_settle)
                    self.rated = rated
                    led = V.leds(e, rated)
                else:
                    want, words, led = V.evaluate(e, self.d.mono, rated)
            else:
                led = V.leds(e)
        self.hint = (self.key, want, words, led)

    def _settle(self):
        rated = self.rated
        if rated is None:
            return False
        self.rated = None
        want, words, led = V.evaluate(self.e, self.d.mono, rated)
        self.hint = (self.key, want, words, led)
        if self.coupon is None and self.options is None:
            self._aim()
        return True

    def tick(self, now):
        super().tick(now)
        if self._settle():
            self.draw()
            self.changed()

    def _suggested(self):
        if not self.app.settings.hints:
            return None
        return self._advice()[1]

    def _stats(self):
        t, p, ap, at, need, deck, coupons = V.stats(self.e)
        if self.d.mono:
            # ten characters a line: the sets each side needs, and the coupons (the OLED's
            # opening line names what the Automa needs; the deck and the other sets are cards
            # on the table)
            return ("You {}/3".format(t), "Automa {}/{}".format(ap, need),
                    "Coupons {}".format(coupons))
        return ("You {}/3".format(t), "triplets, " + count(p, "pair"),
                "Automa {}/{}".format(ap, need),
                "pairs, " + count(at, "triplet"),
                "Deck {} Coupons {}".format(deck, coupons))

    def draw(self):
        e = self.e
        d = self.d
        mono = d.mono
        self.grid.tokens(e.pick, e.solo)
        nxt = -1
        if not e.is_over():
            col = e.pick if e.turn == AUTOMA_SEAT else (e.pick + 1) % 3
            nxt = e.automa_cell(col)
        led = V.LED_OFF
        color = d.FG
        cursor = -1
        title = ""
        if e.is_over():
            title, line = self.end_lines()
        elif e.pending:
            cursor = e.pending[0]
            title, line = self.entry_lines()
            if V.opening(e) and e.deck == 36:
                line = V.setup_line(e.difficulty) if not mono else V.setup_short(e.difficulty)
        elif self._automa_turn():
            c = e.automa_cell()
            at, food = where(c), e.grid[c]
            # the longest phrasing that fits (screen.text.fit); the grid marks the card
            title = ("Automa: {} ({})".format(at, food), "Automa: " + at,
                     "Automa takes the {}".format(food))
            # (the colour display's line: 39 cells, the longest place is 13)
            if self.choices and self.dealing:
                line = "Move it; put {} there".format(self.choices[0]) if mono else \
                    "Automa: {}; put {} there".format(at, self.choices[0])
            elif self.choices:
                line = "Move it; new card?" if mono else "Automa takes {}: new card?".format(at)
            else:
                line = "OK: card moved" if mono else "Automa takes {} (food {})".format(at, food)
            if self.app.settings.hints:
                led = self._advice()[3]
        elif self.rated is not None:  # the coupons being rated (_think)
            title, line = "Your turn", THINKING
            led = self.hint[3]
        else:
            title, line, cursor = self._turn_lines()
            words = ""
            if self.app.settings.hints:
                _, _, words, led = self._advice()
            if words and self.coupon is None and self.options is None:
                line = words
        if led == V.LED_THREAT:
            color = d.BAD
        elif led == V.LED_WIN:
            color = d.GOOD
        self.draw_grid(cursor, nxt)
        self.bar.set(title)
        self._line(line)
        self._color(color)
        self.wheel_or_panel()
        self.set_leds(led)

    def set_leds(self, led):
        leds = self.app.leds
        if led == V.LED_OFF:
            leds.off()
        else:
            leds.show([RED if led == V.LED_THREAT else GREEN] * max(1, leds.n))

    def _turn_lines(self):
        e = self.e
        if self.coupon is not None or self.options is not None:
            return self.coupon_lines()
        stop = self.stops[self.sel % len(self.stops)] if self.stops else -1
        if stop == V.COUPON:
            n = e.coupons
            return "Use a coupon ({})".format(n), "OK: choose the action", -1
        if stop < 0:
            return "Your turn", "OK: take  </>: move", stop
        return (("Take {} ({})".format(where(stop), e.grid[stop]), "Take " + where(stop)),
                "OK: take  </>: move", stop)

    def exit(self):
        self.app.leds.off()

    def coupon_menu(self):
        e = self.e
        kinds = [k for k in V.KINDS if V.kind_actions(e, k)]
        options = [("Use {}?".format(V.KIND_NAMES[V.KINDS.index(k)]), k, False) for k in kinds]
        want = self._suggested()
        sel = hint = -1
        if want is not None and decode(want)[0] in kinds:
            sel = hint = kinds.index(decode(want)[0])
        self.choose_action(options, max(0, sel), hint)
