"""What a pulled record holds, as database columns: its envelope opened (date, names) and its
game replayed (shared_rules.games) for the winners, scores and number of actions.

A game played with the board's turn clock has each seat's time in its envelope (format 2):
``times(row)`` reads it from the record as the board kept it (no column of its own: an older
database reads the same).

A record may be one game of a match (Let's Do Lunch): its winners and scores are that game's
(the winner +the cannibals left in the loser's hand, the loser the same negative);
``match(row)`` gives the match as it stood after it (score, game number), for a column of its
own. Which games are played in matches is their protocol class's to say (it has
``match_scores``), not this module's. Seats are named as the device names them
(store/records.seat_names), older envelopes included.

The envelope code is the device's own (firmware/companion/store/records.py), imported from the
checkout the way the simulator imports the firmware.
"""

import zlib

# the ring record kinds of firmware/companion/store/store.py (tests/test_pull.py checks they agree)
KIND_RECORD, KIND_CRASH, KIND_GAME = 1, 2, 3


def device_records():
    from .game_names import firmware_path

    firmware_path()
    from companion.store import records

    return records


def device_clock():
    """The device's reader of the envelope with the turn clock's times (turn_clock/envelope.py)."""
    device_records()
    from companion.turn_clock import envelope

    return envelope


def crc(raw):
    return zlib.crc32(raw) & 0xFFFFFFFF


def seat_names(game_id, params, names, seats):
    """One name per seat: the board's names, the seats the device plays (the solo Automa, the
    Let's Do Lunch computer) as it names them, then P1..Pn."""
    from shared_rules import games

    ids = [r[0] for r in games.ROWS]
    index = ids.index(game_id) if game_id in ids else -1
    out = device_records().seat_names(index, tuple(params or ()), list(names))[:seats]
    if not out:
        out = list(names[:seats])
    for i in range(len(out), seats):
        out.append("P{}".format(i + 1))
    return out


def solo_opponent(game_id):
    """The seat the board plays in ``game_id``'s solo game (Space Lunch's "Automa"), from its
    descriptor's ``device_seat`` when that is a name; None for a game with no such seat. Its
    score is the board's, so the score tables and charts leave it out."""
    from .game_names import about

    seat = (about(game_id) or {}).get("device_seat")
    return seat if isinstance(seat, str) else None


def _plays_matches(game_id):
    """True when ``game_id``'s protocol class plays one game of a match a record (it has
    ``match_scores``)."""
    from shared_rules import games

    for gid, module, name in games.ROWS:
        if gid == game_id:
            return hasattr(getattr(__import__(module, None, None, [name]), name),
                           "match_scores")
    return False


def match(row):
    """A match game's match as it stood after the game: ``{"scores": [a, b], "game": n,
    "target": t, "over": bool}``; None for other games (or a record that does not replay)."""
    if not row.get("record") or not _plays_matches(row.get("game_id")):
        return None
    from shared_rules import games

    try:
        g = games.replay(bytes(row["record"]))
    except ValueError:
        return None
    return {"scores": [int(s) for s in g.match_scores()], "game": g.game_number(),
            "target": g.engine.target, "over": g.is_terminal()}


def match_text(row):
    """The match column's words: "6:-6 (game 2)", "" for a game that is not in a match."""
    m = match(row)
    if m is None:
        return ""
    return "{}:{} (game {})".format(m["scores"][0], m["scores"][1], m["game"])


def times(row):
    """Each seat's ``(seconds, turns)`` from the board's turn clock, or None for a game played
    without it (and for a record whose envelope does not open)."""
    raw = row.get("raw")
    if raw is None or row.get("kind") != KIND_GAME:
        return None
    try:
        got = device_clock().untimed(bytes(raw))[1]
    except ValueError:
        return None
    return [(int(s), int(t)) for s, t in got] if got else None


def clock_text(seconds):
    """A time as the board's clock shows it: "9:58", "72:05"."""
    return "{}:{:02d}".format(seconds // 60, seconds % 60)


def variant(game_id, params):
    """A short word for a game's settings, by its descriptor's ``variant``: the words of one
    setting's values (Space Lunch's difficulty) or a text around it ("to 20", "3 players")."""
    from .game_names import about

    params = list(params or [])
    rule = (about(game_id) or {}).get("variant")
    if not rule:
        return ""
    k = rule.get("param", 0)
    value = params[k] if k < len(params) else rule.get("default")
    if value is None:
        return ""
    words = rule.get("words")
    if words is not None:
        return words[value] if 0 <= value < len(words) else str(value)
    return rule["text"].format(value)


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
        # a game played with the turn clock: its envelope's format 2 (the times: ``times``)
        envelope = device_clock().untimed(raw)[0] if kind == KIND_GAME else raw
        unix, names, record = device_records().open_envelope(kind, envelope)
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


def keep(res, rows, row, board_id, epoch):
    """A record's row (summarize) for the database, from ``board_id``'s ``epoch``; counted in
    ``res`` when it is corrupt or a crash (the link's pull, pull.py, and MicroPython's,
    mppull.py)."""
    row["board_id"] = board_id
    row["epoch"] = epoch
    rows.append(row)
    if row["status"] == "corrupt":
        res.corrupt.append((row["seq"], row["error"]))
    elif row["status"] == "crash":
        res.crashes += 1
