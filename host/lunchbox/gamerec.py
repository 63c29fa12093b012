"""What a pulled record holds, as database columns: its envelope opened (date, names) and its
game replayed (shared_rules.games) for the winners, scores and number of actions.

The envelope code is the device's own (firmware/companion/core/records.py), imported from the
checkout the way the simulator imports the firmware.
"""

import sys
import zlib
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
# the ring record kinds of firmware/companion/core/store.py (tests/test_pull.py checks they agree)
KIND_RECORD, KIND_CRASH, KIND_GAME = 1, 2, 3
SOLO_OPPONENT = "Automa"
GAME_NAMES = {
    "space_lunch": "Space Lunch",
    "lets_do_lunch": "Let's Do Lunch",
    "aqua_brunch": "Aqua Brunch",
    "space_battle": "Space Battle Lunchtime",
    "space_days": "Space Days",
}
SPACE_LUNCH_MODES = ("Easy", "Medium", "Hard", "Extreme", "Duel")


def device_records():
    if str(FIRMWARE) not in sys.path:
        sys.path.append(str(FIRMWARE))  # at the end: firmware/code.py must not shadow `code`
    from companion.core import records

    return records


def crc(raw):
    return zlib.crc32(raw) & 0xFFFFFFFF


def seat_names(game_id, params, names, seats):
    """One name per seat: the board's names, then defaults (the solo Automa is a seat)."""
    out = list(names[:seats])
    for i in range(len(out), seats):
        solo = game_id == "space_lunch" and (params or [0])[0] != 4 and i == 1
        out.append(SOLO_OPPONENT if solo else "P{}".format(i + 1))
    return out


def variant(game_id, params):
    """A short word for a game's settings: Space Lunch difficulty, players, target..."""
    params = list(params or [])
    if game_id == "space_lunch":
        m = params[0] if params else 0
        return SPACE_LUNCH_MODES[m] if m < len(SPACE_LUNCH_MODES) else str(m)
    if game_id == "lets_do_lunch":
        return "to {}".format(params[0] if params else 20)
    if params:
        return "{} players".format(params[0])
    return ""


def summarize(seq, kind, raw, pulled_at):
    """The database row (a dict) for one record as pulled; corrupt ones get status 'corrupt'
    and the reason, and keep their bytes."""
    raw = bytes(raw)
    row = {"seq": seq, "kind": kind, "raw": raw, "crc": crc(raw), "pulled_at": int(pulled_at)}
    if kind == KIND_CRASH:
        row.update(status="crash", error=raw.decode("utf-8", "replace"), played_at=None)
        return row
    if kind not in (KIND_RECORD, KIND_GAME):
        row.update(status="other", error="record kind {} is not known here".format(kind))
        return row
    try:
        unix, names, record = device_records().open_envelope(kind, raw)
        from shared_rules import games

        game = games.replay(record)
        game_id = games.game_id_of(record)
    except ValueError as e:
        row.update(status="corrupt", error=str(e))
        return row
    scores = [int(s) for s in game.scores()]
    params = [int(p) for p in game.params]
    row.update(
        status="ok", game_id=game_id, params=params, record=record,
        played_at=unix or int(pulled_at), date_source="board" if unix else "pulled",
        players=seat_names(game_id, params, names, len(scores)),
        winners=[int(w) for w in game.winners()], scores=scores, actions=len(game.actions()),
    )
    return row
