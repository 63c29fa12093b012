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

from ..errors import LunchboxError, printable, shown

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


INT64 = (-(1 << 63), (1 << 63) - 1)  # SQLite's INTEGER range
OPEN_HINT = "give another file with --db, or move this one aside"


def _kind(path):
    """None for a regular file (links followed) or nothing there; else what is there."""
    import stat

    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        raise LunchboxError("cannot open the games database {}: {} is a file, not a folder"
                            .format(shown(path), shown(_file_above(path))), OPEN_HINT) from None
    except OSError as e:
        raise LunchboxError("cannot open the games database {}: {}".format(
            shown(path), e.strerror or e), OPEN_HINT) from None
    if stat.S_ISREG(mode):
        return None
    return "a folder" if stat.S_ISDIR(mode) else "not a regular file (a FIFO or a device)"


def _file_above(path):
    """The first folder on ``path``'s way that is a file (what makes it "not a directory")."""
    for parent in reversed(Path(os.path.abspath(path)).parents):
        if parent.exists() and not parent.is_dir():
            return parent
    return Path(path).parent


SQLITE_MAGIC = b"SQLite format 3\0"


def _header(path):
    """The first 100 bytes of the file (SQLite's header), b"" for an empty one."""
    try:
        with open(path, "rb") as f:
            return f.read(100)
    except OSError as e:
        raise LunchboxError("cannot open the games database {}: {}".format(
            shown(path), e.strerror or e), OPEN_HINT) from None


def _sql_error(path, e, doing="the games database"):
    """The LunchboxError for an SQLite error while the database was read or written."""
    text = str(e)
    if "full" in text:
        hint = "free some space on that disk; what was not stored is still on the board"
    elif "locked" in text or "busy" in text:
        hint = "another lunchbox is using it: let it finish, then try again"
    elif "malformed" in text or "not a database" in text:
        hint = ("it is damaged: use a copy of it, or move it aside and pull again (a board "
                "keeps the games not yet pulled)")
    else:
        hint = OPEN_HINT
    return LunchboxError("{} {}: {}".format(doing, shown(path), text), hint)


def converted(method):
    """``method`` with SQLite's errors as LunchboxError (a damaged, full or locked file)."""
    import functools

    @functools.wraps(method)
    def run(self, *args, **kw):
        try:
            return method(self, *args, **kw)
        except sqlite3.DatabaseError as e:
            raise _sql_error(self.path, e) from None
    return run


class Database:
    """Read-only until the first write: `history`, `replay`, `stats` and `export` open the file
    with SQLite's ``mode=ro`` and never create a folder, a file or a table; a missing file reads
    as an empty database. ``store_batch`` (a pull) reopens it for writing, making the folder,
    the file and the tables then. A file that is not a Lunchbox database (other tables) or was
    written by a newer lunchbox is refused either way, and left as it was."""

    def __init__(self, path=None):
        self.path = Path(path) if path else default_path()
        self.writable = False
        try:
            if str(self.path) == ":memory:":
                self._open_writable()
                return
            found = _kind(self.path)
            if found:
                raise LunchboxError("the games database {} is {}".format(shown(self.path), found),
                                    OPEN_HINT)
            empty = True
            if self.path.exists():
                mode = self._read_mode()
                try:
                    empty = self._open_read(mode)
                except sqlite3.OperationalError as e:
                    if getattr(e, "sqlite_errorcode", None) != sqlite3.SQLITE_READONLY_ROLLBACK:
                        raise
                    # a pull was killed mid-transaction: its journal must be rolled back
                    # before anyone can read, which SQLite does on any writable open; done
                    # only for a file that is ours (its schema read as the file stands)
                    self._open_read("ro&immutable=1")
                    self.conn.close()
                    self._connect("rw").execute("SELECT COUNT(*) FROM sqlite_master").close()
                    empty = self._open_read("ro")
            if empty:  # nothing stored yet: an empty schema in memory, nothing on disk
                self.conn = sqlite3.connect(":memory:", isolation_level=None)
                self.conn.row_factory = sqlite3.Row
                self.conn.executescript(SCHEMA)
        except sqlite3.DatabaseError as e:
            raise _sql_error(self.path, e, "cannot open the games database") from None

    def _read_mode(self):
        """SQLite's open mode to read the file with; LunchboxError for a file that is not
        SQLite, and for a foreign database in WAL mode (checked before SQLite is let at it:
        it makes the -wal and -shm files beside such a database even to read it)."""
        head = _header(self.path)
        if not head:
            return "ro"
        if not head.startswith(SQLITE_MAGIC):
            raise LunchboxError("cannot open the games database {}: it is not an SQLite "
                                "database; left as it is".format(shown(self.path)), OPEN_HINT)
        if 2 not in head[18:20]:  # the read and write versions: 2 is WAL
            return "ro"
        if not self._open_read("ro&immutable=1"):
            self.conn.close()
        # ours (a user switched it to WAL): read as it stands when no -wal file holds more
        return "ro" if os.path.exists(str(self.path) + "-wal") else "ro&immutable=1"

    def _open_read(self, mode):
        """Connect with ``mode`` and check the schema; True (and closed) when it is empty. The
        file as it stands (``immutable``) is checked for its schema alone: a batch a killed
        pull left half-written is damage until SQLite rolls it back."""
        self.conn = self._connect(mode)
        try:
            empty = self._check_schema(whole="immutable" not in mode)
        except BaseException:
            self.conn.close()
            raise
        if empty:
            self.conn.close()
        return empty

    def _connect(self, mode):
        from urllib.parse import quote

        # the path's bytes, %-encoded: SQLite decodes them back (a name not in UTF-8 too)
        uri = "file:{}?mode={}".format(quote(os.fsencode(os.path.abspath(self.path))), mode)
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=10)
        conn.row_factory = sqlite3.Row
        return conn

    def _check_schema(self, whole=True):
        """True when the file is empty (no tables yet); LunchboxError when it is not ours."""
        c = self.conn
        version = c.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if version > SCHEMA_VERSION:
            raise LunchboxError("{} was written by a newer lunchbox (schema {}); left as it "
                                "is".format(shown(self.path), version), "update lunchbox")
        if version == 0 and not tables:
            return True
        damage = [r[0] for r in c.execute("PRAGMA quick_check(1)")] if whole else ["ok"]
        if damage != ["ok"]:  # refused whole, before a read gives half or a pull adds to it
            first = [line for line in "\n".join(damage).splitlines() if "***" not in line]
            raise sqlite3.DatabaseError("database disk image is malformed: {}".format(
                " ".join(" ".join(first).split())[:200]))
        cols = {r[1] for r in c.execute("PRAGMA table_info(records)")}
        # version 0 with our tables: made by a lunchbox killed before it wrote the version
        if version not in (0, SCHEMA_VERSION) or "boards" not in tables or not set(COLUMNS) <= cols:
            raise LunchboxError("{} is not a lunchbox games database (it holds other tables: "
                                "{}); left as it is".format(
                                    shown(self.path), ", ".join(sorted(tables)) or "none"),
                                OPEN_HINT)
        return False

    def _open_writable(self):
        if self.writable:
            return
        memory = str(self.path) == ":memory:"
        if not memory:
            found = _kind(self.path)
            if found:
                raise LunchboxError("the games database {} is {}".format(shown(self.path), found),
                                    OPEN_HINT)
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise LunchboxError("cannot make the folder for the games database {}: {}"
                                    .format(shown(self.path), e.strerror or e),
                                    "give a file in a folder you can write with --db or $"
                                    + DB_ENV) from None
            if getattr(self, "conn", None) is not None:
                self.conn.close()
        try:
            if memory:
                self.conn = sqlite3.connect(":memory:", isolation_level=None)
                self.conn.row_factory = sqlite3.Row
            else:
                self.conn = self._connect("rwc")
            if self._check_schema() or not self.conn.execute("PRAGMA user_version").fetchone()[0]:
                # one transaction: the tables and the version are there together or not at all
                self.conn.executescript("BEGIN IMMEDIATE;\n{}\nPRAGMA user_version = {};\n"
                                        "COMMIT;".format(SCHEMA, SCHEMA_VERSION))
        except sqlite3.DatabaseError as e:
            raise LunchboxError("cannot open the games database {}: {}".format(shown(self.path), e),
                                OPEN_HINT) from None
        self.writable = True

    def close(self):
        self.conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # ---- boards ------------------------------------------------------------------------

    @converted
    def board(self, board_id):
        return self.conn.execute("SELECT * FROM boards WHERE board_id = ?",
                                 (board_id,)).fetchone()

    @converted
    def epoch(self, board_id):
        row = self.board(board_id)
        return row["epoch"] if row else 0

    @converted
    def stored(self, board_id, epoch, seq):
        """The stored record's CRC, or None."""
        row = self.conn.execute("SELECT crc FROM records WHERE board_id = ? AND epoch = ? AND "
                                "seq = ?", (board_id, epoch, seq)).fetchone()
        return None if row is None else row["crc"]

    # ---- writing (one transaction per call) --------------------------------------------

    @converted
    def store_batch(self, board, rows, epoch=None, now=None):
        """Insert ``rows`` (dicts of record columns) for ``board`` (a linkproto.Hello) in one
        transaction; rows already stored are left alone. Returns how many were new."""
        now = int(now if now is not None else time.time())
        self._open_writable()
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

    @converted
    def games(self, game=None, player=None, board=None, include_bad=False):
        """Finished games (dicts, JSON decoded), oldest first."""
        sql = "SELECT * FROM records WHERE kind IN (1, 3)"
        args = []
        if not include_bad:
            sql += " AND status = 'ok'"
        if game:
            sql += " AND game_id = ?"
            args.append(game)
        if board:  # the start of the id (not LIKE: a typed % or _ is no wildcard)
            sql += " AND substr(board_id, 1, ?) = ?"
            args += [len(board), board]
        sql += " ORDER BY played_at, board_id, epoch, seq"
        rows = [decode(r) for r in self.conn.execute(sql, args)]
        if player:
            want = player.upper()
            rows = [r for r in rows if want in [p.upper() for p in r["players"] or []]]
        return rows

    @converted
    def get(self, record_id):
        if not INT64[0] <= record_id <= INT64[1]:
            return None  # no row has such an id (SQLite would refuse the number)
        row = self.conn.execute("SELECT * FROM records WHERE id = ?", (record_id,)).fetchone()
        return decode(row) if row else None

    @converted
    def crashes(self):
        return [decode(r) for r in self.conn.execute(
            "SELECT * FROM records WHERE status = 'crash' ORDER BY pulled_at, seq")]

    @converted
    def count(self):
        return self.conn.execute("SELECT COUNT(*) FROM records").fetchone()[0]

    @converted
    def check(self):
        """SQLite's own integrity check: 'ok' or the problems."""
        return "; ".join(r[0] for r in self.conn.execute("PRAGMA integrity_check"))


def decode(row):
    """A record row as the commands read it: JSON columns decoded, the names and the crash
    text printable (the bytes as pulled stay in ``raw``)."""
    d = dict(row)
    for k in JSON_COLUMNS:
        if d.get(k) is not None:
            d[k] = json.loads(d[k])
    if d.get("players"):
        d["players"] = [printable(str(n)) for n in d["players"]]
    if d.get("error"):
        d["error"] = printable(d["error"])
    return d
