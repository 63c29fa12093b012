"""Saves and records in files, on MicroPython's littlefs: the same API as store.Store (the nvm
log CircuitPython has), laid out so that every write is one file written aside and renamed
(littlefs renames atomically: a power cut leaves the old file or the new one, never half of
either). docs/persistence.md, "On MicroPython: littlefs".

Under ``root`` (/data on the board):

- ``game.lbs``, ``settings.lbs``, ``meta.lbs``: the saved game, the settings, and the record
  counters (next sequence number, acknowledged one, the kinds that are not games, the last game
  record kept); each b"LBS1" + body + CRC-32 of the body (4 bytes, big-endian).
- ``rec/NNNNNNNN.rec``: one finished game (or crash) each, until the host has it: b"LBR1" +
  kind + payload + CRC-32 of kind and payload. The host (`lunchbox pull` over mpremote) reads
  them and removes each one it has stored; this layout is its contract.
- ``*.tmp``: a write cut by a power cut (removed at mount); ``*.bad``: a file found corrupt,
  set aside (named in ``status`` until the next write removes it).

Mounting never raises: ``status`` is None or a short message for the screen. A record file is
checked when it is read (records(), kept()), not at mount: opening a file on littlefs walks its
folder, so reading them all at every start would cost seconds with hundreds waiting.
"""

from shared_rules._compat import const

from .crc32 import crc32
from .saveformat import (
    KIND_FINISHED,
    KIND_GAME,
    MAX_ID_LEN,
    MAX_PAYLOAD,
    MSG_BLANK,
    MSG_ERROR,
)

ENOSPC = const(28)  # littlefs's "no space" (MicroPython's errno module lacks the name)
REC_MAGIC = b"LBR1"
STATE_MAGIC = b"LBS1"
# Bytes of free space a finished-game record may not take: the saved game (up to 1 KB, written
# aside before the old one goes) and the settings always find room, however many records wait.
RESERVE = const(24576)
# What a record costs the file system, for room(). A file of up to 512 bytes lives inline in
# its folder's metadata pair (two 4 KB blocks), and littlefs splits a pair in halves when it
# holds 2 KB, so the pairs behind the newest keep about 1 KB of files each; a longer file takes
# a block. bench/mp_records.py measured 926 B a record of 90 bytes on the Pico's littlefs, 1852
# for 200, 2081 for 260, 4385 for 512; rec_cost() gives 1024, 2048, 2730, 4608.
INLINE_MAX = const(512)
PAIR = const(8192)  # a metadata pair's two blocks ...
PAIR_FILES = const(1024)  # ... hold this much of its files (with their names and tags)
FILE_TAGS = const(20)  # a file's name and tags in the pair
BLOCK_COST = const(4608)  # a record in a block of its own, and its entry

KEEP_OTHER = const(32)  # crash records remembered in meta (waiting() counts the rest as games)

_WHAT = {"game": "game", "settings": "settings", "meta": "record counters"}
MSG_FULL = "Storage full - pull records with lunchbox pull"
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


def rec_cost(size):
    """Bytes of the file system a record of ``size`` payload bytes takes (an estimate that
    errs high: room() must not promise more than fits)."""
    n = len(REC_MAGIC) + 1 + size + 4
    if n > INLINE_MAX:
        return BLOCK_COST
    return min(BLOCK_COST, PAIR // max(1, PAIR_FILES // (n + FILE_TAGS)))


def rec_name(seq):
    return "{:08d}".format(seq)


def seal(magic, body):
    return magic + body + crc32(body).to_bytes(4, "big")


def unseal(magic, data):
    """The body of a sealed file's bytes, or None when they are not one."""
    if data is None or len(data) < 8 or data[:4] != magic:
        return None
    body = data[4:-4]
    if crc32(body) != int.from_bytes(data[-4:], "big"):
        return None
    return body


class FileStore:
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
        self._seqs = []  # sequence numbers of the record files, ascending
        self._next = 1
        self._ack = 0
        self._other = []  # sequence numbers of records that are not games (crashes)
        self._last = None  # (seq, payload) of the last game record kept
        self._bad = []  # what was set aside, for status
        self._seen = False  # a write since the mount: the .bad files have been reported
        try:
            self._mount()
        except Exception as exc:  # mounting never raises: memory only
            self.error = exc
            self.root = None
            self._game = self._settings = self._last = None
            self._seqs = []
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
        if self._free() - RESERVE < rec_cost(len(payload)):
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
        name = self._path("rec/" + rec_name(seq))
        try:
            self._write(name + ".tmp", seal(REC_MAGIC, bytes((kind,)) + payload))
            self.fs.rename(name + ".tmp", name + ".rec")
        except OSError as exc:
            self._drop(name + ".tmp")
            if not _full(exc):
                raise
            return self._refused()
        self._seqs.append(seq)
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
        return _Records(self, [s for s in self._seqs if acked or s > self._ack])

    def waiting(self):
        """Finished games waiting for ``lunchbox pull`` (no file read: the crash records are
        known from the counters)."""
        n = 0
        for s in self._seqs:
            if s > self._ack and s not in self._other:
                n += 1
        return n

    def kept(self, record):
        """The newest game record kept is ``record`` (bare, or in its envelope): the newest
        file (while there is one) or the counters' copy, after the host took it."""
        last = self._last
        for i in range(len(self._seqs) - 1, max(-1, len(self._seqs) - 9), -1):
            s = self._seqs[i]
            if last is not None and s <= last[0]:
                break
            r = self._read_rec(s)
            if r is not None and (r[0] == KIND_FINISHED or r[0] == KIND_GAME):
                last = (s, r[1])
                break
        if last is None:
            return False
        p = last[1]
        return p[len(p) - len(record):] == record

    def ack_records(self, up_to_seq):
        """The host has every record up to ``up_to_seq``: their files are removed. False when
        that changes nothing."""
        if not isinstance(up_to_seq, int) or up_to_seq < 0:
            raise ValueError("sequence number {!r} is not an int >= 0".format(up_to_seq))
        n = min(up_to_seq, self._next - 1)  # never hide records not written yet
        ack = self._ack
        gone = [s for s in self._seqs if s <= n]
        if n <= ack or not [s for s in gone if s > ack]:
            return False  # nothing newly acknowledged: no write
        self._ack = n
        try:  # the acknowledgement first: a cut among the removals leaves files it hides
            self._put_meta()
        except BaseException:
            self._ack = ack
            raise
        for s in gone:
            self._drop_rec(s)
        return True

    def make_room(self, nbytes):
        """Nothing to compact on a file system: littlefs finds the room itself. False."""
        return False

    def room(self, size, game_size=None):
        """How many more records of ``size`` payload bytes fit beside the reserve (0: the next
        one may not be kept)."""
        if self.root is None:
            return 0xFFFF
        return max(0, (self._free() - RESERVE) // rec_cost(size))

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
                "records": len([s for s in self._seqs if s > self._ack]), "seq": self._next}

    # ---- validation (as store.Store) -----------------------------------------------------

    def _check_payload(self, payload):
        if not isinstance(payload, (bytes, bytearray)):
            raise ValueError("payload {!r} is not bytes".format(type(payload)))
        if len(payload) > self.max_payload:
            raise ValueError("payload of {} bytes is over {}".format(len(payload),
                                                                     self.max_payload))
        return bytes(payload)

    def _id_bytes(self, game_id):
        if not isinstance(game_id, str):
            raise ValueError("game id {!r} is not a str".format(game_id))
        raw = game_id.encode("utf-8")
        if not raw or len(raw) > MAX_ID_LEN:
            raise ValueError("game id {!r} is not 1..{} bytes".format(game_id, MAX_ID_LEN))
        return raw

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

    def _drop_rec(self, seq):
        if self.root is not None:
            self._drop(self._path("rec/" + rec_name(seq) + ".rec"))
        if seq in self._seqs:
            self._seqs.remove(seq)

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

    def _read_rec(self, seq):
        """(kind, payload) of record ``seq``, or None: a corrupt file is set aside."""
        path = self._path("rec/" + rec_name(seq))
        body = unseal(REC_MAGIC, self._read(path + ".rec"))
        if body is None or not body:
            if seq in self._seqs:  # gone (the host took it) or corrupt
                self._seqs.remove(seq)
                if self._set_aside(path + ".rec", path + ".bad"):
                    self._note("record " + str(seq))
            return None
        return body[0], bytes(body[1:])

    def _note(self, what):
        if what in self._bad:
            return
        self._bad.append(what)
        self.status = MSG_BAD + ", ".join(self._bad)

    # ---- mounting ------------------------------------------------------------------------

    def _mkdir(self, path):
        try:
            self.fs.mkdir(path)
        except OSError:
            self.fs.listdir(path)  # there already (else this raises: no store)

    def _mount(self):
        self._mkdir(self.root)
        self._mkdir(self._path("rec"))
        names = self._names(self.root)
        blank = True
        for name in names:
            if name.endswith(".tmp"):
                self._drop(self._path(name))
            elif name.endswith(".bad") and name[:-4] in _WHAT:
                self._note(_WHAT[name[:-4]])
        for name in ("game", "settings", "meta"):
            path = self._path(name + ".lbs")
            if name + ".lbs" not in names:
                continue
            blank = False
            body = unseal(STATE_MAGIC, self._read(path))
            if body is not None:
                try:
                    self._take(name, body)
                    continue
                except (ValueError, IndexError):
                    pass
            self._set_aside(path, self._path(name + ".bad"))
            self._note(_WHAT[name])
        top = 0
        for name in self._names(self._path("rec")):
            stem, dot, ext = name.partition(".")
            if len(stem) != 8 or not stem.isdigit():
                continue  # not the store's (the host's own files, if any)
            seq = int(stem)
            top = max(top, seq)
            if ext == "rec":
                self._seqs.append(seq)
                blank = False
            elif ext == "tmp":
                self._drop(self._path("rec/" + name))
            elif ext == "bad":
                self._note("record " + str(seq))
        self._seqs.sort()
        for s in [s for s in self._seqs if s <= self._ack]:
            self._drop_rec(s)  # acknowledged, and its removal cut
        self._next = max(self._next, top + 1)
        self._other = [s for s in self._other if s in self._seqs]
        if blank and self.status is None:
            self.status = MSG_BLANK
        if self._free() - RESERVE < BLOCK_COST:  # the longest record would be refused
            self.full = True
            self.status = MSG_FULL

    def _take(self, name, body):
        if name == "game":
            n = body[0]
            if n < 1 or n > MAX_ID_LEN or len(body) < 1 + n:
                raise ValueError("game id")
            self._game = (str(body[1:1 + n], "utf-8"), bytes(body[1 + n:]))
        elif name == "settings":
            self._settings = bytes(body)
        else:
            self._next = int.from_bytes(body[0:4], "big")
            self._ack = int.from_bytes(body[4:8], "big")
            k = body[8]
            other = []
            for i in range(k):
                other.append(int.from_bytes(body[9 + 4 * i:13 + 4 * i], "big"))
            at = 9 + 4 * k
            if len(body) < at or self._next < 1:
                raise ValueError("meta")
            self._other = other
            if len(body) >= at + 4:
                self._last = (int.from_bytes(body[at:at + 4], "big"), bytes(body[at + 4:]))


class _Records:
    """store.records(): the files read one at a time as the list is walked."""

    def __init__(self, store, seqs):
        self.store = store
        self.seqs = seqs

    def __len__(self):
        return len(self.seqs)

    def __iter__(self):
        for s in self.seqs:
            r = self.store._read_rec(s)
            if r is not None:
                yield (s, r[0], r[1])

    def __getitem__(self, i):
        out = list(self)
        return out[i]

    def __eq__(self, other):
        return list(self) == list(other)
