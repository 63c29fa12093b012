"""Writes tests/data/records/format1.json: game records and saves in record format 1, made by
the code that wrote that format (run at commit c6c4b41, before format 2), with what each
replays to. tests/portable/test_record_format.py checks that every one still loads and gives
the same game. Kept to show how the data was made; it refuses to run once the encoder writes
another format.

    .venv/bin/python tests/data/records/make_format1.py
"""

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
sys.path.insert(0, ROOT)

from shared_rules import games  # noqa: E402
from shared_rules.registry import ROWS  # noqa: E402
from shared_rules.rng import Rng  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "format1.json")


def choose(g, rng):
    if g.current_player() == games.CHANCE:
        return rng.weighted(g.chance_outcomes())
    legal = g.legal_actions()
    if g.game_id == "space_battle":
        sys.path.insert(0, os.path.join(ROOT, "tests", "portable"))
        from test_protocol import _space_battle_move

        a = _space_battle_move(g, legal)
        if a is not None:
            return a
    return rng.choice(legal)


def shown(g):
    """What the host and the device show of a game: the same after any format change."""
    out = {"game_id": g.game_id, "params": list(g.params), "actions": g.actions(),
           "player": g.current_player(), "legal": g.legal_actions(), "winners": g.winners(),
           "scores": g.scores(), "terminal": g.is_terminal(),
           "describe": [g.describe(a) for a in g.legal_actions()[:12]]}
    if hasattr(g, "engine") and hasattr(g.engine, "to_bytes"):
        out["engine"] = bytes(g.engine.to_bytes()).hex()
    if g.game_id == "lets_do_lunch":
        out["match"] = [g.match_scores(), g.game_number(), g.engine.target]
        out["board"] = g.board().to_text()
        out["counts"] = list(g.engine.counts)
        out["history"] = list(g.engine.history[-6:])
    return out


def entry(kind, name, g):
    data = g.to_bytes()
    assert data[0] == 1, "the encoder no longer writes format 1: this data is made"
    assert games.replay(data).to_bytes() == data
    row = {"kind": kind, "name": name, "hex": data.hex()}
    row.update(shown(g))
    return row


def main():
    rows = []
    # every row of the registry: seeded random games, the whole record and two saves on the way
    for game_id, _, _ in ROWS:
        for seed in range(3):
            rng = Rng(100 + seed)
            g = games.new(game_id)
            steps = 0
            cuts = (7 + seed, 23 + 5 * seed)
            while not g.is_terminal() and steps < 300:
                if steps in cuts:
                    rows.append(entry("save", "{} seed {} step {}".format(game_id, seed, steps),
                                      g))
                g.apply(choose(g, rng))
                steps += 1
                if not g.can_undo() and steps < 300:  # Let's Do Lunch: a new record began
                    break
            rows.append(entry("record", "{} seed {}".format(game_id, seed), g))
    # a whole Let's Do Lunch match to 20 against the computer (Hard in seat B), one record a
    # game, each later game's base the match as it stood; saves in every phase on the way
    for params, seed in (((20, 0, 3 + 4, 0), 7), ((20, 1, 0, 1), 8), ((12, 1, 2, 0), 9)):
        g = games.new("lets_do_lunch", *params)
        rng = Rng(seed)
        number = 1
        phases = set()
        while not g.is_terminal():
            if g.current_player() == games.TABLE and g.ended is not None:
                rows.append(entry("record", "match {} game {}".format(seed, number), g))
                g.apply(0)
                number += 1
                if number in (2, 3):  # a save at a game's start: a base, no action
                    rows.append(entry("save", "match {} game {} start".format(seed, number), g))
                continue
            phase = (g.engine.phase, g.ended is not None, bool(g.base))
            if phase not in phases and g.actions():
                phases.add(phase)
                rows.append(entry("save", "match {} game {} phase {}".format(
                    seed, number, phase), g))
            g.apply(choose(g, rng))
        rows.append(entry("record", "match {} game {} (last)".format(seed, number), g))
    about = ("records and saves in game record format 1, written by shared_rules at c6c4b41 "
             "(tests/data/records/make_format1.py), with what each replays to")
    with open(OUT, "w") as f:  # a row a line, so a diff shows which changed
        f.write('{"about": ' + json.dumps(about) + ',\n"rows": [\n')
        f.write(",\n".join(json.dumps(r, sort_keys=True, separators=(",", ":"))
                            for r in rows))
        f.write("\n]}\n")
    print("{} rows, {} bytes".format(len(rows), os.path.getsize(OUT)))


if __name__ == "__main__":
    main()
