"""The firmware app driven through the simulator by scripted button presses, on both reference
displays: what is on screen (the texts in the display group tree, lit pixels, layout boxes),
what is saved in nvm, and what happens after a power cut or a crash."""

import os

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

from lunchbox.sim import Simulator  # after the SDL settings

# menu rows: 0 Space Lunch, 1 Let's Do Lunch, 2 Aqua Brunch, 3 Space Battle, 4 Space Days,
# 5 First player, 6 Settings
TO_AQUA = "next next ok next ok "  # Aqua Brunch, then Strength in its list
CARDS = ("orca8", "orca5", "baby", "octopus", "walrus", "shark535", "shark626", "shark717")


def pick(*cards):
    """Key words that fill the three predator slots of a fresh calculator with ``cards``."""
    words = ["ok"]
    for card in cards:
        words += ["next"] * (CARDS.index(card) + 1) + ["ok"]
    return " ".join(words) + " "


def run(profile, script, nvm=None, **kw):
    sim = Simulator(profile, nvm_path=nvm, mode="headless", **kw)
    sim.run_script(script)
    return sim


def joined(texts):
    return " ".join(texts)


def test_first_start_says_so_then_clears(profile):
    t = run(profile, "").texts()
    assert t[0] == "Lunchbox"
    assert "No saved data -" in t  # the store's first-boot message, as a toast
    assert "No saved data -" not in run(profile, "wait:3000").texts()


def test_main_menu(profile):
    sim = run(profile, "wait:3000")
    t = sim.texts()
    assert t[0] == "Lunchbox"
    assert ["Space Lunch", "Let's Do Lunch", "Aqua Brunch"] == t[2:5]
    assert sim.pixels_lit() > 200
    assert sim.layout_problems() == []
    assert sim.display.driver.auto_refresh is False


def test_menu_scrolls_and_wraps(profile):
    assert "Settings" in run(profile, "next*6").texts()
    assert "Settings" in run(profile, "prev").texts()  # wraps from the top to the bottom
    assert "Space Lunch" in run(profile, "prev next").texts()


def test_held_next_auto_repeats(profile):
    # one step on the way down, then repeats after 450 ms every 120 ms: 450 570 690
    assert run(profile, "hold:next:800 ok").texts()[0] == "Space Days"  # 4 steps
    assert run(profile, "hold:next:500 ok").texts()[0] == "Aqua Brunch"  # 2 steps: its list
    # 1 step: Let's Do Lunch (its new-match screen)
    assert run(profile, "hold:next:300 ok").texts()[0] in ("Let's Do Lunch", "New match")


@pytest.mark.parametrize("hand,aqua", [
    (("walrus", "shark717", "octopus"), ()),
    (("orca5", "orca8", "baby"), (-2,)),
    (("shark717", "shark717", "shark535"), (0, -1, -4)),
    (("octopus", "octopus", "shark535"), ()),
    (("orca8", "shark717", "walrus"), (-4,)),
])
def test_aqua_calculator_matches_the_rules(hand, aqua, profile):
    from shared_rules.aqua_brunch.rules import strength

    ticks = ""
    if aqua:
        ticks = "next ok " + " ".join(
            ("next " * (0, -1, -2, -4).index(v)) + "ok " + ("prev " * (0, -1, -2, -4).index(v))
            for v in aqua) + "back"
    sim = run(profile, TO_AQUA + pick(*hand) + ticks)
    t = sim.texts()
    assert t[0] == "Strength"
    assert t[1] == str(strength(list(hand), list(aqua)))
    assert sim.layout_problems() == []


def test_strength_updates_live_while_picking(profile, tmp_path):
    shots = " ".join("next shot:{}/{}.png".format(tmp_path, i) for i in range(5))
    sim = run(profile, TO_AQUA + "ok next ok next*5 ok " + shots)
    # slots: orca8, walrus, then the third cycles orca8 orca5 baby octopus walrus
    from shared_rules.aqua_brunch.rules import strength

    seen = [c["texts"][1] for c in sim.captures]
    want = [str(strength(["orca8", "walrus", c])) for c in CARDS[:5]]
    assert seen == want
    assert len(set(seen)) > 2  # it really changes as the card changes
    assert all("<>" in c["texts"] for c in sim.captures)  # still editing the third slot


def test_incomplete_hand_shows_question_mark(profile):
    t = run(profile, TO_AQUA + "ok next ok next").texts()
    assert t[:2] == ["Strength", "?"]
    assert "1 Orca 8" in t and "2 Orca 8" in t and "3 -" in t


def test_undo_with_long_back(profile):
    sim = run(profile, TO_AQUA + pick("walrus", "walrus", "walrus") + "long:back")
    t = sim.texts()
    assert "3 Octopus" in t  # the last step (octopus -> walrus) undone
    assert "Undone" in t  # the toast


def test_dedicated_undo_button():
    sim = run("pico-ssd1306-5btn", TO_AQUA + pick("walrus", "walrus", "walrus") + "undo")
    assert "3 Octopus" in sim.texts()


def test_leds_show_strength_then_sleep(profile):
    sim = run(profile, TO_AQUA + pick("walrus", "walrus", "walrus"))  # 18 of 24: 6 of 8 lit
    assert sum(1 for c in sim.pixels.shown if any(c)) == 6
    sim = run(profile, TO_AQUA + pick("walrus", "walrus", "walrus") + "wait:61000")
    assert not any(any(c) for c in sim.pixels.shown)  # idle: off


def test_leds_off_setting(profile, nvm):
    sim = run(profile, "next*6 ok next ok", nvm)  # Settings > LEDs: one press turns them off
    assert "off" in sim.texts()
    sim = run(profile, "back " + TO_AQUA + pick("walrus", "walrus", "walrus"), nvm)
    assert "Strength" in sim.texts()
    assert not any(any(c) for c in sim.pixels.shown)


def test_resume_after_power_cut(profile, nvm):
    sim = run(profile, TO_AQUA + pick("walrus", "shark717", "octopus") + "reset", nvm)
    t = sim.texts()
    assert t[0] == "Resume game?" and "Aqua Brunch" in t and "Resume" in t
    sim = run(profile, "ok", nvm)  # a later run: the nvm file was kept
    t = sim.texts()
    assert t[:2] == ["Strength", "11"]
    assert "1 Walrus" in t


def test_discarding_the_saved_game(profile, nvm):
    run(profile, TO_AQUA + pick("walrus", "shark717", "octopus"), nvm)
    sim = run(profile, "next ok", nvm)
    assert sim.texts()[0] == "Lunchbox"
    assert "Saved game discarded" in " ".join(sim.texts())  # the toast (one or two lines)
    assert run(profile, "", nvm).texts()[0] == "Lunchbox"  # no prompt any more


def test_opening_the_game_from_the_menu_carries_on(profile, nvm):
    run(profile, TO_AQUA + pick("orca8", "orca8", "baby"), nvm)
    sim = run(profile, "back " + TO_AQUA, nvm)  # answer the prompt with Back, then open it
    assert sim.texts()[:2] == ["Strength", "24"]


def test_brightness_is_saved(profile, nvm):
    sim = run(profile, "next*6 ok ok next next ok", nvm)
    assert "70%" in sim.texts()
    sim = run(profile, "next*6 ok", nvm)
    assert "70%" in sim.texts()
    # Back in the picker restores the old value and saves nothing
    run(profile, "next*6 ok ok prev prev back", nvm)
    assert "70%" in run(profile, "next*6 ok", nvm).texts()


def test_player_name_editing(profile, nvm):
    # P1 -> Q1: next letter at the cursor, then a long OK saves
    sim = run(profile, "next*6 ok next next ok ok next long:ok", nvm)
    assert "1 Q1" in sim.texts()
    assert "1 Q1" in run(profile, "next*6 ok next next ok", nvm).texts()


def test_games_without_screens_say_coming_soon(profile, monkeypatch):
    from companion.app import catalog

    # a descriptor without a screen module, as each game had before its screens were built
    about = catalog.about
    monkeypatch.setattr(catalog, "about", lambda game_id: dict(
        about(game_id), screens=None) if game_id == "space_days" else about(game_id))
    games = catalog.menu_games()
    for row, name in [(i, g[1]) for i, g in enumerate(games) if g[0] == "space_days"]:
        sim = run(profile, "next " * row + "ok")
        t = sim.texts()
        assert t[0].startswith(name[:8])
        assert "coming in a later update" in joined(t)
        assert sim.layout_problems() == []
        assert run(profile, "next " * row + "ok ok").texts()[0] == "Lunchbox"


def test_crash_screen_records_and_restarts(profile, nvm, tmp_path, monkeypatch):
    import companion.games.aqua_brunch.calc as aqua

    original = aqua.AquaScreen.on_button

    def flaky(self, button, kind):
        if button == 0:  # prev
            raise RuntimeError("cosmic ray")
        return original(self, button, kind)

    monkeypatch.setattr(aqua.AquaScreen, "on_button", flaky)
    shot = str(tmp_path / "crash.png")
    sim = run(profile, TO_AQUA + pick("orca8", "orca8", "baby") + "prev wait:200 shot:" + shot +
              " wait:3500", nvm)
    during = sim.captures[0]
    assert during["texts"][0] == "Oops - restarting"
    assert "cosmic ray" in joined(during["texts"])
    assert during["problems"] == []
    # restarted at the menu, with the saved game offered again
    t = sim.texts()
    assert t[0] == "Resume game?"
    from companion.store.store import Store

    store = Store(sim.nvm)
    assert store.load_game()[0] == "aqua_brunch"
    crashes = [r for r in store.records() if r[1] == 2]
    assert len(crashes) == 1 and b"RuntimeError: cosmic ray" in crashes[0][2]
    assert b"AquaScreen" in crashes[0][2]


def test_crash_loop_stops_writing_records(nvm, monkeypatch):
    import companion.app.menu as menu

    def broken(self):
        raise ValueError("bad menu")

    monkeypatch.setattr(menu.MainMenu, "items", broken)
    sim = run("pico-display-pack", "wait:20000", nvm)
    from companion.store.store import Store

    crashes = [r for r in Store(sim.nvm).records() if r[1] == 2]
    assert 1 <= len(crashes) <= 3  # about six restarts in 20 s, at most three written
    assert sim.starts == 1  # never a real reset: the app restarts itself


def test_a_crash_without_room_for_its_screen_still_restarts(nvm, monkeypatch, capsys):
    """The crash screen's code is loaded only at a crash (companion/app/crash.py): when even that
    cannot load (no heap left, a file missing), the crash is printed and the app restarts."""
    import sys

    import companion.app.menu as menu

    calls = []

    def broken(self):
        calls.append(1)
        if len(calls) == 1:
            raise ValueError("bad menu")
        return ["Space Lunch", "Settings"]

    monkeypatch.setattr(menu.MainMenu, "items", broken)
    monkeypatch.setitem(sys.modules, "companion.app.crash", None)  # an import of it fails
    sim = run("pico-display-pack", "wait:2000", nvm)
    assert "crash in start ValueError bad menu" in capsys.readouterr().out  # (the menu building)
    assert sim.texts()[0] == "Lunchbox" and sim.starts == 1


def test_corrupt_nvm_is_reported_not_fatal(profile, nvm):
    from companion.store.store import MSG_FOREIGN

    with open(nvm, "wb") as f:
        f.write(bytes((i * 37 + 11) & 0xFF for i in range(4096)))
    sim = run(profile, "wait:5000", nvm)
    t = sim.texts()
    # the whole message, on a screen that waits for OK (a toast would cut it and vanish)
    assert t[0] == "Saved data"
    assert joined(t[1:]).split() == MSG_FOREIGN.split()
    assert sim.layout_problems() == []
    assert run(profile, "ok", nvm).texts()[0] == "Lunchbox"
    # the notice comes back at each start until something is saved (a loss is never silent)
    sim = run(profile, "ok " + TO_AQUA + pick("walrus", "walrus", "walrus"), nvm)
    assert sim.texts()[:2] == ["Strength", "18"]
    assert run(profile, "", nvm).texts()[0] == "Resume game?"


def test_a_lost_last_change_is_reported_before_the_resume_prompt(profile, nvm):
    from companion.store.store import MSG_CUT_LAST

    run(profile, TO_AQUA + pick("walrus", "walrus", "walrus"), nvm)
    with open(nvm, "rb") as f:
        mem = bytearray(f.read())
    end = len(mem.rstrip(b"\xff"))
    mem[end - 1] &= 0x0F  # the last save's last byte half-programmed: a cut while saving
    with open(nvm, "wb") as f:
        f.write(mem)
    sim = run(profile, "", nvm)
    t = sim.texts()
    assert t[0] == "Saved data" and joined(t[1:]).split() == MSG_CUT_LAST.split()
    assert sim.layout_problems() == []
    t = run(profile, "ok", nvm).texts()
    assert t[0] == "Resume game?"
    t = run(profile, "ok ok", nvm).texts()
    # the last step (octopus -> walrus in slot 3) was lost: walrus 4 + walrus 4 + octopus 4
    assert t[:2] == ["Strength", "12"]
    assert "3 Octopus" in t


def test_one_refresh_per_handled_event(profile):
    sim = run(profile, "next next prev next*5 prev*5")
    refreshes = sim.display.driver.refresh_count
    assert 14 <= refreshes <= 16  # one per press, plus the first screen


def test_each_event_is_one_refresh_and_idle_passes_none(profile, monkeypatch):
    """Pass by pass: an event that changes many labels (a calculator step redraws rows, the
    title, the LEDs) is one refresh; passes without events or timers refresh nothing."""
    from companion.app.loop import App

    passes = []
    step = App.step

    def counted(self):
        h, r = self.handled, self.d.driver.refresh_count
        toast = self.toast.visible
        step(self)
        passes.append((self.handled - h, self.d.driver.refresh_count - r, toast))

    monkeypatch.setattr(App, "step", counted)
    starts = []
    init = App.__init__

    def started(self, *args, **kwargs):
        starts.append(len(passes))
        init(self, *args, **kwargs)

    monkeypatch.setattr(App, "__init__", started)
    sim = run(profile, "wait:3000 " + TO_AQUA + pick("walrus", "shark717", "octopus") +
              "hold:next:1000 wait:500 long:back wait:3000")
    events = [p for p in passes if p[0]]
    assert len(events) > 30
    assert all(n == 1 and r == 1 for n, r, _t in events), events
    # the menu, then the calculator in its own App (the board's fresh VM: companion/app/launch.py)
    assert len(starts) == 2
    quiet = [p for p in passes if not p[0]]
    # each App's first screen, then the first-start toast and the "Undone" toast going away
    assert [r for _n, r, _t in quiet if r] == [1, 1, 1, 1]
    assert quiet[0][1] == 1 and sum(1 for _n, r, t in quiet if r and not t) == 1
    assert sim.display.driver.refresh_count == len(events) + 4


def test_watchdog_seam(profile):
    sim = run(profile, "wait:500")
    assert sim.watchdog.timeout == 8
    assert sim.watchdog.fed >= 40  # fed on every pass of the main loop


def test_watchdog_resets_a_hung_app_within_8_s(profile, nvm, monkeypatch):
    """A screen stuck waiting (it idles but never returns to the main loop, so the watchdog
    is not fed) is reset by the watchdog; the firmware starts again with the game saved."""
    import companion.games.aqua_brunch.calc as aqua

    original = aqua.AquaScreen.on_button
    hung = []

    def stuck(self, button, kind):
        if button == 0:  # prev: wait for something that never comes
            hung.append(self.app.hw.clock())
            while True:
                self.app.hw.idle()
        return original(self, button, kind)

    monkeypatch.setattr(aqua.AquaScreen, "on_button", stuck)
    sim = run(profile, TO_AQUA + pick("orca8", "orca8", "baby") + "prev wait:9000", nvm)
    assert sim.starts == 2 and sim.watchdog.resets == 1
    assert sim.texts()[0] == "Resume game?"
    assert sim.watchdog.timeout == 8  # started again by the new run
    from companion.store.store import Store

    assert Store(sim.nvm).load_game()[0] == "aqua_brunch"
    # the reset came 8 s (give or take one 10 ms tick) after the hang began
    assert len(hung) == 1
    assert 8000 <= sim.watchdog.reset_at - hung[0] <= 8020


def test_watchdog_is_quiet_while_the_app_runs(profile):
    sim = run(profile, "wait:20000 " + TO_AQUA + "hold:next:9000 wait:9000")
    assert sim.starts == 1 and sim.watchdog.resets == 0


def test_about_screen(profile):
    t = run(profile, "next*6 ok prev prev ok").texts()
    assert t[0] == "About"
    assert profile in t and "Firmware 0.1.0" in t and "0 records kept" in t


def test_a_kept_record_is_on_nvm_and_the_save_stays(nvm):
    """keep_record (what a game's end calls): the record in its envelope, on nvm; the saved
    game stays (an end stays saved while it is shown; a match goes on)."""
    from companion.app.keeping import keep_record
    from companion.app.loop import App
    from companion.app.menu import start
    from companion.store.store import Store

    run("pico-display-pack", TO_AQUA + pick("walrus", "walrus", "walrus"), nvm)
    sim = Simulator("pico-display-pack", nvm_path=nvm, mode="headless")
    store = Store(sim.nvm)
    assert store.load_game()[0] == "aqua_brunch"
    app = App(sim.hw, store, start)
    assert app.top.__class__.__name__ == "ConfirmDialog"  # the resume prompt
    from companion.store.records import KIND_GAME, open_envelope
    from shared_rules import games

    record = games.record(games.new("space_lunch", 1))
    assert not store.kept(record)
    keep_record(app, record)
    assert store.load_game()[0] == "aqua_brunch" and store.kept(record)
    keep_record(app, record, once=True)  # a resumed end: kept already, not twice
    assert len([r for r in store.records() if r[1] == KIND_GAME]) == 1
    for rec in (store.records()[-1], Store(sim.nvm).records()[-1]):  # on nvm, not just RAM
        assert rec[1] == KIND_GAME
        assert open_envelope(rec[1], rec[2])[2] == record


def test_opening_a_game_unloads_the_other_games_code(profile, monkeypatch, tmp_path):
    """Only one game's code stays in RAM: opening Aqua Brunch drops every module loaded since
    another game was opened, by its import or during its play (found by what was in memory
    before, not by names), and keeps its own."""
    import sys

    import companion.app.loader as loader
    import companion.app.unload as unload

    (tmp_path / "fake_days.py").write_text(
        "import fake_days_rules\n"
        "from companion.screen.screens import MessageScreen\n"
        "def open(app, payload=None):\n"
        "    import fake_days_late\n"
        "    app.push(MessageScreen(app, 'Days', 'fake'))\n")
    (tmp_path / "fake_days_rules.py").write_text("RULES = 1\n")
    (tmp_path / "fake_days_late.py").write_text("LATE = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(unload, "UNLOAD", True)  # as on the device (off on CPython)
    monkeypatch.setattr(loader, "_loaded", [None, ()])
    info = loader.game_info  # (the catalog itself is dropped and read again, as on the device)
    monkeypatch.setattr(loader, "game_info", lambda game_id: info(game_id)[:3] + (
        "fake_days",) + info(game_id)[4:] if game_id == "space_days" else info(game_id))
    sim = run(profile, "wait:3000 next*4 ok")
    assert sim.texts()[0] == "Days"
    assert {"fake_days", "fake_days_rules", "fake_days_late"} <= set(sys.modules)
    sim = run(profile, TO_AQUA + pick("walrus", "walrus", "walrus"))  # same process, new app
    assert sim.texts()[:2] == ["Strength", "18"]
    assert {"fake_days", "fake_days_rules", "fake_days_late"} & set(sys.modules) == set()
    assert "companion.games.aqua_brunch.calc" in sys.modules
    assert "shared_rules._compat" in sys.modules
    assert loader._loaded[0] == "aqua_brunch"  # the calculator counts as its list's game


def test_leds_sleep_even_if_no_button_was_ever_pressed(nvm):
    """A screen may light the strip without a press (a resumed game, an animation): the idle
    timer still runs from the start."""
    from companion.app.loop import App
    from companion.app.menu import start
    from companion.store.store import Store

    sim = Simulator("pico-display-pack", nvm_path=nvm, mode="headless")
    app = App(sim.hw, Store(sim.nvm), start)
    app.leds.show([(0, 0, 255)] * 3)
    assert sum(1 for c in sim.pixels.shown if any(c)) == 3
    for _ in range(6200):  # 62 s of 10 ms passes, no button
        sim.clock.advance(10)
        app.step()
    assert not any(any(c) for c in sim.pixels.shown)


# The rulebook's nine examples ("Examples of Predator Combinations and Their Strength") and
# its Phase 3 example (walrus + shark 5/3/5 + baby orca = 9, with aqua -2 and 0: 7), typed in
# with the buttons; the numbers are the rulebook's, not shared_rules' output.
RULEBOOK = [
    (("walrus", "shark717", "octopus"), (), 11),
    (("orca5", "walrus", "walrus"), (), 13),
    (("shark717", "shark535", "octopus"), (), 4),
    (("orca5", "orca8", "baby"), (), 18),
    (("orca8", "shark717", "walrus"), (), 10),
    (("baby", "shark717", "octopus"), (), 11),
    (("shark717", "shark717", "shark535"), (), 19),
    (("octopus", "octopus", "shark535"), (), 5),
    (("walrus", "walrus", "walrus"), (), 18),
    (("walrus", "shark535", "baby"), (-2, 0), 7),
]


@pytest.mark.parametrize("hand,aqua,want", RULEBOOK)
def test_calculator_shows_the_rulebook_examples(hand, aqua, want, profile):
    order = (0, -1, -2, -4)
    ticks = ""
    if aqua:
        ticks = "next ok " + " ".join(
            "next " * order.index(v) + "ok " + "prev " * order.index(v) for v in aqua) + " back"
    t = run(profile, TO_AQUA + pick(*hand) + ticks).texts()
    assert t[:2] == ["Strength", str(want)]


def test_saves_only_on_real_changes_one_write_each(profile, nvm):
    """Browsing writes nothing; each change of the hand is one nvm write; so is a setting."""
    sim = run(profile, "wait:3000", nvm)  # formatting the blank sector
    base = sim.nvm.writes
    assert base >= 1
    sim = run(profile, "next*6 prev*6 next*6 ok next next ok back back prev*6 " + TO_AQUA +
              "next*3 prev*3", nvm)
    assert sim.texts()[0] == "Strength"
    assert sim.nvm.writes == 0  # menus, the player names looked at, the calculator opened
    changes = "ok next next ok next ok"  # slot 1: orca8, orca5; slot 2: orca8
    sim = run(profile, TO_AQUA + changes + " back next ok back", nvm)
    # three changes of the hand; Back leaves editing (not a change); the Aqua list opened
    # and closed with nothing ticked
    assert "2 Orca 8" in sim.texts() and "1 Orca 5" in sim.texts()
    assert sim.nvm.writes == 3
    sim = run(profile, "back next*6 ok ok next ok", nvm)  # Back: the resume prompt; 60%
    assert sim.nvm.writes == 1


def test_menu_counts_games_to_pull_and_warns_before_a_game_when_memory_is_nearly_full(nvm):
    from companion.store.records import KIND_GAME, NEARLY_FULL, envelope
    from companion.store.store import Store
    from shared_rules import games

    sim = Simulator("pico-display-pack", nvm_path=nvm, mode="headless")
    store = Store(sim.nvm)
    record = games.record(games.new("space_lunch"))
    store.append_record(KIND_GAME, envelope(record))
    sim.close()
    assert run("pico-display-pack", "wait:3000", nvm).texts()[:2] == ["Lunchbox", "1 to pull"]
    assert "Memory" not in run("pico-display-pack", "wait:3000 ok", nvm).texts()
    sim = Simulator("pico-display-pack", nvm_path=nvm, mode="headless")
    store = Store(sim.nvm)
    store.clear_game()
    from companion.app.catalog import about

    while store.room(about("space_lunch")["record_bytes"]) >= NEARLY_FULL:
        store.append_record(KIND_GAME, envelope(record))
    n = store.waiting()
    sim.close()
    t = run("pico-display-pack", "wait:3000 ok", nvm).texts()  # a new Space Lunch game
    assert t[0] == "Memory" and "{} games not pulled".format(n) in joined(t), t


def test_game_screen_saves_each_action_undoes_and_says_when_a_game_is_too_long(nvm):
    """GameScreen (here under the Aqua Brunch calculator): one save per action, undo back to
    the start, a refused action changes nothing, and a game longer than the store takes keeps
    its last save and says so instead of crashing."""
    from companion.app.loop import App
    from companion.app.menu import start
    from companion.games.aqua_brunch.calc import AquaScreen
    from companion.games.aqua_brunch.calc_state import CYCLE
    from companion.store.store import Store

    sim = Simulator("pico-display-pack", nvm_path=nvm, mode="headless")
    store = Store(sim.nvm)
    app = App(sim.hw, store, start, resume=False)
    screen = AquaScreen(app)
    app.push(screen)
    assert screen.act(CYCLE) and store.load_game()[1] == screen.game.to_bytes()
    assert screen.act(CYCLE + 2) and screen.game.slots[:2] == [0, 0]
    before = screen.game.to_bytes()
    assert not screen.act(99) and screen.game.to_bytes() == before
    assert app.toast.visible
    store.max_payload = 3  # as if the game had grown past what the store takes
    assert screen.act(CYCLE + 4)
    assert store.load_game()[1] == before  # the last save stands
    assert "too long" in " ".join(sim.texts())
    screen.undo()
    screen.undo()
    screen.undo()
    assert screen.game.slots == [None, None, None] and not screen.game.can_undo()
    screen.undo()
    assert "Nothing to undo" in sim.texts()


def test_starting_another_game_asks_before_its_save_is_lost(nvm):
    """There is one save: the first move of a new game asks before replacing another game's
    save; "Keep it" changes nothing, "Start" goes on with that move."""
    from companion.app.loop import App
    from companion.app.menu import start
    from companion.games.aqua_brunch.calc import AquaScreen
    from companion.games.aqua_brunch.calc_state import CYCLE
    from companion.store.store import Store
    from shared_rules import games

    sim = Simulator("pico-display-pack", nvm_path=nvm, mode="headless")
    store = Store(sim.nvm)
    saved = games.new("space_lunch", 1)
    saved.apply(3)
    store.save_game("space_lunch", saved.to_bytes())
    app = App(sim.hw, store, start, resume=False)
    screen = AquaScreen(app)
    app.push(screen)
    assert not screen.act(CYCLE)
    assert sim.texts()[0] == "Saved game" and "Space Lunch" in " ".join(sim.texts())
    app.top.on_button(1, 0)  # next: "Keep it"
    app.top.on_button(2, 0)  # OK
    assert app.top is screen and store.load_game()[0] == "space_lunch"
    assert not screen.game.can_undo()
    assert not screen.act(CYCLE)
    app.top.on_button(2, 0)  # OK on "Start"
    assert app.top is screen and screen.game.slots[0] == 0
    assert store.load_game()[0] == "aqua_brunch"
    assert screen.act(CYCLE + 2)  # asked once


def test_a_game_saved_at_its_end_is_finished_on_resume(nvm):
    """A power cut between the last move's save and the record (or a save from before this
    firmware) resumes at the end: the record is kept once, the save forgotten, the result
    shown."""
    from companion.store.records import open_envelope
    from companion.store.store import Store
    from shared_rules import games
    from shared_rules.rng import Rng

    g = games.new("space_lunch", 3)
    rng = Rng(4)
    while not g.is_terminal():
        if g.current_player() == games.CHANCE:
            g.apply(rng.weighted(g.chance_outcomes()))
        else:
            g.apply(rng.choice(g.legal_actions()))
    sim = Simulator("pico-display-pack", nvm_path=nvm, mode="headless")
    Store(sim.nvm).save_game("space_lunch", g.to_bytes())
    sim.close()
    sim = run("pico-display-pack", "wait:3000 ok wait:200", nvm)  # Resume
    store = Store(sim.nvm)
    assert store.load_game() == ("space_lunch", g.to_bytes())  # until the end is left
    kept = store.records()
    assert len(kept) == 1 and open_envelope(kept[0][1], kept[0][2])[2] == g.to_bytes()
    assert "wins" in " ".join(sim.texts())


def test_a_record_too_long_with_the_names_is_kept_without_them(nvm):
    from companion.app.keeping import keep_record
    from companion.app.loop import App
    from companion.app.menu import start
    from companion.store.records import open_envelope
    from companion.store.store import Store

    sim = Simulator("pico-display-pack", nvm_path=nvm, mode="headless")
    store = Store(sim.nvm)
    app = App(sim.hw, store, start, resume=False)
    app.settings.names[:2] = ["LONGNAME", "OTHERONE"]
    record = bytes([1, 0, 2, 0, 0, 0, 0]) + bytes(store.max_payload - 16)
    keep_record(app, record)
    kept = store.records()[-1]
    assert open_envelope(kept[1], kept[2]) == (0, [], record)
    keep_record(app, record + bytes(20))  # too long even so: said, not a crash
    assert "too long" in " ".join(sim.texts())


def test_a_scoreboard_opened_from_its_list_does_not_unload_the_list(monkeypatch):
    """The Aqua Brunch list opens the scoreboard and the calculator from its own code: they
    count as the same game, so nothing the list runs is dropped under it."""
    import sys

    import companion.app.loader as loader
    import companion.app.unload as unload

    monkeypatch.setattr(unload, "UNLOAD", True)
    monkeypatch.setattr(loader, "_loaded", [None, ()])
    sim = run("pico-display-pack", "wait:3000 " + TO_AQUA)
    assert loader._loaded[0] == "aqua_brunch"
    assert "companion.games.aqua_brunch.entry" in sys.modules
    assert loader.forget_other_games("aqua_score") == []
    assert loader.forget_other_games("aqua_calc") == []
    assert sim.texts()[0] == "Strength"
