"""A Let's Do Lunch match keeps a record each game. The memory warning before a match counts
one record, so when a game's record leaves no room for the next without pushing out a game
not pulled yet, the box says so there and then (a toast), not silently at the next game."""

from companion.screen.game import MSG_FULL


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
    from companion.store.nvmlog import OVERHEAD
    from companion.store.store import BASE_SIZE

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
    from companion.store import records
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


def _format1(name):
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parent / "data" / "records" / "format1.json"
    for row in json.loads(path.read_text())["rows"]:
        if row["name"] == name:
            return row
    raise KeyError(name)


def test_a_match_saved_in_format_1_resumes_and_plays_on_in_format_2(simulate, profile, apps,
                                                                     nvm):
    """A box updated with a match saved by the firmware before record format 2 (game 2 of a
    match against the computer, its base the 60-byte match state) resumes it: the same game,
    the same players; the game's record is kept in format 2 with that base, and the next
    game's record starts from the small match start, the match going on where it was."""
    from companion.store import records
    from companion.store.store import Store
    from shared_rules import games
    from shared_rules.rng import Rng

    row = _format1("match 7 game 2 phase (2, False, True)")
    data = bytes.fromhex(row["hex"])
    old = games.from_bytes(data)
    assert data[0] == 1 and len(old.base) == 60 and old.game_number() == 2
    sim = simulate(profile, None, nvm=nvm)
    Store(sim.nvm).save_game("lets_do_lunch", data)
    sim.close()
    sim = simulate(profile, "wait:3000 ok", nvm=nvm)  # "Resume game?": Resume
    app = apps[-1]
    screen = app.top
    assert type(screen).__name__ == "PlayScreen", sim.texts()
    g = screen.game
    # the game as saved (and the computer, seat B, may have placed since: it was its turn)
    assert g.actions()[:3] == row["actions"] and old.current_player() == 1
    assert g.base == old.base and g.params == (20, 0, 7, 0)
    assert (screen.setup.computer, screen.setup.level) == (1, 3)  # Hard, seat B, as saved
    rng = Rng(3)
    kept = []
    while len(kept) < 2:
        p = g.current_player()
        if g.is_terminal() or (p == games.TABLE and g.ended is not None):
            screen.keep_record()
            kept.append(records.open_envelope(3, app.store.records()[-1][2])[2])
            if g.is_terminal():
                break
            g.apply(0)
        elif p == games.CHANCE:
            g.apply(rng.weighted(g.chance_outcomes()))
        else:
            g.apply(g.legal_actions()[rng.randbelow(len(g.legal_actions()))])
        screen.save()
        if len(kept) == 1 and not g.actions():  # the next game, saved at its start
            saved = app.store.load_game()[1]
            assert saved[0] == 2 and len(games.parse(saved)[2]) < 25
    first = games.replay(kept[0])
    assert kept[0][0] == 2 and first.base == old.base  # the old base, kept as it was
    assert first.actions()[:len(row["actions"])] == row["actions"]
    assert first.game_number() == 2 and first.winners()
    assert len(kept) == 2  # the match went on (to 20 it lasts more than two games here)
    second = games.replay(kept[1])
    assert second.game_number() == 3 and len(second.base) < 25
    assert games.replay(kept[1], 0).match_scores() == first.match_scores()
