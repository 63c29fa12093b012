"""Bytes per game record, per game of the registry, and what a Let's Do Lunch match to 20 takes
of the 4 KB nvm (docs/records.md, "Figures"; the descriptors' ``record_bytes``).

For every row of the registry: random play-throughs (every legal action and every roll or card
equally likely, Python's random) and seeded ones (the project's Rng, chance by its weights, as
tests/portable/test_protocol.py plays), each game's record bytes (mean and max), its bytes a
recorded action and its base state, the envelope the board keeps it in (date and the seats'
names as the board writes them) and the nvm log's record around that (what one more kept game
costs). A Let's Do Lunch match keeps one record a game, so its rows are every game of whole
matches.

Then whole Let's Do Lunch matches to 20 played through the real store on a 4 KB fake flash as
the board plays them (settings saved first, the game saved after every action, each game's
record kept in its envelope at its end): what the store then holds (base record, settings, the
saved game, the match's records: docs/persistence.md) and its share of the 4096 bytes, and
whether the "memory nearly full" warning would have shown before the match.

    .venv/bin/python bench/record_sizes.py [--games N] [--matches N] [--json PATH]

The figures of format 1 (measured at 7a7d327, the last commit writing it) are kept in
bench/data/record_sizes_format1.json and printed beside the figures now; format 2's in
bench/data/record_sizes_format2.json.
"""

import argparse
import json
import os
import random
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for sub in ("", os.path.join("tests", "portable")):
    sys.path.insert(0, os.path.join(ROOT, sub))
sys.path.append(os.path.join(ROOT, "firmware"))

from _flash import FlashNVM  # noqa: E402

from companion.store import nvmlog, records  # noqa: E402
from companion.store.appsettings import AppSettings  # noqa: E402
from companion.store.store import BASE_SIZE, Store  # noqa: E402
from shared_rules import games  # noqa: E402
from shared_rules.registry import ROWS  # noqa: E402
from shared_rules.rng import Rng  # noqa: E402

NVM = 4096
NAMES = ["ANNA", "BO", "CY", "DEE", "ED", "FAY", "GUS"]  # the Settings names the board keeps
CAP = 3000  # actions: a game still going after this many is left out
MATCH_CAP = 20000  # a Let's Do Lunch match's actions (the longest seen: 55 games, ~3,300)
WHEN = 1796083200  # a date for the envelope (4 bytes whatever it is)


def _space_battle_move(g, legal):
    from test_protocol import _space_battle_move as move

    return move(g, legal)


class Random:
    """Every legal action, and every chance outcome, equally likely."""

    label = "random"

    def __init__(self, seed):
        self.r = random.Random(seed)

    def __call__(self, g):
        legal = g.legal_actions()
        if g.game_id == "space_battle" and g.current_player() != games.CHANCE:
            a = _space_battle_move(g, legal)
            if a is not None:
                return a
        return legal[self.r.randrange(len(legal))]


class Computer:
    """The device's computer opponent in both seats (Medium), the rolls by their weights: a
    match as a table plays it, points won by captures rather than by chance."""

    label = "computer"

    def __init__(self, seed):
        self.r = Rng(seed)

    def __call__(self, g):
        from shared_rules.lets_do_lunch import ai

        p = g.current_player()
        if p == games.CHANCE:
            return self.r.weighted(g.chance_outcomes())
        if p == games.TABLE:
            return g.legal_actions()[0]
        return ai.choose(g.engine, ai.MEDIUM, self.r)


class Seeded:
    """The project's Rng; chance by its weights (as the tests play)."""

    label = "seeded"

    def __init__(self, seed):
        self.r = Rng(seed)

    def __call__(self, g):
        if g.current_player() == games.CHANCE:
            return self.r.weighted(g.chance_outcomes())
        legal = g.legal_actions()
        if g.game_id == "space_battle":
            a = _space_battle_move(g, legal)
            if a is not None:
                return a
        return self.r.choice(legal)


def play(game_id, choose, on_action=None, on_record=None):
    """One play-through of ``game_id`` at its defaults: the records it kept (a Let's Do Lunch
    match keeps one a game), or [] when it did not end within CAP actions."""
    g = games.new(game_id)
    out = []
    n = 0
    while not g.is_terminal():
        if n >= CAP:
            return []
        if g.current_player() == games.TABLE and getattr(g, "ended", None) is not None:
            out.append(g.to_bytes())  # a game of a match ends: its record, then the next
            if on_record is not None:
                on_record(out[-1])
        g.apply(choose(g))
        n += 1
        if on_action is not None:
            on_action(g)
    out.append(g.to_bytes())
    if on_record is not None:
        on_record(out[-1])
    return out


def envelope(rec):
    """The record as the board keeps it: dated, with its seats' names."""
    return records.envelope(rec, WHEN, NAMES[:records.seats(rec)])


def parts(rec):
    """(actions, base bytes) of a record."""
    _, _, base, actions = games.parse(rec)
    return len(actions), len(base)


def sizes(n_games):
    print("Game records over {} play-throughs of each kind (a Let's Do Lunch match: every game "
          "of it); bytes".format(n_games))
    head = "{:<14} {:<7} {:>5} {:>6} {:>5} {:>8} {:>6} {:>9} {:>8} {:>8}".format(
        "game", "play", "recs", "mean", "max", "B/action", "base", "envelope", "log rec",
        "log max")
    print(head)
    out = {}
    for game_id, _, _ in ROWS:
        for kind in (Random, Seeded):
            recs = []
            for seed in range(n_games):
                recs += play(game_id, kind(seed))
            if not recs:
                print("{:<14} {:<7} (none ended within {} actions)".format(game_id, kind.label,
                                                                           CAP))
                continue
            lens = [len(r) for r in recs]
            acts = [parts(r) for r in recs]
            n_act = sum(a for a, _ in acts)
            # bytes a recorded action: all of the record but its header, base and checksum
            body = sum(len(r) - 2 - _header(r) - b for r, (_, b) in zip(recs, acts))
            env = [len(envelope(r)) for r in recs]
            log = [nvmlog.OVERHEAD + 1 + e for e in env]  # + the ring record's kind byte
            row = {"records": len(recs), "mean": statistics.mean(lens), "max": max(lens),
                   "bytes_per_action": body / n_act if n_act else 0.0,
                   "base_mean": statistics.mean(b for _, b in acts),
                   "envelope_mean": statistics.mean(env), "envelope_max": max(env),
                   "log_mean": statistics.mean(log), "log_max": max(log)}
            out["{} {}".format(game_id, kind.label)] = row
            print("{:<14} {:<7} {:>5} {:>6.1f} {:>5} {:>8.2f} {:>6.1f} {:>9.1f} {:>8.1f} "
                  "{:>8}".format(game_id, kind.label, len(recs), row["mean"], row["max"],
                                 row["bytes_per_action"], row["base_mean"],
                                 row["envelope_mean"] - row["mean"], row["log_mean"],
                                 row["log_max"]))
    print("(envelope: bytes it adds to the record, mean; log rec: the nvm log's record of the "
          "envelope, {} bytes of frame and a kind byte, what one more kept game costs)".format(
              nvmlog.OVERHEAD))
    return out


def descriptors():
    """{game id: its descriptor's record_bytes} over shared_rules/*/about.json."""
    out = {}
    base = os.path.join(ROOT, "shared_rules")
    for name in sorted(os.listdir(base)):
        path = os.path.join(base, name, "about.json")
        if os.path.exists(path):
            with open(path) as f:
                for row in json.load(f)["rows"]:
                    out[row["id"]] = row.get("record_bytes")
    return out


def record_bytes(figures):
    """The descriptors' ``record_bytes`` (a typical record as the board keeps it: the warning
    counts how many more fit): the larger mean envelope of the two plays, up to a multiple of
    10, beside the descriptor's value now."""
    now = descriptors()
    print("\nrecord_bytes (the larger mean envelope of the two plays, rounded up to 10):")
    out = {}
    for game_id, _, _ in ROWS:
        means = [figures[k]["envelope_mean"] for k in figures if k.split()[0] == game_id]
        if not means:
            continue
        out[game_id] = int(-(-max(means) // 10) * 10)
        print("{:<14} {:>5}   (descriptor: {})".format(game_id, out[game_id], now.get(game_id)))
    return out


def _header(rec):
    """Bytes before the base state: format, game, parameters, the base's length."""
    k = rec[2]
    n = 3 + k
    if rec[0] == 1:
        return n + 2
    while rec[n] & 128:  # a length in 7-bit groups
        n += 1
    return n + 1


def live_bytes(store):
    """What the store holds that a compaction keeps (nothing acknowledged): the base record,
    the saved game, the settings and the ring records (docs/persistence.md, "Layout")."""
    total = BASE_SIZE
    game = store.load_game()
    if game is not None:
        total += nvmlog.OVERHEAD + 1 + len(game[0].encode()) + len(game[1])
    settings = store.load_settings()
    if settings is not None:
        total += nvmlog.OVERHEAD + len(settings)
    for r in store.records():
        total += nvmlog.OVERHEAD + 1 + len(r[2])
    return total


def match_through_store(choose, computer=0):
    """A whole Let's Do Lunch match to 20 played as the board plays it, through the real
    store: (games, the bytes the store holds after it, whether the warning showed before it,
    records the store dropped). The bytes are counted as a compaction would keep them had
    nothing been dropped: a match longer than the store keeps counts whole."""
    store = Store(FlashNVM(NVM))
    store.save_settings(AppSettings(names=NAMES).to_bytes())
    warned = records.warning(store, 1) is not None
    g = games.new("lets_do_lunch", 20, 0, computer, 0)
    store.save_game("lets_do_lunch", g.to_bytes())
    kept = 0
    n = 0
    while True:
        if g.is_terminal() or (g.current_player() == games.TABLE and g.ended is not None):
            env = envelope(g.to_bytes())
            store.append_record(records.KIND_GAME, env)
            kept += nvmlog.OVERHEAD + 1 + len(env)
            if g.is_terminal():
                break
        if n >= MATCH_CAP:
            return None
        g.apply(choose(g))
        store.save_game("lets_do_lunch", g.to_bytes())
        n += 1
    dropped = g.engine.games - len(store.records())
    total = live_bytes(store) - sum(nvmlog.OVERHEAD + 1 + len(r[2]) for r in store.records())
    return g.engine.games, total + kept, warned, dropped


def matches(n_matches):
    print("\nLet's Do Lunch, whole matches to 20 through the store on a {}-byte nvm (settings "
          "with seven names, the game saved after every action, each game's record kept)".format(
              NVM))
    print("{:<8} {:>7} {:>11} {:>11} {:>11} {:>9} {:>10} {:>7}".format(
        "play", "matches", "games mean", "games max", "bytes mean", "bytes max", "max % nvm",
        "<= 40%"))
    out = {}
    for kind in (Computer, Seeded, Random):
        got = [match_through_store(kind(1000 + s)) for s in range(n_matches)]
        got = [m for m in got if m is not None]
        n = [m[0] for m in got]
        b = [m[1] for m in got]
        under = sum(1 for x in b if x <= 0.4 * NVM)
        row = {"matches": len(got), "games_mean": statistics.mean(n), "games_max": max(n),
               "dropped": sum(1 for m in got if m[3]),
               "bytes_mean": statistics.mean(b), "bytes_max": max(b),
               "bytes_median": statistics.median(b), "games_median": statistics.median(n),
               "share_mean": statistics.mean(b) / NVM, "share_max": max(b) / NVM,
               "within_40": under / len(got), "warned": sum(1 for m in got if m[2]),
               "per_game": statistics.mean(
                   (x - live_fixed()) / k for x, k in zip(b, n))}
        out[kind.label] = row
        print("{:<8} {:>7} {:>11.1f} {:>11} {:>11.0f} {:>9} {:>9.1f}% {:>6.0f}%".format(
            kind.label, len(got), row["games_mean"], row["games_max"], row["bytes_mean"],
            row["bytes_max"], 100 * row["share_max"], 100 * row["within_40"]))
    for label, row in out.items():
        print("{}: the median match {:.0f} games, {:.0f} bytes, {:.1f}% of the nvm; mean {:.1f}%,"
              " {:.0f} bytes a game of the match; the warning before a match showed {} times; "
              "{:.0f}% of the matches within 40%".format(
                  label, row["games_median"], row["bytes_median"],
                  100 * row["bytes_median"] / NVM, 100 * row["share_mean"], row["per_game"],
                  row["warned"], 100 * row["within_40"]))
        print("  matches too long for the store (a game not pulled dropped): {}".format(
            row["dropped"]))
    return out


def live_fixed():
    """The store's bytes besides the match's records and its saved game: the base record and
    the settings."""
    return BASE_SIZE + nvmlog.OVERHEAD + len(AppSettings(names=NAMES).to_bytes())


def compare(now, path):
    """The figures of ``path`` (this bench's --json of another record format) beside these."""
    with open(path) as f:
        then = json.load(f)
    if then.get("format") == now["format"]:
        return
    print("\nFormat {} (from {}) -> format {} (now)".format(
        then["format"], os.path.relpath(path, ROOT), now["format"]))
    print("{:<22} {:>14} {:>14} {:>16}".format("game, play", "record mean", "record max",
                                                "log rec mean"))
    for key in sorted(now["records"]):
        a, b = then["records"].get(key), now["records"][key]
        if a is None:
            continue
        print("{:<22} {:>6.1f} -> {:>5.1f} {:>6} -> {:>5} {:>7.1f} -> {:>6.1f}".format(
            key, a["mean"], b["mean"], a["max"], b["max"], a["log_mean"], b["log_mean"]))
    for kind in sorted(now["matches"]):
        a, b = then["matches"].get(kind), now["matches"][kind]
        if a is None:
            continue
        print("Let's Do Lunch match, {}: the median {:.0f} games {:.1f}% -> {:.1f}% of the nvm;"
              " {:.0f}% -> {:.0f}% of the matches within 40%".format(
                  kind, b["games_median"], 100.0 * a["bytes_median"] / NVM,
                  100.0 * b["bytes_median"] / NVM, 100 * a["within_40"], 100 * b["within_40"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="play-throughs of each kind a game")
    ap.add_argument("--matches", type=int, default=100, help="Let's Do Lunch matches each kind")
    ap.add_argument("--json", help="also write the figures to this file")
    ap.add_argument("--compare", default=os.path.join(ROOT, "bench", "data",
                                                       "record_sizes_format1.json"),
                    help="this bench's figures for another record format, printed beside")
    args = ap.parse_args()
    recs = sizes(args.games)
    out = {"format": games.record(games.new("space_lunch"))[0], "records": recs,
           "record_bytes": record_bytes(recs), "matches": matches(args.matches)}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1, sort_keys=True)
            f.write("\n")
    if args.compare and os.path.exists(args.compare):
        compare(out, args.compare)


if __name__ == "__main__":
    main()
