"""A finished game's record kept for the host (`lunchbox pull`): in an envelope with the date,
when a host set the clock, the seats' player names, and each seat's time on the turn clock.
Loaded by a game at its end: the app itself does not hold it."""


def keep_record(app, record, once=False):
    """Keep ``record``; the saved game stays (a Let's Do Lunch match goes on after each of its
    games, and an end stays saved while it is shown). ``once``: the end was resumed after a
    power cut, and the record may be kept already."""
    from ..store import records

    if once and app.store.kept(record):
        return  # kept before the power went, and what follows it was not written
    unix = app.link.unix_now(app.hw.clock()) if app.link is not None else 0
    names = app.settings.names[:records.seats(record)]
    try:
        env = records.envelope(record, unix, names)
        if app.clock is not None:
            env = app.clock.timed(env)  # with each seat's time on the turn clock
        app.store.append_record(records.KIND_GAME, env)
    except ValueError:
        try:  # longer than the store takes with the names: keep the game without them
            app.store.append_record(records.KIND_GAME, records.envelope(record, unix))
        except ValueError:
            app.notify("Game too long to keep")

