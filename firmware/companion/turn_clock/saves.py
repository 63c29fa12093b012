# A saved game with a turn clock (portable; docs/records.md, "The turn clock"): SAVED, the
# state's length, the state (state.py), the game's record. Apart from state.py so
# that the app's start (clocks.py: Clocks) loads only this: the clock's own code
# comes once the game's screen is built, where the heap is tightest.

from shared_rules._compat import const

SAVED = const(0xC7)  # the first byte of a save with a clock (a record starts with its format)


# the numbers of the clock's state and of a record's times: 7-bit groups, low first (high
# bit: more follows; read back by statebytes.py)


def put_num(out, v):
    while v > 127:
        out.append(0x80 | (v & 127))
        v >>= 7
    out.append(v)


def wrap(state, record):
    # the save of a game with a clock
    return bytes((SAVED, len(state))) + state + record


def unwrap(payload):
    # (clock state or None, record) of a saved game
    if len(payload) < 2 or payload[0] != SAVED:
        return None, payload
    n = payload[1]
    return bytes(payload[2:2 + n]), bytes(payload[2 + n:])


class Saves:
    # The store as the screens see it while a saved game may carry a clock: load_game gives
    # the record alone (what each game's code reads), clock_of the clock saved with a record,
    # and save_game saves through wrap(game_id, payload) (the running clock's:
    # view.py) when it is set; everything else is the store's.

    def __init__(self, store):
        self.store = store
        self.wrap = None

    def __getattr__(self, name):
        return getattr(self.store, name)

    def load_game(self):
        g = self.store.load_game()
        if g is None:
            return None
        return g[0], unwrap(g[1])[1]

    def save_game(self, game_id, payload):
        w = self.wrap
        return self.store.save_game(game_id, payload if w is None else w(game_id, payload))

    def clock_of(self, game_id, record):
        # the clock state saved with record of game_id, or None
        g = self.store.load_game()
        if g is None or g[0] != game_id:
            return None
        state, saved = unwrap(g[1])
        return state if saved == record else None


def let_go(name, had=()):
    # Drop module ``name`` on the device (companion/app/unload.py): the clock's parts that only
    # start it or do something now and then; not one in ``had`` (loaded before, by someone
    # else).
    if name not in had:
        from ..app.unload import forget

        forget(name)
