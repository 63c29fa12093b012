"""Space Lunch (solo): threat warnings and hints, by looking one Automa turn ahead.

``threat(game)`` says which card the Automa takes next and whether that wins it the game.
``hints(game)`` rates every action the human may take now:

- WIN: it wins the game now (three triplets);
- SAFE: the Automa cannot win on its next turn;
- RISK: the Automa wins on its next turn if the refill card is one of ``foods``;
- DANGER: it hands the Automa a win on its next turn;
- LOSE: it ends your turn with six cards on the grid (the Automa's persistence victory).

A Hot Drink or Jelly Bubbles action does not end the turn: it is rated by the best take that
can follow it (for Hot Drink, the worst case over the unknown refill when the refill matters).
``advice(game)`` turns the ratings into one short phrase for a small screen.
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
RISK = 2
DANGER = 3
LOSE = 4
VERDICTS = ("wins", "safe", "risky", "Automa wins next", "loses")


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


def _automa_wins(g):
    """Does the Automa win on its turn from g (its turn, refill entered)?"""
    a = g.copy()
    a.apply(AUTOMA)
    return a.winner == AUTOMA_SEAT


def _after(g):
    """Rate state g just after a human action (refills possibly pending)."""
    if g.is_over():
        return (WIN if g.winner == HUMAN else LOSE), ()
    if not g.pending:
        if g.turn == HUMAN:
            return _best(g)
        return (DANGER if _automa_wins(g) else SAFE), ()
    c = g.pending[0]
    foods = g.refills()
    # A refill matters if the Automa takes it next, or (mid-turn, after Hot Drink) if the human
    # may take it now; otherwise any refill gives the same answer.
    if g.turn == AUTOMA_SEAT:
        matters = g.automa_cell() == c
    else:
        matters = c % 3 == g.pick or g.automa_cell((g.pick + 1) % 3) == c
    if not matters or len(foods) == 1:
        h = g.copy()
        h.apply(foods[0])
        return _after(h)
    worst, bad, good = WIN, [], 0
    for t in foods:
        h = g.copy()
        h.apply(t)
        v = _after(h)[0]
        if v > worst:
            worst, bad = v, [t]
        elif v == worst:
            bad.append(t)
        if v <= SAFE:
            good += 1
    if worst >= DANGER and good:
        return RISK, tuple(bad)  # only some refills hand the Automa the game
    if worst == WIN:
        return WIN, ()
    return worst, (tuple(bad) if worst > SAFE else ())


def _best(g):
    best = None
    for a in g.legal_actions():
        if decode(a)[0] == "take":
            v = _rate(g, a)
            if best is None or v[0] < best[0]:
                best = v
    return best if best is not None else (LOSE, ())


def _rate(g, action):
    h = g.copy()
    h.apply(action)
    return _after(h)


def hints(game, coupons=True):
    """[(action, verdict, foods)] for every action the human may take now (takes only when
    ``coupons`` is False), sorted by action; [] when it is not the human's move."""
    if not _playing(game):
        return []
    out = []
    for a in game.legal_actions():
        if coupons or decode(a)[0] == "take":
            v, foods = _rate(game, a)
            out.append((a, v, foods))
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


def advice(game, short=False):
    """One phrase for the player, at most 32 characters (21 with ``short``), e.g.
    "take row 2 or the Automa wins"; "" when it is not the human's move."""
    if not _playing(game):
        return ""
    hs = hints(game)
    takes = [h for h in hs if decode(h[0])[0] == "take"]
    others = [h for h in hs if decode(h[0])[0] != "take"]
    for group in (takes, others):
        for a, v, _ in group:
            if v == WIN:
                if group is takes:
                    return _row(a) + " wins!" if short else "take " + _row(a) + ": you win!"
                return _coupon(a) + " wins" if short else _coupon(a) + ": you win!"
    safe = [h for h in takes if h[1] == SAFE]
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
    risky = [h for h in takes + others if h[1] == RISK]
    if risky:
        a = risky[0][0]
        text = _row(a) if decode(a)[0] == "take" else _coupon(a)
        return text + " may save" if short else "only " + text + " may save you"
    return "Automa wins next" if short else "the Automa wins next turn"
