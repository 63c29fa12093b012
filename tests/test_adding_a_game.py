"""docs/adding-a-game.md, done: a copy of the tree gets one game more (tests/data/counter_game:
its rules folder, its screens folder) and one registry line, and nothing else; then, with
the copy as the only code on the path, the simulator's menu lists it, it is played to its end,
`lunchbox pull` takes its record off the simulator's data channel, `history` lists it under
its name, `replay` steps through it, `export` (JSON, BG Stats) has it and `stats` gives the
statistic its descriptor declares (its chart too).
"""

import ast
import difflib
import filecmp
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
GAME = Path(__file__).resolve().parent / "data" / "counter_game"
COPIED = ("firmware", "shared_rules", "host", "hardware")  # what the commands read
NEW_FOLDERS = ("shared_rules/counter", "firmware/companion/games/counter")
REGISTRY = "shared_rules/registry.py"
LINE = '    ("counter", "shared_rules.counter.game", "CounterGame"),\n'
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", ".*")
# the checks' lists of games, as the copy's code makes them (copied beside it, unchanged)
CHECKS = ("tests/playthrough.py", "tests/test_cp_lane.py", "tests/cplane.py",
          "tests/profiles_under_test.py", "bench/heap_flows.py", "bench/menu_flows.json")



def menu_length():
    """How many games the repository's menu lists: the new line's game comes after them (the
    menu is in registry order), before First player and Settings."""
    from lunchbox.records.game_names import firmware_path

    firmware_path()
    from companion.app.catalog import menu_games

    return len(menu_games())


# past the first-boot message, down the menu; the counter opens on its first row, "Add 1"
TO_COUNTER = "wait:3000 next*{} ".format(menu_length())
# P1 adds 3, P2 1, P1 2, P2 1, P1 3: P1 reaches 10 with 8 added, P2 added 2
PLAY_A, PLAY_B = "next next ok ok ", "next ok ok next next ok "


def add_line(text):
    """The registry's text with LINE appended to its ROWS (before the closing paren)."""
    start = text.index("ROWS = (")
    end = text.index("\n)", start) + 1
    return text[:end] + LINE + text[end:]


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """The repository as it is now, kept to compare with (others may edit the working tree
    while this runs)."""
    root = tmp_path_factory.mktemp("base")
    for name in COPIED:
        shutil.copytree(REPO / name, root / name, ignore=SKIP)
    return root


@pytest.fixture(scope="module")
def tree(tmp_path_factory, base):
    root = tmp_path_factory.mktemp("tree")
    for name in COPIED:
        shutil.copytree(base / name, root / name)
    for folder in NEW_FOLDERS:
        shutil.copytree(GAME / folder, root / folder, ignore=SKIP)
    for name in CHECKS:
        (root / name).parent.mkdir(exist_ok=True)
        shutil.copy(REPO / name, root / name)
    reg = root / REGISTRY
    reg.write_text(add_line(reg.read_text()))
    return root


def run(tree, *argv, stdin=None, code=None):
    """``python -m lunchbox ARGV`` (or ``python -c CODE``) in the copy, with the copy alone
    on the path and its own home folder; returns the finished process."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join((str(tree / "host"), str(tree))),
               HOME=str(tree / "home"), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    env.pop("LUNCHBOX_DB", None)
    cmd = [sys.executable, "-c", code] if code else [sys.executable, "-m", "lunchbox", *argv]
    p = subprocess.run(cmd, cwd=tree, env=env, input=stdin, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, "{}\n{}\n{}".format(" ".join(cmd[:4]), p.stdout, p.stderr)
    return p


def sim(tree, nvm, keys):
    """The texts on the simulator's screen after ``keys`` (headless, the nvm kept)."""
    out = run(tree, "sim", "--headless", "--nvm", str(nvm), "--keys", keys, "--print-screen")
    return out.stdout.splitlines()


def test_the_copy_is_what_it_imports(tree):
    """The commands below run the copy's code, not the repository's (an editable install
    must not win over PYTHONPATH): else the test would prove nothing."""
    out = run(tree, code="import lunchbox, shared_rules, shared_rules.counter.game; "
                         "print(lunchbox.__file__); print(shared_rules.__file__)")
    for line in out.stdout.splitlines():
        assert line.startswith(str(tree)), line


def test_its_rules_are_portable(tree):
    """The game's rules run on the board too: the static check make test runs on
    shared_rules finds nothing in them."""
    out = run(tree, code="import sys; from lunchbox import portability; "
                         "sys.exit(portability.main(['shared_rules/counter']))")
    assert "no problems" in out.stdout


# Server side of the pull: the simulator in real time with its data channel open, until its
# stdin closes (as tests/test_pull_sim.py runs it, in a process of its own here).
SERVE = """
import sys, threading, time
from lunchbox.sim import hw as sim_hw
from lunchbox.sim import Simulator

sim = Simulator("pico-display-pack", nvm_path=sys.argv[1], mode="headless", link=True)
stop = threading.Event()
idle = sim._idle


def slow():
    time.sleep(0.001)
    if stop.is_set():
        raise sim_hw.SimStop()
    idle()


sim._idle = slow
t = threading.Thread(target=sim.run_script, args=("wait:600000 wait:600000",), daemon=True)
t.start()
print(sim.link.path, flush=True)
sys.stdin.read()
stop.set()
t.join(10)
sim.close()
"""


def pull(tree, nvm, db):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join((str(tree / "host"), str(tree))),
               HOME=str(tree / "home"), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    server = subprocess.Popen([sys.executable, "-c", SERVE, str(nvm)], cwd=tree, env=env,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        port = server.stdout.readline().strip()
        assert port, server.stderr.read() if server.poll() is not None else "no port"
        return run(tree, "pull", "--port", port, "--db", str(db)).stdout
    finally:
        server.stdin.close()
        server.wait(30)


def test_a_game_added_in_its_folders_plays_through_every_tool(tree, base, tmp_path):
    nvm = tree / "nvm.bin"
    db = tree / "games.db"

    menu = sim(tree, nvm, TO_COUNTER)
    assert menu[0] == "Lunchbox" and "Counter" in menu

    opened = sim(tree, nvm, TO_COUNTER + "ok")
    assert opened[0] == "P1's turn" and "Add 1" in opened and "Add 3" in opened

    # two turns, then a power cut (each run is a power-on): the box offers the game again
    sim(tree, nvm, TO_COUNTER + "ok " + PLAY_A)
    offer = sim(tree, nvm, "wait:500")
    assert "Resume game?" in offer and "Counter" in offer, offer
    resumed = sim(tree, nvm, "ok")
    assert resumed[0] == "P1's turn" and "4" in resumed, resumed

    end = sim(tree, nvm, "ok " + PLAY_B)
    assert "Game over" in end and "P1 wins" in end, end

    pulled = pull(tree, nvm, db)
    assert "1 new record" in pulled, pulled

    history = run(tree, "history", "--db", str(db)).stdout
    assert "Counter (to 10)" in history and "P1" in history, history
    assert "counter" not in history  # its name, not its id
    only = run(tree, "history", "--db", str(db), "--game", "count to 10").stdout
    assert "Counter" in only

    replay = run(tree, "replay", "1", "--db", str(db)).stdout
    steps = [line.split(None, 2)[1:] for line in replay.splitlines() if line[4:5] == "."]
    assert steps == [["P1", "add 3"], ["P2", "add 1"], ["P1", "add 2"], ["P2", "add 1"],
                     ["P1", "add 3"]], replay
    assert "end: winner P1, score 8:2, 5 actions" in replay, replay

    on_screen = run(tree, "replay", "1", "--db", str(db), "--sim", "--upto", "1").stdout
    assert "P2's turn" in on_screen and "Add 1" in on_screen, on_screen

    exported = json.loads(run(tree, "export", "--format", "json", "--db", str(db)).stdout)
    (game,) = exported["games"]
    assert game["game_id"] == "counter" and game["game"] == "Counter (to 10)", game
    assert game["scores"] == [8, 2] and game["winners"] == ["P1"], game

    bg = json.loads(run(tree, "export", "--format", "bgstats", "--db", str(db)).stdout)
    assert [g["name"] for g in bg["games"]] == ["Counter"]
    assert bg["games"][0]["highestWins"] is True
    (play,) = bg["plays"]
    assert sorted((s["score"], s["winner"]) for s in play["playerScores"]) == [
        ("2", False), ("8", True)]

    plots = tmp_path / "plots"
    stats = run(tree, "stats", "--db", str(db), "--plot", str(plots)).stdout
    assert "Counter" in stats, stats
    # the statistic the game's about.json declares ("stats"), worded by it: P1 won its game
    lines = stats.splitlines()
    head = lines.index("Counter: how often the first player wins (95% interval)")
    assert lines[head + 1].split() == ["TARGET", "GAMES", "WINS", "RATE", "95%", "INTERVAL"]
    assert lines[head + 3].split()[:5] == ["to", "10", "1", "1", "100%"], stats
    assert "wrote {}".format(plots / "counter-win-rate.png") in stats, stats
    csv_text = run(tree, "export", "--db", str(db)).stdout
    assert ",counter,Counter (to 10)," in csv_text, csv_text

    only_the_game_added(tree, base)  # and the tools wrote nothing into the tree


def test_its_screenshot_is_taken_with_the_others(tree):
    """`lunchbox sim --readme-shots` (make screenshots) takes the descriptor's "shots" too,
    its keys after the game's menu row is opened."""
    shots = tree / "shots"
    out = run(tree, "sim", "--readme-shots", str(shots)).stdout.split()
    for tag in ("display-pack", "ssd1306"):
        assert str(shots / "counter-turn-{}.png".format(tag)) in out
        assert (shots / "counter-turn-{}.png".format(tag)).stat().st_size > 0
    script = run(tree, code="from lunchbox import sim; print(dict(sim.shot_scripts())"
                            "['counter-turn'])").stdout.strip()
    assert script == TO_COUNTER + "ok next next ok"


def test_sync_puts_it_on_the_board(tree):
    """`lunchbox sync`'s file set (what goes onto CIRCUITPY) has both folders, the
    descriptor included."""
    out = run(tree, code="from lunchbox.device import fileset; "
                         "from lunchbox.hardware import profiles; "
                         "p = profiles.load_profile('pico-display-pack'); "
                         "print(sorted(k for k in fileset.sources(p) if '/counter/' in k))")
    assert out.stdout.strip() == str(sorted([
        "companion/games/counter/__init__.py", "companion/games/counter/entry.py",
        "shared_rules/counter/__init__.py", "shared_rules/counter/about.json",
        "shared_rules/counter/game.py"]))


def test_the_checks_take_it_from_its_folder(tree):
    """What the project's checks play of each game comes from the games' folders, so the new
    game is in them with no list changed: the play-throughs play it (tests/playthrough.py's
    PLAYS), the real-CircuitPython lane opens it from the menu as its descriptor's
    ``first_screen`` says (tests/test_cp_lane.py), and the heap flows are the games' own
    flows.json (it has none: the flows are those of the games before it)."""
    out = run(tree, code="import sys; sys.path[:0] = ['tests', 'bench']; "
                         "import playthrough, test_cp_lane, heap_flows; "
                         "print(playthrough.PLAYS); print(test_cp_lane.OPEN_EACH[-1]); "
                         "print([f['flow'] for f in heap_flows.FLOWS])").stdout.splitlines()
    plays = ast.literal_eval(out[0])
    assert plays[-1] == "counter" and len(plays) == len(__import__("playthrough").PLAYS) + 1
    assert ast.literal_eval(out[1]) == ("next ok", "CounterScreen")
    sys.path.insert(0, str(REPO / "bench"))
    import heap_flows

    assert ast.literal_eval(out[2]) == [f["flow"] for f in heap_flows.FLOWS]


def test_a_broken_flows_file_is_one_message_naming_it(tmp_path):
    """A game's flows.json that is not a list of flows stops the heap bench with the file's
    name, not a traceback from deep inside a run."""
    sys.path.insert(0, str(REPO / "bench"))
    import heap_flows

    for text in ('{"flows": [{"flow": "x", "steps": [["a", "b"]]}]}', '{"flow": []}', "[1,"):
        (tmp_path / "shared_rules" / "space_days").mkdir(parents=True, exist_ok=True)
        path = tmp_path / "shared_rules" / "space_days" / "flows.json"
        path.write_text(text)
        with pytest.raises(SystemExit) as e:
            heap_flows.game_flows(tmp_path)
        assert str(e.value).startswith("{}: not a list of flows (".format(path)), e.value


def test_a_broken_shots_list_is_one_message_naming_it(tmp_path, monkeypatch):
    """A game's flows.json whose screenshots are not ``{"shot", "keys"}`` stops
    `lunchbox sim --readme-shots` with one message naming the file."""
    import shared_rules
    from lunchbox import sim
    from lunchbox.errors import LunchboxError

    for about in (REPO / "shared_rules").glob("*/about.json"):  # the games' descriptors
        (tmp_path / about.parent.name).mkdir()
        shutil.copy(about, tmp_path / about.parent.name / "about.json")
    path = tmp_path / "space_days" / "flows.json"
    monkeypatch.setattr(shared_rules, "__file__", str(tmp_path / "__init__.py"))
    for text in ('{"shots": [{"shot": "x"}]}', '{"shots": [["x", "ok"]]}', "{"):
        path.write_text(text)
        with pytest.raises(LunchboxError) as e:
            sim.game_shots("space_days")
        assert str(e.value).startswith("{}: its shots are not".format(path)), e.value
    path.write_text('{"shots": [{"shot": "days", "about": "a day", "keys": "ok ok"}]}')
    assert sim.game_shots("space_days") == [("days", "ok ok")]


def changed_files(tree, base):
    """Every difference between the copy and the repository, as git would list it: files
    added (A), changed (M) or gone (D), by their paths."""
    out = []
    for name in COPIED:
        stack = [filecmp.dircmp(base / name, tree / name, ignore=["__pycache__"])]
        while stack:
            d = stack.pop()
            rel = Path(d.left).relative_to(base)
            out += ["D " + (rel / f).as_posix() for f in d.left_only if not f.startswith(".")]
            out += ["A " + (rel / f).as_posix() for f in d.right_only]
            # dircmp's shallow compare trusts size and mtime: compare bytes
            out += ["M " + (rel / f).as_posix() for f in d.common_files
                    if (Path(d.left) / f).read_bytes() != (Path(d.right) / f).read_bytes()]
            stack += list(d.subdirs.values())
    return sorted(out)


def test_nothing_else_changed(tree, base):
    only_the_game_added(tree, base)


def only_the_game_added(tree, base):
    """What differs from the repository is the two new folders and the one registry line."""
    assert changed_files(tree, base) == sorted(
        ["A " + f for f in NEW_FOLDERS] + ["M " + REGISTRY])
    diff = [line for line in difflib.unified_diff(
        (base / REGISTRY).read_text().splitlines(True),
        (tree / REGISTRY).read_text().splitlines(True), n=0)
        if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    assert diff == ["+" + LINE]


def test_each_registry_line_is_its_games_record_index():
    """A protocol class writes its ``index`` and ``game_id`` into every record (byte 1) and
    the registry reads them back by line: the two must agree, for every line (a new game's
    class states the position of the line it adds)."""
    from shared_rules import games

    for i, (game_id, module, name) in enumerate(games.ROWS):
        cls = getattr(__import__(module, None, None, [name]), name)
        assert (cls.game_id, cls.index) == (game_id, i), module
        assert games.game_id_of(games.record(games.new(game_id))) == game_id


def test_the_counter_game_states_its_line():
    """The fixture's class names the position the test's registry line takes."""
    from shared_rules.registry import ROWS

    text = (GAME / "shared_rules/counter/game.py").read_text()
    assert "index = {}  #".format(len(ROWS)) in text


def test_the_doc_explains_every_descriptor_field():
    """docs/adding-a-game.md's table has a row for every field a descriptor uses."""
    doc = (REPO / "docs" / "adding-a-game.md").read_text()
    files = sorted(REPO.glob("shared_rules/*/about.json"))
    files.append(GAME / "shared_rules/counter/about.json")
    fields = sorted({k for f in files for row in json.loads(f.read_text())["rows"] for k in row})
    assert [k for k in fields if "| `{}` |".format(k) not in doc] == []


# how a game's modules are imported, on CPython and on MicroPython (the WebAssembly port)
IMPORTS = """
from shared_rules import games
from shared_rules.lets_do_lunch import match
from shared_rules.lets_do_lunch.match import Match
import shared_rules
print('new paths', games.new(games.IDS[0]).game_id == games.IDS[0], Match is match.Match)
print('no attribute', hasattr(shared_rules, 'lets_do_lunch_match'))
try:
    from shared_rules import lets_do_lunch_match
    print('old name imports', lets_do_lunch_match)
except ImportError:
    print('old name gone')
"""


def test_a_games_modules_by_their_paths_only():
    """Both forms of a module's path work, the names from before the games had folders are
    gone (docs/adding-a-game.md), alike on CPython and MicroPython."""
    import mplane

    want = ["new paths True True", "no attribute False", "old name gone"]
    here = subprocess.run([sys.executable, "-c", IMPORTS], cwd=REPO, capture_output=True,
                          text=True, timeout=60)
    assert here.stdout.split("\n")[:3] == want, here.stdout + here.stderr
    there = mplane.run(libs=(REPO / "shared_rules",), code=IMPORTS, timeout=120)
    assert [line for line in there.output.splitlines() if line in want] == want, there.output
