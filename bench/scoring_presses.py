"""Button presses of the table scoreboards (docs/scoring.md), over seeded inputs, through the
simulator.

Run from the repo root: .venv/bin/python bench/scoring_presses.py [games]

For each flow the key script is worked out from the rules object (tests/scorekeys.py), played
on the simulated device (Display Pack profile, same lists on the OLED), and the saved or
recorded game is checked against what was meant, so every press counted really happened:

- Aqua Brunch, 4 players: presses per scored round (12 predators, the aqua cards of whoever
  drew some, 4 food cards, the questions asked when they decide something, OK on the round's
  result). Hands are dealt
  from the 55-card deck; one round in three someone holds aqua cards; food at random from
  what each player still holds.
- Space Battle serve check (from the Space Battle list): a dish of 2-3 flavours of 1-2 each;
  served gold 60%, silver 25%, bronze 15%; the points of the level near the dish's total.
- Space Days end-of-game scoring, 2 players: 14 days, tops dealt from the cards that fit.
"""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

PROFILE = "pico-display-pack"
BUTTONS = ("prev", "next", "ok", "back")


def presses(words):
    n = 0
    for w in words:
        if w.startswith("shot:") or w.startswith("wait:"):
            continue
        n += 1
    return n


def sim_run(script, nvm):
    from lunchbox.sim import Simulator

    sim = Simulator(PROFILE, nvm_path=nvm, mode="headless")
    sim.run_script(script)
    return sim


def saved_actions(sim):
    from companion.store.records import KIND_GAME, open_envelope
    from companion.store.store import Store
    from shared_rules import games

    store = Store(sim.nvm)
    kept = store.load_game()
    if kept is not None:
        return games.from_bytes(kept[1]).actions()
    recs = [r for r in store.records() if r[1] == KIND_GAME]
    return games.from_bytes(open_envelope(KIND_GAME, recs[-1][2])[2]).actions()


def aqua_game(seed, n=4):
    """Entries of a seeded six-round game, round by round."""
    from shared_rules.aqua_brunch.rules import DECK_COUNTS
    from shared_rules.aqua_brunch.score import AQUA, ASK_LUNCH, ASK_TAKE, CHOICE, FOOD, AquaScore
    from shared_rules.rng import Rng

    rng = Rng(seed)
    g = AquaScore(n, CHOICE)
    rounds = []
    while not g.is_terminal():
        deck = []
        for k in range(8):
            deck += [k] * DECK_COUNTS[k]
        rng.shuffle(deck)
        aqua = [0] * n
        if rng.randbelow(3) == 0:
            aqua[rng.randbelow(n)] = 1 << rng.randbelow(4)
        entries = []
        r = g.round
        for s in range(n):
            for _ in range(3):
                entries.append(deck.pop())
                g.apply(entries[-1])
            if aqua[s]:
                entries.append(AQUA + aqua[s])
                g.apply(entries[-1])
            entries.append(FOOD + rng.choice(g.foods_left(s)))
            g.apply(entries[-1])
        while g.round == r and g.state in (ASK_LUNCH, ASK_TAKE):
            entries.append(rng.choice(g.legal_actions()))
            g.apply(entries[-1])
        rounds.append(entries)
    return rounds


def bench_aqua(games_n):
    import scorekeys

    from shared_rules.aqua_brunch.score import CHOICE, AquaScore

    per_round = []
    for seed in range(1, games_n + 1):
        rounds = aqua_game(seed)
        g = AquaScore(4, CHOICE)
        script = ["wait:3000", "next", "next", "ok", "ok", "ok"]  # Aqua Brunch, Scoreboard, 4
        for i, entries in enumerate(rounds):
            words = scorekeys.aqua_round(g, entries)
            if i < 5:
                words.append("ok")  # close the round's result
            per_round.append(presses(words))
            script += words
        nvm = "/tmp/scoring_presses_nvm.bin"
        if os.path.exists(nvm):
            os.remove(nvm)
        sim = sim_run(" ".join(script), nvm)
        assert saved_actions(sim) == g.actions(), "the script did not enter the game"
    return per_round


def serve_case(rng):
    need = [0] * 5
    flavours = [0, 1, 2, 3, 4]
    rng.shuffle(flavours)
    for f in flavours[:2 + rng.randbelow(2)]:
        need[f] = 1 + rng.randbelow(2)
    r = rng.randbelow(20)
    served = list(need)
    if 12 <= r < 17:  # silver: same flavours, other amounts
        f = [i for i in range(5) if need[i]]
        i = rng.choice(f)
        served[i] = 3 if need[i] != 3 else 1
    elif r >= 17:  # bronze: the same total in other flavours
        served = [0] * 5
        free = [i for i in range(5) if not need[i]]
        served[rng.choice(free)] = sum(need)
    total = sum(need)
    points = total + rng.randbelow(4) - (r >= 12) - 2 * (r >= 17)
    return need, served, max(0, points)


def bench_serve(cases):
    import scorekeys

    from shared_rules.rng import Rng

    rng = Rng(99)
    counts = []
    for _ in range(cases):
        need, served, points = serve_case(rng)
        words = (["next", "ok"] + scorekeys.counter_keys(need)
                 + scorekeys.counter_keys(served, need)
                 + scorekeys.number_keys(sum(need), points))
        counts.append(presses(words))
        sim = sim_run("wait:3000 next*3 ok " + " ".join(words), None)
        t = sim.texts()
        assert t[0] == "Serve check" and "{} points".format(points) in " ".join(t), t
    return counts


def bench_days(games_n):
    import scorekeys

    from shared_rules.rng import Rng
    from shared_rules.space_days.score import DaysScore

    rng = Rng(5)
    counts = []
    for _ in range(games_n):
        g = DaysScore(2)
        words = []
        while not g.is_terminal():
            legal = g.legal_actions()
            if g.asking() is None and rng.randbelow(6) and len(legal) > 1:
                a = rng.choice(legal[1:])  # most days are occupied at the end
            else:
                a = legal[0] if g.asking() is None else legal[rng.randbelow(3)]
            words += scorekeys.days_keys(g, a)
            g.apply(a)
        counts.append(presses(words))
        nvm = "/tmp/scoring_presses_nvm.bin"
        if os.path.exists(nvm):
            os.remove(nvm)
        sim = sim_run("wait:3000 next*4 ok ok " + " ".join(words), nvm)
        assert saved_actions(sim) == g.actions()
    return counts


def line(name, xs, unit):
    xs = sorted(xs)
    mean = sum(xs) / len(xs)
    print("{:38} mean {:5.1f}  median {:3}  min {:3}  max {:3}  ({} {})".format(
        name, mean, xs[len(xs) // 2], xs[0], xs[-1], len(xs), unit))


def main():
    games_n = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    from lunchbox.sim import setup_environment

    setup_environment("headless")
    line("Aqua Brunch, 4 players: presses/round", bench_aqua(games_n), "rounds")
    line("Space Battle: presses/serve check", bench_serve(games_n * 6), "checks")
    line("Space Days, 2 players: presses/scoring", bench_days(games_n), "scorings")


if __name__ == "__main__":
    main()
