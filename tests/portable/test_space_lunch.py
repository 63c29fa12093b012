"""Space Lunch solo: the rulebook's sequences, every end condition, bad input, and undo and
saves through the protocol (games.new("space_lunch", difficulty))."""

import _space_lunch
from _space_lunch import OPENING

from _harness import raises
from shared_rules import games
from shared_rules.space_lunch.rules import (
    AUTOMA,
    AUTOMA_SEAT,
    EASY,
    EXTREME,
    HARD,
    HUMAN,
    MEDIUM,
    Solo,
    cell,
    chill_jar,
    decode,
    describe,
    hot_drink,
    jelly_bubbles,
    take,
)


def opened(difficulty=EASY, cards=OPENING):
    return _space_lunch.opened(Solo(difficulty), cards)


def snapshot(g):
    return (list(g.grid), g.deck, list(g.bottom), list(g.pending), [list(x) for x in g.taken],
            g.pick, g.solo, g.turn, g.coupons, g.acted, g.winner, g.reason)


def test_setup_asks_for_nine_cards_then_deck_is_27():
    g = Solo(MEDIUM)
    assert g.pending == list(range(9))
    assert g.legal_actions() == list(range(1, 13))
    for t in OPENING:
        g.apply(t)
    assert g.deck == 27 and g.grid == OPENING and not g.pending
    assert g.coupons == 1 and g.pick == 0 and g.solo == 2 and g.turn == HUMAN
    assert g.legal_actions()[:3] == [take(1, 1), take(1, 2), take(1, 3)]


def test_difficulty_table():
    got = [(Solo(d).coupons, Solo(d).pairs_needed()) for d in (EASY, MEDIUM, HARD, EXTREME)]
    assert got == [(2, 4), (1, 4), (2, 3), (1, 3)]


def test_rulebook_sequence_automa_takes_and_tokens_wrap():
    g = opened()
    g.apply(take(1, 1))  # human: food 1, the Pick token moves to column 2
    assert g.pending == [cell(1, 1)] and g.turn == AUTOMA_SEAT and g.pick == 1
    g.apply(10)
    assert g.legal_actions() == [AUTOMA]
    g.apply(AUTOMA)  # (column 2, bottom) = food 8
    assert g.taken[AUTOMA_SEAT][8] == 1 and g.grid[cell(2, 3)] == 0
    assert g.pick == 2 and g.solo == 1  # Solo token up to the middle row
    g.apply(11)
    assert g.grid[cell(2, 3)] == 11
    g.apply(take(3, 2))  # human: food 6; the Pick token wraps right to left
    assert g.pick == 0
    g.apply(12)
    g.apply(AUTOMA)  # (column 1, middle) = food 4
    assert g.taken[AUTOMA_SEAT][4] == 1 and g.solo == 0 and g.pick == 1
    g.apply(1)
    g.apply(take(2, 1))  # human: food 2
    g.apply(2)
    g.apply(AUTOMA)  # (column 3, top) = food 3
    assert g.taken[AUTOMA_SEAT][3] == 1
    assert g.solo == 2  # the Solo token wraps from the top row to the bottom
    assert g.pick == 0
    assert g.taken[HUMAN][1] == 1 and g.taken[HUMAN][6] == 1 and g.taken[HUMAN][2] == 1
    assert g.deck == 22 and g.pending == [cell(3, 1)]  # one refill still to enter


# The human takes (1,1), (3,3), (2,1) in turn; the Automa takes (2,3), (1,2), (3,1) in turn:
# each refill is taken by the same side three turns later.
HUMAN_CELLS = (cell(1, 1), cell(3, 3), cell(2, 1))
AUTOMA_CELLS = (cell(2, 3), cell(1, 2), cell(3, 1))


def scripted(difficulty, human, automa, filler):
    """A solo game where the human takes the foods in ``human`` in that order and the Automa
    those in ``automa`` (then spares), the other three cards being ``filler``. Returns the
    game and the number of Automa takes."""
    g = Solo(difficulty)
    human, filler = list(human), list(filler)
    # The Automa's first three takes are the opening cards of its cells, in its order.
    opening = {AUTOMA_CELLS[0]: automa[0], AUTOMA_CELLS[1]: automa[1],
               AUTOMA_CELLS[2]: automa[2]}
    automa = list(automa[3:])
    for c in range(9):
        if c in HUMAN_CELLS:
            g.apply(human.pop(0))
        elif c in opening:
            g.apply(opening[c])
        else:
            g.apply(filler.pop(0))
    takes = 0
    while not g.is_over():
        if g.pending:
            g.apply((human if g.pending[0] in HUMAN_CELLS else automa).pop(0))
        elif g.turn == AUTOMA_SEAT:
            assert g.automa_cell() == AUTOMA_CELLS[takes % 3]
            g.apply(AUTOMA)
            takes += 1
        else:
            c = HUMAN_CELLS[takes % 3]  # the human's turn k comes after k Automa takes
            g.apply(take(c % 3 + 1, c // 3 + 1))
    return g, takes


def test_human_victory_with_three_triplets_ends_at_once():
    g, automa = scripted(EASY, [1, 2, 3, 1, 2, 3, 1, 2, 3, 12, 12, 12],
                         [4, 5, 6, 7, 8, 9, 11, 10, 4, 5, 6], [10, 11, 10])
    assert g.winner == HUMAN and g.reason == "triplets"
    assert g.triplets(HUMAN) == 3 and automa == 8
    assert g.pending == [] and g.legal_actions() == []
    with raises(ValueError, "over"):
        g.apply(AUTOMA)


def test_automa_victory_with_four_pairs_on_easy():
    g, automa = scripted(EASY, [1, 2, 3, 1, 2, 3, 12, 11, 12, 11, 1, 2],
                         [4, 4, 5, 5, 6, 6, 7, 7, 8, 9, 8, 9], [10, 10, 10])
    assert g.winner == AUTOMA_SEAT and g.reason == "pairs" and automa == 8
    assert g.pairs(AUTOMA_SEAT) == 4


def test_automa_victory_with_three_pairs_on_hard():
    g, automa = scripted(HARD, [1, 2, 3, 1, 2, 3, 12, 11, 12, 11, 1, 2],
                         [4, 4, 5, 5, 6, 6, 7, 7, 8, 9, 8, 9], [10, 10, 10])
    assert g.winner == AUTOMA_SEAT and g.reason == "pairs" and automa == 6


def test_automa_triplets_do_not_count_as_pairs():
    # 4,4 is a pair, the third 4 makes it a triplet: the third pair comes only at take 9.
    g, automa = scripted(EXTREME, [1, 2, 3, 1, 2, 3, 12, 11, 1, 12, 11, 2],
                         [4, 4, 4, 5, 5, 6, 6, 7, 7, 8, 9, 8], [10, 10, 10])
    assert g.winner == AUTOMA_SEAT and automa == 9
    assert g.taken[AUTOMA_SEAT][4] == 3 and g.pairs(AUTOMA_SEAT) == 3


def test_persistence_victory_exactly_when_six_cards_are_left():
    from shared_rules.rng import Rng

    rng = Rng(77)
    found = 0
    for _ in range(60):
        deck = _space_lunch.deck(rng)
        g = Solo(EASY)
        while not g.is_over():
            if g.pending:
                g.apply(deck.pop(0))
                continue
            before = g.grid_cards()
            g.apply(g.legal_actions()[rng.randbelow(3) if g.turn == HUMAN else 0])
            if g.reason == "persistence":
                assert before == 7 and g.grid_cards() == 6 and g.deck == 0
            elif not g.is_over():
                assert g.grid_cards() >= 7
        if g.reason == "persistence":
            found += 1
            assert g.winner == AUTOMA_SEAT
            assert sum(g.taken[0]) + sum(g.taken[1]) == 30
    assert found >= 3


def test_empty_space_rule_takes_next_card_upward():
    g = opened()
    g.deck = 0  # as if the deck had run out (the rule applies only then)
    g.apply(chill_jar(2, 3))  # the human takes the Automa's card (column 2, bottom)
    assert g.pending == [] and g.turn == AUTOMA_SEAT
    assert g.automa_cell() == cell(2, 2)
    g.apply(AUTOMA)  # so it takes the next card upward: (2, 2), food 5
    assert g.taken[AUTOMA_SEAT][5] == 1 and g.solo == 1
    g2 = opened()
    g2.deck = 0
    g2.solo = 0  # top row: upward wraps to the bottom
    g2.apply(chill_jar(2, 1))
    assert g2.automa_cell() == cell(2, 3)


def test_hot_drink_sends_card_under_and_it_comes_back():
    g = opened()
    g.apply(hot_drink(2, 2))  # food 5 goes under the deck
    assert g.deck == 28 and g.bottom == [5] and g.pending == [cell(2, 2)]
    assert g.coupons == 1 and g.acted
    with raises(ValueError, "enter the new card"):
        g.apply(take(1, 1))
    g.apply(10)
    assert g.deck == 27 and g.grid[cell(2, 2)] == 10
    assert g.known(5) == 1  # still accounted for
    with raises(ValueError, "one coupon per turn"):
        g.apply(hot_drink(1, 1))
    # Run the deck down to the food 5 at the bottom: it is the only card that may come up.
    g.deck = 1
    g.apply(take(1, 1))
    assert g.legal_actions() == [5]
    with raises(ValueError, "put under the deck"):
        g.apply(7)
    g.apply(5)
    assert g.bottom == [] and g.deck == 0


def test_jelly_bubbles_and_chill_jar():
    g = opened(HARD)
    g.apply(jelly_bubbles(2, 1, 3, 3))
    assert g.grid[cell(2, 1)] == 9 and g.grid[cell(3, 3)] == 2 and g.turn == HUMAN
    g.apply(take(1, 3))
    g.apply(10)
    g.apply(AUTOMA)
    g.apply(11)
    assert g.coupons == 1 and g.pick == 2
    g.apply(chill_jar(1, 2))  # the human takes food 4 from column 1; the Pick token moves on
    assert g.taken[HUMAN][4] == 1 and g.pick == 0 and g.turn == AUTOMA_SEAT
    assert g.coupons == 0
    g.apply(12)
    g.apply(AUTOMA)
    g.apply(12)
    with raises(ValueError, "no coupon left"):
        g.apply(chill_jar(2, 1))


def test_bad_input_leaves_state_unchanged():
    g = opened()
    before = snapshot(g)
    cases = [
        (take(2, 1), "Pick token"),
        (AUTOMA, "your turn"),
        (0, "unknown action"),
        (250, "unknown action"),
        ("x", "unknown action"),
        (jelly_bubbles(1, 1, 2, 2), "Pick token is there"),
        (chill_jar(1, 3), "Pick token is there"),
        (hot_drink(1, 1, True), "no beverage"),
        (5, "no card is expected"),
        (14, "no beverage"),
    ]
    for action, words in cases:
        with raises(ValueError, words):
            g.apply(action)
        assert snapshot(g) == before, action
    g.apply(take(1, 1))
    before = snapshot(g)
    for action, words in ((13, "enter the new card"), (take(2, 2), "enter the new card")):
        with raises(ValueError, words):
            g.apply(action)
    assert snapshot(g) == before
    g.apply(1)
    before = snapshot(g)
    for action, words in ((take(2, 1), "Automa's turn"), (hot_drink(1, 1), "Automa's turn")):
        with raises(ValueError, words):
            g.apply(action)
    assert snapshot(g) == before


def test_fourth_copy_and_food_out_of_range_rejected():
    g = Solo()
    for t in (3, 3, 3):
        g.apply(t)
    before = snapshot(g)
    with raises(ValueError, "all three food 3"):
        g.apply(3)
    for bad in (0, 13, -1, "7", take(1, 1)):
        with raises(ValueError, "a food type 1-12"):
            g.apply(bad)
    assert snapshot(g) == before
    assert 3 not in g.legal_actions()
    with raises(ValueError, "column must be 1-3"):
        take(4, 1)
    with raises(ValueError, "row must be 1-3"):
        hot_drink(1, 0)
    with raises(ValueError, "difficulty"):
        Solo(4)


def test_empty_space_cannot_be_taken():
    g = opened()
    g.deck = 0
    g.apply(chill_jar(3, 1))
    g.apply(AUTOMA)
    assert g.pick == 2 and g.grid_cards() == 7
    with raises(ValueError, "top right is empty"):
        g.apply(take(3, 1))
    g.apply(take(3, 2))
    assert g.winner == AUTOMA_SEAT and g.reason == "persistence"


def test_undo_any_number_of_steps():
    game = games.new("space_lunch", HARD)
    states = [snapshot(game.engine)]
    for a in OPENING + [take(1, 2), 10, AUTOMA, 11, hot_drink(1, 1), 12, take(3, 1), 12]:
        game.apply(a)
        states.append(snapshot(game.engine))
    for back in range(2, len(states) + 1):
        game.undo()
        assert snapshot(game.engine) == states[-back]
    assert not game.can_undo()
    with raises(ValueError, "undo"):
        game.undo()


def test_saved_game_round_trip_and_corruption():
    game = games.new("space_lunch", EXTREME)
    for a in OPENING + [take(1, 1), 10, AUTOMA, 11, jelly_bubbles(1, 1, 2, 2)]:
        game.apply(a)
    data = game.to_bytes()
    h = games.from_bytes(data)
    assert snapshot(h.engine) == snapshot(game.engine) and h.actions() == game.actions()
    h.undo()
    h.undo()
    game.undo()
    game.undo()
    assert snapshot(h.engine) == snapshot(game.engine)
    # a well-framed record whose actions break the rules: a 13th food, a fourth card of one
    # food, a number no action has
    from shared_rules._codec import checksum

    head = data[:5 + len(game.params)]  # format, game, the settings, base length (0)
    for acts in (OPENING + [200], OPENING[:8] + [13], [1, 1, 1, 1]):
        body = head + bytes(acts)
        with raises(ValueError, "action"):
            games.replay(body + checksum(body))


def test_describe_and_decode():
    assert describe(take(1, 2)) == "take middle left"
    assert describe(jelly_bubbles(3, 3, 2, 1)) == "Jelly top middle and bottom right"
    assert describe(hot_drink(2, 2)) == "Hot Drink centre"
    assert decode(chill_jar(3, 1)) == ("chill", cell(3, 1), -1, False)
    seen = set()
    for a in range(9):
        for b in range(a + 1, 9):
            act = jelly_bubbles(a % 3 + 1, a // 3 + 1, b % 3 + 1, b // 3 + 1)
            assert decode(act)[1:3] == (a, b)
            seen.add(act)
    assert len(seen) == 36 and max(seen) < 110


def test_seeded_random_game_with_invariants():
    from shared_rules.rng import Rng

    rng = Rng(2024)
    for difficulty in (EASY, EXTREME):
        deck = [t for t in range(1, 13) for _ in range(3)]
        rng.shuffle(deck)
        game = games.new("space_lunch", difficulty)
        g = game.engine
        while not g.is_over():
            if g.pending:
                a = deck.pop(0)
            else:
                a = rng.choice(g.legal_actions())
                kind, c = decode(a)[:2]
                if kind == "hot":
                    deck.append(g.grid[c])
            game.apply(a)
            assert g.deck == len(deck)
            on_grid = len([t for t in g.grid if t])
            assert on_grid + g.deck + sum(g.taken[0]) + sum(g.taken[1]) == 36
        assert g.winner in (HUMAN, AUTOMA_SEAT)
        h = games.from_bytes(game.to_bytes())
        assert snapshot(h.engine) == snapshot(g)
