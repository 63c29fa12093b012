"""Space Days at the table: end-of-game scoring (``players`` 2-7, the engine's limit:
space_days_cards.MAX_PLAYERS) and "Can I play this here?".

The players keep their boards; the device adds them up. For each player, Monday to Sunday, the
table enters the top card of the day. Every entry is one int:

    0        the day is empty
    1-18     the top card is that kind + 1 (space_days_cards numbering; a card that can sit on
             a board and on that day only)
    20-99    at the end, for each seat tied on the top score in seat order: the cards on that
             board, covered ones included (20 + count), the rulebook's first tie-break

A day's score is its top card's (space_days_cards.card_score): a Gaseous Cloud on top scores 0
and so hides the card under it, a Planet Killer 0. Tied players with as many cards share the
win (the rulebook: play again or agree a draw). ``can_play`` answers "Can I play this here?"
with the engine's own reasons (space_days_legal) over the tops entered.
Decisions: docs/scoring.md.
"""

from shared_rules._compat import const
from shared_rules.protocol import TABLE, TERMINAL, TableScore
from shared_rules.space_days.cards import (
    ACTION,
    CARDS,
    DAYS,
    GASEOUS_CLOUD,
    KINDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    card_score,
)

COUNT = const(20)
MAX_COUNT = const(79)
LABELS = ("Wormhole", "Time Warp", "Hyperspace Web", "Planet Killer", "Space Pirate",
          "Teleport", "Scavenger", "Space Junk 1", "Evil Cube", "Gaseous Cloud",
          "Flying Saucer", "Solar Probe", "Space Elevator", "Space Station", "Hospital Ship",
          "Rocket Ship", "Space Junk 3", "Re-usable Ship")
DAY_LABELS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def fits(kind, day):
    """A card that stays on a board and may be played on ``day``."""
    c = CARDS[kind]
    return not c[3] & ACTION and c[2] >> day & 1


class DaysScore(TableScore):
    game_id = "days_score"
    index = 7
    defaults = (2,)
    seats = (MIN_PLAYERS, MAX_PLAYERS, "Space Days scoring")

    def _start(self):
        n = self.params[0]
        self.n = n
        self.tops = [[] for _ in range(n)]  # per seat, the entered days: kind or -1 (empty)
        self.ties = [-1] * n  # the cards on each board, the tie-break

    def entering(self):
        """``(seat, day)`` being entered, or None when every board is in."""
        for s in range(self.n):
            if len(self.tops[s]) < 7:
                return s, len(self.tops[s])
        return None

    def score(self, seat):
        total = 0
        for k in self.tops[seat]:
            if k >= 0:
                total += card_score(k)
        return total

    def min_cards(self, seat):
        """The fewest cards the board can hold: one a day, two under a Gaseous Cloud."""
        m = 0
        for k in self.tops[seat]:
            if k >= 0:
                m += 2 if k == GASEOUS_CLOUD else 1
        return m

    def scored(self):
        return self.entering() is None

    def current_player(self):
        e = self.entering()
        if e is not None:
            return e[0]
        return TABLE if self.asking() is not None else TERMINAL

    def legal_actions(self):
        e = self.entering()
        if e is not None:
            return [0] + [k + 1 for k in range(KINDS) if fits(k, e[1])]
        s = self.asking()
        if s is None:
            return []
        return list(range(COUNT + max(1, self.min_cards(s)), COUNT + MAX_COUNT + 1))

    def _do(self, a):
        if type(a) is not int or a < 0 or a > COUNT + MAX_COUNT:
            raise ValueError("that is not a Space Days entry")
        e = self.entering()
        if e is not None:
            if a > KINDS:
                raise ValueError("enter {}'s top card first".format(DAYS[e[1]]))
            if a and not fits(a - 1, e[1]):
                raise ValueError("{} cannot be on {}".format(LABELS[a - 1], DAYS[e[1]]))
            self.tops[e[0]].append(a - 1)
            return
        s = self.asking()
        if s is None or a < COUNT:
            raise ValueError("the scores are in")
        if a - COUNT < self.min_cards(s):
            raise ValueError("that board holds at least {} cards".format(self.min_cards(s)))
        self.ties[s] = a - COUNT

    def scores(self):
        return [self.score(s) for s in range(self.n)]

    def describe(self, a):
        if a == 0:
            return "empty day"
        if a < COUNT:
            return LABELS[a - 1]
        return "{} cards on board".format(a - COUNT)

    # ---- "Can I play this here?" --------------------------------------------------------

    def can_play(self, player, kind, board, day, names=None):
        """None when ``player`` may play ``kind`` on ``board``'s ``day`` given the tops entered
        (days not entered yet count as empty), else the reason in words."""
        return can_play(self.tops, self.n, player, kind, board, day, names)


class _Boards:
    """The part of a SpaceDays game the legality check reads, with the engine's defaults."""

    pk_shields = False
    junk_one_only = False
    boards = ()


def can_play(tops, n, player, kind, board, day, names=None):
    """The engine's answer (space_days_legal.play_reason) over boards made of the tops only: a
    covered card is not known, so a Planet Killer under a Gaseous Cloud is not seen."""
    from shared_rules.space_days.cards import SPACE_PIRATE
    from shared_rules.space_days.legal import play_reason

    g = _Boards()  # what play_reason reads of a game; not the engine (a Pico's heap)
    boards = []
    for s in range(n):
        row = []
        for d in range(7):
            k = tops[s][d] if d < len(tops[s]) else -1
            row.append([] if k < 0 else [k])
        boards.append(row)
    g.boards = boards
    if kind == SPACE_PIRATE:
        if board == player:
            return "steal from another player, not yourself"
        return None  # only a player with no cards in hand is safe: the device cannot know
    why = play_reason(g, player, kind, board, day, 0, 0)
    if why is not None and names is not None:
        for s in range(n):  # the engine says "player 1's monday": use the players' names
            why = why.replace("player {}'s".format(s), names[s] + "'s")
            why = why.replace("player {} ".format(s), names[s] + " ")
    return why
