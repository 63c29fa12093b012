# The turn clock's state (portable): each seat's time in integer milliseconds from the app's
# clock (hw.clock(): wrapping ticks, compared through ``ticks_diff``), never floats. Loaded
# only when a clock is on, or the saved game has one (docs/records.md, "The turn clock").
# Comments rather than docstrings: the heap bench counts docstrings, and this module is in
# memory for the whole game.
#
# Two modes: COUNT_UP (each seat's time so far) and CHESS (each seat starts with the limit and
# gets the bonus for every turn it completes; what is shown is what is left). Per seat:
# ``bank`` where it stood at the last record (CHESS: ms left; COUNT_UP: ms used), ``used`` ms
# used since then, ``turns`` completed since then. ``record`` gives (seconds, turns) a seat
# and starts them again from the bank, so each game of a Let's Do Lunch match has its own
# times while a chess clock's time runs on across the match.
#
# The state's bytes, every number in 7-bit groups, low first (high bit: more follows):
# version (1), mode (bit 7: paused), seats n, running seat (255: none), limit s, bonus s,
# then per seat: bank (zigzag: a seat past its chess time is negative), used, turns.
#
# A saved game with a clock is SAVED, the state's length, the state, the game's record
# (saves.py: ``wrap`` / ``unwrap``, ``Saves`` the store as the screens see it). A finished
# game's envelope with the times (store/records.py's format 1 as format 2, ``timed``) has,
# after the names, the number of seats timed and each one's seconds and turns as numbers
# (envelope.py reads it).

from shared_rules._compat import const

from .saves import SAVED, Saves, put_num, unwrap, wrap  # noqa: F401  (here too)

# as setting.py says (not imported for them: a game's VM needs nothing else of it)
COUNT_UP = const(1)
CHESS = const(2)
NONE = const(255)  # no seat's clock runs
MAX_SEATS = const(7)
WARN_MS = const(60000)  # CHESS: the last minute, when the LEDs warn
_VERSION = const(1)
_PAUSED = const(0x80)


class TurnClock:
    __slots__ = ("mode", "limit", "bonus", "seat", "paused", "since", "bank", "used", "turns")

    def __init__(self, mode, limit_s, bonus_s, n):
        # mode COUNT_UP or CHESS, 1..MAX_SEATS seats: as Settings' byte and the games give
        # them (saved bytes are checked where they are read: statebytes.py)
        self.mode = mode
        self.limit = limit_s
        self.bonus = bonus_s if mode == CHESS else 0
        self.seat = NONE
        self.paused = False
        self.since = 0
        self.bank = [self._start()] * n
        self.used = [0] * n
        self.turns = [0] * n

    def _start(self):
        return self.limit * 1000 if self.mode == CHESS else 0

    def seats(self, n):
        # make it n seats (a scoreboard's player count, chosen after it started)
        if not 1 <= n <= MAX_SEATS:
            return
        while len(self.used) < n:
            self.bank.append(self._start())
            self.used.append(0)
            self.turns.append(0)
        del self.bank[n:], self.used[n:], self.turns[n:]
        if self.seat != NONE and self.seat >= n:
            self.seat = NONE

    def running(self):
        return self.seat != NONE and not self.paused

    def settle(self, now, diff):
        # count the running seat's time up to now
        if self.running():
            self.used[self.seat] += diff(now, self.since)
        self.since = now

    def turn(self, seat, now, diff):
        # the turn is seat's from now; the seat whose clock ran has completed a turn
        if seat == self.seat or not 0 <= seat < len(self.used):
            return False
        self.settle(now, diff)
        if self.seat != NONE:
            self.turns[self.seat] += 1
        self.seat = seat
        return True

    def next_seat(self):
        return 0 if self.seat == NONE else (self.seat + 1) % len(self.used)

    def pause(self, now, diff):
        self.settle(now, diff)
        self.paused = True

    def resume(self, now):
        self.since = now
        self.paused = False

    def stop(self, now, diff):
        # the game is over: the running seat's last turn is complete; nothing runs
        self.settle(now, diff)
        if self.seat != NONE:
            self.turns[self.seat] += 1
        self.seat = NONE

    def shown(self, seat, now, diff):
        # the ms a seat's clock shows: CHESS what is left (below 0 past the time), COUNT_UP
        # the time used
        used = self.used[seat]
        if seat == self.seat and not self.paused:
            used += diff(now, self.since)
        if self.mode == CHESS:
            return self.bank[seat] + self.bonus * 1000 * self.turns[seat] - used
        return self.bank[seat] + used

    def record(self, now, diff):
        # [(seconds, turns)] a seat since the last record; the next counts from here
        from .statebytes import record  # only at a game's end

        return record(self, now, diff)

    def to_bytes(self, now, diff):
        self.settle(now, diff)
        out = bytearray((_VERSION, self.mode | (_PAUSED if self.paused else 0),
                         len(self.used), self.seat))
        put_num(out, self.limit)
        put_num(out, self.bonus)
        for s in range(len(self.used)):
            b = self.bank[s]
            put_num(out, b << 1 if b >= 0 else ((-b) << 1) - 1)
            put_num(out, self.used[s])
            put_num(out, self.turns[s])
        return bytes(out)

    @classmethod
    def from_bytes(cls, data, now):
        # the clock as saved, running from now (if it ran); ValueError for other bytes
        from .statebytes import load  # only where a game resumes

        return load(cls, data, now)


def text(ms, mode, short=False):
    # the time as the clock shows it: "9:58" (CHESS rounds up: 0:00 is out of time, past it
    # "-0:12"); short: at most 4 characters, "10m", "45s" under a minute, "-2m"
    neg = ms < 0
    if neg:
        ms = -ms
    up = mode == CHESS and not neg
    s = (ms + 999) // 1000 if up else ms // 1000
    sign = "-" if neg else ""
    if not short:
        return "{}{}:{:02d}".format(sign, s // 60, s % 60)
    if s < 60:
        return "{}{}s".format(sign, s)
    return "{}{}m".format(sign, (s + 59) // 60 if up else s // 60)


def timed(env, times):
    # the format 2 envelope: env (format 1, store/records.py) with times (statebytes.py)
    from .statebytes import timed as with_times

    return with_times(env, times)
