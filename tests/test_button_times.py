"""A press is timed by when it happened, not by when the app got to it: on the board keypad
stamps each transition (supervisor.ticks_ms), and the app feeds those times to the button
state machine. A tap read only after a slow redraw (the Display Pack's first frames take
300-600 ms, longer than the 450 ms before auto-repeat) is one step, not a held button."""

from companion.app.buttons import NEXT, OK, PRESS, REPEAT, Buttons


def test_a_tap_read_after_a_slow_redraw_moves_the_cursor_one_row(simulate, profile, apps):
    sim = simulate(profile, "wait:3000")
    app = apps[-1]
    menu = app.top.menu
    at = menu.selected
    t0 = sim.clock()
    sim.buttons.push(NEXT, True, t0)  # read at once: the cursor moves, the redraw starts
    app.step()
    assert menu.selected == (at + 1) % len(menu.items)
    sim.clock.advance(500)  # the redraw took 500 ms; the thumb was up after 80
    sim.buttons.push(NEXT, False, t0 + 80)
    app.step()
    assert menu.selected == (at + 1) % len(menu.items)  # no auto-repeat: it was a tap


def test_a_held_button_read_late_still_repeats():
    """The other way round: a button that was really held repeats from when it went down."""
    b = Buttons()
    out = b.feed(NEXT, True, 1000)
    assert out == [(NEXT, PRESS)]
    out = b.feed(NEXT, False, 1000 + 450 + 120)  # held past the delay and one period
    assert out == [(NEXT, REPEAT), (NEXT, REPEAT)]


def test_an_ok_held_long_and_read_late_is_a_long_press_once():
    b = Buttons()
    assert b.feed(OK, True, 0) == []
    out = b.feed(OK, False, 900)  # both read together, long after
    assert out == [(OK, 2)]  # LONG, and no PRESS on the release
