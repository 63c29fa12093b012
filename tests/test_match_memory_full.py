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
