"""The names a person reads and types for every game a record can hold, from each game's
descriptor (shared_rules/<game>/about.json: ``name``, ``aliases``, read through the device's
own reader, companion/app/catalog.py): one table for the host's tables, plots and exports,
and for `--game`.

A scoreboard (docs/scoring.md) records under its own id; it is named as players say it, with
the words of the board's menus: "Scoreboard" on the Aqua Brunch list, "Race to 21" on the Space
Battle list, "New scoring" on the Space Days list. Every row of the registry
(shared_rules/registry.py) has a descriptor (tests/test_game_names.py).
"""

import sys
from pathlib import Path

from ..errors import UsageError

FIRMWARE = Path(__file__).resolve().parents[3] / "firmware"


def firmware_path():
    """The device's own code importable here, as the simulator imports it (at the end of the
    path: firmware/code.py must not shadow the stdlib `code`)."""
    if str(FIRMWARE) not in sys.path:
        sys.path.append(str(FIRMWARE))


def _catalog():
    firmware_path()
    from companion.app import catalog

    return catalog


def descriptors():
    """Every descriptor row (dicts), registry rows first in registry order, then the
    device-only screens (the strength calculator) that have one."""
    catalog = _catalog()
    rows, seen = [], []
    for i in range(len(catalog.ROWS)):
        folder = catalog.folder(i)
        if folder in seen:
            continue
        seen.append(folder)
        rows += catalog.rows_of(folder)
    order = [r[0] for r in catalog.ROWS]
    return sorted(rows, key=lambda r: order.index(r["id"]) if r["id"] in order else len(order))


_ABOUT = {}  # game id -> descriptor: read once a run (a table asks for each of its rows)


def about(game_id):
    """The descriptor of ``game_id`` (a dict, not to be changed), or None."""
    if game_id not in _ABOUT:
        _ABOUT[game_id] = _catalog().about(game_id)
    return _ABOUT[game_id]


# (id, name, other names a player may type): the name first, as tables and titles show it
NAMES = tuple((r["id"], r["name"], tuple(r.get("aliases") or ())) for r in descriptors())
IDS = tuple(n[0] for n in NAMES)
GAME_NAMES = {n[0]: n[1] for n in NAMES}


def order(game_id):
    """A sort key: the registry's order, then unknown ids by id."""
    return (IDS.index(game_id) if game_id in IDS else len(IDS), game_id or "")


def name(game_id):
    """The name of ``game_id``; the id itself for one this table does not know."""
    return GAME_NAMES.get(game_id, game_id or "?")


def words(text):
    """Lower-case words of ``text``: "Race to 21" and "race_to_21" read alike."""
    out = []
    for part in text.lower().replace("'", "").replace("\u2019", "").split():
        word = ""
        for c in part:
            if c.isalnum():
                word += c
            elif word:
                out.append(word)
                word = ""
        if word:
            out.append(word)
    return out


def _spellings(row):
    return [words(row[0])] + [words(n) for n in (row[1],) + row[2]]


def _starts(typed, spelled):
    """Each typed word starts a word of ``spelled``, in order ("lets do", "aqua score")."""
    i = 0
    for w in spelled:
        if i < len(typed) and w.startswith(typed[i]):
            i += 1
    return i == len(typed)


def choices_text():
    return ", ".join("{} ({})".format(n[1], n[0]) for n in NAMES)


def lookup(text, option="--game"):
    """The game id for what a player typed: an id or a name in any case (exactly one wins),
    else an unambiguous part of one ("lets do", "race"). UsageError, one line with the
    choices, for anything else."""
    typed = words(text)
    key = "".join(typed)
    if not key:
        raise UsageError("{} {!r} names no game; the games: {}".format(
            option, text, choices_text()), "give a name (any case) or an id")
    exact = [n[0] for n in NAMES if any("".join(s) == key for s in _spellings(n))]
    if len(exact) == 1:
        return exact[0]
    found = [n[0] for n in NAMES
             if any(key in "".join(s) or _starts(typed, s) for s in _spellings(n))]
    if len(found) == 1:
        return found[0]
    if found:
        raise UsageError("{} {!r} could be any of: {}".format(
            option, text, ", ".join("{} ({})".format(name(g), g) for g in found)),
            "give more of the name, or the id")
    raise UsageError("{} {!r} is no game here; the games: {}".format(
        option, text, choices_text()), "give a name (any case) or an id")
