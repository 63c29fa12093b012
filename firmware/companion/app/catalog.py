"""What the device knows of each game without importing its rules or screens: the registry's
rows (shared_rules/registry.py) and each game folder's ``about.json``, the game's descriptor
(docs/adding-a-game.md). Read when asked, kept by no one: a descriptor is a few hundred bytes
of JSON, parsed and dropped, so the menu holds only its labels (as Fruit Jam OS's launcher
reads each app's metadata.json). The host reads them through this module too
(lunchbox/records/game_names.py).

    about("aqua_score")["name"]      # "Aqua Brunch scoreboard"
    menu_games()                     # [("space_lunch", "Space Lunch"), ...]
"""

import json

from shared_rules.registry import ROWS


def _root():
    """The folder holding shared_rules/ ("/" on the board), with its separator."""
    import shared_rules

    path = shared_rules.__file__
    cut = max(path.rfind("/"), path.rfind("\\"))
    return path[:cut + 1]


def folder(index):
    """The game folder of registry row ``index`` ("aqua_brunch" for aqua_score)."""
    return ROWS[index][1].split(".")[1]


def rows_of(name):
    """The descriptor rows of game folder ``name`` (a list of dicts). OSError or ValueError
    when its about.json is missing or not JSON."""
    with open(_root() + name + "/about.json") as f:
        return json.load(f)["rows"]


def index(game_id):
    """The registry position (record index) of ``game_id``; -1 for a device-only screen."""
    for i in range(len(ROWS)):
        if ROWS[i][0] == game_id:
            return i
    return -1


def about(game_id):
    """The descriptor row of ``game_id`` (a dict), or None. A screen id that is not a
    registry row (the Aqua Brunch strength calculator) is found in any game's folder."""
    i = index(game_id)
    names = [folder(i)] if i >= 0 else []
    for j in range(len(ROWS)):
        if folder(j) not in names:
            names.append(folder(j))
    for name in names:
        for row in rows_of(name):
            if row["id"] == game_id:
                return row
    return None


def family(game_id):
    """The menu row a game belongs to: a scoreboard is its parent game."""
    row = about(game_id)
    return row.get("parent") or game_id if row else game_id


def menu_games():
    """``(id, label)`` of each game the main menu lists, in registry order: the rows without a
    parent (the scoreboards open from their game's list)."""
    out = []
    done = []
    for i in range(len(ROWS)):
        name = folder(i)
        if name in done:
            continue
        done.append(name)
        for row in rows_of(name):
            if not row.get("parent"):
                out.append((row["id"], row.get("label") or row["name"]))
    return out


def people(row, params):
    """How many seats people play, by the descriptor's ``people``: ``param`` (the setting
    that is the player count), ``values`` (a setting's value -> seats) and ``default``."""
    rule = row.get("people") or {}
    k = rule.get("param")
    value = params[k] if k is not None and k < len(params) else None
    values = rule.get("values")
    if values is not None:
        return values.get(str(value), rule.get("default", 1))
    return value if value else rule.get("default", 1)
