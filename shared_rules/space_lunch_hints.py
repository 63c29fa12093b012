"""Space Lunch (solo): threat warnings and hints, looking up to two Automa turns ahead.

``threat(game)`` says which card the Automa takes next and whether that wins it the game.
``hints(game)`` rates every action the human may take now:

- WIN: it wins the game now (three triplets);
- SAFE: the Automa cannot win on its next two turns through the cards it is known to take;
- LATER: the Automa wins on its turn after next (its card then is in today's Pick column, so
  only taking it now, or a coupon next turn, stops it);
- RISK: the Automa wins on its next turn if the refill card is one of ``foods``;
- DANGER: it hands the Automa a win on its next turn;
- LOSE: it ends your turn with six cards on the grid (the Automa's persistence victory).

When the answer depends on an unknown refill, the worst case is given and ``foods`` lists the
refills that lead to it (empty when every refill does). RISK is that worst case when it is
"the Automa wins next" and other refills are safe.

A food take never changes the Automa's next card (it is in the next column), only the one after;
coupons can change both. A Hot Drink or Jelly Bubbles action does not end the turn: it is rated
by the best take that can follow it (for Hot Drink, the worst case over the unknown refill when
the refill matters). ``advice(game)`` turns the ratings into one short phrase.
"""

from shared_rules.space_lunch import (
    AUTOMA,
    AUTOMA_SEAT,
    HUMAN,
    TAKE,
    decode,
    where,
)

WIN = 0
SAFE = 1
LATER = 2
RISK = 3
DANGER = 4
LOSE = 5
VERDICTS = ("wins", "safe", "Automa wins after next", "risky", "Automa wins next", "loses")


def _playing(game):
    return not game.is_over() and not game.pending and game.turn == HUMAN


def threat(game):
    """(cell, food, wins) for the Automa's next take if the human leaves the grid as it is:
    food 0 when that card is not known yet; wins is True when that take (or the persistence
    rule right after it) wins the game for the Automa. None when the game is over."""
    if game.is_over():
        return None
    col = game.pick if game.turn == AUTOMA_SEAT else (game.pick + 1) % 3
    c = game.automa_cell(col)
    if c < 0:
        return None
    food = game.grid[c]
    if not food:
        return (c, 0, False)
    counts = game.taken[AUTOMA_SEAT]
    counts[food] += 1
    pairs = 0
    for t in range(1, 13):
        if counts[t] == 2:
            pairs += 1
    counts[food] -= 1
    # The persistence rule: count the grid after the human's take (if still to come) and the
    # Automa's; a refill keeps the count while the deck lasts.
    cards, deck = game.grid_cards(), game.deck
    for _ in range(2 if game.turn == HUMAN else 1):
        if deck:
            deck -= 1
        else:
            cards -= 1
    wins = pairs >= game.pairs_needed() or cards <= 6
    return (c, food, wins)


def _fill(g, unknown):
    """Enter a stand-in for every awaited card, remembering where they went."""
    while g.pending:
        unknown.append(g.pending[0])
        g.apply(g.refills()[0])


def _later(g, unknown):
    """From g (the Automa to move, refills entered): does the Automa win on its turn after
    next, if the human does nothing about it next turn? Stand-in cards are never relied on."""
    a = g.copy()
    a.apply(AUTOMA)
    if a.is_over():
        return a.winner == AUTOMA_SEAT
    unknown = list(unknown)
    _fill(a, unknown)
    takes = [x for x in a.legal_actions() if TAKE <= x < TAKE + 9]
    if not takes:
        return False
    if a.triplets(HUMAN) == 2:
        for x in takes:
            food = a.grid[x - TAKE]
            if a.taken[HUMAN][food] == 2 and x - TAKE not in unknown:
                return False  # the human wins first
    a.apply(takes[0])
    if a.is_over():
        return a.winner == AUTOMA_SEAT
    _fill(a, unknown)
    if a.automa_cell() in unknown:
        return False
    a.apply(AUTOMA)
    return a.winner == AUTOMA_SEAT


def _after(g, unknown=(), quiet=False):
    """Rate state g just after a human action (refills possibly pending). ``quiet``: the human
    cannot win within the horizon (see _quiet), so refills matter only to the Automa."""
    if g.is_over():
        return (WIN if g.winner == HUMAN else LOSE), ()
    if not g.pending:
        if g.turn == HUMAN:
            return _best(g, unknown, quiet)
        a = g.copy()
        a.apply(AUTOMA)
        if a.winner == AUTOMA_SEAT:
            return DANGER, ()
        return (LATER if _later(g, unknown) else SAFE), ()
    c = g.pending[0]
    foods = g.refills()
    # A refill matters if the Automa takes it next, or (mid-turn, after Hot Drink) if the human
    # may take it now; otherwise a stand-in gives the same answer.
    if g.turn == AUTOMA_SEAT:
        target = g.automa_cell() == c
    else:
        target = g.automa_cell((g.pick + 1) % 3) == c
    # (the human's own take of it matters only if it could be a third triplet)
    matters = target or (g.turn == HUMAN and c % 3 == g.pick and g.triplets(HUMAN) == 2)
    if not matters or len(foods) == 1:
        h = g.copy()
        h.apply(foods[0])
        return _after(h, tuple(unknown) + ((c,) if len(foods) > 1 else ()), quiet)
    # When only the Automa can win, a refill it takes next acts only through how many of that
    # food it holds and whether it can pair with its second card (in the column it takes from
    # next-but-one): foods alike in both ways get the same answer, so rate one of each.
    col2 = g.pick if g.turn == HUMAN else (g.pick + 2) % 3
    col_foods = [g.grid[x] for x in range(col2, 9, 3)]
    seen = {}
    worst, bad, good = WIN, [], 0
    for t in foods:
        key = g.taken[AUTOMA_SEAT][t] * 16 + (t if t in col_foods else 0)
        v = seen.get(key) if quiet and target else None
        if v is None:
            h = g.copy()
            h.apply(t)
            v = _after(h, unknown, quiet)[0]
            seen[key] = v
        if v > worst:
            worst, bad = v, [t]
        elif v == worst:
            bad.append(t)
        if v <= SAFE:
            good += 1
    if worst >= DANGER and good:
        return RISK, tuple(bad)  # only some refills hand the Automa the game
    if worst <= SAFE or len(bad) == len(foods):
        return worst, ()
    return worst, tuple(bad)


def _best(g, unknown=(), quiet=False):
    best = None
    for a in g.legal_actions():
        if TAKE <= a < TAKE + 9:
            v = _rate(g, a, unknown, quiet)
            if best is None or v[0] < best[0]:
                best = v
    return best if best is not None else (LOSE, ())


def _rate(g, action, unknown=(), quiet=False):
    h = g.copy()
    h.apply(action)
    return _after(h, unknown, quiet)


def _quiet(g):
    """True when no take this turn can give the human a second triplet: then the human cannot
    win before the Automa's second turn, and the hints may share work (below)."""
    n = g.triplets(HUMAN)
    for t in range(1, 13):
        if g.taken[HUMAN][t] == 2:
            return n == 0
    return n < 2


def hints(game, coupons=True):
    """[(action, verdict, foods)] for every action the human may take now (takes only when
    ``coupons`` is False), sorted by action; [] when it is not the human's move."""
    if not _playing(game):
        return []
    quiet = _quiet(game)
    acts = game.legal_actions()
    out = []
    best = None
    for a in acts:
        if TAKE <= a < TAKE + 9:
            v = _rate(game, a, (), quiet)
            out.append((a, v[0], v[1]))
            if best is None or v[0] < best[0]:
                best = v
    if not coupons:
        return out
    # Shortcuts while the human cannot win soon: a coupon action that leaves the Automa's next
    # card (t1) alone rates like the best plain take: Jelly Bubbles away from t1, and Hot Drink
    # outside the Pick column and t1 (while the deck is far from the cards sent under it).
    # Jelly Bubbles onto t1 depends only on the food moved there.
    t1 = game.automa_cell((game.pick + 1) % 3)
    far = game.deck >= len(game.bottom) + 5
    jelly = {}
    for a in acts:
        if TAKE <= a < TAKE + 9:
            continue
        kind, x, y, _ = decode(a)
        v = None
        if quiet and kind == "jelly":
            if x != t1 and y != t1:
                v = best
            else:
                food = game.grid[y if x == t1 else x]
                v = jelly.get(food)
                if v is None:
                    v = jelly[food] = _rate(game, a, (), quiet)
        elif quiet and far and kind == "hot" and x != t1 and x % 3 != game.pick:
            v = best
        if v is None:
            v = _rate(game, a, (), quiet)
        out.append((a, v[0], v[1]))
    out.sort()
    return out


def _row(a):
    return "row {}".format((a - TAKE) // 3 + 1)


def _coupon(a):
    kind, x, y, _ = decode(a)
    if kind == "hot":
        return "Hot Drink " + where(x)
    if kind == "chill":
        return "Chill Jar " + where(x)
    return "Jelly " + where(x) + "+" + where(y)


def _coupon_may_win(g):
    """Could a coupon action win now? By Chill Jar on the last card of a third triplet, or by
    Hot Drink in the Pick column when the refill is known (a card sent under the deck comes
    back up) and is that last card."""
    if not g.coupons or g.acted or g.triplets(HUMAN) < 2:
        return False
    if g.bottom and g.deck == len(g.bottom) and g.taken[HUMAN][g.bottom[0]] == 2:
        return True
    for c in range(9):
        if g.grid[c] and c % 3 != g.pick and g.taken[HUMAN][g.grid[c]] == 2:
            return True
    return False


def advice(game, short=False):
    """One phrase for the player, at most 32 characters (21 with ``short``), e.g.
    "take row 2 or the Automa wins"; "" when it is not the human's move. Rates the coupon
    actions only when they could matter (they cost far more than the three takes)."""
    if not _playing(game):
        return ""
    takes = hints(game, coupons=False)
    for a, v, _ in takes:
        if v == WIN:
            return _row(a) + " wins!" if short else "take " + _row(a) + ": you win!"
    safe = [h for h in takes if h[1] == SAFE]  # LATER and worse count as unsafe
    others = []
    if _coupon_may_win(game) or (not safe and game.coupons and not game.acted):
        others = [h for h in hints(game) if not TAKE <= h[0] < TAKE + 9]
    for a, v, _ in others:
        if v == WIN:
            return _coupon(a) + " wins" if short else _coupon(a) + ": you win!"
    if len(safe) == len(takes):
        t = threat(game)
        if t is None or not t[1]:
            return "no danger"
        text = "Automa next: " + where(t[0])
        return text if short else "{}, food {}".format(text, t[1])
    if len(safe) == 1:
        row = _row(safe[0][0])
        return row + " or Automa wins" if short else "take " + row + " or the Automa wins"
    if safe:
        bad = [h for h in takes if h[1] != SAFE][0]
        return "avoid " + _row(bad[0]) + ("!" if short else ": the Automa wins")
    for a, v, _ in others:
        if v == SAFE:
            return _coupon(a) + " saves" if short else "use " + _coupon(a) + " to save"
    best = min(h[1] for h in takes)
    if best == LATER:
        return "Automa wins soon" if short else "the Automa wins in two turns"
    for a, v, _ in takes + others:
        if v == RISK:
            text = _row(a) if TAKE <= a < TAKE + 9 else _coupon(a)
            return text + " may save" if short else "only " + text + " may save you"
    return "Automa wins next" if short else "the Automa wins next turn"
