"""Aqua Brunch's menu entry: Scoreboard / Strength / Pass advisor (aqua_advisor.py, loaded
only when chosen: each of the two modules stays small to compile on a Pico)."""

from companion.screen.pickers import Chooser, saved

SCORE_ID = "aqua_score"
CALC_ID = "aqua_calc"  # its row in about.json: the calculator opened from this list


def open_game(app, game_id, payload=None):
    """Open the scoreboard or the calculator through the menu, so their modules are noted as
    theirs (and unloaded when another game opens) and this list's are unloaded."""
    from companion.app.loader import open_game as menu_open

    menu_open(app, game_id, payload)


def _is_scoreboard(payload):
    from shared_rules import games

    try:
        return games.game_id_of(payload) == SCORE_ID
    except ValueError:
        return False  # not a record: the calculator's own five bytes


def open(app, payload=None):  # the game-module entry point name
    """The Aqua Brunch list; a saved calculator hand (or scoreboard) opens straight away. The
    list closes when it opens something: a screen left under it would cost a Pico its widgets
    (13-16 KB)."""
    if payload is not None:  # resuming: the calculator's hand or the scoreboard's record
        open_game(app, SCORE_ID if _is_scoreboard(payload) else CALC_ID, payload)
        return
    kept = saved(app, SCORE_ID)
    rows = ["Resume scores" if kept else "Scoreboard", "Strength", "Pass advisor"]
    if kept:
        rows.append("New scoreboard")

    def chosen(i):
        if i == 0 or i == 3:
            open_game(app, SCORE_ID, kept if i == 0 else b"")  # b"": a new one
        elif i == 1:
            open_game(app, CALC_ID)
        else:
            from .advisor import advisor

            advisor(app)

    app.push(Chooser(app, "Aqua Brunch", rows, chosen))
