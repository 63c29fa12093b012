"""The games database: SQLite in the user's data folder, one row per record pulled off a
board, keyed by (board id, epoch, sequence number) so pulling twice stores nothing twice.

The epoch counts how many times a board's log started again from sequence 1 (its memory was
wiped or found corrupt): the pull notices a listed sequence number it already holds with
different bytes and opens a new epoch instead of mistaking new games for old ones.

Every change is one transaction (BEGIN IMMEDIATE ... COMMIT), so a host killed mid-pull leaves
the database as it was before the batch; the device is acknowledged only after the commit.
"""

import json
import os
import sqlite3
import time
from pathlib import Path

from .errors import LunchboxError

DB_ENV = "LUNCHBOX_DB"
SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS boards (
    board_id TEXT PRIMARY KEY,
    epoch INTEGER NOT NULL DEFAULT 0,
    firmware TEXT,
    profile TEXT,
    first_pull INTEGER,
    last_pull INTEGER
);
CREATE TABLE IF NOT EXISTS records (
    id INTEGER PRIMARY KEY,
    board_id TEXT NOT NULL,
    epoch INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    kind INTEGER NOT NULL,
    raw BLOB NOT NULL,            -- the record exactly as the board kept it
    crc INTEGER NOT NULL,         -- CRC-32 of raw, as the board lists it
    status TEXT NOT NULL,         -- ok | corrupt | crash | duplicate | other
    error TEXT,                   -- why it is corrupt
    game_id TEXT,
    params TEXT,                  -- JSON list
    record BLOB,                  -- the game record (shared_rules.games.record bytes)
    played_at INTEGER,            -- seconds since 1970 UTC
    date_source TEXT,             -- board (its clock was set) | pulled (date of the pull)
    players TEXT,                 -- JSON list of names, one per seat
    winners TEXT,                 -- JSON list of seats
    scores TEXT,                  -- JSON list of ints per seat
    actions INTEGER,
    pulled_at INTEGER NOT NULL,
    UNIQUE (board_id, epoch, seq)
);
CREATE INDEX IF NOT EXISTS records_game ON records (game_id, played_at);
"""

COLUMNS = ("id", "board_id", "epoch", "seq", "kind", "raw", "crc", "status", "error", "game_id",
           "params", "record", "played_at", "date_source", "players", "winners", "scores",
           "actions", "pulled_at")
JSON_COLUMNS = ("params", "players", "winners", "scores")


def default_path():
    env = os.environ.get(DB_ENV)
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("lunchbox", appauthor=False)) / "games.sqlite3"


class Database:
    def __init__(self, path=None):
        self.path = Path(path) if path else default_path()
        try:
            if str(self.path) != ":memory:":
                self.path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(str(self.path), isolation_level=None, timeout=10)
            self.conn.row_factory = sqlite3.Row
            version = self.conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise LunchboxError("{} was written by a newer lunchbox (schema {})".format(
                    self.path, version), "update lunchbox")
            self.conn.executescript(SCHEMA)
            self.conn.execute("PRAGMA user_version = {}".format(SCHEMA_VERSION))
        except sqlite3.DatabaseError as e:
            raise LunchboxError("cannot open the games database {}: {}".format(self.path, e),
                                "give another file with --db, or move this one aside") from None

    def close(self):
        self.conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- boards ------------------------------------------------------------------------

    def board(self, board_id):
        return self.conn.execute("SELECT * FROM boards WHERE board_id = ?",
                                 (board_id,)).fetchone()

    def epoch(self, board_id):
        row = self.board(board_id)
        return row["epoch"] if row else 0

    def stored(self, board_id, epoch, seq):
        """The stored record's CRC, or None."""
        row = self.conn.execute("SELECT crc FROM records WHERE board_id = ? AND epoch = ? AND "
                                "seq = ?", (board_id, epoch, seq)).fetchone()
        return None if row is None else row["crc"]

    # ---- writing (one transaction per call) --------------------------------------------

    def store_batch(self, board, rows, epoch=None, now=None):
        """Insert ``rows`` (dicts of record columns) for ``board`` (a linkproto.Hello) in one
        transaction; rows already stored are left alone. Returns how many were new."""
        now = int(now if now is not None else time.time())
        c = self.conn
        try:
            c.execute("BEGIN IMMEDIATE")
            c.execute("INSERT INTO boards (board_id, epoch, firmware, profile, first_pull, "
                      "last_pull) VALUES (?, 0, ?, ?, ?, ?) ON CONFLICT(board_id) DO UPDATE "
                      "SET firmware = excluded.firmware, profile = excluded.profile, "
                      "last_pull = excluded.last_pull",
                      (board.board_id, board.firmware, board.profile, now, now))
            if epoch is not None:
                c.execute("UPDATE boards SET epoch = ? WHERE board_id = ?",
                          (epoch, board.board_id))
            new = 0
            for row in rows:
                if row.get("status") == "ok" and row.get("record") is not None and c.execute(
                        "SELECT 1 FROM records WHERE board_id = ? AND record = ? AND status = "
                        "'ok' AND NOT (epoch = ? AND seq = ?)", (board.board_id, row["record"],
                                                                 row.get("epoch"),
                                                                 row.get("seq"))).fetchone():
                    # the same game kept twice by the board (a power cut between keeping a
                    # record and forgetting the saved game, then the last move made again)
                    row = dict(row, status="duplicate", error="the same game as one stored")
                cols = [k for k in COLUMNS if k in row]
                vals = [json.dumps(row[k]) if k in JSON_COLUMNS and row[k] is not None
                        else row[k] for k in cols]
                cur = c.execute("INSERT OR IGNORE INTO records ({}) VALUES ({})".format(
                    ", ".join(cols), ", ".join("?" * len(cols))), vals)
                new += cur.rowcount
            c.execute("COMMIT")
            return new
        except BaseException:
            if c.in_transaction:
                c.execute("ROLLBACK")
            raise

    # ---- reading -----------------------------------------------------------------------

    def games(self, game=None, player=None, board=None, include_bad=False):
        """Finished games (dicts, JSON decoded), oldest first."""
        sql = "SELECT * FROM records WHERE kind IN (1, 3)"
        args = []
        if not include_bad:
            sql += " AND status = 'ok'"
        if game:
            sql += " AND game_id = ?"
            args.append(game)
        if board:
            sql += " AND board_id LIKE ?"
            args.append(board + "%")
        sql += " ORDER BY played_at, board_id, epoch, seq"
        rows = [decode(r) for r in self.conn.execute(sql, args)]
        if player:
            want = player.upper()
            rows = [r for r in rows if want in [p.upper() for p in r["players"] or []]]
        return rows

    def get(self, record_id):
        row = self.conn.execute("SELECT * FROM records WHERE id = ?", (record_id,)).fetchone()
        return decode(row) if row else None

    def crashes(self):
        return [decode(r) for r in self.conn.execute(
            "SELECT * FROM records WHERE status = 'crash' ORDER BY pulled_at, seq")]

    def count(self):
        return self.conn.execute("SELECT COUNT(*) FROM records").fetchone()[0]

    def check(self):
        """SQLite's own integrity check: 'ok' or the problems."""
        return "; ".join(r[0] for r in self.conn.execute("PRAGMA integrity_check"))


def decode(row):
    d = dict(row)
    for k in JSON_COLUMNS:
        if d.get(k) is not None:
            d[k] = json.loads(d[k])
    return d
