"""Presses per human turn of Let's Do Lunch on the device, with the device's dice and with
typed dice: mean and worst over seeded games.

The games run through the real firmware App on the simulator's hardware (its displayio,
virtual clock, buttons and nvm file: ``lunchbox.sim.Simulator``), stepped by this script
instead of a fixed key script, because where the cursor stands depends on the dice: a player
(``Player``) looks at the screen's state, decides like a person would (the placement a
computer level would choose for that seat, the dice a seeded generator rolls at the table),
and presses buttons one at a time. Every press is counted. Every action the screen applies is
checked against an independent engine fed the same actions, and the player's intended row
against the placement made.

    .venv/bin/python bench/lets_do_lunch_presses.py [--games 200] [--profile ...]

A human turn is one roll of a human seat (the starting rolls apart) with its placement; its
presses are every press made for it: the roll (or the OK that ends the computer's move and
rolls), the cursor, the placement, the OK after a pass the computer must wait for, and with
typed dice the three pickers.
"""

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT / "host", ROOT / "firmware", ROOT):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

PREV, NEXT, OK, BACK, UNDO = 0, 1, 2, 3, 4
STEP_MS = 25


class Box:
    """The firmware App on the simulator's hardware, stepped press by press."""

    def __init__(self, profile="pico-display-pack", nvm_path=None, dice_seed=1, nvm=None):
        from lunchbox.sim import Simulator

        self.sim = Simulator(profile, nvm_path=nvm_path, mode="headless")
        from companion.app.loop import App
        from companion.store.store import Store

        # the device's dice, seeded: on this box's hardware (a patched module would outlive
        # the box and seed every later Let's Do Lunch in the process)
        self.sim.hw.seed = lambda: dice_seed
        self.nvm = nvm if nvm is not None else self.sim.nvm  # tests: a flash with power cuts
        self.store = Store(self.nvm)
        from companion.app import menu

        start = getattr(menu, "start", None)  # the first screens, as main.run gives them
        self.app = App(self.sim.hw, self.store, start) if start else App(self.sim.hw, self.store)
        self.presses = 0
        self.wait(3000)  # the first-start message

    def step(self, ms=STEP_MS):
        self.sim.clock.advance(ms)
        self.app.step()

    def press(self, button, held=60):
        self.presses += 1
        self.sim.buttons.push(button, True)
        self.step(held)
        self.sim.buttons.push(button, False)
        self.step(10)
        self.step(90)

    def wait(self, ms):
        for _ in range(ms // STEP_MS):
            self.step()

    def settle(self, limit_ms=5000):
        """Let the animations and the computer's turns run until the screen waits for a
        press."""
        from companion.games.lets_do_lunch.panel import ROLLING, THINKING

        t = 0
        while getattr(self.app.top, "mode", None) in (ROLLING, THINKING) and t < limit_ms:
            self.step()
            t += STEP_MS
        if t >= limit_ms:
            raise AssertionError("the screen never settled")

    @property
    def top(self):
        return self.app.top

    def texts(self):
        return self.sim.texts()

    def problems(self):
        return self.sim.layout_problems()

    def close(self):
        self.sim.close()


def open_setup(box):
    """From the main menu to the Let's Do Lunch setup."""
    box.press(NEXT)
    box.press(OK)
    assert type(box.top).__name__ == "SetupScreen", box.top


def choose(box, row, presses_ok=True):
    """Select the setup row named ``row`` (shortest way round) and press OK on it."""
    s = box.top
    rows = s._rows()
    want = rows.index(row)
    n = len(rows)
    d = (want - s.menu.selected) % n
    button = NEXT if d <= n - d else PREV
    for _ in range(min(d, n - d)):
        box.press(button)
    if presses_ok:
        box.press(OK)


def setup(box, computer=None, level=3, typed=False, strict=False, target=20):
    """Set up a new match through the setup screen's buttons."""
    open_setup(box)
    s = box.top
    if computer is None:
        choose(box, "players")
    else:
        if s.seat != computer:
            choose(box, "seat")
        if s.level != level:
            choose(box, "level")
            picker = box.top
            while picker.menu.selected != level - 1:
                box.press(NEXT)
            box.press(OK)
    if typed:
        choose(box, "dice")
    if strict:
        choose(box, "strict")
    if target != 20:
        choose(box, "target")
        picker = box.top
        while picker.value != target:
            box.press(PREV if picker.value > target else NEXT)
        box.press(OK)
    choose(box, "start")
    assert type(box.top).__name__ == "PlayScreen", box.top


class Player:
    """Plays the human seats by pressing buttons, checks the screen against a reference
    engine, and counts presses per human turn."""

    def __init__(self, box, policy_level=2, seed=1, forget_every=0, check_layout=False):
        from shared_rules.lets_do_lunch.match import Match
        from shared_rules.rng import Rng

        self.box = box
        self.level = policy_level  # how the simulated person chooses a row (an AI level)
        self.rng = Rng(seed * 7 + 3)  # their choices and the dice the table rolls
        self.ref = None
        self.Match = Match
        self.turns = []  # presses of each finished human turn
        self.open = 0  # presses of the human turn under way
        self.other = 0  # presses not in a human turn (setup, starts, results, computer's)
        self.games = 0
        self.forget_every = forget_every
        self.seen = 0  # actions of the current record already checked
        self.check_layout = check_layout
        self.modes = set()  # the modes the screen was seen in
        self.problems = []

    def screen(self):
        return self.box.top

    def _check(self):
        """Feed the reference engine the screen's new actions; compare the positions."""
        s = self.screen()
        g = s.game
        acts = g.actions()
        if self.ref is None:  # a record starts from its base (the match as it stood)
            self.ref = self.Match.from_bytes(g.base) if g.base else self.Match(
                g.params[0], bool(g.params[1]))
        for a in acts[self.seen:]:
            self.ref.apply(a)
        self.seen = len(acts)
        e = g.engine
        assert bytes(self.ref.board.cells) == bytes(e.board.cells), "board differs"
        assert self.ref.hands == e.hands and self.ref.scores == e.scores
        assert self.ref.phase == e.phase and self.ref.player == e.player

    def play_match(self, max_presses=20000):
        """Press until the match is over; returns the result screen's texts."""
        from companion.games.lets_do_lunch.panel import ASK, ENDED, HOLD, IDLE, PLACING, TYPING
        from shared_rules.lets_do_lunch import ai
        from shared_rules.lets_do_lunch.rules import START

        box = self.box
        while box.presses < max_presses:
            box.settle()
            s = self.screen()
            if type(s).__name__ != "PlayScreen":
                return box.texts()  # the match's result screen
            self._check()
            m = s.m
            mode = s.mode
            human = not s.is_computer(m.player)
            if mode == PLACING:
                target = ai.choose(self.ref, self.level, self.rng) % 10
                free = m.board.empty_rows(m.column)
                self._cursor(s, free, target)
                before = len(s.game.actions())
                want = m.column * 10 + target
                self._press(OK, "turn")
                assert s.game.actions()[before] == want, (s.game.actions()[before:], want)
                self._end_turn()
            elif mode == TYPING:
                dice = (self.rng.randint(1, 3), self.rng.randint(1, 3), self.rng.randint(1, 3))
                kind = "turn" if human and m.phase != START else "other"
                for v in dice:
                    if v != 2:
                        self._press(PREV if v == 1 else NEXT, kind)
                    self._press(OK, kind)
                self._after_roll(kind, human)
            elif mode == IDLE:
                kind = "turn" if m.phase != START else "other"
                self._press(OK, kind)
                box.settle()
                self._after_roll(kind, True)
            elif mode == HOLD:
                held_human = not s.is_computer(s.held)
                nxt_human = not s.is_computer(m.player) and m.phase != START
                if held_human:
                    self._press(OK, "late")
                else:
                    self._press(OK, "turn" if nxt_human and not s.setup.typed else "other")
                    if nxt_human and not s.setup.typed:
                        box.settle()
                        self._after_roll("turn", True)
            elif mode == ASK:
                forgot = self.forget_every and self.rng.randint(1, self.forget_every) == 1
                if forgot:
                    self._press(NEXT, "other")
                self._press(OK, "other")
            elif mode == ENDED:
                self._check()
                self.games += 1
                self._press(OK, "other")
                self.ref = None
                self.seen = 0
            else:
                raise AssertionError("unexpected mode {}".format(mode))
        raise AssertionError("the match did not end in {} presses".format(max_presses))

    def _cursor(self, s, free, target):
        from companion.games.lets_do_lunch.turn import presses_to

        n = presses_to(free, s.row, target)
        i = free.index(s.row)
        j = free.index(target)
        button = NEXT if (j - i) % len(free) == n else PREV
        for _ in range(n):
            self._press(button, "turn")
        assert s.row == target, (s.row, target)

    def _press(self, button, kind):
        self.box.press(button)
        if self.check_layout:
            s = self.screen()
            self.modes.add((type(s).__name__, getattr(s, "mode", None)))
            for t in self.box.texts():
                if "~" in t:
                    self.problems.append("cut: {!r}".format(t))
            self.problems += self.box.problems()
        if kind == "turn":
            self.open += 1
        elif kind == "late" and self.turns:
            self.turns[-1] += 1  # the OK after a pass, before the computer rolls
        else:
            self.other += 1

    def _after_roll(self, kind, human):
        """After a human's roll: a pass ends the turn at once."""
        from companion.games.lets_do_lunch.panel import PLACING

        if kind != "turn" or not human:
            return
        s = self.screen()
        if getattr(s, "mode", None) != PLACING:
            self._end_turn()

    def _end_turn(self):
        if self.open:
            self.turns.append(self.open)
            self.open = 0


def play(profile, seed, computer, level, typed, policy=2, target=20, nvm_path=None):
    box = Box(profile, nvm_path=nvm_path, dice_seed=seed)
    try:
        setup(box, computer, level, typed, target=target)
        p = Player(box, policy, seed)
        texts = p.play_match()
        return p, texts
    finally:
        box.close()


def summary(turns):
    n = len(turns)
    mean = sum(turns) / n if n else 0
    return n, mean, max(turns) if turns else 0


def hard_searches(seeds, search):
    """The first game of ``seeds`` seeded matches, Hard's every decision made by
    ``search(match, rng)``, the other seat's by its first legal action. Sent to MicroPython
    as its source too (search_heap), so both runtimes play the same games."""
    from shared_rules.lets_do_lunch.match import Match
    from shared_rules.lets_do_lunch.rules import roll_dice
    from shared_rules.rng import Rng

    for seed in range(seeds):
        m = Match()
        rng = Rng(seed)
        while not m.is_over() and m.games == 0:
            if m.is_chance():
                m.roll(roll_dice(rng))
            elif m.phase == 2:
                m.apply(search(m, rng))
            else:
                m.apply(m.legal_actions()[0])


SEARCH_CODE = """
import gc
from shared_rules.lets_do_lunch import ai
S = [0, 0]  # decisions, the most one allocated
def measured(m, rng):
    gc.collect()
    a0 = gc.mem_alloc()
    choice = ai.choose(m, ai.HARD, rng)
    S[0] += 1
    S[1] = max(S[1], gc.mem_alloc() - a0)
    return choice
{games}
hard_searches({seeds}, measured)
print("@@SEARCH", S[0], S[1])
"""


def search_heap(seeds=4):
    """(decisions, bytes): the most one of Hard's searches allocated in ``seeds`` seeded
    games, on MicroPython. The lane's collector frees nothing during one interpreter call
    (docs/firmware.md), so this is every byte the search allocates, garbage included: an upper
    bound of what it needs free at once (a Pico's collector reclaims the garbage as it goes)."""
    import inspect

    sys.path.insert(0, str(ROOT / "tests"))
    import mplane

    code = SEARCH_CODE.format(games=inspect.getsource(hard_searches), seeds=seeds)
    res = mplane.run(code=code, heap=4096 * 1024, timeout=900)
    for line in res.output.splitlines():
        if line.startswith("@@SEARCH"):
            _t, n, worst = line.split()
            return int(n), int(worst)
    raise RuntimeError(res.output[-2000:])


def search_live_cpython(seeds=4):
    """The most any of Hard's searches holds at once on CPython (tracemalloc's peak over the
    search): the live set, garbage collected as it goes. CPython's objects are about twice
    MicroPython's, so this overstates a Pico's figure."""
    import tracemalloc

    from shared_rules.lets_do_lunch import ai

    worst = [0]

    def measured(m, rng):
        tracemalloc.start()
        choice = ai.choose(m, ai.HARD, rng)
        worst[0] = max(worst[0], tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        return choice

    hard_searches(seeds, measured)
    return worst[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per row (default 200)")
    ap.add_argument("--profile", default="pico-display-pack")
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--search-heap", type=int, default=4, metavar="GAMES",
                    help="games whose Hard searches are measured on MicroPython (0: skip)")
    args = ap.parse_args()
    if args.search_heap:
        n, worst = search_heap(args.search_heap)
        print("Hard's search on MicroPython, {} decisions of {} seeded games: one search "
              "allocates at most {} bytes, garbage included (an upper bound of the free heap "
              "it needs)".format(n, args.search_heap, worst))
        print("  held at once (CPython tracemalloc peak, objects ~2x MicroPython's): {} bytes"
              .format(search_live_cpython(args.search_heap)))
    rows = (
        ("two players, device dice", None, 3, False),
        ("vs Hard, device dice", 1, 3, False),
        ("two players, typed dice", None, 3, True),
        ("vs Hard, typed dice", 1, 3, True),
    )
    print("Presses per human turn, {} ({} seeded games or more per row; the person places"
          .format(args.profile, args.games))
    print("where MEDIUM would; each match to 20 points):")
    for label, computer, level, typed in rows:
        turns = []
        games = 0
        seed = args.first_seed
        t0 = time.time()
        while games < args.games:
            p, _texts = play(args.profile, seed, computer, level, typed)
            turns += p.turns
            games += p.games + 1  # the match's last game ends on the result screen
            seed += 1
        n, mean, worst = summary(turns)
        hist = {}
        for t in turns:
            hist[t] = hist.get(t, 0) + 1
        spread = " ".join("{}:{}".format(k, hist[k]) for k in sorted(hist))
        print("  {:<26} {:>4} games {:>6} turns  mean {:.2f}  worst {}   [{}]  ({:.0f} s)".format(
            label, games, n, mean, worst, spread, time.time() - t0))


if __name__ == "__main__":
    main()
