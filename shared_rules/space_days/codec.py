"""Space Days: the compact saved form of a game (for nvm and the serial link).

Layout, version 1 (all single unsigned bytes):
  version, players, decks, option bits, planet_killer_score, start_hand, first,
  18 counts per deck, phase, turn, target, web_day, dealt, passes, 18 deck counts,
  per seat: hand size then its kinds (ascending), per seat and day: stack size then its kinds
  (bottom first).
Option bits: 1 Evil Cube clears the ends, 2 Scavenger needs the one-point Space Junk,
4 Planet Killer shields its day, 8 the tie-break counts occupied days only.
``decode_into`` checks every field and the card totals, and raises ValueError on anything that
a real game could not have produced; it assigns nothing until all of it is checked.
"""

from shared_rules._compat import const
from shared_rules.space_days.cards import ACTION, CARDS, KINDS, MAX_PLAYERS, MIN_PLAYERS
from shared_rules.space_days.legal import DEAL, DRAWING, STEALING, TURN, WEB_REPLY

VERSION = const(1)


def encode(g):
    out = bytearray()
    bits = (1 if g.cube_ends else 0) | (2 if g.junk_one_only else 0)
    bits |= (4 if g.pk_shields else 0) | (0 if g.tiebreak_covered else 8)
    out.extend((VERSION, g.n, g.decks, bits, g.pk_score, g.start_hand, g.first))
    out.extend(g.per_deck)
    out.extend((g.phase, g.turn, g.target, g.web_day, g.dealt, g.passes))
    out.extend(g.deck)
    for p in range(g.n):
        h = g.hands[p]
        out.append(sum(h))
        for k in range(KINDS):
            if h[k]:
                out.extend(bytes((k,)) * h[k])
    for p in range(g.n):
        for stack in g.boards[p]:
            out.append(len(stack))
            if stack:
                out.extend(stack)
    return bytes(out)


class _Reader:
    def __init__(self, data):
        if not isinstance(data, (bytes, bytearray)):
            raise ValueError("saved Space Days game must be bytes, got {}".format(type(data)))
        self.data = data
        self.pos = 0

    def byte(self, what, top):
        """The next byte, which must be 0..top."""
        if self.pos >= len(self.data):
            raise ValueError("saved Space Days game is truncated (reading {})".format(what))
        v = self.data[self.pos]
        self.pos += 1
        if v > top:
            raise ValueError("saved Space Days game: bad {} {}".format(what, v))
        return v

    def block(self, what, size, top):
        """The next ``size`` bytes as a list, each 0..top."""
        end = self.pos + size
        if end > len(self.data):
            raise ValueError("saved Space Days game is truncated (reading {})".format(what))
        out = list(self.data[self.pos : end])
        self.pos = end
        for v in out:
            if v > top:
                raise ValueError("saved Space Days game: bad {} {}".format(what, v))
        return out

    def run(self, what):
        """A length byte and that many card kinds, as a list (checked to be kinds)."""
        return self.block(what, self.byte(what + " size", 255), KINDS - 1)


def _bad(msg):
    raise ValueError("saved Space Days game: " + msg)


def decode_into(g, data):
    r = _Reader(data)
    if r.byte("version", 255) != VERSION:
        _bad("unknown format version {}".format(data[0]))
    n = r.byte("players", MAX_PLAYERS)
    if n < MIN_PLAYERS:
        _bad("bad players {}".format(n))
    decks = r.byte("decks", 6)
    if decks < 1:
        _bad("bad decks 0")
    bits = r.byte("option bits", 15)
    pk_score = r.byte("planet_killer_score", 20)
    start_hand = r.byte("start_hand", 20)
    first = r.byte("first player", n - 1)
    per = r.block("card count", KINDS, 20)
    total = [c * decks for c in per]
    if not sum(total):
        _bad("the deck has no cards")
    if start_hand * n > sum(total):
        _bad("start_hand {} needs more cards than the deck has".format(start_hand))
    phase = r.byte("phase", WEB_REPLY)
    turn = r.byte("turn", n - 1)
    target = r.byte("target", n - 1)
    web_day = r.byte("web day", 6)
    dealt = r.byte("dealt", 255)
    passes = r.byte("passes", n)
    deck = r.block("deck count", KINDS, 120)
    for k in range(KINDS):
        if deck[k] > total[k]:
            _bad("more {} in the deck than it holds".format(CARDS[k][0]))
    left = [total[k] - deck[k] for k in range(KINDS)]
    hands = []
    for _ in range(n):
        h = [0] * KINDS
        last = 0
        for k in r.run("hand"):
            if k < last:
                _bad("hand not in order")
            last = k
            h[k] += 1
            left[k] -= 1
        hands.append(h)
    boards = []
    for _ in range(n):
        row = []
        for d in range(7):
            stack = r.run("stack")
            for k in stack:
                if CARDS[k][3] & ACTION:
                    _bad("{} cannot sit on a board".format(CARDS[k][0]))
                if not CARDS[k][2] >> d & 1:
                    _bad("{} cannot be on day {}".format(CARDS[k][0], d))
                left[k] -= 1
            row.append(stack)
        boards.append(row)
    if r.pos != len(data):
        _bad("{} bytes left over".format(len(data) - r.pos))
    for k in range(KINDS):
        if left[k] < 0:
            _bad("more {} than the deck holds".format(CARDS[k][0]))
    full = False
    for row in boards:
        if all(row):
            full = True
    over = full or passes == n
    in_hands = sum(sum(h) for h in hands)
    if phase == DEAL:
        if dealt >= start_hand * n or in_hands != dealt or turn != first:
            _bad("inconsistent deal")
        if any(any(row) for row in boards) or passes:
            _bad("cards played during the deal")
    elif dealt != start_hand * n:
        _bad("the deal is not finished")
    if phase not in (STEALING, WEB_REPLY) and (target or web_day):
        _bad("target set outside a pirate or web play")
    if phase != TURN:
        if over or passes:
            _bad("pending {} in a finished or passing game".format(phase))
    if passes and sum(deck):
        _bad("a pass while the deck still has cards")
    if phase == DRAWING and not sum(deck):
        _bad("drawing from an empty deck")
    if phase == STEALING and (target == turn or not sum(hands[target])):
        _bad("nothing to steal")
    if phase == WEB_REPLY:
        ok = target != turn
        if ok:
            ok = False
            for d in range(7):
                if d != web_day and boards[target][d] and boards[turn][d]:
                    ok = True
        if not ok:
            _bad("no hyperspace web reply is possible")
    # All checked: now change the game.
    g.n = n
    g.decks = decks
    g.cube_ends = bool(bits & 1)
    g.junk_one_only = bool(bits & 2)
    g.pk_shields = bool(bits & 4)
    g.tiebreak_covered = not bits & 8
    g.pk_score = pk_score
    g.start_hand = start_hand
    g.first = first
    g.per_deck = per
    g.total = total
    g.phase = phase
    g.turn = turn
    g.target = target
    g.web_day = web_day
    g.dealt = dealt
    g.passes = passes
    g.deck = deck
    g.hands = hands
    g.boards = boards
