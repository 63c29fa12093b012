"""The flows the heap budget walks: every screen of every game, as a player reaches it.

bench/firmware_memory.py runs each flow on MicroPython (the lane's WebAssembly interpreter,
its heap bounded) on both displays, through the real ``hwpico.build()`` against stand-ins of
CircuitPython's C modules, and measures at every screen the heap in use + the compile peak of
the largest module the flow still has to import + what the stand-ins leave out.
tests/test_heap_budget.py fails when any screen leaves less than 24 KB of a Pico's 190 KB.

The flows are data: the menu's own in bench/menu_flows.json, a game's in its folder, beside
its descriptor: ``shared_rules/<game>/flows.json``, read in the registry's order (so a game
added brings its flows with it, and no list here changes). Each file is ``{"flows": [...]}``
(a game's may also hold its README screenshots' scripts, ``"shots"``: the simulator's), a
flow (docs/firmware.md, "Heap budget"):

- ``flow``: a short name (shown in the table);
- ``about``: what it walks and why (for the reader; FLOWS leaves it out);
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

MENU = Path(__file__).resolve().parent / "menu_flows.json"  # the menu's own flows


def game_folders(root=ROOT):
    """The game folders of shared_rules/, in the registry's order (a scoreboard's row names
    its game's folder: each once)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from shared_rules.registry import ROWS

    out = []
    for _id, module, _cls in ROWS:
        folder = module.split(".")[1]
        if folder not in out:
            out.append(folder)
    return out


def read_flows(path):
    """The flows of one flows.json as FLOWS holds them: steps as tuples, ``about`` left
    out; SystemExit naming the file for one that is not a list of flows."""
    out = []
    try:
        doc = json.loads(Path(path).read_text())
        if not isinstance(doc, dict) or set(doc) - {"flows", "shots"}:
            raise ValueError("a file holds only \"flows\" and \"shots\"")
        for f in doc.get("flows") or ():
            flow = {"flow": f["flow"], "steps": [tuple(s) for s in f["steps"]]}
            if "displays" in f:
                flow["displays"] = tuple(f["displays"])
            if "known_over" in f:
                flow["known_over"] = f["known_over"]
            if any(len(s) != 3 for s in flow["steps"]):
                raise ValueError("a step is not [screen, keys, top]")
            out.append(flow)
    except (ValueError, KeyError, TypeError) as e:
        raise SystemExit("{}: not a list of flows ({})".format(path, e)) from None
    return out


def game_flows(root=ROOT):
    """Every game's flows from its flows.json, in the registry's order (a game without one
    has none)."""
    out = []
    for folder in game_folders(root):
        path = Path(root) / "shared_rules" / folder / "flows.json"
        if path.exists():
            out += read_flows(path)
    return out


FLOWS = read_flows(MENU) + game_flows()
