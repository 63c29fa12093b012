"""Space Lunch's two switches kept in the app settings (Settings > Hints, Settings > Lunch
cards, the same two in the game's new-game list), through the simulator on both displays: one
press flips each, they are saved and kept across a restart, older and corrupt settings bytes,
`lunchbox push` keeps them; and the dealt mode after a power cut: the card shown again is the
one shown before (the deal's seed is in the game's record)."""

import os
import random
import sys
from pathlib import Path

import pytest

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from space_lunch_presses import plan  # noqa: E402

from lunchbox.sim import Simulator  # noqa: E402
from shared_rules import games  # noqa: E402

SETTINGS = "prev ok"  # Settings is the main menu's last row
HINTS = 3  # Settings rows: Brightness, LEDs, Player names, Hints, Lunch cards, Dim screen,
# Screen off, Clock, Clock bonus, About
NAMES = ["ANNA", "BO", "P3", "P4", "P5", "P6", "P7"]


@pytest.fixture(autouse=True)
def deal_seed(monkeypatch):
    from companion.games.space_lunch import entry as space_lunch

    monkeypatch.setattr(space_lunch, "DEAL_SEED", [None])
    return space_lunch.DEAL_SEED


class Top(Simulator):
    """A simulator that remembers the app the firmware started last (its top screen)."""

    def capture(self, path):
        top = APPS[-1].top
        shot = {"texts": self.texts(), "problems": self.layout_problems(),
                "choices": list(getattr(top, "choices", []))}
        self.captures.append(shot)
        return shot


APPS = []


@pytest.fixture(autouse=True)
def track_apps(monkeypatch):
    from companion.app import loop as app_module

    original = app_module.App.__init__

    def init(self, *a, **kw):
        APPS.append(self)
        original(self, *a, **kw)

    monkeypatch.setattr(app_module.App, "__init__", init)
    yield
    APPS.clear()


def run(profile, script, nvm):
    sim = Top(profile, nvm_path=nvm, mode="headless")
    sim.run_script(script)
    return sim


def mark(texts, label):
    """The right-hand mark of a list row: read off the list on top (its rows scroll: four
    are on screen), and when the row is on screen, drawn there beside it."""
    menu = APPS[-1].top.menu
    got = menu.item_marks[menu.items.index(label)]
    if label in texts:
        assert texts[texts.index(label) + 1] == got, texts
    return got


def clean(sim):
    t = sim.texts()
    assert sim.layout_problems() == [], t
    assert not [x for x in t if x.endswith("~")], t  # nothing cut
    return t


def saved(nvm):
    from companion.store.appsettings import AppSettings
    from companion.store.store import Store
    from lunchbox.sim.hw import FileNvm

    return AppSettings.from_bytes(Store(FileNvm(nvm)).load_settings())


def test_settings_rows_flip_with_one_press_and_are_kept(profile, tmp_path):
    nvm = str(tmp_path / "nvm.bin")
    t = clean(run(profile, "wait:3000 " + SETTINGS, nvm))
    assert t[0] == "Settings"
    assert (mark(t, "Hints"), mark(t, "Lunch cards")) == ("on", "typed")  # the defaults
    t = clean(run(profile, "{} next*{}".format(SETTINGS, HINTS + 4), nvm))  # scrolled down
    assert "Lunch cards" in t and "typed" in t and "Clock" in t
    # one press on Hints: off, still in Settings, saved
    t = clean(run(profile, "{} next*{} ok".format(SETTINGS, HINTS), nvm))
    assert t[0] == "Settings" and mark(t, "Hints") == "off"
    assert not saved(nvm).hints and not saved(nvm).deal
    # one press on Lunch cards: dealt
    t = clean(run(profile, "{} next*{} ok".format(SETTINGS, HINTS + 1), nvm))
    assert (mark(t, "Hints"), mark(t, "Lunch cards")) == ("off", "dealt")
    s = saved(nvm)
    assert (s.hints, s.deal, s.leds, s.brightness) == (False, True, True, 50)  # rest kept
    # a restart (a new simulator on the same nvm): both kept, in Settings and in the game's
    # new-game list
    t = clean(run(profile, SETTINGS, nvm))
    assert (mark(t, "Hints"), mark(t, "Lunch cards")) == ("off", "dealt")
    t = clean(run(profile, "ok", nvm))  # Space Lunch: the new-game list
    assert t[0] == "Space Lunch"
    assert (mark(t, "Hints"), mark(t, "Cards")) == ("off", "dealt")
    # flipped back in the new-game list (Cards is its last row, Hints the one above): saved
    # in the settings, which Settings shows after another restart
    t = clean(run(profile, "ok prev ok prev ok", nvm))
    assert (mark(t, "Hints"), mark(t, "Cards")) == ("on", "typed")
    s = saved(nvm)
    assert (s.hints, s.deal) == (True, False)
    t = clean(run(profile, SETTINGS, nvm))
    assert (mark(t, "Hints"), mark(t, "Lunch cards")) == ("on", "typed")


def test_the_new_game_list_starts_games_as_the_settings_say(profile, tmp_path, deal_seed):
    from companion.games.space_lunch.entry import seed_of, seed_params

    assert seed_of((2, 0)) == 0 and seed_of((2, 0) + seed_params(0xCAFEF00D)) == 0xCAFEF00D
    deal_seed[0] = 0xCAFEF00D
    nvm = str(tmp_path / "nvm.bin")
    # cards typed: the food wheel; the game's record has no deal seed
    sim = run(profile, "wait:3000 ok ok", nvm)
    top = APPS[-1].top
    assert type(top).__name__ == "SoloScreen" and not top.dealing
    assert top.game.params[2:] == (0, 0, 0, 0)
    assert clean(sim)[0] in ("Card 1 of 9: top left", "Card 1 of 9")  # the room there is
    # Settings > Lunch cards: dealt, then Space Lunch, Easy: the device deals,
    # the deal's seed in the game's parameters
    nvm = str(tmp_path / "dealt.bin")
    sim = run(profile, "wait:3000 {} next*{} ok back next ok ok".format(SETTINGS, HINTS + 1),
              nvm)  # Back: the menu, on Settings; next wraps to Space Lunch
    top = APPS[-1].top
    assert top.dealing and seed_of(top.game.params) == 0xCAFEF00D
    assert clean(sim)[0].startswith("Put ")


def test_older_and_corrupt_settings_bytes(profile, tmp_path):
    from companion.store.store import Store
    from lunchbox.sim.hw import FileNvm

    # settings written before the two switches: 60%, LEDs off, names; they read as the
    # defaults for the switches, everything else kept
    old = bytes((1, 60, 0, 7)) + b"".join(bytes((len(n),)) + n.encode() for n in NAMES)
    nvm = str(tmp_path / "old.bin")
    Store(FileNvm(nvm)).save_settings(old)
    t = clean(run(profile, "wait:3000 " + SETTINGS, nvm))
    assert (mark(t, "Brightness"), mark(t, "LEDs")) == ("60%", "off")
    assert (mark(t, "Hints"), mark(t, "Lunch cards")) == ("on", "typed")
    t = clean(run(profile, "{} next*{} ok".format(SETTINGS, HINTS), nvm))  # and they save
    s = saved(nvm)
    assert (s.brightness, s.leds, s.names, s.hints, s.deal) == (60, False, NAMES, False, False)
    # a flag no firmware wrote: refused as before (the app starts on the defaults)
    nvm = str(tmp_path / "bad.bin")
    Store(FileNvm(nvm)).save_settings(old[:2] + bytes((0xA0,)) + old[3:])
    t = clean(run(profile, "wait:3000 " + SETTINGS, nvm))
    assert (mark(t, "Brightness"), mark(t, "Hints"), mark(t, "Lunch cards")) == (
        "50%", "on", "typed")


def test_lunchbox_push_keeps_the_switches_and_the_board_refuses_bad_flags():
    import linkloop

    from lunchbox.records import link as hostlink
    from lunchbox.records import linkproto as lp
    from lunchbox.records import push

    a = push.appsettings()
    raw = a.AppSettings(70, True, NAMES, hints=False, deal=True).to_bytes()
    s = a.AppSettings.from_bytes(push.change(raw, set_names=[(2, "cy")], brightness=40))
    assert (s.names[:2], s.brightness, s.hints, s.deal) == (["ANNA", "CY"], 40, False, True)
    board = linkloop.Board()

    class Ticker:
        t = 0.0

        def __call__(self):
            Ticker.t += 0.05
            return Ticker.t

    link = hostlink.Link(board.stream(), clock=Ticker())
    link.set_settings(raw)
    assert board.store.load_settings() == raw
    with pytest.raises(lp.DeviceError, match="flags"):
        link.set_settings(raw[:2] + bytes((0xA1,)) + raw[3:])
    assert board.store.load_settings() == raw


def _dealt_plan(difficulty, seed, deal_seed):
    p = plan(difficulty, seed, dealt=True)
    deal_seed[0] = p.seed
    return p


def _cut_points(p):
    """Key words of the plan where a dealt card is on screen, not yet placed: an opening
    card, a refill after a take, and the Automa's turn with its refill."""
    cards = [i for i in range(len(p.words)) if p.kinds[i] == "card"]
    automa = [i for i in range(1, len(p.words)) if p.kinds[i] == "automa"
              and p.counts[i] - p.counts[i - 1] == 2]  # its take and a refill dealt
    return sorted({cards[3], cards[len(cards) // 2], automa[1], automa[-1]})


@pytest.mark.parametrize("difficulty", [0, 3])
def test_a_dealt_card_comes_up_again_after_a_power_cut(difficulty, profile, tmp_path,
                                                      deal_seed):
    from companion.store.store import Store

    p = _dealt_plan(difficulty, 70 + difficulty, deal_seed)
    want = games.record(p.game)
    for i in _cut_points(p):
        # up to the card's OK, a look, the power goes (the simulator's reset: the firmware
        # starts again on the same nvm), Resume, a look, then the rest of the planned game
        words = p.words[:i] + ["shot:before", "reset", "ok", "shot:after"] + p.words[i:]
        sim = run(profile, " ".join(words), str(tmp_path / "cut{}.bin".format(i)))
        assert sim.starts == 2
        before, after = sim.captures
        assert before["problems"] == after["problems"] == []
        assert len(before["choices"]) == 1
        assert before["texts"][0].startswith(("Put ", "Automa: ", "Automa takes ")), before
        assert after["texts"] == before["texts"] and after["choices"] == before["choices"]
        records = [bytes(r[2]) for r in Store(sim.nvm).records() if r[1] in (1, 3)]
        assert records and records[-1].endswith(want), i


def test_a_dealt_game_cut_inside_a_save_shows_the_planned_card(profile, deal_seed, simulate,
                                                               cut_saves):
    """A power cut in the middle of an nvm write (the save truncated at a random byte):
    the game resumes to a saved state, and the card it deals there is the planned one."""
    p = _dealt_plan(2, 81, deal_seed)
    want = p.game.actions()
    sim = simulate(profile, None, cls=Top)
    checked = 0
    for _before, _cut, path in cut_saves(sim, " ".join(p.words[:-3]), random.Random(8), 12):
        APPS.clear()
        deal_seed[0] = None  # a new game would get a random seed: the record's is used
        run(profile, "ok", path)
        top = APPS[-1].top
        game = getattr(top, "game", None)
        if game is None or not top.choices:
            continue  # lost (the menu says so) or a human turn: no card on screen
        got = game.actions()
        assert got == want[:len(got)]
        n = len(got)
        planned = want[n + 1] if want[n] == 13 else want[n]  # 13: the Automa takes first
        assert top.choices == [planned], (n, top.choices, planned)
        checked += 1
    assert checked >= 4


def test_two_players_are_dealt_too(profile, tmp_path, deal_seed):
    from companion.games.space_lunch.entry import seed_of

    deal_seed[0] = 77
    # Settings > Lunch cards: dealt; Space Lunch, Two players, the first name starts; OK on
    # the nine opening cards, a look at the tenth card's turn, the power goes, Resume
    nvm = str(tmp_path / "duel.bin")
    script = "wait:3000 {} next*{} ok back next ok next*4 ok ok ok*8 shot:a reset ok shot:b"
    sim = run(profile, script.format(SETTINGS, HINTS + 1), nvm)
    top = APPS[-1].top
    assert type(top).__name__ == "DuelScreen" and top.dealing and seed_of(top.game.params) == 77
    assert len(top.game.actions()) == 8
    a, b = sim.captures
    assert a["texts"][0].startswith("Put ") and a["texts"] == b["texts"]
    assert a["choices"] == b["choices"] and len(a["choices"]) == 1
