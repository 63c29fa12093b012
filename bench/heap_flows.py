"""The flows the heap budget walks: every screen of every game, as a player reaches it.

bench/firmware_memory.py runs each flow on MicroPython (the lane's WebAssembly interpreter,
its heap bounded) on both displays, through the real ``hwpico.build()`` against stand-ins of
CircuitPython's C modules, and measures at every screen the heap in use + the compile peak of
the largest module the flow still has to import + what the stand-ins leave out.
tests/test_heap_budget.py fails when any screen leaves less than 24 KB of a Pico's 190 KB.

The menu's own flows are here; a game's are in its folder, beside its descriptor:
``shared_rules/<game>/flows.json``, ``{"flows": [...]}``, read in the registry's order (so a
game added brings its flows with it, and no list here changes). A flow, here or there
(docs/firmware.md, "Heap budget"):

- ``flow``: a short name (shown in the table);
- ``about`` (flows.json only, as the comments here): what it walks and why;
- ``steps``: a list of ``(screen, keys, top)`` (in JSON a list of three): ``screen`` names
  the moment in the table, ``keys`` are the buttons pressed to get there from the step
  before, in the simulator's key words (``prev next ok back undo``, ``long:NAME`` held 1 s,
  ``WORD*N``, ``wait:MS``, and ``reset``: a power cut, the app starts again on the same
  nvm), and ``top`` is the class name of the screen that must then be on top (the run fails
  if it is not, so a flow cannot silently stop short of the screens it claims to measure);
- ``displays`` (optional): ``("st7789", "ssd1306")`` by default;
- ``known_over`` (optional): why (and where the docs say more), for a flow known to be over
  the budget: still measured and printed, an expected failure in the test until it fits
  (then the mark must go).

The bench's ``os.urandom`` is seeded, so a game that seeds its deal from it replays the same
game on every run and the keys of a flow always mean the same moves.

Walk the game's heaviest moments: the deepest stack of screens, the biggest board, the end
of a game (its summary and record), and a resume after ``reset``.
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MENU_FLOWS = [
    {
        "flow": "start",
        "steps": [("main menu", "", "MainMenu")],
    },
    {
        "flow": "settings",
        "steps": [
            ("main menu", "", "MainMenu"),
            ("settings", "prev ok", "SettingsScreen"),
            ("brightness", "ok", "NumberPicker"),
            ("brightness 60%", "prev*4 ok", "SettingsScreen"),
            ("player names", "next next ok", "PlayersScreen"),
            ("name editor", "ok", "NameEditor"),
            # past Hints, Lunch cards, Dim screen, Screen off
            ("about", "back back next*7 ok", "AboutScreen"),
        ],
    },
]
LAST_FLOWS = [
    {
        # the main menu's First player: how many play, the spin, the seat it stops on
        "flow": "first player",
        "steps": [
            ("main menu", "", "MainMenu"),
            ("how many play", "next*5 ok", "FirstPlayer"),
            ("spinning", "next*4 ok wait:100*3", "FirstPlayer"),
            ("picked", "wait:100*40", "FirstPlayer"),
        ],
    },
]


def game_folders(root=ROOT):
    """The game folders of shared_rules/, in the registry's order (a scoreboard's row names
    its game's folder: each once)."""
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    from shared_rules.registry import ROWS

    out = []
    for _id, module, _cls in ROWS:
        folder = module.split(".")[1]
        if folder not in out:
            out.append(folder)
    return out


def game_flows(root=ROOT):
    """Every game's flows from its flows.json (a game without one has none), as FLOWS holds
    them: steps as tuples, ``about`` left out."""
    out = []
    for folder in game_folders(root):
        path = Path(root) / "shared_rules" / folder / "flows.json"
        if not path.exists():
            continue
        try:
            flows = json.loads(path.read_text())["flows"]
            for f in flows:
                flow = {"flow": f["flow"], "steps": [tuple(s) for s in f["steps"]]}
                for key in ("displays", "known_over"):
                    if key in f:
                        flow[key] = tuple(f[key]) if key == "displays" else f[key]
                if any(len(s) != 3 for s in flow["steps"]):
                    raise ValueError("a step is not [screen, keys, top]")
                out.append(flow)
        except (ValueError, KeyError, TypeError) as e:
            raise SystemExit("{}: not a list of flows ({})".format(path, e)) from None
    return out


FLOWS = MENU_FLOWS + game_flows() + LAST_FLOWS
