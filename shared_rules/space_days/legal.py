"""Space Days: whether an action is legal now (and why not), and the legal plays.

Functions over a ``SpaceDays`` game ``g`` (shared_rules/space_days/rules.py); split out to keep each
module small for the Pico.
"""

from shared_rules._compat import const
from shared_rules.space_days import cards
from shared_rules.space_days.cards import (
    ANY_BOARD,
    CARDS,
    HYPERSPACE_WEB,
    KINDS,
    NEIGHBOURS_EMPTY,
    NEIGHBOURS_FULL,
    NEXT_TO_JUNK,
    ON_TOP,
    PLANET_KILLER,
    SPACE_JUNK,
    SPACE_JUNK_3,
    SPACE_PIRATE,
    TELEPORT,
    TIME_WARP,
    WORMHOLE,
)

# The game's phases (SpaceDays.phase; saved by space_days_codec).
TURN = const(0)
DEAL = const(1)
DRAWING = const(2)
STEALING = const(3)
WEB_REPLY = const(4)

DRAW = const(0)
PASS = const(1)
CARD = const(2)
PLAY = const(3)
REPLY = const(4)
OPS = ("draw", "pass", "card", "play", "reply")


def has_pk(stack):
    return PLANET_KILLER in stack


def _where(p, b, day):
    if b == p:
        return "your " + cards.DAYS[day]
    return "player {}'s {}".format(b, cards.DAYS[day])


def reason(g, a):
    op, kind, b, day, i, j = a
    if g.is_over():
        return "the game is over"
    ph = g.phase
    if ph in (DEAL, DRAWING, STEALING):
        if op != CARD:
            return "waiting for the card {}".format(
                "stolen" if ph == STEALING else "drawn" if ph == DRAWING else "dealt")
        if b or day or i or j:
            return "a card action names only the card"
        if ph == STEALING:
            if not g.hands[g.target][kind]:
                return "player {} has no {} in hand".format(g.target, CARDS[kind][0])
        elif not g.deck[kind]:
            return "no {} is left in the deck".format(CARDS[kind][0])
        return None
    if op == CARD:
        return "no card is being drawn or stolen"
    if ph == WEB_REPLY:
        if op != REPLY:
            return "player {} must answer the hyperspace web first".format(g.target)
        if kind or b:
            return "a reply names only the day and the two items"
        return swap_reason(g, g.target, g.turn, day, i, j, g.web_day)
    if op == REPLY:
        return "there is no hyperspace web to answer"
    if op == DRAW or op == PASS:
        if kind or b or day or i or j:
            return "{} takes no arguments".format(OPS[op])
        if op == DRAW:
            return None if sum(g.deck) else "the deck is empty"
        if sum(g.deck) or plays(g, g.turn, True):
            return "you may pass only when you can neither draw nor play"
        return None
    p = g.turn
    if not g.hands[p][kind]:
        return "player {} has no {} in hand".format(p, CARDS[kind][0])
    return play_reason(g, p, kind, b, day, i, j)


def swap_reason(g, p, b, day, i, j, not_day=-1):
    if b == p:
        return "swap with another player's board, not your own"
    if day == not_day:
        return "the reply must choose a day other than {}".format(cards.DAYS[day])
    mine = g.boards[p][day]
    theirs = g.boards[b][day]
    if not mine:
        return "{} is empty".format(_where(p, p, day))
    if not theirs:
        return "{} is empty".format(_where(p, b, day))
    if i >= len(mine):
        return "{} has no item {} (it holds {})".format(_where(p, p, day), i, len(mine))
    if j >= len(theirs):
        return "{} has no item {} (it holds {})".format(_where(p, b, day), j, len(theirs))
    return None


def play_reason(g, p, kind, b, day, i, j):
    name, _, days, flags = CARDS[kind]
    if kind == SPACE_PIRATE:
        if day or i or j:
            return "space_pirate names only the player to steal from"
        if b == p:
            return "steal from another player, not yourself"
        if not sum(g.hands[b]):
            return "player {} has no cards in hand".format(b)
        return None
    if kind == TIME_WARP or kind == HYPERSPACE_WEB:
        return swap_reason(g, p, b, day, i, j)
    if j or (i and kind != TELEPORT):
        return "{} takes no stack positions".format(name)
    if kind == WORMHOLE:
        if b != p:
            return "wormhole is played on your own board"
        if g.pk_shields and has_pk(g.boards[p][day]):
            return "a planet killer blocks {}".format(_where(p, p, day))
        return None
    if kind == TELEPORT:
        if g.boards[p][day]:
            return "teleport needs {} empty".format(_where(p, p, day))
        stack = g.boards[b][day]
        if not stack:
            return "{} is empty".format(_where(p, b, day))
        if i >= len(stack):
            return "{} has no item {} (it holds {})".format(_where(p, b, day), i, len(stack))
        return None
    if not flags & ANY_BOARD and b != p:
        return "{} is played on your own board only".format(name)
    if not days >> day & 1:
        return "{} cannot be played on {} (only {})".format(name, cards.DAYS[day], ", ".join(
            cards.DAYS[d][:3] for d in range(7) if days >> d & 1))
    row = g.boards[b]
    stack = row[day]
    if has_pk(stack):
        return "a planet killer blocks {}".format(_where(p, b, day))
    if flags & ON_TOP:
        if not stack:
            return "{} goes on top of a card and {} is empty".format(name, _where(p, b, day))
    elif stack:
        return "{} is not empty".format(_where(p, b, day))
    before = row[day - 1] if day > 0 else None
    after = row[day + 1] if day < 6 else None
    if flags & NEIGHBOURS_EMPTY and (before or after):
        return "{} needs the days beside {} empty".format(name, _where(p, b, day))
    if flags & NEIGHBOURS_FULL and not (before and after):
        return "{} needs both days beside {} occupied".format(name, _where(p, b, day))
    if flags & NEXT_TO_JUNK and not (_junk(g, before) or _junk(g, after)):
        return "{} must go next to space junk".format(name)
    return None


def _junk(g, stack):
    if not stack:
        return False
    top = stack[-1]
    return top == SPACE_JUNK or (top == SPACE_JUNK_3 and not g.junk_one_only)


def plays(g, p, first_only=False):
    """The legal plays of seat ``p`` on its turn (only whether there is one if asked)."""
    out = []
    hand = g.hands[p]
    others = [b for b in range(g.n) if b != p]
    for k in range(KINDS):
        if not hand[k]:
            continue
        flags = CARDS[k][3]
        cands = []
        if k == SPACE_PIRATE:
            cands = [(b, 0, 0, 0) for b in others]
        elif k == TIME_WARP or k == HYPERSPACE_WEB:
            for b in others:
                for d in range(7):
                    for i in range(len(g.boards[p][d])):
                        for j in range(len(g.boards[b][d])):
                            cands.append((b, d, i, j))
        elif k == WORMHOLE:
            cands = [(p, d, 0, 0) for d in range(7)]
        elif k == TELEPORT:
            for b in others:
                for d in range(7):
                    for i in range(len(g.boards[b][d])):
                        cands.append((b, d, i, 0))
        else:
            # Skip days the card can never take before asking for a reason (speed only).
            mask = CARDS[k][2]
            top = flags & ON_TOP
            boards = range(g.n) if flags & ANY_BOARD else (p,)
            for b in boards:
                row = g.boards[b]
                for d in range(7):
                    if mask >> d & 1 and (not row[d]) != bool(top):
                        cands.append((b, d, 0, 0))
        for b, d, i, j in cands:
            if play_reason(g, p, k, b, d, i, j) is None:
                out.append((PLAY, k, b, d, i, j))
                if first_only:
                    return out
    return out


def replies(g):
    out = []
    v, w = g.target, g.turn
    for d in range(7):
        if d == g.web_day:
            continue
        for i in range(len(g.boards[v][d])):
            for j in range(len(g.boards[w][d])):
                out.append((REPLY, 0, 0, d, i, j))
    return out
