"""Space Lunch, the two-player game: beverage stacks by row, coupons, the forced return at five
beverages, both victories and the full tie-break chain.

Seats 0 and 1; ``first`` is the seat that starts (whoever ate out most recently). Row 1's stack
is Hot Drink, row 2's Jelly Bubbles, row 3's Chill Jar; five cards each.
"""

from shared_rules.space_lunch.rules import (
    CHILL,
    CHILL_PAID,
    HOT,
    HOT_PAID,
    JELLY,
    JELLY_PAID,
    MODE_DUEL,
    RETURN,
    SHARED,
    TAKE,
    Table,
    _pair,
)

_ACTION_DRINK = {"hot": 0, "jelly": 1, "chill": 2}


class Duel(Table):
    mode = MODE_DUEL

    def __init__(self, first=0):
        if first not in (0, 1):
            raise ValueError("the first player must be seat 0 or 1, got {!r}".format(first))
        self.first = first
        Table.__init__(self)

    fields = ("first", "grant")

    def copy(self):
        g = Table.copy(self)
        g.drinks = [self.drinks[0][:], self.drinks[1][:]]
        g.coupon_used = self.coupon_used[:]
        return g

    def _reset(self):
        Table._reset(self)
        self.turn = self.first
        self.drinks = [[0, 0, 0], [0, 0, 0]]  # beverage cards in front of each seat, by type
        self.coupon_used = [False, False]
        self.grant = -1  # a type returned 3+ times by the forced return: its action is paid

    def stack(self, drink):
        """Beverage cards left in that row's stack."""
        return 5 - self.drinks[0][drink] - self.drinks[1][drink]

    def must_return(self):
        """True while the player to move holds five beverages and must return a type."""
        return not self.pending and sum(self.drinks[self.turn]) >= 5

    def _can_pay(self, drink):
        return self.grant == drink or self.drinks[self.turn][drink] >= 3

    def _turn_actions(self):
        s = self.turn
        if self.must_return():
            return [RETURN + d for d in range(3) if self.drinks[s][d]]
        acts = [TAKE + c for c in range(self.pick, 9, 3) if self.grid[c]]
        if self.acted:
            return acts
        full = [c for c in range(9) if self.grid[c]]
        off = [c for c in full if c % 3 != self.pick]
        pairs = []
        for i in range(len(off)):
            for j in range(i + 1, len(off)):
                pairs.append(_pair(off[i], off[j]))
        bases = []
        if not self.coupon_used[s]:
            bases.append((HOT, CHILL, JELLY))
        bases_paid = (self._can_pay(0), self._can_pay(2), self._can_pay(1))
        for hot, chill, jelly in bases:
            if self.deck:
                acts += [hot + c for c in full]
            acts += [chill + c for c in off]
            acts += [jelly + p for p in pairs]
        if bases_paid[0] and self.deck:
            acts += [HOT_PAID + c for c in full]
        if bases_paid[1]:
            acts += [CHILL_PAID + c for c in off]
        if bases_paid[2]:
            acts += [JELLY_PAID + p for p in pairs]
        acts.sort()
        return acts

    def _act(self, kind, a, b, paid):
        s = self.turn
        if kind == "automa":
            raise ValueError("there is no Automa in the two-player game")
        if kind == "return":
            if not self.must_return():
                raise ValueError("you return beverages only when you hold five")
            n = self.drinks[s][a]
            if not n:
                raise ValueError("you hold no {} to return".format(("Hot Drink", "Jelly Bubbles",
                                                                    "Chill Jar")[a]))
            self.drinks[s][a] = 0
            if n >= 3:
                self.grant = a
            return
        if self.must_return():
            raise ValueError("you hold five beverages: first return all of one type")
        if kind == "take":
            self._check_take(a)
            self._end_turn(a)
            return
        if self.acted:
            raise ValueError("only one beverage action per turn")
        drink = _ACTION_DRINK[kind]
        if paid:
            if not self._can_pay(drink):
                raise ValueError("you need three {} cards for that".format(
                    ("Hot Drink", "Jelly Bubbles", "Chill Jar")[drink]))
        elif self.coupon_used[s]:
            raise ValueError("your coupon is already used")
        if kind == "hot":
            self._check_hot(a)
        elif kind == "jelly":
            self._check_off_pick(a, "Jelly Bubbles")
            self._check_off_pick(b, "Jelly Bubbles")
        else:
            self._check_off_pick(a, "Chill Jar")
        # Checks done: pay, then act.
        if not paid:
            self.coupon_used[s] = True
        elif self.grant == drink:
            self.grant = -1
        else:
            self.drinks[s][drink] -= 3
        self.acted = True
        if kind == "hot":
            self._hot(a)
        elif kind == "jelly":
            self._jelly(a, b)
        else:
            self._end_turn(a)

    def _end_turn(self, c):
        s = self.turn
        drink = c // 3
        if self.stack(drink):
            self.drinks[s][drink] += 1
        if self._grab(s, c):
            return
        if self.grid_cards() <= 6:
            self._doubles()
            return
        self.turn = 1 - s
        self.acted = False
        self.grant = -1

    def _doubles(self):
        """Victory with doubles at six cards, and its tie-break chain."""
        p = (self.pairs(0), self.pairs(1))
        if p[0] != p[1]:
            self._win(0 if p[0] > p[1] else 1, "doubles")
        elif self.coupon_used[0] != self.coupon_used[1]:
            self._win(1 if self.coupon_used[0] else 0, "coupon")
        else:
            d = (sum(self.drinks[0]), sum(self.drinks[1]))
            if d[0] != d[1]:
                self._win(0 if d[0] > d[1] else 1, "beverages")
            else:
                self._win(SHARED, "shared")
