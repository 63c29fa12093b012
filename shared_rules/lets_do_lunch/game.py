"""Let's Do Lunch on the game protocol (``target`` points, ``strict`` 0/1). The engine is the
``Match`` (``self.engine``); its action codes are kept: rolls 111-333 (the sorted dice, a chance
action), placements ``10 * column + row``, ANNOUNCED (1) / FORGOT (2) from the table in a
strict game. Each game of a match is its own record: when a game ends the table sees the
result (``ended``: winner, points, the final board) and NEXT_GAME (0) starts the next game as a
new record whose base is the match as it then stands. A finished game is not undone.

A record speaks of its own game: ``winners()`` is that game's winner (none until it ends),
``scores()`` its points (the winner the cannibals left in the loser's hand, the loser the same
negative; 0 each until it ends), ``board()`` its final position once over. The match as it
stands after the game is beside them: ``match_scores()``, ``game_number()``.
"""

from shared_rules._compat import const
from shared_rules.lets_do_lunch.rules import (
    ANNOUNCE,
    ANNOUNCED,
    FORGOT,
    OVER,
    PLACE,
    ROLL,
    ROLLS,
    START,
)
from shared_rules.protocol import CHANCE, TABLE, TERMINAL, Game

NEXT_GAME = const(0)


class LetsDoLunchGame(Game):
    game_id = "lets_do_lunch"
    index = 1
    # format 2 writes a roll as its place in ROLLS, a placement as its row - 1 (the roll gave
    # the column), an answer as 0/1: all under 10, two a byte
    coded = True
    packed = True
    # target points, strict table, the computer (0: none, else its level 1-3 + 4 * its seat),
    # dice typed in (1) or rolled by the device (0): the last two are the table's setup, kept
    # in the record so a resumed match knows who plays; the rules never read them
    defaults = (20, 0, 0, 0)

    def _check(self, params):
        if params[0] < 1:
            raise ValueError("the target must be at least 1 point")
        if params[1] > 1:
            raise ValueError("strict is 0 (off) or 1 (on)")
        c = params[2]
        if c and not (1 <= c % 4 <= 3 and c // 4 <= 1):
            raise ValueError("the computer is 0 (none) or a level 1-3 plus 4 times its seat")
        if params[3] > 1:
            raise ValueError("typed dice is 0 (device rolls) or 1 (typed in)")

    def _start(self):
        self.engine = self._match(self.base)
        self.ended = None  # (winner, points, final Board) once this record's game is over

    def _match(self, base):
        """The match a record starts from: new, or its base (start.py's match start; the
        60-byte state of save.py in records written before format 2)."""
        from shared_rules.lets_do_lunch.match import Match

        if not base:
            return Match(self.params[0], bool(self.params[1]))
        if base[0] != 1 and base[0] & 127 != 2:
            raise ValueError("not a match start (version {})".format(base[0]))
        return Match.from_bytes(base)

    def _load_base(self, base):
        if not base:
            raise ValueError("an empty match start")
        m = self._match(base)
        if m.target != self.params[0] or m.strict != bool(self.params[1]):
            raise ValueError("the match state does not match the record's settings")
        if m.phase != START:
            raise ValueError("a record starts at a game's first roll")

    def apply(self, action):
        if (type(action) is int and action == NEXT_GAME and self.current_player() == TABLE
                and self.ended is not None):
            from shared_rules.lets_do_lunch import start

            self.set_base(start.encode(self.engine))  # a new record: the last game is final
            return None
        return Game.apply(self, action)

    def _symbol(self, action):
        e = self.engine
        if self.ended is None:
            if e.phase == START or e.phase == ROLL:
                if action in ROLLS:
                    return ROLLS.index(action)
            elif e.phase == PLACE:
                row = action - 10 * e.column
                if 1 <= row <= 7:
                    return row - 1
            elif e.phase == ANNOUNCE and (action == ANNOUNCED or action == FORGOT):
                return action - ANNOUNCED
        return None

    def _action(self, symbol):
        e = self.engine
        if self.ended is not None:
            raise ValueError("this game is over: start the next one")
        if (e.phase == START or e.phase == ROLL) and symbol < 10:
            return ROLLS[symbol]
        if e.phase == PLACE and symbol < 7:
            return 10 * e.column + symbol + 1
        if e.phase == ANNOUNCE and symbol < 2:
            return ANNOUNCED + symbol
        raise ValueError("{} stands for no action here".format(symbol))

    def _do(self, action):
        if self.ended is not None:
            raise ValueError("this game is over: start the next one")
        e = self.engine
        if (e.phase == START or e.phase == ROLL) and action not in ROLLS:
            raise ValueError("a roll is three dice 1-3, smallest first (1-2-3 is 123)")
        ends = e.phase == PLACE and e.hands[e.player] == 1
        if ends:
            final = e.board.copy()
            final_col, p = e.column, e.player
        eaten = e.apply(action)
        if ends:
            final.place(p, final_col, action % 10)
            self.ended = (p, e.last_result[1], final)
        return eaten

    def current_player(self):
        e = self.engine
        if e.phase == OVER:
            return TERMINAL
        if self.ended is not None:
            return TABLE
        if e.phase == START or e.phase == ROLL:
            return CHANCE
        if e.phase == ANNOUNCE:
            return TABLE
        return e.player

    def legal_actions(self):
        if self.current_player() == TABLE and self.ended is not None:
            return [NEXT_GAME]
        return self.engine.legal_actions()

    def chance_outcomes(self):
        if self.current_player() != CHANCE:
            return []
        return self.engine.chance_outcomes()

    def winners(self):
        """This record's game's winner (the last game's is the match's too)."""
        return [] if self.ended is None else [self.ended[0]]

    def scores(self):
        """This game's points per seat: +points for its winner, -points for the loser."""
        if self.ended is None:
            return [0, 0]
        w, points = self.ended[0], self.ended[1]
        return [points, -points] if w == 0 else [-points, points]

    def match_scores(self):
        """The match score as it stands (after this game, once it is over)."""
        return list(self.engine.scores)

    def game_number(self):
        """Which game of the match this record is (1 for the first)."""
        return self.engine.games + (0 if self.ended is not None else 1)

    def board(self):
        """The board as the table sees it: the final position once this game is over (the
        engine has then cleared its own board for the next game)."""
        return self.engine.board if self.ended is None else self.ended[2]

    def describe(self, action):
        if action == NEXT_GAME and self.ended is not None:
            return "next game"
        if self.engine.phase == ANNOUNCE:
            return "last man announced" if action == ANNOUNCED else "last man forgotten" \
                if action == FORGOT else "?"
        if action >= 111:
            return "roll {}-{}-{}".format(action // 100, action // 10 % 10, action % 10)
        return "P{} c{} r{}".format(self.engine.player + 1, action // 10, action % 10)
