"""The screen's power and the battery's charge (companion/power/: idle.py, charge.py) and the
two settings that time them: on CPython and on MicroPython (the lane)."""

from _harness import raises
from companion.app.buttons import BACK, NEXT, OK, ticks_diff
from companion.power.charge import percent
from companion.power.idle import AWAKE, DIM, LOW, OFF, Idle
from companion.store.appsettings import DIM_S, OFF_S, AppSettings


def run(idle, start, stop, step=10):
    """The states ``idle`` reports from ``start`` to ``stop`` ms, as (ms, state)."""
    out = []
    t = start
    while t <= stop:
        s = idle.tick(t, ticks_diff)
        if s is not None:
            out.append((t, s))
        t += step
    return out


def test_dims_then_goes_off_after_the_set_quiet_times():
    idle = Idle(60, 300, 0)
    assert run(idle, 0, 400000, 1000) == [(60000, DIM), (300000, OFF)]


def test_never_means_never():
    idle = Idle(0, 0, 0)
    assert run(idle, 0, 4000000, 10000) == []
    idle = Idle(0, 120, 0)  # no dimming: straight to off
    assert run(idle, 0, 200000, 1000) == [(120000, OFF)]
    idle = Idle(120, 0, 0)
    assert run(idle, 0, 4000000, 10000) == [(120000, DIM)]


def test_a_press_on_a_lit_screen_counts_and_is_kept():
    idle = Idle(60, 300, 0)
    assert not idle.swallow(NEXT, True, 50000)
    assert not idle.swallow(NEXT, False, 50100)
    assert run(idle, 50000, 120000, 1000) == [(110000, DIM)]  # a minute after that press


def test_the_press_that_wakes_does_nothing_else_until_let_go():
    for asleep in (60000, 300000):  # dim, and off
        idle = Idle(60, 300, 0)
        run(idle, 0, asleep, 1000)
        assert idle.state in (DIM, OFF)
        # OK: its press, then its release (an OK press), then a long hold: all dropped
        assert idle.swallow(OK, True, asleep + 10)
        assert idle.tick(asleep + 10, ticks_diff) == AWAKE
        assert idle.swallow(OK, False, asleep + 900)
        # the next press is the player's
        assert not idle.swallow(OK, True, asleep + 1000)
        assert not idle.swallow(OK, False, asleep + 1100)


def test_every_button_pressed_on_a_dark_screen_is_dropped_even_together():
    idle = Idle(60, 300, 0)
    run(idle, 0, 300000, 1000)
    assert idle.swallow(BACK, True, 300010) and idle.swallow(NEXT, True, 300010)
    assert idle.tick(300010, ticks_diff) == AWAKE
    assert idle.swallow(NEXT, False, 300500) and idle.swallow(BACK, False, 301200)
    assert not idle.swallow(NEXT, True, 301300)


def test_changed_times_count_from_the_last_press():
    idle = Idle(60, 300, 0)
    idle.swallow(OK, True, 10000)
    idle.configure(30, 120)
    assert run(idle, 10000, 200000, 1000) == [(40000, DIM), (130000, OFF)]


def test_the_clock_wraps():
    start = (1 << 29) - 30000  # supervisor.ticks_ms wraps at 2**29
    idle = Idle(60, 0, start)
    assert idle.tick((start + 59000) & ((1 << 29) - 1), ticks_diff) is None
    assert idle.tick((start + 61000) & ((1 << 29) - 1), ticks_diff) == DIM


def test_percent_of_a_lipo():
    assert percent(4200) == 100 and percent(4150) == 100
    assert percent(3800) == 50 and percent(3690) == LOW == 20
    assert percent(3300) == 0 and percent(3000) == 0
    assert percent(3765) == 41  # between two points of the curve
    assert percent(0) is None and percent(1500) is None  # no cell: no reading
    last = 101
    for mv in range(3000, 4300, 5):  # never up as the voltage falls
        p = percent(4300 + 3000 - mv)
        assert 0 <= p <= last
        last = p


def test_dim_and_off_times_round_trip_and_old_bytes_read_as_the_defaults():
    for dim in DIM_S:
        for off in OFF_S:
            s = AppSettings(dim=dim, off=off)
            t = AppSettings.from_bytes(s.to_bytes())
            assert (t.dim, t.off, t.leds, t.hints, t.deal) == (dim, off, True, True, False)
    d = AppSettings()
    assert (d.dim, d.off) == (60, 300)
    # the defaults are the bytes format 1 wrote before these fields
    assert d.to_bytes()[2] == 1  # LEDs on, nothing else
    with raises(ValueError, "dim after"):
        AppSettings(dim=45)
    with raises(ValueError, "screen off"):
        AppSettings(off=1)
