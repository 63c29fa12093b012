"""Let's Do Lunch: the saved form of a match (60 bytes, version 1), kept apart from the engine
so each module stays small enough to compile on a Pico. Layout in docs/lets-do-lunch.md."""

from shared_rules._compat import const
from shared_rules.lets_do_lunch.rules import ANNOUNCE, CANNIBALS, OVER, PLACE, START, Board

VERSION = const(1)
SIZE = const(60)
HISTORY = const(32)  # sums kept for the table's history display
_NO_WINNER = const(255)

# The Match attributes ``decode`` returns (a dict with these keys); ``Match._load`` sets them
# in this order.
FIELDS = ("board", "hands", "phase", "player", "column", "again", "strict", "first_sum",
          "announced", "skip", "scores", "target", "games", "last_result", "last_dice",
          "counts", "history")


def _u16(data, k):
    return (data[k] << 8) | data[k + 1]


def encode(self):
    """The whole match ``self`` in SIZE (60) bytes, first byte the format version."""
    out = bytearray(SIZE)
    out[0] = VERSION
    c = bytes(self.board.cells) + b"\x00\x00\x00"
    for k in range(13):
        i = 4 * k
        out[1 + k] = (c[i] << 6) | (c[i + 1] << 4) | (c[i + 2] << 2) | c[i + 3]
    out[14] = self.phase | (self.player << 3) | (self.again << 4) | (self.strict << 5)
    out[15] = self.column
    out[16] = self.first_sum
    out[17] = (self.announced[0] | (self.announced[1] << 1) | (self.skip[0] << 2)
               | (self.skip[1] << 3))
    for k in range(2):
        v = self.scores[k] + 32768
        out[18 + 2 * k] = v >> 8
        out[19 + 2 * k] = v & 255
    out[22] = self.target
    g = min(self.games, 65535)
    out[23] = g >> 8
    out[24] = g & 255
    if self.last_result is None:
        out[25] = _NO_WINNER
    else:
        out[25] = self.last_result[0]
        out[26] = self.last_result[1]
    if self.last_dice is not None:
        d = self.last_dice
        out[27] = (d[0] - 1) * 9 + (d[1] - 1) * 3 + d[2]
    for k in range(7):
        c = self.counts[k]
        if c > 65535:
            c = 65535
        out[28 + 2 * k] = c >> 8
        out[29 + 2 * k] = c & 255
    h = self.history
    n = len(h)
    out[42] = n
    for k in range(0, n - 1, 2):
        out[43 + k // 2] = ((h[k] - 2) << 4) | (h[k + 1] - 2)
    if n % 2:
        out[42 + (n + 1) // 2] = (h[n - 1] - 2) << 4
    # out[59] stays 0: it held the engine's undo limit; undo is the protocol's now (replays)
    return bytes(out)


def decode(data):
    """Validate a saved match and return its fields (a dict keyed by ``FIELDS``); ValueError on
    anything corrupt."""
    try:
        data = bytes(data)
    except TypeError:
        raise ValueError("saved match must be bytes") from None
    if len(data) != SIZE:
        raise ValueError("saved match must be {} bytes, got {}".format(SIZE, len(data)))
    if data[0] != VERSION:
        raise ValueError("unknown saved match version {}".format(data[0]))
    board = Board()
    cells = board.cells
    for k in range(13):
        b = data[1 + k]
        i = 4 * k
        cells[i] = b >> 6
        if k < 12:
            cells[i + 1] = (b >> 4) & 3
            cells[i + 2] = (b >> 2) & 3
            cells[i + 3] = b & 3
        elif b & 63:
            raise ValueError("bad padding in saved match")
    on = [0, 0, 0, 0]
    for v in cells:
        on[v] += 1
    if on[3]:
        raise ValueError("bad board cell in saved match")
    b = data[14]
    phase = b & 7
    player = (b >> 3) & 1
    again = bool(b & 16)
    strict = bool(b & 32)
    if b & 192 or phase > OVER:
        raise ValueError("bad phase byte {} in saved match".format(b))
    column, first_sum, flags = data[15], data[16], data[17]
    if flags > 15:
        raise ValueError("bad flags in saved match")
    scores = [_u16(data, 18) - 32768, _u16(data, 20) - 32768]
    target = data[22]
    games = _u16(data, 23)
    lw, lp, ld = data[25], data[26], data[27]
    counts = [_u16(data, 28 + 2 * k) for k in range(7)]
    n = data[42]
    if n > HISTORY:
        raise ValueError("bad history length {}".format(n))
    history = []
    for k in range(HISTORY // 2):
        b = data[43 + k]
        hi = b >> 4
        lo = b & 15
        if 2 * k + 1 < n:
            if hi < 1 or hi > 7 or lo < 1 or lo > 7:
                raise ValueError("bad sum in saved history")
            history.append(hi + 2)
            history.append(lo + 2)
        elif 2 * k < n:
            if hi < 1 or hi > 7 or lo:
                raise ValueError("bad sum in saved history")
            history.append(hi + 2)
        elif b:
            raise ValueError("bad padding in saved history")
    hands = [CANNIBALS - on[1], CANNIBALS - on[2]]
    if hands[0] < 0 or hands[1] < 0:
        raise ValueError("more than 12 cannibals of one tribe on the board")
    if target < 1 or scores[0] + scores[1] != 0:
        raise ValueError("bad scores in saved match")
    if phase == OVER:
        w = 0 if scores[0] >= target else 1
        if scores[w] < target or hands[w] != 0 or lw != w or games < 1:
            raise ValueError("inconsistent finished match")
    elif scores[0] >= target or scores[1] >= target or 0 in hands:
        raise ValueError("inconsistent match in progress")
    if phase == START and (on[1] or on[2] or (first_sum and not player)):
        raise ValueError("bad starting roll state")
    if first_sum and (phase != START or first_sum < 3 or first_sum > 9):
        raise ValueError("bad starting roll {}".format(first_sum))
    if phase == START and player and not first_sum:
        raise ValueError("bad starting roll state")
    if phase == PLACE:
        if column < 3 or column > 9 or board.column_full(column):
            raise ValueError("bad column {} to place in".format(column))
    elif column or again:
        raise ValueError("column set outside the placing phase")
    if phase == ANNOUNCE and (not strict or hands[1 - player] != 1):
        raise ValueError("bad announce state")
    if flags and not strict:
        raise ValueError("last-man flags without the strict option")
    if games == 0:
        if lw != _NO_WINNER or lp or scores[0]:
            raise ValueError("a last result before any game")
    elif lw > 1 or lp < 1 or lp > CANNIBALS:
        raise ValueError("bad last result")
    if ld > 27:
        raise ValueError("bad last dice")
    if data[59]:
        raise ValueError("bad last byte in saved match (written 0)")
    if sum(counts) < n:
        raise ValueError("roll counts below the history")
    # A board where the mover could already have eaten shows a corrupt save too, but the
    # rules allow any position reached by play, so only the cheap invariants are checked.
    if ld:
        ld -= 1
        last_dice = (ld // 9 + 1, ld // 3 % 3 + 1, ld % 3 + 1)
    else:
        last_dice = None
    return {
        "board": board,
        "hands": hands,
        "phase": phase,
        "player": player,
        "column": column,
        "again": again,
        "strict": strict,
        "first_sum": first_sum,
        "announced": [bool(flags & 1), bool(flags & 2)],
        "skip": [bool(flags & 4), bool(flags & 8)],
        "scores": scores,
        "target": target,
        "games": games,
        "last_result": None if lw == _NO_WINNER else (lw, lp),
        "last_dice": last_dice,
        "counts": counts,
        "history": history,
    }
