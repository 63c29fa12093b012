"""Space Lunch solo on the real CircuitPython 9.2.2 (the Pico UF2 in rp2040js): the hint search
must fit the fixed Python stack (CIRCUITPY_PYSTACK_SIZE, 1536 bytes by default) on top of the
app's own frames, with room to spare.

The drive holds the rules and the view helpers as .mpy (CircuitPython's own mpy-cross). The
app's frames are stood in for by generated functions of the same pystack sizes (read from the
firmware's own .mpy: tests/mpy_frames.py), in the order the app calls them on its two deepest
ways to the hints: a card entered at the Automa's turn (App.step down to the solo screen's
_think) and a saved game resumed from the start-up prompt. Seeded games are then played as
the solo screen plays them, every call the screen makes at each step run from the top of the
deeper stand-in chain plus extra 48-byte frames: the most extra frames that still work is the
headroom, and it must stay at least MARGIN_BYTES.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CP = ROOT / "tests" / "cp"
UF2 = CP / "adafruit-circuitpython-raspberry_pi_pico-en_US-9.2.2.uf2"
MPY_CROSS = CP / "mpy-cross-9.2.2-linux-x86_64"
NODE_MODULES = ROOT / "node_modules"
sys.path.insert(0, str(Path(__file__).resolve().parent))

import mpy_frames  # noqa: E402

FW = ROOT / "firmware"
# The app's frames from code.py down to the call of space_lunch_view.evaluate, outermost first.
CARD_PATH = (
    ("code.py", None),  # the module frame: the raw REPL block's own stands in for it
    ("companion/app/main.py", "run"),
    ("companion/app/loop.py", "App.run"),
    ("companion/app/loop.py", "App.step"),
    ("companion/screen/game.py", "GameScreen.on_button"),
    ("companion/games/space_lunch/table.py", "SpaceLunchScreen.on_game_button"),
    ("companion/games/space_lunch/table.py", "SpaceLunchScreen.enter_card"),
    ("companion/screen/game.py", "GameScreen.act"),
    ("companion/games/space_lunch/table.py", "SpaceLunchScreen.show"),
    ("companion/games/space_lunch/solo.py", "SoloScreen._think"),
)
RESUME_PATH = (
    ("code.py", None),
    ("companion/app/main.py", "run"),
    ("companion/app/loop.py", "App.run"),
    ("companion/app/loop.py", "App.step"),
    ("companion/screen/screens.py", "ConfirmDialog.on_button"),
    ("companion/screen/screens.py", "ConfirmDialog._close"),
    ("companion/app/loop.py", "App.pop"),
    ("companion/app/menu.py", "resume_prompt.yes"),
    ("companion/app/loader.py", "open_game"),
    ("companion/games/space_lunch/entry.py", "open"),
    ("companion/app/loop.py", "App.push"),
    ("companion/app/loop.py", "App._show_top"),
    ("companion/screen/game.py", "GameScreen.enter"),
    ("companion/games/space_lunch/table.py", "SpaceLunchScreen.show"),
    ("companion/games/space_lunch/solo.py", "SoloScreen._think"),
)
NEST_BYTES = 48  # one extra frame of headroom: nest(k, fn, arg)
MARGIN_BYTES = 192  # to spare under the deepest app path: four frames of a small method
START_K = 24
GAMES = 2
RULES = ("__init__", "_compat", "rng", "_codec", "protocol", "registry", "games",
         "space_lunch/__init__", "space_lunch/actions", "space_lunch/rules", "space_lunch/game",
         "space_lunch/duel", "space_lunch/hints")


def _missing():
    for need, what in ((NODE_MODULES / "rp2040js", "rp2040js (npm ci)"), (UF2, "the UF2"),
                       (MPY_CROSS, "mpy-cross")):
        if not need.exists():
            return what
    return None


def app_frames(path):
    """Bytes of each frame of ``path`` (the module frame counted by the REPL block)."""
    cache = {}
    out = []
    for rel, name in path[1:]:
        if rel not in cache:
            cache[rel] = mpy_frames.frames(str(MPY_CROSS), str(FW / rel))
        if name not in cache[rel]:
            raise AssertionError("{} has no {} any more: update the path here".format(rel, name))
        out.append(cache[rel][name])
    return out


def stand_ins(sizes):
    """Source of f0..fn: f_i calls f_{i+1}, each a frame of sizes[i] bytes (at least 40: two
    arguments and a call), the last one calls fn(arg)."""
    lines = []
    for i, size in enumerate(sizes):
        pad = max(0, (size - 40) // 4)
        lines.append("def f{}(fn, arg):".format(i))
        if pad:
            lines.append("    " + " = ".join("p{}".format(j) for j in range(pad)) + " = 0")
        callee = "f{}".format(i + 1) if i + 1 < len(sizes) else "fn"
        lines.append("    return {}({})".format(callee, "fn, arg" if i + 1 < len(sizes) else "arg"))
    return "\n".join(lines) + "\n"


PLAY = r'''
from shared_rules import games
from shared_rules.rng import Rng
from shared_rules.space_lunch.actions import AUTOMA, AUTOMA_SEAT
import space_lunch_view as V
def nest(k, arg):
    if k:
        return nest(k - 1, arg)
    return f0(arg[0], arg[1])
def look(e):
    # what the solo screen asks of the rules in state e (SoloScreen._think, _reset, draw,
    # coupon_menu); it stands in for the last app frame, SoloScreen._think
    if e.is_over():
        return V.result(e)
    if e.pending:
        ch = V.card_choices(e)
        V.picker_start(ch, V.weights(e, ch))
        return ch
    if e.turn == AUTOMA_SEAT:
        if e.deck:
            a = e.copy()
            a.apply(AUTOMA)
        return V.leds(e)
    V.stops(e)
    for k in V.KINDS:
        V.kind_cells(e, k)
    return V.evaluate(e, True)
k = START_K
for seed in range(1, GAMES + 1):
    r = Rng(seed)
    g = games.new("space_lunch", r.randbelow(4))
    while True:
        e = g.engine
        while True:
            try:
                seen = nest(k, (look, e))
                break
            except RuntimeError as ex:
                if "pystack" not in str(ex) or k == 0:
                    raise
                k -= 1
        if g.is_terminal():
            break
        if e.pending:
            act = r.choice(V.card_choices(e))
        elif e.turn == AUTOMA_SEAT:
            act = AUTOMA
        else:
            act = seen[0] if r.randbelow(10) < 6 else r.choice(g.legal_actions())
        nest(k, (g.apply, act))
    print("GAME", seed, "winner", g.engine.winner, "actions", len(g.actions()))
print("HEADROOM", k)
'''


def build_image(path, files):
    # the lane's FAT image builder, with a boot_out.txt (CircuitPython ignores it here)
    import cplane

    cplane.fat_image(files, path)


def mpy(src, name, tmp):
    out = tmp / (name.replace("/", "_") + ".mpy")
    subprocess.run([str(MPY_CROSS), "-o", str(out), "-s", name, str(src)], check=True)
    return out.read_bytes()


def test_space_lunch_hints_fit_the_pystack_under_the_app(tmp_path):
    missing = _missing()
    if missing:
        pytest.fail("the real-CircuitPython test needs {} in tests/cp or node_modules".format(
            missing))
    card, resume = app_frames(CARD_PATH), app_frames(RESUME_PATH)
    sizes = resume if sum(resume) >= sum(card) else card
    play = PLAY.replace("START_K", str(START_K)).replace("GAMES", str(GAMES))
    src = stand_ins(sizes[:-1]) + play
    (tmp_path / "steps.py").write_text(src)
    got = mpy_frames.frames(str(MPY_CROSS), str(tmp_path / "steps.py"))
    # every stand-in costs what its app frame costs (or 8 bytes more for the smallest ones);
    # look() stands in for the last one
    for i, size in enumerate(sizes[:-1]):
        assert size <= got["f{}".format(i)] <= max(size, 40), (i, size, got)
    assert got["look"] >= sizes[-1], (got["look"], sizes[-1])
    assert got["nest"] == NEST_BYTES

    files = {"shared_rules/__init__.py": (ROOT / "shared_rules" / "__init__.py").read_bytes()}
    for name in RULES[1:]:
        files["shared_rules/{}.mpy".format(name)] = mpy(
            ROOT / "shared_rules" / (name + ".py"), "shared_rules/{}.py".format(name), tmp_path)
    files["space_lunch_view.mpy"] = mpy(FW / "companion" / "games" / "space_lunch" / "view.py",
                                        "space_lunch_view.py", tmp_path)
    build_image(tmp_path / "fat.img", files)
    steps = tmp_path / "steps.py"
    env = dict(os.environ, NODE_PATH=str(NODE_MODULES))
    proc = subprocess.run(
        ["node", str(CP / "cpdrive.js"), "--uf2", str(UF2), "--bootrom", str(CP / "bootrom.js"),
         "--fs", str(tmp_path / "fat.img"), "--quiet", "--timeout", "300", str(steps)],
        capture_output=True, text=True, timeout=400, env=env)
    out = proc.stdout
    assert "STDERR" not in out and "TIMEOUT" not in out, out[-3000:]
    assert len(re.findall(r"^GAME \d+ winner \d", out, re.M)) == GAMES, out[-3000:]
    k = int(re.search(r"^HEADROOM (\d+)", out, re.M).group(1))
    # spare bytes: the k + 1 nest frames (nest(0) too) and what the steps' module frame costs
    # beyond code.py's
    code_py = mpy_frames.frames(str(MPY_CROSS), str(FW / "code.py"))["<module>"]
    spare = (k + 1) * NEST_BYTES + got["<module>"] - code_py
    print("app frames: card entry {} B, resume {} B; spare {} B ({} extra frames)".format(
        sum(card) + code_py, sum(resume) + code_py, spare, k + 1))
    assert spare >= MARGIN_BYTES, (
        "the Space Lunch hints leave {} B of the Python stack under the app's deepest path "
        "(want {} B): flatten them (ARCHITECTURE.md, CIRCUITPY_PYSTACK_SIZE)".format(
            spare, MARGIN_BYTES))
