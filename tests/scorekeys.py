"""Key scripts for the table scoreboards (docs/scoring.md): the presses a player makes to enter an
action, worked out from a shadow copy of the rules object the way the screen lays out its list
(firmware/companion/games/: aqua_brunch/score.py, space_battle/entry.py, space_days/entry.py).
Used by the simulator tests and bench/scoring_presses.py. The list wraps, so the shortest way
round is taken. Also what those tests read back at a game's end: the Game over dialog's
winners line and the finished games kept in nvm."""

from shared_rules.aqua_brunch.score import (
    AQUA,
    ASK_LUNCH,
    ASK_TAKE,
    FOOD,
    LUNCH,
    TAKE,
)

FOOD_ORDER = (6, 5, 4, 3, 2, 1, 0)


def move(start, target, n):
    """Words to move a wrapping list of ``n`` rows from ``start`` to ``target``."""
    down = (target - start) % n
    up = (start - target) % n
    return ["next"] * down if down <= up else ["prev"] * up


def aqua_keys(g, action):
    """Keys for one Aqua Brunch scoreboard entry, on the screen as ``g`` stands."""
    if g.state == ASK_LUNCH:
        rows = [LUNCH + s for s in range(g.n)]
        return move(0, rows.index(action), len(rows) + 1) + ["ok"]
    if g.state == ASK_TAKE:
        rows = [TAKE + s for s in g.pending_take()[2]]  # the list starts on the default
        return move(rows.index(TAKE + g.default_take()), rows.index(action),
                    len(rows) + 1) + ["ok"]
    step = g.step()
    if step < 3:
        legal = g.legal_actions()
        return move(legal.index(g.likely_card()), legal.index(action), len(legal) + 1) + ["ok"]
    left = g.foods_left(g.seat)
    rows = [FOOD + i for i in FOOD_ORDER if i in left]
    aqua_row = g.aqua[g.seat] < 0 and g.aqua_taken() != 15
    n = len(rows) + (2 if aqua_row else 1)  # the foods, Aqua cards (when any is free), Scores
    if action >= FOOD:
        return move(0, rows.index(action), n) + ["ok"]
    words = move(0, len(rows), n) + ["ok"]  # "Aqua cards": the tick list, on its first card
    taken = g.aqua_taken()
    free = [i for i in range(4) if not taken >> i & 1]
    at = 1
    for r in range(len(free)):
        if (action - AQUA) >> free[r] & 1:
            words += move(at, r + 1, len(free) + 1) + ["ok"]
            at = r + 1
    return words + move(at, 0, len(free) + 1) + ["ok"]


def aqua_round(g, entries):
    """Apply a round's entries to the shadow ``g``; returns the words."""
    words = []
    for a in entries:
        words += aqua_keys(g, a)
        g.apply(a)
    return words


def number_keys(start, value):
    return (["next"] * (value - start) if value >= start else ["prev"] * (start - value)) + ["ok"]


def counter_keys(counts, start_counts=None, rows=5, first=0):
    """A Counter screen (row 0 Done, then one row per count; the cursor starts on row
    ``first`` + 1): OK on a row adds one, wrapping after 9; undo (long:back) takes one off.
    Returns words ending with OK on Done."""
    start_counts = start_counts or [0] * rows
    n = rows + 1
    words = []
    at = first + 1
    for i in range(rows):
        add = (counts[i] - start_counts[i]) % 10
        take = start_counts[i] - counts[i]
        if add:
            words += move(at, i + 1, n)
            words += ["long:back"] * take if 0 < take < add else ["ok"] * add
            at = i + 1
    return words + move(at, 0, n) + ["ok"]


def days_keys(g, action):
    """Keys for one Space Days scoring entry (a top card, or a tied board's card count)."""
    from shared_rules.space_days.score import COUNT

    e = g.entering()
    if e is not None:
        from companion.games.space_days.entry import likely

        legal = g.legal_actions()  # 0 (empty) then the cards that fit, in kind order
        start = legal.index(likely(e[1]) + 1)
        return move(start, legal.index(action), len(legal) + 2) + ["ok"]
    lo = max(1, g.min_cards(g.asking()))
    return ["ok"] + number_keys(lo, action - COUNT)


def race_keys(g, action):
    """Keys for one race entry on the race list (games/space_battle/entry.py): "No
    serve"/"End turn" (the list starts there), a "Scored N" row, "More points" (a picker from
    TOP + 1), "Scored, go on" (the same rows, MORE + points), or the flavours of a tied seat."""
    from companion.games.space_battle.entry import SPLIT, TOP
    from shared_rules.space_battle.race import FLAVOUR, MORE

    if action >= FLAVOUR:
        return ["ok"] + number_keys(0, action - FLAVOUR)
    high = list(range(SPLIT, TOP + 1))
    low = list(range(1, SPLIT))
    if action < MORE:
        rows = [0] + high + ["more", "check", "scores", "go on"] + low
        if action in rows:
            return move(0, rows.index(action), len(rows)) + ["ok"]
        return move(0, rows.index("more"), len(rows)) + ["ok"] + number_keys(TOP + 1, action)
    words = race_keys_to(g, "go on") + ["ok"]
    p = action - MORE
    rows = high + ["more"] + low
    if p in rows:
        return words + move(0, rows.index(p), len(rows)) + ["ok"]
    return words + move(0, rows.index("more"), len(rows)) + ["ok"] + number_keys(TOP + 1, p)


def race_keys_to(g, row):
    """Moves from the race list's start to ``row`` ("more", "check", "scores", "go on")."""
    from companion.games.space_battle.entry import SPLIT, TOP

    rows = [0] + list(range(SPLIT, TOP + 1)) + ["more", "check", "scores", "go on"]
    return move(0, rows.index(row), len(rows) + SPLIT - 1)


def game_over_head(g):
    """The Game over dialog's line under its title for ``g``'s winners (seats named P1...)."""
    w = g.winners()
    if len(w) == 1:
        return "P{} wins".format(w[0] + 1)
    return " & ".join("P{}".format(s + 1) for s in w) + " win"


def finished_games(nvm):
    """The finished games kept in ``nvm`` (a simulator's), oldest first: (unix time, seat
    names, record) each, as keeping.keep_record wrapped them."""
    from companion.store.records import KIND_GAME, open_envelope
    from companion.store.store import Store

    return [open_envelope(KIND_GAME, r[2]) for r in Store(nvm).records() if r[1] == KIND_GAME]
