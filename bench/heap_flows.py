"""The flows the heap budget walks: every screen of every game, as a player reaches it.

bench/firmware_memory.py runs each flow on MicroPython (the lane's WebAssembly interpreter,
its heap bounded) on both displays, through the real ``hwpico.build()`` against stand-ins of
CircuitPython's C modules, and measures at every screen the heap in use + the compile peak of
the largest module the flow still has to import + what the stand-ins leave out.
tests/test_heap_budget.py fails when any screen leaves less than 24 KB of a Pico's 190 KB.

To add a game's flow (docs/firmware.md, "Heap budget"): append a dict to FLOWS:

- ``flow``: a short name (shown in the table);
- ``steps``: a list of ``(screen, keys, top)``: ``screen`` names the moment in the table,
  ``keys`` are the buttons pressed to get there from the step before, in the simulator's key
  words (``prev next ok back undo``, ``long:NAME`` held 1 s, ``WORD*N``, ``wait:MS``, and
  ``reset``: a power cut, the app starts again on the same nvm), and ``top`` is the class
  name of the screen that must then be on top (the run fails if it is not, so a flow cannot
  silently stop short of the screens it claims to measure);
- ``displays`` (optional): ``("st7789", "ssd1306")`` by default;
- ``known_over`` (optional): why (and where the docs say more), for a flow known to be over
  the budget: still measured and printed, an expected failure in the test until it fits
  (then the mark must go).

The bench's ``os.urandom`` is seeded, so a game that seeds its deal from it replays the same
game on every run and the keys of a flow always mean the same moves.

Walk the game's heaviest moments: the deepest stack of screens, the biggest board, the end
of a game (its summary and record), and a resume after ``reset``.
"""

# Aqua Brunch keys: into the calculator, then three predators (walrus = 5 steps on)
_AQUA = "next next ok next ok"  # Aqua Brunch, then Strength in its list
_THREE = "ok next*5 ok next*5 ok next*5 ok"

FLOWS = [
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
    {
        "flow": "aqua_brunch",
        "steps": [
            ("main menu", "", "MainMenu"),
            ("calculator", _AQUA, "AquaScreen"),
            ("three predators", _THREE, "AquaScreen"),
            ("aqua cards", "next ok", "AquaCardsScreen"),
            ("two aqua ticked", "ok next ok", "AquaCardsScreen"),
            ("undo", "back long:back", "AquaScreen"),
        ],
    },
    {
        "flow": "aqua_brunch resume",
        "steps": [
            ("main menu", "", "MainMenu"),
            ("calculator", _AQUA + " " + _THREE, "AquaScreen"),
            ("resume prompt", "reset", "ConfirmDialog"),
            ("resumed", "ok", "AquaScreen"),
        ],
    },
    {
        # Let's Do Lunch against Hard with typed dice, so every roll is known: the starting
        # rolls (3-3-3, then the computer's 1-1-1: P1 starts), P1 places in column 7, the
        # computer's 2-2-1 and Hard's search, the match figures and the dice verdict on top
        # in place of the board, undo, a power cut and the resume.
        "flow": "lets_do_lunch typed",
        # this bench runs the whole flow in one VM, the resumed match over the menu and the
        # prompt (the menu lets its list go under the prompt: screens.ListScreen.shed); the
        # board opens it in a VM of its own (companion/launch.py, bench/cp_heap.py)
        "steps": [
            ("main menu", "", "MainMenu"),
            ("new match", "next ok", "SetupScreen"),
            ("board, typed dice", "prev ok next ok", "PlayScreen"),
            ("starting rolls", "next ok next ok next ok prev ok prev ok prev ok ok",
             "PlayScreen"),
            ("placing", "ok ok next ok", "PlayScreen"),
            ("after Hard's search", "ok ok ok prev ok wait:500", "PlayScreen"),
            ("match figures", "next", "PlayScreen"),
            ("dice verdict", "next*3", "PlayScreen"),
            ("undo", "back long:back", "PlayScreen"),
            ("resume prompt", "reset", "ConfirmDialog"),
            ("resumed", "ok", "PlayScreen"),  # the record says who plays: nothing asked
        ],
    },
    {
        # Let's Do Lunch against Hard, the device's dice: a few turns of each side
        "flow": "lets_do_lunch device dice",
        "steps": [
            ("main menu", "", "MainMenu"),
            ("board", "next ok ok", "PlayScreen"),
            ("a few turns", "ok wait:2000 " * 8, "PlayScreen"),
        ],
    },
    {
        # Space Lunch solo at Easy, OK on everything (the food wheel's start, the suggested
        # card): the hints on the first turn, the coupon choice and a Hot Drink, the Automa's
        # turn with its refill, the rest of the game (46 more OKs, in steps: the lane frees a
        # step's garbage only after it), the end and the record, undo.
        "flow": "space_lunch solo",
        # the board opens each game in a VM of its own: bench/cp_heap.py measures that
        "steps": [
            ("main menu", "", "MainMenu"),
            ("new game list", "ok", "SetupScreen"),
            ("first card", "ok", "SoloScreen"),
            ("first turn, hints", "ok*9", "SoloScreen"),
            ("coupon choice", "prev ok", "SoloScreen"),
            ("Hot Drink cursor", "ok", "SoloScreen"),
            ("Automa's turn", "ok ok ok ok", "SoloScreen"),
        ] + [("playing on, {} OKs".format(4 * i), "ok*4", "SoloScreen") for i in range(1, 8)] + [
            ("coupon choice at a threat", "ok*4", "SoloScreen"),
        ] + [("playing on, {} OKs".format(4 * i), "ok*4", "SoloScreen") for i in range(9, 12)] + [
            ("game over", "ok*2", "SoloScreen"),
            ("undo at the end", "long:back", "SoloScreen"),
        ],
    },
    {
        "flow": "space_lunch resume",
        "steps": [
            ("main menu", "", "MainMenu"),
            ("mid game", "ok ok ok*15", "SoloScreen"),
            ("resume prompt", "reset", "ConfirmDialog"),
            ("resumed", "ok", "SoloScreen"),
        ],
    },
    {
        # two players: the opening, a take, the beverage menu
        "flow": "space_lunch two players",
        # the board opens each game in a VM of its own: bench/cp_heap.py measures that
        "known_over": "one VM here, the menu beside the game (docs/firmware.md)",
        "steps": [
            ("main menu", "", "MainMenu"),
            ("who starts", "ok next*4 ok", "FirstPlayer"),
            ("first turn", "ok ok*9", "DuelScreen"),
            ("beverage choice", "ok ok prev ok", "DuelScreen"),
        ],
    },
]


# The table scoreboards (docs/scoring.md). Keys worked out with tests/scorekeys.py
# from seeded entries: a 7-player Aqua Brunch round, a whole 3-player game, a 5-player race
# to 21 with a serve check in it, a 5-player Space Days scoring with "Can I play here?".
_SB_AQ7 = (
    'ok*2 prev ok prev*2 ok*2 prev*2 ok next ok next*2 ok next*3 ok next*3 ok next*2 ok prev*3 ok '
    'next*2 ok prev ok prev*4 ok next*2 ok prev*3 ok prev*3 ok next ok prev*3 ok next*3 ok prev*3 '
    'ok*2 next*3 ok*2 prev ok next*3 ok next ok prev ok prev*2 ok prev*3 ok next*2 ok*3'
)
_SB_AQ3 = [  # the six rounds (OK closes each result)
    'prev*2 ok prev*4 ok prev ok next*4 ok*2 prev*3 ok prev*3 '
    'ok prev*3 ok prev*2 ok next*2 ok prev ok prev*3 ok*2',
    'prev*4 ok prev ok*2 next*4 ok next*3 ok next*2 ok prev*3 '
    'ok next*4 ok next*3 ok prev*4 ok prev*2 ok next ok',
    'prev ok*2 prev*4 ok next*3 ok prev*4 ok prev ok next ok*2 next ok prev*3 ok next*2 ok*3',
    'next*3 ok*2 prev*4 ok next ok prev ok prev ok prev*2 '
    'ok next*3 ok next*3 ok prev*3 ok next ok next ok',
    'prev ok prev*3 ok*3 next ok prev*3 ok next*3 ok next ok prev*2 ok*2 next ok next*2 ok',
    'prev*4 ok*2 prev*4 ok next ok next*2 ok next ok prev*3 '
    'ok next ok prev*3 ok next ok prev*2 ok next ok',
]
_SB_RACE5 = (
    'prev*2 ok next*4 ok*3 prev*2 ok next ok prev*4 ok prev*5 ok prev*5 ok prev*13 ok prev*2 ok '
    'prev*5 ok prev*4 ok next ok next*4 ok prev ok*2 prev*5 ok prev*4 ok*2 next ok*5 prev*2 ok '
    'prev*3 ok prev*4 ok*5 next*4 ok*3 next ok'
)
_SB_CHECK = (
    'ok next*3 ok*2 next ok*2 next ok*3 next*3 ok next long:back next ok'
)
_SB_BEST = (
    'ok next ok next*2 ok*2 next*2 ok next ok next*2 ok next*3 ok next ok next*2 ok next ok*3 '
    'next ok*2 next*3 ok next ok next*4 ok prev*2 ok prev ok'
)
_SB_DAYS_A = (
    'prev ok next*5 ok next ok next*4 ok next*5 ok next*2 ok next ok*2 prev*6 ok*2 next*5 ok '
    'next*6 ok prev ok next*2 ok*3 prev*6 ok'
)
_SB_DAYS_CAN = (
    'prev*4 ok*2 next*13 ok*2 next*3 ok'
)
_SB_DAYS_B = (
    'next*5 ok next ok next*4 ok next ok next*4 ok next*2 ok next*4 ok next*4 ok next*3 ok next*2 '
    'ok*2 next*3 ok next ok next*3 ok next*5 ok next*4 ok next*6 ok next*5 ok'
)

FLOWS += [
    {
        "flow": "aqua scoreboard",
        "steps": [
            ("main menu", "", "MainMenu"),
            ("aqua list", "next next ok", "Chooser"),
            ("7 players", "ok next*3 ok", "AquaScoreScreen"),
            ("round 1 result", _SB_AQ7, "AquaScoreScreen"),
            ("scores", "ok ok ok ok prev ok", "AquaScoreScreen"),
            ("aqua cards", "back prev prev ok", "AquaScoreScreen"),
            ("undo", "long:back", "AquaScoreScreen"),
            ("resume prompt", "reset", "ConfirmDialog"),
            ("resumed", "ok", "AquaScoreScreen"),
        ],
    },
    {
        "flow": "aqua game end, pass advisor",
        "steps": [
            ("main menu", "", "MainMenu"),
            ("3 players", "next next ok ok prev ok", "AquaScoreScreen"),
            ("round 5 result", " ok ".join(_SB_AQ3[:5]), "AquaScoreScreen"),
            ("game over", "ok " + _SB_AQ3[5], "ConfirmDialog"),
            ("pass advisor", "next ok ok next next ok", "Counter"),
            ("advice", "ok ok ok prev*5 ok prev*5 ok", "LinesScreen"),
        ],
    },
    {
        "flow": "space battle race",
        "steps": [
            ("main menu", "", "MainMenu"),
            ("5 players", "next*3 ok ok next*3 ok", "RaceScreen"),
            ("serve check", "prev*7 ok " + _SB_CHECK, "Number"),
            ("score it", "ok", "RaceScreen"),
            ("race over", "ok " + _SB_RACE5, "ConfirmDialog"),
            ("best serve", "next ok ok next next ok " + _SB_BEST, "LinesScreen"),
        ],
    },
    {
        # the race's Who starts?: the count, then the names and "Pick at random" (first_pick,
        # compiled once the list has gone), the pick settled and the race begun at that seat
        "flow": "space battle, who starts",
        "steps": [
            ("main menu", "", "MainMenu"),
            ("count list", "next*3 ok prev ok", "RaceScreen"),
            ("who starts", "next*3 ok", "RaceScreen"),
            ("picked", "ok wait:100*40", "RaceScreen"),
        ],
    },
    {
        # a 10-minute chess clock (Settings > Clock), a two-player Space Lunch with it,
        # paused, a power cut and the resume (companion/clock.py is loaded only with a clock)
        "flow": "space_lunch two players, chess clock",
        "known_over": "one VM here, the menu beside the game and the turn clock (docs/firmware.md)",
        "steps": [
            ("main menu", "", "MainMenu"),
            ("clock set", "prev ok next*7 ok next*5 ok back", "MainMenu"),
            ("who starts", "next ok next*4 ok", "FirstPlayer"),
            ("first turn", "ok ok*9", "DuelScreen"),
            ("beverage choice", "ok ok prev ok", "DuelScreen"),
            ("paused", "back long:ok", "DuelScreen"),
            ("resume prompt", "reset", "ConfirmDialog"),
            ("resumed", "ok", "DuelScreen"),
        ],
    },
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
    {
        "flow": "space days scoring",
        "steps": [
            ("main menu", "", "MainMenu"),
            ("5 players", "next*4 ok next*3 ok", "DaysScreen"),
            ("17 days in", _SB_DAYS_A, "DaysScreen"),
            ("can I play here", _SB_DAYS_CAN, "DaysScreen"),
            ("scored", "ok " + _SB_DAYS_B, "ConfirmDialog"),
        ],
    },
]
