"""The first-player pick (companion/first_player/: pick.py, and screen.py the menu's screen): fair
and seeded, the spin stops on the seat drawn, the LEDs sweep to it (none on a build without
pixels), the names (pushed or P1..Pn) fit both displays, Back during the spin cancels, and
the modules go when it closes."""

import importlib
import os
import sys

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from lunchbox.sim import Simulator, setup_environment  # after the SDL settings
from shared_rules.rng import Rng

TO_PICK = "wait:3000 next*5 ok "  # the main menu's row 5: "First player"
NAMES = ["ANNABELL", "BARTHOLO", "CORNELIA", "DEMETRIU", "EVANGELI", "FLORENTI", "GWENDOLY"]
# chi-square critical values at p = 0.001 for 1..5 degrees of freedom
CHI2_001 = (10.83, 13.82, 16.27, 18.47, 20.52)


def fp():
    """The pick's module as the menu imports it now (a test that unloads it makes a new
    one)."""
    setup_environment("headless")
    return importlib.import_module("companion.first_player.pick")


@pytest.fixture
def seed():
    mod = fp()
    mod.SEED[0] = 12345
    yield 12345
    mod.SEED[0] = None


class FakeLeds:
    def __init__(self, n):
        self.n = n
        self.frames = []

    def show(self, colors):
        self.frames.append(list(colors))

    def off(self):
        self.frames.append(None)


class FakeApp:
    def __init__(self, pixels=8):
        self.leds = FakeLeds(pixels)


def chi2(counts):
    total = sum(counts)
    e = total / len(counts)
    return sum((c - e) ** 2 / e for c in counts)


def run_spin(spin, now=0):
    """Tick the spin until it stops: the seats shown in turn and the time it took."""
    seats = [spin.at]
    start = now
    while not spin.done:
        now = spin.due
        assert spin.tick(now - 1) is False  # not before it is due
        assert spin.tick(now) is True
        seats.append(spin.at)
        assert now - start < 5000
    return seats, now - start


@pytest.mark.parametrize("n", range(2, 7))
def test_the_pick_is_uniform_over_seeds_and_the_same_for_a_seed(n):
    m = fp()
    app = FakeApp()
    counts = [0] * n
    picks = []
    for s in range(600 * n):
        m.SEED[0] = s
        try:
            seat = m.Spin(app, n, 0, m.rng(app)).seat
        finally:
            m.SEED[0] = None
        counts[seat] += 1
        picks.append(seat)
    assert chi2(counts) < CHI2_001[n - 2], counts
    # a seed picks the same seat every time
    for s in (0, 1, 7, 99, 1000):
        m.SEED[0] = s
        again = m.Spin(app, n, 0, m.rng(app)).seat
        m.SEED[0] = None
        assert again == picks[s]


@pytest.mark.parametrize("n", range(2, 7))
def test_picks_again_from_one_source_are_uniform(n):
    m = fp()
    app = FakeApp()
    source = Rng(2024)
    counts = [0] * n
    for _ in range(1000 * n):
        counts[m.Spin(app, n, 0, source).seat] += 1
    assert chi2(counts) < CHI2_001[n - 2], counts


def test_a_biased_pick_fails_the_bound():
    """The bound can fail: a pick that favours seat 0 a little is caught."""
    counts = [0] * 4
    for s in range(2400):
        counts[0 if s % 10 == 0 else Rng(s).randbelow(4)] += 1
    assert chi2(counts) > CHI2_001[2]


@pytest.mark.parametrize("n", range(2, 7))
def test_the_spin_goes_round_and_stops_on_the_seat(n):
    m = fp()
    for seat in range(n):
        app = FakeApp()

        class Fixed:
            def __init__(self, seat):
                self.seat = seat

            def randbelow(self, k):
                assert k == n
                return self.seat

        spin = m.Spin(app, n, 1000, Fixed(seat))
        seats, ms = run_spin(spin, 1000)
        assert seats[-1] == seat and spin.seat == seat
        assert seats == [i % n for i in range(len(seats))]  # seat by seat, round the table
        assert len(seats) - 1 >= m.MIN_STEPS
        assert 1000 <= ms <= 3000, ms  # a short spin, slowing to the end
        assert spin.tick(10 ** 6) is False  # stopped


@pytest.mark.parametrize("pixels", (8, 1, 3))
def test_the_leds_sweep_to_the_seat(pixels):
    m = fp()
    n = 5
    app = FakeApp(pixels)
    spin = m.Spin(app, n, 0, Rng(3))
    seats, _ = run_spin(spin)
    frames = app.leds.frames
    assert len(frames) == len(seats)  # one frame a step
    for at, f in zip(seats, frames):
        lit = [i for i in range(len(f)) if f[i] != (0, 0, 0)]
        assert lit, f
        assert lit == list(range(lit[0], lit[-1] + 1))  # one run of pixels: the seat's share
        assert lit[0] == at * pixels // n
    assert set(frames[-1][i] for i in range(len(frames[-1]))) - {(0, 0, 0)} == {m.PICKED}
    assert all(m.SWEEP in f for f in frames[:-1])
    if pixels >= n:  # every seat has pixels of its own
        shares = [tuple(i for i in range(len(f)) if f[i] != (0, 0, 0)) for f in frames[:n]]
        assert len(set(shares)) == n
    spin.stop()
    assert frames[-1] is None


def test_no_pixels_no_frames():
    m = fp()
    app = FakeApp(0)
    spin = m.Spin(app, 4, 0, Rng(5))
    run_spin(spin)
    assert app.leds.frames == []  # nothing shown on a build without a strip


# ---- in the simulator ------------------------------------------------------------------

def with_names(tmp_path, profile, names):
    from companion.store.appsettings import AppSettings
    from companion.store.store import Store

    nvm = str(tmp_path / "nvm.bin")
    sim = Simulator(profile, nvm_path=nvm, mode="headless")
    Store(sim.nvm).save_settings(AppSettings(names=names).to_bytes())
    return nvm


def count_keys(n):
    return "next*{} ok ".format(n - 2) if n > 2 else "ok "


def no_clipping(sim):
    """Nothing cut ('~' is what screen.text.fit leaves), overlapping or off the screen (as
    tests/test_firmware_layout.py checks every screen)."""
    from lunchbox.sim.inspect import walk

    t = sim.texts()
    assert sim.layout_problems() == [], t
    assert [s for s in t if "~" in s] == [], t
    w, h = sim.cfg["width"], sim.cfg["height"]
    for kind, _t, (x0, y0, x1, y1) in walk(sim.display.root):
        if kind == "tiles":
            assert x0 >= 0 and y0 >= 0 and x1 <= w and y1 <= h, (x0, y0, x1, y1)
    return t


@pytest.mark.parametrize("n", range(2, 7))
@pytest.mark.parametrize("pushed", (False, True), ids=("P1..Pn", "pushed names"))
def test_the_menu_pick_names_who_starts(profile, n, pushed, seed, tmp_path):
    names = NAMES if pushed else ["P{}".format(i + 1) for i in range(7)]
    nvm = with_names(tmp_path, profile, NAMES) if pushed else None
    want = Rng(seed).randbelow(n)
    sim = Simulator(profile, nvm_path=nvm, mode="headless")
    sim.run_script(TO_PICK + "shot:{}/a.png ".format(tmp_path) + count_keys(n)
                   + "wait:200 shot:{}/b.png wait:4000".format(tmp_path))
    count, spinning = sim.captures
    assert count["texts"][:3] == ["First player", "2 players", "3 players"]
    assert spinning["texts"][0] == "First player"  # under way: no name yet
    assert "starts" not in spinning["texts"]
    for c in (count, spinning):
        assert c["problems"] == []
    t = no_clipping(sim)
    assert t[0] == names[want] + " starts"
    shown = [s for s in t[1:] if s != "starts"]
    assert names[want] in shown
    assert set(shown) <= set(names[:n])  # only the players at this table
    assert t[t.index(names[want]) + 1] == "starts"


def test_ok_picks_again_and_back_goes_a_step_back(profile, seed, tmp_path):
    source = Rng(seed)
    picks = [source.randbelow(3) for _ in range(3)]  # the same source for each pick
    sim = Simulator(profile, mode="headless")
    sim.run_script(TO_PICK + "next ok wait:4000 " + "shot:{}/s.png ok wait:4000 ".format(tmp_path)
                   * 2)
    said = [c["texts"][0] for c in sim.captures] + [sim.texts()[0]]
    assert said == ["P{} starts".format(p + 1) for p in picks]
    sim = Simulator(profile, mode="headless")
    sim.run_script(TO_PICK + "next ok wait:4000 back")
    t = sim.texts()
    assert t[0] == "First player" and "3 players" in t and "starts" not in " ".join(t)
    sim = Simulator(profile, mode="headless")
    sim.run_script(TO_PICK + "next ok wait:4000 back back")
    assert sim.texts()[0] == "Lunchbox"


def lit(pixels):
    return [i for i in range(len(pixels)) if pixels[i] != (0, 0, 0)]


def recording(sim):
    """Every frame the strip shows, as the pixels it lit."""
    frames = []
    show = sim.pixels.show

    def record():
        show()
        frames.append(lit(sim.pixels.shown))

    sim.pixels.show = record
    return frames


def test_the_strip_sweeps_to_the_seat_and_goes_dark_after(profile, seed):
    n = 4
    want = Rng(seed).randbelow(n)
    sim = Simulator(profile, mode="headless")
    frames = recording(sim)
    sim.run_script(TO_PICK + count_keys(n) + "wait:4000")
    assert sim.texts()[0] == "P{} starts".format(want + 1)
    count = sim.pixels.n
    share = [list(range(s * count // n, (s + 1) * count // n)) for s in range(n)]
    moving = [f for f in frames if f]
    assert len(moving) >= 12
    seats = [share.index(f) for f in moving]  # every frame is one seat's share
    assert seats == [i % n for i in range(len(seats))]
    assert seats[-1] == want
    assert lit(sim.pixels.shown) == share[want]  # held on the seat that starts
    sim = Simulator(profile, mode="headless")
    frames = recording(sim)
    sim.run_script(TO_PICK + count_keys(n) + "wait:4000 back back")
    assert frames[-1] == []  # the strip is dark once the pick is gone


def test_back_during_the_spin_cancels(profile, seed):
    sim = Simulator(profile, mode="headless")
    frames = recording(sim)
    sim.run_script(TO_PICK + "next*4 ok wait:300 back")
    t = no_clipping(sim)
    assert t[0] == "First player" and "6 players" in t  # the count list, on the table's size
    assert frames[-1] == [] and any(frames)  # it had lit, and is dark now
    sim = Simulator(profile, mode="headless")
    frames = recording(sim)
    sim.run_script(TO_PICK + "next*4 ok wait:300 back wait:5000")
    t = sim.texts()
    assert t[0] == "First player" and "starts" not in t  # nothing comes later
    assert frames[-1] == []
    sim = Simulator(profile, mode="headless")
    sim.run_script(TO_PICK + "next*4 ok wait:300 back back")
    assert sim.texts()[0] == "Lunchbox"


def test_a_build_without_pixels_picks_all_the_same(profile, seed):
    sim = Simulator(profile, mode="headless")
    sim.hw.pixels = None
    sim.run_script(TO_PICK + "next ok wait:4000")
    assert sim.texts()[0] == "P{} starts".format(Rng(seed).randbelow(3) + 1)
    assert lit(sim.pixels.shown) == []  # the firmware was given no strip: nothing drawn


def test_the_module_goes_when_the_pick_closes(profile, monkeypatch):
    """On the device (unload.UNLOAD) the picker's module is dropped when its screen closes,
    so the menu does not keep it."""
    setup_environment("headless")
    from companion.app import unload

    monkeypatch.setattr(unload, "UNLOAD", True)
    sim = Simulator(profile, mode="headless")
    sim.run_script(TO_PICK + "ok wait:3000")
    assert "companion.first_player.screen" in sys.modules
    assert "companion.first_player.pick" in sys.modules
    sim = Simulator(profile, mode="headless")
    sim.run_script(TO_PICK + "ok wait:3000 back back")
    assert sim.texts()[0] == "Lunchbox"
    import companion

    for name in ("first_player.screen", "first_player.pick", "first_player"):  # its package too
        assert "companion." + name not in sys.modules
    assert "first_player" not in vars(companion)
