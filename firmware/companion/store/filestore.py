"""Saves and records in files, on MicroPython's littlefs: the same API as store.Store (the nvm
log CircuitPython has), laid out so that every write is atomic on littlefs: a state file is
written aside and renamed over the old one, a record is appended to its batch file, which
littlefs commits at close (copy-on-write: a power cut leaves the file as it was, never half a
frame; tests/test_filestore_powercut.py cuts at every program and erase to hold it to that).
docs/persistence.md, "On MicroPython: littlefs".

Under ``root`` (/data on the board):

- ``game.lbs``, ``settings.lbs``, ``meta.lbs``: the saved game, the settings, and the record
  counters (next sequence number, acknowledged one, the kinds that are not games, the last game
  record kept); each b"LBS1" + body + CRC-32 of the body (4 bytes, big-endian).
- ``rec/NNNNNNNN.rec``: a batch of records, NNNNNNNN (8 digits) the first one's sequence
  number, until the host has them: frames of b"LBR2" + seq (4 bytes) + kind (1) + payload
  length (2) + payload + CRC-32 of seq..payload (4), all big-endian, the numbers in a file
  consecutive. A record is appended to the newest batch while that stays within BATCH_MAX
  bytes (one 4 KB block), else it starts a new one (written as .tmp and renamed). A file of
  the firmware before batches holds one record: b"LBR1" + kind + payload + CRC-32 of kind and
  payload; it is still read. The host (`lunchbox pull` over mpremote) reads them and removes
  a file once it has stored all its records; this layout is its contract.
- ``*.tmp``: a write cut by a power cut (removed at mount); ``*.bad``: a file found corrupt,
  set aside (named in ``status`` until the next write removes it).

Mounting never raises: ``status`` is None or a short message for the screen. The mount walks
each batch's frame headers (seeking past the payloads: no payload is read) to count its
records; a payload's CRC is checked when it is read (records(), kept()).
"""

from shared_rules._compat import const

from .crc32 import crc32
from .filelayout import (  # (the names others import from here too)
    BATCH_MAGIC,
    BLOCK,
    ENOSPC,
    FRAME,
    HEAD,
    MSG_FULL,
    REC_MAGIC,
    RESERVE,
    STATE_MAGIC,
    unseal,
)
from .saveformat import (
    KIND_FINISHED,
    KIND_GAME,
    MAX_PAYLOAD,
    MSG_ERROR,
    check_payload,
    id_bytes,
)

# A batch file stays within one 4 KB block: littlefs copies a file's last block to a new one at
# each append (copy-on-write), so an append costs about one block's copy whatever the batch's
# size, and a batch of one block has no skip-list pointers. bench/mp_records.py, 200-byte
# records on the Pico's littlefs: batches of 1 KB keep 675, 2 KB 1515, 4 KB 3195, 8 KB 3308.
BATCH_MAX = const(4096)
# A batch file's share of its folder's metadata pairs: its entry (name, tags, MicroPython's
# mtime) and the log of its appends, pairs split in two when half full. bench/mp_records.py:
# room() then says 2-4 % less than the records that fit.
ENTRY_COST = const(320)
KEEP_OTHER = const(32)  # crash records remembered in meta (waiting() counts the rest as games)

MSG_BAD = "Corrupt save files set aside: "


class _OsFs:
    """The file system calls the store makes (tests put power cuts between them)."""

    def __init__(self):
        import os

        self.os = os

    def open(self, path, mode):
        return open(path, mode)

    def rename(self, a, b):
        self.os.rename(a, b)

    def remove(self, path):
        self.os.remove(path)

    def listdir(self, path):
        return self.os.listdir(path)

    def mkdir(self, path):
        self.os.mkdir(path)

    def statvfs(self, path):
        return self.os.statvfs(path)


def _full(exc):
    return isinstance(exc, OSError) and exc.args and exc.args[0] == ENOSPC


def rec_cost(size, batch=BATCH_MAX):
    """Bytes of the file system a record of ``size`` payload bytes takes, packed in batches
    (an estimate that errs high: room() must not promise more than fits)."""
    blocks = (batch + BLOCK - 1) // BLOCK
    return (blocks * BLOCK + ENTRY_COST) // max(1, batch // (size + FRAME)) + 1


def rec_name(seq):
    return "{:08d}".format(seq)


def frame(seq, kind, payload):
    """A record's frame in a batch file."""
    body = seq.to_bytes(4, "big") + bytes((kind,)) + len(payload).to_bytes(2, "big") + payload
    return BATCH_MAGIC + body + crc32(body).to_bytes(4, "big")


def seal(magic, body):
    return magic + body + crc32(body).to_bytes(4, "big")


class FileStore:
    # full, a record is refused (kept until a pull makes room), where the nvm Store pushes
    # out the oldest: store/records.warning says which
    drops_oldest = False

    def __init__(self, root="/data", fs=None):
        self.status = None
        self.error = None
        self.max_payload = MAX_PAYLOAD
        self.unsaved = False
        self.full = False  # the last write found the file system full
        self.fs = fs if fs is not None else _OsFs()
        self.root = root
        self._game = None  # (game_id, payload)
        self._settings = None
        self.batch_max = BATCH_MAX
        # the record files, oldest first: [first seq, records, bytes, appendable, 1 or 2 (LBR1,
        # LBR2)]; the numbers in a file are consecutive
        self._batches = []
        self._crashes = []  # numbers of the records in the files that are not games
        self._next = 1
        self._ack = 0
        self._other = []  # sequence numbers of records that are not games (crashes)
        self._last = None  # (seq, payload) of the last game record kept
        self._bad = []  # what was set aside, for status
        self._seen = False  # a write since the mount: the .bad files have been reported
        try:
            from .filemount import mount  # (main.open_store lets it go after the mount)

            mount(self)
        except Exception as exc:  # mounting never raises: memory only
            self.error = exc
            self.root = None
            self._game = self._settings = self._last = None
            self._batches = []
            self._next = 1
            self.status = MSG_ERROR

    # ---- the API -------------------------------------------------------------------------

    def load_game(self):
        return self._game

    def save_game(self, game_id, payload):
        """False (nothing written) when it equals the saved game, or when the file system is
        full: then ``unsaved`` is True, the last save stands and the next save tries again."""
        gid = self._id_bytes(game_id)
        payload = self._check_payload(payload)
        if self._game == (game_id, payload):
            return False
        try:
            self._put("game", bytes((len(gid),)) + gid + payload)
        except OSError as exc:
            if not _full(exc):
                raise
            self.unsaved = True
            return False
        self._game = (game_id, payload)
        self.unsaved = False
        return True

    def clear_game(self):
        if self._game is None:
            return False
        if self.root is not None:
            self._drop(self._path("game.lbs"))
            self._wrote()
        self._game = None
        return True

    def load_settings(self):
        return self._settings

    def save_settings(self, payload):
        """False when unchanged, or when the file system is full (the old settings stand)."""
        payload = self._check_payload(payload)
        if self._settings == payload:
            return False
        try:
            self._put("settings", payload)
        except OSError as exc:
            if not _full(exc):
                raise
            return False
        self._settings = payload
        return True

    def append_record(self, kind, payload):
        """Keep a record (kind 1..255) for the host; returns its sequence number, or None when
        the file system has no room for it beyond the reserve kept for the saved game (then
        ``status`` says so; nothing kept is dropped to make room)."""
        if not isinstance(kind, int) or kind < 1 or kind > 255:
            raise ValueError("record kind {!r} is not 1..255".format(kind))
        payload = self._check_payload(payload)
        seq = self._next
        if self.root is None:
            self._next = seq + 1
            return seq
        # any append needs a free block (the batch's block copied, or a new file's)
        if self._free() - RESERVE < BLOCK:
            return self._refused()
        # The number is taken on the file system first: the host removes the files it has
        # stored, and a number it has seen must never come again (a cut later leaves a gap)
        self._next = seq + 1
        try:
            self._put_meta()
        except OSError as exc:
            self._next = seq
            if not _full(exc):
                raise
            return self._refused()
        data = frame(seq, kind, payload)
        b = self._batches[-1] if self._batches else None
        try:
            if (b is not None and b[3] and b[0] + b[1] == seq
                    and b[2] + len(data) <= self.batch_max):
                self._append(b, data)
            else:
                name = self._rec_path(seq)
                try:
                    self._write(name[:-4] + ".tmp", data)
                    self.fs.rename(name[:-4] + ".tmp", name)
                except OSError:
                    self._drop(name[:-4] + ".tmp")
                    raise
                if b is not None:
                    b[3] = False  # never appended to again: its numbers stay consecutive
                self._batches.append([seq, 1, len(data), True, 2])
        except OSError as exc:
            if not _full(exc):
                raise
            return self._refused()
        self._kind(seq, kind)
        other, last = self._other, self._last
        if kind == KIND_FINISHED or kind == KIND_GAME:
            self._last = (seq, payload)
        else:
            self._other = (other + [seq])[-KEEP_OTHER:]
        try:  # the record is kept: the counters only spare waiting() and kept() reads
            self._put_meta()
        except OSError as exc:
            if not _full(exc):
                raise
            self._other, self._last = other, last
        return seq

    def records(self, acked=False):
        """The records the host has not acknowledged, oldest first, as a sequence of
        ``(seq, kind, payload)`` read from their files as it is walked (len() reads none).
        ``acked=True``: also acknowledged ones still on the file system."""
        lo = 0 if acked else self._ack
        return _Records(self, lo, self._count(lo))

    def waiting(self):
        """Finished games waiting for ``lunchbox pull`` (no file read: the mount counted the
        batches' records, and their kinds, from the frame headers)."""
        ack = self._ack
        return self._count(ack) - len([s for s in self._crashes if s > ack and self._has(s)])

    def kept(self, record):
        """The newest game record kept is ``record`` (bare, or in its envelope): the newest
        batch's (while there is one) or the counters' copy, after the host took it."""
        last = self._last
        for b in self._batches[-2:][::-1]:
            if last is not None and b[0] + b[1] - 1 <= last[0]:
                break
            found = None
            for r in self._frames(b, last[0] if last is not None else 0, True):
                found = r
            if found is not None:
                last = (found[0], found[2])
                break
        if last is None:
            return False
        p = last[1]
        return p[len(p) - len(record):] == record

    def ack_records(self, up_to_seq):
        """The host has every record up to ``up_to_seq``: the files whose records are all up
        to it are removed. False when that changes nothing."""
        if not isinstance(up_to_seq, int) or up_to_seq < 0:
            raise ValueError("sequence number {!r} is not an int >= 0".format(up_to_seq))
        n = min(up_to_seq, self._next - 1)  # never hide records not written yet
        ack = self._ack
        if n <= ack or self._count(ack) == self._count(n):
            return False  # nothing newly acknowledged: no write
        self._ack = n
        try:  # the acknowledgement first: a cut among the removals leaves files it hides
            self._put_meta()
        except BaseException:
            self._ack = ack
            raise
        self._drop_acked()
        return True

    def make_room(self, nbytes):
        """Nothing to compact on a file system: littlefs finds the room itself. False."""
        return False

    def room(self, size, game_size=None):
        """How many more records of ``size`` payload bytes fit beside the reserve (0: the next
        one may not be kept)."""
        if self.root is None:
            return 0xFFFF
        return max(0, (self._free() - RESERVE - BLOCK) // rec_cost(size, self.batch_max))

    def stats(self):
        size = used = 0
        if self.root is not None:
            try:
                st = self.fs.statvfs(self.root)
                size = st[1] * st[2]
                used = size - st[1] * st[3]
            except OSError:
                pass
        return {"size": size, "used": used, "free": size - used, "compactions": 0,
                "records": self._count(self._ack), "seq": self._next}

    # ---- validation (as store.Store) -----------------------------------------------------

    _check_payload = check_payload
    _id_bytes = id_bytes

    # ---- files ---------------------------------------------------------------------------

    def _path(self, name):
        return self.root + "/" + name

    def _read(self, path):
        try:
            with self.fs.open(path, "rb") as f:
                return f.read()
        except OSError:
            return None

    def _write(self, path, data):
        with self.fs.open(path, "wb") as f:
            n = f.write(data)
        if n is not None and n != len(data):
            raise OSError(ENOSPC)

    def _rec_path(self, first):
        return self._path("rec/" + rec_name(first) + ".rec")

    def _count(self, lo):
        """How many records above ``lo`` the files hold (no file read)."""
        n = 0
        for b in self._batches:
            n += max(0, min(b[1], b[0] + b[1] - 1 - lo))
        return n

    def _has(self, seq):
        for b in self._batches:
            if b[0] <= seq < b[0] + b[1]:
                return True
        return False

    def _drop_acked(self):
        for b in [b for b in self._batches if b[0] + b[1] - 1 <= self._ack]:
            if self.root is not None:
                self._drop(self._rec_path(b[0]))
            self._batches.remove(b)
        self._crashes = [s for s in self._crashes if self._has(s)]

    def _kind(self, seq, kind):
        if kind != KIND_FINISHED and kind != KIND_GAME and seq not in self._crashes:
            self._crashes.append(seq)

    def _append(self, b, data):
        """Append a frame to batch ``b``: littlefs commits it at close, or leaves the file as
        it was. A failure on a file system that is not littlefs may leave part of the frame:
        the batch is walked again and cut back to its whole frames."""
        try:
            with self.fs.open(self._rec_path(b[0]), "ab") as f:
                n = f.write(data)
            if n is not None and n != len(data):
                raise OSError(ENOSPC)
        except OSError:
            from .filemount import walk

            w = walk(self, b[0], True)
            if w is None:
                self._batches.remove(b)
            else:
                b[1], b[2], b[3] = w[1], w[2], w[3]
                if b[0] + b[1] - 1 == int.from_bytes(data[4:8], "big"):
                    return  # it got there whole after all
            raise  # (its number is a gap now: the next record starts a new batch)
        b[1] += 1
        b[2] += len(data)

    def _set_aside(self, path, bad):
        """Rename a corrupt file to .bad (kept to look at; the host takes only .rec files);
        removed where that fails. False when it is not there."""
        try:
            self.fs.rename(path, bad)
            return True
        except OSError:
            pass
        try:
            self.fs.remove(path)
            return True
        except OSError:
            return False

    def _drop(self, path):
        try:
            self.fs.remove(path)
        except OSError:
            pass

    def _put(self, name, body):
        """Write ``name``.lbs aside, then rename it over the old one; a failure removes the
        part written and leaves the old file (and the store) as they were."""
        if self.root is None:
            return
        tmp = self._path(name + ".tmp")
        try:
            self._write(tmp, seal(STATE_MAGIC, body))
            self.fs.rename(tmp, self._path(name + ".lbs"))
        except OSError as exc:
            self._drop(tmp)
            if _full(exc):
                self.full = True
                self.status = MSG_FULL
            raise
        self._wrote()

    def _put_meta(self):
        out = bytearray(self._next.to_bytes(4, "big") + self._ack.to_bytes(4, "big"))
        out.append(len(self._other))
        for s in self._other:
            out += s.to_bytes(4, "big")
        if self._last is not None:
            out += self._last[0].to_bytes(4, "big") + self._last[1]
        self._put("meta", bytes(out))

    def _wrote(self):
        # the first write after a mount: the notice about set-aside files has been on screen
        if self._seen:
            return
        self._seen = True
        if not self._bad:
            return  # none found: no folder to list (rec/ may hold hundreds of files)
        for sub in ("", "rec/"):
            for name in self._names(self._path(sub)):
                if name.endswith(".bad"):
                    self._drop(self._path(sub + name))

    def _names(self, path):
        try:
            return self.fs.listdir(path.rstrip("/"))
        except OSError:
            return []

    def _refused(self):
        self.full = True
        self.status = MSG_FULL
        return None

    def _free(self):
        try:
            st = self.fs.statvfs(self.root)
            return st[1] * st[3]  # fragment size x free blocks (littlefs: its block size)
        except OSError:
            return 0

    def _frames(self, b, lo, games=False):
        """(seq, kind, payload) of batch ``b``'s records above ``lo`` (``games``: only game
        records), each payload read and checked as it comes: a frame whose CRC is wrong is
        named in ``status`` and skipped (its file stays, for the host to say so too)."""
        if b[0] + b[1] - 1 <= lo:
            return
        path = self._rec_path(b[0])
        if b[4] == 1:
            body = unseal(REC_MAGIC, self._read(path))
            if body is None or not body:  # gone (the host took it) or corrupt
                if b in self._batches:
                    self._batches.remove(b)
                    if self._set_aside(path, path[:-4] + ".bad"):
                        self._note("record " + str(b[0]))
                return
            if not games or body[0] == KIND_FINISHED or body[0] == KIND_GAME:
                yield (b[0], body[0], bytes(body[1:]))
            return
        try:
            f = self.fs.open(path, "rb")
        except OSError:  # gone: the host took it
            if b in self._batches:
                self._batches.remove(b)
            return
        with f:
            at = 0
            for i in range(b[1]):
                f.seek(at)
                h = f.read(HEAD)
                if len(h) < HEAD or h[:4] != BATCH_MAGIC:
                    self._note("record " + str(b[0] + i))
                    return
                seq = int.from_bytes(h[4:8], "big")
                n = int.from_bytes(h[9:11], "big")
                at += FRAME + n
                if seq <= lo or (games and h[8] != KIND_FINISHED and h[8] != KIND_GAME):
                    continue
                rest = f.read(n + 4)
                if len(rest) != n + 4 or (crc32(h[4:] + rest[:n])
                                          != int.from_bytes(rest[n:], "big")):
                    self._note("record " + str(seq))
                    continue
                yield (seq, h[8], rest[:n])

    def _note(self, what):
        if what in self._bad:
            return
        self._bad.append(what)
        self.status = MSG_BAD + ", ".join(self._bad)

class _Records:
    """store.records(): the batch files read one at a time as the list is walked."""

    def __init__(self, store, lo, n):
        self.store = store
        self.lo = lo
        self.n = n

    def __len__(self):
        return self.n

    def __iter__(self):
        for b in list(self.store._batches):
            for r in self.store._frames(b, self.lo):
                yield r

    def __getitem__(self, i):
        out = list(self)
        return out[i]

    def __eq__(self, other):
        return list(self) == list(other)
