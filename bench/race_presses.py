"""Button presses per Space Battle Lunchtime race entry, over seeded races, through the simulator.

Run from the repo root: .venv/bin/python bench/race_presses.py [races]

An entry is one action of the race scoreboard (shared_rules/space_battle/race.py); a "serve
entry" is a player's points added after a serve (1-99, or 100 + points when the turn goes on
for a judge's reward). The races are seeded and meant to look like a table's:

- 2 to 5 players; four dishes on the display, each with gold/silver/bronze points as printed
  on a card: bronze 1-3, silver bronze + 0-2, gold silver + 1-4 (the rulebook lists no
  dishes; the same model as tests/test_space_battle_playthrough.py). A served dish is
  replaced.
- A turn is a serve 2 times in 5 (steal or buy otherwise); a serve is gold 60%, silver 25%,
  bronze 15% (as in bench/scoring_presses.py); one gold serve in six takes the judge's "serve
  a dish", so its points go on ("go on") and a second serve ends the turn.
- Someone reaches 21, the round is played out; a tie asks the tied players' flavours (0-12).

"after" is the race list as it is (tests/scorekeys.race_keys: the keys worked out from the
rules object), played on the simulated device (Display Pack), the saved race checked against
the entries, so every press counted really happened. "before" is the list as it was before
the points rows (docs/scoring.md, "Presses"): "Points" the third row, a number picker from 0;
a serve whose turn goes on only through the serve check (a one-flavour dish, its fewest
presses). That count was checked on the simulator against the app of the time.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# the import paths, SDL's dummy drivers, a press count and the simulated device's saves
from scoring_presses import presses, saved_actions, sim_run


def dish(rng):
    b = 1 + rng.randbelow(3)
    s = b + rng.randbelow(3)
    return (s + 1 + rng.randbelow(4), s, b)


def level(rng):
    r = rng.randbelow(20)
    return 0 if r < 12 else (1 if r < 17 else 2)


def race_entries(seed):
    """``(players, actions)`` of one seeded race to its end."""
    from shared_rules.rng import Rng
    from shared_rules.space_battle.race import FLAVOUR, MORE, BattleRace

    rng = Rng(seed)
    n = 2 + rng.randbelow(4)
    g = BattleRace(n)
    display = [dish(rng) for _ in range(4)]
    out = []

    def serve():
        i = rng.randbelow(4)
        lv = level(rng)
        p = display[i][lv]
        display[i] = dish(rng)
        return lv, p

    while not g.is_terminal():
        if g.asking() is not None:
            a = FLAVOUR + rng.randbelow(13)
        elif rng.randbelow(5) < 2:
            lv, p = serve()
            if lv == 0 and rng.randbelow(6) == 0:  # the judge's "serve a dish"
                out.append(MORE + p)
                g.apply(MORE + p)
                lv, p = serve()
            a = p
        else:
            a = 0
        out.append(a)
        g.apply(a)
    return n, out


def keys_before(g, action):
    """The keys of one entry on the race list as it was: No serve, Serve check, Points, Scores
    (the cursor on No serve); Points opened a number picker at 0."""
    import scorekeys

    from shared_rules.space_battle.race import FLAVOUR, MORE

    if action >= FLAVOUR:
        return ["ok"] + scorekeys.number_keys(0, action - FLAVOUR)
    if action == 0:
        return ["ok"]
    if action < MORE:
        return ["next", "next", "ok"] + scorekeys.number_keys(0, action)
    need = [1, 0, 0, 0, 0]
    return (["next", "ok"] + scorekeys.counter_keys(need) + scorekeys.counter_keys(need, need)
            + scorekeys.number_keys(1, action - MORE) + ["next", "ok"])


def count(keys_of, n, actions):
    """Presses per entry: (serve entries, all entries), and the words."""
    from shared_rules.space_battle.race import FLAVOUR, BattleRace

    g = BattleRace(n)
    serves, every, words = [], [], []
    for a in actions:
        w = keys_of(g, a)
        g.apply(a)
        words += w
        every.append(presses(w))
        if 0 < a < FLAVOUR:
            serves.append(presses(w))
    return serves, every, words


def played(n, words):
    """The race's actions as the simulated device saved or recorded them."""
    import scorekeys

    nvm = "/tmp/race_presses_nvm.bin"
    if os.path.exists(nvm):
        os.remove(nvm)
    start = ["wait:3000", "next", "next", "next", "ok", "ok"] + scorekeys.move(0, n - 2, 4)
    return saved_actions(sim_run(" ".join(start + ["ok"] + words), nvm))


def line(name, xs):
    print("{:34} mean {:4.1f}  worst {:3}  ({} entries)".format(
        name, sum(xs) / len(xs), max(xs), len(xs)))


def main():
    import scorekeys

    from lunchbox.sim import setup_environment

    races = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    setup_environment("headless")
    before = ([], [])
    after = ([], [])
    for seed in range(1, races + 1):
        n, actions = race_entries(seed)
        s, e, _ = count(keys_before, n, actions)
        before[0].extend(s)
        before[1].extend(e)
        s, e, words = count(scorekeys.race_keys, n, actions)
        assert played(n, words) == actions, "the keys did not enter race {}".format(seed)
        after[0].extend(s)
        after[1].extend(e)
    print("Space Battle race, {} seeded races (presses per entry)".format(races))
    line("before: a serve's points", before[0])
    line("before: any entry (no serve too)", before[1])
    line("after: a serve's points", after[0])
    line("after: any entry (no serve too)", after[1])


if __name__ == "__main__":
    main()
