"""The screen's power and the battery gauge, on the simulator (both reference displays): the
idle screen dims and goes off on the simulated clock, the press that wakes it does nothing
else, a game is saved before it goes off, the two times are Settings kept in nvm, and the
gauge and the low warning show only on a battery (``lunchbox sim --battery``)."""

import os
import subprocess
import sys

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from lunchbox.sim import Simulator  # after the SDL settings
from lunchbox.sim.inspect import walk

SETTINGS = "prev ok "  # Settings is the main menu's last row
DIM_ROW, OFF_ROW = 5, 6  # Settings rows: ... Lunch cards, Dim screen, Screen off, About
AQUA = "next next ok next ok "  # Aqua Brunch, then Strength in its list
LOW_MSG = "Battery low: charge it soon"


def run(profile, script, nvm=None, battery=None):
    sim = Simulator(profile, nvm_path=nvm, mode="headless", battery=battery)
    sim.run_script(script)
    return sim


def brightest(sim):
    """The brightest colour channel on the simulated panel (what a screenshot shows)."""
    import pygame

    sim.driver.render()
    return int(pygame.surfarray.array3d(sim.driver.surface).max())


def mark(texts, name):
    return texts[texts.index(name) + 1]


def gauge_boxes(sim):
    """The gauge's drawn boxes (the root's third layer, over the screen and the toast)."""
    root = sim.display.root
    if len(root) < 3:
        return []
    return [box for kind, _t, box in walk(root[2]) if kind == "tiles"]


def app_for(profile, nvm=None, battery=None):
    """An App driven pass by pass (the simulator's clock moved by hand)."""
    from companion.app.loop import App
    from companion.app.menu import start
    from companion.store.store import Store

    sim = Simulator(profile, nvm_path=nvm, mode="headless", battery=battery)
    app = App(sim.hw, Store(sim.nvm), start, resume=False)
    return sim, app


def steps(sim, app, ms):
    for _ in range(ms // 10):
        sim.clock.advance(10)
        app.step()


def press(sim, app, button, held_ms=80):
    sim.buttons.push(button, True)
    steps(sim, app, held_ms)
    sim.buttons.push(button, False)
    steps(sim, app, 50)


# --- dim, off, wake -----------------------------------------------------------------------


def test_the_idle_screen_dims_after_a_minute_and_goes_off_after_five(profile):
    lit = run(profile, "wait:59000")
    assert lit.display.power == 0 and brightest(lit) == 255
    dim = run(profile, "wait:61000")
    assert dim.display.power == 1
    assert 0 < brightest(dim) <= 70  # darker, still there
    assert dim.texts()[0] == "Lunchbox"
    off = run(profile, "wait:299000")
    assert off.display.power == 1
    off = run(profile, "wait:301000")
    assert off.display.power == 2 and off.pixels_lit() == 0  # black
    if profile == "pico-display-pack":
        assert off.driver.brightness == 0  # the backlight off
    # a press brings it all back, at the user's brightness
    woke = run(profile, "wait:301000 next wait:100")
    assert woke.display.power == 0 and brightest(woke) == 255
    assert woke.driver.brightness == 0.5


def test_the_press_that_wakes_does_nothing_else(profile):
    # awake: next then ok opens the second game; dim or off: next only wakes, ok opens the first
    assert run(profile, "next ok").texts()[0] in ("Let's Do Lunch", "New match")
    for quiet in ("wait:61000", "wait:301000"):
        t = run(profile, quiet + " next ok").texts()
        assert t[0] == "Space Lunch", (quiet, t)
    # OK acts on its release and Back on its release: a wake by either does not open or leave
    t = run(profile, SETTINGS + "wait:301000 back").texts()
    assert t[0] == "Settings"
    t = run(profile, "wait:301000 ok").texts()
    assert t[0] == "Lunchbox"


def test_a_long_back_that_wakes_is_no_undo(profile):
    t = run(profile, AQUA + "ok next wait:301000 long:back").texts()
    assert "Undone" not in t and "Nothing to undo" not in t
    t = run(profile, AQUA + "ok next wait:301000 long:back long:back").texts()
    assert "Undone" in t


def test_a_held_button_that_wakes_does_not_repeat():
    sim, app = app_for("pico-display-pack")
    steps(sim, app, 301000)
    assert app.idle.state == 2
    menu = app.top.menu
    press(sim, app, 1, held_ms=2000)  # next, held 2 s: it would step 13 rows if awake
    assert app.idle.state == 0 and menu.selected == 0
    press(sim, app, 1)
    assert menu.selected == 1


def test_nothing_is_drawn_while_the_screen_is_off_and_all_of_it_at_the_wake():
    sim, app = app_for("pico-display-pack")
    steps(sim, app, 301000)
    count = sim.driver.refresh_count
    app.notify("while off")  # something changes on the dark screen
    steps(sim, app, 1000)
    assert sim.driver.refresh_count == count
    press(sim, app, 0)
    assert sim.driver.refresh_count > count and sim.pixels_lit() > 200


# --- saved before the screen goes off ------------------------------------------------------


def test_a_game_is_saved_before_the_screen_goes_off_and_nothing_when_current(tmp_path):
    from companion.games.aqua_brunch.calc import AquaScreen
    from companion.games.aqua_brunch.calc_state import CYCLE

    sim, app = app_for("pico-display-pack", str(tmp_path / "nvm.bin"))
    store = app.store
    calls = []
    save = store.save_game

    def spy(game_id, payload):
        calls.append(save(game_id, payload))
        return calls[-1]

    store.save_game = spy
    screen = AquaScreen(app)
    app.push(screen)
    assert screen.act(CYCLE)
    assert calls == [True]
    writes = sim.nvm.writes
    steps(sim, app, 301000)
    assert app.idle.state == 2
    assert calls == [True, False] and sim.nvm.writes == writes  # asked; current: not written
    # a change the store did not take (too long then): saved when the screen goes off
    press(sim, app, 0)
    store.max_payload = 3
    assert screen.act(CYCLE + 2)
    assert store.load_game()[1] != screen.game.to_bytes()
    store.max_payload = 4096
    steps(sim, app, 301000)
    assert store.load_game() == ("aqua_brunch", screen.game.to_bytes())


def test_a_new_game_does_not_replace_another_save_when_the_screen_goes_off(tmp_path):
    from companion.games.aqua_brunch.calc import AquaScreen

    sim, app = app_for("pico-ssd1306-5btn", str(tmp_path / "nvm.bin"))
    app.store.save_game("lets_do_lunch", b"\x01\x02\x03")
    app.push(AquaScreen(app))  # no move yet
    steps(sim, app, 301000)
    assert app.idle.state == 2
    assert app.store.load_game() == ("lets_do_lunch", b"\x01\x02\x03")


# --- the two times in Settings -------------------------------------------------------------


def saved(nvm):
    from companion.store.appsettings import AppSettings
    from companion.store.store import Store
    from lunchbox.sim.hw import FileNvm

    return AppSettings.from_bytes(Store(FileNvm(nvm)).load_settings())


def test_the_times_are_settings_kept_across_a_restart(profile, tmp_path):
    nvm = str(tmp_path / "nvm.bin")
    t = run(profile, "wait:3000 " + SETTINGS + "next*{}".format(OFF_ROW), nvm).texts()
    assert (mark(t, "Dim screen"), mark(t, "Screen off")) == ("1 min", "5 min")
    # Dim screen: the picker lists the choices, the current one marked
    t = run(profile, SETTINGS + "next*{} ok".format(DIM_ROW), nvm).texts()
    assert t[0] == "Dim screen"
    assert [s for s in t[1:] if s != "*"] == ["30 s", "1 min", "2 min", "never"]
    assert mark(t, "1 min") == "*"
    t = run(profile, SETTINGS + "next*{} ok prev ok".format(DIM_ROW), nvm).texts()
    assert t[0] == "Settings" and mark(t, "Dim screen") == "30 s"
    # Screen off: never (the last of 2, 5, 10, 30 min and never)
    t = run(profile, SETTINGS + "next*{} ok next*3 ok".format(OFF_ROW), nvm).texts()
    assert mark(t, "Screen off") == "never"
    s = saved(nvm)
    assert (s.dim, s.off, s.brightness, s.leds) == (30, 0, 50, True)  # the rest kept
    # a restart: Settings says so, and the screen dims at 30 s and never goes off
    t = run(profile, SETTINGS + "next*{}".format(OFF_ROW), nvm).texts()
    assert (mark(t, "Dim screen"), mark(t, "Screen off")) == ("30 s", "never")
    assert run(profile, "wait:29000", nvm).display.power == 0
    assert run(profile, "wait:31000", nvm).display.power == 1
    assert run(profile, "wait:600000 wait:600000 wait:300000", nvm).display.power == 1


def test_a_changed_time_counts_from_the_last_press(tmp_path):
    sim, app = app_for("pico-display-pack", str(tmp_path / "nvm.bin"))
    app.settings.off = 120
    app.save_settings()
    steps(sim, app, 119000)
    assert app.idle.state == 1
    steps(sim, app, 2000)
    assert app.idle.state == 2


def test_the_settings_rows_and_pickers_fit(profile):
    for script in (SETTINGS + "next*{}".format(OFF_ROW), SETTINGS + "next*{} ok".format(DIM_ROW),
                   SETTINGS + "next*{} ok".format(OFF_ROW)):
        sim = run(profile, script)
        assert sim.layout_problems() == []
        assert [s for s in sim.texts() if "~" in s] == []


# --- the battery gauge ---------------------------------------------------------------------


def test_on_usb_no_gauge_and_nothing_loaded(profile):
    sim = run(profile, "wait:61000 next", battery=None)
    assert sim.supply is not None and sim.supply.reads >= 3  # read every 20 s
    assert len(sim.display.root) == 2 and gauge_boxes(sim) == []
    assert LOW_MSG not in sim.texts()


def test_on_battery_the_gauge_sits_in_the_title_bar_beside_the_status(profile):
    usb = run(profile, "wait:3000")
    sim = run(profile, "wait:3000", battery=60)
    (gx0, gy0, gx1, gy1), = gauge_boxes(sim)
    w = sim.cfg["width"]
    title_h = sim.display.title_h
    assert w - 4 <= gx1 <= w and 0 <= gy0 and gy1 <= title_h
    texts = [(t, box) for kind, t, box in walk(sim.display.root[0]) if kind == "text"]
    for t, (x0, y0, x1, y1) in texts:
        assert x1 <= gx0 or y0 >= gy1 or y1 <= gy0, (t, (x0, y0, x1, y1))
    # the version moved left of it, whole
    assert sim.texts()[:2] == usb.texts()[:2] == ["Lunchbox", "v0.1.0"]
    status = dict(texts)["v0.1.0"]
    assert status[2] <= gx0 - 1
    assert sim.layout_problems() == []


def test_the_gauge_fills_with_the_charge_and_turns_red_when_low():
    import pygame

    def red_and_white(level):
        sim = run("pico-display-pack", "wait:6000", battery=level)
        (x0, y0, x1, y1), = gauge_boxes(sim)
        sim.driver.render()
        px = pygame.surfarray.array3d(sim.driver.surface)[x0:x1, y0:y1]
        red = int(((px[..., 0] > 200) & (px[..., 1] < 100)).sum())
        white = int((px.min(axis=2) > 200).sum())
        return red, white

    full_red, full_white = red_and_white(100)
    half_red, half_white = red_and_white(50)
    low_red, low_white = red_and_white(15)
    assert full_red == half_red == 0 < low_red
    assert full_white > half_white > low_white  # the outline is white at every level


def test_a_title_beside_the_gauge_says_what_fits_and_is_never_cut(profile):
    # Space Lunch's first card: "Card 1 of 9: top left" fills the title bar (the colour
    # display's 19 cells cut it); beside the gauge its shorter phrasing (the grid marks the
    # place), whole
    sim = run(profile, "wait:3000 ok ok")
    t = sim.texts()
    want = "Card 1 of 9" if profile == "pico-display-pack" else "Card 1 of 9: top left"
    assert t[0] == want and [s for s in t if "~" in s] == []
    sim = run(profile, "wait:3000 ok ok", battery=60)
    t = sim.texts()
    assert t[0] == "Card 1 of 9" and [s for s in t if "~" in s] == []
    assert len(gauge_boxes(sim)) == 1
    # and a screen with no title bar (the Let's Do Lunch board) shows no gauge
    sim = run(profile, "wait:3000 next ok ok", battery=60)
    assert gauge_boxes(sim) == []


def warned(sim, app, ms=21000):
    """Whether the low-battery toast shows in the next ``ms`` (one reading comes in 20 s)."""
    seen = False
    for _ in range(ms // 100):
        steps(sim, app, 100)
        seen = seen or (app.toast.visible and LOW_MSG in " ".join(sim.texts()))
    return seen


def test_low_battery_warns_once_and_again_after_a_charge():
    sim, app = app_for("pico-ssd1306-5btn", battery=50)
    app.idle.configure(0, 0)  # the screen stays lit: a warning on a dim one waits (below)
    assert not warned(sim, app)
    assert app.battery is not None and len(gauge_boxes(sim)) == 1
    sim.supply.percent = 18
    assert warned(sim, app)
    steps(sim, app, 6000)
    assert not app.toast.visible  # it goes after 5 s
    sim.supply.percent = 12
    assert not warned(sim, app, 41000)  # once
    sim.supply.percent = None  # plugged in: no gauge
    assert not warned(sim, app)
    assert gauge_boxes(sim) == []
    sim.supply.percent = 90  # charged, unplugged, and down again
    assert not warned(sim, app)
    assert len(gauge_boxes(sim)) == 1
    sim.supply.percent = 20
    assert warned(sim, app)


def test_a_warning_while_the_screen_is_off_is_shown_at_the_wake():
    sim, app = app_for("pico-display-pack", battery=50)
    steps(sim, app, 301000)
    assert app.idle.state == 2
    sim.supply.percent = 10
    steps(sim, app, 20000)
    assert not app.toast.visible
    press(sim, app, 2)  # OK: wakes only
    assert app.toast.visible and LOW_MSG in " ".join(sim.texts())
    assert type(app.top).__name__ == "MainMenu"


def test_a_reading_that_fails_shows_nothing_and_the_app_goes_on():
    sim, app = app_for("pico-display-pack", battery=50)

    def broken():
        raise OSError("ADC")

    steps(sim, app, 100)
    assert len(gauge_boxes(sim)) == 1
    sim.supply.level = broken
    steps(sim, app, 20000)
    assert gauge_boxes(sim) == []
    press(sim, app, 1)
    assert app.top.menu.selected == 1


# --- the command line ------------------------------------------------------------------------


def lunchbox(*args):
    return subprocess.run([sys.executable, "-m", "lunchbox", *args], capture_output=True,
                          text=True, timeout=300)


def test_sim_battery_on_the_command_line(tmp_path):
    shot = tmp_path / "low.png"
    r = lunchbox("sim", "--headless", "--nvm", str(tmp_path / "n.bin"), "--battery", "15",
                 "--keys", "wait:1000", "--print-screen", "--screenshot", str(shot))
    assert r.returncode == 0, r.stderr
    assert "charge it soon" in r.stdout and shot.exists()
    r = lunchbox("sim", "--headless", "--nvm", str(tmp_path / "n.bin"), "--keys",
                 "wait:1000", "--print-screen")
    assert r.returncode == 0 and "Battery" not in r.stdout  # USB power by default
    for bad in ("150", "-1", "half"):
        r = lunchbox("sim", "--headless", "--battery", bad)
        assert r.returncode == 2 and "--battery" in r.stderr and "0 to 100" in r.stderr


def test_sim_battery_is_refused_for_a_build_that_cannot_read_it(tmp_path):
    from lunchbox.hardware import profiles

    text = (profiles.PROFILES_DIR / "pico-display-pack.toml").read_text()
    mine = tmp_path / "no-gauge.toml"
    mine.write_text(text.replace('[power]', '#').replace('battery = "lipo"', ''))
    assert "power" not in profiles.load_profile(str(mine))
    r = lunchbox("sim", "--headless", "--profile", str(mine), "--nvm",
                 str(tmp_path / "n.bin"), "--battery", "50", "--keys", "wait:100")
    assert r.returncode != 0 and "cannot read a battery" in r.stderr
    assert "Traceback" not in r.stderr
    sim = run(str(mine), "wait:100")  # and without --battery it runs, with no supply
    assert sim.supply is None and sim.hw.supply is None
