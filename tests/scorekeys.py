"""Key scripts for the table scoreboards (issue 15): the presses a player makes to enter an
action, worked out from a shadow copy of the rules object the way the screen lays out its list
(firmware/companion/aqua_score.py, battle_screens.py, days_screens.py). Used by the simulator
tests and bench/scoring_presses.py. The list wraps, so the shortest way round is taken."""

from shared_rules.aqua_brunch_score import (
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
        rows = [TAKE + s for s in g.pending_take()[2]]
        return move(0, rows.index(action), len(rows) + 1) + ["ok"]
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
    from shared_rules.space_days_score import COUNT

    e = g.entering()
    if e is not None:
        from companion.days_screens import likely

        legal = g.legal_actions()  # 0 (empty) then the cards that fit, in kind order
        start = legal.index(likely(e[1]) + 1)
        return move(start, legal.index(action), len(legal) + 2) + ["ok"]
    lo = max(1, g.min_cards(g.asking()))
    return ["ok"] + number_keys(lo, action - COUNT)


def race_keys(g, action):
    """Keys for one race entry: "No serve"/"End turn" (the list starts there), "Points" (ends
    the turn), a serve through the serve check scored "go on" (MORE + points: a one-flavour
    dish served gold), or the flavours of a tied seat."""
    from shared_rules.space_battle_race import FLAVOUR, MORE

    if action >= FLAVOUR:
        return ["ok"] + number_keys(0, action - FLAVOUR)
    if action == 0:
        return ["ok"]
    if action < MORE:
        return ["next", "next", "ok"] + number_keys(0, action)
    need = [1, 0, 0, 0, 0]
    return (["next", "ok"] + counter_keys(need) + counter_keys(need, need)
            + number_keys(1, action - MORE) + ["next", "ok"])
