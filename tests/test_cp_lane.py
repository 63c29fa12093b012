"""The real-CircuitPython lane, short run (make test): on each display profile, CircuitPython
9.2.2's own interpreter boots the drive `lunchbox sync` builds (.mpy, as sync ships it), with
24 KB held back from the start; the app reaches the menu, opens each game in its own VM and
comes back, with no traceback. The long run (every heap flow, power cuts, every game in turn
in one power-on) is tests/test_cp_lane_soak.py. How the lane works: tests/cplane.py."""

import cplane
import pytest
from profiles_under_test import PROFILES


def open_each():
    """Every menu game's first real screen from the menu, and Back to the menu (a fresh VM
    each way; back from a game the menu's cursor is on that game): the keys after its menu
    row and the screen's class are its descriptor's ``first_screen``."""
    from lunchbox.records.game_names import about, firmware_path

    firmware_path()
    from companion.app.catalog import menu_games

    out, at = [], 0
    for row, (game_id, label) in enumerate(menu_games()):
        if "first_screen" not in about(game_id):
            raise LookupError("the descriptor of {} ({}) has no first_screen: the lane cannot "
                              "open it (docs/adding-a-game.md)".format(label, game_id))
        keys, top = about(game_id)["first_screen"]
        moves = row - at
        out.append(((("next*{} ".format(moves) if moves > 1 else "next " if moves else "") +
                     "ok " + keys).strip(), top))
        at = row
    return out


OPEN_EACH = open_each()


def open_each_words():
    words = ["wait:3000", "next", "shot:menu", "prev"]  # the frame compared with the simulator
    for keys, _top in OPEN_EACH:
        words += keys.split() + ["mark:open", "back", "mark:menu"]
    return words


# one emulator run per profile: each profile's tests on one xdist worker (make test runs
# --dist loadgroup), the two profiles side by side
@pytest.fixture(scope="module", params=[
    pytest.param(p, marks=pytest.mark.xdist_group("cp-" + p)) for p in PROFILES])
def opened(request, tmp_path_factory):
    why = cplane.available()
    assert why is None, why  # the lane is part of make test: npm ci installs rp2040js
    return request.param, cplane.run(request.param, open_each_words(), hold=cplane.HOLD,
                                     out=tmp_path_factory.mktemp("shots"), timeout=900)


def _profiles(im):
    """Mean level of each pixel row and column: backgrounds and bars, not glyphs (Blinka's
    fonts differ from the board's in detail; ARCHITECTURE.md)."""
    w, h = im.size
    px = im.load()
    rows = [sum(px[x, y] for x in range(w)) // w for y in range(h)]
    cols = [sum(px[x, y] for y in range(h)) // h for x in range(w)]
    return rows, cols


def test_the_board_draws_what_the_simulator_draws(opened, tmp_path):
    """The pixels real displayio sent to the panel (read back by the emulated ST7789 or
    SSD1306) against the simulator's screenshot of the same moment: the menu, cursor on the
    second game."""
    from PIL import Image

    from lunchbox.sim import Simulator

    profile, run = opened
    shot = run.shots["menu"]
    assert shot["path"], "the display controller was never written"
    # the panel shows what it was sent: out of its sleep with its display on (the ST7789's
    # power-on is finished at the first refresh: companion/board/hwpico.py)
    assert shot["shows"] and shot["faults"] == [], shot
    board = Image.open(shot["path"]).convert("L")
    if "display" in profile:  # the Display Pack's glass is portrait (lane.js keeps it so)
        board = board.rotate(90, expand=True)
    sim = Simulator(profile, nvm_path=None, mode="headless")
    try:
        sim.run_script("wait:3000 next shot:{}".format(tmp_path / "sim.png"))
    finally:
        sim.close()
    picture = Image.open(tmp_path / "sim.png").convert("L").resize(board.size)
    for a, b in zip(_profiles(board), _profiles(picture)):
        close = sum(1 for p, q in zip(a, b) if abs(p - q) < 24)
        assert close >= 0.9 * len(a), (a, b)


def test_boots_to_the_menu_and_opens_each_game(opened):
    profile, run = opened
    assert run.error is None and run.done, (run.error, run.transcript())
    assert run.crashes == [], run.crashes
    assert run.passes and run.passes[0].top == "MainMenu"
    # every command reached the panel no sooner than its datasheet allows, in every VM
    assert run.panel_shows and run.panel_faults == [], run.panel_faults
    want = []
    for _keys, top in OPEN_EACH:
        want += [("open", top), ("menu", "MainMenu")]
    assert cplane.tops_at_marks(run) == want, run.transcript()


def test_every_screen_keeps_the_margin(opened):
    """Every pass ran with 24 KB held back, so getting here at all shows the margin; the
    collected heap left beside it is printed for the record."""
    _profile, run = opened
    least = min(p.free for p in run.passes)
    assert least > 0
    print("least free beside 24 KB held:", least)


def test_each_game_starts_in_a_fresh_vm(opened):
    """Each game open and each way back is a soft reload ("soft reboot" on the console), and
    the menu's heap is the same every time it comes back: nothing of a game stays."""
    _profile, run = opened
    # "soft reboot" can follow output left without its newline on the same console line
    assert sum(line.count("soft reboot") for line in run.lines) == 2 * len(OPEN_EACH)
    menus = [p.free for p in run.passes if p.top == "MainMenu" and p.handled == 0]
    assert len(menus) == len(OPEN_EACH) + 1
    assert max(menus) - min(menus) <= 256, menus


def test_the_docs_give_the_recorded_lane_figures():
    """docs/firmware.md's table is bench/cp_heap.py's, from the figures the long run checks a
    fresh run against (bench/data/cp_lane.json): the docs' numbers are the lane's."""
    import json
    import sys

    sys.path.insert(0, str(cplane.ROOT / "bench"))
    import cp_heap

    recorded = json.loads(cplane.FIGURES.read_text())
    assert {(r["flow"], r["profile"]) for r in recorded} == {
        (f["flow"], p) for f, p in cp_heap.jobs_of(cp_heap.heap_flows.FLOWS)}
    docs = (cplane.ROOT / "docs" / "firmware.md").read_text()
    assert cp_heap.markdown(recorded) in docs
