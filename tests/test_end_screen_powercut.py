"""A game's end screen, through the buttons, on both displays: every game played to its end,
then the power cut while the result is on screen. The power comes back to that end screen
(the same result, the same choices), the game's record kept once; "New game" there starts the
same game again with the same players and settings, and the end's save goes when the end is
left. The simulator runs the firmware as main.run does (a game in its own App, as a game in
its own VM on the board); Let's Do Lunch, whose dice follow the clock, is played by the
bench's player on an App driven by hand."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import test_screen_stack as stack
from test_space_lunch_screens import Watch, plan, watching
from test_space_lunch_screens_duel import plan_duel

from shared_rules import games

__all__ = ("watching",)  # the fixture the Watch simulator needs (autouse)

# the screenshots go to the test's own folder (a bare name would be written where pytest runs)
CUT = " shot:{0}/end.png reset wait:3000 shot:{0}/cut.png"


def store(nvm):
    from companion.store.store import Store

    return Store(nvm)


def kept(nvm):
    """The finished games' records, bare (out of their envelopes)."""
    from companion.store.records import open_envelope

    return [open_envelope(r[1], r[2])[2] for r in store(nvm).records()
            if r[1] in (1, 3)]


def space_lunch_solo():
    p = plan(3, 33)
    return " ".join(p.words), p.game


def space_lunch_duel():
    p = plan_duel(1, 8)
    return " ".join(p.words), p.game


def scoreboard(board):
    def script():
        return stack.SCOREBOARDS[board](), None

    return script


GAMES = {"space_lunch": space_lunch_solo, "space_lunch duel": space_lunch_duel,
         "aqua_score": scoreboard("aqua_score"), "battle_race": scoreboard("battle_race"),
         "days_score": scoreboard("days_score")}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_cut_on_the_end_screen_comes_back_to_it_and_new_game_plays_again(
        name, profile, simulate, nvm, tmp_path):
    script, want = GAMES[name]()
    sim = simulate(profile, script + CUT.format(tmp_path) + " ok wait:1000 shot:{}/again.png"
                   .format(tmp_path), nvm, cls=Watch)
    end, cut, again = sim.captures[-3:]
    assert end["texts"] == cut["texts"], (end["texts"], cut["texts"])
    assert cut["problems"] == []
    if name.startswith("space_lunch"):
        assert cut["screen"] in ("SoloScreen", "DuelScreen")
        assert cut["actions"] == want.actions()  # the table at its end: OK new, Back menu
    else:
        assert cut["texts"][0] == "Game over"
        assert cut["texts"][-2:] == ["New game", "Menu"]  # New game first: one press
    records = kept(sim.nvm)
    assert len(records) == 1, "the game's record, once"
    ended = games.from_bytes(records[0])
    assert ended.is_terminal() and (want is None or ended.actions() == want.actions())
    assert "Oops - restarting" not in sim.texts() and stack.crashes(sim.nvm) == []
    # New game: the same game again, not one move in; the end's save is gone
    top = sim.app().top
    if name == "space_lunch duel":
        assert again["screen"] == "FirstPlayer" and again["texts"][0] == "Who starts?"
        assert again["texts"][1:] == ["Pick at random", "P1", "P2"]
    else:
        assert again["actions"] == [], again
        fresh = top.game.params
        if name == "space_lunch":
            fresh = fresh[:2]  # a new deal (when the device deals), the same difficulty
        assert fresh == (ended.params[:2] if name == "space_lunch" else ended.params)
    assert store(sim.nvm).load_game() is None
    assert len(kept(sim.nvm)) == 1


@pytest.mark.parametrize("end", ["menu", "back"])
def test_leaving_the_end_screen_forgets_it(end, profile, simulate, nvm, tmp_path):
    """Menu or Back on the end screen: the menu, the end's save gone, so the next power-on
    is the plain menu (no end screen again, no "Resume game?")."""
    keys = {"menu": " next ok", "back": " back"}[end]
    sim = simulate(profile, stack.SCOREBOARDS["days_score"]() + CUT.format(tmp_path) + keys
                   + " wait:500 reset wait:3000", nvm)
    t = sim.texts()
    assert t[0] == "Lunchbox" and "Resume game?" not in t, t
    assert store(sim.nvm).load_game() is None
    assert len(kept(sim.nvm)) == 1


def test_a_cut_on_a_let_s_do_lunch_match_end(profile, tmp_path):
    """The match's Game over, the power cut, and back: the same result; New game: a match
    with the same settings (target, computer, dice), its record kept once."""
    from lets_do_lunch_presses import OK, Box, Player, setup

    path = str(tmp_path / "nvm.bin")
    box = Box(profile, nvm_path=path, dice_seed=7)
    try:
        setup(box, 1, 1, target=5)
        texts = Player(box, 2, seed=3).play_match()
        assert texts[0] == "Game over"
        saved = box.store.load_game()
        assert saved is not None and games.from_bytes(saved[1]).is_terminal()
        n = len(kept(box.nvm))  # one record a game of the match
        assert n >= 1 and kept(box.nvm)[-1] == saved[1]
    finally:
        box.close()
    box = Box(profile, nvm_path=path, dice_seed=7)  # the power comes back
    try:
        box.wait(500)
        assert box.texts() == texts
        assert len(kept(box.nvm)) == n == len(set(kept(box.nvm)))
        box.press(OK)  # New game
        top = box.top
        assert type(top).__name__ == "PlayScreen" and top.game.actions() == []
        assert top.game.params == games.from_bytes(saved[1]).params
        assert len(kept(box.nvm)) == n
    finally:
        box.close()


def _final(kind, profile, seed=5):
    """A table (tests/playthrough.py) plays ``kind`` to its end; the flash just before the
    last action, and that action."""
    from playthrough import Policy, Table, game_screen

    t = Table(profile, seed, Policy(suggest=0.7, undo=0.0, cut=0.0))
    t.kind = kind
    t.open(kind)
    last = [None, None]
    press = t.box.press

    def watched(button, long=False):  # the flash and the game before each press
        g = game_screen(t.box.app)
        if g is not None and not g.game.is_terminal():
            last[:] = [bytes(t.box.flash.mem), g.game.actions()]
        press(button, long)

    t.box.press = watched
    t.play_one(kind)
    t.box.press = press
    image, actions = last
    saved = store(t.box.flash.copy()).load_game()
    end = games.from_bytes(saved[1]).actions()
    assert end[:len(actions)] == actions and len(end) == len(actions) + 1, "one more action"
    return t, image, end


def _resume(t, final, redo=True):
    """After the power came back: through "Resume game?" to the game; with ``redo``, the
    last action again if its save was lost (then the end screen)."""
    from playthrough import OK, game_screen

    b = t.box
    for _ in range(20):
        b.step()
    if b.name() == "ConfirmDialog" and b.title() == "Resume game?":
        t.press(OK)
        for _ in range(20):
            b.step()
    g = game_screen(b.app)
    if redo and g is not None and not g.game.is_terminal():
        assert g.game.actions() == final[:-1]
        g.act(final[-1])
        for _ in range(20):
            b.step()


@pytest.mark.parametrize("kind", ["space_lunch", "days_score"])
def test_a_cut_at_every_byte_of_the_end_keeps_the_record_once(kind):
    """The last action's writes (the end saved, then its record kept), cut after each byte:
    back on, the end screen, the record kept once, the end saved until it is left."""
    from _flash import PowerCut
    from playthrough import game_screen

    t, image, final = _final(kind, "pico-ssd1306-5btn")
    b = t.box
    try:
        seen = set()
        k = 0
        while True:
            b.flash.mem[:] = image
            b.boot()
            _resume(t, final, redo=False)  # the game as it was before its last action
            g = game_screen(b.app)
            assert g is not None and g.game.actions() == final[:-1], (k, b.shown())
            before = b.flash.programmed
            b.flash.cut_after = k
            try:
                g.act(final[-1])
                cut = False
            except PowerCut:
                cut = True
            b.flash.cut_after = None
            if cut:
                b.boot()
                _resume(t, final)
            for _ in range(20):
                b.step()  # the end screen is built once the action is handled (app.later)
            assert t.at_end(), (k, b.shown())
            ended = [r for r in kept(b.flash) if r == games.record(games.from_bytes(r))]
            mine = [r for r in ended if games.from_bytes(r).actions() == final]
            assert len(mine) == 1, (k, len(mine))
            assert store(b.flash.copy()).load_game()[1].endswith(mine[0])
            seen.add(cut)
            if not cut:
                assert k >= b.flash.programmed - before  # every byte of the writes was cut
                break
            k += 1
        assert seen == {True, False} and k > 20
    finally:
        b.close()


@pytest.mark.parametrize("name", ["days_score", "space_lunch"])
def test_new_game_at_an_end_says_when_the_memory_is_nearly_full(name, profile, simulate,
                                                                nvm):
    """New game on an end screen starts the game as its new-game list does, so it warns as
    that list does when the records not pulled nearly fill the memory: over the game's
    screen (Space Lunch builds it once the press is handled), OK goes on to it."""
    from companion.app.catalog import about
    from companion.store.store import KIND_GAME

    s = store(nvm_file(nvm))
    while s.room(about(name)["record_bytes"]) > 1:  # the size the warning counts with
        s.append_record(KIND_GAME, b"\x01" + bytes(120))  # games the host has not pulled
    if name == "days_score":  # OK on the warning the new-game list showed too
        script = stack.SCOREBOARDS[name]().replace("next*4 ok ", "next*4 ok ok ", 1)
        screen = "DaysScreen"
    else:
        words = plan(3, 33).words
        script = " ".join(words[:2] + ["ok"] + words[2:])
        screen = "SoloScreen"
    sim = simulate(profile, script + " shot:end ok wait:500 shot:warned ok wait:500 shot:game",
                   nvm, cls=Watch)
    end, warned, game = sim.captures[-3:]
    assert end["screen"] != "MessageScreen" and end["actions"] != []
    assert warned["texts"][0] == "Memory" and warned["screen"] == "MessageScreen", warned
    assert game["screen"] == screen and game["actions"] == []


def nvm_file(path):
    from lunchbox.sim.hw import FileNvm

    return FileNvm(path)
