"""A Let's Do Lunch match keeps a record each game. The memory warning before a match counts
one record, so when a game's record leaves no room for the next without pushing out a game
not pulled yet, the box says so there and then (a toast), not silently at the next game."""

from companion.game import MSG_FULL


def _match(simulate, profile, apps):
    sim = simulate(profile, "wait:3000 next ok ok")  # Let's Do Lunch, a new match
    app = apps[-1]
    assert type(app.top).__name__ == "PlayScreen"
    return sim, app, app.top


def test_a_record_that_fills_the_memory_says_so(simulate, profile, apps):
    sim, app, screen = _match(simulate, profile, apps)
    size = len(screen.game.to_bytes())
    while app.store.room(size) > 0:  # games not pulled fill the memory
        app.store.append_record(3, bytes(size))
    screen.keep_record()
    sim.clock.advance(10)
    app.step()
    assert MSG_FULL in " ".join(sim.texts())


def test_with_room_left_nothing_is_said(simulate, profile, apps):
    sim, app, screen = _match(simulate, profile, apps)
    screen.keep_record()
    sim.clock.advance(10)
    app.step()
    assert MSG_FULL not in " ".join(sim.texts())


# Seeds of the computer (Medium) against itself whose matches to 20 last 11 and 14 games: the
# median match of bench/record_sizes.py's is 10 games, three in four are 14 or fewer.
MATCHES = ((4, 11), (8, 14))
SHARE = 0.4  # of the nvm, at most, for a whole match with what the store keeps besides


def held(store):
    """What the store holds that a compaction keeps, nothing pulled: the base record, the saved
    game, the settings and the game records (docs/persistence.md, "Layout")."""
    from companion.core.nvmlog import OVERHEAD
    from companion.core.store import BASE_SIZE

    total = BASE_SIZE
    game = store.load_game()
    if game is not None:
        total += OVERHEAD + 1 + len(game[0].encode()) + len(game[1])
    settings = store.load_settings()
    if settings is not None:
        total += OVERHEAD + len(settings)
    for r in store.records():
        total += OVERHEAD + 1 + len(r[2])
    return total


def test_a_whole_match_to_20_takes_at_most_40_percent_of_the_nvm(simulate, profile, apps):
    """A match played through the box's store as its screen plays it (saved after every action,
    each game's record kept by the screen in its envelope): before it nothing is said, at its
    end the store holds the match's records, the settings and the saved end in at most 40 % of
    the nvm, and no game's end said the memory was full (format 1: 47 % for the median match)."""
    from companion.core import records
    from shared_rules import games
    from shared_rules.lets_do_lunch import ai
    from shared_rules.rng import Rng

    for seed, n in MATCHES:
        sim, app, screen = _match(simulate, profile, apps)
        store = app.store
        size = store.stats()["size"]
        assert size == 4096 and store.records() == []
        assert records.warning(store, games.new("lets_do_lunch").index) is None
        g = screen.game
        assert g.params[0] == 20
        rng = Rng(seed)
        while True:
            p = g.current_player()
            if g.is_terminal() or (p == games.TABLE and g.ended is not None):
                screen.keep_record()  # as the screen keeps each game's at its end
                if g.is_terminal():
                    break
                g.apply(0)  # the next game
            elif p == games.CHANCE:
                g.apply(rng.weighted(g.chance_outcomes()))
            elif p == games.TABLE:
                g.apply(g.legal_actions()[0])
            else:
                g.apply(ai.choose(g.engine, ai.MEDIUM, rng))
            screen.save()
        sim.clock.advance(10)
        app.step()
        assert g.engine.games == n and len(store.records()) == n
        used = held(store)
        print("a match of {} games: {} of {} bytes ({:.1f} %)".format(n, used, size,
                                                                     100.0 * used / size))
        assert used <= SHARE * size, (n, used)
        assert MSG_FULL not in " ".join(sim.texts())
        sim.close()
