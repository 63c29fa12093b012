"""Space Lunch on the device, driven through the simulator by key scripts on both displays:
complete solo games at every difficulty checked against the engine after every key, the
screens' layout at every step, undo in the middle of each kind of input, resume after a power
cut cut at random points of a save, and bad input."""

import functools
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from space_lunch_presses import plan  # noqa: E402

from lunchbox.sim import Simulator  # noqa: E402
from shared_rules import games  # noqa: E402


class Watch(Simulator):
    """A simulator whose ``shot:`` steps record what tests check instead of writing a PNG:
    the texts, the layout problems and the game on the top screen."""

    apps = []  # the test's started Apps (the conftest fixture), set by watching()

    def capture(self, path):
        screen = self.app().top
        game = getattr(screen, "game", None)
        shot = {"path": path, "texts": self.texts(), "problems": self.layout_problems(),
                "screen": type(screen).__name__,
                "actions": game.actions() if game is not None else None,
                "lit": list(self.pixels.shown) if self.pixels is not None else []}
        self.captures.append(shot)
        return shot

    def app(self):
        return self.apps[-1]  # the app the firmware started last


@pytest.fixture(autouse=True)
def watching(apps, monkeypatch):
    monkeypatch.setattr(Watch, "apps", apps)
    from companion.games.space_lunch import entry as space_lunch

    monkeypatch.setattr(space_lunch, "DEAL_SEED", [None])  # a test sets its dealt game's seed


@pytest.fixture
def run(simulate):
    """simulate() with a Watch."""
    return functools.partial(simulate, cls=Watch)


def stepwise(p):
    """The plan's key script with a capture after every key."""
    words = []
    for i, w in enumerate(p.words):
        words += [w, "shot:{}".format(i)]
    return " ".join(words)


def check_steps(sim, p):
    """After every key: the screen's game is the planned game so far, nothing is cut, off the
    screen or overlapping."""
    want = p.game.actions()
    seen_game = False
    for i, shot in enumerate(sim.captures):
        assert shot["problems"] == [], (i, p.words[i], shot["texts"], shot["problems"])
        cut = [t for t in shot["texts"] if t.endswith("~")]
        assert not cut, (i, p.words[i], shot["texts"])
        if shot["actions"] is not None:
            seen_game = True
            n = p.counts[i]
            assert shot["actions"] == want[:n], (i, p.words[i], shot["texts"])
    assert seen_game


@pytest.mark.parametrize("difficulty", [0, 1, 2, 3])
def test_complete_solo_games_follow_the_engine_at_every_key(difficulty, profile, run):
    for seed in (11 + difficulty, 31 + difficulty):
        p = plan(difficulty, seed)
        sim = run(profile, stepwise(p))
        check_steps(sim, p)
        # the end: who won and why, the record written, the end saved until it is left
        end = " ".join(sim.texts())
        if p.game.engine.winner == 0:
            assert "You win" in end and "triplets" in end
        else:
            assert "Automa wins" in end
        from companion.store.store import Store

        store = Store(sim.nvm)
        assert store.load_game() == ("space_lunch", games.record(p.game))
        records = [bytes(r[2]) for r in store.records() if r[1] in (1, 3)]
        assert records and records[-1].endswith(games.record(p.game))
        sim.close()


@pytest.mark.parametrize("difficulty", [1, 3])
def test_dealt_mode_needs_only_ok(difficulty, profile, run):
    from companion.games.space_lunch import entry as space_lunch

    p = plan(difficulty, 50 + difficulty, dealt=True)
    space_lunch.DEAL_SEED[0] = p.seed
    sim = run(profile, stepwise(p))
    check_steps(sim, p)
    assert set(p.words[1 + p.setup:]) == {"ok"}  # after the menu: nothing but OK
    texts = [t for shot in sim.captures for t in shot["texts"]]
    assert any(t.startswith("Put ") for t in texts)
    from companion.store.store import Store

    records = [bytes(r[2]) for r in Store(sim.nvm).records() if r[1] in (1, 3)]
    assert records and records[-1].endswith(games.record(p.game))


# the threat turn's advice: the colour display's line has room for the card's place; the OLED's
# names the coupon (its menu starts on the card)
_SAVE, _SAVE_SHORT = "use Hot Drink bottom middle to save", "Hot Drink saves"


def test_threat_warning_in_words_and_red_leds(profile, run):
    sim = run(profile, "wait:3000 ok ok ok*45")  # the all-OK Easy game's threat turn
    t = sim.texts()
    assert _SAVE in t or _SAVE_SHORT in t
    assert any(c[0] > 0 and c[1] == 0 and c[2] == 0 for c in sim.pixels.shown)
    sim = run(profile, "wait:3000 ok ok ok*9")  # the first turn: no danger, LEDs dark
    assert not any(any(c) for c in sim.pixels.shown)


def test_the_board_comes_before_the_coupon_ratings(profile, run, monkeypatch):
    """Rating the coupon actions takes half a second on the board: the press that brings
    such a turn draws its board first ("Thinking...", no cursor yet, the LEDs already red),
    then the advice and the cursor on the suggested stop in the same pass; and a press made
    meanwhile acts on the suggestion, as when the hints came at once."""
    from companion.games.space_lunch import solo
    from companion.screen import display
    from lunchbox.sim.inspect import texts

    frames = []
    refresh = display._Display.refresh

    def recording(self):
        refresh(self)
        top = Watch.apps[-1].top if Watch.apps else None
        frames.append((getattr(top, "key", None), texts(self.root),
                       getattr(top, "rated", None) is not None))

    monkeypatch.setattr(display._Display, "refresh", recording)
    sim = run(profile, "wait:3000 ok ok ok*45")  # the all-OK Easy game's threat turn
    key = frames[-1][0]
    turn = [f for f in frames if f[0] == key]
    assert len(turn) == 2, turn
    (_, first, waiting), (_, last, done_waiting) = turn
    assert waiting and not done_waiting
    assert solo.THINKING in first and "Your turn" in first
    assert solo.THINKING not in last
    assert _SAVE in last or _SAVE_SHORT in last
    assert any(t.startswith("Use a coupon") for t in last)  # the cursor on the suggestion
    assert any(c[0] > 0 and c[1] == 0 and c[2] == 0 for c in sim.pixels.shown)

    # a press handled before the ratings (two presses read in one pass): the ratings first
    screen = sim.app().top
    screen.show()  # as the press that brought the turn left it
    key = screen.key
    screen.key = -1
    screen.show()
    assert screen.rated is not None and screen.key == key
    screen.on_button(2, 0)  # OK (app.buttons.OK, a short press)
    assert screen.rated is None
    assert screen.options is not None  # the coupon menu: the suggested stop was taken
    assert screen.options[screen.sel][1] == "hot"


def test_hints_off(profile, run, nvm):
    # new-game list: Hints (row 5) off, then Easy; the first turn has no advice and the
    # cursor starts on the top card of the Pick column
    p = plan(0, 100)
    opening = p.words[3:p.counts.index(9) + 1]
    sim = run(profile, " ".join(["wait:3000", "ok", "prev", "prev", "ok", "next", "next",
                                 "ok"] + opening))
    t = sim.texts()
    assert t[0].startswith("Take top left")
    assert "OK: take  </>: move" in t
    assert not any(x == "no danger" or x.startswith("Automa next") for x in t)
    # the threat turn of the all-OK Easy game (45 OKs in, hints on: words and red LEDs), then
    # Settings > Hints off (the resume prompt's Back keeps the game; Settings is the last
    # row of the menu, Hints its fourth), and the game opened again from the menu: no
    # suggestion, no warning in words, LEDs dark
    sim = run(profile, "wait:3000 ok ok ok*45", nvm)
    assert any(c[0] > 0 and c[1] == 0 and c[2] == 0 for c in sim.pixels.shown)  # red
    run(profile, "back prev ok next*3 ok", nvm)
    sim = run(profile, "back ok", nvm)
    assert type(sim.app().top).__name__ == "SoloScreen"
    t = sim.texts()
    assert not any("Automa wins" in x or x.startswith("use ") or x.endswith(" saves")
                   for x in t), t
    assert t[-1] == "OK: take  </>: move"
    assert not any(any(c) for c in sim.pixels.shown)  # the LEDs stay dark
    # and back on: the warning again
    run(profile, "back prev ok next*3 ok", nvm)
    t = run(profile, "back ok", nvm).texts()
    assert _SAVE in t or _SAVE_SHORT in t


def _prefix(p, n):
    """Key words of the plan up to the step that leaves n actions applied."""
    i = p.counts.index(n)
    return p.words[:i + 1]


def test_screens_show_the_table(profile, run):
    p = plan(0, 100)
    # the first human turn: after the menu, the difficulty and the nine opening cards
    words = _prefix(p, 9)
    sim = run(profile, " ".join(words))
    t = sim.texts()
    # the Pick token starts on the left column; the title says the cursor's card
    assert t[0].startswith("Take ") and t[0].split(" (")[0].endswith(" left"), t[0]
    e = games.replay(games.record(p.game), 9).engine
    for c in range(9):
        assert str(e.grid[c]) in t
    if profile == "pico-display-pack":
        assert "You 0/3" in t and "Automa 0/4" in t and "Deck 27 Coupons 2" in t
    else:
        assert "You 0/3" in t and "Automa 0/4" in t and "Coupons 2" in t
    assert sim.layout_problems() == []


def test_the_automa_turn_says_what_it_takes(profile, run):
    p = plan(0, 100)
    g = games.replay(games.record(p.game), 11)  # opening, a take, its refill
    e = g.engine
    assert g.current_player() == 1
    c = e.automa_cell()
    sim = run(profile, " ".join(_prefix(p, 11)))
    t = sim.texts()
    from companion.screen.text import fit
    from shared_rules.space_lunch.actions import where

    # the longest phrasing the title bar has room for, whole; the colour display's line
    # says where and the food
    says = ("Automa: {} ({})".format(where(c), e.grid[c]), "Automa: " + where(c),
            "Automa takes the {}".format(e.grid[c]))
    assert t[0] == fit(says, sim.app().d.title_cols) and "~" not in t[0], t[0]
    if profile == "pico-display-pack":
        assert any(x.startswith("Automa takes {}".format(where(c))) and x.endswith("new card?")
                   for x in t), t


def _undo_at(run, profile, p, n, extra):
    """Play to n actions, press ``extra`` then undo; returns the simulator."""
    words = _prefix(p, n) + extra.split() + ["long:back"]
    return run(profile, " ".join(words))


def test_undo_in_the_middle_of_each_input(profile, run):
    p = plan(2, 7)
    want = p.game.actions()
    top = lambda sim: sim.app().top  # noqa: E731

    # card entry: half-turned wheel, then undo takes back the last card entered
    sim = _undo_at(run, profile, p, 5, "next next")
    assert top(sim).game.actions() == want[:4]
    assert "Undone" in " ".join(sim.texts())
    # the human's turn, cursor moved: undo takes back the last opening card
    sim = _undo_at(run, profile, p, 9, "next")
    assert top(sim).game.actions() == want[:8]
    # the Automa's turn (wheel for its refill showing): undo takes back the human's refill
    sim = _undo_at(run, profile, p, 11, "prev")
    assert top(sim).game.actions() == want[:10]
    # in the coupon menu and the coupon cursor: undo still takes back one game action
    sim = _undo_at(run, profile, p, 9, "prev ok")
    assert top(sim).game.actions() == want[:8]
    sim = _undo_at(run, profile, p, 9, "prev ok ok next")
    assert type(top(sim)).__name__ == "SoloScreen"
    assert top(sim).game.actions() == want[:8]
    # undo the Automa's take together with its refill: two undos
    n = next(i for i in range(12, len(want)) if want[i - 2] == 13)
    sim = run(profile, " ".join(_prefix(p, n) + ["long:back", "long:back"]))
    assert top(sim).game.actions() == want[:n - 2]
    # and play on to the same end after undoing: the record is still the planned game
    n = next(i for i in range(20, len(want)) if i in p.counts and i - 3 in p.counts)
    words = _prefix(p, n) + ["long:back"] * 3
    rest = p.words[p.counts.index(n - 3) + 1:]
    sim = run(profile, " ".join(words + rest))
    from companion.store.store import Store

    records = [bytes(r[2]) for r in Store(sim.nvm).records() if r[1] in (1, 3)]
    assert records and records[-1].endswith(games.record(p.game))


def test_the_end_new_game_menu_and_undo(profile, run, nvm):
    p = plan(3, 33)
    end = " ".join(p.words)
    sim = run(profile, end)
    t = sim.texts()
    assert t[0] in ("You win!", "Automa wins") and sim.app().top.game.is_terminal()
    assert any("OK: new" in x for x in t)
    assert sim.layout_problems() == []
    # OK: the same game again (the same difficulty, no move yet); Back: the menu; the end's
    # save goes either way
    again = run(profile, end + " ok")
    top = again.app().top
    assert type(top).__name__ == "SoloScreen" and top.game.params[0] == 3, top
    assert top.game.actions() == [] and again.app().store.load_game() is None
    assert type(run(profile, end + " back").app().top).__name__ == "MainMenu"
    # undo from the end: the last action taken back, the game saved again
    sim = run(profile, end + " long:back", nvm)
    assert sim.app().top.game.actions() == p.game.actions()[:-1]
    from companion.store.store import Store

    assert Store(sim.nvm).load_game() is not None


def test_holding_next_turns_the_wheel_on(profile, run):
    # the first card's wheel starts on food 1 (all twelve alike); held 800 ms: 1 + 3 repeats
    sim = run(profile, "wait:3000 ok ok hold:next:800")
    assert sim.app().top.choices[sim.app().top.sel] == 5
    sim = run(profile, "wait:3000 ok ok hold:next:800 ok")
    assert sim.app().top.game.actions() == [5]


def test_nothing_to_undo_at_the_start(profile, run):
    sim = run(profile, "wait:3000 ok ok long:back")
    assert "Nothing to undo" in " ".join(sim.texts())
    assert sim.texts()[0] == ("Card 1 of 9" if profile == "pico-display-pack" else
                              "Card 1 of 9: top left")  # the colour title's 19 cells


def test_back_leaves_and_the_menu_carries_on(profile, run, nvm):
    p = plan(1, 5)
    run(profile, " ".join(_prefix(p, 11) + ["back"]), nvm)
    sim = run(profile, "ok", nvm)  # the resume prompt: Resume
    assert sim.app().top.game.actions() == p.game.actions()[:11]
    sim = run(profile, "back ok", nvm)  # Back keeps it; opening the game from the menu too
    assert sim.app().top.game.actions() == p.game.actions()[:11]


def test_power_cut_in_a_save_resumes_to_a_saved_state(profile, run, cut_saves):
    p = plan(3, 9)
    want = p.game.actions()
    cuts = cut_saves(run(profile, None), " ".join(p.words[:-3]), random.Random(5), 12,
                     at_least=21)
    for before, cut, path in cuts:
        s = run(profile, "ok", path)
        top = s.app().top
        game = getattr(top, "game", None)
        if game is None:
            continue  # the save was lost: the menu (a message says so), never a wrong game
        got = game.actions()
        assert got == want[:len(got)], (cut, got)
        # the last action saved before this write is never lost
        from companion.store.store import Store

        old = Store(bytearray(before)).load_game()
        if old is not None:
            assert len(got) >= len(games.from_bytes(old[1]).actions())


def test_corrupt_save_starts_a_new_game_with_a_message(profile, run, nvm, nvm_store):
    store = nvm_store(nvm)
    good = games.new("space_lunch", 0)
    for a in (1, 2, 3):
        good.apply(a)
    data = bytearray(good.to_bytes())
    data[5] ^= 0x55  # a flipped byte: the checksum fails
    store.save_game("space_lunch", bytes(data))
    sim = run(profile, "ok", nvm)
    t = " ".join(sim.texts())
    assert "unreadable" in t
    assert sim.app().top.__class__.__name__ == "SetupScreen"
