"""Space Days: the game engine (boards of 7 day stacks, hands, the deck, scores, the winner).

Portable (CPython, CircuitPython, MicroPython). Screens, saves, records and undo go through the
protocol class (space_days_game, via ``games.new("space_days", players)``), which packs each of
this engine's actions into one int and keeps the log; the engine holds the current state only.
Its actions are tuples ``(op, kind, board, day, i, j)`` of ints; ``apply`` also takes shorter
tuples (missing fields are 0) and names for the op, the card and the day, e.g.
``("play", "space junk", 1, "tue")``:

- ``(DRAW,)``: draw a card; the card drawn is the following chance action.
- ``(CARD, kind)``: chance: the card drawn, dealt, or stolen by a Space Pirate. The deck is kept
  as counts (its order is unknown), so a draw from a shuffled deck and a card typed in from the
  real table are the same input. ``chance_outcomes()`` lists them with their weights.
- ``(PLAY, kind, board, day)``: a card that stays on a board (own board or, for "any board"
  cards, anyone's), and Wormhole (``board`` = own board).
- ``(PLAY, TIME_WARP or HYPERSPACE_WEB, other, day, i, j)``: swap item ``i`` (0 = bottom) of your
  ``day`` stack with item ``j`` of player ``other``'s.
- ``(PLAY, TELEPORT, other, day, i)``: move item ``i`` of ``other``'s ``day`` to your empty day.
- ``(PLAY, SPACE_PIRATE, other)``: steal from ``other``; the card stolen is a chance action.
- ``(REPLY, 0, 0, day, i, j)``: the Hyperspace Web victim swaps their item ``i`` with item ``j``
  of the web player's stack on another ``day``.
- ``(PASS,)``: only when you can neither draw nor play; a round of passes ends the game.

Rule decisions and options: docs/rules-decisions.md, "Space Days".
"""

from shared_rules.protocol import (  # CHANCE: current_player() while a card is drawn or stolen
    CHANCE,
    leaders,
    tie_break_winners,
)
from shared_rules.space_days import cards
from shared_rules.space_days.cards import (
    ACTION,
    CARDS,
    CLEARS_SIDES,
    HYPERSPACE_WEB,
    KINDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PLANET_KILLER,
    SPACE_PIRATE,
    TELEPORT,
    TIME_WARP,
    WORMHOLE,
)
from shared_rules.space_days.legal import (
    CARD,
    DEAL,
    DRAW,
    DRAWING,
    OPS,
    PASS,
    PLAY,
    REPLY,
    STEALING,
    TURN,
    WEB_REPLY,
    has_pk,
    plays,
    reason,
    replies,
)


def _int_in(value, lo, hi, what):
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError("{} must be {}..{}, got {!r}".format(what, lo, hi, value))
    return value


class SpaceDays:
    """One game of Space Days for 2..7 players (seats 0..n-1, play passes to seat + 1; the
    limit is space_days_cards.MAX_PLAYERS).

    Options where the rulebook is silent (see docs/rules-decisions.md):
    ``planet_killer_score`` (0), ``evil_cube_clears`` ("adjacent" or "ends"),
    ``scavenger_junk`` ("any" Space Junk or only the "one_point" one),
    ``planet_killer_shields`` (False: Wormhole and Evil Cube remove Planet Killers too),
    ``tiebreak_covered`` (True: covered cards count in "most cards on their board"),
    ``start_hand`` (0 cards dealt at the start), ``decks`` (one per two players) and
    ``counts`` (cards of each kind in one deck).
    """

    def __init__(self, players=2, first=0, decks=None, counts=None, start_hand=0,
                 planet_killer_score=0, evil_cube_clears="adjacent", scavenger_junk="any",
                 planet_killer_shields=False, tiebreak_covered=True):
        self.n = _int_in(players, MIN_PLAYERS, MAX_PLAYERS, "players")
        self.first = self._seat(first)
        if decks is None:
            decks = (players + 1) // 2
        self.decks = decks
        self.per_deck, self.total = cards.deck_counts(counts, decks)
        self.start_hand = _int_in(start_hand, 0, 20, "start_hand")
        if start_hand * players > sum(self.total):
            raise ValueError("start_hand {} needs more cards than the deck has".format(start_hand))
        self.pk_score = _int_in(planet_killer_score, 0, 20, "planet_killer_score")
        if evil_cube_clears not in ("adjacent", "ends"):
            raise ValueError("evil_cube_clears must be 'adjacent' or 'ends', got {!r}".format(
                evil_cube_clears))
        self.cube_ends = evil_cube_clears == "ends"
        if scavenger_junk not in ("any", "one_point"):
            raise ValueError("scavenger_junk must be 'any' or 'one_point', got {!r}".format(
                scavenger_junk))
        self.junk_one_only = scavenger_junk == "one_point"
        self.pk_shields = bool(planet_killer_shields)
        self.tiebreak_covered = bool(tiebreak_covered)
        self.deck = list(self.total)
        self.hands = [[0] * KINDS for _ in range(players)]
        self.boards = [[[] for _ in range(7)] for _ in range(players)]
        self.phase = DEAL if start_hand else TURN
        self.turn = self.first
        self.target = 0  # the Pirate's or Web's victim while STEALING / WEB_REPLY
        self.web_day = 0  # the day the Web swapped on (the reply must choose another)
        self.dealt = 0
        self.passes = 0

    # -- input normalising -------------------------------------------------------------------

    def _seat(self, seat):
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n:
            raise ValueError("no seat {!r} ({} players: seats 0..{})".format(
                seat, self.n, self.n - 1))
        return seat

    def normalize(self, action):
        """The canonical 6-int tuple for an action given with names or fewer fields."""
        if type(action) is tuple and len(action) == 6:
            # Fast path for canonical tuples (what legal_actions returns); `type(...) is int`
            # also keeps bools out.
            op, kind, b, day, i, j = action
            if (type(op) is int and type(kind) is int and type(b) is int and type(day) is int
                    and type(i) is int and type(j) is int and 0 <= op < len(OPS)
                    and 0 <= kind < KINDS and 0 <= b < self.n and 0 <= day < 7
                    and 0 <= i < 256 and 0 <= j < 256):
                return action
        if not isinstance(action, (tuple, list)) or not 1 <= len(action) <= 6:
            raise ValueError("an action is a tuple of 1..6 fields, got {!r}".format(action))
        op = action[0]
        if isinstance(op, str):
            key = op.strip().lower()
            if key not in OPS:
                raise ValueError("unknown action {!r}".format(op))
            op = OPS.index(key)
        elif isinstance(op, bool) or not isinstance(op, int) or not 0 <= op < len(OPS):
            raise ValueError("unknown action {!r}".format(op))
        a = [op, 0, 0, 0, 0, 0]
        n = len(action)
        if n > 1 and (op in (CARD, PLAY) or action[1] != 0):
            a[1] = cards.card_id(action[1])
        if n > 2:
            a[2] = self._seat(action[2])
        if n > 3:
            a[3] = cards.day_index(action[3])
        for f in range(4, n):
            v = action[f]
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < 256:
                raise ValueError("bad stack position {!r}".format(v))
            a[f] = v
        return tuple(a)

    # -- queries ------------------------------------------------------------------------------

    def current_player(self):
        if self.phase in (DEAL, DRAWING, STEALING):
            return CHANCE
        if self.phase == WEB_REPLY:
            return self.target
        return self.turn

    def is_chance_node(self):
        return self.phase in (DEAL, DRAWING, STEALING) and not self.is_over()

    def is_full(self, seat):
        for stack in self.boards[self._seat(seat)]:
            if not stack:
                return False
        return True

    def is_over(self):
        if self.passes >= self.n:
            return True
        for row in self.boards:
            if all(row):
                return True
        return False

    def hand(self, seat):
        """The kinds in a player's hand, sorted."""
        h = self.hands[self._seat(seat)]
        out = []
        for k in range(KINDS):
            out.extend([k] * h[k])
        return out

    def board(self, seat):
        """A copy of a player's board: 7 lists of kinds, bottom card first."""
        return [list(s) for s in self.boards[self._seat(seat)]]

    def discard_counts(self):
        """Cards out of play (used actions, removed items): what the rest does not hold."""
        out = list(self.total)
        for k in range(KINDS):
            out[k] -= self.deck[k]
        for p in range(self.n):
            for k in range(KINDS):
                out[k] -= self.hands[p][k]
            for stack in self.boards[p]:
                for k in stack:
                    out[k] -= 1
        return out

    def score_of(self, kind):
        return self.pk_score if kind == PLANET_KILLER else CARDS[kind][1]

    def scores(self):
        """The score of each seat: the top card of each day counts."""
        out = []
        for p in range(self.n):
            s = 0
            for stack in self.boards[p]:
                if stack:
                    s += self.score_of(stack[-1])
            out.append(s)
        return out

    def board_cards(self, seat):
        """The first tie-break: cards on the board (covered ones too, unless the option says
        only occupied days count)."""
        n = 0
        for stack in self.boards[self._seat(seat)]:
            if stack:
                n += len(stack) if self.tiebreak_covered else 1
        return n

    def winners(self):
        """The seats leading after the score and the most-cards tie-break; more than one means
        the game is drawn (the rulebook: play again or agree a draw)."""
        on_board = [self.board_cards(p) for p in range(self.n)]
        return tie_break_winners(leaders(self.scores()), on_board)

    def winner(self):
        """The winning seat once the game is over; None before the end or on a draw."""
        if not self.is_over():
            return None
        w = self.winners()
        return w[0] if len(w) == 1 else None

    def is_draw(self):
        return self.is_over() and len(self.winners()) > 1

    def chance_outcomes(self):
        """``[(action, weight)]`` at a chance node: the cards that may come, weighted by count."""
        if not self.is_chance_node():
            return []
        src = self.hands[self.target] if self.phase == STEALING else self.deck
        return [((CARD, k, 0, 0, 0, 0), src[k]) for k in range(KINDS) if src[k]]

    def sample_chance(self, rng):
        """A chance action drawn with ``rng`` (shared_rules.rng.Rng) by the weights."""
        outs = self.chance_outcomes()
        if not outs:
            raise ValueError("not a chance node")
        return rng.weighted(outs)

    # -- legality -----------------------------------------------------------------------------

    def check(self, action):
        """None when the action is legal now, else the reason it is not (a sentence)."""
        try:
            a = self.normalize(action)
        except ValueError as e:
            return str(e)
        return reason(self, a)

    def legal_actions(self):
        """Every legal action now, as canonical tuples, in a fixed order."""
        if self.is_over():
            return []
        if self.is_chance_node():
            return [a for a, _ in self.chance_outcomes()]
        if self.phase == WEB_REPLY:
            return replies(self)
        out = [(DRAW, 0, 0, 0, 0, 0)] if sum(self.deck) else []
        out.extend(plays(self, self.turn))
        return out or [(PASS, 0, 0, 0, 0, 0)]

    # -- changing the state -------------------------------------------------------------------

    def apply(self, action):
        """Play an action. ValueError (with the reason) and no change if it is illegal."""
        a = self.normalize(action)
        why = reason(self, a)
        if why is not None:
            raise ValueError(why)
        self._do(a)

    def arrange(self, boards=None, hands=None, turn=None):
        """Set up a position: a game already under way at the table, or a test. ``boards``: per
        seat, 7 lists of cards (bottom first; names or kinds); ``hands``: per seat, a list of
        cards. The cards come out of the deck; the rest stays in it."""
        n = self.n
        deck = list(self.total)
        new_boards = [[[] for _ in range(7)] for _ in range(n)]
        new_hands = [[0] * KINDS for _ in range(n)]
        if boards is not None:
            if len(boards) != n:
                raise ValueError("boards needs {} seats, got {}".format(n, len(boards)))
            for p in range(n):
                if len(boards[p]) != 7:
                    raise ValueError("a board has 7 days, got {}".format(len(boards[p])))
                for d in range(7):
                    for c in boards[p][d]:
                        k = cards.card_id(c)
                        if CARDS[k][3] & ACTION or not CARDS[k][2] >> d & 1:
                            raise ValueError("{} cannot be on {}".format(
                                CARDS[k][0], cards.DAYS[d]))
                        new_boards[p][d].append(k)
                        deck[k] -= 1
        if hands is not None:
            if len(hands) != n:
                raise ValueError("hands needs {} seats, got {}".format(n, len(hands)))
            for p in range(n):
                for c in hands[p]:
                    k = cards.card_id(c)
                    new_hands[p][k] += 1
                    deck[k] -= 1
        for k in range(KINDS):
            if deck[k] < 0:
                raise ValueError("more {} than the deck holds".format(CARDS[k][0]))
        turn = self.turn if turn is None else self._seat(turn)
        self.deck, self.boards, self.hands, self.turn = deck, new_boards, new_hands, turn
        self.phase, self.target, self.web_day, self.passes = TURN, 0, 0, 0
        self.dealt = self.start_hand * n

    def _next(self):
        self.phase = TURN
        self.target = 0
        self.web_day = 0
        self.turn = (self.turn + 1) % self.n

    def _clear(self, b, day):
        stack = self.boards[b][day]
        if self.pk_shields and has_pk(stack):
            return
        del stack[:]

    def _do(self, a):
        op, kind, b, day, i, j = a
        ph = self.phase
        if op == CARD:
            if ph == STEALING:
                self.hands[self.target][kind] -= 1
                self.hands[self.turn][kind] += 1
                self._next()
            elif ph == DRAWING:
                self.deck[kind] -= 1
                self.hands[self.turn][kind] += 1
                self._next()
            else:
                self.deck[kind] -= 1
                self.hands[(self.first + self.dealt) % self.n][kind] += 1
                self.dealt += 1
                if self.dealt == self.start_hand * self.n:
                    self.phase = TURN
            return
        if op == PASS:
            self.passes += 1
            self._next()
            return
        self.passes = 0
        if op == DRAW:
            self.phase = DRAWING
            return
        p = self.turn
        if op == REPLY:
            self._swap(self.target, p, day, i, j)
            self._next()
            return
        self.hands[p][kind] -= 1
        if kind == SPACE_PIRATE:
            self.phase = STEALING
            self.target = b
            return
        if kind == WORMHOLE:
            for q in range(self.n):
                self._clear(q, day)
        elif kind == TIME_WARP or kind == HYPERSPACE_WEB:
            self._swap(p, b, day, i, j)
            if kind == HYPERSPACE_WEB:
                self.target = b
                self.web_day = day
                if replies(self):
                    self.phase = WEB_REPLY
                    return
        elif kind == TELEPORT:
            self.boards[p][day].append(self.boards[b][day].pop(i))
        else:
            if CARDS[kind][3] & CLEARS_SIDES:
                for d in self._sides(day):
                    self._clear(b, d)
            self.boards[b][day].append(kind)
        self._next()

    def _sides(self, day):
        if self.cube_ends:
            return [d for d in (0, 6) if d != day]
        return [d for d in (day - 1, day + 1) if 0 <= d < 7]

    def _swap(self, p, b, day, i, j):
        mine = self.boards[p][day]
        theirs = self.boards[b][day]
        mine[i], theirs[j] = theirs[j], mine[i]

    # -- the state as bytes (shared_rules/space_days/codec.py, loaded only when asked: the
    # device saves a game as its protocol record, so it never compiles the codec) -----------

    def to_bytes(self):
        from shared_rules.space_days.codec import encode

        return encode(self)

    def _load(self, data):
        from shared_rules.space_days.codec import decode_into

        decode_into(self, data)

    @classmethod
    def from_bytes(cls, data):
        """A game from ``to_bytes`` output; ValueError on anything corrupt or inconsistent."""
        game = cls()
        game._load(data)
        return game

    def describe(self, action):
        """A short sentence for an action (for the screen and the game record)."""
        op, kind, b, day, i, j = self.normalize(action)
        if op in (DRAW, PASS):
            return OPS[op]
        name = CARDS[kind][0].replace("_", " ")
        dname = cards.DAYS[day]
        if op == CARD:
            return "card: " + name
        if op == REPLY:
            return "web reply on {}: item {} with item {}".format(dname, i, j)
        if kind == SPACE_PIRATE:
            return "space pirate on player {}".format(b)
        if kind == TIME_WARP or kind == HYPERSPACE_WEB:
            return "{} with player {} on {}: item {} with item {}".format(name, b, dname, i, j)
        if kind == TELEPORT:
            return "teleport item {} of player {}'s {}".format(i, b, dname)
        return "{} on player {}'s {}".format(name, b, dname)

