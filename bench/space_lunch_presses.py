"""Button presses per round of a solo Space Lunch game on the device, for a player who follows
the hints, typing every card (the typed-deck mode).

    .venv/bin/python bench/space_lunch_presses.py               # 200 games, 50 per difficulty
    .venv/bin/python bench/space_lunch_presses.py --games 400 --profile pico-ssd1306-5btn

Game i deals its deck with Rng(seed + i). ``plan()`` plays the game with the rules engine and
the device's own view helpers (firmware/companion/games/space_lunch/view.py: where the cursor and
the food wheel start, the suggested move) and writes the key script a player would press: OK on
the suggested card, the shortest way round the food wheel to each card dealt, OK. Every key
script is then run through the simulator (``lunchbox sim``'s headless key scripts, the firmware
unchanged), and the game record the firmware wrote at the end must be the planned game, action
for action: so the counts are what the firmware really needed.

A round is the human's turn and the Automa's, refills included; the setup (menu, difficulty,
the nine opening cards) is counted apart. "Choosing" is the cursor, coupon menu and OK of a
turn; "typing" is the food wheel and its OK.
"""

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for p in (str(ROOT), str(ROOT / "host"), str(ROOT / "firmware")):
    if p not in sys.path:
        sys.path.insert(0, p)

from companion.games.space_lunch import view as V  # noqa: E402
from shared_rules import games  # noqa: E402
from shared_rules.rng import Rng  # noqa: E402
from shared_rules.space_lunch.actions import AUTOMA, AUTOMA_SEAT, decode  # noqa: E402

MENU_ROW = 0  # Space Lunch is the first row of the main menu


def deal(seed):
    rng = Rng(seed)
    deck = [t for t in range(1, 13) for _ in range(3)]
    rng.shuffle(deck)
    return deck


def _type(e, food):
    """Key words to turn the wheel from where it starts to ``food``, then OK."""
    choices = V.card_choices(e)
    start = V.picker_start(choices, V.weights(e, choices))
    target = choices.index(food)
    n = len(choices)
    fwd = (target - start) % n
    if fwd <= n - fwd:
        return ["next"] * fwd + ["ok"]
    return ["prev"] * (n - fwd) + ["ok"]


class Plan:
    """One game's key script, its engine game, and the presses counted by round."""

    def __init__(self, difficulty, seed):
        self.difficulty = difficulty
        self.seed = seed
        self.words = []
        self.setup = 0
        self.rounds = []  # [choosing, typing] per round
        self.game = None
        self.dealt = False
        self.counts = []  # per key word: how many actions the game has after it
        self.kinds = []  # per key word: what its step was ("setup", "card", "take", ...)

    def add(self, keys, kind="setup"):
        """Key words for one step; the step's actions were just applied to ``self.game``."""
        before = self.counts[-1] if self.counts else 0
        self.counts += [before] * (len(keys) - 1) + [len(self.game.actions())]
        self.words += keys
        self.kinds += [kind] * len(keys)

    def script(self):
        return " ".join(self.words)


class Dealer:
    """The device's deck in the dealt mode, drawn as the screen draws it (V.deal: one weighted
    draw over the unseen cards, from the game's seed and the number of actions so far)."""

    def __init__(self, seed):
        self.seed = seed

    def pop(self, e, n):
        return V.deal(e, self.seed, n)


def plan(difficulty, seed, first_boot=True, dealt=False):
    """Play one seeded game as a hint-following player; returns a Plan. ``dealt``: the device
    deals (its deck seeded with ``seed``: set space_lunch.DEAL_SEED), OK places each."""
    p = Plan(difficulty, seed)
    deck = deal(seed)
    dealer = Dealer(seed) if dealt else None
    p.dealt = dealt
    if dealt:
        from companion.games.space_lunch.entry import seed_params

        g = games.new("space_lunch", difficulty, 0, *seed_params(seed))
    else:
        g = games.new("space_lunch", difficulty)
    e = g.engine
    p.game = g
    if first_boot:
        p.add(["wait:3000"])  # the first-start toast goes
    keys = ["next"] * MENU_ROW + ["ok"]
    if dealt:
        keys += ["prev", "ok", "next"]  # the new-game list's last row, Cards: typed -> dealt
    keys += ["next"] * difficulty + ["ok"]
    p.add(keys)
    p.setup = len(keys)
    cur = None
    while not e.is_over():
        if e.pending:
            food = dealer.pop(e, len(g.actions())) if dealt else deck.pop(0)
            keys = ["ok"] if dealt else _type(e, food)
            g.apply(food)
            if cur is None:
                p.setup += len(keys)
            else:
                cur[1] += len(keys)
            p.add(keys, "card")
        elif e.turn == AUTOMA_SEAT:
            a = e.copy()
            a.apply(AUTOMA)
            if not a.is_over() and a.pending:
                food = dealer.pop(a, len(g.actions()) + 1) if dealt else deck.pop(0)
                keys = ["ok"] if dealt else _type(a, food)
                g.apply(AUTOMA)
                g.apply(food)
                cur[1] += len(keys)
            else:
                keys = ["ok"]
                g.apply(AUTOMA)
                cur[0] += 1
            p.add(keys, "automa")
            cur = None
        else:
            if cur is None:
                cur = [0, 0]
                p.rounds.append(cur)
            want = V.suggest(e)
            kind, c = decode(want)[:2]
            keys = ["ok"]  # the cursor starts on the suggested card, or on "coupon"
            if kind != "take":
                keys += ["ok", "ok"]  # the coupon menu starts on it, the cell cursor too
                if kind == "jelly":
                    keys.append("ok")
                if kind == "hot":
                    deck.append(e.grid[c])  # under the deck
            g.apply(want)
            cur[0] += len(keys)
            p.add(keys, kind if kind == "take" else "coupon")
    return p


def check(p, profile, sim_factory):
    """Run the plan's key script in the simulator; the record it wrote must be the game's."""
    from companion.store.store import Store

    sim = sim_factory(profile)
    from companion.games.space_lunch import entry as space_lunch

    space_lunch.DEAL_SEED[0] = p.seed if p.dealt else None
    try:
        sim.run_script(p.script())
        # kind 1: a bare record; kind 3: the record at the end of an envelope (names, date)
        records = [bytes(r[2]) for r in Store(sim.nvm).records() if r[1] in (1, 3)]
        want = games.record(p.game)
        if not records or not records[-1].endswith(want):
            raise AssertionError("game {} (seed {}): the firmware's record differs: {} vs {}"
                                 .format(p.difficulty, p.seed,
                                         records[-1].hex() if records else None, want.hex()))
        return sim
    finally:
        sim.close()


def simulator(profile, nvm=None):
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from lunchbox.sim import Simulator

    return Simulator(profile, nvm_path=nvm, mode="headless")


def timing(profile, games_n=8):
    """Wall time from a press to the refreshed screen (pixels drawn, not deferred), in the
    simulator: the menu moving its selection, a take, the Automa's turn (with its refill).
    Returns {kind: [seconds]}."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from lunchbox.sim import Simulator

    times = {}
    for i in range(games_n):
        p = plan(i % 4, 1000 + i)
        sim = Simulator(profile, mode="headless")
        from companion.app import loop as app_module

        words = ["wait:3000"] + ["next", "prev"] * 3 + p.words[1:]
        kinds = ["wait"] + ["menu"] * 6 + p.kinds[1:]
        seen = []
        step = app_module.App.step

        def timed(self, step=step, seen=seen, draw=sim.driver.render):
            n = self.handled
            t0 = time.perf_counter()
            step(self)
            draw()  # the pixels of the refresh, drawn now (headless defers them)
            if self.handled > n:
                seen.append(time.perf_counter() - t0)

        app_module.App.step = timed
        try:
            sim.run_script(" ".join(words))
        finally:
            app_module.App.step = step
            sim.close()
        presses = [k for w, k in zip(words, kinds) if not w.startswith("wait")]
        for k, t in zip(presses, seen):
            times.setdefault(k, []).append(t)
    return times


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games in all (default 200)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", default="pico-display-pack")
    ap.add_argument("--no-sim", action="store_true", help="count only, without the simulator")
    ap.add_argument("--dealt", action="store_true", help="the device deals (nothing typed)")
    ap.add_argument("--timing", action="store_true",
                    help="time from a press to the refreshed screen instead (simulator)")
    args = ap.parse_args(argv)
    if args.timing:
        t = timing(args.profile)
        menu = sorted(t["menu"])[len(t["menu"]) // 2]
        print("press -> refreshed screen in the simulator ({}), median of each kind; ratio to "
              "the menu moving its selection:".format(args.profile))
        for k in ("menu", "card", "take", "automa", "coupon"):
            if k in t:
                xs = sorted(t[k])
                print("  {:<7} {:6.1f} ms  (x{:.1f})  worst {:6.1f} ms  over {} presses".format(
                    k, 1000 * xs[len(xs) // 2], xs[len(xs) // 2] / menu, 1000 * xs[-1], len(xs)))
        return
    t0 = time.time()
    rounds, setups, per_diff = [], [], {}
    worst = (0, None)
    for i in range(args.games):
        d = i % 4
        seed = args.seed + i
        p = plan(d, seed, dealt=args.dealt)
        if not args.no_sim:
            check(p, args.profile, simulator)
        setups.append(p.setup)
        for r in p.rounds:
            n = r[0] + r[1]
            rounds.append(r)
            per_diff.setdefault(d, []).append(n)
            if n > worst[0]:
                worst = (n, (d, seed))
    n = len(rounds)
    choose = sum(r[0] for r in rounds) / n
    typed = sum(r[1] for r in rounds) / n
    mode = "dealt by the device" if args.dealt else "typed deck"
    where = ("checked in the simulator (" + args.profile + ")" if not args.no_sim
             else "not run in the simulator")
    print("Space Lunch solo, {}, hint-following player: {} games ({} per difficulty), "
          "seeds {}..{}, {}".format(mode, args.games, args.games // 4, args.seed,
                                    args.seed + args.games - 1, where))
    print("rounds: {}   presses per round: mean {:.2f} (choosing {:.2f} + typing {:.2f}), "
          "worst {} (difficulty {}, seed {})".format(n, choose + typed, choose, typed, worst[0],
                                                     *worst[1]))
    for d in sorted(per_diff):
        xs = per_diff[d]
        print("  {:<8} mean {:.2f} over {} rounds, worst {}".format(
            ("Easy", "Medium", "Hard", "Extreme")[d], sum(xs) / len(xs), len(xs), max(xs)))
    print("setup (menu, difficulty, nine opening cards): mean {:.1f} presses".format(
        sum(setups) / len(setups)))
    print("{:.0f} s".format(time.time() - t0))


if __name__ == "__main__":
    main()
