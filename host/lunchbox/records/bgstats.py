"""The BG Stats import file (``.bgsplay``): the layout of BG Stats' own export, which the app
opens. Field by field (docs/records.md, "The BG Stats file"):

- ``games``: id, uuid, name, highestWins, noPoints, cooperative, usesTeams. No bggId/bggYear:
  the games are listed on BoardGameGeek, but no source at hand gave their ids, and a wrong id
  would link the plays to another game (the app links a game to BoardGameGeek itself).
- ``players``: id, uuid, name, isAnonymous. Who is the same person: people.py (a pushed name
  is one person everywhere, a default "P1" a person of its board only, "P1 (board E6614104)";
  the Automa and the computer one player each on every board).
- ``locations``: one per board (id, uuid, name "Lunchbox E6614104"), to rename in the app.
- ``userInfo.meRefId``: the player who is "me" in the app: ``--me NAME``, else the person in
  the most plays.
- ``plays``: uuid (fixed per board, epoch and record: importing twice adds nothing),
  gameRefId, locationRefId, playDate (local time), durationMin (the players' times on the
  board's turn clock added up, in whole minutes; 0 for a game played without it), ignored,
  manualWinner, rounds, comments, and playerScores: playerRefId, score (text), winner, rank
  (1 for the winners, then by score), seatOrder (1..n), startPlayer (the first seat that chose
  an action), newPlayer. A Let's Do Lunch record is one game of a match: one
  play, the winner scoring the cannibals left in the loser's hand and the loser the same
  negative.
"""

import json
import time
import uuid

from ..errors import UsageError
from .game_names import about
from .game_names import name as game_name
from .people import board_label, is_device_seat, person_key

NAMESPACE = uuid.UUID("6c756e63-6862-6f78-2d67-616d65730001")  # "lunchbox-games"
GAME_FIELDS = ("id", "uuid", "name", "highestWins", "noPoints", "cooperative", "usesTeams")
# a game's BG Stats flags when its descriptor (about.json "bgstats") does not say
GAME_DEFAULTS = {"highestWins": True, "noPoints": False, "cooperative": False, "usesTeams": False}
PLAYER_FIELDS = ("id", "uuid", "name", "isAnonymous")
LOCATION_FIELDS = ("id", "uuid", "name")
PLAY_FIELDS = ("uuid", "gameRefId", "locationRefId", "playDate", "durationMin", "ignored",
               "manualWinner", "rounds", "comments", "playerScores")
SCORE_FIELDS = ("playerRefId", "score", "winner", "rank", "seatOrder", "startPlayer",
                "newPlayer")


def _uuid(key):
    return str(uuid.uuid5(NAMESPACE, key))


def start_seat(record):
    """The first seat that chose an action (before it, the dice or cards decided), or None."""
    from shared_rules import games

    g = games.replay(record, 0)
    for action in games.parse(record)[3]:
        p = g.current_player()
        if p >= 0:
            return p
        g.apply(action)
    p = g.current_player()
    return p if p >= 0 else None


def ranks(scores, winners):
    """Competition ranks, 1 best: the winners first, then by score (ties share a rank)."""
    keys = [(seat in winners, s) for seat, s in enumerate(scores)]
    return [1 + sum(1 for other in keys if other > k) for k in keys]


class Builder:
    def __init__(self):
        self.games, self.players, self.locations, self.plays = [], [], [], []
        self._refs = {}  # (table, key) -> id
        self.person_plays = {}  # player id -> plays, for the default "me"

    def ref(self, table, key, make):
        if (table, key) not in self._refs:
            items = getattr(self, table)
            self._refs[(table, key)] = len(items) + 1
            items.append(dict({"id": len(items) + 1}, **make()))
        return self._refs[(table, key)]

    def add(self, row, comments):
        from .history import game_text

        name = game_name(row["game_id"])
        game = self.ref("games", row["game_id"], lambda: dict(
            {"uuid": _uuid("game/" + row["game_id"]), "name": name}, **game_fields(
                row["game_id"])))
        location = self.ref("locations", row["board_id"], lambda: {
            "uuid": _uuid("location/" + row["board_id"]),
            "name": "Lunchbox " + board_label(row["board_id"])})
        scores = list(row["scores"])
        winners = list(row["winners"])
        rank = ranks(scores, winners)
        first = start_seat(row["record"])
        from .gamerec import times

        clock = times(row)
        out = []
        for seat, seat_name in enumerate(row["players"]):
            key, shown = person_key(row, seat_name)
            pid = self.ref("players", key, lambda key=key, shown=shown: {
                "uuid": _uuid(key), "name": shown, "isAnonymous": False})
            if not is_device_seat(seat_name):
                self.person_plays[pid] = self.person_plays.get(pid, 0) + 1
            out.append({"playerRefId": pid,
                        "score": str(scores[seat]) if seat < len(scores) else "",
                        "winner": seat in winners, "rank": rank[seat] if seat < len(rank) else 0,
                        "seatOrder": seat + 1, "startPlayer": seat == first,
                        "newPlayer": False})
        self.plays.append({
            "uuid": _uuid("{}/{}/{}".format(row["board_id"], row["epoch"], row["seq"])),
            "gameRefId": game, "locationRefId": location,
            "playDate": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(row["played_at"])),
            "durationMin": (sum(t[0] for t in clock) + 30) // 60 if clock else 0,
            "ignored": False, "manualWinner": False, "rounds": 0,
            "comments": "Lunchbox board {} record {}: {}{}".format(
                board_label(row["board_id"]), row["seq"], game_text(row), comments),
            "playerScores": out})

    def me(self, name=None):
        """The player id of ``name`` (as on the board, any case), or of the person in the most
        plays; None when there is nobody."""
        people = [p for p in self.players if p["id"] in self.person_plays]
        if name is not None:
            want = name.strip().upper()
            found = [p for p in people if p["name"].upper() == want]
            if not found:
                raise UsageError("--me {!r} played none of the exported games".format(name),
                                 "give one of: " + ", ".join(p["name"] for p in people))
            return found[0]["id"]
        if not people:
            return None
        return max(people, key=lambda p: (self.person_plays[p["id"]], -p["id"]))["id"]


def to_bgstats(rows, me=None):
    b = Builder()
    for row in rows:
        b.add(row, "; date of the pull" if row["date_source"] == "pulled" else "")
    me_id = b.me(me)
    doc = {"games": b.games, "players": b.players, "locations": b.locations, "plays": b.plays,
           "userInfo": {"meRefId": me_id} if me_id else {}}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def game_fields(game_id):
    """A game's BG Stats flags from its descriptor (bggId/bggYear only where it gives them)."""
    given = (about(game_id) or {}).get("bgstats") or {}
    out = {k: bool(given.get(k, v)) for k, v in GAME_DEFAULTS.items()}
    for k in ("bggId", "bggYear"):
        value = given.get(k)
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            out[k] = value
    return out
