"""Power-safe saves in ``microcontroller.nvm``: the current game, the settings, and a ring of
finished-game and crash records for the host to pull. See docs/persistence.md for the format
and what a power cut can and cannot cost.

``nvm`` is one 4 KB flash sector on RP2. Programming erased (0xFF) bytes is cheap and leaves
everything else alone; writing over anything else erases and reprograms the whole sector. So
the store appends records (nvmlog.py) into erased space, one slice assignment per save, and
only when the sector is full rewrites it once with the live records (a compaction): one slice
assignment of the whole sector, the saved game first.

Mounting never raises. ``store.status`` is None, or a short message for the screen when the
memory held something the store could not use (it then starts fresh, or with what survived).
"""

import gc

from shared_rules._compat import const

from . import nvmlog
from .nvmlog import BAD, BLANK, GOOD, MAGIC, OVERHEAD

# Format version, in the base record. 2: the log may hold K_GAMEDIFF records. A version 1
# sector (older firmware's) is read as it is and gets no diff record until its next
# compaction writes version 2; older firmware says "newer version" about a version 2 sector
# rather than "corrupt" (docs/persistence.md, "Format").
VERSION = const(2)

# Record kinds on flash
K_BASE = const(0x01)  # first record of a compacted image (what follows, counters)
K_GAME = const(0x02)
K_NOGAME = const(0x03)  # the game was cleared
K_SETTINGS = const(0x04)
K_RING = const(0x05)  # a finished-game / crash record for the host
K_ACK = const(0x06)  # the host has pulled the ring up to a sequence number
K_SEEN = const(0x07)  # the notice in the base record has been on screen (a save followed)
K_GAMEDIFF = const(0x08)  # the same game again: keep a prefix of the saved payload, add a tail

# Ring record kinds the app uses (any 1..255 is accepted)
KIND_FINISHED = const(1)
KIND_CRASH = const(2)
KIND_GAME = const(3)  # a finished game in its envelope (date, names: core/records.py)

MAX_PAYLOAD = const(1024)  # largest payload of any save, on a 4 KB nvm (see max_payload)
MAX_ID_LEN = const(32)  # bytes of a game id (UTF-8)
MIN_SIZE = const(256)  # smaller nvm: memory-only, nothing kept
BASE_BODY = const(15)
BASE_SIZE = const(27)  # OVERHEAD + BASE_BODY
SEQ_LIMIT = 0xFFFF0000  # sequence numbers are renumbered from 1 before they could wrap

MSG_BLANK = "No saved data - starting fresh"
MSG_FOREIGN = "Unknown data in memory - starting fresh"
MSG_CORRUPT = "Saved data was corrupt - starting fresh"
MSG_VERSION = "Saved data is from a newer version - starting fresh"
MSG_CUT = "Power cut while saving - starting fresh"
MSG_CUT_GAME = "Power cut while saving - saved game lost"
MSG_CUT_SETTINGS = "Power cut while saving - settings reset"
MSG_CUT_RECORDS = "Power cut while saving - some game records lost"
MSG_CUT_SETTINGS_RECORDS = "Power cut while saving - settings reset, some game records lost"
MSG_CUT_LAST = "Power cut while saving - last change lost"
MSG_NO_NVM = "No memory for saves - nothing will be kept"
MSG_ERROR = "Saved data unreadable - starting fresh"

# A notice (what was lost) is kept in the base record of the image written after damage, and
# shown at every mount until the next save: a power cut right after the repair cannot hide it.
# Its index here is what flash holds: append, never reorder.
_NOTICES = (None, MSG_CUT_GAME, MSG_CUT_SETTINGS, MSG_CUT_RECORDS, MSG_CUT, MSG_CORRUPT,
            MSG_FOREIGN, MSG_VERSION, MSG_ERROR, MSG_BLANK, MSG_CUT_LAST,
            MSG_CUT_SETTINGS_RECORDS)
_FRESH = (MSG_CUT, MSG_CORRUPT, MSG_FOREIGN, MSG_VERSION, MSG_ERROR)
# by mask: 1 game, 2 settings, 4 records (a lost game is "saved game lost" with or without
# records: the game matters most, and with the settings it is "starting fresh")
_LOSSES = (None, MSG_CUT_GAME, MSG_CUT_SETTINGS, MSG_CUT, MSG_CUT_RECORDS, MSG_CUT_GAME,
           MSG_CUT_SETTINGS_RECORDS, MSG_CUT)


def _combine(old, new):
    """One message for two losses (an earlier notice not yet seen, and a new one)."""
    if new is None:
        return old
    if old is None or old == MSG_BLANK or old == MSG_CUT_LAST:
        return new
    if new == MSG_BLANK or new == MSG_CUT_LAST or old in _FRESH:
        return old
    if new in _FRESH:
        return new
    return _LOSSES[_LOSSES.index(old) | _LOSSES.index(new)]


class _Corrupt(Exception):
    pass


def _fill_erased(buf, start, end):
    ff = b"\xff" * 64
    while start < end:
        n = min(64, end - start)
        buf[start:start + n] = ff[:n]
        start += n


class Store:
    """The save store on an nvm bytearray (``len``, indexing, slices, slice assignment)."""

    def __init__(self, nvm):
        self.status = None
        self.error = None  # the exception, if mounting hit an unexpected one
        self.max_payload = MAX_PAYLOAD
        self.unsaved = False  # the last save_game found no heap for a compaction
        self._nvm = nvm
        self._end = 0  # nvm bytes used; 0 = memory only
        self._clear_state()
        try:
            self._mount()
        except Exception as exc:  # mounting never raises
            self.error = exc
            self._clear_state()
            self._dirty = True
            if self.status is None or self.status == MSG_BLANK:
                self.status = MSG_ERROR

    # ---- the API -------------------------------------------------------------------------

    def load_game(self):
        """``(game_id, payload)`` of the saved game, or None."""
        g = self._game
        return None if g is None else (g[1], g[2])

    def save_game(self, game_id, payload):
        """Save the current game. False (and nothing written) when it equals the saved one, or
        when a compaction found no heap for the sector's image: then ``unsaved`` is True, the
        last save stands, and the next save tries again (a game plays on; docs/persistence.md,
        "Writing")."""
        gid = self._id_bytes(game_id)
        payload = self._check_payload(payload)
        g = self._game
        kind = K_GAME
        if g is not None and g[1] == game_id:
            old = g[2]
            if old == payload:
                return False
            # The same game again (a move added, or undone): keep the common prefix of the
            # saved payload and write the tail, when that is shorter than the whole game.
            n = min(len(old), len(payload))
            keep = 0
            while keep < n and old[keep] == payload[keep]:
                keep += 1
            if self._version > 1 and 2 + len(payload) - keep < 1 + len(gid) + len(payload):
                kind = K_GAMEDIFF
        saved = self._snapshot()
        self._game = (self._seq, game_id, payload)
        try:
            if kind == K_GAMEDIFF:
                self._commit(kind, keep.to_bytes(2, "big") + payload[keep:], saved)
            else:
                self._commit(kind, bytes((len(gid),)) + gid + payload, saved)
        except MemoryError:  # no 4 KB for a compaction now: the last save stands
            self.unsaved = True
            return False
        self.unsaved = False
        return True

    def clear_game(self):
        """Forget the saved game. False when there was none."""
        if self._game is None:
            return False
        saved = self._snapshot()
        self._game = None
        self._commit(K_NOGAME, b"", saved)
        return True

    def load_settings(self):
        s = self._settings
        return None if s is None else s[1]

    def save_settings(self, payload):
        """Save the settings. False (and nothing written) when unchanged."""
        payload = self._check_payload(payload)
        s = self._settings
        if s is not None and s[1] == payload:
            return False
        saved = self._snapshot()
        self._settings = (self._seq, payload)
        self._commit(K_SETTINGS, payload, saved)
        return True

    def append_record(self, kind, payload):
        """Keep a record (kind 1 finished game, 2 crash, any 1..255) for the host; returns its
        sequence number. When the sector fills, the oldest records are dropped."""
        if not isinstance(kind, int) or kind < 1 or kind > 255:
            raise ValueError("record kind {!r} is not 1..255".format(kind))
        payload = self._check_payload(payload)
        saved = self._snapshot()
        self._ring.append((self._seq, kind, payload))
        self._commit(K_RING, bytes((kind,)) + payload, saved)
        return self._ring[-1][0]

    def records(self, acked=False):
        """``[(seq, kind, payload)]`` oldest first: the records the host has not acknowledged
        (with ``acked=True`` also acknowledged ones not yet dropped)."""
        ack = self._ack
        return [r for r in self._ring if acked or r[0] > ack]

    def waiting(self):
        """How many finished games wait on the board for ``lunchbox pull`` (the menu's status:
        here, so the menu's VM does not load core/records.py for it)."""
        n = 0
        for r in self.records():
            if r[1] == KIND_FINISHED or r[1] == KIND_GAME:
                n += 1
        return n

    def kept(self, record):
        """The newest game record kept is ``record`` (bare, or in its envelope): a game's end
        resumed after a power cut keeps its record once (companion/keeping.py)."""
        last = None
        for r in self.records(True):
            if r[1] == KIND_FINISHED or r[1] == KIND_GAME:
                last = r[2]
        return last is not None and last[len(last) - len(record):] == record

    def ack_records(self, up_to_seq):
        """The host has pulled every record up to ``up_to_seq``: they may be dropped at the next
        compaction. False when that changes nothing."""
        if not isinstance(up_to_seq, int) or up_to_seq < 0:
            raise ValueError("sequence number {!r} is not an int >= 0".format(up_to_seq))
        n = min(up_to_seq, self._seq - 1)  # never hide records not written yet
        ack = self._ack
        if n <= ack or not [r for r in self._ring if ack < r[0] <= n]:
            return False  # nothing newly acknowledged: no write
        saved = self._snapshot()
        self._ack = n
        self._commit(K_ACK, n.to_bytes(4, "big"), saved)
        return True

    def make_room(self, nbytes):
        """Compact now when fewer than ``nbytes`` are free for appends, so that the saves to
        come fit without a compaction when the heap is fuller (called as a game's VM starts,
        before the game is built: docs/firmware.md). True when it compacted. Never raises but
        for a power cut: a failure leaves everything as it was (the next save compacts)."""
        if self._end == 0 or not self._dirty and self._end - self._pos >= nbytes:
            return False
        saved = self._snapshot()
        try:
            self._compact_retry(self._seq, True, self._notice)
        except Exception as exc:  # MemoryError, or the simulator's file is read-only
            self.error = exc
            self._restore(saved)
            return False
        return True

    def room(self, size, game_size=None):
        """How many more ring records of ``size`` payload bytes fit before a compaction would
        have to drop one the host has not acknowledged yet, counting a saved game of
        ``game_size`` bytes (default ``size``: the game being played is saved while its record
        is written). 0: the next one may push the oldest waiting record out."""
        if self._end == 0:
            return 0xFFFF  # memory only: nothing is kept anyway, nothing to warn about
        total = BASE_SIZE + OVERHEAD + 1 + MAX_ID_LEN + (size if game_size is None
                                                           else game_size)
        if self._settings is not None:
            total += OVERHEAD + len(self._settings[1])
        for r in self.records():
            total += OVERHEAD + 1 + len(r[2])
        budget = self._end - self._end // 2
        if total >= budget:
            return 0
        return (budget - total) // (OVERHEAD + 1 + size)

    def stats(self):
        """Figures for the about screen."""
        return {
            "size": self._end,
            "used": self._pos,
            "free": self._end - self._pos,
            "compactions": self._compactions,
            "records": len(self.records()),
            "seq": self._seq,
        }

    # ---- validation ----------------------------------------------------------------------

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

    # ---- state ---------------------------------------------------------------------------

    def _clear_state(self):
        self._pos = 0  # where the next record goes
        self._seq = 1  # the next sequence number
        self._game = None  # (seq, game_id, payload)
        self._settings = None  # (seq, payload)
        self._ring = []  # [(seq, kind, payload)], ascending seq
        self._ack = 0
        self._compactions = 0
        self._dirty = False  # the next write must compact (the log is not appendable)
        self._notice = 0  # index in _NOTICES of the notice in the base record, until a save
        self._version = VERSION  # of the base record on flash (1: no diff records in its log)

    def _snapshot(self):
        return (self._game, self._settings, list(self._ring), self._ack, self._pos, self._seq,
                self._compactions, self._dirty, self._notice)

    def _restore(self, s):
        (self._game, self._settings, self._ring, self._ack, self._pos, self._seq,
         self._compactions, self._dirty, self._notice) = s

    # ---- writing -------------------------------------------------------------------------

    def _commit(self, kind, body, saved):
        """Persist one change already made in memory (its record takes sequence ``_seq``);
        undo it in memory if writing fails."""
        try:
            seq = self._seq
            if self._end == 0:
                self._seq = seq + 1
                return
            rec = nvmlog.encode(kind, seq, body)
            nxt = seq + 1
            if self._notice:  # the first save after a notice also records that it was seen
                rec = rec + nvmlog.encode(K_SEEN, nxt, b"")
                nxt += 1
            pos = self._pos
            if not self._dirty and pos + len(rec) <= self._end and nxt < SEQ_LIMIT:
                self._nvm[pos:pos + len(rec)] = rec
                self._pos = pos + len(rec)
                self._seq = nxt
            else:
                self._compact_retry(seq + 1)
            self._notice = 0
        except BaseException:
            self._restore(saved)
            raise

    def _compact_retry(self, base_seq, count=True, notice=0):
        # The image is 4 KB in one piece: a fragmented heap may have it only after a collect.
        # _compact changes nothing before the sector is written, so a retry starts clean.
        try:
            self._compact(base_seq, count, notice)
        except MemoryError:
            gc.collect()
            self._compact(base_seq, count, notice)

    def _compact(self, base_seq, count=True, notice=0):
        """Rewrite the sector as one image: base record, game, settings, then the ring records
        not yet acknowledged, newest first, the oldest dropped to keep half the sector free."""
        end = self._end
        if base_seq >= SEQ_LIMIT:
            base_seq = self._renumber()
        ring = [r for r in self._ring if r[0] > self._ack]
        game = self._game
        settings = self._settings
        recs = []
        if game is not None:
            gid = game[1].encode("utf-8")
            recs.append(nvmlog.encode(K_GAME, game[0], bytes((len(gid),)) + gid + game[2]))
        if settings is not None:
            recs.append(nvmlog.encode(K_SETTINGS, settings[0], settings[1]))
        total = BASE_SIZE
        for r in recs:
            total += len(r)
        for r in ring:
            total += OVERHEAD + 1 + len(r[2])
        budget = end - end // 2
        while ring and (total > end or total > budget and len(ring) > 1):
            total -= OVERHEAD + 1 + len(ring[0][2])
            ring.pop(0)
        flags = (1 if game is not None else 0) | (2 if settings is not None else 0)
        compactions = self._compactions + (1 if count else 0)
        img = bytearray(end)
        pos = BASE_SIZE
        for r in recs:
            img[pos:pos + len(r)] = r
            pos += len(r)
        for i in range(len(ring) - 1, -1, -1):
            seq, kind, payload = ring[i]
            r = nvmlog.encode(K_RING, seq, bytes((kind,)) + payload)
            img[pos:pos + len(r)] = r
            pos += len(r)
        body = bytearray(BASE_BODY)
        body[0] = VERSION
        body[1] = flags
        body[2:4] = len(ring).to_bytes(2, "big")
        body[4:8] = compactions.to_bytes(4, "big")
        body[8:12] = self._ack.to_bytes(4, "big")
        body[12:14] = pos.to_bytes(2, "big")
        body[14] = notice
        img[0:BASE_SIZE] = nvmlog.encode(K_BASE, base_seq, body)
        _fill_erased(img, pos, end)
        self._nvm[0:end] = img  # one slice assignment: erase + program on a used sector
        self._ring = ring
        self._pos = pos
        self._seq = base_seq + 1
        self._compactions = compactions
        self._dirty = False
        self._notice = notice
        self._version = VERSION

    def _renumber(self):
        """Give every live record a new sequence number from 1 (never happens in a flash's
        life: about 5 million saves wear the sector out, 4 billion would be needed)."""
        seq = 1
        ring = []
        for r in self._ring:
            if r[0] > self._ack:
                ring.append((seq, r[1], r[2]))
                seq += 1
        self._ring = ring
        self._ack = 0
        if self._game is not None:
            self._game = (seq, self._game[1], self._game[2])
            seq += 1
        if self._settings is not None:
            self._settings = (seq, self._settings[1])
            seq += 1
        return seq

    # ---- mounting ------------------------------------------------------------------------

    def _mount(self):
        try:
            size = len(self._nvm)
            data = self._nvm[0:size] if size >= MIN_SIZE else None
        except Exception:  # no usable nvm: memory only
            size, data = 0, None
        if data is None:
            self.status = MSG_NO_NVM
            return
        size = min(size, 0xFFFF)  # offsets are 16-bit; nvm is 4 KB on RP2 (8 KB elsewhere)
        self._end = size
        room = (size - BASE_SIZE - 3 * OVERHEAD - 2 - MAX_ID_LEN) // 3
        self.max_payload = min(MAX_PAYLOAD, room)
        try:
            msg = self._scan(data, size)
        except _Corrupt as exc:
            msg = exc.args[0]
            self._clear_state()
        data = None
        self.status = _combine(_NOTICES[self._notice], msg)
        if msg is None:
            return  # all well (perhaps with a notice not yet seen)
        msg = self.status
        # Write a clean image now, so appends never follow damage; it keeps the notice.
        self._dirty = True
        try:
            self._compact(self._seq, msg != MSG_BLANK, _NOTICES.index(msg))
        except Exception as exc:  # e.g. a read-only file in the simulator
            self.error = exc
            self._dirty = True

    def _scan(self, data, end):
        """Load the state from the sector image ``data``. Returns None when all is well (a torn
        last append included), else the status message; raises _Corrupt for a fresh start."""
        if nvmlog.erased(data, 0, end):
            return MSG_BLANK
        verdict, pos = nvmlog.check(data, 0, end)
        if verdict != GOOD or data[1] != K_BASE or pos != BASE_SIZE:
            if data[0] & MAGIC == MAGIC and nvmlog.erased(data, BASE_SIZE - 1, end):
                raise _Corrupt(MSG_CUT)  # the compaction was cut before its base was written
            if data[0] == MAGIC and data[1] == K_BASE:
                raise _Corrupt(MSG_CORRUPT)
            raise _Corrupt(MSG_FOREIGN)
        if data[8] != VERSION and data[8] != 1:
            raise _Corrupt(MSG_VERSION if data[8] > VERSION else MSG_CORRUPT)
        self._version = data[8]
        flags = data[9]
        ring_count = (data[10] << 8) | data[11]
        compactions = int.from_bytes(data[12:16], "big")
        ack = int.from_bytes(data[16:20], "big")
        image_len = (data[20] << 8) | data[21]
        notice = data[22]
        base_seq = nvmlog.seq_of(data, 0)
        if flags > 3 or image_len < BASE_SIZE or image_len > end or ack >= base_seq \
                or notice >= len(_NOTICES):
            raise _Corrupt(MSG_CORRUPT)
        self._notice = notice
        self._compactions = compactions
        self._ack = ack
        self._seq = base_seq + 1
        # The image: exactly the records the base announces, each older than the base.
        damaged = False
        while pos < image_len:
            verdict, nxt = nvmlog.check(data, pos, image_len)
            if verdict != GOOD or nvmlog.seq_of(data, pos) >= base_seq:
                damaged = True
                break
            kind = data[pos + 1]
            if kind == K_GAME and (flags & 1) and self._game is None and not self._settings \
                    and not self._ring:
                self._apply(data, pos, nxt)
            elif kind == K_SETTINGS and (flags & 2) and self._settings is None and not self._ring:
                self._apply(data, pos, nxt)
            elif kind == K_RING and len(self._ring) < ring_count:
                self._apply(data, pos, nxt)
            else:
                raise _Corrupt(MSG_CORRUPT)
            pos = nxt
        lost_game = (flags & 1) and self._game is None
        lost_settings = (flags & 2) and self._settings is None
        lost_ring = len(self._ring) < ring_count
        if damaged or pos != image_len or lost_game or lost_settings or lost_ring:
            # A compaction cut part-way: what was programmed is the newest of everything, so
            # keep it and say what is gone. Nothing may have been appended after it.
            if not nvmlog.erased(data, image_len, end):
                raise _Corrupt(MSG_CORRUPT)
            self._ring.sort()
            if lost_game:
                return MSG_CUT if lost_settings else MSG_CUT_GAME
            if lost_settings:
                return MSG_CUT_SETTINGS_RECORDS if lost_ring else MSG_CUT_SETTINGS
            return MSG_CUT_RECORDS
        # The log after the image: consecutive sequence numbers, so a record that vanished
        # shows as a gap; a torn append (prefix programmed, last byte still erased) is skipped
        # and its number reused by the next append.
        expect = base_seq + 1
        msg = None
        while pos < end:
            verdict, nxt = nvmlog.check(data, pos, end)
            if verdict == BLANK and nvmlog.erased(data, pos, end):
                break
            if verdict != GOOD and not (verdict == BAD and nvmlog.torn(data, pos, nxt, end)
                                        and not nvmlog.hides(data, pos, nxt)
                                        and not nvmlog.resized(data, pos, nxt)):
                # Not an append cut cleanly. As the very end of the log (nothing good after
                # it) it is a save whose programming was cut unevenly, or the last record
                # damaged: keep the state before it and say so. Anywhere else: corrupt.
                if nvmlog.good_after(data, pos, end) or not nvmlog.one_write(data, pos, end,
                                                                            expect):
                    raise _Corrupt(MSG_CORRUPT)
                msg = MSG_CUT_LAST
                pos = end
                break
            if verdict == GOOD:
                if nvmlog.seq_of(data, pos) != expect:
                    raise _Corrupt(MSG_CORRUPT)
                kind = data[pos + 1]
                if kind == K_BASE:
                    raise _Corrupt(MSG_CORRUPT)
                self._apply(data, pos, nxt)
                expect += 1
            pos = nxt  # a good record, or an append cut cleanly (its number is reused)
        self._pos = pos
        self._seq = expect
        self._ring.sort()
        return msg

    def _apply(self, data, pos, nxt):
        """Apply one good record to the in-memory state."""
        kind = data[pos + 1]
        seq = nvmlog.seq_of(data, pos)
        body = bytes(memoryview(data)[pos + 8:nxt - 4])
        if kind == K_GAME:
            n = body[0] if body else 0
            if n < 1 or n > MAX_ID_LEN or 1 + n > len(body):
                raise _Corrupt(MSG_CORRUPT)
            gid = None
            try:
                gid = str(body[1:1 + n], "utf-8")
            except Exception:  # not UTF-8: not ours (raised below)
                pass
            if gid is None:
                raise _Corrupt(MSG_CORRUPT)
            self._game = (seq, gid, body[1 + n:])
        elif kind == K_GAMEDIFF:
            # the saved game's first ``keep`` bytes, then the tail (save_game)
            g = self._game
            keep = (body[0] << 8) | body[1] if len(body) > 1 else 0xFFFF
            if self._version < 2 or g is None or keep > len(g[2]) \
                    or keep + len(body) - 2 > self.max_payload:
                raise _Corrupt(MSG_CORRUPT)
            self._game = (seq, g[1], g[2][:keep] + body[2:])
        elif kind == K_NOGAME and not body:
            self._game = None
        elif kind == K_SETTINGS:
            self._settings = (seq, body)
        elif kind == K_RING and body and body[0]:
            self._ring.append((seq, body[0], body[1:]))
        elif kind == K_SEEN and not body:
            self._notice = 0
        elif kind == K_ACK and len(body) == 4:
            n = int.from_bytes(body, "big")
            if n >= seq:
                raise _Corrupt(MSG_CORRUPT)
            if n > self._ack:
                self._ack = n
        else:
            raise _Corrupt(MSG_CORRUPT)

