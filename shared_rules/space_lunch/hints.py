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

from shared_rules.space_lunch.rules import (
    AUTOMA_SEAT,
    HUMAN,
    TAKE,
    count_sets,
    decode,
    where,
)

WIN = 0
SAFE = 1
LATER = 2
RISK = 3
DANGER = 4
LOSE = 5


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
    pairs = count_sets(counts, 2)
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


# The search below plays the game forward on copies. CircuitPython runs Python frames on a
# fixed stack (CIRCUITPY_PYSTACK_SIZE, 1.5 KB by default; the app's own frames hold half of it
# when the hints run), so it keeps its own list of open positions instead of recursing, and it
# moves the copies through the engine's inner steps (_enter, _end_human_turn, _automa: legal by
# construction) rather than through apply(), which would check them and nest three frames more.


def _search(g, unknown=(), quiet=False):
    """(verdict, foods) of state g just after a human action (refills possibly pending).
    ``quiet``: the human cannot win within the horizon (see _quiet), so refills matter only to
    the Automa. Each open position is a list on ``stack``: [state, unknown, choices, next
    index, best so far] for the human's best take (after Hot Drink or Jelly Bubbles), or
    [state, unknown, foods, next index, share, column foods, seen, worst, bad, good] for a
    refill that matters (rated food by food, worst case first)."""
    stack = []
    while True:
        # down: follow g until it has a verdict, or opens a position whose first choice is next
        while True:
            if g.winner is not None:
                res = (WIN if g.winner == HUMAN else LOSE), ()
                break
            if not g.pending:
                if g.turn == HUMAN:
                    takes = []
                    for c in range(g.pick, 9, 3):
                        if g.grid[c]:
                            takes.append(c)
                    if not takes:
                        res = LOSE, ()
                        break
                    stack.append([g, unknown, takes, 1, None])
                    g = g.copy()
                    g._end_human_turn(takes[0])
                    continue
                a = g.copy()
                a._automa()
                if a.winner == AUTOMA_SEAT:
                    res = DANGER, ()
                    break
                # Does the Automa win on its turn after next, if the human does nothing about
                # it next turn? Stand-in cards are never relied on. (Inline: a frame less.)
                res = SAFE, ()
                unknown = list(unknown)
                while a.pending:  # a stand-in for every awaited card, remembering where
                    unknown.append(a.pending[0])
                    a._enter(a.refills()[0])
                c = a.pick
                while c < 9 and not a.grid[c]:
                    c += 3
                if c >= 9:
                    break  # no take: not this way
                takes = a.taken[HUMAN]
                if count_sets(takes, 3) == 2:
                    for t in range(a.pick, 9, 3):
                        if a.grid[t] and takes[a.grid[t]] == 2 and t not in unknown:
                            c = -1  # the human wins first
                if c < 0:
                    break
                a._end_human_turn(c)
                if a.winner is None:
                    while a.pending:
                        unknown.append(a.pending[0])
                        a._enter(a.refills()[0])
                    if a.automa_cell() in unknown:
                        break
                    a._automa()
                if a.winner == AUTOMA_SEAT:
                    res = LATER, ()
                break
            c = g.pending[0]
            foods = g.refills()
            # A refill matters if the Automa takes it next, or (mid-turn, after Hot Drink) if
            # the human may take it now; otherwise a stand-in gives the same answer.
            if g.turn == AUTOMA_SEAT:
                target = g.automa_cell() == c
            else:
                target = g.automa_cell((g.pick + 1) % 3) == c
            # (the human's own take of it matters only if it could be a third triplet)
            if not (target or (g.turn == HUMAN and c % 3 == g.pick
                               and count_sets(g.taken[HUMAN], 3) == 2)) or len(foods) == 1:
                if len(foods) > 1:
                    unknown = tuple(unknown) + (c,)
                g = g.copy()
                g._enter(foods[0])
                continue
            # When only the Automa can win, a refill it takes next acts only through how many
            # of that food it holds and whether it can pair with its second card (in the
            # column it takes from next-but-one): foods alike in both ways get the same
            # answer, so rate one of each.
            c = g.pick if g.turn == HUMAN else (g.pick + 2) % 3
            stack.append([g, unknown, foods, 1, quiet and target,
                          [g.grid[c], g.grid[c + 3], g.grid[c + 6]], {}, WIN, [], 0])
            g = g.copy()
            g._enter(foods[0])
        # up: hand the verdict to the open positions until one has a choice left to try
        while stack:
            node = stack[-1]
            i = node[3]
            h = node[0]
            choices = node[2]
            if len(node) == 5:  # the best take
                if node[4] is None or res[0] < node[4][0]:
                    node[4] = res
                if i < len(choices):
                    node[3] = i + 1
                    unknown = node[1]
                    g = h.copy()
                    g._end_human_turn(choices[i])
                    break
                res = node[4]
                stack.pop()
                continue
            v = res[0]
            while True:
                t = choices[i - 1]
                node[6][h.taken[AUTOMA_SEAT][t] * 16 + (t if t in node[5] else 0)] = v
                if v > node[7]:
                    node[7] = v
                    node[8] = [t]
                elif v == node[7]:
                    node[8].append(t)
                if v <= SAFE:
                    node[9] += 1
                if i == len(choices):
                    break
                t = choices[i]
                i += 1
                v = node[6].get(h.taken[AUTOMA_SEAT][t] * 16 + (t if t in node[5] else 0)) \
                    if node[4] else None
                if v is None:
                    break
            if v is None:
                node[3] = i
                unknown = node[1]
                g = h.copy()
                g._enter(choices[i - 1])
                break
            v = node[7]  # the worst verdict; node[8] the foods that give it
            if v >= DANGER and node[9]:
                res = RISK, tuple(node[8])  # only some refills hand the Automa the game
            elif v <= SAFE or len(node[8]) == len(choices):
                res = v, ()
            else:
                res = v, tuple(node[8])
            stack.pop()
        else:
            return res


def _rate(g, action, unknown=(), quiet=False):
    h = g.copy()
    h.apply(action)
    return _search(h, unknown, quiet)


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
            h = game.copy()
            h.apply(a)
            v = _search(h, (), quiet)
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
                    h = game.copy()
                    h.apply(a)
                    v = jelly[food] = _search(h, (), quiet)
        elif quiet and far and kind == "hot" and x != t1 and x % 3 != game.pick:
            v = best
        if v is None:
            h = game.copy()
            h.apply(a)
            v = _search(h, (), quiet)
        out.append((a, v[0], v[1]))
    out.sort()
    return out


def _row(a):
    return "row {}".format((a - TAKE) // 3 + 1)


def _say(n, a, phrase):
    """``phrase`` about coupon action ``a``, with its cards' places when it fits in ``n``
    characters, else with the coupon's name alone (its menu starts on the suggested card)."""
    kind, x, y, _ = decode(a)
    name = "Hot Drink" if kind == "hot" else "Chill Jar" if kind == "chill" else "Jelly"
    at = where(x) if kind != "jelly" else where(x) + " and " + where(y)
    text = phrase.format(name + " " + at)
    return text if len(text) <= n else phrase.format(name)


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


def coupons_matter(game, takes):
    """Does advice() rate the coupon actions (none of ``takes`` wins, and a coupon might, or
    no take is safe)?"""
    for h in takes:
        if h[1] == WIN:
            return False
    if _coupon_may_win(game):
        return True
    for h in takes:
        if h[1] == SAFE:
            return False
    return game.coupons and not game.acted


def advice(game, short=False, takes=None, every=None):
    """One phrase for the player, at most 38 characters (the colour display's bottom line;
    21 with ``short``, the OLED's), e.g.
    "take row 2 or the Automa wins"; "" when it is not the human's move. A card's place in
    words where it fits; where it does not, the phrase leaves it out (the grid marks the
    Automa's next card, a coupon's menu starts on the suggested one). Rates the coupon
    actions only when they could matter (they cost far more than the three takes).
    ``takes`` and ``every``: this position's hints(game, False) and hints(game), when the
    caller has them already."""
    if not _playing(game):
        return ""
    n = 21 if short else 38
    if takes is None:
        takes = hints(game, coupons=False)
    for a, v, _ in takes:
        if v == WIN:
            return _row(a) + " wins!" if short else "take " + _row(a) + ": you win!"
    safe = [h for h in takes if h[1] == SAFE]  # LATER and worse count as unsafe
    others = []
    if coupons_matter(game, takes):
        if every is None:
            every = hints(game)
        others = [h for h in every if not TAKE <= h[0] < TAKE + 9]
    for a, v, _ in others:
        if v == WIN:
            return _say(n, a, "{} wins" if short else "{}: you win!")
    if len(safe) == len(takes):
        t = threat(game)
        if t is None or not t[1]:
            return "no danger"
        for text in ("Automa next: {}, food {}".format(where(t[0]), t[1]),
                     "Automa next: " + where(t[0])):
            if len(text) <= n:
                return text
        return "Automa next: food {}".format(t[1])
    if len(safe) == 1:
        row = _row(safe[0][0])
        return row + " or Automa wins" if short else "take " + row + " or the Automa wins"
    if safe:
        bad = [h for h in takes if h[1] != SAFE][0]
        return "avoid " + _row(bad[0]) + ("!" if short else ": the Automa wins")
    for a, v, _ in others:
        if v == SAFE:
            return _say(n, a, "{} saves" if short else "use {} to save")
    best = min(h[1] for h in takes)
    if best == LATER:
        return "Automa wins soon" if short else "the Automa wins in two turns"
    for a, v, _ in takes + others:
        if v == RISK:
            if TAKE <= a < TAKE + 9:
                return _row(a) + " may save" if short else "only " + _row(a) + " may save you"
            return _say(n, a, "{} may save" if short else "only {} may save you")
    return "Automa wins next" if short else "the Automa wins next turn"
